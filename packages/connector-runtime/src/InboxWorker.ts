/**
 * Applies inbox entries to the shop system. One fetcher claims due entries (`WebhookInbox.claim`:
 * the oldest pending entry of each repair order, so a repair order's entries apply one at a time,
 * in the order received) and hands them to `concurrency` executors (default 8). A retryable
 * failure, a call over `operationTimeout` or an adapter defect is retried with backoff and jitter;
 * an entry that keeps failing is dead-lettered with its last error. Writes carry stable idempotency
 * keys, so an entry applied twice adds each line once. On PostgreSQL several processes share the
 * inbox under leases a heartbeat extends. Lines a shop system cannot take are kept in the
 * `PartsLedger`. Spans, log lines and metrics: docs/architecture.md.
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
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Random from "effect/Random"
import * as RuntimeFlags from "effect/RuntimeFlags"
import * as RuntimeFlagsPatch from "effect/RuntimeFlagsPatch"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { Punchout } from "@shoplink/protocol"
import { type DeliveryWrite, orderWrite, quoteWrite, writeOf as deliveryWriteOf } from "./internal/deliveries.js"
import * as metrics from "./internal/metrics.js"
import { OrderVerifier } from "./OrderVerifier.js"
import { PartsLedger } from "./PartsLedger.js"
import { RepairOrderStates, takesParts } from "./RepairOrderStates.js"
import { ShopSystem } from "@shoplink/connector/ShopSystem"
import { type InboxEntry, type InboxError, WebhookInbox } from "./WebhookInbox.js"

/**
 * What applying a stored delivery writes: the part lines, with the idempotency keys the worker
 * hands the shop system, and for an order its number and status; `undefined` when the body does not
 * decode or was cleared by retention. Pages that show a repair order's parts read them this way,
 * so they show what the SMS holds.
 *
 * @example
 * import { InboxWorker } from "@shoplink/connector-runtime"
 * const write = InboxWorker.writeOf({
 *   kind: "quote",
 *   shopId: "shop_1",
 *   repairOrderId: "ro_1",
 *   body: '{"referenceID":"1042","quotes":[]}'
 * })
 * write?.kind // "quote"
 *
 * @since 0.1.0
 */
export const writeOf: (
  entry: Pick<InboxEntry, "kind" | "shopId" | "repairOrderId" | "body">
) => DeliveryWrite | undefined = deliveryWriteOf

export type { DeliveryWrite }

/**
 * Worker settings.
 *
 * @example
 * import type { InboxWorker } from "@shoplink/connector-runtime"
 * const options: InboxWorker.Options = {
 *   concurrency: 16,
 *   operationTimeout: "10 seconds",
 *   maxAttempts: 5,
 *   baseDelay: "2 seconds"
 * }
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
  /**
   * How often the leases of the entries this worker holds are extended (default 5 seconds, or a
   * third of the inbox's lease when that is shorter; see `WebhookInbox.SqlOptions.lease`, 30
   * seconds by default). Keep it well under the lease.
   */
  readonly heartbeatInterval?: Duration.DurationInput
}

/**
 * What one pass did.
 *
 * @example
 * import type { InboxWorker } from "@shoplink/connector-runtime"
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
 * import { InboxWorker } from "@shoplink/connector-runtime"
 * Effect.runSync(InboxWorker.retryDelay(3, { baseDelay: "1 second", maxDelay: "1 minute" })) // 2000 to 4000 ms
 *
 * @since 0.1.0
 */
export const retryDelay = (
  attempt: number,
  options: { readonly baseDelay: Duration.DurationInput; readonly maxDelay: Duration.DurationInput }
): Effect.Effect<number> => {
  // The worker counts attempts itself and has no total deadline: an entry waits as long as it must.
  const policy = Retry.make({
    maxAttempts: Number.MAX_SAFE_INTEGER,
    baseDelay: options.baseDelay,
    maxDelay: options.maxDelay,
    maxElapsed: Duration.infinity
  })
  return Effect.map(
    Random.next,
    (random) =>
      Duration.toMillis(
        Retry.nextDelay(policy, { retry: Math.max(1, attempt), elapsedMillis: 0, random }) ?? policy.maxDelay
      )
  )
}

interface Config {
  readonly batchSize: number
  readonly concurrency: number
  readonly timeout: Duration.Duration
  readonly maxAttempts: number
  readonly delays: { readonly baseDelay: Duration.DurationInput; readonly maxDelay: Duration.DurationInput }
  readonly pollInterval: Duration.Duration
  readonly heartbeatInterval: Duration.Duration
}

const configOf = (options: Options): Config => ({
  batchSize: Math.max(1, options.batchSize ?? 20),
  concurrency: Math.max(1, options.concurrency ?? 8),
  timeout: Duration.decode(options.operationTimeout ?? "30 seconds"),
  maxAttempts: options.maxAttempts ?? 8,
  delays: { baseDelay: options.baseDelay ?? "1 second", maxDelay: options.maxDelay ?? "5 minutes" },
  pollInterval: Duration.decode(options.pollInterval ?? "250 millis"),
  heartbeatInterval: Duration.decode(options.heartbeatInterval ?? "5 seconds")
})

// "unconfirmed": the lease could not be confirmed right before the write, so nothing was written.
type Outcome = "applied" | "unconfirmed" | { readonly error: string; readonly retryable: boolean }

/** Answers, right before a write, whether this worker still surely holds the entry's lease. */
type Fence = Effect.Effect<boolean>

// Total: a stored body the decoder chokes on (a defect, not a ParseError) dead-letters its entry
// instead of killing the worker's loop.
const total =
  <A>(decode: (body: string) => Either.Either<A, { readonly message: string }>) =>
  (body: string): Either.Either<A, string> => {
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

const applyEntry = (
  entry: InboxEntry,
  timeout: Duration.Duration,
  fence: Fence
): Effect.Effect<Outcome, never, ShopSystem> =>
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
          takesLines,
          toLedger: (l: PartsLedger["Type"]) => l.recordOrder(write),
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
          takesLines,
          toLedger: (l: PartsLedger["Type"]) => l.recordQuote(write),
          write: takesLines ? sms.applyQuote(write) : undefined
        }
      })
    if (Either.isLeft(decoded)) return { error: `stored body does not decode: ${decoded.left}`, retryable: false }
    const { lines, operation, orderID, takesLines, toLedger } = decoded.right
    let { write } = decoded.right
    let keep = takesLines ? undefined : Option.map(ledger, toLedger)
    // A repair order its SMS reported closed or deleted (`RepairOrderStates`) takes no more parts:
    // the lines are kept in the parts ledger instead, and nothing is written onto it.
    const states = sms.capabilities.has("receiveRepairOrderEvents")
      ? yield* Effect.serviceOption(RepairOrderStates)
      : Option.none()
    if (Option.isSome(states) && Option.isSome(ledger)) {
      const known = yield* guarded(
        "repair order state",
        timeout,
        states.value.get({ shopId: entry.shopId, repairOrderId: entry.repairOrderId }),
        (error) => ({ error: error.message, retryable: true })
      )
      if (Either.isLeft(known)) return known.left
      if (Option.isSome(known.right) && !takesParts(known.right.value.state)) {
        keep = Option.some(toLedger(ledger.value))
        write = undefined
      }
    }
    // Nothing to write or keep for an SMS that cannot take these lines and a runtime without a ledger:
    // done, not failed.
    if (write === undefined && (keep === undefined || Option.isNone(keep))) return "applied" as const
    const verifier = yield* Effect.serviceOption(OrderVerifier)
    if (orderID !== undefined && Option.isSome(verifier)) {
      const checked = yield* guarded(
        "order verification",
        timeout,
        verifier.value.verify({ shopId: entry.shopId, orderID, lines }),
        () => ({
          error: "order verification failed",
          retryable: true
        })
      )
      if (Either.isLeft(checked)) return checked.left
      const verdict = checked.right
      if (verdict._tag === "Unavailable") {
        return { error: `order verification unavailable: ${verdict.reason}`, retryable: true }
      }
      if (verdict._tag === "Rejected") {
        if (verifier.value.mode === "enforce") {
          return { error: `order verification failed: ${verdict.reason}`, retryable: false }
        }
        yield* Effect.logWarning("order verification failed; applying anyway (warn mode)").pipe(
          Effect.annotateLogs({ reason: verdict.reason })
        )
      }
    }
    // The last look at the lease before anything is written: a process frozen past its lease (a
    // stop, a long pause, a busy host) or one whose lease was taken over writes nothing.
    if (!(yield* fence)) {
      return "unconfirmed" as const
    }
    if (keep !== undefined && Option.isSome(keep)) {
      // The ledger is the runtime's own database: a failure of it may pass, so it is retried.
      const kept = yield* guarded(
        "parts ledger",
        timeout,
        keep.value,
        (error) => ({ error: error.message, retryable: true })
      )
      if (Either.isLeft(kept)) return kept.left
    }
    if (write === undefined) return "applied" as const
    const written = yield* guarded(operation, timeout, write, (error) => ({
      error: error.message,
      retryable: error._tag === "ShopSystemError" && error.retryable
    }))
    return Either.isLeft(written) ? written.left : "applied" as const
  })

type Settled = "applied" | "retrying" | "dead" | "refused"

// The counters by kind, tagged once.
const counters = {
  applied: {
    order: Metric.tagged(metrics.applied, "kind", "order"),
    quote: Metric.tagged(metrics.applied, "kind", "quote")
  },
  retrying: {
    order: Metric.tagged(metrics.retried, "kind", "order"),
    quote: Metric.tagged(metrics.retried, "kind", "quote")
  },
  dead: { order: Metric.tagged(metrics.dead, "kind", "order"), quote: Metric.tagged(metrics.dead, "kind", "quote") }
} as const

const describeDefect = (cause: Cause.Cause<unknown>): string => {
  if (Cause.isInterruptedOnly(cause)) return "the adapter call was interrupted"
  const defect = Cause.dieOption(cause)
  const value = Option.isSome(defect) ? defect.value : Cause.squash(cause)
  const text = value instanceof Error ? `${value.name}: ${value.message}` : String(value)
  return `adapter defect: ${text.slice(0, 200)}`
}

/**
 * `applyEntry` in a fiber of its own: a throw, a die or an interruption inside the adapter is this
 * entry's failed attempt (retryable, recorded with its cause), never the worker's end. The worker
 * being stopped still interrupts it (the entry then stays pending).
 */
const contained = (
  entry: InboxEntry,
  timeout: Duration.Duration,
  fence: Fence
): Effect.Effect<Outcome, never, ShopSystem> =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(applyEntry(entry, timeout, fence))
    const exit = yield* Fiber.await(fiber)
    if (Exit.isSuccess(exit)) return exit.value
    yield* Metric.increment(metrics.defects)
    const error = describeDefect(exit.cause)
    yield* Effect.logError("adapter defect while applying an inbox entry; counted as a failed attempt", exit.cause)
    return { error, retryable: true }
  })

/**
 * A mark that failed to reach the database (a dropped connection, a restart) is tried again, with
 * backoff, for as long as the entry's lease can still be held: the heartbeat keeps the lease while
 * the mark waits, so an applied entry is not applied again by another process for a lost write of
 * its result. A mark the database refuses (the lease was lost) is an answer, not retried.
 */
const persistently = <A>(
  inbox: WebhookInbox["Type"],
  mark: Effect.Effect<A, InboxError>
): Effect.Effect<A, InboxError> =>
  mark.pipe(
    Effect.tapError((error) => Effect.logWarning("inbox mark failed; trying again while the lease holds", error)),
    Effect.retry(
      Schedule.exponential("100 millis").pipe(
        Schedule.union(Schedule.spaced("2 seconds")),
        Schedule.upTo(Duration.times(inbox.lease ?? Duration.minutes(1), 2))
      )
    )
  )

/** Applies one entry and records what happened to it. Fails only when the inbox cannot be written. */
const settle = (
  inbox: WebhookInbox["Type"],
  entry: InboxEntry,
  config: Config,
  fence: Fence,
  onApplied: Effect.Effect<void> = Effect.void
): Effect.Effect<Settled, InboxError, ShopSystem> =>
  Effect.gen(function*() {
    const attempt = entry.attempts + 1
    const outcome = yield* contained(entry, config.timeout, fence)
    yield* onApplied
    let settled: Settled
    if (outcome === "unconfirmed") {
      // Not written and not an attempt: handed back (a no-op when another process holds it now).
      yield* Effect.ignore(inbox.release([entry.id]))
      yield* Metric.increment(metrics.writesFenced)
      yield* Effect.logWarning(
        "inbox entry's lease could not be confirmed before its write; nothing written here, left to its holder"
      )
      yield* Effect.annotateCurrentSpan("outcome", "unconfirmed")
      return "refused" as const
    } else if (outcome === "applied") {
      settled = (yield* persistently(inbox, inbox.markApplied(entry.id))) ? "applied" : "refused"
      if (settled === "applied") yield* Effect.logDebug("inbox entry applied").pipe(Effect.annotateLogs({ attempt }))
    } else if (outcome.retryable && attempt < config.maxAttempts) {
      const retryIn = yield* retryDelay(attempt, config.delays)
      settled = (yield* persistently(inbox, inbox.markFailed(entry.id, { error: outcome.error, retryIn })))
        ? "retrying"
        : "refused"
      if (settled === "retrying") {
        yield* Effect.logWarning("inbox entry failed; will retry").pipe(
          Effect.annotateLogs({ attempt, error: outcome.error })
        )
      }
    } else {
      settled = (yield* persistently(inbox, inbox.markFailed(entry.id, { error: outcome.error, retryIn: undefined })))
        ? "dead"
        : "refused"
      if (settled === "dead") {
        yield* Effect.logError("inbox entry dead-lettered").pipe(Effect.annotateLogs({ attempt, error: outcome.error }))
      }
    }
    // A refused mark (the lease was lost to another process, which applies the entry again) is
    // not counted: the new holder's mark is.
    if (settled === "refused") {
      yield* Effect.logWarning("inbox entry's lease was lost while applying it; its result is not counted")
    } else yield* Metric.increment(counters[settled][entry.kind])
    yield* Effect.annotateCurrentSpan("outcome", settled)
    return settled
  }).pipe(
    Effect.withSpan("InboxWorker.apply", {
      attributes: {
        shopId: entry.shopId,
        repairOrderId: entry.repairOrderId,
        entryId: entry.id,
        kind: entry.kind,
        attempt: entry.attempts + 1
      }
    }),
    Effect.annotateLogs({ shopId: entry.shopId, repairOrderId: entry.repairOrderId, entryId: entry.id })
  )

/**
 * What a worker knows of the leases it holds: when each was last confirmed (claimed or extended,
 * on the monotonic clock, which a frozen process's clock is not) and which it has lost.
 * `confirm` asks the database and records the answer: "held", "lost" (another process has it, or
 * it was settled) or "unknown" (the database did not answer).
 *
 * `fence` is the look before an entry's write. Where claims are leases (`inbox.lease`), a write
 * goes ahead only if the lease was confirmed less than half a lease ago, or the database confirms
 * it now; a lease lost or not confirmable means no write. Half a lease leaves the other half for
 * the write to leave this process before anyone else may claim the entry. What stays
 * at-least-once: a process frozen after the fence, while its request is on its way, which the
 * writes' idempotency keys cover.
 */
const leaseBook = (inbox: WebhookInbox["Type"]) => {
  const leaseMillis = inbox.lease === undefined ? undefined : Duration.toMillis(inbox.lease)
  const confirmedAt = new Map<string, number>()
  const lost = new Set<string>()
  const confirm = (id: string): Effect.Effect<"held" | "lost" | "unknown"> =>
    Effect.suspend(() => {
      const beganAt = performance.now()
      return inbox.heartbeat([id]).pipe(
        Effect.map((still) => {
          if (still.includes(id)) {
            confirmedAt.set(id, beganAt)
            return "held" as const
          }
          lost.add(id)
          return "lost" as const
        }),
        Effect.orElseSucceed(() => "unknown" as const)
      )
    })
  const fence = (id: string): Fence =>
    Effect.suspend(() => {
      if (lost.has(id)) return Effect.succeed(false)
      if (leaseMillis === undefined || performance.now() - (confirmedAt.get(id) ?? -Infinity) < leaseMillis / 2) {
        return Effect.succeed(true)
      }
      return Effect.map(confirm(id), (answer) => answer === "held")
    })
  return { confirmedAt, lost, confirm, fence }
}

/**
 * One pass over the due entries: claims what is due, applies it, repair orders concurrently (up to
 * `concurrency`) and each repair order's entries in turn, until nothing more is due or
 * `batchSize` entries were taken. Waits for every apply it started. Never fails for an SMS error
 * or an adapter defect (those are recorded on the entry); fails only when the inbox itself cannot
 * be read or written.
 *
 * @example
 * import { Effect } from "effect"
 * import { InboxWorker } from "@shoplink/connector-runtime"
 * const drain = InboxWorker.processDue({ maxAttempts: 3 }).pipe(
 *   Effect.repeat({ until: (r) => r.applied + r.retrying + r.dead === 0 })
 * )
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
    const { confirmedAt, fence } = leaseBook(inbox)
    while (taken.size < config.batchSize) {
      const claimedAt = performance.now()
      const claimed = yield* inbox.claim(config.batchSize - taken.size)
      const again = claimed.filter((e) => taken.has(e.id))
      if (again.length > 0) yield* inbox.release(again.map((e) => e.id))
      const heads = claimed.filter((e) => !taken.has(e.id))
      if (heads.length === 0) break
      for (const entry of heads) {
        taken.add(entry.id)
        confirmedAt.set(entry.id, claimedAt)
      }
      const outcomes = yield* Effect.forEach(heads, (entry) => settle(inbox, entry, config, fence(entry.id)), {
        concurrency: config.concurrency
      })
      for (const outcome of outcomes) if (outcome !== "refused") result[outcome]++
    }
    return result
  })

/** How often, at most, the running worker refreshes the backlog gauges. */
const BACKLOG_METRICS_MILLIS = 5_000

const setBacklogGauges = (inbox: WebhookInbox["Type"], now: number) =>
  Effect.gen(function*() {
    const backlog = yield* inbox.backlog
    yield* Metric.set(metrics.backlogSize, backlog.size)
    yield* Metric.set(
      metrics.backlogOldestAge,
      backlog.oldestReceivedAt === undefined ? 0 : Math.max(0, now - backlog.oldestReceivedAt) / 1000
    )
  }).pipe(Effect.ignore)

/**
 * Runs the worker forever: one fetcher claims due entries in batches (`WebhookInbox.claim`: the
 * oldest pending entry of each repair order that nobody holds, this process included) and hands
 * them through a bounded queue to `concurrency` executors, which apply and mark them. The fetcher
 * claims again as soon as an executor settles an entry (the repair order's next entry may be due)
 * or the inbox's `wakeups` say a new entry was stored, and every `pollInterval` otherwise. While
 * entries are held, a heartbeat extends their leases every `heartbeatInterval`; an entry whose lease
 * was lost meanwhile is dropped if it has not started, and its mark refused if it has. A slow or
 * hung repair order holds one executor, never the others; an adapter's throw or defect is that
 * entry's failed attempt; an inbox failure is logged and the worker goes on after the interval
 * (the entry stays pending and is applied again later; idempotency keys keep that from doubling
 * lines). The executors and the fetcher are supervised: whatever ends one restarts it.
 *
 * @example
 * import { Effect } from "effect"
 * import { InboxWorker } from "@shoplink/connector-runtime"
 * const background = Effect.forkScoped(InboxWorker.run({ concurrency: 8 }))
 *
 * @since 0.1.0
 */
export const run = (options: Options = {}): Effect.Effect<never, never, WebhookInbox | ShopSystem> =>
  Effect.gen(function*() {
    const inbox = yield* WebhookInbox
    const config = configOf(
      options.heartbeatInterval === undefined && inbox.lease !== undefined
        ? { ...options, heartbeatInterval: Duration.min(Duration.seconds(5), Duration.unsafeDivide(inbox.lease, 3)) }
        : options
    )
    // Claimed in batches: the fetcher tops the queue up once it is down to `concurrency` held
    // entries (the executors about to run dry), so a claim carries many entries, not one.
    const batchMin = Math.max(config.concurrency, 16)
    const maxHeld = config.concurrency + batchMin
    const held = new Map<string, InboxEntry>()
    // An entry that waited longer than a heartbeat before an executor took it (a frozen process, a
    // long queue) is confirmed again before its adapter call, and dropped if another process has it now.
    const { confirm, confirmedAt, fence, lost } = leaseBook(inbox)
    const heartbeatMillis = Duration.toMillis(config.heartbeatInterval)
    const queue = yield* Queue.bounded<InboxEntry>(maxHeld)

    let wake = Deferred.unsafeMake<void>(FiberId.none)
    // Counts signals, so the fetcher can tell one came while it was asking the inbox.
    let signals = 0
    const signal = () => {
      signals++
      const woken = wake
      wake = Deferred.unsafeMake<void>(FiberId.none)
      Deferred.unsafeDone(woken, Exit.void)
    }
    // The race's loser is interrupted at every poll: its fibers are left out of Effect's fiber
    // metrics, so an idle worker does not make `effect_fiber_failures` climb (a false alarm).
    const idle = Effect.suspend(() => Effect.raceFirst(Deferred.await(wake), Effect.sleep(config.pollInterval))).pipe(
      Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.disable(RuntimeFlags.RuntimeMetrics))
    )
    const waitForRoom = Effect.suspend(() => Deferred.await(wake))
    // The backlog gauges ride on the fetcher's looks at the inbox (no timer of their own).
    let gaugesAt = -Infinity
    const gauges = Effect.flatMap(Clock.currentTimeMillis, (now) => {
      if (now - gaugesAt < BACKLOG_METRICS_MILLIS) return Effect.void
      gaugesAt = now
      return setBacklogGauges(inbox, now)
    })

    const fetcher: Effect.Effect<void> = Effect.gen(function*() {
      while (true) {
        const room = maxHeld - held.size
        if (room < batchMin) {
          yield* waitForRoom
          continue
        }
        yield* gauges
        const signalsBefore = signals
        // Before the claim: its lease began no earlier than this.
        const claimedAt = performance.now()
        const claimed = yield* Effect.either(inbox.claim(room))
        if (Either.isLeft(claimed)) {
          yield* Effect.logError("inbox read failed", claimed.left)
          yield* Effect.sleep(config.pollInterval)
          continue
        }
        for (const entry of claimed.right) {
          // Never twice in this process: a claim of an entry it still holds (possible only after
          // its lease lapsed unnoticed) is left to the run in progress.
          if (held.has(entry.id)) continue
          held.set(entry.id, entry)
          confirmedAt.set(entry.id, claimedAt)
          yield* Queue.offer(queue, entry)
        }
        if (claimed.right.length < room && signals === signalsBefore) yield* idle
      }
    })

    const executor: Effect.Effect<void, never, ShopSystem> = Effect.gen(function*() {
      const entry = yield* Queue.take(queue)
      // Unanswered (the database away), it may still be ours: the fence before the write decides.
      if (!lost.has(entry.id) && performance.now() - (confirmedAt.get(entry.id) ?? 0) > heartbeatMillis) {
        yield* confirm(entry.id)
      }
      if (lost.has(entry.id)) {
        // Another process took it over before it started here: not applied in this process.
        lost.delete(entry.id)
        held.delete(entry.id)
        confirmedAt.delete(entry.id)
        yield* Effect.logWarning("inbox entry's lease was lost before it was applied here; left to its new holder")
          .pipe(
            Effect.annotateLogs({ entryId: entry.id })
          )
        yield* Effect.ignore(inbox.release([entry.id]))
        signal()
        return
      }
      // The executor goes on to its next entry once the adapter call is done; the mark (batched
      // with the other executors' into one statement) completes in a fiber of its own. The entry
      // stays held until it has.
      const applied = yield* Deferred.make<void>()
      yield* settle(inbox, entry, config, fence(entry.id), Deferred.succeed(applied, undefined)).pipe(
        Effect.catchAll((error) => Effect.logError("inbox write failed; the entry stays pending", error)),
        Effect.annotateLogs({ shopId: entry.shopId, repairOrderId: entry.repairOrderId, entryId: entry.id }),
        Effect.ensuring(Effect.sync(() => {
          held.delete(entry.id)
          lost.delete(entry.id)
          confirmedAt.delete(entry.id)
          signal()
        })),
        Effect.ensuring(Deferred.succeed(applied, undefined)),
        Effect.fork
      )
      yield* Deferred.await(applied)
    })

    const heartbeat = Effect.gen(function*() {
      yield* Effect.sleep(config.heartbeatInterval)
      if (held.size === 0) return
      const ids = [...held.keys()]
      const beganAt = performance.now()
      const still = yield* inbox.heartbeat(ids)
      for (const id of still) if (held.has(id)) confirmedAt.set(id, beganAt)
      if (still.length === ids.length) return
      const kept = new Set(still)
      for (const id of ids) {
        if (kept.has(id) || !held.has(id) || lost.has(id)) continue
        lost.add(id)
        yield* Effect.logWarning("inbox entry's lease was lost (taken over or settled elsewhere)").pipe(
          Effect.annotateLogs({ entryId: id })
        )
      }
    }).pipe(Effect.catchAll((error) => Effect.logWarning("inbox lease heartbeat failed", error)))

    // Whatever ends a loop (a defect of ours, an interruption from inside) is logged and the loop
    // restarted after a pause: the worker keeps running.
    const supervised = <R>(name: string, loop: Effect.Effect<void, never, R>) =>
      loop.pipe(
        Effect.forever,
        Effect.catchAllCause((cause) =>
          // An interruption is the worker being stopped (the adapter's own are contained per entry).
          Cause.isInterruptedOnly(cause)
            ? Effect.failCause(cause)
            : Effect.logError(`inbox worker ${name} failed; restarting it`, cause).pipe(
              Effect.zipRight(Effect.sleep(config.pollInterval))
            )
        ),
        Effect.forever
      )

    // The inbox's wake-ups (e.g. PostgreSQL NOTIFY on a commit, from any process) rouse the idle
    // fetcher at once; the poll stays the fallback. The fiber ends with `run`.
    if (inbox.wakeups !== undefined) yield* Effect.fork(Stream.runForEach(inbox.wakeups, () => Effect.sync(signal)))

    return yield* Effect.all([
      supervised("fetcher", fetcher),
      supervised("heartbeat", heartbeat),
      ...Array.from({ length: config.concurrency }, () => supervised("executor", executor))
    ], { concurrency: "unbounded", discard: true }).pipe(Effect.andThen(Effect.never))
  })

/**
 * A layer that runs the worker in the background for the layer's lifetime.
 *
 * @example
 * import { Layer } from "effect"
 * import { InboxWorker, WebhookInbox } from "@shoplink/connector-runtime"
 * const worker = InboxWorker.layer({ concurrency: 8, maxAttempts: 5 }).pipe(Layer.provide(WebhookInbox.layerMemory))
 *
 * @since 0.1.0
 */
export const layer = (options: Options = {}): Layer.Layer<never, never, WebhookInbox | ShopSystem> =>
  Layer.scopedDiscard(Effect.forkScoped(run(options)))
