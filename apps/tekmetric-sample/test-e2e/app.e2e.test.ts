// The sample in a real browser (Chromium through playwright-core): sign in, the repair order list,
// Order parts (the catalog opens in a new tab), search, add to cart, Export, then Export and Submit,
// each callback page listing the parts the integration keeps (Tekmetric takes no part lines), the RO
// page with those parts and the order recorded in Tekmetric, the runtime's parts page through its
// signed link and its CSV download; a second shop's user in another context sees only their own
// repair orders. Saves screenshots to test-results/.
import { describe, expect, it } from "@effect/vitest"
import { FAKE_TEKMETRIC_FIXTURES } from "@shoplink/adapter-tekmetric/testing"
import { Effect, type Scope } from "effect"
import { mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"
import { BrowserSteps, Transcript } from "@shoplink/connector-testkit"
import { chromiumLaunchOptions } from "@shoplink/vitest-config/e2e"
import { startApp } from "../src/app.js"
import { type DemoUser, loopbackSettings, startEmbedded } from "../src/embedded.js"

const results = join(import.meta.dirname, "..", "test-results")
const step = <A>(f: () => Promise<A>) => Effect.promise(f)
const ro1042 = FAKE_TEKMETRIC_FIXTURES.repairOrders.vin

const setup: Effect.Effect<
  {
    readonly embedded: Effect.Effect.Success<ReturnType<typeof startEmbedded>>
    readonly appUrl: string
    readonly browser: Browser
  },
  never,
  Scope.Scope
> = Effect.gen(function*() {
  const embedded = yield* startEmbedded()
  const dir = yield* Transcript.scratchDirectory("tekmetric-e2e-")
  const app = yield* startApp(
    loopbackSettings(embedded, {
      smsVendorName: "Tekmetric (Shoplink e2e)",
      database: { sqlite: join(dir, "db.sqlite") }
    })
  ).pipe(Effect.orDie)
  const browser = yield* Effect.acquireRelease(
    Effect.promise(() => chromium.launch(chromiumLaunchOptions())),
    (b) => Effect.promise(() => b.close())
  )
  return { embedded, appUrl: app.url, browser }
})

/** A browser context of its own (its own cookies), signed in as `user` from the list page. */
const signIn = (browser: Browser, appUrl: string, user: DemoUser) =>
  Effect.gen(function*() {
    const context = yield* step(() =>
      browser.newContext({ viewport: { width: 1200, height: 900 }, acceptDownloads: true })
    )
    const page = yield* step(() => context.newPage())
    const cspErrors = BrowserSteps.cspViolations(page)
    yield* step(() => BrowserSteps.signIn(page, appUrl, user))
    expect(yield* step(() => page.getByTestId("shop-name").textContent())).toBe(user.shopName)
    return { context, page, cspErrors }
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
    yield* step(() => page.screenshot({ path: join(results, `tekmetric-sample-${what}.png`), fullPage: true }))
  })

const listedRos = (page: Page) =>
  step(() =>
    page.locator("[data-testid=\"repair-order\"]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-ro")))
  )

describe("tekmetric-sample in Chromium", () => {
  it.live("repair orders → Order parts → catalog → Export → Export and Submit → parts on the parts page, order recorded in Tekmetric", () =>
    Effect.scoped(Effect.gen(function*() {
      const { appUrl, browser, embedded } = yield* setup
      const { context, cspErrors, page } = yield* signIn(browser, appUrl, embedded.users[0])
      expect(yield* listedRos(page)).toEqual(["1042", "1043", "1044", "1045"])
      // No VIN or plate in Tekmetric: the list says what to add, and offers no Order parts.
      const ro1044 = page.locator("[data-testid=\"repair-order\"][data-ro=\"1044\"]")
      expect(yield* step(() => ro1044.getByTestId("vehicle-hint").textContent())).toContain("No VIN or license plate")
      expect(yield* step(() => ro1044.getByTestId("order-parts").count())).toBe(0)

      // Order parts: the catalog in a new tab, on the RO's vehicle.
      const catalog = yield* step(() => BrowserSteps.openCatalog<Page>(context, page, "1042"))
      expect(yield* step(() => catalog.getByTestId("vehicle").textContent())).toContain(ro1042.vehicle.vin)
      const catalogUrl = catalog.url()
      yield* step(() =>
        BrowserSteps.addToCart(catalog, { search: "oil filter", productID: "51515", brandID: "WIX", quantity: 2 })
      )

      // Export: the callback page says the quote is kept with the RO and lists it.
      const summary = catalog.getByTestId("callback-summary")
      yield* step(() =>
        Promise.all([catalog.waitForURL(/\/shoplink\/callback\//), catalog.getByTestId("export").click()])
      )
      yield* step(() =>
        catalog.waitForSelector("[data-testid=\"callback-summary\"][data-state=\"applied\"]", { timeout: 20_000 })
      )
      expect(yield* step(() => summary.textContent())).toBe("1 part quoted and kept with RO 1042.")
      expect(yield* step(() => catalog.getByTestId("parts-row").count())).toBe(1)

      // Export and Submit in the same launch.
      yield* step(() => catalog.goto(catalogUrl))
      yield* step(() =>
        Promise.all([catalog.waitForURL(/\/shoplink\/callback\//), catalog.getByTestId("export-and-submit").click()])
      )
      yield* step(() =>
        catalog.waitForSelector("[data-testid=\"callback-summary\"][data-state=\"applied\"]", { timeout: 20_000 })
      )
      expect(yield* step(() => summary.textContent())).toBe("1 part ordered and kept with RO 1042.")
      const rows = yield* step(() =>
        catalog.locator("[data-testid=\"parts-row\"]").evaluateAll((r) => r.map((e) => e.getAttribute("data-kind")))
      )
      expect(rows).toEqual(["quote", "order"])
      // The link back goes to the repair order in Tekmetric.
      expect(yield* step(() => catalog.getByTestId("repair-order-link").getAttribute("href"))).toBe(
        `${embedded.tekmetric.url}/admin/shop/1/repair-orders/${ro1042.id}/estimate`
      )
      mkdirSync(results, { recursive: true })
      yield* step(() => catalog.screenshot({ path: join(results, "tekmetric-sample-callback.png"), fullPage: true }))

      // The RO page: the kept parts and the order recorded on the job note in Tekmetric.
      yield* step(() => page.goto(`${appUrl}/ro/${ro1042.id}`))
      expect(yield* step(() => page.locator("[data-testid=\"quoted-line\"], [data-testid=\"ordered-line\"]").count()))
        .toBe(2)
      const recorded = yield* step(() => page.getByTestId("distributor-order").getAttribute("data-order-id"))
      expect(embedded.tekmetric.jobs(ro1042.id)[0]!.note).toContain(`[shoplink-order:${recorded}]`)

      // The runtime's parts page through the signed link, and its CSV download.
      yield* step(() =>
        Promise.all([page.waitForURL(/\/shoplink\/parts\?/), page.getByTestId("parts-page-link").click()])
      )
      expect(yield* step(() => page.getByTestId("parts-row").count())).toBe(2)
      expect(yield* step(() => page.getByTestId("parts-summary").textContent())).toBe(
        "2 parts quoted or ordered (shop main-street)."
      )
      const [download] = yield* step(() =>
        Promise.all([page.waitForEvent("download"), page.getByTestId("parts-csv").click()])
      )
      expect(download.suggestedFilename()).toBe(`parts-${ro1042.id}.csv`)
      const csv = readFileSync((yield* step(() => download.path()))!, "utf8").trim().split("\r\n")
      expect(csv).toHaveLength(3)
      expect(csv[2]).toMatch(new RegExp(`^order,${recorded},Order submitted,WIX,51515,`))
      yield* step(() => page.screenshot({ path: join(results, "tekmetric-sample-parts.png"), fullPage: true }))
      expect(cspErrors).toEqual([])
    })))

  it.live("a second shop's user, in another browser context, sees only their own repair orders", () =>
    Effect.scoped(Effect.gen(function*() {
      const { appUrl, browser, embedded } = yield* setup
      const b = yield* signIn(browser, appUrl, embedded.users[1])
      expect(yield* listedRos(b.page)).toEqual(["3001", "3002"])
      const foreign = yield* step(() => b.page.goto(`${appUrl}/ro/${ro1042.id}`))
      expect(foreign?.status()).toBe(404)
      expect(yield* step(() => b.page.content())).not.toContain("Dana Reyes")
    })))
  it.live("at phone width (360 px): the list, the callback page with the kept parts, the repair order and its parts page fit the window", () =>
    Effect.scoped(Effect.gen(function*() {
      const { appUrl, browser, embedded } = yield* setup
      const context = yield* Effect.acquireRelease(
        step(() =>
          browser.newContext({
            viewport: { width: 360, height: 780 },
            deviceScaleFactor: 2,
            isMobile: true,
            hasTouch: true
          })
        ),
        (context) => Effect.promise(() => context.close())
      )
      const page = yield* step(() => context.newPage())
      yield* step(() => BrowserSteps.signIn(page, appUrl, embedded.users[0]))
      yield* expectFits(page, "list-360")
      const catalog = yield* step(() => BrowserSteps.openCatalog<Page>(context, page, "1042"))
      yield* step(() =>
        BrowserSteps.addToCart(catalog, { search: "oil filter", productID: "51515", brandID: "WIX", quantity: 2 })
      )
      yield* step(() =>
        Promise.all([catalog.waitForURL(/\/shoplink\/callback\//), catalog.getByTestId("export").click()])
      )
      yield* step(() =>
        catalog.waitForSelector("[data-testid=\"callback-summary\"][data-state=\"applied\"]", { timeout: 20_000 })
      )
      yield* step(() => catalog.getByTestId("parts-row").first().waitFor())
      yield* expectFits(catalog, "callback-360")
      yield* step(() => page.goto(`${appUrl}/ro/${ro1042.id}`))
      yield* step(() => page.getByTestId("quoted-line").first().waitFor())
      yield* expectFits(page, "ro-360")
      yield* step(() =>
        Promise.all([page.waitForURL(/\/shoplink\/parts\?/), page.getByTestId("parts-page-link").click()])
      )
      yield* expectFits(page, "parts-360")
    })))
})
