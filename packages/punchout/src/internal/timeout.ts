// The per-attempt deadline. Effect.timeoutFail races two fibers through raceFibersWith and merges
// their FiberRefs back: 110–150 µs of CPU per request here, more than the rest of the exchange.
//
// Instead the attempt runs in one fiber forked from the caller's runtime (its context, FiberRefs
// and flags: logger, Clock, tracer), with `parentSpan` as its parent span. The deadline is a
// plain timer when the caller runs on the live Clock, and otherwise that Clock's own `sleep` in a
// second fiber, so a TestClock still decides when an attempt times out.
import { Clock, Context, DefaultServices, Duration, Effect, Exit, type Fiber, Runtime, RuntimeFlags, Tracer } from "effect"

const liveClock = Context.get(DefaultServices.liveServices, Clock.Clock)

export interface DeadlineOptions<E2> {
  readonly duration: Duration.Duration
  readonly onTimeout: () => E2
  readonly parentSpan: Tracer.AnySpan
}

export const withDeadline = <A, E, E2>(self: Effect.Effect<A, E>, options: DeadlineOptions<E2>): Effect.Effect<A, E | E2> =>
  Effect.withFiberRuntime<A, E | E2>((caller, status) => {
    const clock = Context.get(caller.currentDefaultServices, Clock.Clock)
    // The attempt is always interruptible, even when the caller is not (a fiber forked in an
    // uninterruptible region inherits that): otherwise the deadline could not abort it.
    const fork = Runtime.runFork(Runtime.make({
      context: Context.add(caller.currentContext, Tracer.ParentSpan, options.parentSpan),
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
        // setTimeout fires at once past 2^31 - 1 ms; the client refuses such timeouts, clamp anyway.
        const timer = setTimeout(expire, Math.min(Duration.toMillis(options.duration), 2_147_483_647))
        cancelDeadline = () => clearTimeout(timer)
      } else {
        const sleeper = fork(clock.sleep(options.duration))
        sleeper.addObserver((exit) => {
          if (Exit.isSuccess(exit)) expire()
        })
        cancelDeadline = () => sleeper.unsafeInterruptAsFork(sleeper.id())
      }
      // Resumes once the attempt has ended, after its interruption on a timeout, so the request
      // is aborted before the caller decides on a retry.
      attempt.addObserver((exit) => {
        if (settled) return
        settled = true
        cancelDeadline()
        resume(timedOut && Exit.isFailure(exit) ? Effect.fail(options.onTimeout()) : exit)
      })
      // The caller was interrupted: interrupt the attempt and wait for it (its request is aborted).
      return Effect.suspend(() => {
        settled = true
        cancelDeadline()
        return Effect.asVoid(Effect.zipRight(attempt.interruptAsFork(caller.id()), attempt.await))
      })
    })
  })
