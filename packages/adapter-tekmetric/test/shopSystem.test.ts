// The Tekmetric ShopSystem against the fake Tekmetric: repair orders with vehicle and customer,
// many shops with their own credentials, the distributor order recorded on a job note once, and
// bad input (wrong credentials, a shop outside the token's scope, a repair order without VIN or
// plate) refused in one typed line before any distributor call.
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { ShopSystem, SmsCredentials } from "@shoplink/connector"
import { ConnectorRuntime } from "@shoplink/connector-runtime"
import { Effect, Layer, Redacted } from "effect"
import { TekmetricConnector } from "../src/index.js"
import { FAKE_TEKMETRIC_FIXTURES, type FakeTekmetric, startFakeTekmetric } from "../src/testing.js"

const { demo, maple } = FAKE_TEKMETRIC_FIXTURES.clients
const ros = FAKE_TEKMETRIC_FIXTURES.repairOrders

const secrets = (client: { readonly clientId: string; readonly clientSecret: string }, shop?: string) => ({
  [TekmetricConnector.CLIENT_ID_SECRET]: Redacted.make(client.clientId),
  [TekmetricConnector.CLIENT_SECRET_SECRET]: Redacted.make(client.clientSecret),
  ...(shop === undefined ? {} : { [TekmetricConnector.SHOP_ID_SECRET]: Redacted.make(shop) })
})

const SHOPS = {
  main: secrets(demo, "1"),
  second: secrets(demo, "2"),
  maple: secrets(maple),
  ambiguous: secrets(demo),
  outOfScope: secrets(demo, "3"),
  wrong: secrets({ clientId: demo.clientId, clientSecret: "wrong-secret" })
}

const setup = Effect.gen(function*() {
  const fake = yield* startFakeTekmetric()
  const context = yield* Layer.build(
    TekmetricConnector.layer.pipe(
      Layer.provide(
        Layer.succeed(TekmetricConnector.TekmetricConfig, { baseUrl: fake.url, retry: { baseDelay: "10 millis" } })
      ),
      Layer.provide(NodeHttpClient.layerUndici),
      Layer.provide(SmsCredentials.layerStatic(SHOPS))
    )
  )
  return { fake, sms: Effect.runSync(Effect.provide(ShopSystem.ShopSystem, context)) }
})

const apiCalls = (fake: FakeTekmetric) => fake.requests().filter((r) => r.path !== "/api/v1/oauth/token")

const order = (
  shopId: string,
  repairOrderId: string,
  orderID: string,
  status = "3",
  statusDescription = "Order submitted"
): ShopSystem.OrderWrite => ({
  shopId,
  repairOrderId,
  orderID,
  status,
  statusDescription,
  lines: [{
    idempotencyKey: `order:${orderID}:0`,
    productID: "51515",
    brandID: "WIX",
    description: "Oil Filter",
    quantity: 1,
    costCents: 649,
    listCents: 999,
    coreCents: 0,
    partTerminologyId: 5340,
    categoryID: "FLT"
  }]
})

describe("Tekmetric ShopSystem", () => {
  it.live("declares only what Tekmetric's API allows", () =>
    Effect.gen(function*() {
      const { sms } = yield* setup
      expect([...sms.capabilities].sort()).toEqual([
        "linkToRepairOrder",
        "listRepairOrders",
        "readRepairOrder",
        "recordPurchaseOrder"
      ])
      expect(TekmetricConnector.connector.capabilities).toEqual(sms.capabilities)
    }).pipe(Effect.scoped))

  it.live("loads a repair order with its vehicle (VIN, plate, state), customer and link", () =>
    Effect.gen(function*() {
      const { sms } = yield* setup
      const ro = yield* sms.loadRepairOrder({ shopId: "main", repairOrderId: String(ros.vin.id) })
      expect(ro).toEqual({
        id: "1042",
        number: "1042",
        vehicle: {
          vin: ros.vin.vehicle.vin,
          licensePlate: "8ABC123",
          licensePlateState: "CA",
          year: 2019,
          make: "Ford",
          model: "F-150"
        },
        customer: { id: expect.any(String), name: "Dana Reyes" },
        url: expect.stringMatching(/\/admin\/shop\/1\/repair-orders\/1042\/estimate$/)
      })
      const plate = yield* sms.loadRepairOrder({ shopId: "main", repairOrderId: String(ros.plate.id) })
      expect(plate.vehicle).toMatchObject({ vin: undefined, licensePlate: "TXK4521", licensePlateState: "TX" })
      // Many shops: each reaches its own Tekmetric shop with its own credentials.
      expect((yield* sms.loadRepairOrder({ shopId: "second", repairOrderId: "2001" })).number).toBe("2001")
      expect((yield* sms.loadRepairOrder({ shopId: "maple", repairOrderId: "3001" })).vehicle.licensePlate).toBe(
        "JEEP21"
      )
    }).pipe(Effect.scoped))

  it.live("lists a shop's open repair orders, newest first, at most limit, without VIN or plate too", () =>
    Effect.gen(function*() {
      const { fake, sms } = yield* setup
      const list = sms.listRepairOrders!
      // Added after the fixtures, so newer: a posted one (not open) and an estimate (open).
      fake.addRepairOrder({ shopId: 1, number: 1046, statusId: 5, customer: { firstName: "Pat", lastName: "Posted" } })
      fake.addRepairOrder({
        shopId: 1,
        number: 1047,
        statusId: 1,
        customer: { firstName: "Eve", lastName: "Estimate" }
      })
      const all = yield* list({ shopId: "main", limit: 50 })
      expect(all.map((ro) => ro.number)).toEqual(["1047", "1045", "1044", "1043", "1042"])
      expect(all.find((ro) => ro.number === "1044")).toEqual({
        id: "1044",
        number: "1044",
        vehicle: {
          vin: undefined,
          licensePlate: undefined,
          licensePlateState: undefined,
          year: 2017,
          make: "Honda",
          model: "Civic"
        },
        customer: { id: expect.any(String), name: "Lee Park" },
        url: expect.stringMatching(/\/admin\/shop\/1\/repair-orders\/1044\/estimate$/)
      })
      const listed = apiCalls(fake).filter((r) => r.path === "/api/v1/repair-orders")
      expect(listed.at(-1)?.query).toMatchObject({
        shop: "1",
        repairOrderStatusId: "1,2,3",
        sort: "createdDate",
        sortDirection: "DESC"
      })
      expect((yield* list({ shopId: "main", limit: 2 })).map((ro) => ro.number)).toEqual(["1047", "1045"])
      expect(yield* list({ shopId: "main", limit: 0 })).toEqual([])
      // Each shop its own Tekmetric shop, even with the same credentials.
      expect((yield* list({ shopId: "second", limit: 50 })).map((ro) => ro.number)).toEqual(["2001"])
      expect((yield* list({ shopId: "maple", limit: 50 })).map((ro) => ro.number)).toEqual(["3002", "3001"])
      expect(yield* Effect.flip(list({ shopId: "outOfScope", limit: 5 }))).toMatchObject({
        _tag: "ShopSystemError",
        retryable: false
      })
    }).pipe(Effect.scoped))

  it.live("another shop's repair order, an unknown one and a malformed id are RepairOrderNotFound", () =>
    Effect.gen(function*() {
      const { sms } = yield* setup
      for (
        const [shopId, repairOrderId] of [["main", "2001"], ["main", "3001"], ["main", "999999"], ["main", "ro_1"], [
          "maple",
          "1042"
        ]] as const
      ) {
        const error = yield* Effect.flip(sms.loadRepairOrder({ shopId, repairOrderId }))
        expect(error._tag, `${shopId}/${repairOrderId}`).toBe("RepairOrderNotFound")
      }
    }).pipe(Effect.scoped))

  it.live("bad input is one typed, non-retryable line: wrong credentials, a shop outside the scope, no shop chosen, no VIN or plate", () =>
    Effect.gen(function*() {
      const { fake, sms } = yield* setup
      const failure = (shopId: string, repairOrderId = "1042") =>
        Effect.map(
          Effect.flip(sms.loadRepairOrder({ shopId, repairOrderId })),
          (e) => ({ tag: e._tag, message: e.message, retryable: e._tag === "ShopSystemError" && e.retryable })
        )
      expect(yield* failure("wrong")).toEqual({
        tag: "ShopSystemError",
        message:
          "loadRepairOrder: Tekmetric refused the client credentials (HTTP 401: Bad client credentials): check the shop's clientId and clientSecret",
        retryable: false
      })
      expect(yield* failure("outOfScope")).toEqual({
        tag: "ShopSystemError",
        message: "loadRepairOrder: Tekmetric shop 3 is not in the token's scope (shops 1, 2)",
        retryable: false
      })
      expect(yield* failure("ambiguous")).toEqual({
        tag: "ShopSystemError",
        message:
          "loadRepairOrder: the Tekmetric credentials cover shops 1, 2: set the shop's secret tekmetricShopId to one of them",
        retryable: false
      })
      // None of these reached a repair order.
      expect(apiCalls(fake)).toEqual([])
      expect(yield* failure("main", String(ros.noVehicle.id))).toEqual({
        tag: "ShopSystemError",
        message:
          "loadRepairOrder: Tekmetric repair order 1044 has no vehicle with a VIN or a license plate and state: add one in Tekmetric before ordering parts",
        retryable: false
      })
      expect(yield* failure("nobody")).toMatchObject({ tag: "ShopSystemError", retryable: false })
    }).pipe(Effect.scoped))

  it.live("applyOrder records the distributor order on the first job's note, idempotently; a new status replaces its line", () =>
    Effect.gen(function*() {
      const { fake, sms } = yield* setup
      const patches = () => fake.requests().filter((r) => r.method === "PATCH").length
      expect(yield* sms.applyOrder(order("main", "1045", "10423"))).toEqual({ added: 0, alreadyPresent: 0 })
      const [first, second] = fake.jobs(1045)
      expect(first!.note).toBe("Parts order 10423: Order submitted (status 3), via Shoplink [shoplink-order:10423]")
      expect(second!.note).toBeNull()
      // The same delivery again (a replay, a re-claimed entry): nothing written.
      yield* sms.applyOrder(order("main", "1045", "10423"))
      expect(patches()).toBe(1)
      // Another order, then a later status of the first.
      yield* sms.applyOrder(order("main", "1045", "10431"))
      yield* sms.applyOrder(order("main", "1045", "10423", "5", "Shipped"))
      expect(fake.jobs(1045)[0]!.note!.split("\n")).toEqual([
        "Parts order 10423: Shipped (status 5), via Shoplink [shoplink-order:10423]",
        "Parts order 10431: Order submitted (status 3), via Shoplink [shoplink-order:10431]"
      ])
      expect(TekmetricConnector.recordedOrders(fake.jobs(1045)[0]!.note)).toEqual([
        { orderID: "10423", status: "5" },
        { orderID: "10431", status: "3" }
      ])
      expect(patches()).toBe(3)
    }).pipe(Effect.scoped))

  it.live("applyOrder: an outage is retryable, a refusal and a repair order without a job are not; applyQuote is refused", () =>
    Effect.gen(function*() {
      const { fake, sms } = yield* setup
      fake.failNextWrites(10, true)
      const outage = yield* Effect.flip(sms.applyOrder(order("main", "1042", "1")))
      expect(outage._tag === "ShopSystemError" && outage.retryable).toBe(true)
      fake.failNextWrites(1, false)
      const refusal = yield* Effect.flip(sms.applyOrder(order("main", "1042", "1")))
      expect(refusal._tag === "ShopSystemError" && refusal.retryable).toBe(false)
      const noJob = yield* Effect.flip(sms.applyOrder(order("maple", String(ros.mapleNoJob.id), "7")))
      expect(noJob.message).toBe(
        "applyOrder: Tekmetric repair order 3002 has no job to record parts order 7 on: add a job, then replay"
      )
      const quote = yield* Effect.flip(sms.applyQuote({ shopId: "main", repairOrderId: "1042", lines: [] }))
      expect(quote.message).toBe("applyQuote: Tekmetric's API has no part-line write")
    }).pipe(Effect.scoped))

  it.live("through the runtime, a launch with bad input fails in one line before any distributor call", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeTekmetric()
      const http = yield* Layer.build(NodeHttpClient.layerUndici)
      const adapter = TekmetricConnector.layer.pipe(
        Layer.provide(Layer.succeed(TekmetricConnector.TekmetricConfig, { baseUrl: fake.url })),
        Layer.provide(Layer.succeedContext(http))
      )
      // No distributor listens here: a call to it would fail differently (transport), not as below.
      const runtime = yield* ConnectorRuntime.make(adapter, {
        publicBaseUrl: "http://127.0.0.1:1",
        smsVendorName: "Tests",
        storage: "memory",
        worker: false,
        punchout: { baseUrl: "http://127.0.0.1:9", vendorApiKey: Redacted.make("vendor-key-not-used") }
      }).pipe(Effect.provide(http))
      const distributor = {
        accountNo: "100200",
        username: "shop",
        country: "US" as const,
        apiToken: Redacted.make("token-not-used")
      }
      yield* runtime.shops.add({ id: "main", name: "Main", distributor, sms: SHOPS.main })
      yield* runtime.shops.add({ id: "outOfScope", name: "Out", distributor, sms: SHOPS.outOfScope })
      yield* runtime.shops.add({ id: "wrong", name: "Wrong", distributor, sms: SHOPS.wrong })
      const launch = (shopId: string, repairOrderId: string) =>
        Effect.map(Effect.flip(runtime.launch({ shopId, repairOrderId })), (e) => `${e._tag}: ${e.message}`)
      expect(yield* launch("main", "1044")).toMatch(
        /^ShopSystemError: loadRepairOrder: Tekmetric repair order 1044 has no vehicle with a VIN/
      )
      expect(yield* launch("outOfScope", "1042")).toBe(
        "ShopSystemError: loadRepairOrder: Tekmetric shop 3 is not in the token's scope (shops 1, 2)"
      )
      expect(yield* launch("wrong", "1042")).toMatch(
        /^ShopSystemError: loadRepairOrder: Tekmetric refused the client credentials/
      )
    }).pipe(Effect.scoped))
})
