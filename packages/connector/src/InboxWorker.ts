/**
 * Applies inbox entries to the shop system: due entries are decoded and written through
 * `ShopSystem`; a retryable failure is retried with exponential backoff and jitter, and an entry
 * that keeps failing (or fails for good) moves to the dead-letter state with its last error.
 * Writes carry stable idempotency keys, so an entry applied twice (a crash between the write and
 * `markApplied`) still adds each line once.
 *
 * @since 0.1.0
 */
import { Clock, Duration, Effect, Either, Layer, Option, Random, Schedule, Schema } from "effect"
import { Punchout } from "@shoplink/protocol"
import { orderWrite, quoteWrite } from "./internal/deliveries.js"
import { OrderVerifier } from "./OrderVerifier.js"
import { ShopSystem } from "./ShopSystem.js"
import { type InboxEntry, type InboxError, WebhookInbox } from "./WebhookInbox.js"

/**
 * Worker settings.
 *
 * @example
 * import type { InboxWorker } from "@shoplink/connector"
 * const options: InboxWorker.Options = { maxAttempts: 5, baseDelay: "2 seconds" }
 *
 * @since 0.1.0
 */
export interface Options {
  /** Entries taken per pass (default 20). */
  readonly batchSize?: number
  /** Attempts before an entry is dead-lettered (default 8). */
  readonly maxAttempts?: number
  /** First retry delay; doubles per attempt, with ±20% jitter (default 1 second). */
  readonly baseDelay?: Duration.DurationInput
  /** Longest retry delay (default 5 minutes). */
  readonly maxDelay?: Duration.DurationInput
  /** Pause between passes when the inbox is idle (default 250 ms). */
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
 * The delay before retry number `attempt` (1-based): `baseDelay * 2^(attempt-1)`, capped, with
 * ±20% jitter from the Effect `Random` service (deterministic under a test seed).
 *
 * @example
 * import { Effect } from "effect"
 * import { InboxWorker } from "@shoplink/connector"
 * Effect.runSync(InboxWorker.retryDelay(3, { baseDelay: "1 second", maxDelay: "1 minute" })) // about 4000 ms
 *
 * @since 0.1.0
 */
export const retryDelay = (
  attempt: number,
  options: { readonly baseDelay: Duration.DurationInput; readonly maxDelay: Duration.DurationInput }
): Effect.Effect<number> =>
  Effect.map(Random.nextRange(0.8, 1.2), (jitter) => {
    const base = Duration.toMillis(options.baseDelay) * 2 ** Math.max(0, attempt - 1)
    return Math.round(Math.min(base, Duration.toMillis(options.maxDelay)) * jitter)
  })

type Outcome = "applied" | { readonly error: string; readonly retryable: boolean }

const decodeOrder = Schema.decodeUnknownEither(Schema.parseJson(Punchout.OrderWebhook))
const decodeQuote = Schema.decodeUnknownEither(Schema.parseJson(Punchout.QuoteWebhook))

const applyEntry = (entry: InboxEntry): Effect.Effect<Outcome, never, ShopSystem> =>
  Effect.gen(function*() {
    const sms = yield* ShopSystem
    // Decoded once: the write to run, and the order number the verifier checks.
    const decoded = entry.kind === "order"
      ? Either.map(decodeOrder(entry.body), (body) => ({
        orderID: body.order.orderID as string | undefined,
        write: sms.applyOrder(orderWrite(entry.shopId, entry.repairOrderId, body))
      }))
      : Either.map(decodeQuote(entry.body), (body) => ({
        orderID: undefined,
        write: sms.applyQuote(quoteWrite(entry.shopId, entry.repairOrderId, body))
      }))
    if (Either.isLeft(decoded)) return { error: `stored body does not decode: ${decoded.left.message}`, retryable: false }
    const { orderID, write } = decoded.right
    const capability = entry.kind === "order" ? "writeOrderedParts" : "writeQuotedParts"
    // Nothing to write for an SMS that cannot take these lines: done, not failed.
    if (!sms.capabilities.has(capability)) return "applied" as const
    const verifier = yield* Effect.serviceOption(OrderVerifier)
    if (orderID !== undefined && Option.isSome(verifier)) {
      const verdict = yield* verifier.value.verify({ shopId: entry.shopId, orderID })
      if (verdict._tag === "Unavailable") return { error: `order verification unavailable: ${verdict.reason}`, retryable: true }
      if (verdict._tag === "Rejected") {
        if (verifier.value.mode === "enforce") return { error: `order verification failed: ${verdict.reason}`, retryable: false }
        yield* Effect.logWarning("order verification failed; applying anyway (warn mode)").pipe(Effect.annotateLogs({ reason: verdict.reason }))
      }
    }
    return yield* write.pipe(
      Effect.as("applied" as const),
      Effect.catchAll((error) =>
        Effect.succeed({ error: error.message, retryable: error._tag === "ShopSystemError" && error.retryable })
      )
    )
  })

/**
 * One pass over the due entries. Never fails for an SMS error (those are recorded on the entry);
 * fails only when the inbox itself cannot be read or written.
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
    const maxAttempts = options.maxAttempts ?? 8
    const delays = { baseDelay: options.baseDelay ?? "1 second", maxDelay: options.maxDelay ?? "5 minutes" }
    const result = { applied: 0, retrying: 0, dead: 0 }
    for (const entry of yield* inbox.due(options.batchSize ?? 20)) {
      const outcome = yield* applyEntry(entry).pipe(
        Effect.withSpan("shoplink.inbox.apply", { attributes: { kind: entry.kind, attempt: entry.attempts + 1 } })
      )
      if (outcome === "applied") {
        yield* inbox.markApplied(entry.id)
        result.applied++
        continue
      }
      const attempt = entry.attempts + 1
      if (outcome.retryable && attempt < maxAttempts) {
        const retryAt = (yield* Clock.currentTimeMillis) + (yield* retryDelay(attempt, delays))
        yield* inbox.markFailed(entry.id, { error: outcome.error, retryAt })
        yield* Effect.logWarning("inbox entry failed; will retry").pipe(Effect.annotateLogs({ entry: entry.id, attempt, error: outcome.error }))
        result.retrying++
      } else {
        yield* inbox.markFailed(entry.id, { error: outcome.error, retryAt: undefined })
        yield* Effect.logError("inbox entry dead-lettered").pipe(Effect.annotateLogs({ entry: entry.id, attempt, error: outcome.error }))
        result.dead++
      }
    }
    return result
  })

/**
 * Runs passes forever: immediately again after a busy pass, after `pollInterval` when idle. An
 * inbox failure is logged and the loop goes on after the interval.
 *
 * @example
 * import { Effect } from "effect"
 * import { InboxWorker } from "@shoplink/connector"
 * const background = Effect.forkScoped(InboxWorker.run())
 *
 * @since 0.1.0
 */
export const run = (options: Options = {}): Effect.Effect<never, never, WebhookInbox | ShopSystem> => {
  const interval = options.pollInterval ?? "250 millis"
  const pass = processDue(options).pipe(
    Effect.flatMap((r) => (r.applied + r.retrying + r.dead === 0 ? Effect.sleep(interval) : Effect.void)),
    Effect.catchAll((error) => Effect.logError("inbox pass failed", error).pipe(Effect.zipRight(Effect.sleep(interval))))
  )
  return Effect.repeat(pass, Schedule.forever).pipe(Effect.andThen(Effect.never))
}

/**
 * A layer that runs the worker in the background for the layer's lifetime.
 *
 * @example
 * import { Layer } from "effect"
 * import { InboxWorker, WebhookInbox } from "@shoplink/connector"
 * const worker = InboxWorker.layer({ maxAttempts: 5 }).pipe(Layer.provide(WebhookInbox.layerMemory))
 *
 * @since 0.1.0
 */
export const layer = (options: Options = {}): Layer.Layer<never, never, WebhookInbox | ShopSystem> =>
  Layer.scopedDiscard(Effect.forkScoped(run(options)))
