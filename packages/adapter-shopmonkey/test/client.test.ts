import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, TestClock } from "effect"
import { ShopmonkeyClient, ShopmonkeyError } from "../src/index.js"
import { FAKE_SHOPMONKEY_FIXTURES, startFakeShopmonkey } from "../src/testing.js"
import { awaitSleep, captureLogs, clientLayer, driveClock } from "./support.js"

const withClient = <A, E>(
  fake: Parameters<typeof clientLayer>[0],
  f: (client: ShopmonkeyClient.Service) => Effect.Effect<A, E>,
  options: Partial<ShopmonkeyClient.Options> = {}
) => Effect.flatMap(ShopmonkeyClient.ShopmonkeyClient, f).pipe(Effect.provide(clientLayer(fake, options)))

const failureOf = <A>(exit: Exit.Exit<A, ShopmonkeyError.ShopmonkeyError>) => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined
  if (failure === undefined) throw new Error(`expected a typed failure, got ${String(exit.cause)}`)
  return failure
}

describe("pagination", () => {
  it.scoped("follows meta.hasMore with limit capped at 100", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey({ extraOrders: 245 })
      const orders = yield* withClient(fake, (client) => client.listOrders({ pageSize: 500 }))
      expect(orders).toHaveLength(250)
      expect(new Set(orders.map((o) => o.id)).size).toBe(250)
      const pages = fake.requests().filter((r) => r.path === "/v3/order")
      expect(pages.map((r) => [r.query.limit, r.query.skip])).toEqual([["100", "0"], ["100", "100"], ["100", "200"]])
    }))

  it.scoped("uses the requested page size below the cap", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey({ extraOrders: 35 })
      const orders = yield* withClient(fake, (client) => client.listOrders({ pageSize: 15 }))
      expect(orders.map((o) => o.id).slice(0, 5)).toEqual(
        Object.values(FAKE_SHOPMONKEY_FIXTURES.orders).map((o) => o.id)
      )
      expect(orders).toHaveLength(40)
      expect(fake.requests().map((r) => r.query.skip)).toEqual(["0", "15", "30"])
    }))

  it.scoped("a single page reports hasMore and total", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey({ extraOrders: 200 })
      const page = yield* withClient(fake, (client) => client.listOrdersPage({ limit: 1000, skip: 180 }))
      expect(fake.requests()[0]?.query.limit).toBe("100")
      expect(page.data).toHaveLength(25)
      expect(page.meta).toEqual({ hasMore: false, total: 205 })
    }))

  it.scoped("sends where as JSON", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const vendors = yield* withClient(fake, (client) => client.listVendors({ where: { name: "Worldpac" } }))
      expect(vendors).toEqual([{ id: "ven_worldpac", name: "Worldpac" }])
      expect(JSON.parse(fake.requests()[0]?.query.where ?? "null")).toEqual({ name: "Worldpac" })
    }))
})

describe("429 and retries", () => {
  it.scoped("waits exactly Retry-After before each retry", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      fake.inject429(2, 7)
      const fiber = yield* Effect.fork(withClient(fake, (client) => client.getOrder("ord_1042")))
      for (let n = 1; n <= 2; n++) {
        const [wake] = yield* awaitSleep
        const now = yield* TestClock.currentTimeMillis
        expect(wake! - now).toBe(7000)
        expect(fake.requests()).toHaveLength(n)
        yield* TestClock.adjust(6999)
        expect(fake.requests()).toHaveLength(n)
        yield* TestClock.adjust(1)
      }
      const order = yield* Fiber.join(fiber)
      expect(order.number).toBe(1042)
      expect(fake.requests().map((r) => r.status)).toEqual([429, 429, 200])
    }))

  it.scoped("gives up after maxAttempts with a retryable error", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      fake.inject429(10, 1)
      const { exit, slept } = yield* driveClock(withClient(fake, (c) => c.getOrder("ord_1042"), { maxAttempts: 3 }))
      const error = failureOf(exit)
      expect(error.status).toBe(429)
      expect(error.attempts).toBe(3)
      expect(error.retryable).toBe(true)
      expect(error.retryAfterMillis).toBe(1000)
      expect(slept).toEqual([1000, 1000])
      expect(fake.requests()).toHaveLength(3)
    }))

  it.scoped("does not wait for a Retry-After beyond maxRetryAfter", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      fake.inject429(1, 600)
      const { exit, slept } = yield* driveClock(withClient(fake, (c) => c.getOrder("ord_1042")))
      const error = failureOf(exit)
      expect(error.retryAfterMillis).toBe(600_000)
      expect(error.retryable).toBe(true)
      expect(slept).toEqual([])
      expect(fake.requests()).toHaveLength(1)
    }))

  it.scoped("retries a read after a 503 with bounded backoff", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      fake.injectUnavailable(2)
      const { exit, slept } = yield* driveClock(
        withClient(fake, (c) => c.getVehicle("veh_ford_f150"), { baseDelay: "100 millis" })
      )
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(slept).toHaveLength(2)
      expect(slept[0]).toBeGreaterThanOrEqual(50)
      expect(slept[0]).toBeLessThanOrEqual(100)
      expect(slept[1]).toBeGreaterThanOrEqual(100)
      expect(slept[1]).toBeLessThanOrEqual(200)
    }))

  it.scoped("never repeats a create after a 503, but does after a 429", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      fake.injectUnavailable(1)
      const first = yield* driveClock(withClient(fake, (c) => c.createVendor({ name: "Parts Hub" })))
      expect(failureOf(first.exit).status).toBe(503)
      expect(failureOf(first.exit).attempts).toBe(1)
      fake.inject429(1, 2)
      const second = yield* driveClock(withClient(fake, (c) => c.createVendor({ name: "Parts Hub" })))
      expect(Exit.isSuccess(second.exit)).toBe(true)
      expect(second.slept).toEqual([2000])
      expect(fake.store.vendors().filter((v) => v.name === "Parts Hub")).toHaveLength(1)
    }))
})

describe("authentication and errors", () => {
  it.scoped("sends the key as a Bearer token on every request", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      yield* withClient(fake, (c) => Effect.all([c.getOrder("ord_1042"), c.listServices("ord_1042"), c.listVendors()]))
      expect(fake.requests()).toHaveLength(3)
      expect(fake.requests().every((r) => r.bearer && r.authorized)).toBe(true)
    }))

  it.scoped("the key appears in no error or log line, retries included", () =>
    Effect.gen(function*() {
      const secret = "sm-live-key-do-not-print-8f2c"
      const fake = yield* startFakeShopmonkey({ apiKey: secret })
      const logs = captureLogs()
      fake.inject429(1, 1)
      const retried = yield* driveClock(
        withClient(fake, (c) => c.getOrder("ord_1042")).pipe(Effect.provide(logs.layer))
      )
      expect(Exit.isSuccess(retried.exit)).toBe(true)
      const wrong = yield* driveClock(
        withClient({ ...fake, apiKey: "sm-wrong-key-0000" }, (c) => c.getOrder("ord_1042")).pipe(
          Effect.tapErrorCause((cause) => Effect.logError("call failed", cause)),
          Effect.provide(logs.layer)
        )
      )
      const error = failureOf(wrong.exit)
      expect(error.status).toBe(401)
      expect(error.retryable).toBe(false)
      expect(error.attempts).toBe(1)
      expect(fake.requests().map((r) => [r.bearer, r.authorized, r.status])).toEqual([
        [true, true, 429],
        [true, true, 200],
        [true, false, 401]
      ])
      expect(logs.lines.some((line) => line.includes("retried"))).toBe(true)
      const printed = [error.message, JSON.stringify(error), String(error), ...logs.lines].join("\n")
      expect(printed).not.toContain(secret)
      expect(printed).not.toContain("sm-wrong-key-0000")
    }))

  it.scoped("404 is reported as notFound", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const exit = yield* Effect.exit(withClient(fake, (c) => c.getOrder("ord_missing")))
      const error = failureOf(exit)
      expect(error.notFound).toBe(true)
      expect(error.retryable).toBe(false)
      expect(error.message).toContain("GET /order/ord_missing")
    }))
})
