import { HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Either, Fiber, Layer, Redacted, TestClock } from "effect"
import { SANDBOX_CREDENTIALS, SANDBOX_FIXTURES, startSandbox } from "@shoplink/sandbox"
import { PunchoutClient, type PunchoutSession, SessionPool, ShowUrls } from "../src/index.js"

const us = SANDBOX_CREDENTIALS.customers.us
const customer: PunchoutSession.Customer = {
  accountNo: us.accountNo,
  username: us.username,
  country: "US",
  apiToken: Redacted.make(us.apiToken)
}
const sessionOptions: PunchoutSession.CreateSessionOptions = {
  smsVendorName: "Acme SMS",
  referenceID: "RO-1042",
  webhooks: { order: "http://127.0.0.1:9/hooks/order", quote: "http://127.0.0.1:9/hooks/quote" }
}
const { lowStock, oilFilter } = SANDBOX_FIXTURES.products
const vehicle = SANDBOX_FIXTURES.vehicles[0]!

/**
 * The sandbox on a TestClock set to a real date (so session expirations agree with the pool's
 * clock), the client with its requests counted through the `transformClient` hook, and a pool.
 */
const setup = Effect.gen(function*() {
  yield* TestClock.setTime(Date.UTC(2026, 5, 1, 14, 0, 0))
  const sandbox = yield* startSandbox()
  const sent: Array<string> = []
  const clientLayer = PunchoutClient.layer({
    baseUrl: sandbox.url,
    vendorApiKey: Redacted.make(SANDBOX_CREDENTIALS.vendorApiKey),
    retry: { maxAttempts: 3, baseDelay: 0, maxDelay: 0 },
    transformClient: HttpClient.tapRequest((request) =>
      Effect.sync(() => {
        sent.push(new URL(request.url).pathname.split("/").pop() ?? "")
      })
    )
  }).pipe(Layer.provide(NodeHttpClient.layerUndici))
  const layer = SessionPool.layer({ session: sessionOptions }).pipe(Layer.provideMerge(clientLayer))
  const context = yield* Layer.build(layer)
  const client = yield* Effect.provide(PunchoutClient.PunchoutClient, context)
  const pool = yield* Effect.provide(SessionPool.SessionPool, context)
  return { sandbox, client, pool, count: (command: string) => sent.filter((c) => c === command).length }
})

const page = (url: Either.Either<Redacted.Redacted<string>, unknown>) =>
  Effect.promise(async () => {
    if (Either.isLeft(url)) throw new Error(`no URL: ${String(url.left)}`)
    const response = await fetch(Redacted.value(url.right))
    return { status: response.status, html: await response.text() }
  })

const testid = (html: string, id: string) => new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1]

describe("against the sandbox", () => {
  it.scoped("createSession grants a 12-hour session; a wrong token answers Unauthorized", () =>
    Effect.gen(function*() {
      const { client } = yield* setup
      const session = yield* client.createSession(customer, sessionOptions)
      const now = yield* DateTime.now
      expect(DateTime.distance(now, session.expiresAt)).toBe(12 * 3600_000)
      expect(Redacted.value(session.urlTemplate)).toContain("{command}")
      const error = yield* Effect.flip(
        client.createSession({ ...customer, apiToken: Redacted.make("wrong") }, sessionOptions)
      )
      expect(error._tag).toBe("Unauthorized")
    }))

  it.scoped("GetProductQuotes searches and prices an exact product", () =>
    Effect.gen(function*() {
      const { client, pool } = yield* setup
      const session = yield* pool.get(customer)
      const search = yield* client.getProductQuotes(session, {
        searchTerm: "oil filter",
        quantity: 1,
        referenceID: "RO-7"
      })
      expect(search.quotes.length).toBeGreaterThan(0)
      const exact = yield* client.getProductQuotes(session, { ...oilFilter, quantity: 2 })
      expect(exact.quotes.map((q) => [q.productID, q.brandID, q.quantityReq])).toEqual([[
        oilFilter.productID,
        oilFilter.brandID,
        2
      ]])
    }))

  it.scoped("CreateOrder (both shapes), SubmitOrder, and the errors the sandbox answers", () =>
    Effect.gen(function*() {
      const { client, pool } = yield* setup
      const session = yield* pool.get(customer)
      const single = yield* client.createOrder(session, { ...oilFilter, quantity: 1, comment: "PO 77" })
      expect(single.order.status).toBe("0")
      expect(single.order.orderLines.map((l) => l.productID)).toEqual([oilFilter.productID])
      const multiple = yield* client.createOrder(session, {
        referenceID: "RO-2",
        quotes: [{ ...oilFilter, quantity: 1 }, { ...lowStock, quantity: 1 }]
      })
      expect(multiple.order.orderLines).toHaveLength(2)
      const submitted = yield* client.submitOrder(session, { orderID: single.order.orderID })
      expect(submitted.order.status).toBe("3")
      const again = yield* Effect.flip(client.submitOrder(session, { orderID: single.order.orderID }))
      expect(again._tag).toBe("OrderAlreadySubmitted")
      const missing = yield* Effect.flip(client.submitOrder(session, { orderID: "99999999" }))
      expect(missing._tag).toBe("OrderNotFound")
      const tooMany = yield* Effect.flip(client.createOrder(session, { ...lowStock, quantity: 50 }))
      expect(tooMany._tag).toBe("QuantityNotAvailable")
    }))

  it.scoped("ReserveOrder re-reserves an expired order and keeps the comment (TestClock)", () =>
    Effect.gen(function*() {
      const { client, count, pool } = yield* setup
      const created = yield* pool.withSession(
        customer,
        (session) => client.createOrder(session, { ...oilFilter, quantity: 1 })
      )
      yield* TestClock.adjust("2 days")
      // the first session has expired too: the pool creates a new one
      const reserved = yield* pool.withSession(
        customer,
        (session) => client.reserveOrder(session, { orderID: created.order.orderID, comment: "PO 88" })
      )
      expect(reserved.order.status).toBe("0")
      expect(reserved.order.comment).toBe("PO 88")
      expect(count("create")).toBe(2)
    }))

  it.scoped("the pool reuses the session, refreshes it near expiry, and recovers from a 401 (TestClock)", () =>
    Effect.gen(function*() {
      const { client, count, pool, sandbox } = yield* setup
      const quotes = () =>
        pool.withSession(
          customer,
          (session) => client.getProductQuotes(session, { searchTerm: "oil filter", quantity: 1 })
        )
      yield* quotes()
      yield* quotes()
      expect(count("create")).toBe(1)
      yield* TestClock.adjust("11 hours")
      yield* quotes()
      expect(count("create")).toBe(1)
      yield* TestClock.adjust("56 minutes") // inside the 5-minute margin
      yield* quotes()
      expect(count("create")).toBe(2)
      // the sandbox's own clock moves on, so the session ends early: 401, then one re-create
      yield* sandbox.admin.advanceClock("13 hours")
      const before = count("GetProductQuotes")
      yield* quotes()
      expect(count("create")).toBe(3)
      expect(count("GetProductQuotes")).toBe(before + 2)
    }))

  it.scoped("single flight: 50 concurrent callers make exactly one create request", () =>
    Effect.gen(function*() {
      const { count, pool } = yield* setup
      const fiber = yield* Effect.fork(
        Effect.forEach(Array.from({ length: 50 }), () => pool.get(customer), { concurrency: "unbounded" })
      )
      const sessions = yield* Fiber.join(fiber)
      expect(new Set(sessions.map((s) => Redacted.value(s.token))).size).toBe(1)
      expect(count("create")).toBe(1)
    }))

  it.scoped("retries an injected 503 on GetProductQuotes and never retries it on CreateOrder", () =>
    Effect.gen(function*() {
      const { client, count, pool, sandbox } = yield* setup
      const session = yield* pool.get(customer)
      yield* sandbox.admin.injectFault({ kind: "httpStatus", endpoint: "GetProductQuotes", status: 503, times: 1 })
      yield* client.getProductQuotes(session, { ...oilFilter, quantity: 1 })
      expect(count("GetProductQuotes")).toBe(2)
      yield* sandbox.admin.injectFault({ kind: "httpStatus", endpoint: "CreateOrder", status: 503, times: 1 })
      const error = yield* Effect.flip(client.createOrder(session, { ...oilFilter, quantity: 1 }))
      expect(error._tag).toBe("UnexpectedResponse")
      expect(count("CreateOrder")).toBe(1)
    }))

  it.scoped("the ShowCatalog URL opens a page that searched for that vehicle", () =>
    Effect.gen(function*() {
      const { pool } = yield* setup
      const session = yield* pool.get(customer)
      const byVin = yield* page(
        ShowUrls.showCatalogUrl(session, { searchTerm: "oil filter", vin: vehicle.vin, referenceID: "WO-5" })
      )
      expect(byVin.status).toBe(200)
      expect(testid(byVin.html, "vehicle")).toContain(`${vehicle.year} ${vehicle.make} ${vehicle.model}`)
      expect(testid(byVin.html, "vehicle")).toContain(vehicle.vin)
      expect(testid(byVin.html, "search-term")).toBe("oil filter")
      expect(byVin.html).toMatch(/data-testid="result" data-product-id="[^"]+" data-brand-id="[^"]+"/)
      expect(testid(byVin.html, "footer")).toContain("Acme SMS")

      const byPlate = yield* page(ShowUrls.showCatalogUrl(session, {
        searchTerm: "oil filter",
        licensePlate: vehicle.licensePlate,
        licensePlateState: vehicle.licensePlateState
      }))
      expect(testid(byPlate.html, "vehicle")).toContain(vehicle.licensePlate)
      const byBase = yield* page(
        ShowUrls.showCatalogUrl(session, { searchTerm: "oil filter", baseVehicleID: vehicle.baseVehicleID })
      )
      expect(testid(byBase.html, "vehicle")).toContain(vehicle.baseVehicleID)
    }))

  it.scoped("the ShowOrder URL opens the order", () =>
    Effect.gen(function*() {
      const { client, pool } = yield* setup
      const session = yield* pool.get(customer)
      const created = yield* client.createOrder(session, { ...oilFilter, quantity: 1 })
      const shown = yield* page(ShowUrls.showOrderUrl(session, { orderId: created.order.orderID }))
      expect(shown.status).toBe(200)
      expect(testid(shown.html, "order-id")).toBe(created.order.orderID)
    }))
})
