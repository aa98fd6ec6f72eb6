// The conformance harness: a fake __title__ for each check, seeded with the suite's repair orders,
// and direct reads of what the adapter wrote there. Start a fake __title__ API server on
// 127.0.0.1 port 0 (built from __title__'s public API documentation), seed it, and read its
// store. See @shoplink/connector-testkit's ReferenceHarness for a complete one.
//
// The shop's API key is not provided here as a layer: the harness returns it as `smsSecrets`, the
// suite onboards the shop with it, and the runtime gives it to the adapter through SmsCredentials,
// as in production.
import type { ConformanceHarness } from "@shoplink/connector-testkit"
import { Effect, Layer, Redacted } from "effect"
import { __Name__Connector } from "../src/index.js"

const todo = (what: string) => Effect.die(new Error(`not implemented: test/harness.ts ${what}`))

export const harness: ConformanceHarness.ConformanceSms<__Name__Connector.__Name__Config> = {
  setup: (seed) =>
    Effect.succeed({
      // TODO: point the adapter at your fake server's URL.
      layer: Layer.succeed(__Name__Connector.__Name__Config, { baseUrl: "http://127.0.0.1:0" }),
      // TODO: the API key your fake __title__ accepts for seed.shopId.
      smsSecrets: { [__Name__Connector.API_KEY_SECRET]: Redacted.make("test-api-key") },
      // TODO: create seed.repairOrders in the fake __title__ and return their __title__ ids.
      repairOrders: {
        vin: seed.repairOrders[0]?.number ?? "",
        licensePlate: seed.repairOrders[1]?.number ?? "",
        baseVehicleID: seed.repairOrders[2]?.number ?? ""
      },
      readLines: () => todo("readLines: read the repair order's part lines from the fake's store"),
      readOrder: () => todo("readOrder: read the repair order's purchase order from the fake's store"),
      failNextWrites: () => todo("failNextWrites: make the fake answer the next writes with an outage (503) or a refusal (4xx)")
    })
}
