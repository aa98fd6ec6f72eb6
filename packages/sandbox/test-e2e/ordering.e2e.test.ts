// One search → cart → Export and Submit → callback round trip in headless Chromium, and what a
// person sees of paging, stock and times.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { chromium, type Page } from "playwright-core"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { SANDBOX_FIXTURES, startSandbox } from "../src/index.js"

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run"
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
  Effect.promise(() =>
    chromium.launch({ executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium", args: CHROMIUM_ARGS })
  ),
  (b) => Effect.promise(() => b.close())
)

const results = join(import.meta.dirname, "..", "test-results")

/** Nothing wider than the window: the page never scrolls sideways (a table may, inside its own box). */
const overflow = (page: Page) =>
  Effect.promise(() =>
    page.evaluate<{ readonly scrollWidth: number; readonly innerWidth: number }>(
      "({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })"
    )
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
            apiKey: sandbox.credentials.vendorApiKey,
            apiToken: c.apiToken,
            accountNo: c.accountNo,
            username: c.username,
            country: "US",
            smsVendorName: "E2E SMS",
            referenceID: "RO-E2E",
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
      yield* Effect.promise(() =>
        Promise.all([page.waitForURL(/searchTerm=oil/), page.click("button[type=submit] >> text=Search")])
      )
      expect(yield* Effect.promise(() => page.getByTestId("search-term").textContent())).toBe("oil filter")
      const row = page.locator(`[data-testid=result][data-product-id="51515"][data-brand-id="WIX"]`)
      yield* Effect.promise(() => row.locator("input[name=quantity]").fill("2"))
      yield* Effect.promise(() => Promise.all([page.waitForLoadState("load"), row.getByTestId("add-to-cart").click()]))
      yield* Effect.promise(() => page.getByTestId("cart-line").first().waitFor())
      expect(yield* Effect.promise(() => page.getByTestId("footer").textContent())).toContain("E2E SMS")
      yield* Effect.promise(() =>
        Promise.all([page.waitForURL(`${sms.url}/callback`), page.getByTestId("export-and-submit").click()])
      )
      expect(yield* Effect.promise(() => page.getByTestId("callback").textContent())).toBe("Back in the SMS")
      const deliveries = yield* sandbox.admin.awaitDeliveries(1)
      expect(deliveries[0]).toMatchObject({ event: "order", ok: true })
      expect(sms.hooks[0]?.path).toBe("/order")
      expect(sms.hooks[0]?.body.referenceID).toBe("RO-E2E")
      expect(sms.hooks[0]?.body.order).toMatchObject({ status: 3, statusDescription: "Order submitted" })
      expect(sms.hooks[0]?.body.order.orderLines[0]).toMatchObject({ productID: "51515", brandID: "WIX", quantity: 2 })
    })))

  it.live("a vehicle's parts page by page (Next / Previous keep the search), out-of-stock parts have no button, times are local and UTC", () =>
    Effect.scoped(Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const c = sandbox.credentials.customers.us
      const create = (referenceID: string) =>
        Effect.promise(() =>
          fetch(sandbox.punchoutCreateUrl, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              apiKey: sandbox.credentials.vendorApiKey,
              apiToken: c.apiToken,
              accountNo: c.accountNo,
              username: c.username,
              country: "US",
              smsVendorName: "E2E SMS",
              referenceID,
              webhooks: { order: "http://127.0.0.1:9/order", quote: "http://127.0.0.1:9/quote" }
            })
          }).then((r) => r.json() as Promise<any>)
        )
      // Someone else takes the last two struts (LS3003) in the US.
      const other = yield* create("RO-OTHER")
      yield* Effect.promise(() =>
        fetch(other.punchout.url.replace("{command}", "CreateOrder"), {
          method: "POST",
          body: JSON.stringify({ productID: "LS3003", brandID: "MON", quantity: "2" })
        })
      )
      const created = yield* create("RO-PAGES")
      const vehicle = SANDBOX_FIXTURES.vehicles[0]!
      const b = yield* browser
      const page = yield* Effect.promise(() => b.newPage())
      const reference = `WO "9" & <co>`
      yield* Effect.promise(() =>
        page.goto(
          created.punchout.url.replace("{command}", "ShowCatalog") +
            `&vin=${vehicle.vin}&referenceID=${encodeURIComponent(reference)}`
        )
      )
      const ids = () =>
        Effect.promise(() =>
          page.locator("[data-testid=result]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-product-id")))
        )
      const first = yield* ids()
      expect(first).toHaveLength(20)
      expect(yield* Effect.promise(() => page.getByTestId("page-summary").first().textContent())).toMatch(
        /^Results 1–20 of \d+ · page 1 of \d+$/
      )
      yield* Effect.promise(() =>
        Promise.all([page.waitForURL(/page=2/), page.getByTestId("page-next").first().click()])
      )
      const second = yield* ids()
      expect(second.length).toBeGreaterThan(0)
      expect(second.filter((id) => first.includes(id))).toEqual([])
      const url = new URL(page.url())
      expect([url.searchParams.get("vin"), url.searchParams.get("referenceID")]).toEqual([vehicle.vin, reference])
      expect(yield* Effect.promise(() => page.getByTestId("footer").textContent())).toContain(`Reference ${reference}`)
      yield* Effect.promise(() =>
        Promise.all([page.waitForURL(/page=1/), page.getByTestId("page-prev").first().click()])
      )
      expect(yield* ids()).toEqual(first)
      // Search for the struts: the one with nothing on hand cannot be added.
      yield* Effect.promise(() => page.fill("input[name=searchTerm]", "strut"))
      yield* Effect.promise(() =>
        Promise.all([page.waitForURL(/searchTerm=strut/), page.click("button[type=submit] >> text=Search")])
      )
      const strut = page.locator(`[data-testid=result][data-product-id="LS3003"]`)
      expect(yield* Effect.promise(() => strut.getByTestId("availability").textContent())).toContain("Out of stock")
      expect(yield* Effect.promise(() => strut.getByTestId("add-to-cart").count())).toBe(0)
      // Times: the shop's zone (Austin: Central) with UTC beside it; the machine-readable instant too.
      const filterPage = yield* Effect.promise(() => b.newPage())
      yield* Effect.promise(() =>
        filterPage.goto(
          created.punchout.url.replace("{command}", "ShowCatalog") + `&vin=${vehicle.vin}&searchTerm=oil+filter`
        )
      )
      const dispatch = filterPage.locator(`[data-testid=result][data-product-id="51515"] [data-testid=dispatch]`)
      const text = (yield* Effect.promise(() => dispatch.innerText())).replace(/\s+/g, " ")
      expect(text).toMatch(
        /^Dispatch \w{3}, \w{3} \d{1,2}, \d{1,2}:\d{2} [AP]M C[DS]T \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\)$/
      )
      const instant = yield* Effect.promise(() => dispatch.locator("time").getAttribute("datetime"))
      expect(text).toContain(`${instant!.slice(0, 10)} ${instant!.slice(11, 16)} UTC`)
      expect(yield* Effect.promise(() => filterPage.getByTestId("time-zone").textContent())).toContain(
        "America/Chicago"
      )
    })))
  it.live("at phone width (390 and 360 px) the catalog, the empty-cart Export question and an error page fit the window", () =>
    Effect.scoped(Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const c = sandbox.credentials.customers.us
      const created = yield* Effect.promise(() =>
        fetch(sandbox.punchoutCreateUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            apiKey: sandbox.credentials.vendorApiKey,
            apiToken: c.apiToken,
            accountNo: c.accountNo,
            username: c.username,
            country: "US",
            smsVendorName: "E2E SMS",
            referenceID: "RO-PHONE",
            webhooks: { order: "http://127.0.0.1:9/order", quote: "http://127.0.0.1:9/quote" }
          })
        }).then((r) => r.json() as Promise<any>)
      )
      const vehicle = SANDBOX_FIXTURES.vehicles[0]!
      const b = yield* browser
      mkdirSync(results, { recursive: true })
      for (const width of [390, 360]) {
        const context = yield* Effect.acquireRelease(
          Effect.promise(() =>
            b.newContext({ viewport: { width, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
          ),
          (context) => Effect.promise(() => context.close())
        )
        const page = yield* Effect.promise(() => context.newPage())
        yield* Effect.promise(() =>
          page.goto(
            created.punchout.url.replace("{command}", "ShowCatalog") + `&vin=${vehicle.vin}&searchTerm=alternator`
          )
        )
        // The cart is on screen without scrolling past the results.
        const cartTop = yield* Effect.promise(() =>
          page.getByTestId("cart").evaluate((e) => e.getBoundingClientRect().top)
        )
        const resultsTop = yield* Effect.promise(() =>
          page.getByTestId("results").evaluate((e) => e.getBoundingClientRect().top)
        )
        expect(cartTop).toBeLessThan(resultsTop)
        const catalog = yield* overflow(page)
        expect(catalog.innerWidth).toBe(width)
        expect(catalog.scrollWidth, `catalog at ${width} px`).toBeLessThanOrEqual(catalog.innerWidth)
        yield* Effect.promise(() =>
          page.screenshot({ path: join(results, `sandbox-catalog-${width}.png`), fullPage: true })
        )
        // Export with the cart empty: the question, then back.
        yield* Effect.promise(() => Promise.all([page.waitForLoadState("load"), page.getByTestId("export").click()]))
        yield* Effect.promise(() => page.getByTestId("export-confirm").waitFor())
        const question = yield* overflow(page)
        expect(question.scrollWidth, `export question at ${width} px`).toBeLessThanOrEqual(question.innerWidth)
        yield* Effect.promise(() =>
          page.screenshot({ path: join(results, `sandbox-export-question-${width}.png`), fullPage: true })
        )
        yield* Effect.promise(() =>
          Promise.all([page.waitForURL(/searchTerm=alternator/), page.getByTestId("back").click()])
        )
        // A refused quantity: the error page, and the link back to the same results.
        const row = page.locator(`[data-testid=result][data-product-id="51515"]`)
        yield* Effect.promise(() =>
          page.goto(
            created.punchout.url.replace("{command}", "ShowCatalog") + `&vin=${vehicle.vin}&searchTerm=oil+filter`
          )
        )
        yield* Effect.promise(() => row.locator("input[name=quantity]").fill("-3"))
        yield* Effect.promise(() =>
          Promise.all([page.waitForLoadState("load"), row.getByTestId("add-to-cart").click()])
        )
        expect(yield* Effect.promise(() => page.getByTestId("error").textContent())).toContain("API0231")
        const error = yield* overflow(page)
        expect(error.scrollWidth, `error page at ${width} px`).toBeLessThanOrEqual(error.innerWidth)
        yield* Effect.promise(() => Promise.all([page.waitForURL(/searchTerm=oil/), page.getByTestId("back").click()]))
        expect(yield* Effect.promise(() => page.getByTestId("search-term").textContent())).toBe("oil filter")
      }
    })))
})
