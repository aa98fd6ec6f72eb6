/**
 * Where `ServicePages` keeps sign-in sessions: in memory (one process; a restart signs everyone
 * out), or in the runtime's database (`shoplink_sessions`, SQLite or PostgreSQL), so any instance
 * serves any signed-in user, a restart signs nobody out and no sticky load balancing is needed.
 * Either way the session id is only in the cookie: rows are keyed by its SHA-256, and the CSRF
 * token is derived from the id, so a copy of the table cannot be replayed. Sessions expire after
 * their lifetime or when left unused, and sign-out deletes the row (revocation).
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import * as SignIn from "./SignIn.js"
import { Migrations } from "@shoplink/connector-runtime"

/**
 * The sessions could not be read or written (the database refused).
 *
 * @example
 * import { SessionStore } from "@shoplink/service-pages"
 * new SessionStore.SessionStoreError({ reason: "database is locked" }).message
 *
 * @since 0.1.0
 */
export class SessionStoreError
  extends Schema.TaggedError<SessionStoreError>()("SessionStoreError", { reason: Schema.String })
{
  override get message(): string {
    return this.reason
  }
}

/**
 * Who a new session is for (what `SignIn.Session` holds but its token and expiry).
 *
 * @example
 * import type { SessionStore } from "@shoplink/service-pages"
 * const user: SessionStore.SessionUser = {
 *   email: "ava@example.com",
 *   name: "Ava",
 *   shopId: "s1",
 *   shopName: "Main Street Auto"
 * }
 *
 * @since 0.1.0
 */
export type SessionUser = Omit<SignIn.Session, "csrfToken" | "expiresAt">

/**
 * A session store.
 *
 * @example
 * import { Effect } from "effect"
 * import { SessionStore } from "@shoplink/service-pages"
 * const store = SessionStore.memory()
 * const program = Effect.gen(function*() {
 *   const { id } = yield* store.create({
 *     email: "ava@example.com",
 *     name: "Ava",
 *     shopId: "s1",
 *     shopName: "Main Street Auto"
 *   })
 *   return (yield* store.get(id))?.shopName // "Main Street Auto"
 * })
 *
 * @since 0.1.0
 */
export interface SessionStore {
  /** Where sessions live: `"memory"` or `"database"`. */
  readonly kind: "memory" | "database"
  /** A session's lifetime after sign-in, in seconds (the cookie's Max-Age). */
  readonly lifetimeSeconds: number
  /** A new session with a new random id (never one seen before sign-in). */
  readonly create: (
    user: SessionUser
  ) => Effect.Effect<{ readonly id: string; readonly session: SignIn.Session }, SessionStoreError>
  /** The live session with this id, touched; an expired one is deleted and `undefined`. */
  readonly get: (id: string | undefined) => Effect.Effect<SignIn.Session | undefined, SessionStoreError>
  /** Revokes one session (sign-out). */
  readonly remove: (id: string | undefined) => Effect.Effect<void, SessionStoreError>
  /** Revokes every session of a user (emails compared lower-cased); answers how many. */
  readonly removeUser: (email: string) => Effect.Effect<number, SessionStoreError>
}

const ID = /^[A-Za-z0-9_-]{43}$/
const digest = (id: string) => createHash("sha256").update(id).digest("base64url")
/** The session's CSRF token: only the holder of the id (the cookie) can compute it. */
const csrfOf = (id: string) => createHash("sha256").update(`shoplink-csrf\u0000${id}`).digest("base64url")

/**
 * Sessions in this process's memory (`SignIn.makeSessions`): for tests, demos and a service without
 * a database. A restart signs everyone out.
 *
 * @example
 * import { SessionStore } from "@shoplink/service-pages"
 * const store = SessionStore.memory({ lifetimeMillis: 4 * 60 * 60 * 1000 })
 *
 * @since 0.1.0
 */
export const memory = (options: SignIn.SessionOptions = {}): SessionStore => {
  const sessions = SignIn.makeSessions(options)
  const ids = new Map<string, Set<string>>()
  return {
    kind: "memory",
    lifetimeSeconds: sessions.lifetimeSeconds,
    create: (user) =>
      Effect.sync(() => {
        const created = sessions.create(user)
        const email = user.email.toLowerCase()
        ids.set(email, (ids.get(email) ?? new Set()).add(created.id))
        return created
      }),
    get: (id) => Effect.sync(() => sessions.get(id)),
    remove: (id) => Effect.sync(() => sessions.remove(id)),
    removeUser: (email) =>
      Effect.sync(() => {
        const held = ids.get(email.toLowerCase()) ?? new Set<string>()
        let removed = 0
        for (const id of held) {
          if (sessions.get(id) !== undefined) removed++
          sessions.remove(id)
        }
        ids.delete(email.toLowerCase())
        return removed
      })
  }
}

const Row = Schema.Struct({
  email: Schema.String,
  name: Schema.String,
  shop_id: Schema.String,
  shop_name: Schema.String,
  role: Schema.NullOr(Schema.String),
  expires_at: Schema.Union(Schema.Number, Schema.NumberFromString),
  last_seen_at: Schema.Union(Schema.Number, Schema.NumberFromString)
})
const decodeRows = Schema.decodeUnknown(Schema.Array(Row))

const storeError = (error: { readonly message: string; readonly cause?: unknown }) =>
  new SessionStoreError({
    reason: error.cause instanceof Error && error.cause.message !== ""
      ? `${error.message}: ${error.cause.message}`
      : error.message
  })

/**
 * Sessions in the `shoplink_sessions` table of `sql` (migration 5; run `Migrations.run` first, as
 * every store's layer and `sql` do). Times are this process's clock (`options.now`); a session's
 * last use is written at most once a minute, so pages cost one read. Expired rows are deleted at
 * the next sign-in.
 *
 * @example
 * import type { SqlClient } from "@effect/sql"
 * import { SessionStore } from "@shoplink/service-pages"
 * declare const sql: SqlClient.SqlClient
 * const store = SessionStore.makeSql(sql, { idleMillis: 30 * 60 * 1000 })
 *
 * @since 0.1.0
 */
export const makeSql = (sql: SqlClient.SqlClient, options: SignIn.SessionOptions = {}): SessionStore => {
  const lifetime = options.lifetimeMillis ?? 8 * 60 * 60 * 1000
  const idle = options.idleMillis ?? 60 * 60 * 1000
  const now = options.now ?? Date.now
  const touchEvery = Math.min(60_000, Math.floor(idle / 4))
  const run = <A>(statement: Effect.Effect<A, { readonly message: string; readonly cause?: unknown }>) =>
    Effect.mapError(statement, storeError)
  return {
    kind: "database",
    lifetimeSeconds: Math.floor(lifetime / 1000),
    create: (user) =>
      Effect.gen(function*() {
        const t = now()
        yield* run(sql`DELETE FROM shoplink_sessions WHERE expires_at <= ${t} OR last_seen_at <= ${t - idle}`)
        const id = SignIn.randomToken()
        const session: SignIn.Session = {
          ...user,
          email: user.email.toLowerCase(),
          csrfToken: csrfOf(id),
          expiresAt: t + lifetime
        }
        yield* run(
          sql`INSERT INTO shoplink_sessions (id_digest, email, name, shop_id, shop_name, role, created_at, expires_at, last_seen_at)
          VALUES (${digest(id)}, ${session.email}, ${user.name}, ${user.shopId}, ${user.shopName}, ${user.role ?? null},
                  ${t}, ${t + lifetime}, ${t})`
        )
        return { id, session }
      }),
    get: (id) =>
      id === undefined || !ID.test(id) ? Effect.succeed(undefined) : Effect.gen(function*() {
        const key = digest(id)
        const rows = yield* run(sql`SELECT email, name, shop_id, shop_name, role, expires_at, last_seen_at
          FROM shoplink_sessions WHERE id_digest = ${key}`)
        const [row] = yield* Effect.mapError(decodeRows(rows), (error) =>
          new SessionStoreError({ reason: error.message }))
        if (row === undefined) {
          return undefined
        }
        const t = now()
        if (row.expires_at <= t || row.last_seen_at + idle <= t) {
          yield* run(sql`DELETE FROM shoplink_sessions WHERE id_digest = ${key}`)
          return undefined
        }
        if (t - row.last_seen_at >= touchEvery) {
          yield* run(sql`UPDATE shoplink_sessions SET last_seen_at = ${t} WHERE id_digest = ${key}`)
        }
        return {
          email: row.email,
          name: row.name,
          shopId: row.shop_id,
          shopName: row.shop_name,
          ...(row.role === "operator" ? { role: "operator" as const } : {}),
          csrfToken: csrfOf(id),
          expiresAt: row.expires_at
        }
      }),
    remove: (id) =>
      id === undefined || !ID.test(id)
        ? Effect.void
        : Effect.asVoid(run(sql`DELETE FROM shoplink_sessions WHERE id_digest = ${digest(id)}`)),
    removeUser: (email) =>
      Effect.map(
        run(
          sql<
            { readonly id_digest: string }
          >`DELETE FROM shoplink_sessions WHERE email = ${email.trim().toLowerCase()} RETURNING id_digest`
        ),
        (rows) => rows.length
      )
  }
}

/**
 * `makeSql` on the `SqlClient` in context, after bringing its schema up to date (`Migrations.run`).
 *
 * @example
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Effect } from "effect"
 * import { SessionStore } from "@shoplink/service-pages"
 * const store = SessionStore.sql().pipe(Effect.provide(SqliteClient.layer({ filename: "shoplink.db" })))
 *
 * @since 0.1.0
 */
export const sql = (
  options: SignIn.SessionOptions = {}
): Effect.Effect<SessionStore, SessionStoreError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const client = yield* SqlClient.SqlClient
    yield* Effect.mapError(Migrations.run, (error) => new SessionStoreError({ reason: error.reason }))
    return makeSql(client, options)
  })

/**
 * The store for a runtime's database (`ConnectorRuntime`'s `database`): `makeSql` on it, or
 * `memory` when the runtime keeps everything in memory.
 *
 * @example
 * import { ConnectorRuntime } from "@shoplink/connector-runtime"
 * import { SessionStore } from "@shoplink/service-pages"
 * declare const runtime: ConnectorRuntime.Runtime
 * const sessions = SessionStore.forDatabase(runtime.database)
 *
 * @since 0.1.0
 */
export const forDatabase = (
  database: SqlClient.SqlClient | undefined,
  options: SignIn.SessionOptions = {}
): SessionStore => database === undefined ? memory(options) : makeSql(database, options)
