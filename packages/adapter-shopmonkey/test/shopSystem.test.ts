import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer, Redacted } from "effect"
import { Money, ShopSystem, SmsCredentials } from "@shoplink/connector"
import { SANDBOX_FIXTURES } from "@shoplink/sandbox"
import { shopmonkeyConnector, ShopmonkeyShopSystem } from "../src/index.js"
import {
  FAKE_SHOPMONKEY_FIXTURES,
  FAKE_SHOPMONKEY_SECOND_COMPANY as FAKE_SHOPMONKEY_FIXTURES_SECOND,
  type FakeShopmonkey,
  startFakeShopmonkey
} from "../src/testing.js"
import { clientLayer, driveClock } from "./support.js"

const { orders } = FAKE_SHOPMONKEY_FIXTURES

const withSms = <A, E>(
  fake: FakeShopmonkey,
  f: (sms: ShopSystem.Operations) => Effect.Effect<A, E>,
  options: ShopmonkeyShopSystem.Options = {}
) =>
  Effect.flatMap(ShopSystem.ShopSystem, f).pipe(
    Effect.provide(ShopmonkeyShopSystem.layer(options).pipe(Layer.provide(clientLayer(fake))))
  )

const line = (n: number, overrides: Partial<ShopSystem.PartLine> = {}): ShopSystem.PartLine => ({
  idempotencyKey: `quote:abc:${n}`,
  productID: `5151${n}`,
  brandID: "WIX",
  description: `Oil Filter ${n}`,
  quantity: 1,
  costCents: 100,
  listCents: 200,
  coreCents: 0,
  partTerminologyId: 5340,
  categoryID: "FLT",
  ...overrides
})

// Distributor prices as they arrive (decimal numbers), converted the way the webhook worker does.
const pricedLines = [
  line(0, { quantity: 2, costCents: Money.toCents(6.49), listCents: Money.toCents(9.99) }),
  line(1, { quantity: 10, costCents: Money.toCents(0.29), listCents: Money.toCents(0.1 + 0.2) }),
  line(2, {
    description: "Alternator",
    costCents: Money.toCents(19.995),
    listCents: Money.toCents(159.5),
    coreCents: Money.toCents(45)
  })
]

describe("loadRepairOrder", () => {
  it.scoped("reads an order with its vehicle (VIN, plate) and customer", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const ro = yield* withSms(fake, (sms) => sms.loadRepairOrder({ shopId: "shop_1", repairOrderId: orders.vin.id }))
      const sandboxFord = SANDBOX_FIXTURES.vehicles.find((v) => v.make === "Ford" && v.model === "F-150")
      expect(ro).toEqual({
        id: "ord_1042",
        number: "1042",
        vehicle: {
          vin: sandboxFord?.vin,
          licensePlate: sandboxFord?.licensePlate,
          licensePlateState: sandboxFord?.licensePlateState,
          year: 2019,
          make: "Ford",
          model: "F-150"
        },
        customer: { id: "cus_dana_reyes", name: "Dana Reyes" }
      })
    }))

  it.scoped("maps missing vehicle fields to undefined and business customers to their company name", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const [plate, ymm, fleet, none] = yield* withSms(
        fake,
        (sms) =>
          Effect.all(
            [orders.plate, orders.yearMakeModel, orders.fleet, orders.noVehicle].map((o) =>
              sms.loadRepairOrder({ shopId: "shop_1", repairOrderId: o.id })
            )
          )
      )
      expect(plate?.vehicle).toEqual({
        vin: undefined,
        licensePlate: "TXK4521",
        licensePlateState: "TX",
        year: 2018,
        make: "Toyota",
        model: "Camry"
      })
      expect(ymm?.vehicle.vin).toBeUndefined()
      expect(ymm?.vehicle.licensePlate).toBeUndefined()
      expect(fleet?.customer).toEqual({ id: "cus_northern_fleet", name: "Northern Garage Fleet" })
      expect(none).toEqual({ id: "ord_1046", number: "1046", vehicle: {}, customer: undefined })
    }))

  it.scoped("fails RepairOrderNotFound for an unknown order", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const exit = yield* Effect.exit(
        withSms(fake, (sms) => sms.loadRepairOrder({ shopId: "shop_1", repairOrderId: "ord_nope" }))
      )
      expect(exit).toEqual(
        Exit.fail(new ShopSystem.RepairOrderNotFound({ shopId: "shop_1", repairOrderId: "ord_nope" }))
      )
    }))

  it.scoped("seeded vehicles are the sandbox's fixture vehicles", () =>
    Effect.gen(function*() {
      for (const order of [orders.vin, orders.fleet]) {
        const match = SANDBOX_FIXTURES.vehicles.find((v) => v.vin === order.vehicle.vin)
        expect(match?.licensePlate).toBe(order.vehicle.licensePlate)
        expect([match?.year, match?.make, match?.model]).toEqual([
          order.vehicle.year,
          order.vehicle.make,
          order.vehicle.model
        ])
      }
      const byPlate = SANDBOX_FIXTURES.vehicles.find((v) => v.licensePlate === orders.plate.vehicle.licensePlate)
      expect(byPlate?.licensePlateState).toBe(orders.plate.vehicle.licensePlateState)
      const civic = SANDBOX_FIXTURES.vehicles.find((v) => v.model === orders.yearMakeModel.vehicle.model)
      expect(civic?.year).toBe(orders.yearMakeModel.vehicle.year)
    }))
})

describe("applyQuote", () => {
  it.scoped("writes quoted parts with exact cents, core charge and vendor on a quote service", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const result = yield* withSms(
        fake,
        (sms) => sms.applyQuote({ shopId: "shop_1", repairOrderId: orders.vin.id, lines: pricedLines })
      )
      expect(result).toEqual({ added: 3, alreadyPresent: 0 })
      const services = fake.store.services(orders.vin.id)
      expect(services.map((s) => s.name)).toEqual(["Parts quote (distributor)"])
      const vendor = fake.store.vendors().find((v) => v.name === "Shoplink distributor")
      expect(vendor).toBeDefined()
      const parts = fake.store.parts(orders.vin.id)
      expect(
        parts.map((p) => [p.partNumber, p.name, p.quantity, p.wholesaleCostCents, p.retailCostCents, p.coreChargeCents])
      ).toEqual([
        ["51510", "Oil Filter 0", 2, 649, 999, null],
        ["51511", "Oil Filter 1", 10, 29, 30, null],
        ["51512", "Alternator", 1, 2000, 15950, 4500]
      ])
      expect(parts.every((p) => p.serviceId === services[0]?.id && p.vendorId === vendor?.id)).toBe(true)
      expect(parts[0]?.metadata).toMatchObject({ shoplinkKey: "quote:abc:0", shoplinkBrandId: "WIX" })
      expect(String(parts[0]?.note)).toContain("quoted, not ordered")
    }))

  it.scoped("rewriting the same lines adds nothing; new lines join the same service", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const ref = { shopId: "shop_1", repairOrderId: orders.plate.id }
      const [first, again, more] = yield* withSms(fake, (sms) =>
        Effect.all([
          sms.applyQuote({ ...ref, lines: pricedLines }),
          sms.applyQuote({ ...ref, lines: pricedLines }),
          sms.applyQuote({ ...ref, lines: [...pricedLines, line(3)] })
        ]))
      expect(first).toEqual({ added: 3, alreadyPresent: 0 })
      expect(again).toEqual({ added: 0, alreadyPresent: 3 })
      expect(more).toEqual({ added: 1, alreadyPresent: 3 })
      expect(fake.store.parts(ref.repairOrderId)).toHaveLength(4)
      expect(fake.store.services(ref.repairOrderId)).toHaveLength(1)
      expect(fake.store.vendors().filter((v) => v.name === "Shoplink distributor")).toHaveLength(1)
    }))

  it.scoped("a fresh adapter instance (restart) still finds the keys on the parts", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const write = { shopId: "shop_1", repairOrderId: orders.vin.id, lines: pricedLines }
      yield* withSms(fake, (sms) => sms.applyQuote(write))
      const again = yield* withSms(fake, (sms) => sms.applyQuote(write))
      expect(again).toEqual({ added: 0, alreadyPresent: 3 })
      expect(fake.store.parts(orders.vin.id)).toHaveLength(3)
    }))

  it.scoped("concurrent identical writes add each line once", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const write = { shopId: "shop_1", repairOrderId: orders.fleet.id, lines: pricedLines }
      const results = yield* withSms(fake, (sms) =>
        Effect.all([sms.applyQuote(write), sms.applyQuote(write)], { concurrency: 2 }))
      expect(
        results.map((r) =>
          r.added
        ).sort()
      ).toEqual([0, 3])
      expect(fake.store.parts(orders.fleet.id)).toHaveLength(3)
    }))

  it.scoped("uses an existing vendor found by name", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      yield* withSms(fake, (sms) => sms.applyQuote({ shopId: "s", repairOrderId: orders.vin.id, lines: [line(0)] }), {
        vendorName: "Worldpac"
      })
      expect(fake.store.parts(orders.vin.id)[0]?.vendorId).toBe("ven_worldpac")
      expect(fake.store.vendors()).toHaveLength(3)
    }))

  it.scoped("refuses non-integer cents before writing anything", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const exit = yield* Effect.exit(withSms(fake, (sms) =>
        sms.applyQuote({ shopId: "s", repairOrderId: orders.vin.id, lines: [line(0), line(1, { costCents: 6.49 })] })))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(JSON.stringify(exit)).toContain("\"retryable\":false")
      expect(fake.store.parts()).toHaveLength(0)
    }))

  it.scoped("rides out a 429 during the write without duplicating lines", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      fake.inject429(2, 3)
      const { exit, slept } = yield* driveClock(
        withSms(fake, (sms) => sms.applyQuote({ shopId: "s", repairOrderId: orders.vin.id, lines: pricedLines }))
      )
      expect(exit).toEqual(Exit.succeed({ added: 3, alreadyPresent: 0 }))
      expect(slept).toEqual([3000, 3000])
      expect(fake.store.parts(orders.vin.id)).toHaveLength(3)
    }))

  it.scoped("an unknown order fails RepairOrderNotFound; an SMS error is a ShopSystemError", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const missing = yield* Effect.exit(
        withSms(fake, (sms) => sms.applyQuote({ shopId: "s", repairOrderId: "ord_x", lines: [line(0)] }))
      )
      expect(missing).toEqual(Exit.fail(new ShopSystem.RepairOrderNotFound({ shopId: "s", repairOrderId: "ord_x" })))
      const wrongKey = yield* Effect.exit(
        Effect.flatMap(
          ShopSystem.ShopSystem,
          (sms) => sms.applyQuote({ shopId: "s", repairOrderId: orders.vin.id, lines: [line(0)] })
        ).pipe(
          Effect.provide(ShopmonkeyShopSystem.layer().pipe(Layer.provide(clientLayer({ ...fake, apiKey: "sm-wrong" }))))
        )
      )
      expect(Exit.isFailure(wrongKey) && wrongKey.cause._tag === "Fail" && wrongKey.cause.error).toMatchObject({
        _tag: "ShopSystemError",
        operation: "applyQuote",
        retryable: false
      })
    }))
})

describe("applyOrder", () => {
  it.scoped("writes ordered lines on a service per distributor order, once per order", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const order = {
        shopId: "shop_1",
        repairOrderId: orders.vin.id,
        orderID: "10423",
        status: "3",
        statusDescription: "Order submitted",
        lines: pricedLines.map((l, i) => ({ ...l, idempotencyKey: `order:10423:${i}` }))
      }
      const [first, laterStatus, second] = yield* withSms(fake, (sms) =>
        Effect.all([
          sms.applyOrder(order),
          sms.applyOrder({ ...order, status: "5", statusDescription: "Shipped" }),
          sms.applyOrder({ ...order, orderID: "10424", lines: [{ ...line(9), idempotencyKey: "order:10424:0" }] })
        ]))
      expect(first).toEqual({ added: 3, alreadyPresent: 0 })
      expect(laterStatus).toEqual({ added: 0, alreadyPresent: 3 })
      expect(second).toEqual({ added: 1, alreadyPresent: 0 })
      expect(fake.store.services(orders.vin.id).map((s) => s.name)).toEqual([
        "Distributor order 10423",
        "Distributor order 10424"
      ])
      const parts = fake.store.parts(orders.vin.id)
      expect(parts).toHaveLength(4)
      expect(String(parts[0]?.note)).toContain("ordered, distributor order 10423")
      expect(parts[2]?.coreChargeCents).toBe(4500)
    }))

  it.scoped("quoted and ordered lines live on separate services of the same order", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      yield* withSms(fake, (sms) =>
        Effect.all([
          sms.applyQuote({ shopId: "s", repairOrderId: orders.vin.id, lines: [line(0)] }),
          sms.applyOrder({
            shopId: "s",
            repairOrderId: orders.vin.id,
            orderID: "777",
            status: "3",
            statusDescription: "Submitted",
            lines: [{ ...line(0), idempotencyKey: "order:777:0" }]
          })
        ]))
      expect(fake.store.services(orders.vin.id).map((s) => s.name)).toEqual([
        "Parts quote (distributor)",
        "Distributor order 777"
      ])
      expect(fake.store.parts(orders.vin.id)).toHaveLength(2)
    }))
})

describe("shopmonkeyConnector", () => {
  it.scoped("declares its capabilities honestly and runs per shop, the base URL from configuration", () =>
    Effect.gen(function*() {
      expect(shopmonkeyConnector.id).toBe("shopmonkey")
      expect([...shopmonkeyConnector.capabilities]).toEqual([
        "readRepairOrder",
        "listRepairOrders",
        "writeQuotedParts",
        "writeOrderedParts"
      ])
      const fake = yield* startFakeShopmonkey()
      const config = ConfigProvider.fromMap(new Map([["SHOPLINK_SHOPMONKEY_BASE_URL", fake.url]]))
      const live = shopmonkeyConnector.layer.pipe(
        Layer.provide(
          SmsCredentials.layerStatic({ s: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(fake.apiKey) } })
        ),
        Layer.provide(FetchHttpClient.layer)
      )
      const ro = yield* Effect.flatMap(
        ShopSystem.ShopSystem,
        (sms) => sms.loadRepairOrder({ shopId: "s", repairOrderId: orders.plate.id })
      ).pipe(
        Effect.provide(live),
        Effect.withConfigProvider(config)
      )
      expect(ro.number).toBe("1043")
      const sms = yield* ShopSystem.ShopSystem.pipe(Effect.provide(live), Effect.withConfigProvider(config))
      expect([...sms.capabilities]).toEqual([...shopmonkeyConnector.capabilities])
    }))

  it.scoped("lists each shop's open orders, newest first, at most limit, with vehicle and customer", () =>
    Effect.gen(function*() {
      // 30 archived orders besides the fixtures: listed by the API, never by listRepairOrders.
      const fake = yield* startFakeShopmonkey({ extraOrders: 30 })
      const second = FAKE_SHOPMONKEY_FIXTURES_SECOND
      const live = ShopmonkeyShopSystem.layerPerShop({ baseUrl: fake.url }).pipe(
        Layer.provide(SmsCredentials.layerStatic({
          main: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(fake.apiKey) },
          north: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(second.apiKey) }
        })),
        Layer.provide(FetchHttpClient.layer)
      )
      const sms = yield* ShopSystem.ShopSystem.pipe(Effect.provide(live))
      const list = sms.listRepairOrders!
      const all = yield* list({ shopId: "main", limit: 50 })
      expect(all.map((ro) => ro.number)).toEqual(["1046", "1045", "1044", "1043", "1042"])
      expect(all.find((ro) => ro.id === orders.plate.id)).toEqual({
        id: orders.plate.id,
        number: "1043",
        vehicle: {
          vin: undefined,
          licensePlate: "TXK4521",
          licensePlateState: "TX",
          year: 2018,
          make: "Toyota",
          model: "Camry"
        },
        customer: { id: "cus_sam_okafor", name: "Sam Okafor" }
      })
      expect((yield* list({ shopId: "main", limit: 2 })).map((ro) => ro.number)).toEqual(["1046", "1045"])
      expect(yield* list({ shopId: "main", limit: 0 })).toEqual([])
      // The other company's key sees only its own orders.
      expect((yield* list({ shopId: "north", limit: 50 })).map((ro) => ro.number)).toEqual(["5203", "5202", "5201"])
      const orderPages = fake.requests().filter((r) => r.method === "GET" && r.path === "/v3/order")
      expect(orderPages.every((r) => JSON.parse(r.query["where"] ?? "{}").archived === false)).toBe(true)
      const unknown = yield* Effect.flip(list({ shopId: "nobody", limit: 5 }))
      expect(unknown).toMatchObject({ _tag: "ShopSystemError", retryable: false })
    }))
})
