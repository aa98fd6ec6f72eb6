/**
 * The shops one runtime serves. A shop is onboarded with its distributor customer credentials
 * (account, username, country, API token) and its SMS credentials (named secrets an adapter reads,
 * e.g. Shopmonkey's `apiKey`). Secrets are `Redacted` in memory and sealed by `SecretBox`
 * (AES-256-GCM, key id beside each value) before they reach the database; the rest of a shop is
 * plain data. A shop whose distributor token was refused is marked `revoked`: launches for it fail
 * at once, without calling the distributor, until it is onboarded again with a new token.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { Values } from "@shoplink/protocol"
import { SmsCredentials } from "@shoplink/connector"
import type { CustomerCredentials } from "./CredentialStore.js"
import { run as runMigrations } from "./Migrations.js"
import { SecretBox, type SecretUnreadable } from "./SecretBox.js"

/**
 * What onboarding takes.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { ShopStore } from "@shoplink/connector-runtime"
 * const input: ShopStore.ShopInput = {
 *   id: "shop_1",
 *   name: "Main Street Auto",
 *   distributor: {
 *     accountNo: "100200",
 *     username: "parts@mainstreet.example",
 *     country: "US",
 *     apiToken: Redacted.make("t")
 *   },
 *   sms: { apiKey: Redacted.make("sm-key") }
 * }
 *
 * @since 0.1.0
 */
export interface ShopInput {
  /** The runtime's id of the shop (letters, digits, `.`, `_`, `-`; at most 64). */
  readonly id: string
  readonly name: string
  readonly distributor: CustomerCredentials
  /** The adapter's secrets for this shop, by name. */
  readonly sms: Readonly<Record<string, Redacted.Redacted<string>>>
}

/**
 * A shop as listed: everything but the secrets.
 *
 * @example
 * import type { ShopStore } from "@shoplink/connector-runtime"
 * const label = (shop: ShopStore.Shop) => `${shop.name} (${shop.distributor.accountNo}) ${shop.status}`
 *
 * @since 0.1.0
 */
export interface Shop {
  readonly id: string
  readonly name: string
  readonly distributor: { readonly accountNo: string; readonly username: string; readonly country: Values.Country }
  /** Names of the SMS secrets held (never their values). */
  readonly smsSecrets: ReadonlyArray<string>
  readonly status: "active" | "revoked"
  /** Why and when the shop was revoked (epoch ms), when it is. */
  readonly revoked: { readonly reason: string; readonly at: number } | undefined
  readonly createdAt: number
  readonly updatedAt: number
}

/**
 * Onboarding input that is wrong on its face; nothing was stored.
 *
 * @example
 * import { ShopStore } from "@shoplink/connector-runtime"
 * new ShopStore.InvalidShop({ field: "distributor.apiToken", rule: "must not be empty" }).message
 * // "distributor.apiToken must not be empty"
 *
 * @since 0.1.0
 */
export class InvalidShop extends Schema.TaggedError<InvalidShop>()("InvalidShop", {
  field: Schema.String,
  rule: Schema.String
}) {
  override get message(): string {
    return `${this.field} ${this.rule}`
  }
}

/**
 * No shop has this id.
 *
 * @example
 * import { ShopStore } from "@shoplink/connector-runtime"
 * new ShopStore.ShopNotFound({ shopId: "shop_9" }).message // "no shop shop_9"
 *
 * @since 0.1.0
 */
export class ShopNotFound extends Schema.TaggedError<ShopNotFound>()("ShopNotFound", { shopId: Schema.String }) {
  override get message(): string {
    return `no shop ${this.shopId}`
  }
}

/**
 * A shop with this id is already onboarded (pass `replace` to overwrite it).
 *
 * @example
 * import { ShopStore } from "@shoplink/connector-runtime"
 * new ShopStore.ShopExists({ shopId: "shop_1" }).message
 *
 * @since 0.1.0
 */
export class ShopExists extends Schema.TaggedError<ShopExists>()("ShopExists", { shopId: Schema.String }) {
  override get message(): string {
    return `shop ${this.shopId} already exists (replace it to change its credentials)`
  }
}

/**
 * The shop's distributor token was refused; it must be onboarded again with a new one.
 *
 * @example
 * import { ShopStore } from "@shoplink/connector-runtime"
 * new ShopStore.ShopRevoked({ shopId: "shop_1", reason: "API token refused (401 UNAUTHORIZED)" }).message
 *
 * @since 0.1.0
 */
export class ShopRevoked extends Schema.TaggedError<ShopRevoked>()("ShopRevoked", {
  shopId: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `shop ${this.shopId} is revoked: ${this.reason}; onboard it again with a new token`
  }
}

/**
 * The store could not be read or written.
 *
 * @example
 * import { ShopStore } from "@shoplink/connector-runtime"
 * new ShopStore.ShopStoreError({ reason: "database is locked" })
 *
 * @since 0.1.0
 */
export class ShopStoreError extends Schema.TaggedError<ShopStoreError>()("ShopStoreError", { reason: Schema.String }) {}

/**
 * What re-sealing did: values moved to the current key, and what each key still seals.
 *
 * @example
 * import type { ShopStore } from "@shoplink/connector-runtime"
 * const done = (r: ShopStore.RotationReport) => Object.keys(r.keyUsage).length === 1
 *
 * @since 0.1.0
 */
export interface RotationReport {
  readonly resealed: number
  readonly keyUsage: Readonly<Record<string, number>>
}

/**
 * The store's operations.
 *
 * @example
 * import { Effect } from "effect"
 * import type { ShopStore } from "@shoplink/connector-runtime"
 * const ids = (store: ShopStore.Operations) => Effect.map(store.list(), (shops) => shops.map((shop) => shop.id))
 *
 * @since 0.1.0
 */
export interface Operations {
  /** Onboards a shop; fails with `ShopExists` unless `replace`, which also clears a revocation. */
  readonly add: (
    input: ShopInput,
    options?: { readonly replace?: boolean }
  ) => Effect.Effect<Shop, InvalidShop | ShopExists | ShopStoreError>
  readonly get: (shopId: string) => Effect.Effect<Shop, ShopNotFound | ShopStoreError>
  readonly list: () => Effect.Effect<ReadonlyArray<Shop>, ShopStoreError>
  /** Removes the shop and its secrets. */
  readonly remove: (shopId: string) => Effect.Effect<void, ShopNotFound | ShopStoreError>
  /** The distributor credentials, decrypted; a revoked shop fails with `ShopRevoked`. */
  readonly customerCredentials: (
    shopId: string
  ) => Effect.Effect<CustomerCredentials, ShopNotFound | ShopRevoked | SecretUnreadable | ShopStoreError>
  /** The adapter's secrets for the shop, decrypted. */
  readonly smsCredentials: (
    shopId: string
  ) => Effect.Effect<
    Readonly<Record<string, Redacted.Redacted<string>>>,
    ShopNotFound | SecretUnreadable | ShopStoreError
  >
  /** Marks the shop revoked (the distributor refused its token). */
  readonly markRevoked: (shopId: string, reason: string) => Effect.Effect<void, ShopNotFound | ShopStoreError>
  /** Re-seals every secret not under the box's current key. */
  readonly rotate: () => Effect.Effect<RotationReport, SecretUnreadable | ShopStoreError>
}

/**
 * The service tag.
 *
 * @example
 * import { Effect } from "effect"
 * import { ShopStore } from "@shoplink/connector-runtime"
 * const activeShops = Effect.flatMap(ShopStore.ShopStore, (store) => store.list()).pipe(
 *   Effect.map((shops) => shops.filter((shop) => shop.status === "active"))
 * )
 *
 * @since 0.1.0
 */
export class ShopStore extends Context.Tag("@shoplink/connector-runtime/ShopStore")<ShopStore, Operations>() {}

const SHOP_ID = /^[A-Za-z0-9._-]{1,64}$/
const SECRET_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/

/**
 * Checks onboarding input before anything is stored: one `InvalidShop` naming the first field
 * that is wrong.
 *
 * @example
 * import { Redacted } from "effect"
 * import { ShopStore } from "@shoplink/connector-runtime"
 * ShopStore.validate({
 *   id: "shop_1", name: "Main Street Auto", sms: {},
 *   distributor: { accountNo: "100200", username: "u", country: "US", apiToken: Redacted.make("") }
 * }) // InvalidShop: distributor.apiToken must not be empty
 *
 * @since 0.1.0
 */
export const validate = (input: ShopInput): InvalidShop | undefined => validateAll(input)[0]

/**
 * Every field of onboarding input that is wrong, in the order of the form (empty when it is valid):
 * what a form or the CLI shows at once, instead of one problem per try.
 *
 * @example
 * import { Redacted } from "effect"
 * import { ShopStore } from "@shoplink/connector-runtime"
 * ShopStore.validateAll({
 *   id: "shop 1", name: "", sms: {},
 *   distributor: { accountNo: "100200", username: "u", country: "US", apiToken: Redacted.make("t") }
 * }).map((problem) => problem.message) // ["id must be 1 to 64 …", "name must not be empty"]
 *
 * @since 0.1.0
 */
export const validateAll = (input: ShopInput): ReadonlyArray<InvalidShop> => {
  const problems: Array<InvalidShop> = []
  const wrong = (field: string, rule: string) => problems.push(new InvalidShop({ field, rule }))
  const blank = (value: string | undefined) => value === undefined || value.trim() === ""
  if (!SHOP_ID.test(input.id ?? "")) wrong("id", "must be 1 to 64 letters, digits, '.', '_' or '-'")
  if (blank(input.name)) wrong("name", "must not be empty")
  const d = input.distributor
  if (blank(d?.accountNo)) wrong("distributor.accountNo", "must not be empty")
  if (blank(d?.username)) wrong("distributor.username", "must not be empty")
  if (!Values.isCountry(d?.country)) wrong("distributor.country", `must be one of ${Values.COUNTRIES.join(", ")}`)
  if (!Redacted.isRedacted(d?.apiToken) || blank(Redacted.value(d.apiToken))) {
    wrong("distributor.apiToken", "must not be empty")
  }
  for (const [name, value] of Object.entries(input.sms ?? {})) {
    if (!SECRET_NAME.test(name)) wrong(`sms.${name}`, "must be a name of letters, digits and '_'")
    else if (!Redacted.isRedacted(value) || blank(Redacted.value(value))) wrong(`sms.${name}`, "must not be empty")
  }
  return problems
}

const DISTRIBUTOR_TOKEN = "distributor.apiToken"
const smsSecretName = (name: string) => `sms.${name}`
/** What a sealed value is bound to: a ciphertext moved to another shop or field does not open. */
const sealContext = (shopId: string, name: string) => `${shopId}/${name}`

interface Record_ {
  readonly shop: Shop
  readonly secrets: ReadonlyMap<string, Redacted.Redacted<string>>
}

const toShop = (input: ShopInput, now: number, createdAt: number): Shop => ({
  id: input.id,
  name: input.name.trim(),
  distributor: {
    accountNo: input.distributor.accountNo.trim(),
    username: input.distributor.username.trim(),
    country: input.distributor.country
  },
  smsSecrets: Object.keys(input.sms).sort(),
  status: "active",
  revoked: undefined,
  createdAt,
  updatedAt: now
})

const secretsOf = (input: ShopInput): ReadonlyMap<string, Redacted.Redacted<string>> =>
  new Map([
    [DISTRIBUTOR_TOKEN, input.distributor.apiToken],
    ...Object.entries(input.sms).map(([n, v]) => [smsSecretName(n), v] as const)
  ])

const credentialsFrom = (shop: Shop, token: Redacted.Redacted<string>): CustomerCredentials => ({
  ...shop.distributor,
  apiToken: token
})

const smsFrom = (secrets: ReadonlyMap<string, Redacted.Redacted<string>>) =>
  Object.fromEntries(
    [...secrets].filter(([name]) => name.startsWith("sms.")).map(([name, value]) => [name.slice(4), value])
  )

/**
 * An in-memory store (tests, demos): nothing is at rest, so nothing is sealed.
 *
 * @example
 * import { ShopStore } from "@shoplink/connector-runtime"
 * const layer = ShopStore.layerMemory
 *
 * @since 0.1.0
 */
export const layerMemory: Layer.Layer<ShopStore> = Layer.effect(
  ShopStore,
  Effect.gen(function*() {
    const ref = yield* Ref.make(new Map<string, Record_>())
    const find = (shopId: string) =>
      Effect.flatMap(Ref.get(ref), (map) =>
        Option.match(Option.fromNullable(map.get(shopId)), {
          onNone: () => Effect.fail(new ShopNotFound({ shopId })),
          onSome: Effect.succeed
        }))
    return ShopStore.of({
      add: (input, options) =>
        Effect.gen(function*() {
          const invalid = validate(input)
          if (invalid) return yield* invalid
          const now = yield* Clock.currentTimeMillis
          const existing = (yield* Ref.get(ref)).get(input.id)
          if (existing && !options?.replace) return yield* new ShopExists({ shopId: input.id })
          const shop = toShop(input, now, existing?.shop.createdAt ?? now)
          yield* Ref.update(ref, (map) => new Map(map).set(input.id, { shop, secrets: secretsOf(input) }))
          return shop
        }),
      get: (shopId) => Effect.map(find(shopId), (r) => r.shop),
      list: () =>
        Effect.map(
          Ref.get(ref),
          (map) => [...map.values()].map((r) => r.shop).sort((a, b) => a.id.localeCompare(b.id))
        ),
      remove: (shopId) =>
        Effect.zipRight(
          find(shopId),
          Ref.update(ref, (map) => {
            const next = new Map(map)
            next.delete(shopId)
            return next
          })
        ),
      customerCredentials: (shopId) =>
        Effect.flatMap(find(shopId), ({ secrets, shop }) =>
          shop.revoked
            ? Effect.fail(new ShopRevoked({ shopId, reason: shop.revoked.reason }))
            : Effect.succeed(credentialsFrom(shop, secrets.get(DISTRIBUTOR_TOKEN)!))),
      smsCredentials: (shopId) => Effect.map(find(shopId), (r) => smsFrom(r.secrets)),
      markRevoked: (shopId, reason) =>
        Effect.gen(function*() {
          const record = yield* find(shopId)
          const at = yield* Clock.currentTimeMillis
          const shop: Shop = { ...record.shop, status: "revoked", revoked: { reason, at }, updatedAt: at }
          yield* Ref.update(ref, (map) => new Map(map).set(shopId, { ...record, shop }))
        }),
      rotate: () => Effect.succeed({ resealed: 0, keyUsage: {} })
    })
  })
)

// pg returns BIGINT as a string (it could exceed 2^53); epoch milliseconds fit in a number.
const Millis = Schema.Union(Schema.Number, Schema.NumberFromString)

const ShopRow = Schema.Struct({
  shop_id: Schema.String,
  name: Schema.String,
  account_no: Schema.String,
  username: Schema.String,
  country: Values.Country,
  status: Schema.Literal("active", "revoked"),
  revoked_reason: Schema.NullOr(Schema.String),
  revoked_at: Schema.NullOr(Millis),
  created_at: Millis,
  updated_at: Millis
})
const decodeShopRow = Schema.decodeUnknown(ShopRow)

const SecretRow = Schema.Struct({
  shop_id: Schema.String,
  name: Schema.String,
  key_id: Schema.String,
  ciphertext: Schema.String
})
const decodeSecretRows = Schema.decodeUnknown(Schema.Array(SecretRow))
const decodeCreatedAt = Schema.decodeUnknown(Schema.Array(Schema.Struct({ created_at: Millis })))

const storeError = (error: { readonly message: string }) => new ShopStoreError({ reason: error.message })

/**
 * A store in the `shoplink_shops` and `shoplink_shop_secrets` tables of the `SqlClient` in context
 * (see `Migrations`), every secret sealed by the `SecretBox` in context. Works on SQLite and on
 * PostgreSQL, where several processes can share the tables.
 *
 * @example
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Layer } from "effect"
 * import { SecretBox, Settings, ShopStore } from "@shoplink/connector-runtime"
 * const layer = ShopStore.layerSql.pipe(
 *   Layer.provide(SqliteClient.layer({ filename: "shoplink.db" })),
 *   Layer.provide(SecretBox.layerConfig(Settings.secretBox))
 * )
 *
 * @since 0.1.0
 */
export const layerSql: Layer.Layer<ShopStore, ShopStoreError, SqlClient.SqlClient | SecretBox> = Layer.effect(
  ShopStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const box = yield* SecretBox
    // A connection setting, not schema: SQLite enforces the secrets' foreign key only when asked.
    yield* sql.onDialectOrElse({
      sqlite: () => Effect.ignore(sql`PRAGMA foreign_keys = ON`),
      orElse: () => Effect.void
    })
    yield* runMigrations.pipe(Effect.mapError(storeError))

    const readShop = (shopId: string) =>
      Effect.gen(function*() {
        const rows = yield* sql`SELECT * FROM shoplink_shops WHERE shop_id = ${shopId}`.pipe(
          Effect.mapError(storeError)
        )
        if (rows[0] === undefined) return yield* new ShopNotFound({ shopId })
        return fromRow(yield* decodeShopRow(rows[0]).pipe(Effect.mapError(storeError)), yield* secretNames(shopId))
      })
    const secretNames = (shopId: string) =>
      sql`SELECT name FROM shoplink_shop_secrets WHERE shop_id = ${shopId} ORDER BY name`.pipe(
        Effect.map((rows) =>
          rows.map((r) => String(r["name"])).filter((n) => n.startsWith("sms.")).map((n) => n.slice(4))
        ),
        Effect.mapError(storeError)
      )
    const openSecrets = (shopId: string) =>
      Effect.gen(function*() {
        const rows = yield* sql`SELECT * FROM shoplink_shop_secrets WHERE shop_id = ${shopId}`.pipe(
          Effect.flatMap(decodeSecretRows),
          Effect.mapError(storeError)
        )
        const opened = new Map<string, Redacted.Redacted<string>>()
        for (const row of rows) {
          opened.set(
            row.name,
            yield* box.open({ keyId: row.key_id, ciphertext: row.ciphertext }, sealContext(shopId, row.name))
          )
        }
        return opened
      })

    const add: Operations["add"] = (input, options) =>
      Effect.gen(function*() {
        const invalid = validate(input)
        if (invalid) return yield* invalid
        const now = yield* Clock.currentTimeMillis
        const sealed = yield* Effect.forEach([...secretsOf(input)], ([name, value]) =>
          Effect.map(box.seal(value, sealContext(input.id, name)), (s) => ({ name, ...s })))
        const fresh = toShop(input, now, now)
        // Decided by the insert itself, not by a read before it: of two processes adding the same
        // shop at once, one gets ShopExists (or, with `replace`, the two updates take turns on the
        // row's lock, each with its own secrets). The row keeps its first `created_at`.
        return yield* sql.withTransaction(Effect.gen(function*() {
          const onConflict = options?.replace
            ? sql`DO UPDATE SET name = excluded.name, account_no = excluded.account_no, username = excluded.username,
                country = excluded.country, status = 'active', revoked_reason = NULL, revoked_at = NULL, updated_at = excluded.updated_at`
            : sql`DO NOTHING`
          const inserted = yield* sql`INSERT INTO shoplink_shops
              (shop_id, name, account_no, username, country, status, revoked_reason, revoked_at, created_at, updated_at)
            VALUES (${fresh.id}, ${fresh.name}, ${fresh.distributor.accountNo}, ${fresh.distributor.username}, ${fresh.distributor.country},
              'active', NULL, NULL, ${now}, ${now})
            ON CONFLICT (shop_id) ${onConflict}
            RETURNING created_at`.pipe(Effect.flatMap(decodeCreatedAt), Effect.mapError(storeError))
          if (inserted[0] === undefined) {
            return yield* new ShopExists({ shopId: input.id })
          }
          const shop: Shop = { ...fresh, createdAt: inserted[0].created_at }
          yield* sql`DELETE FROM shoplink_shop_secrets WHERE shop_id = ${shop.id}`
          for (const s of sealed) {
            yield* sql`INSERT INTO shoplink_shop_secrets (shop_id, name, key_id, ciphertext) VALUES (${shop.id}, ${s.name}, ${s.keyId}, ${s.ciphertext})`
          }
          return shop
        })).pipe(Effect.catchTags({
          SqlError: (e) =>
            Effect.fail(storeError(e))
        }))
      })

    const rotate: Operations["rotate"] = () =>
      Effect.gen(function*() {
        const stale = yield* sql`SELECT * FROM shoplink_shop_secrets WHERE key_id <> ${box.currentKeyId}`.pipe(
          Effect.flatMap(decodeSecretRows),
          Effect.mapError(storeError)
        )
        let resealed = 0
        // One row at a time, each in its own statement: a crash mid-rotation leaves every row
        // readable (old or new key), and running it again finishes the job.
        for (const row of stale) {
          const context = sealContext(row.shop_id, row.name)
          const plain = yield* box.open({ keyId: row.key_id, ciphertext: row.ciphertext }, context)
          const sealed = yield* box.seal(plain, context)
          // Guarded by the old key id: a row another process re-sealed (or replaced) meanwhile is
          // left alone and not counted.
          const updated =
            yield* sql`UPDATE shoplink_shop_secrets SET key_id = ${sealed.keyId}, ciphertext = ${sealed.ciphertext}
            WHERE shop_id = ${row.shop_id} AND name = ${row.name} AND key_id = ${row.key_id} RETURNING name`.pipe(
              Effect.mapError(storeError)
            )
          resealed += updated.length
        }
        const usage = yield* sql`SELECT key_id, COUNT(*) AS n FROM shoplink_shop_secrets GROUP BY key_id`.pipe(
          Effect.mapError(storeError)
        )
        yield* Effect.logInfo("secrets re-sealed").pipe(Effect.annotateLogs({ resealed, keyId: box.currentKeyId }))
        return { resealed, keyUsage: Object.fromEntries(usage.map((r) => [String(r["key_id"]), Number(r["n"])])) }
      })

    return ShopStore.of({
      add,
      get: readShop,
      list: () =>
        Effect.gen(function*() {
          const rows = yield* sql`SELECT * FROM shoplink_shops ORDER BY shop_id`.pipe(
            Effect.flatMap(Schema.decodeUnknown(Schema.Array(ShopRow))),
            Effect.mapError(storeError)
          )
          return yield* Effect.forEach(rows, (row) =>
            Effect.map(secretNames(row.shop_id), (names) => fromRow(row, names)))
        }),
      remove: (shopId) =>
        Effect.gen(function*() {
          yield* readShop(shopId)
          yield* sql.withTransaction(Effect.zipRight(
            sql`DELETE FROM shoplink_shop_secrets WHERE shop_id = ${shopId}`,
            sql`DELETE FROM shoplink_shops WHERE shop_id = ${shopId}`
          )).pipe(Effect.mapError(storeError))
        }),
      customerCredentials: (shopId) =>
        Effect.gen(function*() {
          const shop = yield* readShop(shopId)
          if (shop.revoked) return yield* new ShopRevoked({ shopId, reason: shop.revoked.reason })
          const secrets = yield* openSecrets(shopId)
          const token = secrets.get(DISTRIBUTOR_TOKEN)
          if (token === undefined) {
            return yield* new ShopStoreError({ reason: `shop ${shopId} has no distributor token` })
          }
          return credentialsFrom(shop, token)
        }),
      smsCredentials: (shopId) => Effect.zipRight(readShop(shopId), Effect.map(openSecrets(shopId), smsFrom)),
      markRevoked: (shopId, reason) =>
        Effect.gen(function*() {
          yield* readShop(shopId)
          const at = yield* Clock.currentTimeMillis
          yield* sql`UPDATE shoplink_shops SET status = 'revoked', revoked_reason = ${reason}, revoked_at = ${at}, updated_at = ${at}
            WHERE shop_id = ${shopId}`.pipe(Effect.mapError(storeError))
          yield* Effect.logWarning("shop revoked").pipe(Effect.annotateLogs({ shopId, reason }))
        }),
      rotate
    })
  })
)

const fromRow = (row: typeof ShopRow.Type, smsSecrets: ReadonlyArray<string>): Shop => ({
  id: row.shop_id,
  name: row.name,
  distributor: { accountNo: row.account_no, username: row.username, country: row.country },
  smsSecrets,
  status: row.status,
  revoked: row.status === "revoked" ? { reason: row.revoked_reason ?? "", at: row.revoked_at ?? 0 } : undefined,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

/**
 * The `SmsCredentials` port of @shoplink/connector over the `ShopStore` in context: what the runtime gives adapters.
 *
 * @example
 * import { Layer } from "effect"
 * import { ShopStore } from "@shoplink/connector-runtime"
 * const layer = ShopStore.layerSmsCredentials.pipe(Layer.provide(ShopStore.layerMemory))
 *
 * @since 0.1.0
 */
export const layerSmsCredentials: Layer.Layer<SmsCredentials.SmsCredentials, never, ShopStore> = Layer.effect(
  SmsCredentials.SmsCredentials,
  Effect.map(ShopStore, (store) =>
    SmsCredentials.SmsCredentials.of({
      secret: (shopId, name) =>
        store.smsCredentials(shopId).pipe(
          Effect.mapError((error) => new SmsCredentials.SmsCredentialsUnavailable({ shopId, reason: error.message })),
          Effect.flatMap((secrets) =>
            secrets[name] === undefined
              ? Effect.fail(new SmsCredentials.SmsCredentialsUnavailable({ shopId, reason: `no ${name} stored` }))
              : Effect.succeed(secrets[name])
          )
        )
    }))
)
