// The delivery console in a real browser: an operator signs in (sent there from /console), filters
// the dead deliveries, opens one (why it failed, the lines it carries), replays it, and sees it
// applied; a service writer is refused. Saves a screenshot of the delivery to test-results/.
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { chromium } from "playwright-core"
import { BrowserSteps, Transcript } from "@shoplink/connector-testkit"
import { chromiumLaunchOptions } from "@shoplink/vitest-config/e2e"
import { startApp } from "../src/app.js"
import { loopbackSettings, SHOP_A, startEmbedded } from "../src/embedded.js"

const results = join(import.meta.dirname, "..", "test-results")
const step = <A>(f: () => Promise<A>) => Effect.promise(f)

const quote = JSON.stringify({
  referenceID: "ord_1042",
  quotes: [{
    acaPartTerminologyID: 5340,
    productID: "51515",
    brandID: "WIX",
    categoryID: "FLT",
    productDesc: "Oil Filter",
    orderByTime: 1763769600000,
    dispatchTime: 1763773200000,
    quantityAvail: 12,
    quantityReq: 2,
    price: 6.49,
    listPrice: 9.99,
    corePrice: 0,
    weight: 0.8,
    quality: "",
    makeId: 0,
    subtotal: 12.98
  }]
})

describe("the delivery console in Chromium", () => {
  it.live("operator: sign in → dead deliveries → show → replay → applied; a service writer is refused", () =>
    Effect.scoped(Effect.gen(function*() {
      const embedded = yield* startEmbedded()
      const dir = yield* Transcript.scratchDirectory("console-e2e-")
      const database = join(dir, "db.sqlite")
      const app = yield* startApp(
        loopbackSettings(embedded, { smsVendorName: "Shopmonkey (console e2e)", database: { sqlite: database } })
      ).pipe(Effect.orDie)
      // A quote delivery for RO 1042 that was given up on, as the worker leaves one.
      const sql = Context.get(yield* Layer.build(SqliteClient.layer({ filename: database })), SqlClient.SqlClient)
      const id = crypto.randomUUID()
      const now = Date.now()
      yield* sql`INSERT INTO shoplink_inbox (id, kind, content_key, shop_id, repair_order_id, body, status, attempts, last_error, received_at, next_attempt_at)
        VALUES (${id}, 'quote', ${`quote:${SHOP_A.id}:ord_1042:console-e2e`}, ${SHOP_A.id}, 'ord_1042', ${quote}, 'dead', 8,
                'applyQuote: Shopmonkey timed out', ${now}, ${now})`.pipe(Effect.orDie)

      const browser = yield* Effect.acquireRelease(
        Effect.promise(() => chromium.launch(chromiumLaunchOptions())),
        (b) => Effect.promise(() => b.close())
      )
      const context = yield* step(() => browser.newContext({ viewport: { width: 1200, height: 900 } }))
      const page = yield* step(() => context.newPage())
      const violations = BrowserSteps.cspViolations(page)

      // /console sends the operator to sign in, and back.
      yield* step(() => page.goto(`${app.url}/console`))
      expect(page.url()).toBe(`${app.url}/sign-in?next=%2Fconsole`)
      yield* step(() => page.fill("#email", embedded.operator.email))
      yield* step(() => page.fill("#password", embedded.operator.password))
      yield* step(() => Promise.all([page.waitForURL(`${app.url}/console`), page.getByTestId("sign-in").click()]))

      // Only the dead ones.
      yield* step(() => page.selectOption("#state", "dead"))
      yield* step(() => Promise.all([page.waitForURL(/state=dead/), page.getByTestId("console-apply-filter").click()]))
      const row = page.locator(`[data-testid="console-delivery"][data-id="${id}"]`)
      expect(yield* step(() => row.getAttribute("data-state"))).toBe("dead")
      expect(yield* step(() => page.getByTestId("console-delivery").count())).toBe(1)

      // Show: why, and the lines it carries.
      yield* step(() => Promise.all([page.waitForURL(`${app.url}/console/deliveries/${id}`), row.locator("a").click()]))
      expect(yield* step(() => page.getByTestId("console-state").textContent())).toBe("dead")
      expect(yield* step(() => page.getByTestId("console-words").textContent())).toBe(
        "Given up after 8 attempts. Last error: applyQuote: Shopmonkey timed out. Replay it once the cause is fixed, or discard it."
      )
      const line = yield* step(() => page.getByTestId("console-line").first().locator("td").allTextContents())
      expect(line).toEqual(["51515", "WIX", "Oil Filter", "2", "$6.49"])

      // Replay: back in line, and the service's worker applies it.
      yield* step(() => Promise.all([page.waitForURL(/done=replayed/), page.getByTestId("console-replay").click()]))
      expect(yield* step(() => page.getByTestId("console-notice").textContent())).toContain("Replayed")
      let state = ""
      for (let i = 0; i < 100 && state !== "applied"; i++) {
        yield* Effect.sleep("200 millis")
        yield* step(() => page.reload())
        state = (yield* step(() => page.getByTestId("console-state").textContent())) ?? ""
      }
      expect(state).toBe("applied")
      expect(yield* step(() => page.getByTestId("console-attempts").textContent())).toBe("1")
      mkdirSync(results, { recursive: true })
      yield* step(() => page.screenshot({ path: join(results, "shopmonkey-sample-console.png"), fullPage: true }))
      // The line is on the repair order now.
      yield* step(() => page.goto(`${app.url}/ro/ord_1042`))
      expect(yield* step(() => page.getByTestId("quoted-line").first().locator("td").first().textContent())).toBe(
        "51515"
      )

      // The shops and their credentials.
      yield* step(() => page.goto(`${app.url}/console/shops`))
      expect(
        yield* step(() =>
          page.locator("[data-testid=\"console-shop\"]").evaluateAll((rows) =>
            rows.map((r) => r.getAttribute("data-status"))
          )
        )
      ).toEqual(["active", "active"])
      expect(violations).toEqual([])

      // A service writer signed in is refused the console.
      const writer = yield* step(() => browser.newContext())
      const writerPage = yield* step(() => writer.newPage())
      yield* step(() => BrowserSteps.signIn(writerPage, app.url, embedded.users[0]))
      const refused = yield* step(() => writerPage.goto(`${app.url}/console`))
      expect(refused?.status()).toBe(403)
    })))
})
