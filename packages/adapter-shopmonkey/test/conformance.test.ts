// Issue #7's acceptance: the Shopmonkey adapter passes the connector conformance suite against the
// sandbox and the fake Shopmonkey. The harness reads what was written straight from the fake's store.
// The connector is per shop (issue #14): the shop's Shopmonkey key is onboarded with the shop
// (`smsSecrets`) and reaches the adapter through the runtime's SmsCredentials, as in production.
import type { HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { runConnectorConformance } from "@shoplink/connector-testkit"
import type { ConformanceHarness } from "@shoplink/connector-testkit"
import { ConfigProvider, Effect, Layer, Redacted } from "effect"
import { shopmonkeyConnector, ShopmonkeyShopSystem } from "../src/index.js"
import { FAKE_SHOPMONKEY_FIXTURES, startFakeShopmonkey } from "../src/testing.js"

const harness: ConformanceHarness.ConformanceSms<HttpClient.HttpClient> = {
  setup: () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const layer = Layer.mergeAll(
        NodeHttpClient.layerUndici,
        Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["SHOPLINK_SHOPMONKEY_BASE_URL", fake.url]])))
      )
      const { plate, vin, yearMakeModel } = FAKE_SHOPMONKEY_FIXTURES.orders
      return {
        layer,
        smsSecrets: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(fake.apiKey) },
        // The fake's seeded orders carry the suite's sandbox vehicles. Shopmonkey has no ACES base
        // vehicle ID: the Civic (the suite's base-vehicle RO) has only year, make and model there,
        // and the suite checks that launching it does not claim that identifier.
        repairOrders: { vin: vin.id, licensePlate: plate.id, baseVehicleID: yearMakeModel.id },
        readLines: (repairOrderId) =>
          Effect.sync(() => {
            const services = new Map(fake.store.services(repairOrderId).map((s) => [s["id"], s]))
            return fake.store.parts(repairOrderId).map((part): ConformanceHarness.SmsLine => {
              const service = services.get(part["serviceId"])
              const serviceKey = String(
                (service?.["metadata"] as Record<string, unknown> | null)?.[ShopmonkeyShopSystem.SERVICE_KEY_FIELD] ??
                  ""
              )
              const metadata = (part["metadata"] ?? {}) as Record<string, unknown>
              return {
                kind: serviceKey === "quote" ? "quoted" : "ordered",
                productID: String(part["partNumber"] ?? ""),
                brandID: String(metadata["shoplinkBrandId"] ?? ""),
                description: String(part["name"] ?? ""),
                quantity: Number(part["quantity"]),
                costCents: Number(part["wholesaleCostCents"] ?? 0),
                listCents: Number(part["retailCostCents"] ?? 0),
                coreCents: Number(part["coreChargeCents"] ?? 0)
              }
            })
          }),
        // Not declared (recordPurchaseOrder): the order number lives only in the service name.
        readOrder: () => Effect.succeed(undefined),
        failNextWrites: (count, retryable) => Effect.sync(() => fake.failNextWrites(count, retryable ? 503 : 422))
      }
    })
}

runConnectorConformance({
  connector: shopmonkeyConnector,
  sms: harness,
  vehicleIdentifiers: ["vin", "licensePlate"]
})
