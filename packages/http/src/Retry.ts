/**
 * The one retry policy of every Shoplink client, adapter and worker: an Effect `Schedule`
 * (exponential backoff with jitter, bounded attempts and total time, `Retry-After` honoured up to
 * a cap) and one rule, `retryable(error, idempotency)`, saying which failures may be retried (for
 * a request that creates or submits an order, only those that prove nothing happened).
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as ScheduleInterval from "effect/ScheduleInterval"
import * as Random from "effect/Random"
import { isTransportError, retryAfterOf, type RetryClass, statusRetryClass } from "./TransportError.js"

/**
 * Whether a request may be repeated without effect (`idempotent`) or could act twice (`unsafe`).
 *
 * @example
 * import type { Retry } from "@shoplink/http"
 * const createOrder: Retry.Idempotency = "unsafe"
 *
 * @since 0.1.0
 */
export type Idempotency = "idempotent" | "unsafe"

/**
 * Bounds and pacing of retries: backoff `baseDelay * 2^(n-1)` capped at `maxDelay`, with jitter
 * in [50%, 100%] of that value; at most `maxAttempts` attempts (the first included) and no retry
 * that would start after `maxElapsed` since the first attempt. A `Retry-After` replaces the
 * backoff when it is at most `retryAfterCap`; a longer one ends the retries.
 *
 * @example
 * import { Duration } from "effect"
 * import { Retry } from "@shoplink/http"
 * const policy: Retry.RetryPolicy = { ...Retry.defaults, maxAttempts: 5, maxElapsed: Duration.seconds(20) }
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
 * Overrides of a policy, as the clients accept them in their `retry` option.
 *
 * @example
 * import type { Retry } from "@shoplink/http"
 * const options: Retry.RetryPolicyInput = { maxAttempts: 2, baseDelay: "50 millis", retryAfterCap: "10 seconds" }
 *
 * @since 0.1.0
 */
export interface RetryPolicyInput {
  readonly maxAttempts?: number | undefined
  readonly baseDelay?: Duration.DurationInput | undefined
  readonly maxDelay?: Duration.DurationInput | undefined
  readonly maxElapsed?: Duration.DurationInput | undefined
  readonly retryAfterCap?: Duration.DurationInput | undefined
}

/**
 * The default policy: 4 attempts, 200 ms base delay, 5 s cap, 30 s overall, `Retry-After`
 * honoured up to 30 s.
 *
 * @example
 * import { Retry } from "@shoplink/http"
 * Retry.defaults.maxAttempts // 4
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

const durationNames = ["baseDelay", "maxDelay", "maxElapsed", "retryAfterCap"] as const

const decodeDuration = (input: Duration.DurationInput): Duration.Duration | undefined => {
  try {
    return Duration.decode(input)
  } catch {
    return undefined
  }
}

/**
 * A setting of a policy that is wrong on its face: which one (`retry.maxAttempts`) and why. The
 * clients turn it into a `ConfigurationError` (`InvalidInput.ConfigurationError`).
 *
 * @example
 * import type { Retry } from "@shoplink/http"
 * const problem: Retry.PolicyProblem = {
 *   setting: "retry.baseDelay",
 *   problem: "must be a duration such as \"500 millis\""
 * }
 *
 * @since 0.1.0
 */
export interface PolicyProblem {
  readonly setting: string
  readonly problem: string
}

/**
 * Checks overrides and fills the rest from `base` (default `defaults`): `maxAttempts` a whole
 * number of at least 1, every duration a non-negative duration.
 *
 * @example
 * import { Either } from "effect"
 * import { Retry } from "@shoplink/http"
 * Either.isRight(Retry.validate({ maxAttempts: 1 })) // true
 * Either.isLeft(Retry.validate({ maxAttempts: 0 })) // true
 *
 * @since 0.1.0
 */
export const validate = (
  input: RetryPolicyInput = {},
  base: RetryPolicy = defaults
): Either.Either<RetryPolicy, PolicyProblem> => {
  const maxAttempts = input.maxAttempts ?? base.maxAttempts
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    return Either.left({
      setting: "retry.maxAttempts",
      problem: `must be a whole number of at least 1, got ${maxAttempts}`
    })
  }
  const durations: { -readonly [K in typeof durationNames[number]]: Duration.Duration } = {
    baseDelay: base.baseDelay,
    maxDelay: base.maxDelay,
    maxElapsed: base.maxElapsed,
    retryAfterCap: base.retryAfterCap
  }
  for (const name of durationNames) {
    const value = input[name]
    if (value === undefined) continue
    const decoded = decodeDuration(value)
    if (decoded === undefined || Duration.toMillis(decoded) < 0) {
      return Either.left({ setting: `retry.${name}`, problem: "must be a duration such as \"500 millis\"" })
    }
    durations[name] = decoded
  }
  return Either.right({ maxAttempts, ...durations })
}

/**
 * Fills overrides with `base` (default `defaults`); throws on a setting `validate` refuses.
 *
 * @example
 * import { Retry } from "@shoplink/http"
 * Retry.make({ maxAttempts: 1 }).maxAttempts // 1 (no retries)
 *
 * @since 0.1.0
 */
export const make = (input: RetryPolicyInput = {}, base: RetryPolicy = defaults): RetryPolicy =>
  Either.getOrThrowWith(validate(input, base), (p) => new Error(`${p.setting} ${p.problem}`))

// An HTTP answer may have acted: only an idempotent request goes again, and only when its status
// is not one the same request would get again.
const retryableAnswer = (retryClass: RetryClass, idempotency: Idempotency): boolean =>
  idempotency === "idempotent" && retryClass !== "invalid"

/**
 * Whether a failure may be retried for a request of the given idempotency. An `idempotent` request
 * (a read, CreateSession, ReserveOrder…) retries every transport failure except a request that
 * could not be built and an `UnexpectedResponse` of class `invalid`, and any error whose
 * `retryClass` is `retryable` or `server`. An `unsafe` request (CreateOrder, SubmitOrder…) retries
 * only failures that prove nothing happened: a `RequestFailed` with `requestSent: false`, or a
 * catalogued message of class `retryable` (refused as busy). Works on the transport errors of this
 * package and on any error carrying a `retryClass` (the protocol's message errors); anything else
 * is not retried.
 *
 * @example
 * import { Retry, TransportError } from "@shoplink/http"
 * const refused = new TransportError.RequestFailed({
 *   operation: "CreateOrder",
 *   reason: "ConnectionRefused",
 *   requestSent: false,
 *   detail: "ECONNREFUSED"
 * })
 * const reset = new TransportError.RequestFailed({
 *   operation: "CreateOrder",
 *   reason: "Transport",
 *   requestSent: true,
 *   detail: "ECONNRESET"
 * })
 * Retry.retryable(refused, "unsafe") // true: it never reached the server
 * Retry.retryable(reset, "unsafe") // false: it may have acted
 * Retry.retryable(reset, "idempotent") // true
 *
 * @since 0.1.0
 */
export const retryable = (error: unknown, idempotency: Idempotency): boolean => {
  if (isTransportError(error)) {
    switch (error._tag) {
      case "RequestFailed":
        if (error.reason === "InvalidRequest") return false
        return !error.requestSent || idempotency === "idempotent"
      case "Timeout":
      case "RateLimited":
        return idempotency === "idempotent"
      case "UnexpectedResponse":
        return retryableAnswer(error.retryClass, idempotency)
    }
  }
  if (typeof error !== "object" || error === null || !("retryClass" in error)) return false
  const retryClass = (error as { readonly retryClass: unknown }).retryClass
  // A catalogued "busy" answer is a refusal: the server did nothing, so even an unsafe request may
  // go again. A message the catalogue does not know is classed only by its HTTP status, which
  // proves nothing about an unsafe request.
  if (retryClass === "retryable") {
    return idempotency === "idempotent" || (error as { readonly _tag?: unknown })._tag !== "UnknownMessage"
  }
  return retryClass === "server" && idempotency === "idempotent"
}

/**
 * Whether an HTTP error status may be retried, by the same rule as `retryable` applies to an
 * `UnexpectedResponse` of that status: for an `idempotent` request (the default) 408, 429 and 5xx
 * (`TransportError.statusRetryClass` not `invalid`); for an `unsafe` one never, since the answer
 * shows the request reached the server. An SMS client uses it to tell a status its retries act on
 * from a final one, and its error's `retryable` (may the same call succeed later) is this.
 *
 * @example
 * import { Retry } from "@shoplink/http"
 * Retry.retryableStatus(503) // true
 * Retry.retryableStatus(429) // true
 * Retry.retryableStatus(404) // false
 * Retry.retryableStatus(503, "unsafe") // false
 *
 * @since 0.1.0
 */
export const retryableStatus = (status: number, idempotency: Idempotency = "idempotent"): boolean =>
  retryableAnswer(statusRetryClass(status), idempotency)

/**
 * The pause before retry number `retry` (1 for the first retry), given a uniform random number in
 * [0, 1) for the jitter and the failure's `Retry-After`, which replaces the backoff; `undefined`
 * when the policy ends the retries (no attempts left, the total time would be exceeded, or a
 * `Retry-After` over `retryAfterCap`).
 *
 * @example
 * import { Duration } from "effect"
 * import { Retry } from "@shoplink/http"
 * Retry.nextDelay(Retry.defaults, { retry: 1, elapsedMillis: 0, random: 0.999 }) // ~200 ms
 * Retry.nextDelay(Retry.defaults, { retry: 1, elapsedMillis: 0, random: 0.5, retryAfter: Duration.seconds(8) }) // 8 s
 * Retry.nextDelay(Retry.defaults, { retry: 4, elapsedMillis: 0, random: 0.5 }) // undefined: 4 attempts made
 *
 * @since 0.1.0
 */
export const nextDelay = (
  policy: RetryPolicy,
  state: {
    readonly retry: number
    readonly elapsedMillis: number
    readonly random: number
    readonly retryAfter?: Duration.Duration | undefined
  }
): Duration.Duration | undefined => {
  if (state.retry >= policy.maxAttempts) return undefined
  let millis: number
  if (state.retryAfter !== undefined) {
    millis = Math.max(0, Duration.toMillis(state.retryAfter))
    // A server asking for a longer pause than we wait gets no retry: the error carries the delay.
    if (millis > Duration.toMillis(policy.retryAfterCap)) return undefined
  } else {
    const exponential = Math.min(
      Duration.toMillis(policy.baseDelay) * 2 ** (state.retry - 1),
      Duration.toMillis(policy.maxDelay)
    )
    millis = Math.round(exponential * (0.5 + state.random / 2))
  }
  if (state.elapsedMillis + millis > Duration.toMillis(policy.maxElapsed)) return undefined
  return Duration.millis(millis)
}

/**
 * The policy as an Effect `Schedule` whose input is the failure (its `Retry-After` is read with
 * `TransportError.retryAfterOf`) and whose output is the pause chosen. It follows the Effect
 * `Clock` and `Random`, so a `TestClock` drives it in tests. `startedAt` (Clock milliseconds)
 * counts `maxElapsed` from the first attempt rather than from the first failure. It does not
 * decide *whether* a failure is retryable: combine it with `retryable`, as `retry` does.
 *
 * @example
 * import { Effect } from "effect"
 * import { Retry } from "@shoplink/http"
 * declare const read: Effect.Effect<string, Error>
 * const patient = Effect.retry(read, {
 *   schedule: Retry.schedule(Retry.defaults),
 *   while: (e) => Retry.retryable(e, "idempotent")
 * })
 *
 * @since 0.1.0
 */
export const schedule = (
  policy: RetryPolicy,
  options?: { readonly startedAt?: number }
): Schedule.Schedule<Duration.Duration, unknown> =>
  Schedule.makeWithState<
    { readonly retry: number; readonly startedAt: number | undefined },
    unknown,
    Duration.Duration
  >(
    { retry: 0, startedAt: options?.startedAt },
    (now, input, state) =>
      Effect.map(Random.next, (random) => {
        const startedAt = state.startedAt ?? now
        const retry = state.retry + 1
        const delay = nextDelay(policy, {
          retry,
          elapsedMillis: now - startedAt,
          random,
          retryAfter: retryAfterOf(input)
        })
        return delay === undefined
          ? [state, Duration.zero, ScheduleDecision.done] as const
          : [
            { retry, startedAt },
            delay,
            ScheduleDecision.continueWith(ScheduleInterval.after(now + Duration.toMillis(delay)))
          ] as const
      })
  )

/**
 * Options of `retry`.
 *
 * @example
 * import { Effect } from "effect"
 * import { Retry } from "@shoplink/http"
 * const options: Retry.RetryOptions<Error> = {
 *   policy: Retry.defaults,
 *   idempotency: "idempotent",
 *   onRetry: ({ attempt, delay }) => Effect.logDebug(`attempt ${attempt} failed; retrying`, delay)
 * }
 *
 * @since 0.1.0
 */
export interface RetryOptions<E> {
  readonly policy: RetryPolicy
  readonly idempotency: Idempotency
  /** Replaces `retryable` (default `(error) => Retry.retryable(error, idempotency)`). */
  readonly while?: ((error: E) => boolean) | undefined
  /** Runs before each pause: the failed attempt's number and error, and the pause chosen. */
  readonly onRetry?:
    | ((
      retry: { readonly attempt: number; readonly error: E; readonly delay: Duration.Duration }
    ) => Effect.Effect<void>)
    | undefined
  /**
   * When the first attempt started (Clock milliseconds), counted by `maxElapsed`; read from the
   * Clock when the first attempt starts if absent. A caller that already has it saves that read.
   */
  readonly startedAt?: number | undefined
}

/**
 * Runs `attempt(1)`, and on a retryable failure `attempt(2)`, … as the policy's `schedule`
 * allows; fails with the last error. The success path costs one `catchAll` (no schedule, no retry
 * state, no extra fiber); the schedule is built at the first failure, with `maxElapsed` counted from
 * the first attempt (`startedAt`).
 *
 * @example
 * import { Effect } from "effect"
 * import { Retry, TransportError } from "@shoplink/http"
 * const call = (attempt: number) =>
 *   attempt < 3
 *     ? Effect.fail(new TransportError.Timeout({ operation: "getOrder", attempt, detail: "late" }))
 *     : Effect.succeed("ok")
 * const program = Retry.retry(call, { policy: Retry.defaults, idempotency: "idempotent" }) // "ok" after 2 pauses
 *
 * @since 0.1.0
 */
export const retry = <A, E, R>(
  attempt: (attempt: number) => Effect.Effect<A, E, R>,
  options: RetryOptions<E>
): Effect.Effect<A, E, R> => {
  if (options.policy.maxAttempts <= 1) return attempt(1)
  if (options.startedAt !== undefined) {
    const startedAt = options.startedAt
    return Effect.catchAll(attempt(1), (first) => retryAfterFirst(attempt, options, startedAt, first))
  }
  return Effect.flatMap(
    Clock.currentTimeMillis,
    (startedAt) => Effect.catchAll(attempt(1), (first) => retryAfterFirst(attempt, options, startedAt, first))
  )
}

// Everything a retry needs is built here, after the first failure.
const retryAfterFirst = <A, E, R>(
  attempt: (attempt: number) => Effect.Effect<A, E, R>,
  options: RetryOptions<E>,
  startedAt: number,
  first: E
): Effect.Effect<A, E, R> => {
  const { idempotency, onRetry, policy } = options
  const shouldRetry = options.while ?? ((error: E) => retryable(error, idempotency))
  if (!shouldRetry(first)) return Effect.fail(first)
  let n = 1
  let last: E = first
  const base = schedule(policy, { startedAt })
  const paced = onRetry === undefined
    ? base
    : Schedule.tapOutput(base, (delay) => onRetry({ attempt: n, error: last, delay }))
  return Effect.flatMap(Schedule.driver(paced), (driver) => {
    const loop = (error: E): Effect.Effect<A, E, R> =>
      Effect.matchEffect(driver.next(error), {
        onFailure: () => Effect.fail(error),
        onSuccess: () => {
          n++
          return Effect.catchAll(attempt(n), (next) => {
            last = next
            return shouldRetry(next) ? loop(next) : Effect.fail(next)
          })
        }
      })
    return loop(first)
  })
}
