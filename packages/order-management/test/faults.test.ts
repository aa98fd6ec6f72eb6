// Fault cases the sandbox cannot produce, on a bare node:http server: what is retried, how often,
// and what is never retried.
import { describe, expect, it } from "@effect/vitest"
import { HttpClient } from "@effect/platform"
import { Deferred, Duration, Effect, Exit, Fiber, Queue, TestClock } from "effect"
import { OrderManagementError } from "../src/index.js"
import { closedPort, envelope, ok, startFaultServer } from "./support/FaultServer.js"
import { makeClient, order } from "./support/client.js"

const locked = envelope("API0258", "Order is locked by another job")
const orderDetails = ok({ customerAccountNo: "100200", orderHeader: { orderNo: "5000123" }, orderLines: [] })

describe("retries", () => {
  it.scopedLive("order locked is retried with backoff until it succeeds", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer((_, n) => ({ json: n <= 2 ? locked : orderDetails }))
      const { oms } = yield* makeClient(server.url)
      const response = yield* oms.orderDetails({ orderNo: "5000123" })
      expect(response.orderHeader.orderNo).toBe("5000123")
      expect(server.requests).toHaveLength(3)
    }))

  it.scopedLive("order in use is retried, then fails with OrderInUse after maxAttempts", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({
        status: 409,
        json: envelope("API0273", "Order is in use, no change is allowed", 409)
      }))
      const { oms } = yield* makeClient(server.url, { retry: { maxAttempts: 3, baseDelay: "1 millis" } })
      const error = yield* Effect.flip(oms.orderDetails({ orderNo: "5000123" }))
      expect(error._tag).toBe("OrderInUse")
      expect(error.retryClass).toBe("retryable")
      expect(server.requests).toHaveLength(3)
    }))

  it.scopedLive("API0208 (monthly allowance) is a quota error sent exactly once", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({
        status: 429,
        headers: { "retry-after": "1" },
        json: envelope("API0208", "You exceeded use limit for the month", 429)
      }))
      const { oms } = yield* makeClient(server.url)
      const error = yield* Effect.flip(oms.orderDetails({ orderNo: "5000123" }))
      expect(error._tag).toBe("MonthlyLimitExceeded")
      expect(error.retryClass).toBe("quota")
      expect(server.requests).toHaveLength(1)
    }))

  it.scopedLive("a 503 page on a read is retried up to maxAttempts", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({ status: 503, text: "<html>unavailable</html>" }))
      const { oms } = yield* makeClient(server.url, { retry: { maxAttempts: 3, baseDelay: "1 millis" } })
      const error = yield* Effect.flip(oms.orderDetails({ orderNo: "5000123" }))
      expect(error._tag).toBe("UnexpectedResponse")
      expect(server.requests).toHaveLength(3)
    }))

  it.scopedLive("API0500 on a read is retried and then succeeds", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer((_, n) =>
        n === 1
          ? { status: 500, json: envelope("API0500", "Something went wrong, that's all we know", 500) }
          : { json: orderDetails }
      )
      const { oms } = yield* makeClient(server.url)
      yield* oms.orderDetails({ orderNo: "5000123" })
      expect(server.requests).toHaveLength(2)
    }))

  it.scopedLive("invalid input and state errors are not retried", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({
        status: 409,
        json: envelope("API0247", "Order has already been submitted", 409)
      }))
      const { oms } = yield* makeClient(server.url)
      const error = yield* Effect.flip(oms.orderDetails({ orderNo: "5000123" }))
      expect(error._tag).toBe("OrderAlreadySubmitted")
      expect(server.requests).toHaveLength(1)
    }))

  it.scopedLive("a host name that does not resolve is HostNotFound, retried as never sent, for createOrder too", () =>
    Effect.gen(function*() {
      const { attempts, oms } = yield* makeClient("http://shoplink-nonexistent.invalid", {
        retry: { maxAttempts: 3, baseDelay: "1 millis" }
      })
      const read = yield* Effect.flip(oms.orderDetails({ orderNo: "5000123" }))
      expect(read._tag === "RequestFailed" && [read.reason, read.detail]).toEqual(["HostNotFound", "ENOTFOUND"])
      expect(read.message).not.toContain("SECRET")
      const create = yield* Effect.flip(oms.createOrder(order))
      expect(create._tag === "RequestFailed" && create.reason).toBe("HostNotFound")
      expect(attempts.count).toBe(6)
    }))

  it.scopedLive("connection refused is retried, for createOrder too (the server never saw it)", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const { attempts, oms } = yield* makeClient(`http://127.0.0.1:${port}`, {
        retry: { maxAttempts: 3, baseDelay: "1 millis" }
      })
      const read = yield* Effect.flip(oms.orderDetails({ orderNo: "5000123" }))
      expect(read._tag === "RequestFailed" && read.reason).toBe("ConnectionRefused")
      expect(attempts.count).toBe(3)
      const create = yield* Effect.flip(oms.createOrder(order))
      expect(create._tag === "RequestFailed" && create.reason).toBe("ConnectionRefused")
      expect(attempts.count).toBe(6)
    }))
})

// API0258 means the server refused the request (another job holds the order): nothing happened,
// so a bounded retry is safe for createOrder too.
describe("createOrder retries a busy refusal (API0258 order locked)", () => {
  it.scopedLive("API0258, then success → 2 requests and the order", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer((_, n) => ({
        json: n === 1 ? locked : ok({ orderHeader: { orderNo: "5000124" } })
      }))
      const { oms } = yield* makeClient(server.url)
      const created = yield* oms.createOrder(order)
      expect(created.orderHeader.orderNo).toBe("5000124")
      expect(server.requests).toHaveLength(2)
    }))

  it.scopedLive("API0258 on every attempt → maxAttempts requests, then OrderLocked", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({ json: locked }))
      const { oms } = yield* makeClient(server.url, { retry: { maxAttempts: 3, baseDelay: "1 millis" } })
      const error = yield* Effect.flip(oms.createOrder(order))
      expect(error._tag).toBe("OrderLocked")
      expect(server.requests).toHaveLength(3)
    }))
})

describe("createOrder is never retried once the request may have reached the server", () => {
  it.scopedLive("503 → exactly 1 request", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({ status: 503, text: "Service Unavailable" }))
      const { oms } = yield* makeClient(server.url)
      const error = yield* Effect.flip(oms.createOrder(order))
      expect(error._tag).toBe("UnexpectedResponse")
      expect(error._tag === "UnexpectedResponse" && error.httpStatus).toBe(503)
      expect(server.requests).toHaveLength(1)
    }))

  it.scopedLive("an unknown message ID on a 429 → exactly 1 request", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({ status: 429, json: envelope("API0999", "Slow down", 429) }))
      const { oms } = yield* makeClient(server.url)
      const error = yield* Effect.flip(oms.createOrder(order))
      expect(error._tag).toBe("UnknownMessage")
      expect(server.requests).toHaveLength(1)
    }))

  it.scoped("timeout → exactly 1 request", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => "hang")
      const { oms } = yield* makeClient(server.url, { timeout: "5 seconds" })
      const fiber = yield* Effect.fork(oms.createOrder(order))
      yield* Queue.take(server.arrivals)
      yield* TestClock.adjust("5 seconds")
      const exit = yield* Fiber.await(fiber)
      expect(Exit.isFailure(exit)).toBe(true)
      const error = yield* Effect.flip(exit)
      expect(error._tag).toBe("Timeout")
      expect(server.requests).toHaveLength(1)
    }))

  it.scoped("the timeout also covers a body that stalls after the headers", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({ partial: "{\"status\":" }))
      const headersIn = yield* Deferred.make<void>()
      const { oms } = yield* makeClient(server.url, {
        timeout: "5 seconds",
        retry: { maxAttempts: 1 },
        transformClient: HttpClient.tap(() => Deferred.succeed(headersIn, undefined))
      })
      const fiber = yield* Effect.fork(oms.orderDetails({ orderNo: "5000123" }))
      yield* Deferred.await(headersIn)
      yield* TestClock.adjust("5 seconds")
      const error = yield* Effect.flip(Fiber.join(fiber))
      expect(error._tag).toBe("Timeout")
      expect(server.requests).toHaveLength(1)
    }))

  it.scoped("a read that times out is retried", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer((_, n) => n === 1 ? "hang" : { json: orderDetails })
      const { oms } = yield* makeClient(server.url, { timeout: "5 seconds" })
      const fiber = yield* Effect.fork(oms.orderDetails({ orderNo: "5000123" }))
      yield* Queue.take(server.arrivals)
      yield* TestClock.adjust("5 seconds")
      // The backoff (at most maxDelay = 2 ms) is the only thing the client waits on now.
      yield* waitForSleep
      yield* TestClock.adjust("2 millis")
      const response = yield* Fiber.join(fiber)
      expect(response.orderHeader.orderNo).toBe("5000123")
      expect(server.requests).toHaveLength(2)
    }))
})

// Waits until the client has registered a sleep on the TestClock (its backoff).
const waitForSleep: Effect.Effect<ReadonlyArray<number>> = Effect.gen(function*() {
  for (;;) {
    const sleeps = yield* TestClock.sleeps()
    if (sleeps.length > 0) return Array.from(sleeps)
    yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
  }
})

describe("Retry-After", () => {
  it.scoped("is honoured: the retry waits the server's delay, not the shorter backoff", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer((_, n) =>
        n === 1 ? { status: 429, headers: { "retry-after": "10" }, text: "slow down" } : { json: orderDetails }
      )
      const { oms } = yield* makeClient(server.url, { timeout: Duration.infinity })
      const fiber = yield* Effect.fork(oms.orderDetails({ orderNo: "5000123" }))
      const [deadline] = yield* waitForSleep
      const now = yield* TestClock.currentTimeMillis
      expect((deadline ?? 0) - now).toBe(10_000)
      yield* TestClock.adjust("10 seconds")
      yield* Fiber.join(fiber)
      expect(server.requests).toHaveLength(2)
    }))

  it.scopedLive("longer than the cap ends the retries at once, the delay on the error", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({
        status: 503,
        headers: { "retry-after": "3600" },
        text: "maintenance"
      }))
      const { oms } = yield* makeClient(server.url, { retry: { retryAfterCap: "30 seconds" } })
      const error = yield* Effect.flip(oms.orderDetails({ orderNo: "5000123" }))
      expect(error._tag).toBe("UnexpectedResponse")
      expect(error._tag === "UnexpectedResponse" && error.retryAfter && Duration.toMillis(error.retryAfter)).toBe(
        3_600_000
      )
      expect(server.requests).toHaveLength(1)
    }))

  it.scopedLive("a 429 with Retry-After: 3600 fails RateLimited with retryAfter 1 hour after 1 request", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({
        status: 429,
        headers: { "retry-after": "3600" },
        text: "slow down"
      }))
      const { oms } = yield* makeClient(server.url)
      const error = yield* Effect.flip(oms.orderDetails({ orderNo: "5000123" }))
      expect(error).toBeInstanceOf(OrderManagementError.RateLimited)
      if (error._tag !== "RateLimited") return
      expect(error.retryAfter && Duration.toMillis(error.retryAfter)).toBe(3_600_000)
      expect([error.httpStatus, error.retryClass]).toEqual([429, "retryable"])
      expect(error.message).toContain("retry after 1h")
      expect(error.message).not.toContain("SECRET")
      expect(server.requests).toHaveLength(1)
    }))

  it.scopedLive("a 429 without Retry-After is retried up to maxAttempts and ends as RateLimited", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({ status: 429, text: "" }))
      const { oms } = yield* makeClient(server.url, { retry: { maxAttempts: 3, baseDelay: "1 millis" } })
      const error = yield* Effect.flip(oms.orderDetails({ orderNo: "5000123" }))
      expect(error._tag === "RateLimited" && error.retryAfter).toBeUndefined()
      expect(error._tag).toBe("RateLimited")
      expect(server.requests).toHaveLength(3)
    }))
})
