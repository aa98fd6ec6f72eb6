import { describe, expect, it } from "@effect/vitest"
import { NodeHttpClient } from "@effect/platform-node"
import { Config, ConfigProvider, Duration, Effect, Fiber, Layer, TestClock } from "effect"
import { OrderLocked, SomethingWentWrong, UnknownMessage } from "@shoplink/protocol"
import { Retry } from "@shoplink/http"
import { PunchoutClient, PunchoutError } from "../src/index.js"
import {
  captureLogs,
  clientLayer,
  closedPort,
  envelope,
  faultServer,
  type Handler,
  htmlPage,
  json,
  order,
  quoteLine,
  reset,
  sessionFor,
  yieldToEventLoop
} from "./support/faultServer.js"

const quotesOk: Handler = (_req, res) => json(res, 200, { ...envelope(200, "Success"), quotes: [quoteLine()] })
const orderOk: Handler = (_req, res) => json(res, 200, { ...envelope(200, "Success"), order: order() })
const serverError: Handler = (_req, res) =>
  json(res, 500, envelope(500, "Something went wrong, that's all we know", "API0500"))
const gateway: Handler = (_req, res) => htmlPage(res, 502)

/** Answers with `faults` in turn, then with `then` for every later request. */
const sequence = (faults: ReadonlyArray<Handler>, then: Handler): Handler => (req, res, n) =>
  (faults[n - 1] ?? then)(req, res, n)

const run = <A, E>(
  handler: Handler,
  f: (client: PunchoutClient.Service, session: ReturnType<typeof sessionFor>) => Effect.Effect<A, E>
) =>
  Effect.gen(function*() {
    const server = yield* faultServer(handler)
    const exit = yield* Effect.flatMap(PunchoutClient.PunchoutClient, (client) => f(client, sessionFor(server.url)))
      .pipe(
        Effect.provide(clientLayer(server.url)),
        Effect.exit
      )
    return { exit, count: server.count() }
  })

describe("GetProductQuotes and ReserveOrder retry transient failures", () => {
  const quotes = (client: PunchoutClient.Service, session: ReturnType<typeof sessionFor>) =>
    client.getProductQuotes(session, { searchTerm: "oil filter", quantity: 1 })

  it.scoped("a 500 envelope, then success: 2 requests", () =>
    Effect.gen(function*() {
      const { count, exit } = yield* run(sequence([serverError], quotesOk), quotes)
      expect(exit._tag).toBe("Success")
      expect(count).toBe(2)
    }))

  it.scoped("a connection reset, then success: 2 requests", () =>
    Effect.gen(function*() {
      const { count, exit } = yield* run(sequence([(_q, res) => reset(res)], quotesOk), quotes)
      expect(exit._tag).toBe("Success")
      expect(count).toBe(2)
    }))

  it.scoped("two HTML 502 pages, then success: 3 requests", () =>
    Effect.gen(function*() {
      const { count, exit } = yield* run(sequence([gateway, gateway], quotesOk), quotes)
      expect(exit._tag).toBe("Success")
      expect(count).toBe(3)
    }))

  it.scoped("an empty 503 body and malformed JSON on a 500, then success: 3 requests", () =>
    Effect.gen(function*() {
      const empty: Handler = (_q, res) => {
        res.writeHead(503)
        res.end()
      }
      const garbage: Handler = (_q, res) => {
        res.writeHead(500, { "content-type": "application/json" })
        res.end("{not json")
      }
      const { count, exit } = yield* run(sequence([empty, garbage], quotesOk), quotes)
      expect(exit._tag).toBe("Success")
      expect(count).toBe(3)
    }))

  it.scoped("OrderLocked (API0258) on ReserveOrder, then success: 2 requests", () =>
    Effect.gen(function*() {
      const locked: Handler = (_q, res) => json(res, 200, envelope(409, "Order is locked by another job", "API0258"))
      const reserved: Handler = (_q, res) =>
        json(res, 200, {
          referenceId: null,
          status: { code: 200, message: { ID: "API0200", text: "Successful" } },
          order: order()
        })
      const { count, exit } = yield* run(
        sequence([locked], reserved),
        (client, session) => client.reserveOrder(session, { orderID: "10423" })
      )
      expect(exit._tag).toBe("Success")
      expect(count).toBe(2)
    }))

  it.scoped("always 500: stops after maxAttempts (3) requests with the last error", () =>
    Effect.gen(function*() {
      const { count, exit } = yield* run(serverError, quotes)
      expect(count).toBe(3)
      expect(exit._tag === "Failure" && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe("SomethingWentWrong")
    }))

  it.scoped("non-transient answers are not retried: quota, invalid input, malformed 200", () =>
    Effect.gen(function*() {
      const quota = yield* run(
        (_q, res) => json(res, 429, envelope(429, "You exceeded use limit for the month", "API0208")),
        quotes
      )
      expect(quota.count).toBe(1)
      const notFound = yield* run(
        (_q, res) => json(res, 400, envelope(400, "Invalid API parameters", "API0288")),
        quotes
      )
      expect(notFound.count).toBe(1)
      const malformed = yield* run((_q, res) => {
        res.writeHead(200)
        res.end("{")
      }, quotes)
      expect(malformed.count).toBe(1)
    }))

  it.effect("a timed-out GetProductQuotes is retried up to maxAttempts (TestClock)", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* faultServer(() => {
        // never answers
      })
      const fiber = yield* Effect.flatMap(
        PunchoutClient.PunchoutClient,
        (client) => Effect.flip(quotes(client, sessionFor(server.url)))
      ).pipe(
        Effect.provide(clientLayer(server.url, { requestTimeout: "2 seconds" })),
        Effect.fork
      )
      for (let n = 1; n <= 3; n++) {
        yield* server.arrived(n)
        yield* TestClock.adjust("2 seconds")
      }
      const error = yield* Fiber.join(fiber)
      expect(error._tag === "Timeout" && error.attempt).toBe(3)
      expect(server.count()).toBe(3)
    })))
})

describe("CreateOrder and SubmitOrder never retry once the request may have reached the server", () => {
  const create = (client: PunchoutClient.Service, session: ReturnType<typeof sessionFor>) =>
    client.createOrder(session, { productID: "51515", brandID: "WIX", quantity: 1 })
  const submit = (client: PunchoutClient.Service, session: ReturnType<typeof sessionFor>) =>
    client.submitOrder(session, { orderID: "10423" })

  for (
    const [name, handler] of [
      ["a 500 envelope", serverError],
      ["an HTML 502 page", gateway],
      ["a connection reset", ((_q, res) => reset(res)) as Handler],
      [
        "an unknown message ID on a 429",
        ((_q, res) => json(res, 429, envelope(429, "Slow down", "API0999"))) as Handler
      ]
    ] as const
  ) {
    it.scoped(`CreateOrder after ${name}: exactly 1 request`, () =>
      Effect.gen(function*() {
        const { count, exit } = yield* run(sequence([handler], orderOk), create)
        expect(exit._tag).toBe("Failure")
        expect(count).toBe(1)
      }))
    it.scoped(`SubmitOrder after ${name}: exactly 1 request`, () =>
      Effect.gen(function*() {
        const { count, exit } = yield* run(sequence([handler], orderOk), submit)
        expect(exit._tag).toBe("Failure")
        expect(count).toBe(1)
      }))
  }

  it.effect("a timed-out CreateOrder is not retried (TestClock)", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* faultServer(() => {
        // never answers
      })
      const fiber = yield* Effect.flatMap(PunchoutClient.PunchoutClient, (client) =>
        Effect.flip(create(client, sessionFor(server.url)))).pipe(
          Effect.provide(clientLayer(server.url, { requestTimeout: "2 seconds" })),
          Effect.fork
        )
      yield* server.arrived(1)
      yield* TestClock.adjust("2 seconds")
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("Timeout")
      expect(server.count()).toBe(1)
    })))

  it.scoped("a refused connection on every attempt: maxAttempts attempts, ConnectionRefused, requestSent false", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const url = `http://127.0.0.1:${port}`
      const error = yield* Effect.flatMap(
        PunchoutClient.PunchoutClient,
        (client) => Effect.flip(create(client, sessionFor(url)))
      ).pipe(
        Effect.provide(clientLayer(url))
      )
      expect(error._tag).toBe("RequestFailed")
      if (error._tag === "RequestFailed") {
        expect([error.reason, error.requestSent, error.attempt]).toEqual(["ConnectionRefused", false, 3])
      }
    }))

  // The first attempt is refused; while the client waits to retry, the server comes up on that port.
  const refusedThenUp = <A, E>(handler: Handler, f: typeof create | typeof submit) =>
    Effect.scoped(Effect.gen(function*() {
      const port = yield* closedPort
      const url = `http://127.0.0.1:${port}`
      const logs = captureLogs()
      const fiber = yield* Effect.flatMap(
        PunchoutClient.PunchoutClient,
        (client) => Effect.either(f(client, sessionFor(url)))
      ).pipe(
        Effect.provide(Layer.merge(clientLayer(url, { retry: { maxAttempts: 3, baseDelay: "1 second" } }), logs.layer)),
        Effect.fork
      )
      const retrying = (): Effect.Effect<void> =>
        logs.lines.some((line) => line.includes("retrying"))
          ? Effect.void
          : Effect.zipRight(yieldToEventLoop, Effect.suspend(retrying))
      yield* retrying()
      // the retry pause (0.5–1 s) is registered; the attempt's own timeout sleep is at 5 s
      while (!Array.from(yield* TestClock.sleeps()).some((at) => at <= 1000)) yield* yieldToEventLoop
      const server = yield* faultServer(handler, { port })
      yield* TestClock.adjust("1 second")
      const result = yield* Fiber.join(fiber)
      return { result: result as typeof result & { _: A | E }, count: server.count(), logs: logs.lines }
    }))

  it.effect("CreateOrder is retried after a refused connection: 1 request reaches the server", () =>
    Effect.gen(function*() {
      const { count, result } = yield* refusedThenUp(orderOk, create)
      expect(result._tag).toBe("Right")
      expect(count).toBe(1)
    }))

  it.effect("SubmitOrder answering 'already submitted' after a retry fails OrderAlreadySubmittedAfterRetry", () =>
    Effect.gen(function*() {
      const { count, logs, result } = yield* refusedThenUp(
        (_q, res) => json(res, 200, envelope(409, "Order has already been submitted", "API0247")),
        submit
      )
      expect(count).toBe(1)
      expect(result._tag).toBe("Left")
      if (result._tag === "Left") {
        expect(result.left).toBeInstanceOf(PunchoutError.OrderAlreadySubmittedAfterRetry)
        expect(result.left._tag === "OrderAlreadySubmittedAfterRetry" && [result.left.orderID, result.left.attempts])
          .toEqual(["10423", 2])
      }
      expect(logs.join("\n")).not.toContain("5f0c8e0a")
    }))

  it.scoped("SubmitOrder answering 'already submitted' on its first attempt keeps OrderAlreadySubmitted", () =>
    Effect.gen(function*() {
      const { count, exit } = yield* run(
        (_q, res) => json(res, 200, envelope(409, "Order has already been submitted", "API0247")),
        submit
      )
      expect(count).toBe(1)
      expect(exit._tag === "Failure" && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe(
        "OrderAlreadySubmitted"
      )
    }))
})

// API0258 means the distributor refused the request (another job holds the order): nothing
// happened, so a bounded retry is safe even for the commands that are never repeated otherwise.
describe("CreateOrder and SubmitOrder retry a busy refusal (API0258 OrderLocked)", () => {
  const locked: Handler = (_q, res) => json(res, 200, envelope(409, "Order is locked by another job", "API0258"))
  const create = (client: PunchoutClient.Service, session: ReturnType<typeof sessionFor>) =>
    client.createOrder(session, { productID: "51515", brandID: "WIX", quantity: 1 })
  const submit = (client: PunchoutClient.Service, session: ReturnType<typeof sessionFor>) =>
    client.submitOrder(session, { orderID: "10423" })

  it.scoped("CreateOrder answered API0258, then success: 2 requests, the order", () =>
    Effect.gen(function*() {
      const { count, exit } = yield* run(sequence([locked], orderOk), create)
      expect(exit._tag === "Success" && exit.value.order.orderID).toBe("10423")
      expect(count).toBe(2)
    }))

  it.scoped("SubmitOrder answered API0258, then success: 2 requests, the order", () =>
    Effect.gen(function*() {
      const { count, exit } = yield* run(sequence([locked], orderOk), submit)
      expect(exit._tag === "Success" && exit.value.order.orderID).toBe("10423")
      expect(count).toBe(2)
    }))

  it.scoped("API0258 on every attempt: maxAttempts (3) requests, then OrderLocked", () =>
    Effect.gen(function*() {
      const { count, exit } = yield* run(locked, submit)
      expect(exit._tag === "Failure" && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe("OrderLocked")
      expect(count).toBe(3)
    }))

  it.scoped("SubmitOrder answered API0258, then 'already submitted': OrderAlreadySubmittedAfterRetry", () =>
    Effect.gen(function*() {
      const already: Handler = (_q, res) => json(res, 200, envelope(409, "Order has already been submitted", "API0247"))
      const { count, exit } = yield* run(sequence([locked], already), submit)
      expect(exit._tag === "Failure" && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe(
        "OrderAlreadySubmittedAfterRetry"
      )
      expect(count).toBe(2)
    }))
})

describe("the shared retry policy (@shoplink/http Retry)", () => {
  it("backs off exponentially with jitter between 50% and 100%, capped; a Retry-After replaces the backoff", () => {
    const policy = Retry.make({
      baseDelay: "100 millis",
      maxDelay: "1 second",
      maxAttempts: 20,
      retryAfterCap: "10 seconds"
    })
    const delayFor = (retry: number, random: number, retryAfterMillis?: number) =>
      Duration.toMillis(
        Retry.nextDelay(policy, {
          retry,
          random,
          elapsedMillis: 0,
          retryAfter: retryAfterMillis === undefined ? undefined : Duration.millis(retryAfterMillis)
        }) ?? Duration.zero
      )
    expect(delayFor(1, 0)).toBe(50)
    expect(delayFor(1, 0.999_999)).toBe(100)
    expect(delayFor(3, 0.999_999)).toBe(400)
    expect(delayFor(10, 0.999_999)).toBe(1000)
    expect(delayFor(1, 0.5, 700)).toBe(700)
    expect(delayFor(1, 0.5, 8_000)).toBe(8000)
    expect(Duration.toMillis(Retry.make().retryAfterCap)).toBe(30_000)
  })

  it("classifies what each mode retries", () => {
    const refused = new PunchoutError.RequestFailed({
      operation: "CreateOrder",
      reason: "ConnectionRefused",
      requestSent: false,
      attempt: 1,
      detail: "refused"
    })
    const timeout = new PunchoutError.Timeout({ operation: "CreateOrder", attempt: 1, detail: "timeout" })
    const hostNotFound = new PunchoutError.RequestFailed({
      operation: "CreateOrder",
      reason: "HostNotFound",
      requestSent: false,
      attempt: 1,
      detail: "getaddrinfo ENOTFOUND"
    })
    const isRetryable = (idempotency: Retry.Idempotency, error: unknown) => Retry.retryable(error, idempotency)
    expect(isRetryable("unsafe", refused)).toBe(true)
    expect(isRetryable("unsafe", hostNotFound)).toBe(true)
    expect(isRetryable("unsafe", timeout)).toBe(false)
    expect(isRetryable("unsafe", new SomethingWentWrong({ httpStatus: 500 }))).toBe(false)
    expect(isRetryable("unsafe", new OrderLocked({ httpStatus: 200 }))).toBe(true)
    expect(isRetryable("unsafe", new UnknownMessage({ code: "API0999", text: "?", httpStatus: 429 }))).toBe(false)
    expect(isRetryable("idempotent", timeout)).toBe(true)
    expect(isRetryable("idempotent", new OrderLocked({ httpStatus: 200 }))).toBe(true)
    expect(isRetryable("idempotent", new SomethingWentWrong({ httpStatus: 500 }))).toBe(true)
  })

  it.scoped("stops retrying when the next pause would pass maxElapsed", () =>
    Effect.gen(function*() {
      const server = yield* faultServer(gateway)
      const fiber = yield* Effect.flatMap(PunchoutClient.PunchoutClient, (client) =>
        Effect.flip(client.getProductQuotes(sessionFor(server.url), { searchTerm: "oil filter", quantity: 1 }))).pipe(
          Effect.provide(clientLayer(server.url, {
            retry: { maxAttempts: 10, baseDelay: "1 second", maxDelay: "1 second", maxElapsed: "2500 millis" }
          })),
          Effect.fork
        )
      // Pauses are 0.5–1 s each; whatever the jitter, a third pause would pass 2.5 s only after
      // at least 3 attempts, and 10 attempts never fit.
      for (let n = 1; n <= 6; n++) {
        const done = yield* Effect.raceFirst(Effect.as(server.arrived(n), false), Effect.as(Fiber.await(fiber), true))
        if (done) {
          break
        }
        yield* TestClock.adjust("1 second")
      }
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("UnexpectedResponse")
      expect(server.count()).toBeGreaterThanOrEqual(3)
      expect(server.count()).toBeLessThanOrEqual(6)
    }))
})

describe("Retry-After and configuration", () => {
  it.effect("a 503 with Retry-After waits that long before the next attempt (TestClock)", () =>
    Effect.scoped(Effect.gen(function*() {
      const handler = sequence([(_q, res) => {
        res.writeHead(503, { "content-type": "text/html", "retry-after": "3" })
        res.end("<html>busy</html>")
      }], quotesOk)
      const slow = yield* faultServer(handler)
      const fiber = yield* Effect.flatMap(
        PunchoutClient.PunchoutClient,
        (client) => client.getProductQuotes(sessionFor(slow.url), { searchTerm: "oil filter", quantity: 1 })
      ).pipe(
        Effect.provide(
          clientLayer(slow.url, { retry: { maxAttempts: 3, baseDelay: "10 millis", maxDelay: "5 seconds" } })
        ),
        Effect.fork
      )
      yield* slow.arrived(1)
      // let the failed attempt reach its pause: a sleep due at 3 s (the attempt's timeout is at 5 s)
      while (!Array.from(yield* TestClock.sleeps()).includes(3000)) yield* yieldToEventLoop
      yield* TestClock.adjust("2999 millis")
      expect(slow.count()).toBe(1)
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(fiber)
      expect(slow.count()).toBe(2)
    })))

  it.scoped("layerConfig reads the base URL, the redacted vendor key and the retry settings", () =>
    Effect.gen(function*() {
      const server = yield* faultServer(serverError)
      const config = ConfigProvider.fromMap(
        new Map([
          ["SHOPLINK_PUNCHOUT_BASE_URL", server.url],
          ["SHOPLINK_VENDOR_API_KEY", "from-config-key"],
          ["SHOPLINK_PUNCHOUT_REQUEST_TIMEOUT", "5 seconds"],
          ["SHOPLINK_PUNCHOUT_RETRY_MAX_ATTEMPTS", "2"],
          ["SHOPLINK_PUNCHOUT_RETRY_BASE_DELAY", "0 millis"]
        ])
      )
      // The application names its variables once; the client knows none.
      const live = PunchoutClient.layerConfig({
        baseUrl: Config.string("SHOPLINK_PUNCHOUT_BASE_URL"),
        vendorApiKey: Config.redacted("SHOPLINK_VENDOR_API_KEY"),
        requestTimeout: Config.duration("SHOPLINK_PUNCHOUT_REQUEST_TIMEOUT"),
        retry: {
          maxAttempts: Config.integer("SHOPLINK_PUNCHOUT_RETRY_MAX_ATTEMPTS"),
          baseDelay: Config.duration("SHOPLINK_PUNCHOUT_RETRY_BASE_DELAY")
        }
      }).pipe(Layer.provide(NodeHttpClient.layerUndici))
      const error = yield* Effect.flatMap(
        PunchoutClient.PunchoutClient,
        (client) =>
          Effect.flip(client.getProductQuotes(sessionFor(server.url), { searchTerm: "oil filter", quantity: 1 }))
      ).pipe(
        Effect.provide(live),
        Effect.withConfigProvider(config)
      )
      expect(error._tag).toBe("SomethingWentWrong")
      expect(server.count()).toBe(2)
      const missing = yield* Effect.flip(
        Layer.build(live).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map())))
      )
      expect(String(missing)).toContain("SHOPLINK_PUNCHOUT_BASE_URL")
    }))
})
