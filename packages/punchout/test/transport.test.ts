// The client over @shoplink/http-node's UndiciHttpClient, the recommended Node transport: the
// sandbox round trip, and the failures whose handling depends on what the transport reports
// (a refused connection, a reset, a timeout that must abort the request), plus spans.
import { describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@shoplink/http-node"
import { SANDBOX_CREDENTIALS, SANDBOX_FIXTURES, startSandbox } from "@shoplink/sandbox"
import { HttpClient } from "@effect/platform"
import { Effect, Fiber, Layer, Redacted, Supervisor, TestClock, Tracer } from "effect"
import { PunchoutClient } from "../src/index.js"
import {
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
  SESSION_TOKEN,
  sessionFor
} from "./support/faultServer.js"

const over = (baseUrl: string, options: Partial<PunchoutClient.PunchoutClientOptions> = {}) =>
  clientLayer(baseUrl, options, UndiciHttpClient.layer)

const quotesOk: Handler = (_req, res) => json(res, 200, { ...envelope(200, "Success"), quotes: [quoteLine()] })
const then = (first: Handler, rest: Handler): Handler => (req, res, n) => (n === 1 ? first : rest)(req, res, n)

describe("PunchoutClient over UndiciHttpClient", () => {
  it.scoped("creates a session and prices and orders against the sandbox", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const us = SANDBOX_CREDENTIALS.customers.us
      const layer = PunchoutClient.layer({
        baseUrl: sandbox.url,
        vendorApiKey: Redacted.make(SANDBOX_CREDENTIALS.vendorApiKey)
      }).pipe(Layer.provide(UndiciHttpClient.layer))
      const { quotes, order } = yield* Effect.gen(function*() {
        const client = yield* PunchoutClient.PunchoutClient
        const session = yield* client.createSession(
          { accountNo: us.accountNo, username: us.username, country: "US", apiToken: Redacted.make(us.apiToken) },
          { smsVendorName: "Acme SMS", webhooks: { order: "http://127.0.0.1:9/o", quote: "http://127.0.0.1:9/q" } }
        )
        const { oilFilter } = SANDBOX_FIXTURES.products
        const quotes = yield* client.getProductQuotes(session, { ...oilFilter, quantity: 2 })
        const order = yield* client.createOrder(session, { ...oilFilter, quantity: 2, comment: "PO 77" })
        return { quotes, order }
      }).pipe(Effect.provide(layer))
      expect(quotes.quotes[0]?.productID).toBe(SANDBOX_FIXTURES.products.oilFilter.productID)
      expect(order.order.orderID).toMatch(/^\d+$/)
    }))

  it.scoped("a refused connection is ConnectionRefused, never sent: CreateOrder tries every attempt", () =>
    Effect.gen(function*() {
      const url = `http://127.0.0.1:${yield* closedPort}`
      const error = yield* Effect.flatMap(
        PunchoutClient.PunchoutClient,
        (client) =>
          Effect.flip(client.createOrder(sessionFor(url), { productID: "51515", brandID: "WIX", quantity: 1 }))
      ).pipe(
        Effect.provide(over(url))
      )
      expect(error._tag === "RequestFailed" && [error.reason, error.requestSent, error.attempt])
        .toEqual(["ConnectionRefused", false, 3])
      expect(error.message).not.toContain(SESSION_TOKEN)
    }))

  it.scoped("a reset is retried for GetProductQuotes and not for CreateOrder", () =>
    Effect.gen(function*() {
      const quotesServer = yield* faultServer(then((_q, res) => reset(res), quotesOk))
      const quotes = yield* Effect.flatMap(PunchoutClient.PunchoutClient, (client) =>
        client.getProductQuotes(sessionFor(quotesServer.url), { searchTerm: "oil filter", quantity: 1 })).pipe(
          Effect.provide(over(quotesServer.url))
        )
      expect(quotes.quotes).toHaveLength(1)
      expect(quotesServer.count()).toBe(2)

      const orderServer = yield* faultServer(then((_q, res) =>
        reset(res), (_q, res) =>
        json(res, 200, { ...envelope(200, "Success"), order: order() })))
      const error = yield* Effect.flatMap(PunchoutClient.PunchoutClient, (client) =>
        Effect.flip(
          client.createOrder(sessionFor(orderServer.url), { productID: "51515", brandID: "WIX", quantity: 1 })
        )).pipe(
          Effect.provide(over(orderServer.url))
        )
      expect(error._tag === "RequestFailed" && [error.reason, error.requestSent]).toEqual(["Transport", true])
      expect(orderServer.count()).toBe(1)
    }))

  it.scoped("an HTML 502 from a gateway is retried", () =>
    Effect.gen(function*() {
      const server = yield* faultServer(then((_q, res) => htmlPage(res, 502), quotesOk))
      const quotes = yield* Effect.flatMap(PunchoutClient.PunchoutClient, (client) =>
        client.getProductQuotes(sessionFor(server.url), { searchTerm: "oil filter", quantity: 1 })).pipe(
          Effect.provide(over(server.url))
        )
      expect(quotes.quotes).toHaveLength(1)
      expect(server.count()).toBe(2)
    }))

  it.effect("an attempt that times out (TestClock) aborts its request: the server sees the socket close", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* faultServer(() => {
        // never answers
      })
      const fiber = yield* Effect.flatMap(
        PunchoutClient.PunchoutClient,
        (client) => Effect.flip(client.submitOrder(sessionFor(server.url), { orderID: "10423" }))
      ).pipe(
        Effect.provide(over(server.url, { requestTimeout: "10 seconds" })),
        Effect.fork
      )
      yield* server.arrived(1)
      yield* TestClock.adjust("10 seconds")
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("Timeout")
      yield* server.closed(1)
      expect(server.count()).toBe(1)
    })))

  it.live("an attempt that times out on the live Clock aborts its request on the wire, forking no fiber", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* faultServer(() => {
        // never answers
      })
      const supervisor = new CountingSupervisor()
      const error = yield* Effect.flatMap(
        PunchoutClient.PunchoutClient,
        (client) => Effect.flip(client.submitOrder(sessionFor(server.url), { orderID: "10423" }))
      ).pipe(
        Effect.provide(over(server.url, { requestTimeout: "300 millis" })),
        Effect.supervised(supervisor)
      )
      expect(error._tag === "Timeout" && error.attempt).toBe(1)
      yield* server.closed(1)
      // SubmitOrder may have acted: never retried after a timeout.
      expect(server.count()).toBe(1)
      // The deadline is one timer enforced by the transport: no fiber per attempt.
      expect(supervisor.started).toBe(0)
    })))

  it.scoped("an interrupted caller aborts its request: the server sees the socket close", () =>
    Effect.gen(function*() {
      const server = yield* faultServer(() => {
        // never answers
      })
      const fiber = yield* Effect.flatMap(PunchoutClient.PunchoutClient, (client) =>
        client.getProductQuotes(sessionFor(server.url), { searchTerm: "oil filter", quantity: 1 })).pipe(
          Effect.provide(over(server.url, { requestTimeout: "1 minute" })),
          Effect.fork
        )
      yield* server.arrived(1)
      yield* Fiber.interrupt(fiber)
      yield* server.closed(1)
      expect(server.count()).toBe(1)
    }))

  it.scoped("spans, with a tracer provided: one per command, its attempts as events, nothing from the transport, no token", () =>
    Effect.gen(function*() {
      const server = yield* faultServer(then((_q, res) => htmlPage(res, 503), quotesOk))
      const spans: Array<Tracer.Span & { readonly events: ReadonlyArray<[string, bigint, Record<string, unknown>]> }> =
        []
      const base = yield* Effect.tracer
      const recording = Tracer.make({
        context: base.context,
        span: (...args) => {
          const span = base.span(...args)
          spans.push(span as (typeof spans)[number])
          return span
        }
      })
      yield* Effect.flatMap(
        PunchoutClient.PunchoutClient,
        (client) =>
          client.getProductQuotes(sessionFor(server.url), {
            searchTerm: "oil filter",
            quantity: 1,
            referenceID: "RO-9"
          })
      ).pipe(
        Effect.provide(over(server.url)),
        Effect.withTracer(recording)
      )
      expect(spans.map((s) => s.name)).toEqual(["PunchoutClient.GetProductQuotes"])
      const [command] = spans
      expect(command?.kind).toBe("client")
      expect(command?.attributes.get("punchout.attempts")).toBe(2)
      expect(command?.attributes.get("punchout.referenceID")).toBe("RO-9")
      expect(
        command?.events.map((
          [name, , attributes]
        ) => [
          name,
          attributes["punchout.attempt"],
          attributes["punchout.outcome"] ?? "",
          attributes["http.response.status_code"] ?? ""
        ])
      )
        .toEqual([["attempt", 1, "UnexpectedResponse", 503], ["retry", 1, "", ""], ["attempt", 2, "ok", 200]])
      expect(command?.status._tag).toBe("Ended")
      expect(
        JSON.stringify(
          spans.map((s) => [s.name, [...s.attributes], s.events]),
          (_, v) => typeof v === "bigint" ? String(v) : v
        )
      )
        .not.toContain(SESSION_TOKEN)
    }))

  it.scoped("spans, with no tracer provided (Effect's native one): none per call", () =>
    Effect.gen(function*() {
      const server = yield* faultServer(quotesOk)
      const seen: Array<string> = []
      const layer = over(server.url, {
        // What the HttpClient runs in: the caller's span, or the client's own.
        transformClient: HttpClient.tapRequest(() =>
          Effect.map(Effect.option(Effect.currentSpan), (span) => {
            seen.push(span._tag === "Some" ? span.value.name : "none")
          })
        )
      })
      const call = Effect.flatMap(PunchoutClient.PunchoutClient, (client) =>
        client.getProductQuotes(sessionFor(server.url), { searchTerm: "oil filter", quantity: 1 })).pipe(
          Effect.withSpan("caller"),
          Effect.provide(layer)
        )
      yield* call
      const base = yield* Effect.tracer
      yield* Effect.withTracer(
        call,
        Tracer.make({
          context: base.context,
          span: (...args) =>
            base.span(...args)
        })
      )
      expect(seen).toEqual(["caller", "PunchoutClient.GetProductQuotes"])
    }))
})

/** Counts the fibers started under it. */
class CountingSupervisor extends Supervisor.AbstractSupervisor<number> {
  started = 0
  get value() {
    return Effect.sync(() => this.started)
  }
  override onStart() {
    this.started++
  }
}
