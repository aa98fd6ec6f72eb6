// What the runtime adds around its pieces to operate them: the background worker with a graceful
// stop, the readiness check, and the shop system with a span and a latency histogram per call.
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import type { Readiness } from "../Health.js"
import { ShopSystem } from "@shoplink/connector/ShopSystem"
import { WebhookInbox } from "../WebhookInbox.js"
import { smsCallDuration } from "./metrics.js"

/** The running worker, as the readiness check sees it. */
interface WorkerHandle {
  readonly alive: Effect.Effect<boolean>
  readonly stopping: () => boolean
}

/**
 * Forks `run` (the worker loop) in the current Scope with a graceful stop. The worker gets work
 * only through `WebhookInbox.claim`, and every entry it claimed is held until it marks or releases
 * it. When the Scope closes, `claim` stops handing out entries (it suspends instead), the finalizer
 * waits until nothing claimed is still held (the executors finish what they took, queued entries
 * included) or `deadline` passes, and only then interrupts the worker. An apply cut off by the
 * deadline stays pending and is applied again on the next start (the inbox layer hands its leases
 * back when it closes); its lines' idempotency keys keep that from doubling them.
 */
export const startWorker = <R>(
  run: Effect.Effect<never, never, R | WebhookInbox>,
  context: Context.Context<R | WebhookInbox>,
  deadline: Duration.Duration
): Effect.Effect<WorkerHandle, never, Scope.Scope> =>
  Effect.gen(function*() {
    const inbox = Context.get(context, WebhookInbox)
    let stopping = false
    const busy = new Set<string>()
    const idle = yield* Deferred.make<void>()
    const done = (ids: ReadonlyArray<string>) =>
      Effect.sync(() => {
        for (const id of ids) busy.delete(id)
        if (stopping && busy.size === 0) Deferred.unsafeDone(idle, Exit.void)
      })
    const gated: WebhookInbox["Type"] = {
      ...inbox,
      claim: (limit) =>
        Effect.suspend(() => {
          if (stopping) return Effect.never
          return Effect.tap(inbox.claim(limit), (entries) =>
            Effect.sync(() => {
              for (const entry of entries) busy.add(entry.id)
            }))
        }),
      markApplied: (id) => Effect.ensuring(inbox.markApplied(id), done([id])),
      markFailed: (id, failure) => Effect.ensuring(inbox.markFailed(id, failure), done([id])),
      release: (ids) => Effect.ensuring(inbox.release(ids), done(ids))
    }
    const fiber = yield* run.pipe(
      Effect.tapErrorCause((cause) =>
        Cause.isInterruptedOnly(cause) ? Effect.void : Effect.logError("the inbox worker stopped", cause)
      ),
      Effect.provide(Context.add(context, WebhookInbox, gated)),
      Effect.forkScoped
    )
    // Added after the fork, so it runs before the Scope's own interruption of the fiber.
    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        stopping = true
        if (busy.size > 0) {
          const finished = yield* Effect.raceFirst(Deferred.await(idle), Effect.asVoid(Fiber.await(fiber))).pipe(
            Effect.interruptible,
            Effect.timeoutOption(deadline)
          )
          if (Option.isNone(finished)) {
            yield* Effect.logWarning("shutdown deadline passed; interrupting the inbox worker with applies in flight")
              .pipe(
                Effect.annotateLogs({ inFlight: busy.size, deadline: Duration.format(deadline) })
              )
          }
        }
        yield* Fiber.interrupt(fiber)
      })
    )
    return {
      alive: Effect.map(Fiber.poll(fiber), Option.isNone),
      stopping: () => stopping
    }
  })

// How long the SQLite probe waits for a lock another connection holds. better-sqlite3 waits
// synchronously, so this is also how long a probe can hold the event loop.
const LOCK_WAIT_MILLIS = 200

/**
 * A round trip that needs the write lock: on SQLite (WAL), readers are never blocked, so a plain
 * SELECT would answer while every webhook write fails. The connection's busy timeout is lowered
 * for the probe and restored after it.
 */
const databaseRoundTrip = (sql: SqlClient.SqlClient) =>
  sql.onDialectOrElse({
    sqlite: () =>
      Effect.scoped(Effect.gen(function*() {
        const connection = yield* sql.reserve
        const rows = yield* connection.executeUnprepared("PRAGMA busy_timeout", [], undefined)
        const previous = Number((rows[0] as { readonly timeout?: unknown } | undefined)?.timeout ?? 5000)
        yield* Effect.acquireRelease(
          connection.executeUnprepared(`PRAGMA busy_timeout = ${LOCK_WAIT_MILLIS}`, [], undefined),
          () =>
            Effect.ignore(
              connection.executeUnprepared(
                `PRAGMA busy_timeout = ${Number.isFinite(previous) ? previous : 5000}`,
                [],
                undefined
              )
            )
        )
        yield* Effect.acquireRelease(
          connection.executeUnprepared("BEGIN IMMEDIATE", [], undefined),
          () => Effect.ignore(connection.executeUnprepared("ROLLBACK", [], undefined))
        )
      })),
    orElse: () => Effect.asVoid(sql`SELECT 1`)
  })

const seconds = (millis: number) => `${Math.round(millis / 1000)}s`

/**
 * The runtime's readiness check (see `Health.ReadinessOptions`). Logs a warning when it turns
 * not ready (with the underlying error) and an info line when it recovers, not on every probe.
 */
export const makeReadiness = (options: {
  readonly sql: SqlClient.SqlClient | undefined
  readonly inbox: WebhookInbox["Type"]
  readonly worker: WorkerHandle | undefined
  readonly maxBacklogAge: Duration.Duration | undefined
  readonly databaseTimeout: Duration.Duration
}): Effect.Effect<Readiness> => {
  let lastReason: string | undefined
  let lastDegraded: string | undefined
  const check = Effect.gen(function*() {
    if (options.worker?.stopping() === true) return { reason: "shutting down" }
    if (options.sql !== undefined) {
      const database = yield* databaseRoundTrip(options.sql).pipe(
        Effect.timeoutOption(options.databaseTimeout),
        Effect.either
      )
      if (database._tag === "Left") return { reason: "database unavailable", detail: database.left.message }
      if (Option.isNone(database.right)) {
        return { reason: `database did not answer within ${Duration.format(options.databaseTimeout)}` }
      }
    }
    if (options.worker === undefined) return undefined
    if (!(yield* options.worker.alive)) return { reason: "inbox worker stopped" }
    if (options.maxBacklogAge === undefined) return undefined
    const backlog = yield* Effect.either(options.inbox.backlog)
    if (backlog._tag === "Left") return { reason: "database unavailable", detail: backlog.left.message }
    if (backlog.right.oldestReceivedAt === undefined) return undefined
    const age = (yield* Clock.currentTimeMillis) - backlog.right.oldestReceivedAt
    const max = Duration.toMillis(options.maxBacklogAge)
    return age > max
      ? { reason: `backlog stale: the oldest pending delivery is ${seconds(age)} old (limit ${seconds(max)})` }
      : undefined
  })
  return Effect.gen(function*() {
    const failure: { readonly reason: string; readonly detail?: string } | undefined = yield* check
    const reason = failure?.reason
    const degraded =
      reason === undefined && options.worker !== undefined && options.inbox.wakeupsListening !== undefined &&
        !(yield* options.inbox.wakeupsListening)
        ? "inbox wake-ups (LISTEN) down; polling"
        : undefined
    if (degraded !== lastDegraded) {
      if (degraded === undefined) yield* Effect.logInfo("no longer degraded")
      else yield* Effect.logWarning("degraded").pipe(Effect.annotateLogs({ degraded }))
      lastDegraded = degraded
    }
    if (reason !== lastReason) {
      if (reason === undefined) yield* Effect.logInfo("ready again")
      else {yield* Effect.logWarning("not ready").pipe(
          Effect.annotateLogs({ reason, ...(failure?.detail === undefined ? {} : { detail: failure.detail }) })
        )}
      lastReason = reason
    }
    if (reason !== undefined) return { ok: false, reason } as const
    return degraded === undefined ? { ok: true } as const : { ok: true, degraded } as const
  })
}

/**
 * The adapter's shop system with a span (`ShopSystem.<operation>`: shopId, repairOrderId) and the
 * `shoplink_sms_call_duration_seconds` histogram (labels `operation`, `outcome`) around each call.
 */
export const instrumentShopSystem = (sms: ShopSystem["Type"]): ShopSystem["Type"] => {
  const call = <A, E>(
    operation: string,
    ref: { readonly shopId: string; readonly repairOrderId: string },
    effect: Effect.Effect<A, E>
  ) =>
    Effect.gen(function*() {
      const start = yield* Clock.currentTimeNanos
      const exit = yield* Effect.exit(effect)
      const elapsed = Number((yield* Clock.currentTimeNanos) - start) / 1e9
      const outcome = Exit.isSuccess(exit) ? "ok" : Exit.isInterrupted(exit) ? "interrupted" : "error"
      yield* Metric.update(
        Metric.tagged(Metric.tagged(smsCallDuration, "operation", operation), "outcome", outcome),
        elapsed
      )
      return yield* exit
    }).pipe(
      Effect.withSpan(`ShopSystem.${operation}`, {
        attributes: { shopId: ref.shopId, repairOrderId: ref.repairOrderId }
      })
    )
  return ShopSystem.of({
    ...sms,
    loadRepairOrder: (ref) => call("loadRepairOrder", ref, sms.loadRepairOrder(ref)),
    applyQuote: (write) => call("applyQuote", write, sms.applyQuote(write)),
    applyOrder: (write) => call("applyOrder", write, sms.applyOrder(write))
  })
}
