// ConformanceRuntime is ConnectorRuntime set up for one shop: an adapter that reads its per-shop
// secret through SmsCredentials (as one runtime serving many shops needs) gets the harness's
// `smsSecrets` from the runtime's shop store, also after a restart on SQLite; and the runtime's
// launch API and signed launch links are served next to the webhooks.
import { describe, expect, it } from "@effect/vitest"
import { Connector, ShopSystem, SmsCredentials } from "@shoplink/connector"
import { startSandbox } from "@shoplink/sandbox"
import { Effect, Exit, Layer, Redacted } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type ConformanceHarness, ConformanceRuntime, runConnectorConformance } from "../src/index.js"
import { makeSuite } from "../src/internal/checks.js"
import { ReferenceConnector, ReferenceHarness, ReferenceSms } from "../src/reference.js"

const API_KEY = "reference-sms-key-of-shop-1"

/** The reference adapter, but each call first asks SmsCredentials for the shop's key. */
const perShopLayer = Layer.effect(
  ShopSystem.ShopSystem,
  Effect.gen(function*() {
    const credentials = yield* SmsCredentials.SmsCredentials
    const reference = yield* ShopSystem.ShopSystem
    const withKey = <A, E>(
      shopId: string,
      operation: string,
      run: Effect.Effect<A, E>
    ): Effect.Effect<A, E | ShopSystem.ShopSystemError> =>
      credentials.secret(shopId, "apiKey").pipe(
        Effect.mapError((error) =>
          new ShopSystem.ShopSystemError({ operation, reason: error.message, retryable: false })
        ),
        Effect.flatMap((key): Effect.Effect<A, E | ShopSystem.ShopSystemError> =>
          Redacted.value(key) === API_KEY
            ? run
            : Effect.fail(new ShopSystem.ShopSystemError({ operation, reason: "wrong API key", retryable: false }))
        )
      )
    return ShopSystem.ShopSystem.of({
      capabilities: reference.capabilities,
      loadRepairOrder: (ref) => withKey(ref.shopId, "loadRepairOrder", reference.loadRepairOrder(ref)),
      listRepairOrders: (query) => withKey(query.shopId, "listRepairOrders", reference.listRepairOrders!(query)),
      applyQuote: (write) => withKey(write.shopId, "applyQuote", reference.applyQuote(write)),
      applyOrder: (write) => withKey(write.shopId, "applyOrder", reference.applyOrder(write)),
      repairOrderEvents: reference.repairOrderEvents
    })
  })
).pipe(Layer.provide(ReferenceConnector.layer))

const perShop = Connector.defineConnector({
  id: "reference-per-shop",
  name: "Reference (per-shop key)",
  capabilities: ShopSystem.ALL_CAPABILITIES,
  layer: perShopLayer
})

// The harness gives the key as the shop's secret and does not provide SmsCredentials itself.
const harnessWithKey: ConformanceHarness.ConformanceSms<ReferenceSms.ReferenceSms> = {
  setup: (seed) =>
    Effect.map(
      ReferenceHarness.harness.setup(seed),
      (harness) => ({ ...harness, smsSecrets: { apiKey: Redacted.make(API_KEY) } })
    )
}

// The whole suite passes: every check's runtime (memory, and SQLite across the restart) serves the key.
runConnectorConformance({ connector: perShop, sms: harnessWithKey })

describe("ConformanceRuntime", () => {
  it.scoped("without smsSecrets, the adapter's failure names the missing secret", () =>
    Effect.gen(function*() {
      const suite = makeSuite({ connector: perShop, sms: ReferenceHarness.harness })
      const check = suite.checks.find((c) => c.name === "launch: the catalog opens for the vehicle by vin")!
      const exit = yield* Effect.exit(Effect.flatMap(suite.environment, check.run))
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) {
        expect(String(exit.cause)).toContain(
          "loadRepairOrder failed: SMS credentials of shop shop_1 unavailable: no apiKey stored"
        )
      }
    }))

  it.scoped("onboards the shop, serves the launch API and launch links, and reopens its SQLite file with the same key", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const sms = ReferenceSms.make([{
        id: "ro_1",
        shopId: "shop_7",
        number: "1042",
        vehicle: { vin: sandbox.fixtures.vehicles[0]!.vin }
      }])
      // SmsCredentials is left to the runtime: the layer needs only the SMS connection.
      const shopSystem = perShopLayer.pipe(Layer.provide(Layer.succeed(ReferenceSms.ReferenceSms, sms)))
      const dir = mkdtempSync(join(tmpdir(), "shoplink-conformance-runtime-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      const options = {
        sandbox,
        shopSystem,
        shopId: "shop_7",
        smsSecrets: { apiKey: Redacted.make(API_KEY) },
        storage: { sqlite: join(dir, "runtime.sqlite") },
        secretKeys: Redacted.make("k1:" + Buffer.alloc(32, 3).toString("base64"))
      }

      yield* Effect.scoped(Effect.gen(function*() {
        const runtime = yield* ConformanceRuntime.make(options)
        const shop = yield* runtime.runtime.shops.get("shop_7")
        expect(shop).toMatchObject({
          status: "active",
          smsSecrets: ["apiKey"],
          distributor: { accountNo: sandbox.credentials.customers.us.accountNo }
        })
        expect((yield* runtime.launch("ro_1")).vehicle).toBe("vin")

        const { key } = yield* runtime.runtime.apiKeys.create("conformance test")
        const launched = yield* Effect.promise(() =>
          fetch(`${runtime.publicBaseUrl}/shoplink/launch`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${Redacted.value(key)}` },
            body: JSON.stringify({ shopId: "shop_7", repairOrderId: "ro_1" })
          }).then(async (response) => ({ status: response.status, body: await response.json() }))
        )
        expect(launched).toMatchObject({
          status: 200,
          body: { repairOrder: { id: "ro_1", number: "1042" }, vehicle: "vin" }
        })

        const link = yield* runtime.runtime.launchLink({ shopId: "shop_7", repairOrderId: "ro_1" })
        const followed = yield* Effect.promise(() => fetch(link, { redirect: "manual" }))
        expect(followed.status).toBe(303)
        expect(followed.headers.get("location")).toContain(`${sandbox.url}/`)
      }))

      // A second process on the same file: the shop and its sealed key are read back.
      const again = yield* ConformanceRuntime.make(options)
      expect((yield* again.runtime.shops.list()).map((s) => s.id)).toEqual(["shop_7"])
      expect((yield* again.launch("ro_1")).repairOrder.number).toBe("1042")
    }))
})
