// The README's "against the fake" example, typechecked and run by test/examples.test.ts.
import { FetchHttpClient } from "@effect/platform"
import { Effect, Layer, Redacted } from "effect"
import { ShopSystem } from "@shoplink/connector"
import { ShopmonkeyClient, ShopmonkeyShopSystem } from "../src/index.js"
import { FAKE_SHOPMONKEY_FIXTURES, startFakeShopmonkey } from "../src/testing.js"

export const program = Effect.gen(function*() {
  const fake = yield* startFakeShopmonkey()
  const layer = ShopmonkeyShopSystem.layer().pipe(
    Layer.provide(ShopmonkeyClient.layer({ apiKey: Redacted.make(fake.apiKey), baseUrl: fake.url })),
    Layer.provide(FetchHttpClient.layer)
  )
  const sms = yield* Effect.provide(ShopSystem.ShopSystem, layer)
  return yield* sms.loadRepairOrder({ shopId: "demo", repairOrderId: FAKE_SHOPMONKEY_FIXTURES.orders.vin.id })
})

if (import.meta.url === `file://${process.argv[1]}`) {
  Effect.runPromise(Effect.scoped(program)).then(console.log)
}
