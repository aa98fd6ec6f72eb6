/**
 * Per-launch keys. Each punchout launch gets two unguessable keys (192 random bits each,
 * base64url): the **webhook key**, in the webhook URLs that only the distributor receives (in the
 * create-session request), so a delivery names its launch (shop, repair order) and nothing else
 * can post into it; and the **callback key**, in the callback URL the user's browser is sent to,
 * which opens the launch's callback page and nothing else. The callback URL (seen by the browser,
 * its history, proxies, a Referer) cannot be turned into a webhook URL. Both expire with the
 * session plus a grace period. Only SHA-256 digests of the keys are stored: a copy of the database
 * does not reveal live URLs.
 *
 * Expired launches are deleted by `purgeExpired` (the runtime's `Retention` runs it with a grace
 * period after expiry, default 7 days): until then a late delivery is answered 410, after it 404.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { identity } from "effect/Function"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { createHash, randomBytes } from "node:crypto"
import { retryBusy, shortenBusyTimeout } from "./internal/sqliteBusy.js"
import { run as runMigrations } from "./Migrations.js"

/**
 * A registered launch.
 *
 * @example
 * import type { LaunchRegistry } from "@shoplink/connector-runtime"
 * const label = (launch: LaunchRegistry.Launch) => `RO ${launch.repairOrderNumber}`
 *
 * @since 0.1.0
 */
export interface Launch {
  /**
   * A non-secret identifier of the launch (16 hex characters of its webhook key's digest): the
   * receiver puts it in the content key of every delivery received on the launch's webhook key.
   */
  readonly id: string
  readonly shopId: string
  readonly repairOrderId: string
  readonly repairOrderNumber: string
  /** Link back to the repair order in the SMS, when the adapter gives one. */
  readonly repairOrderUrl: string | undefined
  readonly createdAt: number
  /** Epoch milliseconds after which deliveries are refused (410). */
  readonly expiresAt: number
}

/**
 * No launch has this key (answered 404).
 *
 * @example
 * import { LaunchRegistry } from "@shoplink/connector-runtime"
 * new LaunchRegistry.LaunchKeyUnknown()
 *
 * @since 0.1.0
 */
export class LaunchKeyUnknown extends Schema.TaggedError<LaunchKeyUnknown>()("LaunchKeyUnknown", {}) {}

/**
 * The launch exists but its key has expired (answered 410).
 *
 * @example
 * import { LaunchRegistry } from "@shoplink/connector-runtime"
 * new LaunchRegistry.LaunchKeyExpired({ expiredAt: 0 })
 *
 * @since 0.1.0
 */
export class LaunchKeyExpired extends Schema.TaggedError<LaunchKeyExpired>()("LaunchKeyExpired", {
  expiredAt: Schema.Number
}) {}

/**
 * The registry could not be read or written.
 *
 * @example
 * import { LaunchRegistry } from "@shoplink/connector-runtime"
 * new LaunchRegistry.LaunchRegistryError({ reason: "database is locked" })
 *
 * @since 0.1.0
 */
export class LaunchRegistryError extends Schema.TaggedError<LaunchRegistryError>()("LaunchRegistryError", {
  reason: Schema.String
}) {}

/**
 * The registry's operations.
 *
 * @example
 * import type { LaunchRegistry } from "@shoplink/connector-runtime"
 * const check = (registry: LaunchRegistry.Operations, key: string) => registry.resolve(key)
 *
 * @since 0.1.0
 */
export interface Operations {
  /**
   * Registers a launch and returns its new keys (shown once; only their digests are kept): `key`,
   * the webhook key, for the distributor only; `callbackKey`, for the browser's callback URL.
   */
  readonly register: (launch: Omit<Launch, "createdAt" | "id">) => Effect.Effect<
    { readonly key: string; readonly callbackKey: string; readonly launch: Launch },
    LaunchRegistryError
  >
  /** The launch of a webhook key (a callback key is unknown here). */
  readonly resolve: (key: string) => Effect.Effect<Launch, LaunchKeyUnknown | LaunchKeyExpired | LaunchRegistryError>
  /** The launch of a callback key (a webhook key is unknown here). */
  readonly resolveCallback: (
    callbackKey: string
  ) => Effect.Effect<Launch, LaunchKeyUnknown | LaunchKeyExpired | LaunchRegistryError>
  /**
   * Deletes the launches that expired before `expiredBefore` (epoch milliseconds) and says how
   * many: their keys then answer unknown (404) instead of expired (410).
   */
  readonly purgeExpired: (expiredBefore: number) => Effect.Effect<number, LaunchRegistryError>
}

/**
 * The service tag.
 *
 * @example
 * import { Effect } from "effect"
 * import { LaunchRegistry } from "@shoplink/connector-runtime"
 * const shopOf = (key: string) =>
 *   Effect.flatMap(LaunchRegistry.LaunchRegistry, (r) => r.resolve(key)).pipe(Effect.map((l) => l.shopId))
 *
 * @since 0.1.0
 */
export class LaunchRegistry
  extends Context.Tag("@shoplink/connector-runtime/LaunchRegistry")<LaunchRegistry, Operations>()
{}

/**
 * A new launch key: 24 random bytes (192 bits), base64url.
 *
 * @example
 * import { LaunchRegistry } from "@shoplink/connector-runtime"
 * LaunchRegistry.newKey().length // 32
 *
 * @since 0.1.0
 */
export const newKey = (): string => randomBytes(24).toString("base64url")

const digest = (key: string) => createHash("sha256").update(key).digest("hex")
const idOf = (keyDigest: string) => keyDigest.slice(0, 16)

const checkExpiry = (launch: Launch) =>
  Effect.flatMap(
    Clock.currentTimeMillis,
    (now) =>
      now > launch.expiresAt
        ? Effect.fail(new LaunchKeyExpired({ expiredAt: launch.expiresAt }))
        : Effect.succeed(launch)
  )

/**
 * An in-memory registry.
 *
 * @example
 * import { LaunchRegistry } from "@shoplink/connector-runtime"
 * const layer = LaunchRegistry.layerMemory
 *
 * @since 0.1.0
 */
export const layerMemory: Layer.Layer<LaunchRegistry> = Layer.effect(
  LaunchRegistry,
  // webhook key digest → launch; callback key digest → webhook key digest.
  Effect.map(Ref.make({ launches: new Map<string, Launch>(), callbacks: new Map<string, string>() }), (ref) => {
    const lookup = (keyDigest: string | undefined) =>
      Effect.gen(function*() {
        const launch = keyDigest === undefined ? undefined : (yield* Ref.get(ref)).launches.get(keyDigest)
        if (launch === undefined) return yield* new LaunchKeyUnknown()
        return yield* checkExpiry(launch)
      })
    return LaunchRegistry.of({
      register: (input) =>
        Effect.gen(function*() {
          const key = newKey()
          const callbackKey = newKey()
          const keyDigest = digest(key)
          const launch: Launch = { ...input, id: idOf(keyDigest), createdAt: yield* Clock.currentTimeMillis }
          yield* Ref.update(ref, ({ callbacks, launches }) => ({
            launches: new Map(launches).set(keyDigest, launch),
            callbacks: new Map(callbacks).set(digest(callbackKey), keyDigest)
          }))
          return { key, callbackKey, launch }
        }),
      resolve: (key) => lookup(digest(key)),
      resolveCallback: (callbackKey) =>
        Effect.flatMap(Ref.get(ref), ({ callbacks }) => lookup(callbacks.get(digest(callbackKey)))),
      purgeExpired: (expiredBefore) =>
        Ref.modify(ref, ({ callbacks, launches }) => {
          const next = new Map([...launches].filter(([, launch]) => launch.expiresAt >= expiredBefore))
          const nextCallbacks = new Map([...callbacks].filter(([, keyDigest]) => next.has(keyDigest)))
          return [launches.size - next.size, { launches: next, callbacks: nextCallbacks }] as const
        })
    })
  })
)

// pg returns BIGINT as a string (it could exceed 2^53); epoch milliseconds fit in a number.
const Millis = Schema.Union(Schema.Number, Schema.NumberFromString)

const Row = Schema.Struct({
  key_digest: Schema.String,
  shop_id: Schema.String,
  repair_order_id: Schema.String,
  repair_order_number: Schema.String,
  repair_order_url: Schema.NullOr(Schema.String),
  created_at: Millis,
  expires_at: Millis
})

/** Resolved launches a `layerSql` instance keeps in memory (the oldest goes first): ~3 MB. */
const RESOLVED_MAX = 10_000

const registryError = (error: { readonly message: string }) => new LaunchRegistryError({ reason: error.message })

/**
 * A registry in the `shoplink_launches` table of the `SqlClient` in context (see `Migrations`),
 * so keys survive a restart. Works on SQLite and on PostgreSQL, where several processes can share
 * the table: a key registered by one resolves in every other.
 *
 * @example
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Layer } from "effect"
 * import { LaunchRegistry } from "@shoplink/connector-runtime"
 * const layer = LaunchRegistry.layerSql.pipe(Layer.provide(SqliteClient.layer({ filename: "shoplink.db" })))
 *
 * @since 0.1.0
 */
export const layerSql: Layer.Layer<LaunchRegistry, LaunchRegistryError, SqlClient.SqlClient> = Layer.effect(
  LaunchRegistry,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* runMigrations.pipe(Effect.mapError(registryError))
    yield* shortenBusyTimeout(sql)
    // Only SQLite has a busy lock to wait out; PostgreSQL waits inside the server.
    const retry: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R> = sql.onDialectOrElse({
      sqlite: () => retryBusy,
      orElse: () => identity
    })
    // One chunk of at most 500 expired launches, deleted in one short statement. On PostgreSQL,
    // rows another process is purging right now are skipped rather than waited for.
    const deleteChunk = (expiredBefore: number) =>
      sql.onDialectOrElse({
        pg: () =>
          sql`DELETE FROM shoplink_launches WHERE key_digest IN (
              SELECT key_digest FROM shoplink_launches WHERE expires_at < ${expiredBefore} LIMIT 500 FOR UPDATE SKIP LOCKED)
            RETURNING expires_at`,
        orElse: () =>
          sql`DELETE FROM shoplink_launches WHERE rowid IN (
              SELECT rowid FROM shoplink_launches WHERE expires_at < ${expiredBefore} LIMIT 500) RETURNING expires_at`
      })
    const lookup = <E extends { readonly message: string }>(select: Effect.Effect<ReadonlyArray<unknown>, E>) =>
      Effect.gen(function*() {
        const rows = yield* select.pipe(retry, Effect.mapError(registryError))
        if (rows[0] === undefined) return yield* new LaunchKeyUnknown()
        const row = yield* Schema.decodeUnknown(Row)(rows[0]).pipe(Effect.mapError(registryError))
        return yield* checkExpiry({
          id: idOf(row.key_digest),
          shopId: row.shop_id,
          repairOrderId: row.repair_order_id,
          repairOrderNumber: row.repair_order_number,
          repairOrderUrl: row.repair_order_url ?? undefined,
          createdAt: row.created_at,
          expiresAt: row.expires_at
        })
      })
    // A launch row never changes once written (only expired ones are ever deleted), so a key
    // resolved once resolves the same until it expires: the receiver's hot path then makes one
    // database round trip per delivery (the insert), not two. Expiry is checked on every hit;
    // unknown keys are not remembered (a stranger's guesses cannot fill the map).
    const resolved = new Map<string, Launch>()
    const remember = (keyDigest: string) => (launch: Launch) =>
      Effect.sync(() => {
        if (resolved.size >= RESOLVED_MAX) resolved.delete(resolved.keys().next().value!)
        resolved.set(keyDigest, launch)
      })
    return LaunchRegistry.of({
      register: (input) =>
        Effect.gen(function*() {
          const key = newKey()
          const callbackKey = newKey()
          const keyDigest = digest(key)
          const launch: Launch = { ...input, id: idOf(keyDigest), createdAt: yield* Clock.currentTimeMillis }
          yield* sql`INSERT INTO shoplink_launches
              (key_digest, callback_digest, shop_id, repair_order_id, repair_order_number, repair_order_url, created_at, expires_at)
            VALUES (${keyDigest}, ${
            digest(callbackKey)
          }, ${launch.shopId}, ${launch.repairOrderId}, ${launch.repairOrderNumber},
              ${launch.repairOrderUrl ?? null}, ${launch.createdAt}, ${launch.expiresAt})`.pipe(
            retry,
            Effect.mapError(registryError)
          )
          return { key, callbackKey, launch }
        }),
      resolve: (key) =>
        Effect.suspend(() => {
          const keyDigest = digest(key)
          const hit = resolved.get(keyDigest)
          if (hit !== undefined) return checkExpiry(hit)
          return Effect.tap(
            lookup(sql`SELECT * FROM shoplink_launches WHERE key_digest = ${keyDigest}`),
            remember(keyDigest)
          )
        }),
      resolveCallback: (callbackKey) =>
        lookup(sql`SELECT * FROM shoplink_launches WHERE callback_digest = ${digest(callbackKey)}`),
      purgeExpired: (expiredBefore) =>
        Effect.gen(function*() {
          let total = 0
          while (true) {
            const rows = yield* deleteChunk(expiredBefore).pipe(retry, Effect.mapError(registryError))
            total += rows.length
            if (rows.length < 500) return total
            yield* Effect.yieldNow()
          }
        })
    })
  })
)
