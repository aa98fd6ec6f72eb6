import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Punchout } from "@shoplink/protocol"
import { SANDBOX_FIXTURES, startSandbox } from "../src/index.js"
import { call, session } from "./helpers.js"
import { receiver } from "./receiver.js"

const form = (url: string, fields: Record<string, string>) =>
  call(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString()
  })

const vehicle = SANDBOX_FIXTURES.vehicles[0]!

describe("ordering pages", () => {
  it.scoped("ShowCatalog shows the vehicle, the search, results and the footer", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const page = yield* call(s.command("ShowCatalog", `&vin=${vehicle.vin}&searchTerm=oil%20filter&referenceID=WO-9`))
      expect(page.status).toBe(200)
      expect(page.headers.get("content-type")).toContain("text/html")
      expect(page.text).toMatch(
        new RegExp(`data-testid="vehicle">${vehicle.year} ${vehicle.make} ${vehicle.model} — VIN ${vehicle.vin}`)
      )
      expect(page.text).toContain(`data-testid="search-term">oil filter<`)
      expect(page.text).toContain(`data-testid="result" data-product-id="51515" data-brand-id="WIX"`)
      expect(page.text).toMatch(/data-testid="footer">Acme SMS · Reference WO-9/)
      const plate = yield* call(
        s.command("ShowCatalog", `&licensePlate=${vehicle.licensePlate}&licensePlateState=${vehicle.licensePlateState}`)
      )
      expect(plate.text).toContain(`License plate ${vehicle.licensePlate} (${vehicle.licensePlateState})`)
      const base = yield* call(s.command("ShowCatalog", `&baseVehicleID=${vehicle.baseVehicleID}&searchTerm=brake`))
      expect(base.text).toContain(`Base vehicle ID ${vehicle.baseVehicleID}`)
      // Export and Save is hidden unless exportButtons asks for it.
      expect(base.text).toContain(`data-testid="export"`)
      expect(base.text).not.toContain(`data-testid="export-and-save"`)
    }))

  it.scoped.each([
    ["legacy licenseState", "&licensePlate=8ABC123&licenseState=CA", "licensePlateState"],
    ["legacy baseVehicleId", "&baseVehicleId=5678", "baseVehicleID"],
    ["searchTerm without a vehicle", "&searchTerm=brakes", "searchTerm needs a vehicle"],
    ["plate without state", "&licensePlate=8ABC123", "licensePlate must be accompanied by licensePlateState"],
    ["unknown plate", "&licensePlate=ZZZ999&licensePlateState=TX", "No record found for the license plate"],
    ["unknown VIN", "&vin=1FTEW1E50KFA99999", "Could not decode VIN"]
  ])("ShowCatalog with %s answers an error page", ([, query, message]) =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const page = yield* call(s.command("ShowCatalog", query))
      expect(page.status).toBe(400)
      expect(page.text).toMatch(new RegExp(`data-testid="error">[^<]*${message}`))
    }))

  it.scoped("pages refuse an unknown token with 401", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const page = yield* call(`${sandbox.url}/punchout/v1/ShowCatalog?token=nope`)
      expect(page.status).toBe(401)
      expect(page.text).toContain(`data-testid="error"`)
    }))

  it.scoped("search → add to cart → Export and Submit: order webhook (status 3 as a number), then the callback", () =>
    Effect.gen(function*() {
      const hooks = yield* receiver()
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox, {
        referenceID: "RO-77",
        webhooks: { order: `${hooks.url}/order`, quote: `${hooks.url}/quote`, callback: "https://sms.example/back" }
      })
      const back = `/punchout/v1/ShowCatalog?token=${s.token}&vin=${vehicle.vin}&searchTerm=oil`
      const added = yield* form(`${sandbox.url}/punchout/v1/app/add?token=${s.token}`, {
        productID: "51515",
        brandID: "WIX",
        quantity: "2",
        back
      })
      expect(added.status).toBe(303)
      expect(added.headers.get("location")).toBe(back)
      const cart = yield* call(`${sandbox.url}${back}`)
      expect(cart.text).toContain(`data-testid="cart-line" data-product-id="51515"`)
      const pressed = yield* form(`${sandbox.url}/punchout/v1/app/press?token=${s.token}`, {
        button: "exportAndSubmit"
      })
      expect(pressed.status).toBe(303)
      expect(pressed.headers.get("location")).toBe("https://sms.example/back")
      const [delivery] = yield* sandbox.admin.awaitDeliveries(1)
      expect(delivery).toMatchObject({ event: "order", attempt: 1, status: 200, ok: true })
      expect(hooks.received[0]?.path).toBe("/order")
      const body = hooks.received[0]!.body
      expect(body.referenceID).toBe("RO-77")
      expect(body.order.status).toBe(3)
      expect(body.order.orderLines[0]).toMatchObject({ productID: "51515", quantity: 2 })
      const decoded = Schema.decodeUnknownSync(Punchout.OrderWebhook)(body)
      expect(decoded.order.statusDescription).toBe("Order submitted")
    }))

  it.scoped("Export sends the quote webhook; Export and Save answers the orderID and keeps the order reserved", () =>
    Effect.gen(function*() {
      const hooks = yield* receiver()
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox, {
        webhooks: { order: `${hooks.url}/order`, quote: `${hooks.url}/quote` },
        exportButtons: {
          export: { visible: true },
          exportAndSave: { visible: true, postExportAction: "KEEP_INVENTORY" }
        }
      })
      const search = yield* sandbox.admin.driver.search(s.token, { vin: vehicle.vin, searchTerm: "oil filter" })
      expect(search.vehicle).toBe(`${vehicle.year} ${vehicle.make} ${vehicle.model}`)
      expect(search.results.some((r) => r.productID === "51515")).toBe(true)
      yield* sandbox.admin.driver.addToCart(s.token, { productID: "51515", brandID: "WIX", quantity: 1 })
      const exported = yield* sandbox.admin.driver.press(s.token, "export")
      expect(exported).toMatchObject({ webhook: "quote", redirect: undefined })
      yield* sandbox.admin.awaitDeliveries(1)
      const quote = Schema.decodeUnknownSync(Punchout.QuoteWebhook)(hooks.received[0]!.body)
      expect(quote.quotes.map((q) => q.productID)).toEqual(["51515"])
      expect(quote.quotes[0]?.makeId).toBe(54) // the searched vehicle's make (Ford)
      const saved = yield* sandbox.admin.driver.press(s.token, "exportAndSave")
      const response = Schema.decodeUnknownSync(Punchout.ExportAndSaveResponse)(saved.response)
      expect(response.orderID).toBe(saved.orderID)
      const page = yield* call(s.command("ShowOrder", `&orderId=${saved.orderID}`))
      expect(page.text).toContain(`data-testid="order-status">In shopping cart<`)
      const hidden = yield* session(sandbox, {
        exportButtons: { export: { visible: false }, exportAndSave: { visible: false } }
      })
      yield* sandbox.admin.driver.addToCart(hidden.token, { productID: "51515", brandID: "WIX", quantity: 1 })
      const refused = yield* Effect.flip(sandbox.admin.driver.press(hidden.token, "export"))
      expect(refused.message).toContain("not shown")
    }))

  it.scoped("webhook delivery retries with backoff, records every attempt, and a dead receiver never blocks the page", () =>
    Effect.gen(function*() {
      const flaky = yield* receiver((n) => (n === 0 ? 503 : 200))
      const dead = yield* receiver(() => "hang")
      const sandbox = yield* startSandbox({
        webhookTimeout: "1 second",
        webhookAttempts: 2,
        webhookBackoff: "10 millis"
      })
      const s = yield* session(sandbox, { webhooks: { order: `${flaky.url}/order`, quote: `${dead.url}/quote` } })
      yield* sandbox.admin.driver.addToCart(s.token, { productID: "51515", brandID: "WIX", quantity: 1 })
      yield* sandbox.admin.driver.press(s.token, "export")
      // The page answers although the quote receiver never will.
      const page = yield* call(s.command("ShowCatalog"))
      expect(page.status).toBe(200)
      yield* sandbox.admin.driver.press(s.token, "exportAndSubmit")
      const all = yield* sandbox.admin.awaitDeliveries(4)
      const order = all.filter((d) => d.event === "order")
      expect(order.map((d) => [d.attempt, d.status, d.ok])).toEqual([[1, 503, false], [2, 200, true]])
      const quote = all.filter((d) => d.event === "quote")
      expect(quote.map((d) => [d.attempt, d.ok])).toEqual([[1, false], [2, false]])
      expect(quote[0]?.error).toContain("timed out")
    }))
})

describe("ShowOrder and page errors", () => {
  it.scoped("ShowOrder opens an order of the account; a missing or unknown orderId is an error page; a page fault shows its ID", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const created = yield* call(s.command("CreateOrder"), {
        method: "POST",
        body: JSON.stringify({ productID: "51515", brandID: "WIX", quantity: "1" })
      })
      const orderID: string = created.body.order.orderID
      const page = yield* call(s.command("ShowOrder", `&orderId=${orderID}&referenceID=WO-3`))
      expect(page.status).toBe(200)
      expect(page.text).toContain(`data-testid="order-id">${orderID}<`)
      expect(page.text).toContain(`data-testid="export-and-submit"`)
      expect(page.text).toContain("Reference WO-3")
      expect((yield* call(s.command("ShowOrder"))).status).toBe(400)
      expect((yield* call(s.command("ShowOrder", "&orderId=1"))).status).toBe(404)
      const add = yield* form(`${sandbox.url}/punchout/v1/app/add?token=${s.token}`, {
        productID: "NP1001",
        brandID: "ACD",
        quantity: "1"
      })
      expect(add.status).toBe(400)
      expect(add.text).toMatch(/data-testid="error">API0243/)
      expect((yield* form(`${sandbox.url}/punchout/v1/app/press?token=${s.token}`, { button: "nope" })).status).toBe(
        400
      )
      // The page cart: add, then remove.
      yield* form(`${sandbox.url}/punchout/v1/app/add?token=${s.token}`, {
        productID: "LS3003",
        brandID: "MON",
        quantity: "2"
      })
      const withLine = yield* call(s.command("ShowCatalog"))
      expect(withLine.text).toContain(`data-testid="cart-line" data-product-id="LS3003"`)
      const removed = yield* form(`${sandbox.url}/punchout/v1/app/remove?token=${s.token}`, {
        productID: "LS3003",
        brandID: "MON"
      })
      expect(removed.status).toBe(303)
      expect((yield* call(s.command("ShowCatalog"))).text).not.toContain(
        `data-testid="cart-line" data-product-id="LS3003"`
      )
      // Its stock came back.
      expect(
        (yield* call(s.command("CreateOrder"), {
          method: "POST",
          body: JSON.stringify({ productID: "LS3003", brandID: "MON", quantity: "2" })
        })).status
      ).toBe(200)
      yield* sandbox.admin.injectFault({ kind: "message", endpoint: "ShowCatalog", id: "API0500" })
      const faulted = yield* call(s.command("ShowCatalog"))
      expect(faulted.text).toMatch(/data-testid="error">API0500/)
    }))
})

const rowOf = (html: string, productID: string) =>
  new RegExp(`<tr data-testid="result" data-product-id="${productID}"[\\s\\S]*?</tr>`).exec(html)?.[0]
const productIds = (html: string) =>
  [...html.matchAll(/data-testid="result" data-product-id="([^"]+)" data-brand-id="([^"]+)"/g)].map((m) =>
    `${m[2]}|${m[1]}`
  )
const unescape = (s: string) =>
  s.replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
const hrefOf = (html: string, testid: string) => {
  const raw = new RegExp(`data-testid="${testid}" rel="\\w+" href="([^"]*)"`).exec(html)?.[1]
  return raw === undefined ? undefined : unescape(raw)
}

describe("ShowCatalog paging, stock and time zones", () => {
  it.scoped("a vehicle without a search pages its results 20 at a time; the links keep the query, escaped", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const reference = `WO "7" <b>&x=1`
      const first = yield* call(
        s.command("ShowCatalog", `&vin=${vehicle.vin}&referenceID=${encodeURIComponent(reference)}`)
      )
      expect(first.status).toBe(200)
      const page1 = productIds(first.text)
      expect(page1).toHaveLength(20)
      const total = Number(/Results 1–20 of (\d+) · page 1 of (\d+)/.exec(first.text)?.[1])
      expect(total).toBeGreaterThan(40)
      expect(hrefOf(first.text, "page-prev")).toBeUndefined()
      // Attribute values never carry a raw quote or angle bracket.
      expect(first.text).not.toContain(`<b>&x`)
      const next = new URL(hrefOf(first.text, "page-next")!, sandbox.url)
      expect(Object.fromEntries(next.searchParams)).toEqual({
        token: s.token,
        vin: vehicle.vin,
        referenceID: reference,
        page: "2"
      })
      const second = yield* call(next.href)
      const page2 = productIds(second.text)
      expect(page2).toHaveLength(20)
      expect(page2.filter((id) => page1.includes(id))).toEqual([])
      expect(second.text).toContain(`Results 21–40 of ${total}`)
      expect(new URL(hrefOf(second.text, "page-prev")!, sandbox.url).searchParams.get("page")).toBe("1")
      // Past the end (or nonsense) shows the nearest page; the last one has no Next.
      const pages = Math.ceil(total / 20)
      const last = yield* call(s.command("ShowCatalog", `&vin=${vehicle.vin}&page=999`))
      expect(last.text).toContain(`page ${pages} of ${pages}`)
      expect(productIds(last.text)).toHaveLength(total - (pages - 1) * 20)
      expect(hrefOf(last.text, "page-next")).toBeUndefined()
      expect((yield* call(s.command("ShowCatalog", `&vin=${vehicle.vin}&page=abc`))).text).toContain(
        `page 1 of ${pages}`
      )
      // A short search is one page, and the driver reports the same paging.
      const driven = yield* sandbox.admin.driver.search(s.token, { vin: vehicle.vin, page: "2" })
      expect(driven).toMatchObject({ page: 2, pageCount: pages, total })
      expect(driven.results.map((r) => `${r.brandID}|${r.productID}`)).toEqual(page2)
    }))

  it.scoped("a part with none on hand offers no Add to cart, and adding it anyway is API0234", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const other = yield* session(sandbox)
      // Another order takes the last two struts in the US (LS3003: 2 in Dallas only).
      expect(
        (yield* call(other.command("CreateOrder"), {
          method: "POST",
          body: JSON.stringify({ productID: "LS3003", brandID: "MON", quantity: "2" })
        })).status
      ).toBe(200)
      const s = yield* session(sandbox)
      const page = yield* call(s.command("ShowCatalog", `&vin=${vehicle.vin}&searchTerm=strut`))
      const strut = rowOf(page.text, "LS3003")!
      expect(strut).toMatch(/data-testid="availability">[^<]*<span class="out">Out of stock/)
      expect(strut).not.toContain(`data-testid="add-to-cart"`)
      expect(strut).toContain(`data-testid="unavailable"`)
      // Not stocked and unpriced parts get no button either.
      const coil = rowOf(
        (yield* call(s.command("ShowCatalog", `&vin=${vehicle.vin}&searchTerm=ignition coil`))).text,
        "NS2002"
      )!
      expect(coil).not.toContain(`data-testid="add-to-cart"`)
      const unpriced = rowOf(
        (yield* call(s.command("ShowCatalog", `&vin=${vehicle.vin}&searchTerm=alternator`))).text,
        "NP1001"
      )!
      expect(unpriced).not.toContain(`data-testid="add-to-cart"`)
      // An in-stock part keeps its button.
      expect(rowOf((yield* call(s.command("ShowCatalog", `&vin=${vehicle.vin}&searchTerm=oil filter`))).text, "51515"))
        .toContain(`data-testid="add-to-cart"`)
      const forced = yield* form(`${sandbox.url}/punchout/v1/app/add?token=${s.token}`, {
        productID: "LS3003",
        brandID: "MON",
        quantity: "1"
      })
      expect(forced.status).toBe(400)
      expect(forced.text).toMatch(/data-testid="error">API0234/)
      const driven = yield* Effect.flip(
        sandbox.admin.driver.addToCart(s.token, { productID: "LS3003", brandID: "MON", quantity: 1 })
      )
      expect(driven.message).toContain("API0234")
    }))

  it.scoped("with outOfStock: \"backOrder\" the part is back-ordered and dispatched a week later", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox({ outOfStock: "backOrder" })
      const other = yield* session(sandbox)
      yield* call(other.command("CreateOrder"), {
        method: "POST",
        body: JSON.stringify({ productID: "LS3003", brandID: "MON", quantity: "2" })
      })
      const s = yield* session(sandbox)
      const back = `/punchout/v1/ShowCatalog?token=${s.token}&vin=${vehicle.vin}&searchTerm=strut`
      const strut = rowOf((yield* call(`${sandbox.url}${back}`)).text, "LS3003")!
      expect(strut).toContain(`data-testid="back-order"`)
      // Dallas dispatches Monday 23:00 UTC; a back-order leaves a week later.
      expect(strut).toContain(`datetime="2026-06-08T23:00:00.000Z"`)
      const added = yield* form(`${sandbox.url}/punchout/v1/app/add?token=${s.token}`, {
        productID: "LS3003",
        brandID: "MON",
        quantity: "1",
        back
      })
      expect(added.status).toBe(303)
      const cart = yield* call(`${sandbox.url}${back}`)
      expect(cart.text).toMatch(/data-testid="cart-line" data-product-id="LS3003"[\s\S]*?data-testid="back-ordered"/)
      const created = yield* call(s.command("CreateOrder"), {
        method: "POST",
        body: JSON.stringify({ productID: "LS3003", brandID: "MON", quantity: "5" })
      })
      expect(created.status).toBe(200)
      expect(new Date(created.body.order.orderLines[0].dispatchTime).toISOString()).toBe("2026-06-08T23:00:00.000Z")
      // Stock on hand never reads below zero, whatever is back-ordered.
      const quotes = yield* call(s.command("GetProductQuotes"), {
        method: "POST",
        body: JSON.stringify({ productID: "LS3003", brandID: "MON", quantity: "1" })
      })
      expect(quotes.body.quotes[0].quantityAvail).toBe(0)
      // In-stock parts are unaffected.
      const filter = yield* call(s.command("CreateOrder"), {
        method: "POST",
        body: JSON.stringify({ productID: "51515", brandID: "WIX", quantity: "1" })
      })
      expect(new Date(filter.body.order.orderLines[0].dispatchTime).toISOString()).toBe("2026-06-01T23:00:00.000Z")
    }))

  it.scoped("shows times in the shop's time zone, labelled, with UTC beside them", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      // The sandbox starts Monday 2026-06-01 14:00 UTC; Dallas dispatches at 23:00 UTC, Toronto at 22:00 UTC.
      const dispatchOf = (html: string) =>
        /data-testid="dispatch">([\s\S]*?)<\/td>/.exec(rowOf(html, "51515")!)?.[1] ?? ""
      const us = yield* session(sandbox)
      const usPage = (yield* call(us.command("ShowCatalog", `&vin=${vehicle.vin}&searchTerm=oil filter`))).text
      expect(usPage).toMatch(/data-testid="time-zone">[^<]*America\/Chicago[^<]*UTC/)
      expect(dispatchOf(usPage)).toContain(`Mon, Jun 1, 6:00 PM CDT`)
      expect(dispatchOf(usPage)).toContain(`2026-06-01 23:00 UTC`)
      const ca = SANDBOX_FIXTURES.vehicles.find((v) => v.licensePlateState === "ON")!
      const caSession = yield* session(sandbox, {
        apiToken: sandbox.credentials.customers.ca.apiToken,
        accountNo: sandbox.credentials.customers.ca.accountNo,
        username: sandbox.credentials.customers.ca.username,
        country: "CA"
      })
      const caPage = (yield* call(caSession.command("ShowCatalog", `&vin=${ca.vin}&searchTerm=oil filter`))).text
      expect(dispatchOf(caPage)).toContain(`Mon, Jun 1, 6:00 PM EDT`)
      expect(dispatchOf(caPage)).toContain(`2026-06-01 22:00 UTC`)
      // A shop's own zone, given when it is added; the order page labels its times the same way.
      yield* sandbox.admin.addCustomer({
        accountNo: "700900",
        username: "west@shop.example",
        apiToken: "t-700900",
        country: "US",
        timeZone: "America/Los_Angeles"
      })
      const west = yield* session(sandbox, { apiToken: "t-700900", accountNo: "700900", username: "west@shop.example" })
      const created = yield* call(west.command("CreateOrder"), {
        method: "POST",
        body: JSON.stringify({ productID: "51515", brandID: "WIX", quantity: "1" })
      })
      const order = (yield* call(west.command("ShowOrder", `&orderId=${created.body.order.orderID}`))).text
      expect(order).toMatch(/data-testid="time-zone">[^<]*America\/Los_Angeles/)
      expect(order).toMatch(
        /data-testid="order-line-dispatch"><time datetime="2026-06-01T23:00:00.000Z">Mon, Jun 1, 4:00 PM PDT<\/time>/
      )
      const refused = yield* Effect.exit(
        sandbox.admin.addCustomer({
          accountNo: "700901",
          username: "x@shop.example",
          apiToken: "t-700901",
          country: "US",
          timeZone: "Mars/Olympus"
        })
      )
      expect(refused._tag).toBe("Failure")
    }))
})
