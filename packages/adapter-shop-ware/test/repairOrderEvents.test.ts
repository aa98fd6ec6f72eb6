// Repair-order events against the fake Shop-Ware over real HTTP: an invoiced repair order is
// `closed`; `decode` reads Shop-Ware's deliveries (other objects' events are none, a malformed body
// fails in one line); `subscribe` registers the runtime's URL once (a second call writes nothing,
// a subscription with fewer events is updated), through a 429, and refuses wrong credentials in one
// line; the deliveries the fake posts on its test controls decode to the repair order's id.
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { ShopSystem, SmsCredentials } from "@shoplink/connector"
import { Context, Effect, Either, Layer, Redacted } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { ShopWareClient, ShopWareConnector } from "../src/index.js"
import { FAKE_SHOP_WARE_FIXTURES, type FakeShopWare, smsSecretsFor, startFakeShopWare } from "../src/testing.js"

const partner = FAKE_SHOP_WARE_FIXTURES.partner
const EVENTS = ["repair_order.created", "repair_order.updated", "repair_order.deleted"]

const setup = (secrets: Record<string, Record<string, Redacted.Redacted<string>>>) =>
  Effect.gen(function*() {
    const fake = yield* startFakeShopWare()
    const layer = ShopWareConnector.layer.pipe(
      Layer.provide(Layer.succeed(ShopWareConnector.ShopWareConfig, {
        baseUrl: fake.url,
        retry: { baseDelay: "10 millis", maxDelay: "50 millis" }
      })),
      Layer.provide(FetchHttpClient.layer),
      Layer.provide(SmsCredentials.layerStatic(secrets))
    )
    const sms = Context.get(yield* Layer.build(layer), ShopSystem.ShopSystem)
    return { fake, sms, events: sms.repairOrderEvents! }
  })

/** A loopback HTTP server for the test's lifetime, answering `answer` and keeping the bodies. */
const server = (answer: (request: Http.IncomingMessage, body: string) => { status: number; body?: unknown }) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const received: Array<{ readonly url: string; readonly body: string }> = []
      const http = Http.createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8")
          received.push({ url: request.url ?? "", body })
          const out = answer(request, body)
          response.writeHead(out.status, { "content-type": "application/json" })
          response.end(out.body === undefined ? "" : JSON.stringify(out.body))
        })
      })
      await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve))
      return { http, received, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` }
    }),
    ({ http }) => Effect.promise(() => new Promise<void>((resolve) => http.close(() => resolve())))
  )

const failure = <A>(effect: Effect.Effect<A, ShopSystem.ShopSystemError | ShopSystem.RepairOrderNotFound>) =>
  Effect.map(Effect.either(effect), (result) => {
    expect(Either.isLeft(result)).toBe(true)
    const error = Either.isLeft(result) ? result.left : undefined
    expect(error?._tag).toBe("ShopSystemError")
    expect(error?.message).not.toContain("\n")
    return error as ShopSystem.ShopSystemError
  })

const writesTo = (fake: FakeShopWare, path: string) =>
  fake.requests().filter((r) => r.method !== "GET" && r.path.startsWith(path)).map((r) => `${r.method} ${r.status}`)

describe("closed repair orders", () => {
  it.scoped("an invoiced repair order is closed; estimate and in_progress are open", () =>
    Effect.gen(function*() {
      const { fake, sms } = yield* setup({ shop_1: smsSecretsFor(partner, 1) })
      const open = yield* sms.loadRepairOrder({ shopId: "shop_1", repairOrderId: "1042" })
      expect(open.closed).toBe(false)
      fake.setState(1042, "estimate")
      expect((yield* sms.loadRepairOrder({ shopId: "shop_1", repairOrderId: "1042" })).closed).toBe(false)
      fake.setState(1042, "invoice")
      const closed = yield* sms.loadRepairOrder({ shopId: "shop_1", repairOrderId: "1042" })
      expect(closed).toMatchObject({ id: "1042", number: "1042", closed: true })
      // Listed repair orders are the open ones, each `closed: false`.
      const listed = yield* sms.listRepairOrders!({ shopId: "shop_1", limit: 10 })
      expect(listed.map((ro) => [ro.number, ro.closed])).toEqual([["1043", false]])
      // An invoiced repair order without a VIN reads as closed rather than as "no VIN".
      fake.setState(1043, "invoice")
      expect(yield* sms.loadRepairOrder({ shopId: "shop_1", repairOrderId: "1043" })).toMatchObject({ closed: true })
    }))
})

describe("decode", () => {
  const decode = (body: string) => ShopWareConnector.decodeRepairOrderEvents(body)

  it.effect("a repair-order event is one event; an id may be a string; other fields are ignored", () =>
    Effect.gen(function*() {
      for (const action of ["created", "updated", "deleted"] as const) {
        const body = { event: `repair_order.${action}`, object_type: "repair_order", action, id: 1042 }
        expect(yield* decode(JSON.stringify(body))).toEqual([{ repairOrderId: "1042", action }])
      }
      expect(yield* decode(`{"event":"repair_order.updated","id":"77","tenant":"x","extra":{"a":1}}`)).toEqual([
        { repairOrderId: "77", action: "updated" }
      ])
      expect(yield* decode(`{"object_type":"repair_order","action":"deleted","id":9}`)).toEqual([
        { repairOrderId: "9", action: "deleted" }
      ])
      // An action Shop-Ware may add later is read as an update (the runtime reads the order again).
      expect(yield* decode(`{"event":"repair_order.archived","id":5}`)).toEqual([
        { repairOrderId: "5", action: "updated" }
      ])
    }))

  it.effect("another object's event is none, whatever else it carries", () =>
    Effect.gen(function*() {
      expect(yield* decode(`{"event":"customer.updated","object_type":"customer","action":"updated","id":7}`))
        .toEqual([])
      expect(yield* decode(`{"event":"customer.merged","id":"not-a-number"}`)).toEqual([])
      expect(yield* decode(`{"object_type":"vehicle","action":"deleted"}`)).toEqual([])
    }))

  it.effect("a malformed body fails in one line, not retryable", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["not json\n{", "is not JSON: not json {"],
        ["", "is not JSON: empty"],
        ["[1,2]", "is not a JSON object"],
        ["{}", "names no event or object_type"],
        [`{"event":"repair_order.updated","object_type":"repair_order","action":"updated"}`, "has no repair order id"],
        [`{"event":"repair_order.deleted","id":"12a"}`, "has no repair order id"],
        [`{"event":"repair_order.updated","id":-3}`, "has no repair order id"],
        [`{"event":42,"id":1}`, "is not Shop-Ware's delivery"]
      ]
      for (const [body, reason] of cases) {
        const error = yield* failure(decode(body))
        expect(error.operation).toBe("decodeRepairOrderEvents")
        expect(error.retryable).toBe(false)
        expect(error.message).toContain(reason)
      }
      const long = yield* failure(decode("x".repeat(5000)))
      expect(long.message.length).toBeLessThan(200)
    }))

  it.scoped("the service's decode is the same", () =>
    Effect.gen(function*() {
      const { events } = yield* setup({ shop_1: smsSecretsFor(partner, 1) })
      expect(yield* events.decode({ shopId: "shop_1", body: `{"event":"repair_order.deleted","id":1042}` }))
        .toEqual([{ repairOrderId: "1042", action: "deleted" }])
      expect((yield* failure(events.decode({ shopId: "shop_1", body: "nope" }))).retryable).toBe(false)
    }))
})

describe("subscribe", () => {
  it.scoped("registers the URL once for the three repair-order events; a second call writes nothing", () =>
    Effect.gen(function*() {
      const { events, fake, sms } = yield* setup({ shop_1: smsSecretsFor(partner, 1) })
      expect(sms.capabilities.has("receiveRepairOrderEvents")).toBe(true)
      const url = "https://shoplink.example/shoplink/sms-webhooks/k-shop-1"
      yield* events.subscribe({ shopId: "shop_1", url })
      expect(fake.webhooks()).toEqual([{ id: 1, partnerId: 12, url, events: EVENTS, format: null }])
      expect(writesTo(fake, "/api/v1/webhooks")).toEqual(["POST 201"])
      yield* events.subscribe({ shopId: "shop_1", url })
      yield* events.subscribe({ shopId: "shop_1", url: "HTTPS://SHOPLINK.EXAMPLE:443/shoplink/sms-webhooks/k-shop-1" })
      expect(writesTo(fake, "/api/v1/webhooks")).toEqual(["POST 201"])
      expect(fake.requests().filter((r) => r.method === "GET" && r.path === "/api/v1/webhooks")).toHaveLength(3)
      expect(fake.webhooks()).toHaveLength(1)
    }))

  it.scoped("each shop's URL is its own subscription, also for a read-only tenant", () =>
    Effect.gen(function*() {
      const { events, fake } = yield* setup({ a: smsSecretsFor(partner, 1), b: smsSecretsFor(partner, 2) })
      yield* events.subscribe({ shopId: "a", url: "https://shoplink.example/sms-webhooks/key-a" })
      yield* events.subscribe({ shopId: "b", url: "https://shoplink.example/sms-webhooks/key-b" })
      yield* events.subscribe({ shopId: "a", url: "https://shoplink.example/sms-webhooks/key-a" })
      expect(fake.webhooks().map((w) => w.url)).toEqual([
        "https://shoplink.example/sms-webhooks/key-a",
        "https://shoplink.example/sms-webhooks/key-b"
      ])
      expect(writesTo(fake, "/api/v1/webhooks")).toEqual(["POST 201", "POST 201"])
    }))

  it.scoped("a subscription of the URL with fewer events, or another format, is updated once", () =>
    Effect.gen(function*() {
      const { events, fake } = yield* setup({ shop_1: smsSecretsFor(partner, 1) })
      const url = "https://shoplink.example/sms-webhooks/k1"
      const response = yield* Effect.promise(() =>
        fetch(`${fake.url}/api/v1/webhooks`, {
          method: "POST",
          headers: { "x-api-partner-id": "12", "x-api-secret": partner.secret, "content-type": "application/json" },
          body: JSON.stringify({ url, events: ["repair_order.updated", "customer.updated"], format: "zapier" })
        })
      )
      expect(response.status).toBe(201)
      yield* events.subscribe({ shopId: "shop_1", url })
      yield* events.subscribe({ shopId: "shop_1", url })
      expect(fake.webhooks()).toEqual([{
        id: 1,
        partnerId: 12,
        url,
        events: ["repair_order.updated", "customer.updated", "repair_order.created", "repair_order.deleted"],
        format: null
      }])
      expect(writesTo(fake, "/api/v1/webhooks")).toEqual(["POST 201", "PUT 200"])
    }))

  it.scoped("goes through a 429 with Retry-After; a 503 on the create is retryable, and the next call creates it", () =>
    Effect.gen(function*() {
      const { events, fake } = yield* setup({ shop_1: smsSecretsFor(partner, 1) })
      const url = "https://shoplink.example/sms-webhooks/k1"
      fake.inject429(1, 0)
      yield* events.subscribe({ shopId: "shop_1", url: `${url}-a` })
      expect(fake.requests().some((r) => r.status === 429)).toBe(true)
      fake.failNextWrites(1, true)
      const outage = yield* failure(events.subscribe({ shopId: "shop_1", url }))
      expect(outage.retryable).toBe(true)
      expect(outage.message).toContain("createWebhook")
      fake.failNextWrites(1, false)
      const refused = yield* failure(events.subscribe({ shopId: "shop_1", url }))
      expect(refused.retryable).toBe(false)
      expect(refused.message).toContain("422")
      yield* events.subscribe({ shopId: "shop_1", url })
      expect(fake.webhooks().map((w) => w.url)).toEqual([`${url}-a`, url])
    }))

  it.scoped("wrong credentials, or a tenant that did not authorize the partner, fail in one line", () =>
    Effect.gen(function*() {
      const { events, fake } = yield* setup({
        wrong: { ...smsSecretsFor(partner, 1), apiSecret: Redacted.make("nope") },
        stranger: smsSecretsFor(partner, 9)
      })
      const wrong = yield* failure(events.subscribe({ shopId: "wrong", url: "https://shoplink.example/h/1" }))
      expect(wrong.retryable).toBe(false)
      expect(wrong.operation).toBe("subscribeRepairOrderEvents")
      expect(wrong.message).toContain("refused the partner credentials")
      expect(wrong.message).not.toContain("nope")
      const stranger = yield* failure(events.subscribe({ shopId: "stranger", url: "https://shoplink.example/h/2" }))
      expect(stranger.message).toContain("has not authorized")
      expect(fake.webhooks()).toEqual([])
    }))

  it.scoped("the fake's deliveries to the subscribed URL decode to the repair order, deleted included", () =>
    Effect.gen(function*() {
      const { events, fake, sms } = yield* setup({ shop_1: smsSecretsFor(partner, 1) })
      const receiver = yield* server(() => ({ status: 204 }))
      yield* events.subscribe({ shopId: "shop_1", url: `${receiver.url}/sms-webhooks/k1` })
      fake.setState(1042, "invoice")
      fake.deleteRepairOrder(1043)
      // Tenant 2 also authorized partner 12: its repair order's event reaches this URL too.
      fake.setState(2001, "estimate")
      yield* Effect.promise(fake.settle)
      expect(receiver.received.map((r) => r.url)).toEqual([
        "/sms-webhooks/k1",
        "/sms-webhooks/k1",
        "/sms-webhooks/k1"
      ])
      const decoded = yield* Effect.forEach(receiver.received, (r) => events.decode({ shopId: "shop_1", body: r.body }))
      expect(decoded.flat()).toEqual([
        { repairOrderId: "1042", action: "updated" },
        { repairOrderId: "1043", action: "deleted" },
        { repairOrderId: "2001", action: "updated" }
      ])
      // What the runtime does next: it reads each repair order again.
      expect((yield* sms.loadRepairOrder({ shopId: "shop_1", repairOrderId: "1042" })).closed).toBe(true)
      for (const repairOrderId of ["1043", "2001"]) {
        const gone = yield* Effect.either(sms.loadRepairOrder({ shopId: "shop_1", repairOrderId }))
        expect(Either.isLeft(gone) && gone.left._tag).toBe("RepairOrderNotFound")
      }
    }))
})

describe("ShopWareClient.webhooks", () => {
  const client = (baseUrl: string) =>
    ShopWareClient.make({ baseUrl, partnerId: "12", apiSecret: Redacted.make("s"), tenantId: "1" }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
  const hook = (id: number) => ({ id, url: `https://a.example/${id}`, events: ["repair_order.updated"], format: null })

  it.scoped("reads every page when Shop-Ware pages the list", () =>
    Effect.gen(function*() {
      const stub = yield* server((request) => {
        const page = new URL(request.url ?? "/", "http://x").searchParams.get("page") ?? "1"
        return {
          status: 200,
          body: { results: page === "1" ? [hook(1), hook(2)] : [hook(3)], current_page: Number(page), total_pages: 2 }
        }
      })
      const webhooks = yield* (yield* client(stub.url)).webhooks
      expect(webhooks.map((w) => w.id)).toEqual([1, 2, 3])
      expect(stub.received.map((r) => r.url)).toEqual(["/api/v1/webhooks", "/api/v1/webhooks?page=2"])
    }))

  it.scoped("reads the plain array the OpenAPI shows in one request; 401 is the credentials' error", () =>
    Effect.gen(function*() {
      let status = 200
      const stub = yield* server(
        () => (status === 200 ? { status, body: [hook(1)] } : { status, body: { error: "Unauthorized" } })
      )
      const sw = yield* client(stub.url)
      expect((yield* sw.webhooks).map((w) => w.events)).toEqual([["repair_order.updated"]])
      status = 401
      const refused = yield* Effect.flip(sw.webhooks)
      expect(refused._tag).toBe("ShopWareAuthError")
      expect(refused.message).toContain("HTTP 401: Unauthorized")
    }))
})
