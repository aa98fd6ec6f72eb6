// The adapter against the fake Shop-Ware, beyond the conformance suite: the refusals (wrong
// credentials, a tenant not authorized or read-only) in one line and not retryable; a plate-only
// repair order read as it is; paging and 429 + Retry-After; the distributor order recorded once,
// and updated on a new status.
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { ShopSystem, SmsCredentials } from "@shoplink/connector"
import { Context, Effect, Either, Layer, Redacted } from "effect"
import { ShopWareConnector } from "../src/index.js"
import { FAKE_SHOP_WARE_FIXTURES, smsSecretsFor, startFakeShopWare } from "../src/testing.js"

const partner = FAKE_SHOP_WARE_FIXTURES.partner

const setup = (secrets: Record<string, Record<string, Redacted.Redacted<string>>>) =>
  Effect.gen(function*() {
    const fake = yield* startFakeShopWare()
    const layer = ShopWareConnector.layer.pipe(
      Layer.provide(Layer.succeed(ShopWareConnector.ShopWareConfig, {
        baseUrl: fake.url,
        retry: { baseDelay: "10 millis", maxDelay: "50 millis" }
      })),
      Layer.provide(FetchHttpClient.layer),
      Layer.provide(SmsCredentials.layerStatic(secrets))
    )
    const sms = Context.get(yield* Layer.build(layer), ShopSystem.ShopSystem)
    return { fake, sms }
  })

const refusal = <A, E extends { readonly _tag: string; readonly message: string }>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.either(effect), (result) => {
    expect(Either.isLeft(result)).toBe(true)
    const error = Either.isLeft(result) ? result.left : undefined
    expect(error?._tag).toBe("ShopSystemError")
    expect((error as { readonly retryable?: boolean } | undefined)?.retryable).toBe(false)
    expect(error?.message).not.toContain("\n")
    return error?.message ?? ""
  })

const order = { orderID: "10423", status: "3", statusDescription: "Order submitted" }

describe("ShopWareConnector", () => {
  it.scoped("reads a repair order with its vehicle, customer and link", () =>
    Effect.gen(function*() {
      const { sms } = yield* setup({ shop_1: smsSecretsFor(partner, 1) })
      const ro = yield* sms.loadRepairOrder({ shopId: "shop_1", repairOrderId: "1042" })
      expect(ro.number).toBe("1042")
      expect(ro.vehicle).toMatchObject({ vin: "1FTEW1E56KFA12345", licensePlate: "8ABC123", year: 2019, make: "Ford" })
      expect(ro.customer?.name).toBe("Dana Reyes")
      expect(ro.url).toBe("https://demo-auto.shop-ware.com/work_orders/1042")
      const missing = yield* Effect.either(sms.loadRepairOrder({ shopId: "shop_1", repairOrderId: "2001" }))
      expect(Either.isLeft(missing) && missing.left._tag).toBe("RepairOrderNotFound")
    }))

  it.scoped("refuses in one line: wrong credentials, a read-only tenant, an unauthorized one; reads a plate-only RO", () =>
    Effect.gen(function*() {
      const { sms } = yield* setup({
        wrong: { ...smsSecretsFor(partner, 1), apiSecret: Redacted.make("nope") },
        readOnly: smsSecretsFor(partner, 2),
        stranger: smsSecretsFor(partner, 9),
        ok: smsSecretsFor(partner, 1),
        missing: { partnerId: Redacted.make("12") }
      })
      expect(yield* refusal(sms.loadRepairOrder({ shopId: "wrong", repairOrderId: "1042" }))).toContain(
        "refused the partner credentials"
      )
      expect(yield* refusal(sms.loadRepairOrder({ shopId: "readOnly", repairOrderId: "2001" }))).toContain("read-only")
      expect(yield* refusal(sms.loadRepairOrder({ shopId: "stranger", repairOrderId: "1042" }))).toContain(
        "has not authorized"
      )
      // No VIN: read as it is (a runtime with requireVehicle refuses the launch); the plate is shown.
      const plateOnly = yield* sms.loadRepairOrder({ shopId: "ok", repairOrderId: "1043" })
      expect(plateOnly.vehicle.vin).toBeUndefined()
      expect(plateOnly.vehicle.licensePlate).toBeDefined()
      expect(yield* refusal(sms.loadRepairOrder({ shopId: "missing", repairOrderId: "1042" }))).toContain(
        "shop missing"
      )
      // A read-only tenant still lists its repair orders.
      const listed = yield* sms.listRepairOrders!({ shopId: "readOnly", limit: 10 })
      expect(listed.map((ro) => ro.number)).toEqual(["2001"])
    }))

  it.scoped("lists open repair orders newest first across pages, through a 429 with Retry-After", () =>
    Effect.gen(function*() {
      const { fake, sms } = yield* setup({ shop_1: smsSecretsFor(partner, 1) })
      for (let n = 0; n < 120; n++) fake.addRepairOrder({ tenantId: 1, shopId: 1, number: 5000 + n, state: "estimate" })
      fake.addRepairOrder({ tenantId: 1, shopId: 1, number: 9999, state: "invoice" })
      fake.inject429(1, 0)
      const listed = yield* sms.listRepairOrders!({ shopId: "shop_1", limit: 200 })
      expect(listed).toHaveLength(122)
      expect(listed[0]?.number).toBe("5119")
      expect(listed.some((ro) => ro.number === "9999")).toBe(false)
      const pages = fake.requests().filter((r) => r.path === "/api/v1/tenants/1/repair_orders" && r.status === 200)
      expect(pages.some((r) => r.query["page"] === "2")).toBe(true)
      expect(fake.requests().some((r) => r.status === 429)).toBe(true)
    }))

  it.scoped("records the order as a tag and a note once, and updates both on a new status", () =>
    Effect.gen(function*() {
      const { fake, sms } = yield* setup({ shop_1: smsSecretsFor(partner, 1), readOnly: smsSecretsFor(partner, 2) })
      const write: ShopSystem.OrderWrite = { shopId: "shop_1", repairOrderId: "1042", lines: [], ...order }
      yield* sms.applyOrder(write)
      yield* sms.applyOrder(write)
      expect(fake.tags(1042).map((t) => [t.name, t.value])).toEqual([["shoplink_order_10423", "3"]])
      expect(fake.notes(1042).map((n) => n.description)).toEqual([ShopWareConnector.purchaseOrderNote(order)])
      const writes = fake.requests().filter((r) => r.method !== "GET").length
      expect(writes).toBe(2)
      const shipped = { ...write, status: "5", statusDescription: "Shipped" }
      yield* sms.applyOrder(shipped)
      expect(fake.tags(1042).map((t) => t.value)).toEqual(["5"])
      expect(fake.notes(1042).map((n) => n.description)).toEqual([ShopWareConnector.purchaseOrderNote(shipped)])
      expect(yield* refusal(sms.applyOrder({ ...write, shopId: "readOnly", repairOrderId: "2001" })))
        .toContain("read-only")
    }))
})
