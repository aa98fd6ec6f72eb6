/**
 * Vendor API keys: how an SMS backend authenticates to the runtime's API (`POST {basePath}/launch`,
 * the admin routes). A key is shown once when it is created (`slk_<id>_<secret>`); only a SHA-256
 * digest of it is stored, and a presented key is compared with that digest in constant time. The
 * id in the key finds its row without comparing against every key. Revoked keys stay listed.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import { run as runMigrations } from "./Migrations.js"

/**
 * A key as listed (never its secret).
 *
 * @example
 * import type { ApiKeys } from "@shoplink/connector-runtime"
 * const label = (key: ApiKeys.ApiKey) => `${key.id} ${key.name}${key.revokedAt ? " (revoked)" : ""}`
 *
 * @since 0.1.0
 */
export interface ApiKey {
  readonly id: string
  readonly name: string
  readonly createdAt: number
  readonly revokedAt: number | undefined
}

/**
 * A presented key is missing, malformed, unknown or revoked. Answered 401 without saying which.
 *
 * @example
 * import { ApiKeys } from "@shoplink/connector-runtime"
 * new ApiKeys.ApiKeyRefused({ reason: "unknown key" }).message
 *
 * @since 0.1.0
 */
export class ApiKeyRefused extends Schema.TaggedError<ApiKeyRefused>()("ApiKeyRefused", {
  reason: Schema.Literal("missing", "malformed", "unknown key", "revoked")
}) {
  override get message(): string {
    return `API key refused: ${this.reason}`
  }
}

/**
 * No key has this id.
 *
 * @example
 * import { ApiKeys } from "@shoplink/connector-runtime"
 * new ApiKeys.ApiKeyNotFound({ id: "k7f3a9c2" }).message
 *
 * @since 0.1.0
 */
export class ApiKeyNotFound extends Schema.TaggedError<ApiKeyNotFound>()("ApiKeyNotFound", { id: Schema.String }) {
  override get message(): string {
    return `no API key ${this.id}`
  }
}

/**
 * The key store could not be read or written.
 *
 * @example
 * import { ApiKeys } from "@shoplink/connector-runtime"
 * new ApiKeys.ApiKeyStoreError({ reason: "database is locked" })
 *
 * @since 0.1.0
 */
export class ApiKeyStoreError
  extends Schema.TaggedError<ApiKeyStoreError>()("ApiKeyStoreError", { reason: Schema.String })
{}

/**
 * The store's operations.
 *
 * @example
 * import { Effect, Redacted } from "effect"
 * import type { ApiKeys } from "@shoplink/connector-runtime"
 * const mint = (keys: ApiKeys.Operations) => Effect.map(keys.create("sms-backend"), ({ key }) => Redacted.value(key))
 *
 * @since 0.1.0
 */
export interface Operations {
  /** Creates a key; its secret is in the result only. */
  readonly create: (
    name: string
  ) => Effect.Effect<{ readonly apiKey: ApiKey; readonly key: Redacted.Redacted<string> }, ApiKeyStoreError>
  readonly verify: (presented: string | undefined) => Effect.Effect<ApiKey, ApiKeyRefused | ApiKeyStoreError>
  readonly list: () => Effect.Effect<ReadonlyArray<ApiKey>, ApiKeyStoreError>
  readonly revoke: (id: string) => Effect.Effect<void, ApiKeyNotFound | ApiKeyStoreError>
}

/**
 * The service tag.
 *
 * @example
 * import { Effect } from "effect"
 * import { ApiKeys } from "@shoplink/connector-runtime"
 * const check = (header: string | undefined) => Effect.flatMap(ApiKeys.ApiKeys, (keys) => keys.verify(header))
 *
 * @since 0.1.0
 */
export class ApiKeys extends Context.Tag("@shoplink/connector-runtime/ApiKeys")<ApiKeys, Operations>() {}

const KEY = /^slk_([a-z0-9]{10})_([A-Za-z0-9_-]{43})$/

const digest = (key: string) => createHash("sha256").update(key).digest()

const newKey = () => {
  const id = randomBytes(10).toString("hex").slice(0, 10)
  return { id, key: `slk_${id}_${randomBytes(32).toString("base64url")}` }
}

/** Parses the presented key (a bare key, or an `Authorization: Bearer` value). */
const parse = (presented: string | undefined) => {
  if (presented === undefined || presented.trim() === "") return new ApiKeyRefused({ reason: "missing" })
  const key = presented.trim().replace(/^Bearer\s+/i, "")
  const match = KEY.exec(key)
  return match === null ? new ApiKeyRefused({ reason: "malformed" }) : { id: match[1]!, digest: digest(key) }
}

const matches = (stored: Uint8Array, presented: Uint8Array) =>
  stored.length === presented.length && timingSafeEqual(stored, presented)

interface Stored extends ApiKey {
  readonly digest: Uint8Array
}

const publicView = ({ createdAt, id, name, revokedAt }: Stored): ApiKey => ({ id, name, createdAt, revokedAt })

const check = (row: Stored | undefined, presented: { readonly digest: Uint8Array }) => {
  // Compare even when no row matched, so an unknown id costs the same as a wrong secret.
  const ok = matches(row?.digest ?? Buffer.alloc(32), presented.digest) && row !== undefined
  if (!ok) return Effect.fail(new ApiKeyRefused({ reason: "unknown key" }))
  if (row.revokedAt !== undefined) return Effect.fail(new ApiKeyRefused({ reason: "revoked" }))
  return Effect.succeed(publicView(row))
}

/**
 * Keys in memory (tests, demos).
 *
 * @example
 * import { ApiKeys } from "@shoplink/connector-runtime"
 * const layer = ApiKeys.layerMemory
 *
 * @since 0.1.0
 */
export const layerMemory: Layer.Layer<ApiKeys> = Layer.effect(
  ApiKeys,
  Effect.gen(function*() {
    const ref = yield* Ref.make(new Map<string, Stored>())
    return ApiKeys.of({
      create: (name) =>
        Effect.gen(function*() {
          const { id, key } = newKey()
          const stored: Stored = {
            id,
            name,
            createdAt: yield* Clock.currentTimeMillis,
            revokedAt: undefined,
            digest: digest(key)
          }
          yield* Ref.update(ref, (map) => new Map(map).set(id, stored))
          return { apiKey: publicView(stored), key: Redacted.make(key) }
        }),
      verify: (presented) =>
        Effect.suspend(() => {
          const parsed = parse(presented)
          if (parsed instanceof ApiKeyRefused) return Effect.fail(parsed)
          return Effect.flatMap(Ref.get(ref), (map) => check(map.get(parsed.id), parsed))
        }),
      list: () => Effect.map(Ref.get(ref), (map) => [...map.values()].map(publicView)),
      revoke: (id) =>
        Effect.gen(function*() {
          const stored = (yield* Ref.get(ref)).get(id)
          if (stored === undefined) return yield* new ApiKeyNotFound({ id })
          const at = yield* Clock.currentTimeMillis
          yield* Ref.update(ref, (map) => new Map(map).set(id, { ...stored, revokedAt: at }))
        })
    })
  })
)

// pg returns BIGINT as a string (it could exceed 2^53); epoch milliseconds fit in a number.
const Millis = Schema.Union(Schema.Number, Schema.NumberFromString)

const Row = Schema.Struct({
  key_id: Schema.String,
  name: Schema.String,
  digest: Schema.String,
  created_at: Millis,
  revoked_at: Schema.NullOr(Millis)
})
const decodeRows = Schema.decodeUnknown(Schema.Array(Row))
const fromRow = (row: typeof Row.Type): Stored => ({
  id: row.key_id,
  name: row.name,
  digest: Buffer.from(row.digest, "hex"),
  createdAt: row.created_at,
  revokedAt: row.revoked_at ?? undefined
})
const storeError = (error: { readonly message: string }) => new ApiKeyStoreError({ reason: error.message })

/**
 * Keys in the `shoplink_api_keys` table of the `SqlClient` in context (see `Migrations`), on
 * SQLite or PostgreSQL; a key created by one process verifies in every other on the same database.
 *
 * @example
 * import { Layer } from "effect"
 * import { ApiKeys, Storage } from "@shoplink/connector-runtime"
 * const layer = ApiKeys.layerSql.pipe(Layer.provide(Storage.sqlite("shoplink.db")))
 *
 * @since 0.1.0
 */
export const layerSql: Layer.Layer<ApiKeys, ApiKeyStoreError, SqlClient.SqlClient> = Layer.effect(
  ApiKeys,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* runMigrations.pipe(Effect.mapError(storeError))
    const byId = (id: string) =>
      sql`SELECT * FROM shoplink_api_keys WHERE key_id = ${id}`.pipe(
        Effect.flatMap(decodeRows),
        Effect.map((rows) => rows[0] === undefined ? undefined : fromRow(rows[0])),
        Effect.mapError(storeError)
      )
    return ApiKeys.of({
      create: (name) =>
        Effect.gen(function*() {
          const { id, key } = newKey()
          const createdAt = yield* Clock.currentTimeMillis
          yield* sql`INSERT INTO shoplink_api_keys (key_id, name, digest, created_at)
            VALUES (${id}, ${name}, ${digest(key).toString("hex")}, ${createdAt})`.pipe(Effect.mapError(storeError))
          return { apiKey: { id, name, createdAt, revokedAt: undefined }, key: Redacted.make(key) }
        }),
      verify: (presented) =>
        Effect.suspend(() => {
          const parsed = parse(presented)
          if (parsed instanceof ApiKeyRefused) return Effect.fail(parsed)
          return Effect.flatMap(byId(parsed.id), (row) => check(row, parsed))
        }),
      list: () =>
        sql`SELECT * FROM shoplink_api_keys ORDER BY created_at`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => rows.map((row) => publicView(fromRow(row)))),
          Effect.mapError(storeError)
        ),
      revoke: (id) =>
        Effect.gen(function*() {
          if ((yield* byId(id)) === undefined) return yield* new ApiKeyNotFound({ id })
          const at = yield* Clock.currentTimeMillis
          yield* sql`UPDATE shoplink_api_keys SET revoked_at = ${at} WHERE key_id = ${id} AND revoked_at IS NULL`.pipe(
            Effect.mapError(storeError)
          )
        })
    })
  })
)
