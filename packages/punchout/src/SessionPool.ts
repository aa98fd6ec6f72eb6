/**
 * `SessionPool`: one live Punchout session per customer, shared by every fiber. A session is
 * reused until `expiresAt` minus `refreshMargin`; concurrent callers for the same customer wait on
 * one create request (single flight); a command answering `Unauthorized` (the session ended early)
 * drops that session and runs again once with a fresh one. Sessions are never logged with their
 * token: the token is `Redacted`.
 *
 * Memory stays bounded: a session that can no longer be handed out (past `expiresAt` minus the
 * margin) is evicted by a sweep that runs on access (a `get` at least a minute after the last
 * sweep) and every `evictionInterval` (default 1 hour, on the Effect `Clock`), and the pool holds
 * at most `maxSessions` (default 10,000; beyond it, the least recently created sessions are
 * dropped and re-created when next asked for).
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DateTime from "effect/DateTime"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"
import * as Layer from "effect/Layer"
import * as Predicate from "effect/Predicate"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import { isSessionEnded, PunchoutClient, type CreateSessionError } from "./PunchoutClient.js"
import { type CreateSessionOptions, type Customer, customerKey, type PunchoutSession } from "./PunchoutSession.js"

/**
 * Pool settings: how long before `expiresAt` a session stops being handed out (default 5
 * minutes), the session options used when a call gives none, and how expired sessions are
 * evicted.
 *
 * @example
 * import type { SessionPool } from "@shoplink/punchout"
 * const options: SessionPool.SessionPoolOptions = {
 *   refreshMargin: "10 minutes",
 *   evictionInterval: "5 minutes",
 *   maxSessions: 50_000,
 *   session: { smsVendorName: "Acme SMS", webhooks: { order: "https://sms.example/o", quote: "https://sms.example/q" } }
 * }
 *
 * @since 0.1.0
 */
export interface SessionPoolOptions {
  readonly refreshMargin?: Duration.DurationInput
  readonly session?: CreateSessionOptions
  /**
   * How often sessions that can no longer be handed out are evicted when the pool is idle
   * (default 1 hour); a `get` also sweeps when the last sweep is a minute old or more.
   */
  readonly evictionInterval?: Duration.DurationInput
  /** Most sessions held at once (default 10,000); beyond it the least recently created are dropped. */
  readonly maxSessions?: number
}

/**
 * The pool's operations.
 *
 * @example
 * import { Effect } from "effect"
 * import { SessionPool } from "@shoplink/punchout"
 * const tokenless = Effect.flatMap(SessionPool.SessionPool, (pool) => Effect.succeed(pool.size))
 *
 * @since 0.1.0
 */
export interface Service {
  /**
   * The live session of a customer, creating it (once, whoever asks) when missing or expiring.
   * `partition` keeps separate sessions for one customer — e.g. one per repair order when each
   * session carries its own webhook URLs (session options are fixed when a session is created).
   */
  readonly get: (
    customer: Customer,
    options?: CreateSessionOptions,
    partition?: string
  ) => Effect.Effect<PunchoutSession, CreateSessionError>
  /** Drops a session so the next `get` creates a new one; ignored if the pool already replaced it. */
  readonly invalidate: (session: PunchoutSession) => Effect.Effect<void>
  /** Runs `f` with the customer's session, and once more with a fresh session if `f` fails `Unauthorized`. */
  readonly withSession: <A, E, R>(
    customer: Customer,
    f: (session: PunchoutSession) => Effect.Effect<A, E, R>,
    options?: CreateSessionOptions,
    partition?: string
  ) => Effect.Effect<A, E | CreateSessionError, R>
  /** How many sessions the pool holds (live or being created). */
  readonly size: Effect.Effect<number>
}

/**
 * The session pool service.
 *
 * @example
 * import { Effect } from "effect"
 * import { PunchoutClient, SessionPool, type PunchoutSession } from "@shoplink/punchout"
 * const quotes = (customer: PunchoutSession.Customer) =>
 *   Effect.gen(function*() {
 *     const pool = yield* SessionPool.SessionPool
 *     const client = yield* PunchoutClient.PunchoutClient
 *     return yield* pool.withSession(customer, (session) =>
 *       client.getProductQuotes(session, { searchTerm: "oil filter", quantity: 1 }))
 *   })
 *
 * @since 0.1.0
 * @category services
 */
export class SessionPool extends Context.Tag("@shoplink/punchout/SessionPool")<SessionPool, Service>() {}

interface Entry {
  readonly deferred: Deferred.Deferred<PunchoutSession, CreateSessionError>
  session: PunchoutSession | undefined
}

/**
 * Builds a pool on the `PunchoutClient`; creations run in the given scope so a caller that is
 * interrupted never strands the others waiting on the same creation.
 *
 * @example
 * import { Effect } from "effect"
 * import { SessionPool } from "@shoplink/punchout"
 * const pool = SessionPool.make({ refreshMargin: "5 minutes" }) // Effect<Service, never, PunchoutClient | Scope>
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: SessionPoolOptions = {}): Effect.Effect<Service, never, PunchoutClient | Scope.Scope> =>
  Effect.gen(function*() {
    const client = yield* PunchoutClient
    const scope = yield* Effect.scope
    const margin = Duration.toMillis(Duration.decode(options.refreshMargin ?? "5 minutes"))
    const evictionInterval = Duration.decode(options.evictionInterval ?? "1 hour")
    const accessSweepMillis = Math.min(60_000, Duration.toMillis(evictionInterval))
    const maxSessions = Math.max(1, options.maxSessions ?? 10_000)
    const entries = new Map<string, Entry>()

    const fresh = (session: PunchoutSession, now: number) => DateTime.toEpochMillis(session.expiresAt) - margin > now

    // Eviction: sessions that can no longer be handed out go (a creation in flight stays), and
    // beyond maxSessions the oldest created go too (a Map iterates in insertion order; a
    // re-created key is moved to the end).
    let lastSweep = -Infinity
    const sweep = (now: number) => {
      lastSweep = now
      for (const [key, entry] of entries) {
        if (entry.session !== undefined && !fresh(entry.session, now)) entries.delete(key)
      }
    }
    const bound = (now: number, keep: string) => {
      if (entries.size <= maxSessions) return
      sweep(now)
      for (const [key, entry] of entries) {
        if (entries.size <= maxSessions) break
        if (key !== keep && entry.session !== undefined) entries.delete(key)
      }
    }
    yield* Effect.forkScoped(
      Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sync(() => sweep(now))).pipe(
        Effect.repeat(Schedule.spaced(evictionInterval)),
        Effect.delay(evictionInterval)
      )
    )

    const get: Service["get"] = (customer, sessionOptions, partition) =>
      Effect.gen(function*() {
        const createOptions = sessionOptions ?? options.session
        if (createOptions === undefined) {
          return yield* Effect.dieMessage(
            "SessionPool.get: no session options (give them to the call or to SessionPool.layer)"
          )
        }
        const key = partition === undefined ? customerKey(customer) : `${customerKey(customer)}#${partition}`
        const now = yield* Clock.currentTimeMillis
        // Check and claim in one synchronous step: the fiber that installs the entry forks the
        // creation in the pool's scope, every other fiber awaits the same Deferred. The fork would
        // inherit this region's uninterruptibility, so the creation is made interruptible again:
        // the client's deadline and the pool's scope must be able to end it. An interrupted waiter
        // only stops waiting; the creation goes on for the others, within the client's limits.
        const entry = yield* Effect.uninterruptible(Effect.suspend(() => {
          if (now - lastSweep >= accessSweepMillis) sweep(now)
          const existing = entries.get(key)
          if (existing !== undefined && (existing.session === undefined || fresh(existing.session, now))) {
            return Effect.succeed(existing)
          }
          const claimed: Entry = { deferred: Deferred.unsafeMake(FiberId.none), session: undefined }
          entries.delete(key)
          entries.set(key, claimed)
          bound(now, key)
          return client.createSession(customer, createOptions).pipe(
            Effect.tap((session) =>
              Effect.sync(() => {
                claimed.session = session
              }).pipe(
                Effect.zipRight(Effect.logDebug("punchout session created")),
                Effect.annotateLogs({
                  "punchout.customer": key,
                  "punchout.expiresAt": DateTime.formatIso(session.expiresAt)
                })
              )
            ),
            Effect.onExit((exit) =>
              Exit.isSuccess(exit)
                ? Effect.void
                : Effect.sync(() => {
                  if (entries.get(key) === claimed) entries.delete(key)
                })
            ),
            Effect.withSpan("SessionPool.create", { attributes: { "punchout.customer": key } }),
            Effect.intoDeferred(claimed.deferred),
            Effect.interruptible,
            Effect.forkIn(scope),
            Effect.as(claimed)
          )
        }))
        return yield* Deferred.await(entry.deferred)
      })

    // By token, not by key: the session may live under a partitioned key.
    const invalidate: Service["invalidate"] = (session) =>
      Effect.sync(() => {
        for (const [key, entry] of entries) {
          if (entry.session !== undefined && entry.session.token === session.token) entries.delete(key)
        }
      })

    const withSession: Service["withSession"] = (customer, f, sessionOptions, partition) =>
      Effect.flatMap(get(customer, sessionOptions, partition), (session) =>
        f(session).pipe(
          Effect.catchIf(
            (error) =>
              Predicate.hasProperty(error, "_tag") && typeof error._tag === "string" &&
              isSessionEnded({ _tag: error._tag }),
            () =>
              Effect.logInfo("punchout session ended early; creating a new one").pipe(
                Effect.annotateLogs({ "punchout.customer": session.customerKey }),
                Effect.zipRight(invalidate(session)),
                Effect.zipRight(get(customer, sessionOptions, partition)),
                Effect.flatMap(f)
              )
          )
        ))

    return SessionPool.of({ get, invalidate, withSession, size: Effect.sync(() => entries.size) })
  })

/**
 * The pool as a layer (needs `PunchoutClient`).
 *
 * @example
 * import { Layer } from "effect"
 * import { SessionPool } from "@shoplink/punchout"
 * const pool = SessionPool.layer({
 *   refreshMargin: "5 minutes",
 *   session: { smsVendorName: "Acme SMS", webhooks: { order: "https://sms.example/o", quote: "https://sms.example/q" } }
 * })
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: SessionPoolOptions = {}): Layer.Layer<SessionPool, never, PunchoutClient> =>
  Layer.scoped(SessionPool, make(options))
