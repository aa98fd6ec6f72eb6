// The inbox's wake-ups on PostgreSQL: LISTEN over a `pg` client of our own (not @effect/sql-pg's
// `listen`, whose connection ignores errors and never comes back). The client is `pg` as
// @effect/sql-pg resolves it, configured like the PgClient. Any error or end of that connection
// (pg_terminate_backend, a server restart, a network fault) is logged, counted, and followed by a
// reconnect with backoff (100 ms doubling to 2 s, so a server that is back is listened to again
// within a few seconds); on every (re)connect subscribers are woken once, since a notification
// may have been missed while it was down. Started by the first subscriber; ends with the scope.
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as Metric from "effect/Metric"
import * as Redacted from "effect/Redacted"
import * as Runtime from "effect/Runtime"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { createRequire } from "node:module"
import * as metrics from "./metrics.js"

/** What a PgClient's `config` holds (@effect/sql-pg's PgClientConfig, the fields a connection needs). */
export interface PgConnectionConfig {
  readonly url?: Redacted.Redacted | undefined
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly database?: string | undefined
  readonly username?: string | undefined
  readonly password?: Redacted.Redacted | undefined
  readonly ssl?: unknown
  readonly stream?: (() => unknown) | undefined
}

interface PgNotification {
  readonly channel: string
}
interface PgClientLike {
  connect(): Promise<void>
  query(text: string): Promise<unknown>
  end(): Promise<void>
  on(event: "error", f: (error: Error) => void): void
  on(event: "end", f: () => void): void
  on(event: "notification", f: (message: PgNotification) => void): void
}
type PgClientClass = new(config: Record<string, unknown>) => PgClientLike

let pgClass: PgClientClass | undefined
const loadPg = (): PgClientClass => {
  if (pgClass !== undefined) return pgClass
  const here = createRequire(import.meta.url)
  let pg: { readonly Client: PgClientClass }
  try {
    pg = here("pg")
  } catch {
    // Not a dependency of ours: @effect/sql-pg's own.
    pg = createRequire(here.resolve("@effect/sql-pg"))("pg")
  }
  pgClass = pg.Client
  return pgClass
}

interface Listener {
  /** Emits on each notification of the channel, each (re)connect, and each local `signal`. Coalesced. */
  readonly stream: Stream.Stream<void>
  /** Wakes this process's subscribers (a local receive). */
  readonly signal: () => void
  /** Whether LISTEN is up (true before anyone subscribed: nothing to report). */
  readonly listening: Effect.Effect<boolean>
}

interface Connection {
  readonly client: PgClientLike
  readonly lost: Deferred.Deferred<string>
}

const BACKOFF_START_MILLIS = 100
const BACKOFF_MAX_MILLIS = 2_000
const CONNECT_TIMEOUT = Duration.seconds(5)

export const makeListener = (
  config: PgConnectionConfig,
  channel: string
): Effect.Effect<Listener, never, Scope.Scope> =>
  Effect.gen(function*() {
    // This process's subscribers; the connection below signals them too.
    const local = localWakeups()
    const signal = local.signal
    let started = false
    let up = false

    const options: Record<string, unknown> = {
      ...(config.url === undefined ? {} : { connectionString: Redacted.value(config.url) }),
      ...(config.host === undefined ? {} : { host: config.host }),
      ...(config.port === undefined ? {} : { port: config.port }),
      ...(config.database === undefined ? {} : { database: config.database }),
      ...(config.username === undefined ? {} : { user: config.username }),
      ...(config.password === undefined ? {} : { password: Redacted.value(config.password) }),
      ...(config.ssl === undefined ? {} : { ssl: config.ssl }),
      ...(config.stream === undefined ? {} : { stream: config.stream }),
      application_name: "shoplink-inbox-listen",
      keepAlive: true,
      connectionTimeoutMillis: Duration.toMillis(CONNECT_TIMEOUT)
    }
    const end = (client: PgClientLike) => {
      client.end().catch(() => undefined)
    }

    // Connects and LISTENs; `lost` completes with the reason when the connection fails later.
    const connect = Effect.async<Connection, string>((resume) => {
      let client: PgClientLike
      try {
        client = new (loadPg())(options)
      } catch (error) {
        resume(Effect.fail(`pg could not be loaded: ${error instanceof Error ? error.message : String(error)}`))
        return
      }
      const lost = Deferred.unsafeMake<string>(FiberId.none)
      let connected = false
      let failed = false
      const fail = (reason: string) => {
        if (failed) return
        failed = true
        if (connected) Deferred.unsafeDone(lost, Exit.succeed(reason))
        else {
          end(client)
          resume(Effect.fail(reason))
        }
      }
      client.on("error", (error) => fail(error.message))
      client.on("end", () => fail("the connection closed"))
      client.on("notification", (message) => {
        if (message.channel === channel) signal()
      })
      client.connect()
        .then(() => client.query(`LISTEN "${channel}"`))
        .then(() => {
          if (failed) return
          connected = true
          resume(Effect.succeed({ client, lost }))
        }, (error: unknown) => fail(error instanceof Error ? error.message : String(error)))
      return Effect.sync(() => {
        failed = true
        end(client)
      })
    })

    const loop = Effect.gen(function*() {
      let down = false
      let attempt = 0
      while (true) {
        const connection = yield* Effect.either(connect.pipe(
          Effect.timeoutFail({ duration: Duration.times(CONNECT_TIMEOUT, 2), onTimeout: () => "connecting timed out" })
        ))
        if (connection._tag === "Left") {
          if (!down) {
            down = true
            yield* Metric.increment(metrics.listenLost)
            yield* Effect.logWarning("inbox wake-ups (LISTEN) unavailable; polling until they are back").pipe(
              Effect.annotateLogs({ reason: connection.left })
            )
          }
          yield* Effect.sleep(Duration.millis(Math.min(BACKOFF_MAX_MILLIS, BACKOFF_START_MILLIS * 2 ** attempt)))
          attempt++
          continue
        }
        attempt = 0
        up = true
        yield* Metric.set(metrics.listenUp, 1)
        // `down` stays set: this connection ends only by being lost, which sets it again below.
        if (down) {
          yield* Metric.increment(metrics.listenRecovered)
          yield* Effect.logInfo("inbox wake-ups (LISTEN) recovered")
        }
        // A notification may have been missed while the connection was down (or before it was up).
        signal()
        const reason = yield* Deferred.await(connection.right.lost).pipe(
          Effect.onExit(() => Effect.sync(() => end(connection.right.client)))
        )
        up = false
        down = true
        yield* Metric.set(metrics.listenUp, 0)
        yield* Metric.increment(metrics.listenLost)
        yield* Effect.logWarning("inbox wake-ups (LISTEN) lost; reconnecting, polling meanwhile").pipe(
          Effect.annotateLogs({ reason })
        )
        yield* Effect.sleep(Duration.millis(BACKOFF_START_MILLIS))
      }
    })

    // Runs with the layer's context (its logger, its tracer), whoever subscribes first; ends with
    // the layer's scope.
    const runtime = yield* Effect.runtime<never>()
    let fiber: Fiber.RuntimeFiber<never> | undefined
    yield* Effect.addFinalizer(() => fiber === undefined ? Effect.void : Fiber.interrupt(fiber))
    const start = Effect.sync(() => {
      if (started) return
      started = true
      fiber = Runtime.runFork(runtime)(loop)
    })

    const stream: Stream.Stream<void> = Stream.unwrap(Effect.as(start, local.stream))

    return { stream, signal, listening: Effect.sync(() => !started || up) }
  })

/** Only local wake-ups (one process): `signal` after a receive; never down. */
export const localWakeups = () => {
  const subscribers = new Set<() => void>()
  const stream: Stream.Stream<void> = Stream.asyncPush<void>((emit) =>
    Effect.acquireRelease(
      Effect.sync(() => {
        const wake = () => {
          emit.single(undefined)
        }
        subscribers.add(wake)
        return wake
      }),
      (wake) => Effect.sync(() => subscribers.delete(wake))
    ), { bufferSize: 1, strategy: "sliding" })
  return {
    stream,
    signal: () => {
      for (const wake of subscribers) wake()
    }
  }
}
