// The runtime's trust boundary at the webhooks (issue #23), end to end against the sandbox over
// real HTTP on loopback: the callback URL a browser is sent to is not a webhook credential, and
// with Order Management configured an order webhook is applied only when the distributor confirms
// the order and its lines; a rejected one is dead-lettered with the reason.
import { HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@shoplink/http-node"
import { ConnectorRuntime } from "@shoplink/connector-runtime"
import { SANDBOX_FIXTURES, startSandbox } from "@shoplink/sandbox"
import { Effect, Layer, Logger, Redacted } from "effect"
import { createServer } from "node:http"
import { makeMemorySms } from "./support/memorySms.js"

const [ford, camry] = SANDBOX_FIXTURES.vehicles
const repairOrders = [
  { id: "ro_us", number: "1042", vehicle: { vin: ford!.vin } },
  {
    id: "ro_ca",
    number: "2001",
    vehicle: { licensePlate: camry!.licensePlate, licensePlateState: camry!.licensePlateState }
  }
]

/**
 * How the public routes are served: `router`, the platform server routing to `publicRouter`;
 * `lean`, the runtime's `serve`, whose node:http handler answers the webhook routes.
 */
type Mode = "router" | "lean"

const setup = (
  mode: Mode,
  options: { readonly orderManagement?: boolean; readonly priceToleranceCents?: number } = {}
) =>
  Effect.gen(function*() {
    const sandbox = yield* startSandbox()
    const sms = makeMemorySms(repairOrders)
    const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    const warnings: Array<string> = []
    const collector = Logger.make(({ logLevel, message }) => {
      if (logLevel._tag === "Warning") warnings.push(String(message))
    })
    const runtime = yield* ConnectorRuntime.make(sms.layer, {
      publicBaseUrl: `http://127.0.0.1:${port}`,
      smsVendorName: "Shoplink Tests",
      punchout: { baseUrl: sandbox.url, vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey) },
      ...(options.orderManagement === false ? {} : {
        orderManagement: {
          environment: "US_QUA",
          testBaseUrl: sandbox.url,
          apiKey: Redacted.make(sandbox.credentials.oms.testApiKey)
        }
      }),
      ...(options.priceToleranceCents === undefined
        ? {}
        : { orderVerification: { priceToleranceCents: options.priceToleranceCents } }),
      storage: "memory",
      worker: false
    }).pipe(Effect.provide(yield* Layer.build(UndiciHttpClient.layer)), Effect.provide(Logger.add(collector)))
    const app = HttpRouter.toHttpApp(runtime.publicRouter).pipe(Effect.flatten)
    yield* (mode === "lean" ? runtime.serve(server, app) : server.serve(app))
    const { ca, us } = sandbox.credentials.customers
    yield* runtime.shops.add({
      id: "shop_us",
      name: "Main Street Auto",
      distributor: {
        accountNo: us.accountNo,
        username: us.username,
        country: "US",
        apiToken: Redacted.make(us.apiToken)
      },
      sms: {}
    })
    yield* runtime.shops.add({
      id: "shop_ca",
      name: "Maple Garage",
      distributor: {
        accountNo: ca.accountNo,
        username: ca.username,
        country: "CA",
        apiToken: Redacted.make(ca.apiToken)
      },
      sms: {}
    })
    // Launch → add the oil filter → press a button, as the user would; the sandbox posts the webhook.
    let deliveries = 0
    const exportFrom = (shopId: string, repairOrderId: string, button: "export" | "exportAndSubmit", quantity = 2) =>
      Effect.gen(function*() {
        const launched = yield* runtime.launch({ shopId, repairOrderId })
        const token = new URL(Redacted.value(launched.url)).searchParams.get("token")!
        yield* sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity })
        const pressed = yield* sandbox.admin.driver.press(token, button)
        deliveries++
        const delivery = (yield* sandbox.admin.awaitDeliveries(deliveries)).at(-1)!
        return { token, pressed, delivery }
      })
    if (mode === "lean") {
      // The lean handler goes in front once the app has routed a request to publicRouter.
      yield* post(`http://127.0.0.1:${port}/shoplink/callback/x`, "", "GET")
    }
    return { sandbox, sms, runtime, exportFrom, warnings }
  })

const post = (url: string, body: string, method = "POST") =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method,
      redirect: "manual",
      ...(method === "POST" ? { headers: { "content-type": "application/json" }, body } : {})
    })
    return { status: response.status, text: await response.text() }
  })

interface OrderBody {
  readonly referenceID: string
  readonly order:
    & { readonly orderID: string; readonly orderLines: ReadonlyArray<Record<string, unknown>> }
    & Record<string, unknown>
}
/** The genuine order webhook with its order (and its first line) changed. */
const forge = (body: unknown, order: Record<string, unknown>, line: Record<string, unknown> = {}) => {
  const genuine = body as OrderBody
  return JSON.stringify({
    ...genuine,
    order: {
      ...genuine.order,
      ...order,
      orderLines: genuine.order.orderLines.map((l, i) => (i === 0 ? { ...l, ...line } : l))
    }
  })
}

for (const mode of ["router", "lean"] as const) {
  describe(`webhook keys (${mode})`, () => {
    it.scoped("the callback URL the browser is sent to cannot post: every webhook route under its key answers 404", () =>
      Effect.gen(function*() {
        const { exportFrom, runtime, sms } = yield* setup(mode)
        const { delivery, pressed } = yield* exportFrom("shop_us", "ro_us", "exportAndSubmit")
        const callbackUrl = pressed.redirect!
        expect(callbackUrl).toMatch(/\/shoplink\/callback\/[A-Za-z0-9_-]{32}$/)
        // The webhook key went to the distributor only: the browser's URL does not hold it.
        const webhookKey = /\/webhooks\/([^/]+)\/order$/.exec(delivery.url)![1]!
        expect(callbackUrl).not.toContain(webhookKey)
        const base = callbackUrl.replace(/\/callback\/[^/]+$/, "")
        const callbackKey = callbackUrl.slice(callbackUrl.lastIndexOf("/") + 1)
        // A forged "Distributor order 66666666" with a $0.01 line, posted with the callback URL's key.
        const forged = forge(delivery.body, { orderID: "66666666" }, { price: 0.01 })
        for (const hook of ["order", "quote"]) {
          expect((yield* post(`${base}/webhooks/${callbackKey}/${hook}`, forged)).status, hook).toBe(404)
        }
        expect((yield* post(callbackUrl.replace("/callback/", "/webhooks/") + "/order", forged)).status).toBe(404)
        expect((yield* runtime.inbox.list()).map((e) => e.contentKey)).toEqual([
          expect.stringContaining(":" + (delivery.body as OrderBody).order.orderID + ":")
        ])
        // The callback page opens with the callback key, and not with the webhook key.
        expect((yield* post(callbackUrl, "", "GET")).status).toBe(303)
        expect((yield* post(`${base}/callback/${webhookKey}`, "", "GET")).status).toBe(404)
        yield* runtime.drain
        expect(sms.read.lines("ro_us").map((l) => [l.productID, l.quantity, l.costCents])).toEqual([
          [SANDBOX_FIXTURES.products.oilFilter.productID, 2, expect.any(Number)]
        ])
      }))
  })
}

describe("order verification (Order Management configured)", () => {
  it.scoped("a genuine order, created through the sandbox, verifies and applies, for a U.S. and a Canadian shop", () =>
    Effect.gen(function*() {
      const { exportFrom, runtime, sms, warnings } = yield* setup("router")
      const us = yield* exportFrom("shop_us", "ro_us", "exportAndSubmit")
      const ca = yield* exportFrom("shop_ca", "ro_ca", "exportAndSubmit", 1)
      expect(yield* runtime.drain).toMatchObject({ applied: 2, dead: 0 })
      expect(sms.read.order("ro_us")).toEqual({ orderID: us.pressed.orderID, status: "3" })
      expect(sms.read.order("ro_ca")).toEqual({ orderID: ca.pressed.orderID, status: "3" })
      expect(sms.read.lines("ro_ca").map((l) => l.quantity)).toEqual([1])
      expect(warnings.filter((w) => w.includes("not verified"))).toEqual([])
    }))

  it.scoped("a forged order on a valid webhook key that the distributor does not confirm ends dead with the reason, never applied", () =>
    Effect.gen(function*() {
      const { exportFrom, runtime, sms } = yield* setup("router")
      const { delivery } = yield* exportFrom("shop_us", "ro_us", "export")
      const webhookUrl = delivery.url.replace(/\/quote$/, "/order")
      // An order body as the distributor would send it, from a genuine submitted order of another launch.
      const genuine = yield* exportFrom("shop_us", "ro_us", "exportAndSubmit")
      expect(genuine.delivery.url).toBe(webhookUrl)
      yield* runtime.drain
      const before = sms.read.lines("ro_us").length

      expect((yield* post(webhookUrl, forge(genuine.delivery.body, { orderID: "66666666" }, { price: 0.01 }))).status)
        .toBe(200)
      expect(yield* runtime.drain).toMatchObject({ applied: 0, dead: 1 })
      const dead = yield* runtime.inbox.list({ status: "dead" })
      expect(dead.map((e) => e.lastError)).toEqual([
        expect.stringMatching(/^order verification failed: order 66666666 is unknown to the distributor/)
      ])
      expect(sms.read.lines("ro_us")).toHaveLength(before)
      expect(sms.read.order("ro_us")?.orderID).toBe(genuine.pressed.orderID)
    }))

  it.scoped("a genuine order number whose lines were changed in the webhook (price, quantity, product) is rejected", () =>
    Effect.gen(function*() {
      const { exportFrom, runtime, sms } = yield* setup("router")
      const genuine = yield* exportFrom("shop_ca", "ro_ca", "exportAndSubmit")
      const orderID = (genuine.delivery.body as OrderBody).order.orderID
      // Changed before the genuine delivery was applied: none of these may reach the shop system.
      for (
        const [order, line] of [[{}, { price: 0.01 }], [{}, { quantity: 20 }], [{}, { productID: "99999" }]] as const
      ) {
        expect((yield* post(genuine.delivery.url, forge(genuine.delivery.body, order, line))).status).toBe(200)
      }
      expect(yield* runtime.drain).toMatchObject({ applied: 1, dead: 3 })
      const dead = yield* runtime.inbox.list({ status: "dead" })
      expect(dead.map((e) => e.lastError)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^order verification failed: order ${orderID} does not match the distributor's: .*price 0\\.01 in the webhook`
          )
        ),
        expect.stringMatching(/quantity 20 in the webhook, 2 at the distributor/),
        expect.stringMatching(/99999 is not on the distributor's order/)
      ])
      expect(sms.read.lines("ro_ca").map((l) => l.quantity)).toEqual([2])
      expect(sms.read.lines("ro_ca")[0]!.costCents).not.toBe(1)
    }))

  it.scoped("a price tolerance lets a price within it through", () =>
    Effect.gen(function*() {
      const { exportFrom, runtime } = yield* setup("router", { priceToleranceCents: 5 })
      const genuine = yield* exportFrom("shop_us", "ro_us", "exportAndSubmit")
      const price = (genuine.delivery.body as OrderBody).order.orderLines[0]!["price"] as number
      yield* post(genuine.delivery.url, forge(genuine.delivery.body, {}, { price: Math.round(price * 100 + 3) / 100 }))
      yield* post(genuine.delivery.url, forge(genuine.delivery.body, {}, { price: Math.round(price * 100 + 9) / 100 }))
      expect(yield* runtime.drain).toMatchObject({ applied: 2, dead: 1 })
    }))

  it.scoped("without Order Management the runtime warns once at start-up", () =>
    Effect.gen(function*() {
      const { warnings } = yield* setup("router", { orderManagement: false })
      expect(warnings.filter((w) => w.includes("order webhooks are not verified"))).toHaveLength(1)
    }))
})
