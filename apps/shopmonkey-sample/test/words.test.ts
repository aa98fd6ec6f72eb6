// What a service writer reads when Shopmonkey refuses the shop's key: who refused and that the shop
// must be connected again, not "could not be reached; try again" (retrying cannot cure a 401).
import { describe, expect, it } from "@effect/vitest"
import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
import { Effect, Redacted } from "effect"
import { call, signedIn, startSample } from "./support.js"

describe("shopmonkey-sample failures in words", () => {
  it.scoped("a wrong Shopmonkey key (401) reads as refused credentials, on the list and on an RO", () =>
    Effect.gen(function*() {
      const { app, embedded } = yield* startSample()
      const ava = yield* signedIn(app.url, "ava")
      // The shop's Shopmonkey key replaced by one Shopmonkey does not know.
      const shop = embedded.settings.shops.find((s) => s.id === "main-street")!
      yield* app.runtime.shops.add({
        ...shop,
        sms: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make("not-a-shopmonkey-key") }
      }, { replace: true }).pipe(Effect.orDie)
      for (const path of ["/", `/ro/${encodeURIComponent("anything")}`]) {
        const page = yield* call(() => ava.get(path))
        expect(page.status, path).toBe(502)
        expect(page.text, path).toContain("Shopmonkey refused this shop&#39;s credentials")
        expect(page.text, path).toContain("the shop must be connected to Shopmonkey again")
        expect(page.text, path).not.toContain("could not be reached")
      }
    }))
})
