/**
 * The one per-request deadline of every Shoplink client, adapter and worker. It follows the Effect
 * `Clock` (a `TestClock` decides when a request times out). Two forms: `timeoutAbort`, enforced
 * by a transport that supports it (the request aborted on the wire, no fiber forked), and
 * `timeoutFail`, for any effect.
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
import { globalValue } from "effect/GlobalValue"
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

const withDeadline = <A, E, R, E2>(
  self: Effect.Effect<A, E, R>,
  options: DeadlineOptions<E2>
): Effect.Effect<A, E | E2, R> => {
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

/**
 * The brand of an `HttpClient` whose transport enforces the deadlines `timeoutAbort` sets: when it
 * starts a request, it claims the calling fiber's pending deadline (`claim`), and aborts the request
 * when that deadline expires. `@shoplink/http-node`'s `UndiciHttpClient` carries it. The brand is a
 * `Symbol.for` key, so a transport needs no import of this package to carry it.
 *
 * @example
 * import { Deadline } from "@shoplink/http"
 * const transport = { [Deadline.TransportTypeId]: true }
 * Deadline.enforcedBy(transport) // true
 *
 * @since 0.1.0
 * @category type ids
 */
export const TransportTypeId: unique symbol = Symbol.for("@shoplink/http/Deadline/Transport") as never

/**
 * Whether a transport (an `HttpClient`, before any wrapping) enforces deadlines (`TransportTypeId`).
 *
 * @example
 * import { Deadline } from "@shoplink/http"
 * Deadline.enforcedBy({}) // false: use timeoutFail
 *
 * @since 0.1.0
 */
export const enforcedBy = (transport: unknown): boolean =>
  typeof transport === "object" && transport !== null &&
  (transport as Record<symbol, unknown>)[TransportTypeId] === true

/**
 * The deadline of one request as a transport sees it: `start` when the request is dispatched, with
 * the function that aborts it (called at once when the deadline has already passed, and at most
 * once); `end` once the exchange has ended, however it ended.
 *
 * @example
 * import type { Deadline } from "@shoplink/http"
 * const attach = (deadline: Deadline.TransportDeadline, abort: () => void) => deadline.start(abort)
 *
 * @since 0.1.0
 */
export interface TransportDeadline {
  readonly start: (abort: () => void) => void
  readonly end: () => void
}

// Pending deadlines by the fiber that will send the request (a Map, not a WeakMap: one set and one
// delete per request, and ephemerons cost the garbage collector more). Entries leave when claimed,
// when the exchange ends, or at the latest when the deadline passes. A `globalValue` under a
// `Symbol.for` key, so transports reach the same map without importing this package.
const pending: Map<object, TransportDeadline> = globalValue(
  Symbol.for("@shoplink/http/Deadline/pending"),
  () => new Map<object, TransportDeadline>()
)

/**
 * For transports: takes the pending deadline of the fiber that is sending a request, if any (at
 * most one request claims it).
 *
 * @example
 * import { Effect } from "effect"
 * import { Deadline } from "@shoplink/http"
 * const send = Effect.withFiberRuntime((fiber) => {
 *   const deadline = Deadline.claim(fiber)
 *   deadline?.start(() => console.log("abort the request"))
 *   return Effect.sync(() => deadline?.end())
 * })
 *
 * @since 0.1.0
 */
export const claim = (fiber: Fiber.RuntimeFiber<unknown, unknown>): TransportDeadline | undefined => {
  const deadline = pending.get(fiber)
  if (deadline !== undefined) pending.delete(fiber)
  return deadline
}

// One request's deadline: one timer on the live Clock (the Clock's own sleep in a fiber otherwise).
class Pending implements TransportDeadline {
  expired = false
  private ended = false
  private abort: (() => void) | undefined = undefined
  private timer: ReturnType<typeof setTimeout> | undefined = undefined
  private sleeper: Fiber.RuntimeFiber<void> | undefined = undefined

  constructor(private readonly fiber: Fiber.RuntimeFiber<unknown, unknown>, clock: Clock.Clock, millis: number) {
    if (clock === liveClock) {
      this.timer = setTimeout(this.expire, millis)
    } else {
      const fork = Runtime.runFork(Runtime.make({
        context: fiber.currentContext,
        fiberRefs: fiber.getFiberRefs(),
        runtimeFlags: Runtime.defaultRuntimeFlags
      }))
      const sleeper = fork(clock.sleep(Duration.millis(millis)))
      sleeper.addObserver((exit) => {
        if (Exit.isSuccess(exit)) this.expire()
      })
      this.sleeper = sleeper
    }
  }

  readonly expire = (): void => {
    if (this.ended) return
    this.expired = true
    // Never claimed (the caller was interrupted before sending): no request may claim it now.
    if (pending.get(this.fiber) === this) pending.delete(this.fiber)
    const abort = this.abort
    this.abort = undefined
    if (abort !== undefined) abort()
  }

  start(abort: () => void): void {
    if (this.ended) return
    if (this.expired) abort()
    else this.abort = abort
  }

  end(): void {
    if (this.ended) return
    this.ended = true
    this.abort = undefined
    if (this.timer !== undefined) clearTimeout(this.timer)
    if (this.sleeper !== undefined) this.sleeper.unsafeInterruptAsFork(this.sleeper.id())
  }
}

/**
 * Runs an HTTP exchange with a deadline that its transport enforces (see `TransportTypeId`), without
 * forking a fiber: on expiry the transport aborts the request on the wire and fails it, and the
 * effect fails with `onTimeout()`. Interrupting the caller interrupts the exchange, which aborts
 * the request. `self` must send its request from the calling fiber (every `HttpClient` combinator
 * does, except a timeout or race of its own); on a transport that does not enforce deadlines, use
 * `timeoutFail`.
 *
 * @example
 * import { HttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { Deadline, TransportError } from "@shoplink/http"
 * declare const client: HttpClient.HttpClient
 * const bounded = client.get("http://127.0.0.1:8080/orders/1").pipe(Deadline.timeoutAbort({
 *   duration: "10 seconds",
 *   onTimeout: () => new TransportError.Timeout({ operation: "getOrder", detail: "no answer within 10 seconds" })
 * }))
 *
 * @since 0.1.0
 */
export const timeoutAbort: {
  <E2>(options: DeadlineOptions<E2>): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E | E2, R>
  <A, E, R, E2>(self: Effect.Effect<A, E, R>, options: DeadlineOptions<E2>): Effect.Effect<A, E | E2, R>
} = function() {
  if (Effect.isEffect(arguments[0])) return withTransportDeadline(arguments[0], arguments[1])
  const options = arguments[0]
  return (self: Effect.Effect<unknown, unknown, unknown>) => withTransportDeadline(self, options)
} as any

const withTransportDeadline = <A, E, R, E2>(
  self: Effect.Effect<A, E, R>,
  options: DeadlineOptions<E2>
): Effect.Effect<A, E | E2, R> => {
  const duration = Duration.decode(options.duration)
  if (!Duration.isFinite(duration)) return self
  const millis = Math.min(Duration.toMillis(duration), MAX_TIMER_MILLIS)
  const inner = options.parentSpan === undefined ? self : Effect.withParentSpan(self, options.parentSpan)
  return Effect.withFiberRuntime<A, E | E2, R>((fiber) => {
    const deadline = new Pending(fiber, Context.get(fiber.currentDefaultServices, Clock.Clock), millis)
    pending.set(fiber, deadline)
    return Effect.matchCauseEffect(inner, {
      onSuccess: (value): Effect.Effect<A, E | E2> => {
        settle(fiber, deadline)
        return Effect.succeed(value)
      },
      onFailure: (cause) => {
        settle(fiber, deadline)
        return deadline.expired ? Effect.fail<E | E2>(options.onTimeout()) : Effect.failCause<E | E2>(cause)
      }
    })
  })
}

// The exchange ended: the deadline is no longer pending (when no transport claimed it) nor armed.
const settle = (fiber: object, deadline: Pending): void => {
  if (pending.get(fiber) === deadline) pending.delete(fiber)
  deadline.end()
}
