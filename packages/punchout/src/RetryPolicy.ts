/**
 * What the Punchout client retries, and how long it waits. Two modes:
 * - `idempotent` (CreateSession, GetProductQuotes, ReserveOrder): transport failures (host not
 *   found, connection refused, reset, timeout), transient HTTP statuses without an envelope (408,
 *   429 as `RateLimited`, 5xx), and message IDs whose retry class is `retryable` (OrderLocked
 *   API0258, OrderInUse API0273, API0301) or `server` (API0500, unknown 5xx messages).
 * - `unsafe` (CreateOrder, SubmitOrder): only failures that prove nothing happened — the request
 *   never left the client (host not found, connection refused), or the distributor refused it as
 *   busy (retry class `retryable`: API0258 "Order is locked by another job", API0273, API0301),
 *   which changes nothing. Any other failure may have reached the server, and repeating the
 *   command could create or submit a second order.
 *
 * In both modes a `Retry-After` longer than `retryAfterCap` ends the retries at once: the error
 * (`RateLimited` for a 429) carries the delay for the caller.
 *
 * @since 0.1.0
 */
import { Duration } from "effect"
import type { MessageError } from "@shoplink/protocol"
import type { MalformedResponse, PunchoutTransportError, RateLimited } from "./PunchoutError.js"

/**
 * Bounds and pacing of retries: exponential backoff `baseDelay * 2^(attempt-1)` capped at
 * `maxDelay`, with full jitter in [50%, 100%] of that value; at most `maxAttempts` attempts and no
 * retry that would start after `maxElapsed`. A `Retry-After` header replaces the backoff when it
 * is at most `retryAfterCap`; a longer one ends the retries.
 *
 * @example
 * import { Duration } from "effect"
 * import { RetryPolicy } from "@shoplink/punchout"
 * const policy: RetryPolicy.RetryPolicy = { ...RetryPolicy.defaults, maxAttempts: 5, maxElapsed: Duration.seconds(20) }
 *
 * @since 0.1.0
 */
export interface RetryPolicy {
  readonly maxAttempts: number
  readonly baseDelay: Duration.Duration
  readonly maxDelay: Duration.Duration
  readonly maxElapsed: Duration.Duration
  readonly retryAfterCap: Duration.Duration
}

/**
 * The default policy: 4 attempts, 200 ms base delay, 5 s cap, 30 s overall, `Retry-After`
 * honoured up to 30 s.
 *
 * @example
 * import { RetryPolicy } from "@shoplink/punchout"
 * RetryPolicy.defaults.maxAttempts // 4
 *
 * @since 0.1.0
 */
export const defaults: RetryPolicy = {
  maxAttempts: 4,
  baseDelay: Duration.millis(200),
  maxDelay: Duration.seconds(5),
  maxElapsed: Duration.seconds(30),
  retryAfterCap: Duration.seconds(30)
}

/**
 * Overrides of the default policy, as accepted by `PunchoutClient.layer`.
 *
 * @example
 * import { RetryPolicy } from "@shoplink/punchout"
 * const options: RetryPolicy.RetryPolicyInput = { maxAttempts: 2, baseDelay: "50 millis", retryAfterCap: "10 seconds" }
 *
 * @since 0.1.0
 */
export interface RetryPolicyInput {
  readonly maxAttempts?: number
  readonly baseDelay?: Duration.DurationInput
  readonly maxDelay?: Duration.DurationInput
  readonly maxElapsed?: Duration.DurationInput
  readonly retryAfterCap?: Duration.DurationInput
}

/**
 * Fills a partial policy with the defaults.
 *
 * @example
 * import { RetryPolicy } from "@shoplink/punchout"
 * RetryPolicy.make({ maxAttempts: 1 }).maxAttempts // 1 (no retries)
 *
 * @since 0.1.0
 */
export const make = (input: RetryPolicyInput = {}): RetryPolicy => ({
  maxAttempts: Math.max(1, Math.floor(input.maxAttempts ?? defaults.maxAttempts)),
  baseDelay: input.baseDelay === undefined ? defaults.baseDelay : Duration.decode(input.baseDelay),
  maxDelay: input.maxDelay === undefined ? defaults.maxDelay : Duration.decode(input.maxDelay),
  maxElapsed: input.maxElapsed === undefined ? defaults.maxElapsed : Duration.decode(input.maxElapsed),
  retryAfterCap: input.retryAfterCap === undefined ? defaults.retryAfterCap : Duration.decode(input.retryAfterCap)
})

/**
 * How a command may be retried: see the module description.
 *
 * @example
 * import { RetryPolicy } from "@shoplink/punchout"
 * const mode: RetryPolicy.RetryMode = "unsafe"
 *
 * @since 0.1.0
 */
export type RetryMode = "idempotent" | "unsafe"

/**
 * Whether a failure may be retried in a mode (see the module description). The pause and the
 * `Retry-After` cap are decided apart, by `delayFor` and `retryAfterCap`.
 *
 * @example
 * import { OrderLocked, SomethingWentWrong } from "@shoplink/protocol"
 * import { RetryPolicy } from "@shoplink/punchout"
 * RetryPolicy.isRetryable("idempotent", new OrderLocked({ httpStatus: 200 })) // true
 * RetryPolicy.isRetryable("unsafe", new OrderLocked({ httpStatus: 200 })) // true: refused, nothing happened
 * RetryPolicy.isRetryable("unsafe", new SomethingWentWrong({ httpStatus: 500 })) // false: it may have acted
 *
 * @since 0.1.0
 */
export const isRetryable = (
  mode: RetryMode,
  error: MessageError.MessageError | PunchoutTransportError | RateLimited | MalformedResponse | { readonly _tag: string }
): boolean => {
  if (error._tag === "PunchoutTransportError") {
    const transport = error as PunchoutTransportError
    const neverSent = !transport.requestSent && (transport.reason === "HostNotFound" || transport.reason === "ConnectionRefused")
    // A request that could not even be built (requestSent false, reason Transport) never succeeds.
    return neverSent || (mode === "idempotent" && transport.requestSent)
  }
  if (error._tag === "RateLimited") return mode === "idempotent"
  if ("retryClass" in error) {
    const retryClass = (error as MessageError.MessageError).retryClass
    if (mode === "idempotent") return retryClass === "retryable" || retryClass === "server"
    // A catalogued "busy" answer is a refusal: the distributor did nothing, so even CreateOrder and
    // SubmitOrder may be sent again. An unknown message ID is only classed by its HTTP status.
    return retryClass === "retryable" && error._tag !== "UnknownMessage"
  }
  return false
}

/**
 * The pause before attempt `attempt + 1`, given a uniform random number in [0, 1) for jitter and
 * an optional `Retry-After`, which replaces the backoff (the client stops instead of waiting when
 * it is over `retryAfterCap`).
 *
 * @example
 * import { Duration } from "effect"
 * import { RetryPolicy } from "@shoplink/punchout"
 * Duration.toMillis(RetryPolicy.delayFor(RetryPolicy.defaults, 1, 0.999)) // ~200
 * Duration.toMillis(RetryPolicy.delayFor(RetryPolicy.defaults, 1, 0.5, 8000)) // 8000
 *
 * @since 0.1.0
 */
export const delayFor = (policy: RetryPolicy, attempt: number, random: number, retryAfterMillis?: number): Duration.Duration => {
  if (retryAfterMillis !== undefined) return Duration.millis(Math.max(0, retryAfterMillis))
  const exponential = Math.min(Duration.toMillis(policy.baseDelay) * 2 ** (attempt - 1), Duration.toMillis(policy.maxDelay))
  return Duration.millis(Math.round(exponential * (0.5 + random / 2)))
}
