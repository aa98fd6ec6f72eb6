/**
 * Applies inbox entries to the shop system: due entries are decoded and written through
 * `ShopSystem`; a retryable failure is retried with exponential backoff and jitter, and an entry
 * that keeps failing (or fails for good) moves to the dead-letter state with its last error.
 * Writes carry stable idempotency keys, so an entry applied twice (a crash between the write and
 * `markApplied`) still adds each line once.
 *
 * **Concurrency, in order per repair order.** Entries of different repair orders are applied
 * concurrently, up to `concurrency` at once (default 8). Entries of one repair order are applied
 * one at a time, in the order they were received: never two of one repair order in flight, and a
 * later entry waits while an earlier one is pending or waiting for its retry (`WebhookInbox.due`
 * hands out only the oldest pending entry of each repair order). A dead-lettered entry does not
 * hold its repair order up: it has been given up on, and its later entries go ahead.
 *
 * **Several processes.** On PostgreSQL (`WebhookInbox.layerSql`) workers in several processes can
 * share one database: `due` claims each entry for one process under a lease (longer than an
 * apply takes), a repair order's later entries stay unclaimable while its oldest is leased by
 * anyone, and an entry of a killed process is claimed again once its lease runs out. The worker
 * also runs a pass as soon as the inbox's `wakeups` say a new entry was stored (LISTEN/NOTIFY),
 * polling every `pollInterval` as the fallback.
 *
 * **Shop systems that cannot take part lines.** For an adapter without `writeQuotedParts` (or
 * `writeOrderedParts`), the lines of an applied quote (or order) are kept in the `PartsLedger`
 * when one is in context (`ConnectorRuntime` always provides one), per shop and repair order; an
 * order then still goes to `applyOrder` when the adapter declares `recordPurchaseOrder`, so it can
 * record the distributor's order number on the repair order. Without a ledger such entries are
 * marked applied with nothing written.
 *
 * **Timeouts.** Every adapter call (the SMS write, the order verification) runs under
 * `operationTimeout` (default 30 seconds); a call that takes longer is interrupted and counts as a
 * retryable failure of that entry only. Backoff is per entry. An adapter's defect (a bug: a thrown
 * exception, `Effect.die`) is not a failure of the entry: it stops the worker, which `/readyz`
 * reports (`inbox worker stopped`).
 *
 * **Observability.** Each apply runs in an `InboxWorker.apply` span (`shopId`, `repairOrderId`,
 * `entryId`, `kind`, `attempt`, `outcome`); every log line about an entry carries `shopId`,
 * `repairOrderId` and `entryId`, never a body or a secret. The worker counts
 * `shoplink_deliveries_applied_total`, `…_retried_total` and `…_dead_total` (label `kind`) and,
 * while it runs, sets the `shoplink_inbox_backlog` and `shoplink_inbox_backlog_oldest_age_seconds`
 * gauges (at most every 5 seconds, when it looks at the inbox). (In `ConnectorRuntime` every shop-system call also gets its own span and
 * a `shoplink_sms_call_duration_seconds` sample.)
 *
 * @since 0.1.0
 */
import { Deadline, Retry } from "@shoplink/http"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Random from "effect/Random"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { Punchout } from "@shoplink/protocol"
import { orderWrite, quoteWrite } from "./internal/deliveries.js"
import * as metrics from "./internal/metrics.js"
import { OrderVerifier } from "./OrderVerifier.js"
import { PartsLedger } from "./PartsLedger.js"
import { ShopSystem } from "./ShopSystem.js"
import { type InboxEntry, type InboxError, WebhookInbox } from "./WebhookInbox.js"

/**
 * Worker settings.
 *
 * @example
 * import type { InboxWorker } from "@shoplink/connector"
 * const options: InboxWorker.Options = { concurrency: 16, operationTimeout: "10 seconds", maxAttempts: 5, baseDelay: "2 seconds" }
 *
 * @since 0.1.0
 */
export interface Options {
  /** Entries taken per `processDue` pass (default 20). */
  readonly batchSize?: number
  /** Repair orders applied at once (default 8). Entries of one repair order are always applied one at a time. */
  readonly concurrency?: number
  /** Longest an adapter call may take before it is interrupted and retried (default 30 seconds). */
  readonly operationTimeout?: Duration.DurationInput
  /** Attempts before an entry is dead-lettered (default 8). */
  readonly maxAttempts?: number
  /** First retry delay; doubles per attempt, jittered to 50–100% as every Shoplink retry is (default 1 second). */
  readonly baseDelay?: Duration.DurationInput
  /** Longest retry delay (default 5 minutes). */
  readonly maxDelay?: Duration.DurationInput
  /**
   * Pause between looks at the inbox when it has nothing due (default 250 ms). An inbox with
   * `wakeups` (PostgreSQL) also rouses the worker as soon as a new entry is stored, so with it a
   * longer interval costs no latency.
   */
  readonly pollInterval?: Duration.DurationInput
}

/**
 * What one pass did.
 *
 * @example
 * import type { InboxWorker } from "@shoplink/connector"
 * const summary = (r: InboxWorker.PassResult) => `${r.applied} applied, ${r.retrying} retrying, ${r.dead} dead`
 *
 * @since 0.1.0
 */
export interface PassResult {
  readonly applied: number
  readonly retrying: number
  readonly dead: number
}

/**
 * The delay before retry number `attempt` (1-based): `baseDelay * 2^(attempt-1)`, capped at
 * `maxDelay`, jittered to 50–100% by `@shoplink/http`'s one retry rule (`Retry.nextDelay`), from the
 * Effect `Random` service (deterministic under a test seed).
 *
 * @example
 * import { Effect } from "effect"
 * import { InboxWorker } from "@shoplink/connector"
 * Effect.runSync(InboxWorker.retryDelay(3, { baseDelay: "1 second", maxDelay: "1 minute" })) // 2000 to 4000 ms
 *
 * @since 0.1.0
 */
export const retryDelay = (
  attempt: number,
  options: { readonly baseDelay: Duration.DurationInput; readonly maxDelay: Duration.DurationInput }
): Effect.Effect<number> => {
  // The worker counts attempts itself and has no total deadline: an entry waits as long as it must.
  const policy = Retry.make({ maxAttempts: Number.MAX_SAFE_INTEGER, baseDelay: options.baseDelay, maxDelay: options.maxDelay, maxElapsed: Duration.infinity })
  return Effect.map(Random.next, (random) =>
    Duration.toMillis(Retry.nextDelay(policy, { retry: Math.max(1, attempt), elapsedMillis: 0, random }) ?? policy.maxDelay))
}

interface Config {
  readonly batchSize: number
  readonly concurrency: number
  readonly timeout: Duration.Duration
  readonly maxAttempts: number
  readonly delays: { readonly baseDelay: Duration.DurationInput; readonly maxDelay: Duration.DurationInput }
  readonly pollInterval: Duration.Duration
}

const configOf = (options: Options): Config => ({
  batchSize: Math.max(1, options.batchSize ?? 20),
  concurrency: Math.max(1, options.concurrency ?? 8),
  timeout: Duration.decode(options.operationTimeout ?? "30 seconds"),
  maxAttempts: options.maxAttempts ?? 8,
  delays: { baseDelay: options.baseDelay ?? "1 second", maxDelay: options.maxDelay ?? "5 minutes" },
  pollInterval: Duration.decode(options.pollInterval ?? "250 millis")
})

type Outcome = "applied" | { readonly error: string; readonly retryable: boolean }

// Total: a stored body the decoder chokes on (a defect, not a ParseError) dead-letters its entry
// instead of killing the worker's loop.
const total = <A>(decode: (body: string) => Either.Either<A, { readonly message: string }>) => (body: string): Either.Either<A, string> => {
  try {
    return Either.mapLeft(decode(body), (error) => error.message)
  } catch (error) {
    return Either.left(`the decoder failed: ${error instanceof Error ? error.message.slice(0, 100) : "defect"}`)
  }
}
const decodeOrder = total(Schema.decodeUnknownEither(Schema.parseJson(Punchout.OrderWebhook)))
const decodeQuote = total(Schema.decodeUnknownEither(Schema.parseJson(Punchout.QuoteWebhook)))

class TimedOut {
  readonly _tag = "TimedOut"
  constructor(readonly operation: string) {}
}

/**
 * Runs an adapter call under the timeout; a typed error or a timeout becomes the entry's error.
 * An interruption (the worker stopping) stays one, and the entry stays pending; a defect (an
 * adapter bug) stays one too.
 */
const guarded = <A, E extends { readonly message: string }>(
  operation: string,
  timeout: Duration.Duration,
  effect: Effect.Effect<A, E>,
  onFailure: (error: E) => { readonly error: string; readonly retryable: boolean }
): Effect.Effect<Either.Either<A, { readonly error: string; readonly retryable: boolean }>> =>
  effect.pipe(
    Deadline.timeoutFail({ duration: timeout, onTimeout: () => new TimedOut(operation) }),
    Effect.matchCauseEffect({
      onSuccess: (value) => Effect.succeed(Either.right(value)),
      onFailure: (cause) => {
        const failure = Cause.failureOption(cause)
        // No typed failure: an interruption or a defect, which goes on as it came (the cause holds no failure).
        if (Option.isNone(failure)) return Effect.failCause(cause as Cause.Cause<never>)
        const error = failure.value
        return Effect.succeed(Either.left(
          error instanceof TimedOut
            ? { error: `${operation} timed out after ${Duration.format(timeout)}`, retryable: true }
            : onFailure(error)
        ))
      }
    })
  )

const applyEntry = (entry: InboxEntry, timeout: Duration.Duration): Effect.Effect<Outcome, never, ShopSystem> =>
  Effect.gen(function*() {
    const sms = yield* ShopSystem
    const ledger = yield* Effect.serviceOption(PartsLedger)
    // Decoded once: the write to run, and the order number the verifier checks. An SMS that cannot
    // take the lines gets them kept in the parts ledger (when the runtime has one) instead; an SMS
    // that records purchase orders without taking lines still gets `applyOrder`, to record it.
    const decoded = entry.kind === "order"
      ? Either.map(decodeOrder(entry.body), (body) => {
        const write = orderWrite(entry.shopId, entry.repairOrderId, body)
        const takesLines = sms.capabilities.has("writeOrderedParts")
        return {
          orderID: body.order.orderID as string | undefined,
          // What the verifier compares with the distributor's order: the lines this delivery applies.
          lines: write.lines as typeof write.lines | undefined,
          operation: "applyOrder",
          keep: takesLines ? undefined : Option.map(ledger, (l) => l.recordOrder(write)),
          write: takesLines || sms.capabilities.has("recordPurchaseOrder") ? sms.applyOrder(write) : undefined
        }
      })
      : Either.map(decodeQuote(entry.body), (body) => {
        const write = quoteWrite(entry.shopId, entry.repairOrderId, body)
        const takesLines = sms.capabilities.has("writeQuotedParts")
        return {
          orderID: undefined,
          lines: undefined,
          operation: "applyQuote",
          keep: takesLines ? undefined : Option.map(ledger, (l) => l.recordQuote(write)),
          write: takesLines ? sms.applyQuote(write) : undefined
        }
      })
    if (Either.isLeft(decoded)) return { error: `stored body does not decode: ${decoded.left}`, retryable: false }
    const { keep, lines, operation, orderID, write } = decoded.right
    // Nothing to write or keep for an SMS that cannot take these lines and a runtime without a ledger: done, not failed.
    if (write === undefined && (keep === undefined || Option.isNone(keep))) return "applied" as const
    const verifier = yield* Effect.serviceOption(OrderVerifier)
    if (orderID !== undefined && Option.isSome(verifier)) {
      const checked = yield* guarded("order verification", timeout, verifier.value.verify({ shopId: entry.shopId, orderID, lines }), () => ({
        error: "order verification failed",
        retryable: true
      }))
      if (Either.isLeft(checked)) return checked.left
      const verdict = checked.right
      if (verdict._tag === "Unavailable") return { error: `order verification unavailable: ${verdict.reason}`, retryable: true }
      if (verdict._tag === "Rejected") {
        if (verifier.value.mode === "enforce") return { error: `order verification failed: ${verdict.reason}`, retryable: false }
        yield* Effect.logWarning("order verification failed; applying anyway (warn mode)").pipe(Effect.annotateLogs({ reason: verdict.reason }))
      }
    }
    if (keep !== undefined && Option.isSome(keep)) {
      // The ledger is the runtime's own database: a failure of it may pass, so it is retried.
      const kept = yield* guarded("parts ledger", timeout, keep.value, (error) => ({ error: error.message, retryable: true }))
      if (Either.isLeft(kept)) return kept.left
    }
    if (write === undefined) return "applied" as const
    const written = yield* guarded(operation, timeout, write, (error) => ({
      error: error.message,
      retryable: error._tag === "ShopSystemError" && error.retryable
    }))
    return Either.isLeft(written) ? written.left : "applied" as const
  })

type Settled = "applied" | "retrying" | "dead"

// The counters by kind, tagged once.
const counters = {
  applied: { order: Metric.tagged(metrics.applied, "kind", "order"), quote: Metric.tagged(metrics.applied, "kind", "quote") },
  retrying: { order: Metric.tagged(metrics.retried, "kind", "order"), quote: Metric.tagged(metrics.retried, "kind", "quote") },
  dead: { order: Metric.tagged(metrics.dead, "kind", "order"), quote: Metric.tagged(metrics.dead, "kind", "quote") }
} as const

/** Applies one entry and records what happened to it. Fails only when the inbox cannot be written. */
const settle = (inbox: WebhookInbox["Type"], entry: InboxEntry, config: Config): Effect.Effect<Settled, InboxError, ShopSystem> =>
  Effect.gen(function*() {
    const attempt = entry.attempts + 1
    const outcome = yield* applyEntry(entry, config.timeout)
    let settled: Settled
    if (outcome === "applied") {
      yield* inbox.markApplied(entry.id)
      yield* Effect.logDebug("inbox entry applied").pipe(Effect.annotateLogs({ attempt }))
      settled = "applied"
    } else if (outcome.retryable && attempt < config.maxAttempts) {
      const retryAt = (yield* Clock.currentTimeMillis) + (yield* retryDelay(attempt, config.delays))
      yield* inbox.markFailed(entry.id, { error: outcome.error, retryAt })
      yield* Effect.logWarning("inbox entry failed; will retry").pipe(Effect.annotateLogs({ attempt, error: outcome.error }))
      settled = "retrying"
    } else {
      yield* inbox.markFailed(entry.id, { error: outcome.error, retryAt: undefined })
      yield* Effect.logError("inbox entry dead-lettered").pipe(Effect.annotateLogs({ attempt, error: outcome.error }))
      settled = "dead"
    }
    yield* Metric.increment(counters[settled][entry.kind])
    yield* Effect.annotateCurrentSpan("outcome", settled)
    return settled
  }).pipe(
    Effect.withSpan("InboxWorker.apply", {
      attributes: { shopId: entry.shopId, repairOrderId: entry.repairOrderId, entryId: entry.id, kind: entry.kind, attempt: entry.attempts + 1 }
    }),
    Effect.annotateLogs({ shopId: entry.shopId, repairOrderId: entry.repairOrderId, entryId: entry.id })
  )

/**
 * One pass over the due entries: applies what is due, repair orders concurrently (up to
 * `concurrency`) and each repair order's entries in turn, until nothing more is due or
 * `batchSize` entries were taken. Waits for every apply it started. Never fails for an SMS error
 * (those are recorded on the entry); fails only when the inbox itself cannot be read or written.
 *
 * @example
 * import { Effect } from "effect"
 * import { InboxWorker } from "@shoplink/connector"
 * const drain = InboxWorker.processDue({ maxAttempts: 3 }).pipe(Effect.repeat({ until: (r) => r.applied + r.retrying + r.dead === 0 }))
 *
 * @since 0.1.0
 */
export const processDue = (options: Options = {}): Effect.Effect<PassResult, InboxError, WebhookInbox | ShopSystem> =>
  Effect.gen(function*() {
    const inbox = yield* WebhookInbox
    const config = configOf(options)
    const result = { applied: 0, retrying: 0, dead: 0 }
    // Each round takes the head of every repair order's line; the next round the entries behind
    // them. An entry taken once (e.g. retrying with no delay) is not taken again in this pass.
    const taken = new Set<string>()
    while (taken.size < config.batchSize) {
      const heads = (yield* inbox.due(config.batchSize)).filter((e) => !taken.has(e.id)).slice(0, config.batchSize - taken.size)
      if (heads.length === 0) break
      for (const entry of heads) taken.add(entry.id)
      const outcomes = yield* Effect.forEach(heads, (entry) => settle(inbox, entry, config), { concurrency: config.concurrency })
      for (const outcome of outcomes) result[outcome]++
    }
    return result
  })

const repairOrderKey = (entry: InboxEntry) => `${entry.shopId}\u0000${entry.repairOrderId}`

/** How often, at most, the running worker refreshes the backlog gauges. */
const BACKLOG_METRICS_MILLIS = 5_000

const setBacklogGauges = (inbox: WebhookInbox["Type"], now: number) =>
  Effect.gen(function*() {
    const backlog = yield* inbox.backlog
    yield* Metric.set(metrics.backlogSize, backlog.size)
    yield* Metric.set(metrics.backlogOldestAge, backlog.oldestReceivedAt === undefined ? 0 : Math.max(0, now - backlog.oldestReceivedAt) / 1000)
  }).pipe(Effect.ignore)

/**
 * Runs the worker forever: `concurrency` lanes, each taking the oldest due entry of a repair
 * order no other lane holds, applying it and marking it, then asking again. A lane with nothing
 * to take waits `pollInterval` (or until another lane sees more work than it can take, or the
 * inbox's `wakeups` say a new entry was stored). A slow
 * or hung repair order holds one lane, never the others. An inbox failure is logged and the lane
 * goes on after the interval; the entry stays pending and is applied again later (idempotency
 * keys keep that from doubling lines).
 *
 * @example
 * import { Effect } from "effect"
 * import { InboxWorker } from "@shoplink/connector"
 * const background = Effect.forkScoped(InboxWorker.run({ concurrency: 8 }))
 *
 * @since 0.1.0
 */
export const run = (options: Options = {}): Effect.Effect<never, never, WebhookInbox | ShopSystem> =>
  Effect.gen(function*() {
    const inbox = yield* WebhookInbox
    const config = configOf(options)
    // A lane needs one repair order no other lane holds: with at most concurrency - 1 held, one
    // more than that is enough (a repair order released meanwhile makes the lane ask again).
    const limit = config.concurrency + 1

    // Which repair orders a lane holds. A lane's answer from `due` may predate another lane's
    // settling of an entry (the entry still looked due when the query ran): `settledAt` records,
    // per repair order, when it was last released (a counter, not a time), and a lane skips a
    // repair order released after its query started. It is pruned to what open queries can see.
    const held = new Set<string>()
    const settledAt = new Map<string, number>()
    const openQueries = new Map<number, number>()
    let counter = 0
    let queries = 0
    let wake = Deferred.unsafeMake<void>(FiberId.none)
    // Counts signals, so a lane can tell one came while it was asking the inbox (and would miss
    // it by going idle afterwards).
    let signals = 0
    const signal = () => {
      signals++
      const woken = wake
      wake = Deferred.unsafeMake<void>(FiberId.none)
      Deferred.unsafeDone(woken, Exit.void)
    }
    const prune = () => {
      if (settledAt.size <= 4 * limit) return
      let oldest = Infinity
      for (const startedAt of openQueries.values()) oldest = Math.min(oldest, startedAt)
      for (const [key, at] of settledAt) if (at <= oldest) settledAt.delete(key)
    }
    const idle = Effect.suspend(() => Effect.raceFirst(Deferred.await(wake), Effect.sleep(config.pollInterval)))
    // The backlog gauges ride on the lanes' own wake-ups (no timer of their own): refreshed when a
    // lane goes to the inbox and the last refresh is 5 seconds old or more.
    let gaugesAt = -Infinity
    const gauges = Effect.flatMap(Clock.currentTimeMillis, (now) => {
      if (now - gaugesAt < BACKLOG_METRICS_MILLIS) return Effect.void
      gaugesAt = now
      return setBacklogGauges(inbox, now)
    })

    const lane: Effect.Effect<never, never, ShopSystem> = Effect.gen(function*() {
      while (true) {
        yield* gauges
        const query = ++queries
        const startedAt = counter
        const signalsBefore = signals
        openQueries.set(query, startedAt)
        const due = yield* Effect.either(inbox.due(limit)).pipe(Effect.ensuring(Effect.sync(() => openQueries.delete(query))))
        if (Either.isLeft(due)) {
          yield* Effect.logError("inbox read failed", due.left)
          yield* Effect.sleep(config.pollInterval)
          continue
        }
        prune()
        let stale = false
        const free = due.right.filter((entry) => {
          const key = repairOrderKey(entry)
          if (held.has(key)) return false
          if ((settledAt.get(key) ?? -1) > startedAt) {
            stale = true
            return false
          }
          return true
        })
        const next = free[0]
        if (next === undefined) {
          // A repair order released, or a wake-up, while we asked: something may be due, ask again now.
          yield* stale || signals !== signalsBefore ? Effect.yieldNow() : idle
          continue
        }
        if (free.length > 1) signal()
        const key = repairOrderKey(next)
        held.add(key)
        yield* settle(inbox, next, config).pipe(
          Effect.catchAll((error) => Effect.logError("inbox write failed; the entry stays pending", error)),
          Effect.annotateLogs({ shopId: next.shopId, repairOrderId: next.repairOrderId, entryId: next.id }),
          Effect.ensuring(Effect.sync(() => {
            held.delete(key)
            settledAt.set(key, ++counter)
          }))
        )
      }
    })

    // The inbox's wake-ups (e.g. PostgreSQL NOTIFY on a commit, from any process) rouse the idle
    // lanes at once; the poll stays the fallback. The fiber ends with `run`.
    if (inbox.wakeups !== undefined) yield* Effect.fork(Stream.runForEach(inbox.wakeups, () => Effect.sync(signal)))

    return yield* Effect.all(Array.from({ length: config.concurrency }, () => lane), { concurrency: "unbounded", discard: true }).pipe(
      Effect.andThen(Effect.never)
    )
  })

/**
 * A layer that runs the worker in the background for the layer's lifetime.
 *
 * @example
 * import { Layer } from "effect"
 * import { InboxWorker, WebhookInbox } from "@shoplink/connector"
 * const worker = InboxWorker.layer({ concurrency: 8, maxAttempts: 5 }).pipe(Layer.provide(WebhookInbox.layerMemory))
 *
 * @since 0.1.0
 */
export const layer = (options: Options = {}): Layer.Layer<never, never, WebhookInbox | ShopSystem> =>
  Layer.scopedDiscard(Effect.forkScoped(run(options)))
