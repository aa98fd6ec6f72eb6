// One search → cart → Export and Submit → callback round trip in headless Chromium.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { chromium } from "playwright-core"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { SANDBOX_FIXTURES, startSandbox } from "../src/index.js"

const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"
]

// A vendor system: receives webhooks and serves the callback page.
const vendor = Effect.acquireRelease(
  Effect.async<{ url: string; hooks: Array<{ path: string; body: any }>; close: () => void }>((resume) => {
    const hooks: Array<{ path: string; body: any }> = []
    const server = createServer((req, res) => {
      let data = ""
      req.on("data", (c) => (data += c))
      req.on("end", () => {
        if (req.method === "POST") {
          hooks.push({ path: req.url ?? "", body: JSON.parse(data) })
          return void res.writeHead(204).end()
        }
        res.writeHead(200, { "content-type": "text/html" }).end(`<h1 data-testid="callback">Back in the SMS</h1>`)
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        hooks,
        close: () => {
          server.closeAllConnections()
          server.close()
        }
      })))
  }),
  (v) => Effect.sync(v.close)
)

const browser = Effect.acquireRelease(
  Effect.promise(() => chromium.launch({ executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium", args: CHROMIUM_ARGS })),
  (b) => Effect.promise(() => b.close())
)

describe("ordering pages in Chromium", () => {
  it.live("search → add to cart → Export and Submit → order webhook → callback", () =>
    Effect.scoped(Effect.gen(function*() {
      const sms = yield* vendor
      const sandbox = yield* startSandbox()
      const c = sandbox.credentials.customers.us
      const created = yield* Effect.promise(() =>
        fetch(sandbox.punchoutCreateUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            apiKey: sandbox.credentials.vendorApiKey, apiToken: c.apiToken, accountNo: c.accountNo, username: c.username,
            country: "US", smsVendorName: "E2E SMS", referenceID: "RO-E2E",
            webhooks: { order: `${sms.url}/order`, quote: `${sms.url}/quote`, callback: `${sms.url}/callback` }
          })
        }).then((r) => r.json() as Promise<any>)
      )
      const vehicle = SANDBOX_FIXTURES.vehicles[0]!
      const b = yield* browser
      const page = yield* Effect.promise(() => b.newPage())
      const start = created.punchout.url.replace("{command}", "ShowCatalog") + `&vin=${vehicle.vin}`
      yield* Effect.promise(() => page.goto(start))
      expect(yield* Effect.promise(() => page.getByTestId("vehicle").textContent())).toContain(vehicle.vin)
      yield* Effect.promise(() => page.fill("input[name=searchTerm]", "oil filter"))
      yield* Effect.promise(() => Promise.all([page.waitForURL(/searchTerm=oil/), page.click("button[type=submit] >> text=Search")]))
      expect(yield* Effect.promise(() => page.getByTestId("search-term").textContent())).toBe("oil filter")
      const row = page.locator(`[data-testid=result][data-product-id="51515"][data-brand-id="WIX"]`)
      yield* Effect.promise(() => row.locator("input[name=quantity]").fill("2"))
      yield* Effect.promise(() => Promise.all([page.waitForLoadState("load"), row.getByTestId("add-to-cart").click()]))
      yield* Effect.promise(() => page.getByTestId("cart-line").first().waitFor())
      expect(yield* Effect.promise(() => page.getByTestId("footer").textContent())).toContain("E2E SMS")
      yield* Effect.promise(() => Promise.all([page.waitForURL(`${sms.url}/callback`), page.getByTestId("export-and-submit").click()]))
      expect(yield* Effect.promise(() => page.getByTestId("callback").textContent())).toBe("Back in the SMS")
      const deliveries = yield* sandbox.admin.awaitDeliveries(1)
      expect(deliveries[0]).toMatchObject({ event: "order", ok: true })
      expect(sms.hooks[0]?.path).toBe("/order")
      expect(sms.hooks[0]?.body.referenceID).toBe("RO-E2E")
      expect(sms.hooks[0]?.body.order).toMatchObject({ status: 3, statusDescription: "Order submitted" })
      expect(sms.hooks[0]?.body.order.orderLines[0]).toMatchObject({ productID: "51515", brandID: "WIX", quantity: 2 })
    })))
})
