// The sample in a real browser: open the app, Order parts, search, add to cart, Export and Submit,
// follow the callback, and see the parts and the order on the RO page. Saves a screenshot of the
// final page to test-results/.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdirSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chromium } from "playwright-core"
import { startApp } from "../src/app.js"
import { startEmbedded } from "../src/embedded.js"

const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"
]
const results = join(import.meta.dirname, "..", "test-results")

describe("shopmonkey-sample in Chromium", () => {
  it.live("Order parts → search → add to cart → Export and Submit → callback → parts and order on the RO", () =>
    Effect.scoped(Effect.gen(function*() {
      const embedded = yield* startEmbedded
      const app = yield* startApp({
        ...embedded.settings,
        port: 0,
        host: "127.0.0.1",
        publicBaseUrl: undefined,
        smsVendorName: "Shopmonkey (Shoplink e2e)",
        databaseFile: join(mkdtempSync(join(tmpdir(), "sample-e2e-")), "db.sqlite"),
        shopId: "shop"
      })
      const browser = yield* Effect.acquireRelease(
        Effect.promise(() => chromium.launch({ executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium", args: CHROMIUM_ARGS })),
        (b) => Effect.promise(() => b.close())
      )
      const page = yield* Effect.promise(() => browser.newPage({ viewport: { width: 1200, height: 900 } }))
      const step = <A>(f: () => Promise<A>) => Effect.promise(f)

      yield* step(() => page.goto(app.url))
      const ro1042 = page.locator('[data-testid="repair-order"][data-ro="1042"]')
      yield* step(() => Promise.all([page.waitForURL(/\/punchout\/v1\/ShowCatalog/), ro1042.getByTestId("order-parts").click()]))
      expect(yield* step(() => page.getByTestId("vehicle").textContent())).toContain("1FTEW1E56KFA12345")

      yield* step(() => page.fill("input[name=searchTerm]", "oil filter"))
      yield* step(() => Promise.all([page.waitForURL(/searchTerm=oil/), page.click("button[type=submit] >> text=Search")]))
      const row = page.locator('[data-testid=result][data-product-id="51515"][data-brand-id="WIX"]')
      yield* step(() => row.locator("input[name=quantity]").fill("2"))
      yield* step(() => Promise.all([page.waitForLoadState("load"), row.getByTestId("add-to-cart").click()]))
      yield* step(() => page.getByTestId("cart-line").first().waitFor())

      yield* step(() => Promise.all([page.waitForURL(/\/shoplink\/callback\//), page.getByTestId("export-and-submit").click()]))
      const summary = page.getByTestId("callback-summary")
      // The page refreshes itself until the worker has applied the delivery.
      yield* step(() => page.waitForSelector('[data-testid="callback-summary"][data-state="applied"]', { timeout: 20_000 }))
      expect(yield* step(() => summary.textContent())).toBe("1 part ordered and added to RO 1042.")

      yield* step(() => Promise.all([page.waitForURL(`${app.url}/ro/ord_1042`), page.getByTestId("repair-order-link").click()]))
      yield* step(() => page.getByTestId("ordered-line").first().waitFor())
      const orderedCells = yield* step(() => page.getByTestId("ordered-line").first().locator("td").allTextContents())
      expect(orderedCells.slice(0, 4)).toEqual(["51515", "WIX", expect.stringContaining("Oil Filter"), "2"])
      expect(yield* step(() => page.getByTestId("order-status").textContent())).toBe("Order submitted")
      mkdirSync(results, { recursive: true })
      yield* step(() => page.screenshot({ path: join(results, "shopmonkey-sample-ro.png"), fullPage: true }))
    })))
})
