/**
 * Where the runtime's stores live.
 *
 * - **SQLite** is the embedded default: one file, created readable by its owner only (mode 0600,
 *   and so are its `-wal` and `-shm` companions), since it holds sealed secrets, launch-key
 *   digests and webhook bodies. One process.
 * - **PostgreSQL** is how a deployment grows past one machine: several receivers and workers
 *   share one database (workers claim inbox entries with leases). `@effect/sql-pg` is an optional
 *   peer, loaded only when a `postgres://` URL is used.
 *
 * `fromUrl` picks between them from one setting (`Settings.storage`, the standard
 * `SHOPLINK_DATABASE_URL`).
 *
 * @since 0.1.0
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { chmodSync, closeSync, existsSync, openSync } from "node:fs"

/** Creates the file (or tightens an existing one) to 0600 before SQLite opens it. */
const restrict = (filename: string) => {
  if (filename === ":memory:" || filename === "") return
  if (!existsSync(filename)) closeSync(openSync(filename, "a", 0o600))
  for (const file of [filename, `${filename}-wal`, `${filename}-shm`]) {
    if (existsSync(file)) chmodSync(file, 0o600)
  }
}

/**
 * A SQLite `SqlClient` on `filename` in WAL mode, the file (and its WAL and shared-memory files)
 * readable by its owner only.
 *
 * @example
 * import { Layer } from "effect"
 * import { ShopStore, Storage } from "@shoplink/connector-runtime"
 * const stores = ShopStore.layerSql.pipe(Layer.provide(Storage.sqlite("/var/lib/shoplink/shoplink.db")))
 *
 * @since 0.1.0
 */
export const sqlite = (filename: string): Layer.Layer<SqliteClient.SqliteClient | SqlClient.SqlClient> =>
  Layer.unwrapEffect(Effect.promise(async () => {
    // Loaded on use: @effect/sql-sqlite-node is an optional peer (not needed on PostgreSQL).
    const { SqliteClient } = await import("@effect/sql-sqlite-node")
    restrict(filename)
    return SqliteClient.layer({ filename }).pipe(
      // SQLite makes the -wal and -shm files on first use, with the process umask: tighten them too.
      Layer.tap(() => Effect.sync(() => restrict(filename)))
    )
  })).pipe(Layer.orDie)

/**
 * The database could not be opened: the URL is malformed or of another scheme, nothing answers,
 * or the server refused the credentials. One line; never the password.
 *
 * @example
 * import { Storage } from "@shoplink/connector-runtime"
 * new Storage.StorageUnavailable({ database: "postgres://shoplink@db:5432/shoplink", problem: "password authentication failed" }).message
 *
 * @since 0.1.0
 */
export class StorageUnavailable extends Schema.TaggedError<StorageUnavailable>()("StorageUnavailable", {
  /** The database, with any password masked. */
  database: Schema.String,
  problem: Schema.String
}) {
  override get message(): string {
    return `database ${this.database}: ${this.problem}`
  }
}

/**
 * Where the stores live: a SQLite file, or a PostgreSQL URL.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { Storage } from "@shoplink/connector-runtime"
 * const shared: Storage.Location = { postgres: Redacted.make("postgres://shoplink@db.internal:5432/shoplink") }
 * const embedded: Storage.Location = { sqlite: "/var/lib/shoplink/shoplink.db" }
 *
 * @since 0.1.0
 */
export type Location = { readonly sqlite: string } | { readonly postgres: Redacted.Redacted<string> }

/**
 * A URL with its password replaced by `***`, to name it in messages and logs.
 *
 * @example
 * import { Storage } from "@shoplink/connector-runtime"
 * Storage.maskUrl("postgres://shoplink:s3cret@db:5432/shoplink") // "postgres://shoplink:***@db:5432/shoplink"
 *
 * @since 0.1.0
 */
export const maskUrl = (url: string): string => url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, "$1***@")

/**
 * Reads a database setting: `postgres://` or `postgresql://` is PostgreSQL; `sqlite:` followed by
 * a path, or a plain path, is a SQLite file; any other scheme is refused (so a typo such as
 * `postgress://` or `mysql://` is an error at start-up, not a file by that name).
 *
 * @example
 * import { Either } from "effect"
 * import { Storage } from "@shoplink/connector-runtime"
 * Either.isLeft(Storage.parseUrl("mysql://db/shoplink")) // true: unsupported scheme
 *
 * @since 0.1.0
 */
export const parseUrl = (value: string | Redacted.Redacted<string>): Either.Either<Location, StorageUnavailable> => {
  const raw = (Redacted.isRedacted(value) ? Redacted.value(value) : value).trim()
  const fail = (problem: string) => Either.left(new StorageUnavailable({ database: maskUrl(raw), problem }))
  if (raw === "") return fail("the setting is empty: give a postgres:// URL or a SQLite file path")
  if (/^postgres(ql)?:\/\//i.test(raw)) {
    let parsed: URL
    try {
      parsed = new URL(raw)
    } catch {
      return fail("not a valid URL (postgres://user:password@host:5432/database)")
    }
    if (parsed.hostname === "" && !parsed.searchParams.has("host")) return fail("the URL names no host")
    return Either.right({ postgres: Redacted.make(raw) })
  }
  if (/^sqlite:/i.test(raw)) {
    const path = raw.replace(/^sqlite:(\/\/)?/i, "")
    return path === "" ? fail("sqlite: needs a file path") : Either.right({ sqlite: path })
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]
  if (scheme !== undefined) return fail(`unsupported scheme "${scheme}:" (use postgres:// or a SQLite file path)`)
  return Either.right({ sqlite: raw })
}

/**
 * `parseUrl` as an Effect.
 *
 * @example
 * import { Effect } from "effect"
 * import { Storage } from "@shoplink/connector-runtime"
 * const location = Effect.runSync(Storage.fromUrl("postgres://postgres@127.0.0.1:5432/shoplink"))
 *
 * @since 0.1.0
 */
export const fromUrl = (value: string | Redacted.Redacted<string>): Effect.Effect<Location, StorageUnavailable> =>
  Either.match(parseUrl(value), { onLeft: Effect.fail, onRight: Effect.succeed })

/** The driver's error as one line a person can act on. */
const describeConnectFailure = (error: unknown): string => {
  const causes: Array<{ readonly code?: unknown; readonly message?: unknown }> = []
  for (let e: unknown = error, i = 0; e !== undefined && e !== null && i < 5; i++) {
    causes.push(e as never)
    e = (e as { readonly cause?: unknown }).cause
  }
  const codes = causes.map((c) => String(c.code ?? "")).filter((c) => c !== "")
  const has = (code: string) => codes.includes(code)
  if (has("ECONNREFUSED")) return "nothing answers at that host and port (is PostgreSQL running there?)"
  if (has("ENOTFOUND") || has("EAI_AGAIN")) return "the host name does not resolve"
  if (has("28P01") || has("28000")) return "the server refused the user name or password"
  if (has("3D000")) return "the database does not exist (create it first)"
  if (has("ETIMEDOUT") || causes.some((c) => /timed out/i.test(String(c.message ?? "")))) {
    return "the connection timed out"
  }
  const last = causes.at(-1)
  return `could not connect: ${String(last?.message ?? "unknown error").split("\n")[0]!.slice(0, 200)}`
}

/**
 * A PostgreSQL `SqlClient` on `url`, checked at once: a server that does not answer, or refuses
 * the credentials, fails the layer with a one-line `StorageUnavailable` (the password masked).
 *
 * @example
 * import { Layer, Redacted } from "effect"
 * import { ShopStore, Storage } from "@shoplink/connector-runtime"
 * const stores = ShopStore.layerSql.pipe(Layer.provide(Storage.postgres(Redacted.make("postgres://shoplink@db:5432/shoplink"))))
 *
 * @since 0.1.0
 */
export const postgres = (
  url: Redacted.Redacted<string>,
  options: { readonly maxConnections?: number; readonly connectTimeout?: `${number} seconds` } = {}
): Layer.Layer<SqlClient.SqlClient, StorageUnavailable> => {
  const database = maskUrl(Redacted.value(url))
  return Layer.unwrapEffect(Effect.gen(function*() {
    // Loaded on use: @effect/sql-pg is an optional peer (not needed on SQLite).
    const { PgClient } = yield* Effect.tryPromise({
      try: () => import("@effect/sql-pg"),
      catch: () =>
        new StorageUnavailable({
          database,
          problem: "PostgreSQL needs the @effect/sql-pg package (npm install @effect/sql-pg@^0.53.0)"
        })
    })
    return PgClient.layer({
      url,
      maxConnections: options.maxConnections ?? 10,
      connectTimeout: options.connectTimeout ?? "5 seconds",
      applicationName: "shoplink"
    }).pipe(Layer.mapError((error) => new StorageUnavailable({ database, problem: describeConnectFailure(error) })))
  }))
}

/**
 * The `SqlClient` for a `Location`: `sqlite` or `postgres` above.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { Storage } from "@shoplink/connector-runtime"
 * const client = Layer.unwrapEffect(
 *   Effect.map(Storage.fromUrl(process.env["ACME_DATABASE_URL"] ?? "shoplink.db"), Storage.layer)
 * )
 *
 * @since 0.1.0
 */
export const layer = (location: Location): Layer.Layer<SqlClient.SqlClient, StorageUnavailable> =>
  "postgres" in location ? postgres(location.postgres) : sqlite(location.sqlite)

/**
 * A `Location` read from the variable `name` through `fromUrl` (a `postgres://` URL or a SQLite
 * file); a value it refuses is a `ConfigError` naming the problem, never the password. The
 * application names the variable (`Settings.storage` is the standard `SHOPLINK_DATABASE_URL`).
 *
 * @example
 * import { Config } from "effect"
 * import { Storage } from "@shoplink/connector-runtime"
 * const storage = Storage.config("ACME_DATABASE_URL").pipe(
 *   Config.withDefault<Storage.Location>({ sqlite: "shoplink.db" })
 * )
 *
 * @since 0.1.0
 */
export const config = (name: string): Config.Config<Location> =>
  Config.string(name).pipe(
    Config.mapOrFail((value) => Either.mapLeft(parseUrl(value), (error) => ConfigError.InvalidData([], error.problem)))
  )
