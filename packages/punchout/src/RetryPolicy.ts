/**
 * What the Punchout client retries, and how long it waits. Two modes:
 * - `idempotent` (CreateSession, GetProductQuotes, ReserveOrder): transport failures (connection
 *   refused, reset, timeout), transient HTTP statuses without an envelope (408, 429, 5xx), and
 *   message IDs whose retry class is `retryable` (OrderLocked API0258, OrderInUse API0273) or
 *   `server` (API0500, unknown 5xx messages).
 * - `unsafe` (CreateOrder, SubmitOrder): only a refused connection, because any other failure may
 *   have reached the server, and repeating the command could create or submit a second order.
 *
 * @since 0.1.0
 */
import { Duration } from "effect"
import type { MessageError } from "@shoplink/protocol"
import type { MalformedResponse, PunchoutTransportError } from "./PunchoutError.js"

/**
 * Bounds and pacing of retries: exponential backoff `baseDelay * 2^(attempt-1)` capped at
 * `maxDelay`, with full jitter in [50%, 100%] of that value; at most `maxAttempts` attempts and no
 * retry that would start after `maxElapsed`. A `Retry-After` header is honoured up to `maxDelay`.
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
}

/**
 * The default policy: 4 attempts, 200 ms base delay, 5 s cap, 30 s overall.
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
  maxElapsed: Duration.seconds(30)
}

/**
 * Overrides of the default policy, as accepted by `PunchoutClient.layer`.
 *
 * @example
 * import { RetryPolicy } from "@shoplink/punchout"
 * const options: RetryPolicy.RetryPolicyInput = { maxAttempts: 2, baseDelay: "50 millis" }
 *
 * @since 0.1.0
 */
export interface RetryPolicyInput {
  readonly maxAttempts?: number
  readonly baseDelay?: Duration.DurationInput
  readonly maxDelay?: Duration.DurationInput
  readonly maxElapsed?: Duration.DurationInput
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
  maxElapsed: input.maxElapsed === undefined ? defaults.maxElapsed : Duration.decode(input.maxElapsed)
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
 * Whether a failure may be retried in a mode.
 *
 * @example
 * import { OrderLocked } from "@shoplink/protocol"
 * import { RetryPolicy } from "@shoplink/punchout"
 * RetryPolicy.isRetryable("idempotent", new OrderLocked({ httpStatus: 200 })) // true
 * RetryPolicy.isRetryable("unsafe", new OrderLocked({ httpStatus: 200 })) // false
 *
 * @since 0.1.0
 */
export const isRetryable = (
  mode: RetryMode,
  error: MessageError.MessageError | PunchoutTransportError | MalformedResponse | { readonly _tag: string }
): boolean => {
  if (error._tag === "PunchoutTransportError") {
    const transport = error as PunchoutTransportError
    // A request that could not even be built (requestSent false, reason Transport) never succeeds.
    if (mode === "unsafe") return transport.reason === "ConnectionRefused"
    return transport.requestSent || transport.reason === "ConnectionRefused"
  }
  if (mode === "unsafe") return false
  if ("retryClass" in error) {
    const retryClass = (error as MessageError.MessageError).retryClass
    return retryClass === "retryable" || retryClass === "server"
  }
  return false
}

/**
 * The pause before attempt `attempt + 1`, given a uniform random number in [0, 1) for jitter and
 * an optional `Retry-After` (which wins, capped at `maxDelay`).
 *
 * @example
 * import { Duration } from "effect"
 * import { RetryPolicy } from "@shoplink/punchout"
 * Duration.toMillis(RetryPolicy.delayFor(RetryPolicy.defaults, 1, 0.999)) // ~200
 *
 * @since 0.1.0
 */
export const delayFor = (policy: RetryPolicy, attempt: number, random: number, retryAfterMillis?: number): Duration.Duration => {
  const cap = Duration.toMillis(policy.maxDelay)
  if (retryAfterMillis !== undefined) return Duration.millis(Math.min(Math.max(0, retryAfterMillis), cap))
  const exponential = Math.min(Duration.toMillis(policy.baseDelay) * 2 ** (attempt - 1), cap)
  return Duration.millis(Math.round(exponential * (0.5 + random / 2)))
}
