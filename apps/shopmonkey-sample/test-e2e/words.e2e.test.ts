// Plain-words failures in a real browser: a service writer exports parts while Shopmonkey refuses the
// shop's key. The callback page says what happened, that it is not retried, and what to do, with a
// short reference an administrator finds (`shoplink inbox show <reference>`), never a command; the
// repair-order page says who refused instead of "could not be reached".
import { describe, expect, it } from "@effect/vitest"
import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
import { BrowserSteps, Transcript } from "@shoplink/connector-testkit"
import { chromiumLaunchOptions } from "@shoplink/vitest-config/e2e"
import { Effect, Redacted } from "effect"
import { join } from "node:path"
import { chromium, type Page } from "playwright-core"
import { startApp } from "../src/app.js"
import { loopbackSettings, SHOP_A, startEmbedded } from "../src/embedded.js"

const step = <A>(f: () => Promise<A>) => Effect.promise(f)

describe("failures in plain words, in Chromium", () => {
  it.live(
    "Shopmonkey refuses the key during an export: the callback page names who refused, says it is not retried, and gives a reference",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const embedded = yield* startEmbedded()
        const dir = yield* Transcript.scratchDirectory("words-e2e-")
        const app = yield* startApp(
          loopbackSettings(embedded, {
            smsVendorName: "Shopmonkey (words e2e)",
            database: { sqlite: join(dir, "db.sqlite") }
          })
        ).pipe(Effect.orDie)
        const browser = yield* Effect.acquireRelease(
          Effect.promise(() => chromium.launch(chromiumLaunchOptions())),
          (b) => Effect.promise(() => b.close())
        )
        const context = yield* step(() => browser.newContext({ viewport: { width: 1200, height: 900 } }))
        const page = yield* step(() => context.newPage())
        yield* step(() => BrowserSteps.signIn(page, app.url, embedded.users[0]!))
        const catalog: Page = yield* step(() => BrowserSteps.openCatalog<Page>(context, page, "1042"))
        yield* step(() =>
          BrowserSteps.addToCart(catalog, { search: "oil filter", productID: "51515", brandID: "WIX", quantity: 2 })
        )

        // Meanwhile the shop's Shopmonkey key stops working (revoked in Shopmonkey).
        const shop = embedded.settings.shops.find((s) => s.id === SHOP_A.id)!
        yield* app.runtime.shops.add({
          ...shop,
          sms: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make("revoked-in-shopmonkey") }
        }, { replace: true }).pipe(Effect.orDie)

        yield* step(() =>
          Promise.all([catalog.waitForURL(/\/shoplink\/callback\//), catalog.getByTestId("export").click()])
        )
        yield* step(() =>
          catalog.waitForSelector("[data-testid=\"callback-summary\"][data-state=\"dead\"]", { timeout: 30_000 })
        )
        const [dead] = yield* app.runtime.inbox.list({ shopId: SHOP_A.id, status: "dead" }).pipe(Effect.orDie)
        const reference = dead!.id.replace(/-/g, "").slice(0, 8).toUpperCase()
        const text = yield* step(() => catalog.getByTestId("callback-summary").textContent())
        expect(text).toBe(
          `1 part quoted, but it could not be added to RO 1042. Shopmonkey refused this shop's credentials. Retrying cannot help, so it is not retried automatically. The shop must be connected to Shopmonkey again; your administrator has been notified (reference ${reference}).`
        )
        expect(text).not.toMatch(/shoplink |replay|inbox/)

        // The repair-order page: who refused, and that retrying cannot help.
        yield* step(() => page.goto(`${app.url}/ro/ord_1042`))
        const body = yield* step(() => page.locator("body").textContent())
        expect(body).toContain("Shopmonkey refused this shop's credentials")
        expect(body).toContain("the shop must be connected to Shopmonkey again")
        expect(body).not.toContain("could not be reached")
      })),
    120_000
  )
})
