// The conformance harness: a fresh fake __title__ (src/testing.ts, the one the sample's embedded
// default runs) for each check, seeded with the suite's repair orders, and direct reads of what the
// adapter wrote in its store. Once the fake's routes and the adapter are written, nothing here
// needs to change unless the adapter's layer needs more (an HttpClient: add FetchHttpClient.layer
// from @effect/platform to `layer`).
//
// The shop's API key is not provided here as a layer: the harness returns it as `smsSecrets`, the
// suite onboards the shop with it, and the runtime gives it to the adapter through SmsCredentials,
// as in production.
import type { ConformanceHarness } from "@shoplink/connector-testkit"
import { Effect, Layer, Redacted } from "effect"
import { __Name__Connector } from "../src/index.js"
import { startFake__Name__ } from "../src/testing.js"

export const harness: ConformanceHarness.ConformanceSms<__Name__Connector.__Name__Config> = {
  setup: (seed) =>
    Effect.gen(function*() {
      const fake = yield* startFake__Name__()
      const seeded = seed.repairOrders.map((ro) => ({
        identifier: ro.identifier,
        id: fake.addRepairOrder({ number: ro.number, customerName: ro.customer.name, vehicle: ro.vehicle })
      }))
      const idOf = (identifier: ConformanceHarness.VehicleIdentifier) =>
        seeded.find((ro) => ro.identifier === identifier)?.id ?? "missing"
      return {
        layer: Layer.succeed(__Name__Connector.__Name__Config, { baseUrl: fake.url }),
        smsSecrets: { [__Name__Connector.API_KEY_SECRET]: Redacted.make(fake.apiKey) },
        repairOrders: { vin: idOf("vin"), licensePlate: idOf("licensePlate"), baseVehicleID: idOf("baseVehicleID") },
        readLines: (id) => Effect.sync(() => fake.lines(id).map(({ key: _key, ...line }) => line)),
        readOrder: (id) => Effect.sync(() => fake.order(id)),
        failNextWrites: (count, retryable) => Effect.sync(() => fake.failNextWrites(count, retryable))
      }
    })
}
