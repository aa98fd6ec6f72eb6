// The README's "Many shops" example, typechecked and run by test/examples.test.ts: one adapter,
// two shops, each on its own Shopmonkey account (the fake's two companies).
import { FetchHttpClient } from "@effect/platform"
import { Effect, Layer, Redacted } from "effect"
import { ShopSystem, SmsCredentials } from "@shoplink/connector"
import { ShopmonkeyShopSystem } from "../src/index.js"
import { FAKE_SHOPMONKEY_FIXTURES, FAKE_SHOPMONKEY_SECOND_COMPANY, startFakeShopmonkey } from "../src/testing.js"

export const program = Effect.gen(function*() {
  const fake = yield* startFakeShopmonkey()
  const [first, second] = fake.companies
  const layer = ShopmonkeyShopSystem.layerPerShop({ baseUrl: fake.url }).pipe(
    // In the runtime: ShopStore.layerSmsCredentials, the keys stored when each shop was onboarded.
    Layer.provide(SmsCredentials.layerStatic({
      shop_1: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(first!.apiKey) },
      shop_2: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(second!.apiKey) }
    })),
    Layer.provide(FetchHttpClient.layer)
  )
  const sms = yield* Effect.provide(ShopSystem.ShopSystem, layer)
  return yield* Effect.all([
    sms.loadRepairOrder({ shopId: "shop_1", repairOrderId: FAKE_SHOPMONKEY_FIXTURES.orders.vin.id }),
    sms.loadRepairOrder({ shopId: "shop_2", repairOrderId: FAKE_SHOPMONKEY_SECOND_COMPANY.orders.vin.id })
  ])
})

if (import.meta.url === `file://${process.argv[1]}`) {
  Effect.runPromise(Effect.scoped(program)).then(console.log)
}
