/**
 * Per-launch keys. Each punchout launch gets an unguessable key (192 random bits, base64url) that
 * goes into the webhook and callback URLs given to the distributor, so a delivery names its launch
 * (shop, repair order) and nothing else can post into it. A key expires with its session plus a
 * grace period. Only a SHA-256 digest of the key is stored: a copy of the database does not reveal
 * live URLs.
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
 * import type { LaunchRegistry } from "@shoplink/connector"
 * const label = (launch: LaunchRegistry.Launch) => `RO ${launch.repairOrderNumber}`
 *
 * @since 0.1.0
 */
export interface Launch {
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
 * import { LaunchRegistry } from "@shoplink/connector"
 * new LaunchRegistry.LaunchKeyUnknown()
 *
 * @since 0.1.0
 */
export class LaunchKeyUnknown extends Schema.TaggedError<LaunchKeyUnknown>()("LaunchKeyUnknown", {}) {}

/**
 * The launch exists but its key has expired (answered 410).
 *
 * @example
 * import { LaunchRegistry } from "@shoplink/connector"
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
 * import { LaunchRegistry } from "@shoplink/connector"
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
 * import type { LaunchRegistry } from "@shoplink/connector"
 * const check = (registry: LaunchRegistry.Operations, key: string) => registry.resolve(key)
 *
 * @since 0.1.0
 */
export interface Operations {
  /** Registers a launch and returns its new key (shown once; only its digest is kept). */
  readonly register: (launch: Omit<Launch, "createdAt">) => Effect.Effect<{ readonly key: string; readonly launch: Launch }, LaunchRegistryError>
  readonly resolve: (key: string) => Effect.Effect<Launch, LaunchKeyUnknown | LaunchKeyExpired | LaunchRegistryError>
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
 * import { LaunchRegistry } from "@shoplink/connector"
 * const shopOf = (key: string) => Effect.flatMap(LaunchRegistry.LaunchRegistry, (r) => r.resolve(key)).pipe(Effect.map((l) => l.shopId))
 *
 * @since 0.1.0
 */
export class LaunchRegistry extends Context.Tag("@shoplink/connector/LaunchRegistry")<LaunchRegistry, Operations>() {}

/**
 * A new launch key: 24 random bytes (192 bits), base64url.
 *
 * @example
 * import { LaunchRegistry } from "@shoplink/connector"
 * LaunchRegistry.newKey().length // 32
 *
 * @since 0.1.0
 */
export const newKey = (): string => randomBytes(24).toString("base64url")

const digest = (key: string) => createHash("sha256").update(key).digest("hex")

const checkExpiry = (launch: Launch) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    now > launch.expiresAt ? Effect.fail(new LaunchKeyExpired({ expiredAt: launch.expiresAt })) : Effect.succeed(launch))

/**
 * An in-memory registry.
 *
 * @example
 * import { LaunchRegistry } from "@shoplink/connector"
 * const layer = LaunchRegistry.layerMemory
 *
 * @since 0.1.0
 */
export const layerMemory: Layer.Layer<LaunchRegistry> = Layer.effect(
  LaunchRegistry,
  Effect.map(Ref.make(new Map<string, Launch>()), (ref) =>
    LaunchRegistry.of({
      register: (input) =>
        Effect.gen(function*() {
          const key = newKey()
          const launch: Launch = { ...input, createdAt: yield* Clock.currentTimeMillis }
          yield* Ref.update(ref, (map) => new Map(map).set(digest(key), launch))
          return { key, launch }
        }),
      resolve: (key) =>
        Effect.gen(function*() {
          const launch = (yield* Ref.get(ref)).get(digest(key))
          if (launch === undefined) return yield* new LaunchKeyUnknown()
          return yield* checkExpiry(launch)
        }),
      purgeExpired: (expiredBefore) =>
        Ref.modify(ref, (map): readonly [number, Map<string, Launch>] => {
          const next = new Map([...map].filter(([, launch]) => launch.expiresAt >= expiredBefore))
          return [map.size - next.size, next]
        })
    }))
)

// pg returns BIGINT as a string (it could exceed 2^53); epoch milliseconds fit in a number.
const Millis = Schema.Union(Schema.Number, Schema.NumberFromString)

const Row = Schema.Struct({
  shop_id: Schema.String,
  repair_order_id: Schema.String,
  repair_order_number: Schema.String,
  repair_order_url: Schema.NullOr(Schema.String),
  created_at: Millis,
  expires_at: Millis
})

const registryError = (error: { readonly message: string }) => new LaunchRegistryError({ reason: error.message })

/**
 * A registry in the `shoplink_launches` table of the `SqlClient` in context (see `Migrations`),
 * so keys survive a restart. Works on SQLite and on PostgreSQL, where several processes can share
 * the table: a key registered by one resolves in every other.
 *
 * @example
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Layer } from "effect"
 * import { LaunchRegistry } from "@shoplink/connector"
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
    return LaunchRegistry.of({
      register: (input) =>
        Effect.gen(function*() {
          const key = newKey()
          const launch: Launch = { ...input, createdAt: yield* Clock.currentTimeMillis }
          yield* sql`INSERT INTO shoplink_launches
              (key_digest, shop_id, repair_order_id, repair_order_number, repair_order_url, created_at, expires_at)
            VALUES (${digest(key)}, ${launch.shopId}, ${launch.repairOrderId}, ${launch.repairOrderNumber},
              ${launch.repairOrderUrl ?? null}, ${launch.createdAt}, ${launch.expiresAt})`.pipe(retry, Effect.mapError(registryError))
          return { key, launch }
        }),
      resolve: (key) =>
        Effect.gen(function*() {
          const rows = yield* sql`SELECT * FROM shoplink_launches WHERE key_digest = ${digest(key)}`.pipe(
            retry,
            Effect.mapError(registryError)
          )
          if (rows[0] === undefined) return yield* new LaunchKeyUnknown()
          const row = yield* Schema.decodeUnknown(Row)(rows[0]).pipe(Effect.mapError(registryError))
          return yield* checkExpiry({
            shopId: row.shop_id,
            repairOrderId: row.repair_order_id,
            repairOrderNumber: row.repair_order_number,
            repairOrderUrl: row.repair_order_url ?? undefined,
            createdAt: row.created_at,
            expiresAt: row.expires_at
          })
        }),
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
