/**
 * The one per-request deadline of every Shoplink client, adapter and worker. It follows the Effect
 * `Clock` (a `TestClock` decides when a request times out) and is cheaper than
 * `Effect.timeoutFail`, which races two fibers through `raceFibersWith` and merges their FiberRefs
 * back (110–150 µs of CPU per request, measured, more than the rest of an exchange).
 *
 * Instead the request runs in one fiber forked from the caller's runtime (its context, FiberRefs
 * and flags: logger, Clock, tracer). On the live Clock the deadline is a plain timer; on any other
 * Clock it is that Clock's own `sleep` in a second fiber. On expiry the request is interrupted
 * (aborting it), and only once it has stopped does the caller resume with the timeout error.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Fiber from "effect/Fiber"
import * as Runtime from "effect/Runtime"
import * as RuntimeFlags from "effect/RuntimeFlags"
import * as Tracer from "effect/Tracer"

const liveClock = Context.get(DefaultServices.liveServices, Clock.Clock)

// setTimeout fires at once past 2^31 - 1 ms (about 24.8 days).
const MAX_TIMER_MILLIS = 2_147_483_647

/**
 * The longest finite deadline (about 24.8 days): what a timer can wait. Clients refuse longer
 * timeouts as configuration errors; `timeoutFail` clamps them anyway.
 *
 * @example
 * import { Deadline } from "@shoplink/http"
 * Deadline.MAX_MILLIS // 2147483647
 *
 * @since 0.1.0
 */
export const MAX_MILLIS: number = MAX_TIMER_MILLIS

/**
 * Options of `timeoutFail`.
 *
 * @example
 * import { Duration } from "effect"
 * import { Deadline, TransportError } from "@shoplink/http"
 * const options: Deadline.DeadlineOptions<TransportError.Timeout> = {
 *   duration: Duration.seconds(10),
 *   onTimeout: () => new TransportError.Timeout({ operation: "getOrder", detail: "no answer within 10 seconds" })
 * }
 *
 * @since 0.1.0
 */
export interface DeadlineOptions<E2> {
  /** How long the effect may run; `Duration.infinity` for no deadline. */
  readonly duration: Duration.DurationInput
  /** The error when the deadline passes. */
  readonly onTimeout: () => E2
  /** The parent span of what the effect does (default: the caller's). */
  readonly parentSpan?: Tracer.AnySpan | undefined
}

/**
 * Runs `self` with a deadline: `onTimeout()` fails the effect when it has not ended within
 * `duration`, after `self` was interrupted (so an HTTP request is aborted before the caller
 * decides on a retry). Interrupting the caller interrupts `self` too.
 *
 * @example
 * import { Effect } from "effect"
 * import { Deadline, TransportError } from "@shoplink/http"
 * declare const request: Effect.Effect<string, TransportError.RequestFailed>
 * const bounded = request.pipe(Deadline.timeoutFail({
 *   duration: "10 seconds",
 *   onTimeout: () => new TransportError.Timeout({ operation: "getOrder", detail: "no answer within 10 seconds" })
 * }))
 *
 * @since 0.1.0
 */
export const timeoutFail: {
  <E2>(options: DeadlineOptions<E2>): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E | E2, R>
  <A, E, R, E2>(self: Effect.Effect<A, E, R>, options: DeadlineOptions<E2>): Effect.Effect<A, E | E2, R>
} = function() {
  if (Effect.isEffect(arguments[0])) return withDeadline(arguments[0], arguments[1])
  const options = arguments[0]
  return (self: Effect.Effect<unknown, unknown, unknown>) => withDeadline(self, options)
} as any

const withDeadline = <A, E, R, E2>(self: Effect.Effect<A, E, R>, options: DeadlineOptions<E2>): Effect.Effect<A, E | E2, R> => {
  const duration = Duration.decode(options.duration)
  if (!Duration.isFinite(duration)) return self
  const millis = Math.min(Duration.toMillis(duration), MAX_TIMER_MILLIS)
  return Effect.withFiberRuntime<A, E | E2, R>((caller, status) => {
    const clock = Context.get(caller.currentDefaultServices, Clock.Clock)
    const context = options.parentSpan === undefined
      ? caller.currentContext
      : Context.add(caller.currentContext, Tracer.ParentSpan, options.parentSpan)
    // The request is always interruptible, even when the caller is not (a fiber forked in an
    // uninterruptible region inherits that): otherwise the deadline could not abort it.
    const fork = Runtime.runFork(Runtime.make({
      context: context as Context.Context<R>,
      fiberRefs: caller.getFiberRefs(),
      runtimeFlags: RuntimeFlags.enable(status.runtimeFlags, RuntimeFlags.Interruption)
    }))
    return Effect.async<A, E | E2>((resume) => {
      const attempt: Fiber.RuntimeFiber<A, E> = fork(self)
      let timedOut = false
      let settled = false
      const expire = () => {
        if (settled) return
        timedOut = true
        attempt.unsafeInterruptAsFork(attempt.id())
      }
      let cancelDeadline: () => void
      if (clock === liveClock) {
        const timer = setTimeout(expire, millis)
        cancelDeadline = () => clearTimeout(timer)
      } else {
        const sleeper = fork(clock.sleep(Duration.millis(millis)))
        sleeper.addObserver((exit) => {
          if (Exit.isSuccess(exit)) expire()
        })
        cancelDeadline = () => sleeper.unsafeInterruptAsFork(sleeper.id())
      }
      // Resumes once the request has ended, after its interruption on a timeout.
      attempt.addObserver((exit) => {
        if (settled) return
        settled = true
        cancelDeadline()
        resume(timedOut && Exit.isFailure(exit) ? Effect.fail(options.onTimeout()) : exit)
      })
      // The caller was interrupted: interrupt the request and wait for it (it is aborted).
      return Effect.suspend(() => {
        settled = true
        cancelDeadline()
        return Effect.asVoid(Effect.zipRight(attempt.interruptAsFork(caller.id()), attempt.await))
      })
    })
  })
}
