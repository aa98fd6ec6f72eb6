// Issue #14: one adapter instance serves many shops, each on its own Shopmonkey account. Real
// loopback HTTP against the fake's two companies; each shop's key comes from SmsCredentials.
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Option, Redacted } from "effect"
import { ShopSystem, SmsCredentials } from "@shoplink/connector"
import { ShopStore } from "@shoplink/connector-runtime"
import { SANDBOX_FIXTURES } from "@shoplink/sandbox"
import { ShopmonkeyShopSystem } from "../src/index.js"
import {
  FAKE_SHOPMONKEY_API_KEY,
  FAKE_SHOPMONKEY_FIXTURES,
  FAKE_SHOPMONKEY_SECOND_COMPANY,
  type FakeShopmonkey,
  startFakeShopmonkey
} from "../src/testing.js"

const A = FAKE_SHOPMONKEY_FIXTURES.orders
const B = FAKE_SHOPMONKEY_SECOND_COMPANY.orders

/** `shop_a` is the fake's first company, `shop_b` its second. */
const twoShops = (fake: FakeShopmonkey) =>
  SmsCredentials.layerStatic({
    shop_a: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(fake.companies[0]!.apiKey) },
    shop_b: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(fake.companies[1]!.apiKey) }
  })

const withSms = <A, E>(
  fake: FakeShopmonkey,
  credentials: Layer.Layer<SmsCredentials.SmsCredentials>,
  f: (sms: ShopSystem.Operations) => Effect.Effect<A, E>,
  options: ShopmonkeyShopSystem.PerShopOptions = {}
) =>
  Effect.flatMap(ShopSystem.ShopSystem, f).pipe(
    Effect.provide(
      ShopmonkeyShopSystem.layerPerShop({ baseUrl: fake.url, ...options }).pipe(
        Layer.provide(credentials),
        Layer.provide(FetchHttpClient.layer)
      )
    )
  )

const line = (n: number): ShopSystem.PartLine => ({
  idempotencyKey: `quote:many:${n}`,
  productID: `5151${n}`,
  brandID: "WIX",
  description: `Oil Filter ${n}`,
  quantity: 1,
  costCents: 649,
  listCents: 999,
  coreCents: 0,
  partTerminologyId: 5340,
  categoryID: "FLT"
})

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E => {
  const error = Exit.isFailure(exit) ? Cause.failureOption(exit.cause) : Option.none()
  if (Option.isNone(error)) throw new Error(`expected a failure, got ${String(exit)}`)
  return error.value
}

describe("the fake's two companies", () => {
  it.scoped("each key sees only its company; the other's ids answer 404 in Shopmonkey's error shape", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const get = (key: string, path: string, init: RequestInit = {}) =>
        Effect.promise(async () => {
          const response = await fetch(`${fake.url}${path}`, {
            ...init,
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }
          })
          return { status: response.status, body: await response.json() as Record<string, unknown> }
        })
      const keyB = FAKE_SHOPMONKEY_SECOND_COMPANY.apiKey
      const listB = yield* get(keyB, "/order")
      expect((listB.body.data as Array<{ id: string; number: number }>).map((o) => [o.id, o.number])).toEqual([
        ["ord_5201", 5201],
        ["ord_5202", 5202],
        ["ord_5203", 5203]
      ])
      const listA = yield* get(FAKE_SHOPMONKEY_API_KEY, "/order")
      expect((listA.body.data as Array<{ id: string }>).map((o) => o.id)).toEqual([
        "ord_1042",
        "ord_1043",
        "ord_1044",
        "ord_1045",
        "ord_1046"
      ])
      for (
        const path of [
          `/order/${A.vin.id}`,
          `/order/${A.vin.id}/service`,
          "/vehicle/veh_ford_f150",
          "/customer/cus_dana_reyes"
        ]
      ) {
        const other = yield* get(keyB, path)
        expect(other.status).toBe(404)
        expect(other.body).toMatchObject({ success: false, code: "NOT_FOUND" })
        expect(typeof other.body.message).toBe("string")
      }
      const write = yield* get(keyB, `/order/${A.vin.id}/service`, {
        method: "POST",
        body: JSON.stringify({ name: "x" })
      })
      expect(write.status).toBe(404)
      const vendorsB = yield* get(keyB, "/vendor")
      expect((vendorsB.body.data as Array<{ name: string }>).map((v) => v.name)).toEqual([
        ...FAKE_SHOPMONKEY_SECOND_COMPANY.vendors
      ])
      expect(fake.requests().map((r) => r.companyId)).toEqual([
        FAKE_SHOPMONKEY_SECOND_COMPANY.companyId,
        FAKE_SHOPMONKEY_FIXTURES.companyId,
        ...Array.from({ length: 6 }, () => FAKE_SHOPMONKEY_SECOND_COMPANY.companyId)
      ])
      expect(fake.companies.map((c) => [c.companyId, c.locationId, c.store.orders().length])).toEqual([
        [FAKE_SHOPMONKEY_FIXTURES.companyId, FAKE_SHOPMONKEY_FIXTURES.locationId, 5],
        [FAKE_SHOPMONKEY_SECOND_COMPANY.companyId, FAKE_SHOPMONKEY_SECOND_COMPANY.locationId, 3]
      ])
      expect(fake.store).toBe(fake.companies[0]!.store)
      expect(fake.companies[0]!.store.order(B.vin.id)).toBeUndefined()
    }))

  it("the second company's vehicles are sandbox vehicles (VIN; plate and state only; year/make/model only)", () => {
    const altima = SANDBOX_FIXTURES.vehicles.find((v) => v.vin === B.vin.vehicle.vin)
    expect([altima?.year, altima?.make, altima?.model, altima?.licensePlate]).toEqual([
      2016,
      "Nissan",
      "Altima",
      B.vin.vehicle.licensePlate
    ])
    const jeep = SANDBOX_FIXTURES.vehicles.find((v) => v.licensePlate === B.plate.vehicle.licensePlate)
    expect([jeep?.licensePlateState, jeep?.model]).toEqual([B.plate.vehicle.licensePlateState, "Wrangler"])
    expect("vin" in B.plate.vehicle).toBe(false)
    expect(
      SANDBOX_FIXTURES.vehicles.some((v) =>
        v.model === B.yearMakeModel.vehicle.model && v.year === B.yearMakeModel.vehicle.year
      )
    ).toBe(true)
  })
})

describe("layerPerShop", () => {
  it.scoped("two shops with two keys each read only their own repair orders", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const [a, b, bPlate] = yield* withSms(fake, twoShops(fake), (sms) =>
        Effect.all([
          sms.loadRepairOrder({ shopId: "shop_a", repairOrderId: A.vin.id }),
          sms.loadRepairOrder({ shopId: "shop_b", repairOrderId: B.vin.id }),
          sms.loadRepairOrder({ shopId: "shop_b", repairOrderId: B.plate.id })
        ], { concurrency: "unbounded" }))
      expect([a.number, a.customer?.name, a.vehicle.vin]).toEqual(["1042", "Dana Reyes", A.vin.vehicle.vin])
      expect([b.number, b.customer?.name, b.vehicle.vin]).toEqual(["5201", "Riley Chen", B.vin.vehicle.vin])
      expect(bPlate.vehicle).toEqual({
        vin: undefined,
        licensePlate: "JEEP21",
        licensePlateState: "CO",
        year: 2021,
        make: "Jeep",
        model: "Wrangler"
      })
      const companyOf = (path: string) => fake.requests().filter((r) => r.path === path).map((r) => r.companyId)
      expect(companyOf(`/v3/order/${A.vin.id}`)).toEqual([FAKE_SHOPMONKEY_FIXTURES.companyId])
      expect(companyOf(`/v3/order/${B.vin.id}`)).toEqual([FAKE_SHOPMONKEY_SECOND_COMPANY.companyId])
    }))

  it.scoped("quoted and ordered parts written for shop A land on A's order only", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const [companyA, companyB] = fake.companies
      const [quote, order] = yield* withSms(fake, twoShops(fake), (sms) =>
        Effect.all([
          sms.applyQuote({ shopId: "shop_a", repairOrderId: A.vin.id, lines: [line(0), line(1)] }),
          sms.applyOrder({
            shopId: "shop_a",
            repairOrderId: A.vin.id,
            orderID: "10423",
            status: "3",
            statusDescription: "Submitted",
            lines: [{ ...line(2), idempotencyKey: "order:10423:0" }]
          })
        ]))
      expect([quote.added, order.added]).toEqual([2, 1])
      const partsA = companyA!.store.parts()
      expect(partsA.map((p) => [p.orderId, p.partNumber, p.companyId])).toEqual([
        [A.vin.id, "51510", FAKE_SHOPMONKEY_FIXTURES.companyId],
        [A.vin.id, "51511", FAKE_SHOPMONKEY_FIXTURES.companyId],
        [A.vin.id, "51512", FAKE_SHOPMONKEY_FIXTURES.companyId]
      ])
      expect(companyA!.store.services(A.vin.id).map((s) => s.name)).toEqual([
        "Parts quote (distributor)",
        "Distributor order 10423"
      ])
      // The distributor vendor was found-or-created in A's account, and nothing reached B's.
      expect(companyA!.store.vendors().filter((v) => v.name === "Shoplink distributor")).toHaveLength(1)
      expect(companyB!.store.parts()).toEqual([])
      expect(companyB!.store.services()).toEqual([])
      expect(companyB!.store.vendors().map((v) => v.name)).toEqual([...FAKE_SHOPMONKEY_SECOND_COMPANY.vendors])
      expect(fake.requests().every((r) => r.companyId === FAKE_SHOPMONKEY_FIXTURES.companyId)).toBe(true)

      // Shop B's write uses B's own vendor, created in B's account.
      yield* withSms(fake, twoShops(fake), (sms) =>
        sms.applyQuote({ shopId: "shop_b", repairOrderId: B.plate.id, lines: [line(0)] }))
      const vendorB = companyB!.store.vendors().find((v) =>
        v.name === "Shoplink distributor"
      )
      expect(companyB!.store.parts(B.plate.id).map((p) => [p.partNumber, p.vendorId])).toEqual([["51510", vendorB?.id]])
      expect(companyA!.store.parts()).toHaveLength(3)
    }))

  it.scoped("shop A asking for shop B's order id gets RepairOrderNotFound, reading or writing", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const [load, quote] = yield* withSms(fake, twoShops(fake), (sms) =>
        Effect.all([
          Effect.exit(sms.loadRepairOrder({ shopId: "shop_a", repairOrderId: B.vin.id })),
          Effect.exit(sms.applyQuote({ shopId: "shop_a", repairOrderId: B.plate.id, lines: [line(0)] }))
        ]))
      expect(load).toEqual(Exit.fail(new ShopSystem.RepairOrderNotFound({ shopId: "shop_a", repairOrderId: B.vin.id })))
      expect(quote).toEqual(
        Exit.fail(new ShopSystem.RepairOrderNotFound({ shopId: "shop_a", repairOrderId: B.plate.id }))
      )
      expect(fake.requests().map((r) => [r.companyId, r.path, r.status])).toEqual([
        [FAKE_SHOPMONKEY_FIXTURES.companyId, `/v3/order/${B.vin.id}`, 404],
        [FAKE_SHOPMONKEY_FIXTURES.companyId, `/v3/order/${B.plate.id}`, 404]
      ])
      expect(fake.companies[1]!.store.parts()).toEqual([])
    }))

  it.scoped("a shop without an apiKey fails with a one-line typed error naming the shop, before any request", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const credentials = SmsCredentials.layerStatic({
        shop_a: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(fake.apiKey) },
        shop_c: { username: Redacted.make("not-the-key") }
      })
      const [unknown, noKey] = yield* withSms(fake, credentials, (sms) =>
        Effect.all([
          Effect.exit(sms.loadRepairOrder({ shopId: "shop_x", repairOrderId: A.vin.id })),
          Effect.exit(sms.applyQuote({ shopId: "shop_c", repairOrderId: A.vin.id, lines: [line(0)] }))
        ]))
      const unknownError = failureOf(unknown)
      expect(unknownError).toBeInstanceOf(ShopSystem.ShopSystemError)
      expect(unknownError).toMatchObject({ _tag: "ShopSystemError", operation: "loadRepairOrder", retryable: false })
      expect(unknownError.message).toBe("loadRepairOrder: no Shopmonkey API key for shop shop_x (unknown shop)")
      const noKeyError = failureOf(noKey)
      expect(noKeyError).toMatchObject({ _tag: "ShopSystemError", operation: "applyQuote", retryable: false })
      expect(noKeyError.message).toBe("applyQuote: no Shopmonkey API key for shop shop_c (no apiKey stored)")
      for (const error of [unknownError, noKeyError]) {
        expect(error.message).not.toContain("\n")
        expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(fake.apiKey)
        expect(JSON.stringify(error)).not.toContain("not-the-key")
      }
      expect(fake.requests()).toEqual([])
    }))

  it.scoped("builds one client per shop, reused across calls, and a new one when the shop's key rotates", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const keys = new Map([["shop_a", fake.companies[0]!.apiKey], ["shop_b", fake.companies[1]!.apiKey]])
      // A credential source whose answer can change, like a ShopStore after re-onboarding.
      const rotating = Layer.succeed(
        SmsCredentials.SmsCredentials,
        SmsCredentials.SmsCredentials.of({
          secret: (shopId, name) => {
            const key = name === ShopmonkeyShopSystem.API_KEY_SECRET ? keys.get(shopId) : undefined
            return key === undefined
              ? Effect.fail(new SmsCredentials.SmsCredentialsUnavailable({ shopId, reason: `no ${name} stored` }))
              : Effect.succeed(Redacted.make(key))
          }
        })
      )
      const built: Array<string> = []
      const transformClient = (client: HttpClient.HttpClient, shopId: string) => {
        built.push(shopId)
        return client
      }
      const vendorLookups = (companyId: string) =>
        fake.requests().filter((r) => r.method === "GET" && r.path === "/v3/vendor" && r.companyId === companyId).length
      yield* withSms(fake, rotating, (sms) =>
        Effect.gen(function*() {
          // First calls of both shops at once, then more: still one client per shop.
          yield* Effect.all([
            sms.loadRepairOrder({ shopId: "shop_a", repairOrderId: A.vin.id }),
            sms.loadRepairOrder({ shopId: "shop_a", repairOrderId: A.plate.id }),
            sms.loadRepairOrder({ shopId: "shop_b", repairOrderId: B.vin.id }),
            sms.loadRepairOrder({ shopId: "shop_b", repairOrderId: B.plate.id })
          ], { concurrency: "unbounded" })
          yield* sms.applyQuote({ shopId: "shop_a", repairOrderId: A.vin.id, lines: [line(0)] })
          yield* sms.applyQuote({ shopId: "shop_a", repairOrderId: A.plate.id, lines: [line(1)] })
          yield* sms.applyQuote({ shopId: "shop_b", repairOrderId: B.vin.id, lines: [line(0)] })
          expect(built.sort()).toEqual(["shop_a", "shop_b"])
          // The vendor lookup is cached with the shop's client: once per shop, not per write.
          expect(vendorLookups(FAKE_SHOPMONKEY_FIXTURES.companyId)).toBe(1)
          expect(vendorLookups(FAKE_SHOPMONKEY_SECOND_COMPANY.companyId)).toBe(1)

          // shop_a's key now opens the second company (say the shop moved accounts): the next
          // call builds a new client and sees that account only.
          keys.set("shop_a", fake.companies[1]!.apiKey)
          const gone = yield* Effect.exit(sms.loadRepairOrder({ shopId: "shop_a", repairOrderId: A.vin.id }))
          expect(gone).toEqual(
            Exit.fail(new ShopSystem.RepairOrderNotFound({ shopId: "shop_a", repairOrderId: A.vin.id }))
          )
          const moved = yield* sms.loadRepairOrder({ shopId: "shop_a", repairOrderId: B.yearMakeModel.id })
          expect(moved.number).toBe("5203")
          expect(built.filter((s) => s === "shop_a")).toHaveLength(2)

          // A key removed from the store stops the shop at once, without a request.
          keys.delete("shop_b")
          const before = fake.requests().length
          const removed = yield* Effect.exit(sms.loadRepairOrder({ shopId: "shop_b", repairOrderId: B.vin.id }))
          expect(failureOf(removed).message).toBe(
            "loadRepairOrder: no Shopmonkey API key for shop shop_b (no apiKey stored)"
          )
          expect(fake.requests()).toHaveLength(before)
        }), { transformClient })
    }))

  it.scoped("reads each shop's key from the runtime's ShopStore, and follows a re-onboarded key", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopmonkey()
      const shop = (id: string, apiKey: string): ShopStore.ShopInput => ({
        id,
        name: `Shop ${id}`,
        distributor: {
          accountNo: "100200",
          username: `parts@${id}.example`,
          country: "US",
          apiToken: Redacted.make("t")
        },
        sms: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(apiKey) }
      })
      const layer = ShopmonkeyShopSystem.layerPerShop({ baseUrl: fake.url }).pipe(
        Layer.provide(ShopStore.layerSmsCredentials),
        Layer.provide(FetchHttpClient.layer),
        Layer.provideMerge(ShopStore.layerMemory)
      )
      yield* Effect.gen(function*() {
        const store = yield* ShopStore.ShopStore
        const sms = yield* ShopSystem.ShopSystem
        yield* store.add(shop("shop_a", fake.companies[0]!.apiKey))
        yield* store.add(shop("shop_b", fake.companies[1]!.apiKey))
        expect((yield* sms.loadRepairOrder({ shopId: "shop_a", repairOrderId: A.fleet.id })).customer?.name).toBe(
          "Northern Garage Fleet"
        )
        expect((yield* sms.loadRepairOrder({ shopId: "shop_b", repairOrderId: B.yearMakeModel.id })).customer?.name)
          .toBe("Harbor Auto Body")
        yield* store.add(shop("shop_a", "sm-revoked-key"), { replace: true })
        const refused = failureOf(
          yield* Effect.exit(sms.loadRepairOrder({ shopId: "shop_a", repairOrderId: A.fleet.id }))
        )
        expect(refused).toMatchObject({ _tag: "ShopSystemError", retryable: false })
        expect(fake.requests().at(-1)).toMatchObject({ bearer: true, authorized: false, status: 401 })
      }).pipe(Effect.provide(layer))
    }))
})
