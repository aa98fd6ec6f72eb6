import { describe, expect, it } from "@effect/vitest"
import { Deadline, InvalidInput, Retry, TransportError } from "@shoplink/http"
import { Duration, Effect, Either, Fiber, Ref, Schedule, Supervisor, TestClock } from "effect"

const refused = new TransportError.RequestFailed({
  operation: "CreateOrder",
  reason: "ConnectionRefused",
  requestSent: false,
  detail: "ECONNREFUSED"
})
const reset = new TransportError.RequestFailed({
  operation: "CreateOrder",
  reason: "Transport",
  requestSent: true,
  detail: "ECONNRESET"
})
const unbuildable = new TransportError.RequestFailed({
  operation: "getOrder",
  reason: "InvalidRequest",
  requestSent: false,
  detail: "bad URL"
})
const timeout = new TransportError.Timeout({ operation: "getOrder", detail: "late" })
const limited = new TransportError.RateLimited({ operation: "getOrder", retryAfter: Duration.seconds(2) })
const gateway = new TransportError.UnexpectedResponse({
  operation: "getOrder",
  reason: "InvalidJson",
  httpStatus: 502,
  detail: "<html>"
})
const notFound = new TransportError.UnexpectedResponse({
  operation: "getOrder",
  reason: "InvalidJson",
  httpStatus: 404,
  detail: "<html>"
})

describe("TransportError", () => {
  it("brands every member, and only them", () => {
    for (const error of [refused, reset, timeout, limited, gateway]) {
      expect(TransportError.isTransportError(error)).toBe(true)
    }
    expect(TransportError.isTransportError(new Error("x"))).toBe(false)
    expect(TransportError.isTransportError({ _tag: "RequestFailed" })).toBe(false)
    expect(TransportError.isTransportError(new InvalidInput.InvalidInput({ operation: "x", field: "a", rule: "b" })))
      .toBe(false)
  })

  it("says which failures never reached the server and reads Retry-After", () => {
    expect(TransportError.neverReachedServer(refused)).toBe(true)
    expect(TransportError.neverReachedServer(reset)).toBe(false)
    expect(TransportError.neverReachedServer(unbuildable)).toBe(false)
    expect(TransportError.retryAfterOf(limited)).toEqual(Duration.seconds(2))
    expect(TransportError.retryAfterOf(timeout)).toBeUndefined()
    expect([refused.retryClass, gateway.retryClass, notFound.retryClass, unbuildable.retryClass]).toEqual([
      "retryable",
      "server",
      "invalid",
      "invalid"
    ])
  })

  it("writes one-line messages with the attempt and the redacted URL", () => {
    expect(
      new TransportError.Timeout({
        operation: "getOrder",
        attempt: 3,
        detail: "late",
        method: "GET",
        url: "http://h/o?k=<redacted>"
      }).message
    )
      .toBe("getOrder: Timeout (attempt 3): late (GET http://h/o?k=<redacted>)")
    expect(refused.message).toBe("CreateOrder: ConnectionRefused: ECONNREFUSED")
  })
})

describe("Retry.retryable", () => {
  it("retries an unsafe request only when nothing can have happened", () => {
    expect(Retry.retryable(refused, "unsafe")).toBe(true)
    for (const error of [reset, timeout, limited, gateway]) expect(Retry.retryable(error, "unsafe")).toBe(false)
    expect(Retry.retryable({ _tag: "OrderLocked", retryClass: "retryable" }, "unsafe")).toBe(true)
    expect(Retry.retryable({ _tag: "UnknownMessage", retryClass: "retryable" }, "unsafe")).toBe(false)
    expect(Retry.retryable({ _tag: "SomethingWentWrong", retryClass: "server" }, "unsafe")).toBe(false)
  })

  it("retries an idempotent request on every transient failure, never on bad requests", () => {
    for (const error of [refused, reset, timeout, limited, gateway]) {
      expect(Retry.retryable(error, "idempotent")).toBe(true)
    }
    expect(Retry.retryable({ _tag: "SomethingWentWrong", retryClass: "server" }, "idempotent")).toBe(true)
    for (const error of [unbuildable, notFound, { retryClass: "quota" }, new Error("x"), "nope"]) {
      expect(Retry.retryable(error, "idempotent")).toBe(false)
    }
  })
})

describe("Retry policy", () => {
  it("validates overrides", () => {
    expect(Either.getOrThrow(Retry.validate({ maxAttempts: 2, baseDelay: "50 millis" })).baseDelay).toEqual(
      Duration.millis(50)
    )
    expect(Either.isLeft(Retry.validate({ maxAttempts: 0 }))).toBe(true)
    const problem = Retry.validate({ maxDelay: "soon" as Duration.DurationInput })
    expect(Either.isLeft(problem) && problem.left.setting).toBe("retry.maxDelay")
  })

  it("backs off exponentially with jitter in [50%, 100%], capped, bounded by attempts, time and Retry-After", () => {
    const policy = Retry.defaults
    const at = (retry: number, random: number, elapsedMillis = 0, retryAfter?: Duration.Duration) =>
      Retry.nextDelay(policy, { retry, random, elapsedMillis, retryAfter })
    expect(at(1, 0)).toEqual(Duration.millis(100))
    expect(at(1, 0.999)).toEqual(Duration.millis(200))
    expect(at(2, 0.999)).toEqual(Duration.millis(400))
    expect(at(3, 0)).toEqual(Duration.millis(400))
    expect(Retry.nextDelay({ ...policy, maxAttempts: 10 }, { retry: 9, random: 0, elapsedMillis: 0 })).toEqual(
      Duration.millis(2500)
    )
    expect(at(4, 0)).toBeUndefined()
    expect(at(1, 0, 29_950)).toBeUndefined()
    expect(at(1, 0.5, 0, Duration.seconds(8))).toEqual(Duration.seconds(8))
    expect(at(1, 0.5, 0, Duration.seconds(31))).toBeUndefined()
  })

  it.effect("as a Schedule it follows the TestClock and reads Retry-After from the failure", () =>
    Effect.gen(function*() {
      const calls = yield* Ref.make(0)
      const failing = Effect.zipRight(Ref.update(calls, (n) => n + 1), Effect.fail(limited))
      const fiber = yield* Effect.fork(Effect.retry(failing, Retry.schedule(Retry.defaults)))
      yield* TestClock.adjust("1999 millis")
      expect(yield* Ref.get(calls)).toBe(1)
      yield* TestClock.adjust("1 millis")
      expect(yield* Ref.get(calls)).toBe(2)
      yield* TestClock.adjust("10 seconds")
      const exit = yield* Fiber.await(fiber)
      expect(yield* Ref.get(calls)).toBe(4)
      expect(exit._tag).toBe("Failure")
    }))

  it.effect("retry: attempts are numbered, only retryable failures are retried, the last error wins", () =>
    Effect.gen(function*() {
      const seen: Array<number> = []
      const retries: Array<number> = []
      const call = (attempt: number) => {
        seen.push(attempt)
        return attempt < 3
          ? Effect.fail(new TransportError.Timeout({ operation: "x", attempt, detail: "late" }))
          : Effect.succeed("ok")
      }
      const fiber = yield* Effect.fork(Retry.retry(call, {
        policy: Retry.defaults,
        idempotency: "idempotent",
        onRetry: ({ attempt }) => Effect.sync(() => retries.push(attempt))
      }))
      yield* TestClock.adjust("10 seconds")
      expect(yield* Fiber.join(fiber)).toBe("ok")
      expect([seen, retries]).toEqual([[1, 2, 3], [1, 2]])

      const unsafe = yield* Effect.flip(
        Retry.retry((attempt) => Effect.fail(new TransportError.Timeout({ operation: "x", attempt, detail: "late" })), {
          policy: Retry.defaults,
          idempotency: "unsafe"
        })
      )
      expect(unsafe.attempt).toBe(1)

      const exhausted = yield* Effect.fork(
        Effect.flip(Retry.retry((attempt) =>
          Effect.fail(
            new TransportError.RequestFailed({
              operation: "x",
              reason: "ConnectionRefused",
              requestSent: false,
              attempt,
              detail: "no"
            })
          ), {
          policy: { ...Retry.defaults, maxAttempts: 3 },
          idempotency: "unsafe"
        }))
      )
      yield* TestClock.adjust("10 seconds")
      expect((yield* Fiber.join(exhausted)).attempt).toBe(3)
    }))

  it.effect("maxElapsed counts from the first attempt", () =>
    Effect.gen(function*() {
      const slow = (attempt: number) =>
        Effect.zipRight(
          Effect.sleep("20 seconds"),
          Effect.fail(new TransportError.Timeout({ operation: "x", attempt, detail: "late" }))
        )
      const fiber = yield* Effect.fork(
        Effect.flip(Retry.retry(slow, { policy: Retry.defaults, idempotency: "idempotent" }))
      )
      yield* TestClock.adjust("1 minute")
      // 20 s, one retry (20.1–20.2 s), a second attempt ending at ~40 s: past the 30 s budget.
      expect((yield* Fiber.join(fiber)).attempt).toBe(2)
    }))

  it.effect("Schedule.driver runs no pause for a done decision", () =>
    Effect.gen(function*() {
      const driver = yield* Schedule.driver(Retry.schedule({ ...Retry.defaults, maxAttempts: 1 }))
      expect(Either.isLeft(yield* Effect.either(driver.next(timeout)))).toBe(true)
    }))
})

describe("Deadline", () => {
  it.effect("times out on the TestClock, after interrupting the request", () =>
    Effect.gen(function*() {
      const interrupted = yield* Ref.make(false)
      const request = Effect.never.pipe(Effect.onInterrupt(() => Ref.set(interrupted, true)))
      const fiber = yield* Effect.fork(
        Effect.flip(request.pipe(Deadline.timeoutFail({ duration: "5 seconds", onTimeout: () => "late" as const })))
      )
      yield* TestClock.adjust("4999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.join(fiber)).toBe("late")
      expect(yield* Ref.get(interrupted)).toBe(true)
    }))

  it.effect("passes results and failures through, and no deadline for Duration.infinity", () =>
    Effect.gen(function*() {
      expect(yield* Deadline.timeoutFail(Effect.succeed(1), { duration: "1 second", onTimeout: () => "late" })).toBe(1)
      expect(
        yield* Effect.flip(Deadline.timeoutFail(Effect.fail("boom"), { duration: "1 second", onTimeout: () => "late" }))
      ).toBe("boom")
      const forever = Effect.as(Effect.sleep("1 day"), "done")
      const fiber = yield* Effect.fork(
        Deadline.timeoutFail(forever, { duration: Duration.infinity, onTimeout: () => "late" })
      )
      yield* TestClock.adjust("1 day")
      expect(yield* Fiber.join(fiber)).toBe("done")
    }))

  it.live("uses a plain timer on the live Clock", () =>
    Effect.gen(function*() {
      const started = Date.now()
      const error = yield* Effect.flip(
        Deadline.timeoutFail(Effect.never, { duration: "30 millis", onTimeout: () => "late" as const })
      )
      expect(error).toBe("late")
      expect(Date.now() - started).toBeGreaterThanOrEqual(25)
    }))

  it.effect("an interrupted caller interrupts the request", () =>
    Effect.gen(function*() {
      const interrupted = yield* Ref.make(false)
      const request = Effect.never.pipe(Effect.onInterrupt(() => Ref.set(interrupted, true)))
      const fiber = yield* Effect.fork(
        Deadline.timeoutFail(request, { duration: "5 seconds", onTimeout: () => "late" })
      )
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(fiber)
      expect(yield* Ref.get(interrupted)).toBe(true)
    }))
})

// A transport that enforces deadlines, as UndiciHttpClient does: it claims the calling fiber's
// pending deadline when it sends, and fails the request when the deadline aborts it.
const fakeTransport = (log: Array<string>, answerAfter?: Duration.DurationInput) =>
  Effect.withFiberRuntime<string, string>((fiber) => {
    const deadline = Deadline.claim(fiber)
    log.push(deadline === undefined ? "unclaimed" : "claimed")
    return Effect.async<string, string>((resume) => {
      let done = false
      deadline?.start(() => {
        log.push("aborted")
        done = true
        resume(Effect.fail("aborted"))
      })
      if (answerAfter !== undefined) {
        setTimeout(() => {
          if (done) return
          done = true
          deadline?.end()
          resume(Effect.succeed("answer"))
        }, Duration.toMillis(Duration.decode(answerAfter)))
      }
      return Effect.sync(() => {
        log.push("interrupted")
        deadline?.end()
      })
    })
  })

class CountingSupervisor extends Supervisor.AbstractSupervisor<number> {
  started = 0
  get value() {
    return Effect.sync(() => this.started)
  }
  override onStart() {
    this.started++
  }
}

describe("Deadline.timeoutAbort", () => {
  it.effect("the transport aborts the request at the deadline on the TestClock; the caller gets the timeout error", () =>
    Effect.gen(function*() {
      const log: Array<string> = []
      const fiber = yield* Effect.fork(
        Effect.flip(Deadline.timeoutAbort(fakeTransport(log), {
          duration: "5 seconds",
          onTimeout: () => "late" as const
        }))
      )
      yield* TestClock.adjust("4999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.join(fiber)).toBe("late")
      expect(log).toEqual(["claimed", "aborted"])
    }))

  it.live("on the live Clock: one timer, no fiber; an answer in time passes through and disarms it", () =>
    Effect.gen(function*() {
      const supervisor = new CountingSupervisor()
      const late: Array<string> = []
      const error = yield* Effect.flip(
        Deadline.timeoutAbort(fakeTransport(late), { duration: "30 millis", onTimeout: () => "late" as const })
      )
        .pipe(Effect.supervised(supervisor))
      expect([error, late]).toEqual(["late", ["claimed", "aborted"]])
      const log: Array<string> = []
      const answer = yield* Deadline.timeoutAbort(fakeTransport(log, "5 millis"), {
        duration: "40 millis",
        onTimeout: () => "late" as const
      })
        .pipe(Effect.supervised(supervisor))
      yield* Effect.sleep("80 millis")
      expect([answer, log]).toEqual(["answer", ["claimed"]])
      expect(supervisor.started).toBe(0)
      // Nothing is left pending for the next request of this fiber.
      const next: Array<string> = []
      expect(yield* fakeTransport(next, "1 millis")).toBe("answer")
      expect(next).toEqual(["unclaimed"])
    }))

  it.effect("an interrupted caller interrupts the request (the transport aborts it)", () =>
    Effect.gen(function*() {
      const log: Array<string> = []
      const fiber = yield* Effect.fork(
        Deadline.timeoutAbort(fakeTransport(log), { duration: "5 seconds", onTimeout: () => "late" })
      )
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(fiber)
      yield* TestClock.adjust("10 seconds")
      expect(log).toEqual(["claimed", "interrupted"])
    }))

  it("knows the transports that enforce deadlines by their brand", () => {
    expect(Deadline.enforcedBy({ [Deadline.TransportTypeId]: true })).toBe(true)
    expect(Deadline.enforcedBy({})).toBe(false)
    expect(Deadline.enforcedBy(undefined)).toBe(false)
  })
})

describe("InvalidInput", () => {
  it("is one line, field then rule, with the code when the rule mirrors one", () => {
    expect(InvalidInput.fromViolation("CreateSession", { field: "apiToken", rule: "must not be empty" }).message).toBe(
      "apiToken must not be empty"
    )
    expect(
      new InvalidInput.InvalidInput({
        operation: "searchProducts",
        field: "searchText",
        rule: "must be 3 or more characters, got 2",
        code: "API0304"
      }).message
    )
      .toBe("searchText must be 3 or more characters, got 2 (API0304)")
  })

  it("ConfigurationError is one line naming the client, the setting and the problem", () => {
    expect(
      new InvalidInput.ConfigurationError({ client: "Punchout", setting: "baseUrl", problem: "must not be empty" })
        .message
    )
      .toBe("Punchout client configuration: baseUrl: must not be empty")
    expect(new InvalidInput.ConfigurationError({ setting: "apiKey", problem: "must not be empty" }).message)
      .toBe("Client configuration: apiKey: must not be empty")
  })
})
