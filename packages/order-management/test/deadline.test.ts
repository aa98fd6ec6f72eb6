// Issue #29 over @shoplink/http-node's UndiciHttpClient (the transport enforces the deadline, no
// fiber per attempt): a timeout aborts the request on the wire, follows the Effect Clock, is never
// retried for createOrder; an interrupted caller aborts its request; spans only with a tracer.
import { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@shoplink/http-node"
import * as Faults from "@shoplink/vitest-config/faults"
import { Effect, Fiber, Redacted, Supervisor, TestClock, Tracer } from "effect"
import { OrderManagementClient } from "../src/index.js"
import { API_KEY, API_TOKEN, customer, order } from "./support/client.js"

/** A node:http server on port 0 that never answers, or answers what `reply` says. */
const server = (reply?: (res: import("node:http").ServerResponse, n: number) => void) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      Faults.startFaultServer((_request, res, { n }) => {
        reply?.(res, n)
      })
    ),
    (s) => Effect.promise(s.close)
  )

const oms = (host: string, options: Partial<OrderManagementClient.Options> = {}) =>
  Effect.map(
    OrderManagementClient.make({
      environment: "US_QUA",
      apiKey: Redacted.make(API_KEY),
      testBaseUrl: host,
      retry: { maxAttempts: 3, baseDelay: "1 millis", maxDelay: "2 millis" },
      ...options
    }),
    (service) => service.forCustomer(customer)
  ).pipe(Effect.provideService(HttpClient.HttpClient, UndiciHttpClient.make()))

const ok = (res: import("node:http").ServerResponse) =>
  Faults.sendJson(res, 200, {
    ...Faults.envelope({ id: "API0200", text: "Successful", code: 200 }),
    order: { orderNo: "5000123" }
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

describe("OrderManagementClient deadline over UndiciHttpClient", () => {
  it.effect("a timeout on the TestClock aborts the request on the wire; createOrder is not retried", () =>
    Effect.scoped(Effect.gen(function*() {
      const hanging = yield* server()
      const customerClient = yield* oms(hanging.url, { timeout: "10 seconds" })
      const fiber = yield* Effect.fork(Effect.flip(customerClient.createOrder(order)))
      yield* Effect.promise(() => hanging.waitFor((s) => s.started() >= 1))
      yield* TestClock.adjust("9999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      const error = yield* Fiber.join(fiber)
      expect(error._tag === "Timeout" && error.attempt).toBe(1)
      yield* Effect.promise(() => hanging.waitFor((s) => s.closedConnections() >= 1))
      yield* TestClock.adjust("1 minute")
      expect(hanging.count()).toBe(1)
    })))

  it.live("a timeout on the live Clock aborts the request on the wire, forking no fiber; a read is retried", () =>
    Effect.scoped(Effect.gen(function*() {
      const hanging = yield* server()
      const customerClient = yield* oms(hanging.url, {
        timeout: "300 millis",
        retry: { maxAttempts: 2, baseDelay: "1 millis", maxDelay: "1 millis" }
      })
      const supervisor = new CountingSupervisor()
      const error = yield* Effect.flip(customerClient.orderDetails({ orderNo: "5000123" })).pipe(
        Effect.supervised(supervisor)
      )
      expect(error._tag === "Timeout" && error.attempt).toBe(2)
      yield* Effect.promise(() => hanging.waitFor((s) => s.closedConnections() >= 2))
      expect(hanging.count()).toBe(2)
      expect(supervisor.started).toBe(0)
    })))

  it.scoped("an interrupted caller aborts its request: the server sees the socket close", () =>
    Effect.gen(function*() {
      const hanging = yield* server()
      const customerClient = yield* oms(hanging.url, { timeout: "1 minute" })
      const fiber = yield* Effect.fork(customerClient.orderDetails({ orderNo: "5000123" }))
      yield* Effect.promise(() => hanging.waitFor((s) => s.started() >= 1))
      yield* Fiber.interrupt(fiber)
      yield* Effect.promise(() => hanging.waitFor((s) => s.closedConnections() >= 1))
      expect(hanging.count()).toBe(1)
    }))
})

describe("OrderManagementClient spans", () => {
  it.scopedLive("with a tracer provided: one span per call, attempts as its events, no credentials", () =>
    Effect.gen(function*() {
      const flaky = yield* server((res, n) => n === 1 ? Faults.sendText(res, 502, "bad gateway") : ok(res))
      const customerClient = yield* oms(flaky.url)
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
      yield* customerClient.orderDetails({ orderNo: "5000123" }).pipe(Effect.withTracer(recording))
      expect(spans.map((s) => s.name)).toEqual(["OrderManagementClient.orderDetails"])
      const [call] = spans
      expect(call?.attributes.get("oms.attempts")).toBe(2)
      expect(
        call?.events.map((
          [name, , a]
        ) => [name, a["oms.attempt"], a["oms.outcome"] ?? "", a["http.response.status_code"] ?? ""])
      )
        .toEqual([["attempt", 1, "UnexpectedResponse", 502], ["retry", 1, "", ""], ["attempt", 2, "ok", 200]])
      const text = JSON.stringify(
        spans.map((s) => [[...s.attributes], s.events]),
        (_, v) => typeof v === "bigint" ? String(v) : v
      )
      expect(text).not.toContain(API_TOKEN)
      expect(text).not.toContain(API_KEY)
    }))

  it.scoped("with no tracer provided (Effect's native one): none per call", () =>
    Effect.gen(function*() {
      const answering = yield* server((res) => ok(res))
      // What the HttpClient runs in: the caller's span, or the client's own.
      const seen: Array<string> = []
      const customerClient = yield* oms(answering.url, {
        transformClient: HttpClient.tapRequest(() =>
          Effect.map(Effect.option(Effect.currentSpan), (span) => {
            seen.push(span._tag === "Some" ? span.value.name : "none")
          })
        )
      })
      const call = Effect.withSpan(customerClient.orderDetails({ orderNo: "5000123" }), "caller")
      yield* call
      const base = yield* Effect.tracer
      yield* Effect.withTracer(call, Tracer.make({ context: base.context, span: (...args) => base.span(...args) }))
      expect(seen).toEqual(["caller", "OrderManagementClient.orderDetails"])
    }))
})
