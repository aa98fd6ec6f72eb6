// The sample in a real browser: sign in, Order parts (the catalog opens in a new tab), search, add
// to cart, Export, then Export and Submit in the same launch, follow each callback, and see the
// parts and the order on the RO page; then two users of two shops, in two browser contexts, each
// seeing and ordering onto only their own shop's repair orders. Saves a screenshot of the final
// page to test-results/.
import { describe, expect, it } from "@effect/vitest"
import { Effect, type Scope } from "effect"
import { mkdirSync } from "node:fs"
import { createServer, request } from "node:http"
import { join } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"
import { BrowserSteps, Transcript } from "@shoplink/connector-testkit"
import { chromiumLaunchOptions } from "@shoplink/vitest-config/e2e"
import { startApp } from "../src/app.js"
import { type DemoUser, loopbackSettings, startEmbedded } from "../src/embedded.js"

const results = join(import.meta.dirname, "..", "test-results")
const step = <A>(f: () => Promise<A>) => Effect.promise(f)

/**
 * The app's public address: a loopback HTTP proxy in front of it that holds order webhooks for
 * `delayMillis`, so the browser reaches the callback page before the order does — what a slow
 * distributor does, and the case where the page used to report the earlier export as final.
 */
const delayingProxy = (target: () => string, delayMillis: number) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly close: () => void }>((resume) => {
      const server = createServer((incoming, outgoing) => {
        const forward = () => {
          const upstream = request(new URL(incoming.url ?? "/", target()), {
            method: incoming.method,
            headers: incoming.headers
          }, (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(outgoing)
          })
          upstream.on("error", () => outgoing.destroy())
          incoming.pipe(upstream)
        }
        if (incoming.method === "POST" && /\/webhooks\/[^/]+\/order$/.test(incoming.url ?? "")) {
          incoming.pause()
          setTimeout(forward, delayMillis)
        } else forward()
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, close: () => server.close() }))
      })
    }),
    (proxy) => Effect.sync(() => proxy.close())
  )

/** The embedded default and the sample behind the delaying proxy, and a Chromium. */
const setup: Effect.Effect<
  {
    readonly embedded: Effect.Effect.Success<ReturnType<typeof startEmbedded>>
    readonly appUrl: string
    readonly proxyUrl: string
    readonly browser: Browser
  },
  never,
  Scope.Scope
> = Effect.gen(function*() {
  const embedded = yield* startEmbedded()
  let appUrl = ""
  const proxy = yield* delayingProxy(() => appUrl, 3_000)
  const dir = yield* Transcript.scratchDirectory("sample-e2e-")
  const app = yield* startApp(loopbackSettings(embedded, {
    smsVendorName: "Shopmonkey (Shoplink e2e)",
    database: { sqlite: join(dir, "db.sqlite") },
    publicBaseUrl: proxy.url
  })).pipe(Effect.orDie)
  appUrl = app.url
  const browser = yield* Effect.acquireRelease(
    Effect.promise(() => chromium.launch(chromiumLaunchOptions())),
    (b) => Effect.promise(() => b.close())
  )
  return { embedded, appUrl, proxyUrl: proxy.url, browser }
})

/** A browser context of its own (its own cookies), signed in as `user` from the list page. */
const signIn = (browser: Browser, appUrl: string, user: DemoUser) =>
  Effect.gen(function*() {
    const context = yield* step(() => browser.newContext({ viewport: { width: 1200, height: 900 } }))
    const page = yield* step(() => context.newPage())
    // What the page's Content-Security-Policy made the browser refuse: nothing, it is meant to be.
    const consoleErrors = BrowserSteps.cspViolations(page)
    // A wrong password first: the sign-in page again, with one generic error.
    yield* step(() => page.goto(`${appUrl}/sign-in`))
    yield* step(() => page.fill("#email", user.email))
    yield* step(() => page.fill("#password", "not the password"))
    yield* step(() => Promise.all([page.waitForLoadState("load"), page.getByTestId("sign-in").click()]))
    expect(yield* step(() => page.getByTestId("sign-in-error").textContent())).toBe(
      "The email or password is incorrect."
    )
    // Not signed in, the list sends the browser to sign in first; then the right password.
    yield* step(() => BrowserSteps.signIn(page, appUrl, user))
    expect(yield* step(() => page.getByTestId("shop-name").textContent())).toBe(user.shopName)
    return { context, page, consoleErrors }
  })

/** Nothing wider than the window: the page never scrolls sideways (a table may, inside its own box). */
const expectFits = (page: Page, what: string) =>
  Effect.gen(function*() {
    const size = yield* step(() =>
      page.evaluate<{ readonly scrollWidth: number; readonly innerWidth: number }>(
        "({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })"
      )
    )
    expect(size.scrollWidth, `${what}: ${size.scrollWidth} px wide in a ${size.innerWidth} px window`)
      .toBeLessThanOrEqual(size.innerWidth)
    mkdirSync(results, { recursive: true })
    yield* step(() => page.screenshot({ path: join(results, `shopmonkey-sample-${what}.png`), fullPage: true }))
  })

const listedRos = (page: Page) =>
  step(() =>
    page.locator("[data-testid=\"repair-order\"]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-ro")))
  )

describe("shopmonkey-sample in Chromium", () => {
  it.live("sign in → Order parts in a new tab → Export → Export and Submit → each callback reports its own export → parts and order on the RO", () =>
    Effect.scoped(Effect.gen(function*() {
      const { appUrl, browser, embedded, proxyUrl } = yield* setup
      const { consoleErrors, context, page } = yield* signIn(browser, appUrl, embedded.users[0])
      const ro1042 = page.locator("[data-testid=\"repair-order\"][data-ro=\"1042\"]")
      // A vehicle with only year, make and model says what it needs before anyone launches.
      expect(
        yield* step(() =>
          page.locator("[data-testid=\"repair-order\"][data-ro=\"1044\"]").getByTestId("vehicle-hint").textContent()
        )
      )
        .toContain("No VIN or license plate")
      expect(yield* step(() => ro1042.getByTestId("vehicle-hint").count())).toBe(0)

      // The catalog opens in a new tab; the sample's own page stays.
      const catalog = yield* step(() => BrowserSteps.openCatalog<Page>(context, page, "1042"))
      expect(page.url()).toBe(`${appUrl}/`)
      expect(yield* step(() => catalog.getByTestId("vehicle").textContent())).toContain("1FTEW1E56KFA12345")
      const catalogUrl = catalog.url()
      yield* step(() =>
        BrowserSteps.addToCart(catalog, { search: "oil filter", productID: "51515", brandID: "WIX", quantity: 2 })
      )

      // Export: the quote is applied and the page says so.
      const summary = catalog.getByTestId("callback-summary")
      yield* step(() =>
        Promise.all([catalog.waitForURL(/\/shoplink\/callback\//), catalog.getByTestId("export").click()])
      )
      yield* step(() =>
        catalog.waitForSelector("[data-testid=\"callback-summary\"][data-state=\"applied\"]", { timeout: 20_000 })
      )
      expect(yield* step(() => summary.textContent())).toBe("1 part quoted and added to RO 1042.")

      // Export and Submit in the same launch: the order webhook arrives after the browser does; the
      // page waits for it instead of repeating the quote, and refreshes until it is applied.
      yield* step(() => catalog.goto(catalogUrl))
      yield* step(() =>
        Promise.all([catalog.waitForURL(/\/shoplink\/callback\//), catalog.getByTestId("export-and-submit").click()])
      )
      yield* step(() => catalog.waitForLoadState("load"))
      expect(yield* step(() => summary.getAttribute("data-state"))).toBe("waiting")
      expect(yield* step(() => summary.textContent())).toBe(
        "Waiting for the distributor to send the parts for RO 1042…"
      )
      yield* step(() =>
        catalog.waitForSelector("[data-testid=\"callback-summary\"][data-state=\"applied\"]", { timeout: 20_000 })
      )
      expect(yield* step(() => summary.textContent())).toBe("1 part ordered and added to RO 1042.")

      // Back to the RO page (through the public address; the session cookie goes along).
      yield* step(() =>
        Promise.all([catalog.waitForURL(`${proxyUrl}/ro/ord_1042`), catalog.getByTestId("repair-order-link").click()])
      )
      yield* step(() => catalog.getByTestId("ordered-line").first().waitFor())
      const orderedCells = yield* step(() =>
        catalog.getByTestId("ordered-line").first().locator("td").allTextContents()
      )
      expect(orderedCells.slice(0, 4)).toEqual(["51515", "WIX", expect.stringContaining("Oil Filter"), "2"])
      const quotedCells = yield* step(() => catalog.getByTestId("quoted-line").first().locator("td").allTextContents())
      expect(quotedCells.slice(0, 4)).toEqual(["51515", "WIX", expect.stringContaining("Oil Filter"), "2"])
      expect(yield* step(() => catalog.getByTestId("order-status").textContent())).toBe("Order submitted")
      mkdirSync(results, { recursive: true })
      yield* step(() => catalog.screenshot({ path: join(results, "shopmonkey-sample-ro.png"), fullPage: true }))

      expect(page.url()).toBe(`${appUrl}/`)
      expect(consoleErrors).toEqual([])

      // Signing out ends the session: the list sends the browser to sign in again.
      yield* step(() => Promise.all([page.waitForURL(/\/sign-in$/), page.getByTestId("sign-out").click()]))
      yield* step(() => page.goto(`${appUrl}/ro/ord_1042`))
      expect(page.url()).toBe(`${appUrl}/sign-in?next=%2Fro%2Ford_1042`)
    })))

  it.live("two users of two shops in two browser contexts: each sees and orders onto only their own shop's repair orders", () =>
    Effect.scoped(Effect.gen(function*() {
      const { appUrl, browser, embedded } = yield* setup
      const [ava, ben] = embedded.users
      const a = yield* signIn(browser, appUrl, ava)
      const b = yield* signIn(browser, appUrl, ben)
      expect(yield* listedRos(a.page)).toEqual(["1042", "1043", "1044", "1045", "1046"])
      expect(yield* listedRos(b.page)).toEqual(["5201", "5202", "5203"])
      // Another shop's RO, typed into the address bar: not found, nothing of it on the page.
      const foreign = yield* step(() => a.page.goto(`${appUrl}/ro/ord_5201`))
      expect(foreign?.status()).toBe(404)
      expect(yield* step(() => a.page.content())).not.toContain("Riley Chen")
      yield* step(() => a.page.goto(appUrl))

      // Both catalogs open at once, one per shop; each user orders a different quantity.
      const catalogA = yield* step(() => BrowserSteps.openCatalog<Page>(a.context, a.page, "1042"))
      const catalogB = yield* step(() => BrowserSteps.openCatalog<Page>(b.context, b.page, "5201"))
      expect(yield* step(() => catalogB.getByTestId("vehicle").textContent())).toContain("Altima")
      yield* step(() =>
        BrowserSteps.addToCart(catalogA, { search: "oil filter", productID: "51515", brandID: "WIX", quantity: 2 })
      )
      yield* step(() =>
        BrowserSteps.addToCart(catalogB, { search: "oil filter", productID: "51515", brandID: "WIX", quantity: 3 })
      )
      for (const [catalog, ro] of [[catalogA, "1042"], [catalogB, "5201"]] as const) {
        yield* step(() =>
          Promise.all([catalog.waitForURL(/\/shoplink\/callback\//), catalog.getByTestId("export-and-submit").click()])
        )
        yield* step(() =>
          catalog.waitForSelector("[data-testid=\"callback-summary\"][data-state=\"applied\"]", { timeout: 20_000 })
        )
        expect(yield* step(() => catalog.getByTestId("callback-summary").textContent())).toBe(
          `1 part ordered and added to RO ${ro}.`
        )
      }

      // Each RO page shows its own order only.
      for (const [page, ro, quantity] of [[a.page, "ord_1042", "2"], [b.page, "ord_5201", "3"]] as const) {
        yield* step(() => page.goto(`${appUrl}/ro/${ro}`))
        const cells = yield* step(() => page.getByTestId("ordered-line").locator("td").allTextContents())
        expect(cells.slice(0, 4)).toEqual(["51515", "WIX", expect.stringContaining("Oil Filter"), quantity])
        expect(yield* step(() => page.getByTestId("ordered-line").count())).toBe(1)
      }
      // And in Shopmonkey: each company's parts are on its own RO, with its own quantity.
      const [companyA, companyB] = embedded.shopmonkey.companies
      const partsOf = (company: typeof companyA) =>
        company!.store.parts().map((p) => [p["orderId"], p["partNumber"], p["quantity"]])
      expect(partsOf(companyA)).toEqual([["ord_1042", "51515", 2]])
      expect(partsOf(companyB)).toEqual([["ord_5201", "51515", 3]])
    })))
  it.live("at phone width (390 and 360 px): the repair order list, a repair order, the catalog, the callback page and an unknown path fit the window; each Order parts starts with an empty cart", () =>
    Effect.scoped(Effect.gen(function*() {
      const { appUrl, browser, embedded } = yield* setup
      const sessions = new Set<string | null>()
      for (const width of [390, 360]) {
        const context = yield* Effect.acquireRelease(
          step(() =>
            browser.newContext({
              viewport: { width, height: 844 },
              deviceScaleFactor: 2,
              isMobile: true,
              hasTouch: true
            })
          ),
          (context) => Effect.promise(() => context.close())
        )
        const page = yield* step(() => context.newPage())
        yield* step(() => page.goto(`${appUrl}/sign-in`))
        yield* expectFits(page, `sign-in-${width}`)
        yield* step(() => BrowserSteps.signIn(page, appUrl, embedded.users[0]))
        expect(yield* step(() => page.evaluate<number>("window.innerWidth"))).toBe(width)
        yield* expectFits(page, `list-${width}`)
        yield* step(() => page.goto(`${appUrl}/ro/ord_1042`))
        yield* expectFits(page, `ro-${width}`)
        // Order parts → the catalog → Export a part → the callback page.
        yield* step(() => page.goto(appUrl))
        const catalog = yield* step(() => BrowserSteps.openCatalog<Page>(context, page, "1042"))
        // Each Order parts is a new launch (the same distributor session): the cart exported at
        // 390 px does not come back at 360 px.
        expect(yield* step(() => catalog.getByTestId("cart-empty").count()), `cart at launch, ${width} px`).toBe(1)
        sessions.add(new URL(catalog.url()).searchParams.get("token"))
        yield* expectFits(catalog, `catalog-${width}`)
        yield* step(() =>
          BrowserSteps.addToCart(catalog, { search: "oil filter", productID: "51515", brandID: "WIX", quantity: 1 })
        )
        yield* step(() =>
          Promise.all([catalog.waitForURL(/\/shoplink\/callback\//), catalog.getByTestId("export").click()])
        )
        yield* step(() =>
          catalog.waitForSelector("[data-testid=\"callback-summary\"][data-state=\"applied\"]", { timeout: 20_000 })
        )
        yield* expectFits(catalog, `callback-${width}`)
        // A path nothing serves: a page with a link home, not an empty 404.
        const missing = yield* step(() => page.goto(`${appUrl}/no-such-page`))
        expect(missing?.status()).toBe(404)
        yield* expectFits(page, `not-found-${width}`)
        yield* step(() => Promise.all([page.waitForURL(`${appUrl}/`), page.getByTestId("home").click()]))
      }
      expect(sessions.size).toBe(1)
    })))
})
