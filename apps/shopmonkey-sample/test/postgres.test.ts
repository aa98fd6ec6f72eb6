// Two instances of the sample on one PostgreSQL database, as docs/deploying.md sets them up
// behind a load balancer: the launch on instance A, the distributor's webhook and the callback on
// instance B, the parts on A's repair-order page, applied once. A real server, a database of its own.
import { describe, expect, it } from "@effect/vitest"
import { FAKE_SHOPMONKEY_FIXTURES } from "@shoplink/adapter-shopmonkey/testing"
import { testDatabase } from "@shoplink/vitest-config/postgres"
import { Effect, Redacted, Schedule } from "effect"
import { startApp } from "../src/app.js"
import { loopbackSettings, startEmbedded } from "../src/embedded.js"
import { call, PASSWORDS, signedIn } from "./support.js"

const RO = FAKE_SHOPMONKEY_FIXTURES.orders.vin

describe("two instances on PostgreSQL", () => {
  // Live: both runtimes' workers run on the real clock.
  it.live("a launch on one instance, the webhook and callback on the other: the parts land on the repair order once", () =>
    Effect.scoped(Effect.gen(function*() {
      const database = yield* Effect.acquireRelease(Effect.promise(testDatabase), (db) => Effect.promise(db.drop))
      const embedded = yield* startEmbedded({ passwords: PASSWORDS })
      const instance = (publicBaseUrl: string | undefined) =>
        startApp(
          loopbackSettings(embedded, {
            smsVendorName: "Sample tests",
            database: { postgres: Redacted.make(database.url) },
            publicBaseUrl
          })
        )
          .pipe(Effect.orDie)
      const b = yield* instance(undefined)
      // A's public address is B's: the distributor and the browser reach B, as through a load balancer.
      const a = yield* instance(b.url)
      expect(a.publicBaseUrl).toBe(b.url)

      const ava = yield* signedIn(a.url, "ava")
      const launched = yield* call(() => ava.post(`/ro/${RO.id}/order-parts`))
      expect(launched.status).toBe(303)
      const token = new URL(launched.location!).searchParams.get("token")!
      yield* embedded.sandbox.admin.driver.addToCart(token, { productID: "51515", brandID: "WIX", quantity: 2 })
      const pressed = yield* embedded.sandbox.admin.driver.press(token, "exportAndSubmit")
      const [delivery] = yield* embedded.sandbox.admin.awaitDeliveries(1)
      expect(delivery!.url.startsWith(`${b.url}/shoplink/webhooks/`)).toBe(true)
      expect(delivery!.status).toBe(200)

      // Whichever instance's worker claimed it, A's page shows the ordered part, once.
      const page = yield* call(() => ava.get(`/ro/${RO.id}`)).pipe(
        Effect.filterOrFail((p) => p.text.includes("data-testid=\"ordered-line\"")),
        Effect.retry({ times: 100, schedule: Schedule.spaced("100 millis") }),
        Effect.orDie
      )
      expect(page.text.match(/data-testid="ordered-line"/g)).toHaveLength(1)
      expect(page.text).toContain("51515")
      // Both instances see the one entry, applied.
      for (const app of [a, b]) {
        const entries = yield* Effect.orDie(app.runtime.inbox.list())
        expect(entries.map((e) => e.status)).toEqual(["applied"])
      }
      // The callback page, served by B, reports the launch A made.
      expect(pressed.redirect!.startsWith(`${b.url}/shoplink/callback/`)).toBe(true)
      const callback = yield* call(() => fetch(pressed.redirect!).then((r) => r.text()))
      expect(callback).toContain("RO 1042")
    })))
})
