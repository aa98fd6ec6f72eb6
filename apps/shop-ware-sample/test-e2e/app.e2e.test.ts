// The sample in a real browser (Chromium through playwright-core), on the embedded default (the
// distributor sandbox and the fake Shop-Ware) with a second shop beside the demo one: sign in, the
// repair order list, Order parts (the catalog opens in a new tab), two parts in the cart, Export,
// then Export and Submit, each callback page listing the parts the integration keeps (Shop-Ware
// takes no part lines: the runtime's parts ledger), the RO page with those parts, and the
// distributor order recorded on the Shop-Ware repair order as an integrator tag plus a note (read
// from the fake's state and its API). Then what a browser sees of the guards: signed out, a page
// sends it to sign in (and back after); a POST without the session's CSRF token, or from another
// origin even with the token, is refused; a session signed out stays signed out; and each shop's
// user sees and reaches only their own shop's repair orders. Saves screenshots to test-results/.
import { describe, expect, it } from "@effect/vitest"
import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
import { FAKE_SHOP_WARE_FIXTURES, smsSecretsFor } from "@shoplink/adapter-shop-ware/testing"
import { BrowserSteps, Transcript } from "@shoplink/connector-testkit"
import { ServicePages, SignIn } from "@shoplink/service-pages"
import { chromiumLaunchOptions } from "@shoplink/vitest-config/e2e"
import { Effect, Redacted, type Scope } from "effect"
import { mkdirSync } from "node:fs"
import { createServer } from "node:http"
import { join } from "node:path"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import { startApp } from "../src/app.js"
import { loopbackSettings, SHOP, startEmbedded } from "../src/embedded.js"

const results = join(import.meta.dirname, "..", "test-results")
const step = <A>(f: () => Promise<A>) => Effect.promise(f)
const { partner } = FAKE_SHOP_WARE_FIXTURES
const ro1042 = FAKE_SHOP_WARE_FIXTURES.repairOrders[0]
/** The applied state of a callback page may take a while with two runs on two cores. */
const APPLIED = "[data-testid=\"callback-summary\"][data-state=\"applied\"]"
const SLOW = { timeout: 60_000 }

/** The second shop: the same Shop-Ware tenant's shop 2 (its own `shopWareShopId`), a CA account. */
const SECOND = { id: "second-bay", name: "Second Bay Auto", shopWareShopId: "2", roNumber: 3001 } as const

interface User {
  readonly email: string
  readonly password: string
  readonly shopName: string
}

/**
 * The embedded default with a second shop (and its user and repair order) beside the demo one,
 * the service on it (loopback, a free port), and a Chromium. Both shops are in tenant 1 of the
 * fake, so each names its Shop-Ware shop: the demo shop 1, the second shop 2.
 */
const setup: Effect.Effect<
  {
    readonly embedded: Effect.Effect.Success<ReturnType<typeof startEmbedded>>
    readonly appUrl: string
    readonly browser: Browser
    readonly users: readonly [User, User]
    readonly secondRo: string
  },
  never,
  Scope.Scope
> = Effect.gen(function*() {
  const embedded = yield* startEmbedded()
  const secondRo = String(embedded.fake.addRepairOrder({
    id: SECOND.roNumber,
    tenantId: 1,
    shopId: Number(SECOND.shopWareShopId),
    number: SECOND.roNumber,
    customer: { firstName: "Riley", lastName: "Chen" },
    vehicle: { year: "2016", make: "Nissan", model: "Altima", vin: "1N4AL3APXGC123456" }
  }))
  const ben = { email: "ben@second-bay.example", name: "Ben", password: SignIn.randomPassword() }
  const { settings } = embedded
  const demoShop = settings.shops[0]!
  const { ca } = embedded.sandbox.credentials.customers
  const dir = yield* Transcript.scratchDirectory("shop-ware-e2e-")
  const app = yield* startApp(
    {
      ...loopbackSettings(settings, join(dir, "db.sqlite")),
      smsVendorName: "Shop-Ware (Shoplink e2e)",
      users: [...settings.users, {
        email: ben.email,
        name: ben.name,
        shopId: SECOND.id,
        passwordHash: yield* step(() => SignIn.hashPassword(ben.password))
      }],
      shops: [
        { ...demoShop, sms: { ...demoShop.sms, [ShopWareConnector.SHOP_ID_SECRET]: Redacted.make("1") } },
        {
          id: SECOND.id,
          name: SECOND.name,
          distributor: {
            accountNo: ca.accountNo,
            username: ca.username,
            country: "CA",
            apiToken: Redacted.make(ca.apiToken)
          },
          sms: {
            ...smsSecretsFor(partner, 1),
            [ShopWareConnector.SHOP_ID_SECRET]: Redacted.make(SECOND.shopWareShopId)
          }
        }
      ]
    },
    embedded.fake.url
  ).pipe(Effect.orDie)
  const browser = yield* Effect.acquireRelease(
    Effect.promise(() => chromium.launch(chromiumLaunchOptions())),
    (b) => Effect.promise(() => b.close())
  )
  const users = [
    { email: embedded.user.email, password: embedded.user.password, shopName: SHOP.name },
    { email: ben.email, password: ben.password, shopName: SECOND.name }
  ] as const
  return { embedded, appUrl: app.url, browser, users, secondRo }
})

/** A browser context of its own (its own cookies), closed with the scope. */
const newContext = (browser: Browser) =>
  Effect.acquireRelease(
    step(() => browser.newContext({ viewport: { width: 1200, height: 900 } })),
    (context) => Effect.promise(() => context.close())
  )

/** A context of its own signed in as `user` from the list page (which sends the browser to sign in first). */
const signIn = (browser: Browser, appUrl: string, user: User) =>
  Effect.gen(function*() {
    const context = yield* newContext(browser)
    const page = yield* step(() => context.newPage())
    const cspErrors = BrowserSteps.cspViolations(page)
    yield* step(() => BrowserSteps.signIn(page, appUrl, user))
    expect(yield* step(() => page.getByTestId("shop-name").textContent())).toBe(user.shopName)
    return { context, page, cspErrors }
  })

const screenshot = (page: Page, what: string) =>
  Effect.gen(function*() {
    mkdirSync(results, { recursive: true })
    yield* step(() => page.screenshot({ path: join(results, `shop-ware-sample-${what}.png`), fullPage: true }))
  })

const listedRos = (page: Page) =>
  step(() =>
    page.locator("[data-testid=\"repair-order\"]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-ro")))
  )

/** The cells of the page's rows with test id `testId` (part number, brand, description, quantity, …). */
const cellsOf = (page: Page, testId: string) =>
  step(() =>
    page.locator(`[data-testid="${testId}"]`).evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim()))
    )
  )

/** The first result of `search` in the catalog that can be added to the cart. */
const firstAddable = (catalog: Page, search: string) =>
  Effect.gen(function*() {
    yield* step(() => catalog.fill("input[name=searchTerm]", search))
    yield* step(() =>
      Promise.all([catalog.waitForURL(/searchTerm=/), catalog.click("button[type=submit] >> text=Search")])
    )
    const row = catalog.locator("[data-testid=result]:has([data-testid=add-to-cart])").first()
    const productID = yield* step(() => row.getAttribute("data-product-id"))
    const brandID = yield* step(() => row.getAttribute("data-brand-id"))
    expect(productID, `an addable ${search}`).toBeTruthy()
    return { productID: productID!, brandID: brandID! }
  })

/** Press one of the catalog's export buttons and wait for the callback page to say it is applied. */
const exportFrom = (catalog: Page, button: "export" | "export-and-submit") =>
  Effect.gen(function*() {
    yield* step(() =>
      Promise.all([catalog.waitForURL(/\/shoplink\/callback\//, SLOW), catalog.getByTestId(button).click()])
    )
    yield* step(() => catalog.waitForSelector(APPLIED, SLOW))
    return yield* step(() => catalog.getByTestId("callback-summary").textContent())
  })

/** What the fake Shop-Ware answered for requests of the repair order's own path so far. */
const readsOf = (embedded: Effect.Effect.Success<ReturnType<typeof startEmbedded>>, id: string) =>
  embedded.fake.requests().filter((r) => r.path.endsWith(`/repair_orders/${id}`)).length

/** Submits the form around `button` (a locator on `page`) and answers the response it navigated to. */
const submit = (page: Page, button: ReturnType<Page["locator"]>, path: string) =>
  step(() =>
    Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().method() === "POST"),
      button.click()
    ]).then(([response]) => response)
  )

/** A page on another origin of this machine: a loopback server (a free port) answering `html()`. */
const otherSite = (html: () => string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly close: () => void }>((resume) => {
      const server = createServer((_, outgoing) => {
        outgoing.writeHead(200, { "content-type": "text/html; charset=utf-8" })
        outgoing.end(html())
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}/`, close: () => server.close() }))
      })
    }),
    (site) => Effect.sync(() => site.close())
  )

const sessionCookieOf = (context: BrowserContext) =>
  step(() => context.cookies()).pipe(Effect.map((cookies) => cookies.find((c) => c.name === "shoplink_session")))

describe("shop-ware-sample in Chromium", () => {
  it.live(
    "repair orders → Order parts → catalog → Export → Export and Submit → parts kept by the integration, the order recorded in Shop-Ware as a tag and a note; invoiced there, the RO closes to ordering",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const { appUrl, browser, embedded, users } = yield* setup
        const { context, cspErrors, page } = yield* signIn(browser, appUrl, users[0])
        expect(yield* listedRos(page)).toEqual(["1042", "1043"])
        // #1043 has a plate only (Shop-Ware keeps no plate state): the list says what to add and
        // offers no Order parts.
        const ro1043 = page.locator("[data-testid=\"repair-order\"][data-ro=\"1043\"]")
        expect(yield* step(() => ro1043.getByTestId("vehicle-hint").textContent())).toBe(
          "No VIN or license plate with its state: add one to the vehicle in Shop-Ware to order parts."
        )
        expect(yield* step(() => ro1043.getByTestId("order-parts").count())).toBe(0)
        yield* screenshot(page, "list")

        // Order parts: the catalog in a new tab, on the RO's VIN; the sample's own page stays.
        const catalog = yield* step(() => BrowserSteps.openCatalog<Page>(context, page, "1042"))
        expect(page.url()).toBe(`${appUrl}/`)
        expect(yield* step(() => catalog.getByTestId("vehicle").textContent())).toContain(ro1042.vehicle.vin)
        const catalogUrl = catalog.url()
        yield* step(() =>
          BrowserSteps.addToCart(catalog, { search: "oil filter", productID: "51515", brandID: "WIX", quantity: 2 })
        )
        const starter = yield* firstAddable(catalog, "starter motor")
        yield* step(() => BrowserSteps.addToCart(catalog, { search: "starter motor", ...starter, quantity: 1 }))
        expect(yield* step(() => catalog.getByTestId("cart-line").count())).toBe(2)

        // Export: the callback page says the quote is kept with the RO, and lists it.
        expect(yield* exportFrom(catalog, "export")).toBe("2 parts quoted and kept with RO 1042.")
        expect(
          yield* step(() =>
            catalog.locator("[data-testid=\"parts-row\"]").evaluateAll((r) => r.map((e) => e.getAttribute("data-kind")))
          )
        ).toEqual(["quote", "quote"])

        // Export and Submit in the same launch: the order, kept too.
        yield* step(() => catalog.goto(catalogUrl))
        expect(yield* exportFrom(catalog, "export-and-submit")).toBe("2 parts ordered and kept with RO 1042.")
        expect(
          yield* step(() =>
            catalog.locator("[data-testid=\"parts-row\"]").evaluateAll((r) => r.map((e) => e.getAttribute("data-kind")))
          )
        ).toEqual(["quote", "quote", "order", "order"])
        // The link back goes to the repair order in the tenant's Shop-Ware web app.
        expect(yield* step(() => catalog.getByTestId("repair-order-link").getAttribute("href"))).toBe(
          "https://demo-auto.shop-ware.com/work_orders/1042"
        )
        yield* screenshot(catalog, "callback")

        // The RO page: the parts the integration keeps, and the order with its status.
        yield* step(() => page.goto(`${appUrl}/ro/${ro1042.id}`))
        expect(yield* step(() => page.getByTestId("ro-title").textContent())).toBe(
          `RO 1042 · 2019 Ford F-150 · ${ro1042.vehicle.vin}`
        )
        expect(yield* step(() => page.getByTestId("parts-note").textContent())).toBe(
          "Shop-Ware takes no part lines from other systems: the integration keeps the quoted and ordered parts of this repair order."
        )
        const partLines = [
          ["51515", "WIX", expect.stringContaining("Oil Filter"), "2"],
          [starter.productID, starter.brandID, expect.stringContaining("Starter Motor"), "1"]
        ]
        expect((yield* cellsOf(page, "quoted-line")).map((cells) => cells.slice(0, 4))).toEqual(partLines)
        expect((yield* cellsOf(page, "ordered-line")).map((cells) => cells.slice(0, 4))).toEqual(partLines)
        expect(yield* step(() => page.getByTestId("distributor-order").count())).toBe(1)
        const orderID = (yield* step(() => page.getByTestId("distributor-order").getAttribute("data-order-id")))!
        expect(orderID).toMatch(/^\S+$/)
        expect(yield* step(() => page.getByTestId("order-status").textContent())).toBe("Order submitted")
        yield* screenshot(page, "ro")

        // In Shop-Ware: one integrator tag naming the order (its value the status) and one note.
        const tags = embedded.fake.tags(ro1042.id)
        expect(tags.map((t) => [t.name, ServicePages.orderStatusText(t.value)])).toEqual([
          [ShopWareConnector.orderTagName(orderID), "Order submitted"]
        ])
        const notes = embedded.fake.notes(ro1042.id)
        expect(notes).toHaveLength(1)
        expect(notes[0]!.description).toMatch(new RegExp(`^Parts order ${orderID}: Order submitted \\(status `))
        expect(notes[0]!.description.endsWith(`[shoplink-order:${orderID}]`)).toBe(true)
        // The same through the fake's API, as an integrator reads it back.
        const headers = { "x-api-partner-id": String(partner.partnerId), "x-api-secret": partner.secret }
        const fromApi = (yield* step(() =>
          fetch(
            `${embedded.fake.url}/api/v1/tenants/1/repair_orders/${ro1042.id}?associations[]=integrator_tags`,
            { headers }
          ).then((r) => r.json())
        )) as { readonly integrator_tags: Parameters<typeof ShopWareConnector.recordedOrders>[0] }
        expect(ShopWareConnector.recordedOrders(fromApi.integrator_tags).map((o) => o.orderID)).toEqual([orderID])
        const notesFromApi = (yield* step(() =>
          fetch(`${embedded.fake.url}/api/v1/tenants/1/notes?repair_order_id=${ro1042.id}`, { headers }).then((r) =>
            r.json()
          )
        )) as { readonly results: ReadonlyArray<{ readonly description: string }> }
        expect(notesFromApi.results.map((n) => n.description)).toEqual([notes[0]!.description])
        // Shop-Ware was written nothing but the webhook subscriptions (at start-up, one per shop),
        // the tag and the note: no part line.
        const writes = embedded.fake.requests().filter((r) =>
          r.method !== "GET"
        )
        expect(writes.filter((w) => w.path === "/api/v1/webhooks").map((w) => w.method)).toEqual(["POST", "POST"])
        const onRepairOrder = writes.filter((w) => w.path !== "/api/v1/webhooks")
        expect(onRepairOrder.length).toBeGreaterThan(0)
        for (const w of onRepairOrder) {
          expect(w.path).toMatch(/^\/api\/v1\/tenants\/1\/(notes|integrator_tags)(\/\d+)?$/)
        }

        // #1043's page opens too (a plate only): the hint of what to add, no Order parts.
        const plateOnly = FAKE_SHOP_WARE_FIXTURES.repairOrders[1]!
        yield* step(() => page.goto(`${appUrl}/ro/${plateOnly.id}`))
        expect(yield* step(() => page.getByTestId("ro-title").textContent())).toContain("RO 1043")
        expect(yield* step(() => page.getByTestId("vehicle-hint").count())).toBe(1)
        expect(yield* step(() => page.getByTestId("order-parts").count())).toBe(0)

        // Shop-Ware invoices #1042: its webhook reaches the service, which reads the repair order
        // back; the page then says it is closed, offers no Order parts, and still shows its parts.
        embedded.fake.setState(ro1042.id, "invoice")
        yield* step(() => embedded.fake.settle())
        expect(embedded.fake.deliveries().map((d) => d.status)).toContain(204)
        yield* step(() => page.goto(`${appUrl}/ro/${ro1042.id}`))
        expect(yield* step(() => page.getByTestId("ro-closed").textContent())).toBe(
          "Closed in Shop-Ware: parts are no longer ordered for this repair order."
        )
        expect(yield* step(() => page.getByTestId("order-parts").count())).toBe(0)
        expect(yield* step(() => page.getByTestId("order-status").textContent())).toBe("Order submitted")
        yield* screenshot(page, "ro-closed")
        expect(cspErrors).toEqual([])
      })),
    180_000
  )

  it.live(
    "what a browser sees of the guards: signed out → sign in and back; a POST without the CSRF token, or from another origin with it, is refused; a signed-out session stays out",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const { appUrl, browser, embedded, users } = yield* setup
        const [ava] = users
        const context = yield* newContext(browser)
        const page = yield* step(() => context.newPage())
        const cspErrors = BrowserSteps.cspViolations(page)

        // Signed out, a repair order's page sends the browser to sign in; a wrong password gets the
        // sign-in page again with one generic error; the right one lands back on that page.
        yield* step(() => page.goto(`${appUrl}/ro/${ro1042.id}`))
        expect(page.url()).toBe(`${appUrl}/sign-in?next=%2Fro%2F${ro1042.id}`)
        yield* step(() => page.fill("#email", ava.email))
        yield* step(() => page.fill("#password", "not the password"))
        yield* step(() => Promise.all([page.waitForLoadState("load"), page.getByTestId("sign-in").click()]))
        expect(yield* step(() => page.getByTestId("sign-in-error").textContent())).toBe(
          "The email or password is incorrect."
        )
        yield* step(() => page.fill("#password", ava.password))
        yield* step(() =>
          Promise.all([page.waitForURL(`${appUrl}/ro/${ro1042.id}`), page.getByTestId("sign-in").click()])
        )
        expect(yield* step(() => page.getByTestId("ro-title").textContent())).toContain("RO 1042")

        // The Order parts form with its CSRF token taken out (or replaced), posted from the
        // service's own page: refused (403), and no launch (Shop-Ware is not even asked).
        const form = page.locator(`form[action="/ro/${ro1042.id}/order-parts"]`)
        const orderPartsPath = `/ro/${ro1042.id}/order-parts`
        const reads = readsOf(embedded, String(ro1042.id))
        yield* step(() => form.evaluate((f) => f.removeAttribute("target")))
        yield* step(() => form.locator("input[name=csrf]").evaluate((input) => input.remove()))
        const missing = yield* submit(page, form.getByTestId("order-parts"), orderPartsPath)
        expect(missing.status()).toBe(403)
        expect(readsOf(embedded, String(ro1042.id))).toBe(reads)
        expect(yield* step(() => page.getByTestId("error").textContent())).toBe(
          "This request was refused. Sign in, then try again from the service's own page."
        )
        yield* step(() => page.goto(`${appUrl}/ro/${ro1042.id}`))
        const csrf = (yield* step(() => form.locator("input[name=csrf]").getAttribute("value")))!
        const readsNow = readsOf(embedded, String(ro1042.id))
        yield* step(() => form.evaluate((f) => f.removeAttribute("target")))
        yield* step(() =>
          form.locator("input[name=csrf]").evaluate((input) => input.setAttribute("value", "A".repeat(43)))
        )
        const wrong = yield* submit(page, form.getByTestId("order-parts"), orderPartsPath)
        expect(wrong.status()).toBe(403)
        expect(readsOf(embedded, String(ro1042.id))).toBe(readsNow)

        // A page of another origin (another port of this machine, so the browser sends the
        // session cookie) with the form and even the right token: refused on its Origin.
        const site = yield* otherSite(() =>
          `<!doctype html><title>Elsewhere</title><form method="post" action="${appUrl}${orderPartsPath}">` +
          `<input type="hidden" name="csrf" value="${csrf}"><button id="go">Claim your prize</button></form>`
        )
        yield* step(() => page.goto(site.url))
        const forged = yield* submit(page, page.locator("#go"), orderPartsPath)
        expect(forged.status()).toBe(403)
        expect(page.url()).toBe(`${appUrl}${orderPartsPath}`)
        expect(readsOf(embedded, String(ro1042.id))).toBe(readsNow)

        // Still signed in, and the real button still works (the catalog opens).
        yield* step(() => page.goto(appUrl))
        const catalog = yield* step(() => BrowserSteps.openCatalog<Page>(context, page, "1042"))
        expect(yield* step(() => catalog.getByTestId("vehicle").textContent())).toContain(ro1042.vehicle.vin)
        yield* step(() => catalog.close())

        // Signing out ends the session: the old cookie, put back, is worth nothing.
        const cookie = (yield* sessionCookieOf(context))!
        expect(cookie.httpOnly).toBe(true)
        expect(cookie.sameSite).toBe("Lax")
        yield* step(() => Promise.all([page.waitForURL(/\/sign-in$/), page.getByTestId("sign-out").click()]))
        expect(yield* sessionCookieOf(context)).toBeUndefined()
        yield* step(() => context.addCookies([cookie]))
        yield* step(() => page.goto(`${appUrl}/ro/${ro1042.id}`))
        expect(page.url()).toBe(`${appUrl}/sign-in?next=%2Fro%2F${ro1042.id}`)
        expect(cspErrors).toEqual([])
      })),
    180_000
  )

  it.live(
    "two shops' users in two browser contexts: each sees and reaches only their own shop's repair orders",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const { appUrl, browser, secondRo, users } = yield* setup
        const a = yield* signIn(browser, appUrl, users[0])
        const b = yield* signIn(browser, appUrl, users[1])
        expect(yield* listedRos(a.page)).toEqual(["1042", "1043"])
        expect(yield* listedRos(b.page)).toEqual([String(SECOND.roNumber)])
        expect(yield* step(() => a.page.content())).not.toContain("Riley Chen")
        expect(yield* step(() => b.page.content())).not.toContain("Dana Reyes")
        yield* screenshot(b.page, "list-second-shop")

        // Another shop's repair order, typed into the address bar: not found, nothing of it shown.
        const foreignRos = [[a.page, secondRo, "Riley Chen"], [b.page, String(ro1042.id), "Dana Reyes"]] as const
        for (const [page, id, name] of foreignRos) {
          const foreign = yield* step(() => page.goto(`${appUrl}/ro/${id}`))
          expect(foreign?.status()).toBe(404)
          expect(yield* step(() => page.getByTestId("error").textContent())).toBe("No such repair order in your shop.")
          expect(yield* step(() => page.content())).not.toContain(name)
        }

        // Ben's own Order parts form, pointed at Ava's repair order (his session and token): not
        // found either, no catalog.
        yield* step(() => b.page.goto(appUrl))
        const form = b.page.locator(`[data-testid="repair-order"][data-ro="${SECOND.roNumber}"] form`)
        yield* step(() =>
          form.evaluate((f, id) => {
            f.removeAttribute("target")
            f.setAttribute("action", `/ro/${id}/order-parts`)
          }, String(ro1042.id))
        )
        const refused = yield* submit(b.page, form.getByTestId("order-parts"), `/ro/${ro1042.id}/order-parts`)
        expect(refused.status()).toBe(404)
        expect(yield* step(() => b.page.getByTestId("error").textContent())).toBe("No such repair order in your shop.")

        // His own repair order opens his catalog, on its vehicle.
        yield* step(() => b.page.goto(appUrl))
        const catalog = yield* step(() => BrowserSteps.openCatalog<Page>(b.context, b.page, String(SECOND.roNumber)))
        expect(yield* step(() => catalog.getByTestId("vehicle").textContent())).toContain("1N4AL3APXGC123456")
        expect(a.cspErrors).toEqual([])
        expect(b.cspErrors).toEqual([])
      })),
    120_000
  )
})
