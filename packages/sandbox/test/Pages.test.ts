// What a person sees of the ordering pages (issue #26): a viewport on every page, the cart above
// the results, "price on request", a way back from an error, an empty cart's Export that asks
// first, a new launch that does not bring back an exported cart, and /docs without markdown.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { request } from "node:http"
import { SANDBOX_FIXTURES, startSandbox } from "../src/index.js"
import { inlineCode } from "../src/internal/openapi.js"
import { Html } from "@shoplink/http"
import { call, session } from "./helpers.js"
import { receiver } from "./receiver.js"

const form = (url: string, fields: Record<string, string>) =>
  call(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString()
  })

const vehicle = SANDBOX_FIXTURES.vehicles[0]!
const VIEWPORT = `<meta name="viewport" content="width=device-width, initial-scale=1">`
// A browser navigation's Fetch Metadata (fetch() would send its own `sec-fetch-mode: cors`).
const navigate = (url: string, site: string) =>
  Effect.async<string>((resume) => {
    const req = request(url, {
      headers: { "sec-fetch-site": site, "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" }
    }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => resume(Effect.succeed(text)))
    })
    req.on("error", (error) => resume(Effect.die(error)))
    req.end()
  })
const cartLines = (text: string) =>
  [...text.matchAll(/data-testid="cart-line" data-product-id="([^"]+)"/g)].map((m) => m[1])

describe("ordering pages for people", () => {
  it.scoped("every page declares a viewport; the cart comes before the results; an unpriced part reads 'price on request'", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const catalog = yield* call(s.command("ShowCatalog", `&vin=${vehicle.vin}&searchTerm=alternator`))
      const orderError = yield* call(s.command("ShowOrder"))
      const unknownToken = yield* call(`${sandbox.url}/punchout/v1/ShowCatalog?token=nope`)
      const docs = yield* call(`${sandbox.url}/docs`)
      for (const [what, page] of Object.entries({ catalog, orderError, unknownToken, docs })) {
        expect(page.text, what).toContain(VIEWPORT)
      }
      expect(catalog.text.indexOf(`data-testid="cart"`)).toBeGreaterThan(0)
      expect(catalog.text.indexOf(`data-testid="cart"`)).toBeLessThan(catalog.text.indexOf(`data-testid="results"`))
      // NP1001 has no price (API0243): no "$0.00" list price.
      const row = /<tr data-testid="result" data-product-id="NP1001"[\s\S]*?<\/tr>/.exec(catalog.text)?.[0] ?? ""
      expect(row).toContain(`data-testid="price">Price on request<`)
      expect(row).toContain(`data-testid="list-price">List price on request<`)
      expect(row).not.toContain("$0.00")
    }))

  it.scoped("an error page links back to where the user was", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const back = `/punchout/v1/ShowCatalog?token=${s.token}&vin=${vehicle.vin}&searchTerm=oil+filter&page=1`
      const refused = yield* form(`${sandbox.url}/punchout/v1/app/add?token=${s.token}`, {
        productID: "51515",
        brandID: "WIX",
        quantity: "-3",
        back
      })
      expect(refused.status).toBe(400)
      expect(refused.text).toMatch(/data-testid="error">API0231/)
      expect(refused.text).toContain(
        `data-testid="back" href="${Html.toHtmlString(Html.html`${back}`)}">← Back to the catalog<`
      )
      // A back address that is not an ordering page goes to the catalog instead.
      const elsewhere = yield* form(`${sandbox.url}/punchout/v1/app/add?token=${s.token}`, {
        productID: "51515",
        brandID: "WIX",
        quantity: "0",
        back: "https://evil.example/"
      })
      expect(elsewhere.text).toContain(`data-testid="back" href="/punchout/v1/ShowCatalog?token=${s.token}"`)
      // A page that could not be shown (an unknown VIN) links to the catalog too.
      const vin = yield* call(s.command("ShowCatalog", "&vin=1FTEW1E56KFA99999"))
      expect(vin.status).toBe(400)
      expect(vin.text).toContain(`data-testid="back" href="/punchout/v1/ShowCatalog?token=${s.token}"`)
    }))

  it.scoped("Export with an empty cart says what it would send and asks first; only the confirmation sends the quotes", () =>
    Effect.gen(function*() {
      const hooks = yield* receiver()
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox, { webhooks: { order: `${hooks.url}/order`, quote: `${hooks.url}/quote` } })
      const catalog = yield* call(s.command("ShowCatalog", `&vin=${vehicle.vin}`))
      const priced = (catalog.text.match(/data-testid="price" data-label="Price">\$/g) ?? []).length
      expect(priced).toBeGreaterThan(1)
      expect(catalog.text).toContain(
        `data-testid="export-note">With the cart empty, Export would send the ${priced} parts priced on the last results page as quotes; it asks first.<`
      )
      const back = `/punchout/v1/ShowCatalog?token=${s.token}&vin=${vehicle.vin}`
      const asked = yield* form(`${sandbox.url}/punchout/v1/app/press?token=${s.token}`, { button: "export", back })
      expect(asked.status).toBe(200)
      expect(asked.text).toContain(`<h1>Export quotes for ${priced} parts?</h1>`)
      expect((asked.text.match(/data-testid="export-confirm-line"/g) ?? []).length).toBe(priced)
      expect(asked.text).toContain(`data-testid="back" href="${Html.toHtmlString(Html.html`${back}`)}"`)
      expect(yield* sandbox.admin.deliveries()).toEqual([])
      const sent = yield* form(`${sandbox.url}/punchout/v1/app/press?token=${s.token}`, {
        button: "export",
        confirm: "empty-cart",
        back
      })
      expect(sent.status).toBe(200)
      expect(sent.text).toContain(`data-testid="export-result">Export done.`)
      const [delivery] = yield* sandbox.admin.awaitDeliveries(1)
      expect(delivery?.event).toBe("quote")
      expect(hooks.received[0]?.body.quotes).toHaveLength(priced)
      // With parts in the cart, Export sends the cart at once.
      yield* form(`${sandbox.url}/punchout/v1/app/add?token=${s.token}`, {
        productID: "51515",
        brandID: "WIX",
        quantity: "2"
      })
      const withCart = yield* form(`${sandbox.url}/punchout/v1/app/press?token=${s.token}`, { button: "export" })
      expect(withCart.text).toContain(`data-testid="export-result">Export done.`)
      yield* sandbox.admin.awaitDeliveries(2)
      expect(hooks.received[1]?.body.quotes.map((q: { productID: string }) => q.productID)).toEqual(["51515"])
    }))

  it.scoped("a new launch (a page opened from another site) does not bring back an exported cart; the same visit and an unexported cart keep it", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const launch = (site: "cross-site" | "same-site" | "same-origin") =>
        Effect.map(navigate(s.command("ShowCatalog", `&vin=${vehicle.vin}`), site), (text) => ({ text }))
      yield* form(`${sandbox.url}/punchout/v1/app/add?token=${s.token}`, {
        productID: "51515",
        brandID: "WIX",
        quantity: "1"
      })
      // Not exported: a new launch shows the cart as it was left.
      expect(cartLines((yield* launch("cross-site")).text)).toEqual(["51515"])
      yield* form(`${sandbox.url}/punchout/v1/app/press?token=${s.token}`, { button: "export" })
      // Same visit (the pages' own links): still the cart, so Export and Submit can follow.
      expect(cartLines((yield* launch("same-origin")).text)).toEqual(["51515"])
      expect(cartLines((yield* call(s.command("ShowCatalog"))).text)).toEqual(["51515"])
      // Order parts again: an empty cart.
      const relaunched = yield* launch("same-site")
      expect(cartLines(relaunched.text)).toEqual([])
      expect(relaunched.text).toContain(`data-testid="cart-empty"`)
      // The next part starts a new cart order; the exported one is not in it.
      expect(
        (yield* sandbox.admin.driver.addToCart(s.token, { productID: "LS3003", brandID: "MON", quantity: 1 })).lines
      ).toBe(1)
      expect(cartLines((yield* call(s.command("ShowCatalog"))).text)).toEqual(["LS3003"])
    }))
})

describe("API docs page", () => {
  it("renders inline markdown code as <code>, escaped", () => {
    expect(Html.toHtmlString(inlineCode("Pass `token` & `<b>`"))).toBe(
      "Pass <code>token</code> &amp; <code>&lt;b&gt;</code>"
    )
    expect(Html.toHtmlString(inlineCode("one ` only"))).toBe("one ` only")
  })

  it.scoped("/docs shows no markdown backticks", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const docs = yield* call(`${sandbox.url}/docs`)
      expect(docs.status).toBe(200)
      expect(docs.text).not.toContain("`")
      expect(docs.text).toContain("<code>")
    }))
})
