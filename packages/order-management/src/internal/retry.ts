// What is retried and how long to wait (the README's "What is retried, and why" lists the rules).
import { Duration } from "effect"
import type { OrderManagementError } from "../OrderManagementError.js"

/** Settings of the retry loop (all bounded). */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number
  /** First backoff delay; doubles per attempt. */
  readonly baseDelay: Duration.Duration
  /** Largest backoff delay. */
  readonly maxDelay: Duration.Duration
  /** No retry starts once this much time has passed since the first attempt. */
  readonly maxElapsed: Duration.Duration
  /** Largest `Retry-After` honoured; a longer one ends the retries. */
  readonly retryAfterCap: Duration.Duration
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  baseDelay: Duration.millis(250),
  maxDelay: Duration.seconds(4),
  maxElapsed: Duration.seconds(30),
  retryAfterCap: Duration.seconds(30)
}

/** A failed attempt, with what the retry decision needs besides the error. */
export interface AttemptFailure {
  readonly error: OrderManagementError
  /** Whether the request may have reached the server (false only for connection failures). */
  readonly mayHaveReachedServer: boolean
  /** `Retry-After` of the response, in milliseconds. */
  readonly retryAfterMillis?: number | undefined
}

/**
 * The allow-list (the README's "What is retried" table says the same). Never retried: `quota`
 * (API0208), `auth`, `invalid` and `state` messages; after a non-idempotent call, anything that
 * may have acted. Retried: failures before sending (host not found, connection refused) always;
 * catalogued busy messages (API0258 locked, API0273 in use, API0301) always, since the server
 * refused the request and did nothing; for idempotent calls also broken transports, timeouts,
 * 408/429/5xx responses without an envelope and `server` messages (API0500).
 */
export const isRetryable = (failure: AttemptFailure, idempotent: boolean): boolean => {
  const { error } = failure
  if (!idempotent && failure.mayHaveReachedServer) {
    return "code" in error && error.retryClass === "retryable" && error._tag !== "UnknownMessage"
  }
  switch (error._tag) {
    case "RequestFailed":
    case "RateLimited":
      return true
    case "InvalidInput":
      return false
    case "UnexpectedResponse":
      return error.retryClass === "retryable" || error.retryClass === "server"
    default:
      return error.retryClass === "retryable" || error.retryClass === "server"
  }
}

/** Exponential backoff with "equal jitter": half the delay fixed, half random (`random` in [0, 1)). */
export const backoff = (policy: RetryPolicy, attempt: number, random: number): Duration.Duration => {
  const base = Duration.toMillis(policy.baseDelay) * 2 ** (attempt - 1)
  const capped = Math.min(base, Duration.toMillis(policy.maxDelay))
  return Duration.millis(Math.round(capped / 2 + random * (capped / 2)))
}

