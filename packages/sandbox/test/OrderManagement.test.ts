import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { OrderManagement } from "@shoplink/protocol"
import { SANDBOX_CREDENTIALS, SANDBOX_FIXTURES, startSandbox, type RunningSandbox } from "../src/index.js"
import { call, omsHeaders, postJson } from "./helpers.js"

const us = SANDBOX_CREDENTIALS.customers.us
const ca = SANDBOX_CREDENTIALS.customers.ca

const get = (
  sandbox: RunningSandbox,
  path: string,
  query: Record<string, string>,
  options: { env?: OrderManagement.Environment; key?: string; token?: string } = {}
) => {
  const params = new URLSearchParams({ APIToken: options.token ?? us.apiToken, ...query })
  return call(`${sandbox.omsBaseUrl(options.env ?? "US_QUA")}${path}?${params}`, { headers: omsHeaders(options.key) })
}
const post = (
  sandbox: RunningSandbox,
  path: string,
  body: unknown,
  options: { env?: OrderManagement.Environment; key?: string; token?: string } = {}
) =>
  postJson(
    `${sandbox.omsBaseUrl(options.env ?? "US_QUA")}${path}?APIToken=${options.token ?? us.apiToken}`,
    body,
    omsHeaders(options.key)
  )

const ymd = (millis: number) => {
  const d = new Date(millis)
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, "0")}${
    String(d.getUTCDate()).padStart(2, "0")
  }`
}

describe("Order Management authentication", () => {
  it.scoped("checks APIKey, key expiry, environment, token and allowance", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const now = yield* sandbox.admin.now
      const query = { customerAccountNo: us.accountNo, submitDate: ymd(now) }
      const okReply = yield* get(sandbox, "/accountDetails", query)
      expect(okReply.status).toBe(200)
      expect(okReply.body.status).toEqual({ code: 200, message: { ID: "API0200", text: "Successful" } })
      const decoded = Schema.decodeUnknownSync(OrderManagement.AccountDetailsResponse)(okReply.body)
      expect(decoded.customerAccountNo).toBe("100200")
      const noKey = yield* call(`${sandbox.omsBaseUrl("US_QUA")}/accountDetails?APIToken=${us.apiToken}`)
      expect([noKey.status, noKey.body.status.message.ID]).toEqual([401, "API0206"])
      expect((yield* get(sandbox, "/accountDetails", query, { key: "bogus" })).body.status.message.ID).toBe("API0206")
      const prodOnTest = yield* get(sandbox, "/accountDetails", query, { key: SANDBOX_CREDENTIALS.oms.prodApiKey })
      expect([prodOnTest.status, prodOnTest.body.status.message.ID]).toEqual([403, "API0204"])
      expect(
        (yield* get(sandbox, "/accountDetails", query, { env: "US_PRD", key: SANDBOX_CREDENTIALS.oms.prodApiKey }))
          .status
      ).toBe(200)
      expect((yield* get(sandbox, "/accountDetails", query, { env: "CA_QUA" })).body.status.message.ID).toBe("API0204")
      expect((yield* get(sandbox, "/accountDetails", query, { token: "nope" })).body.status.message.ID).toBe("API0204")
      expect(
        (yield* get(sandbox, "/accountDetails", { ...query, customerAccountNo: ca.accountNo })).body.status.message.ID
      ).toBe("API0204")
      expect((yield* get(sandbox, "/accountDetails", { ...query, customerAccountNo: "424242" })).body.status.message.ID)
        .toBe("API0202")
      expect(
        (yield* get(sandbox, "/accountDetails", { customerAccountNo: us.accountNo, submitDate: "20261341" })).body
          .status.message.ID
      ).toBe("API0269")
      expect((yield* get(sandbox, "/accountDetails", { customerAccountNo: us.accountNo })).body.status.message.ID).toBe(
        "API0203"
      )

      yield* sandbox.admin.setMonthlyAllowance(SANDBOX_CREDENTIALS.oms.testApiKey, 5)
      const over = yield* get(sandbox, "/accountDetails", query)
      expect([over.status, over.body.status.message.ID]).toEqual([429, "API0208"])
      yield* sandbox.admin.advanceClock("32 days")
      expect(
        (yield* get(sandbox, "/accountDetails", {
          customerAccountNo: us.accountNo,
          submitDate: ymd(yield* sandbox.admin.now)
        })).status
      ).toBe(200)

      yield* sandbox.admin.expireKey(SANDBOX_CREDENTIALS.oms.testApiKey)
      const expired = yield* get(sandbox, "/accountDetails", query)
      expect([expired.status, expired.body.status.message.ID]).toEqual([401, "API0207"])
      yield* sandbox.admin.revokeToken(ca.apiToken)
      expect(
        (yield* get(sandbox, "/accountDetails", { ...query, customerAccountNo: ca.accountNo }, {
          env: "CA_PRD",
          key: SANDBOX_CREDENTIALS.oms.prodApiKey,
          token: ca.apiToken
        })).body.status.message.ID
      ).toBe("API0204")
    }))

  it.scoped("unknown endpoint, environment and wrong method are envelopes", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      expect(
        (yield* call(`${sandbox.url}/web/services/XX_QUA/accountDetails`, { headers: omsHeaders() })).body.status
          .message.ID
      ).toBe("API0288")
      expect((yield* get(sandbox, "/nothingHere", {})).body.status.message.ID).toBe("API0288")
      expect((yield* get(sandbox, "/createOrder", {})).status).toBe(400)
    }))
})

describe("createOrder", () => {
  const line = { productID: "51515", brandCode: "WIX", quantity: 1 }
  it.scoped("creates a submitted order, saved with submit=false, and shows it in orderDetails", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const created = yield* post(sandbox, "/createOrder", {
        customerAccountNo: us.accountNo,
        customerPO: "PO-1",
        orderLines: [line]
      })
      expect(created.status).toBe(200)
      const decoded = Schema.decodeUnknownSync(OrderManagement.CreateOrderResponse)(created.body)
      expect(decoded.clientTransactionID).toMatch(/^[0-9a-f-]{36}$/)
      expect(decoded.orderHeader.orderStatus).toBe("API0283")
      expect(decoded.orderLines[0]?.brand?.SERVICEBrandCode).toBe("WIX")
      const orderNo = decoded.orderHeader.orderNo!
      const details = yield* get(sandbox, "/orderDetails", { customerAccountNo: us.accountNo, orderNo })
      expect(details.body.status.message).toEqual({ ID: "API0283", text: "Order submitted" })
      Schema.decodeUnknownSync(OrderManagement.OrderDetailsResponse)(details.body)
      for (
        const [state, id] of [["processing", "API0284"], ["shippedPartial", "API0285"], [
          "shippedComplete",
          "API0286"
        ]] as const
      ) {
        yield* sandbox.admin.setOrderState(orderNo, state)
        expect(
          (yield* get(sandbox, "/orderDetails", { customerAccountNo: us.accountNo, orderNo })).body.status.message.ID
        ).toBe(id)
      }
      const saved = yield* post(sandbox, "/createOrder", {
        customerAccountNo: us.accountNo,
        submit: false,
        orderLines: [line]
      })
      expect(saved.body.orderHeader.orderStatus).toBe("API0282")
      const savedNo = saved.body.orderHeader.orderNo
      expect(
        (yield* post(sandbox, "/submitOrder", { customerAccountNo: us.accountNo, orderNo: savedNo })).body.status
          .message.ID
      ).toBe("API0272")
      expect((yield* post(sandbox, "/openOrder", { customerAccountNo: us.accountNo, orderNo: savedNo })).status).toBe(
        200
      )
      expect(
        (yield* post(sandbox, "/submitOrder", { customerAccountNo: us.accountNo, orderNo: savedNo })).body.status
          .message.ID
      ).toBe("API0283")
      expect(
        (yield* post(sandbox, "/submitOrder", { customerAccountNo: us.accountNo, orderNo: savedNo })).body.status
          .message.ID
      ).toBe("API0247")
      expect(
        (yield* post(sandbox, "/submitOrder", { customerAccountNo: us.accountNo, orderNo })).body.status.message.ID
      ).toBe("API0268")
      expect(
        (yield* post(sandbox, "/deleteOrder", { customerAccountNo: us.accountNo, orderNo })).body.status.message.ID
      ).toBe("API0257")
      expect(
        (yield* get(sandbox, "/orderDetails", { customerAccountNo: us.accountNo, orderNo: "12ab" })).body.status.message
          .ID
      ).toBe("API0230")
      expect(
        (yield* get(sandbox, "/orderDetails", { customerAccountNo: us.accountNo, orderNo: "777" })).body.status.message
          .ID
      ).toBe("API0256")
    }))

  it.scoped.each([
    ["quantity ≤ 0", { orderLines: [{ ...line, quantity: 0 }] }, "API0231"],
    ["not stocked", { orderLines: [{ productID: "NS2002", brandCode: "BO", quantity: 1 }] }, "API0232"],
    ["quantity not available", { orderLines: [{ productID: "LS3003", brandCode: "MON", quantity: 3 }] }, "API0234"],
    ["excessive quantity", { orderLines: [{ ...line, quantity: 1200 }] }, "API0235"],
    [
      "duplicate part/warehouse",
      { orderLines: [{ ...line, warehouseCode: "DAL" }, { ...line, warehouseCode: "DAL" }] },
      "API0236"
    ],
    ["no price", { orderLines: [{ productID: "NP1001", brandCode: "ACD", quantity: 1 }] }, "API0243"],
    ["no lines", { orderLines: undefined }, "API0203"]
  ] as Array<[string, Record<string, unknown>, string]>)(
    "createOrder with %s answers %s",
    ([, body, id]) =>
      Effect.gen(function*() {
        const sandbox = yield* startSandbox()
        const reply = yield* post(sandbox, "/createOrder", { customerAccountNo: us.accountNo, ...body })
        expect(reply.status).toBeGreaterThanOrEqual(400)
        expect(reply.body.status.message.ID).toBe(id)
      })
  )

  it.scoped("a P.O.-required account needs customerPO (API0259)", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const reply = yield* post(sandbox, "/createOrder", { customerAccountNo: "100300", orderLines: [line] }, {
        token: "sbx-token-us-100300"
      })
      expect(reply.body.status.message.ID).toBe("API0259")
    }))

  it.scoped("validates drop-ship addresses: accepted, recommended ZIP+4 (HTTP 500 API0327), or refused without one", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const extra = { name: "Jane Doe", addressLine2: "", phoneNumber: "5125550100", emailAddress: "" }
      const { invalid, recommendable, valid } = SANDBOX_FIXTURES.dropShip
      const ok = yield* post(sandbox, "/createOrder", {
        customerAccountNo: us.accountNo,
        orderLines: [line],
        shippingAddress: { ...valid, ...extra }
      })
      expect(ok.status).toBe(200)
      expect(ok.body.orderHeader.shippingAddress.city).toBe("Austin")
      const recommended = yield* post(sandbox, "/createOrder", {
        customerAccountNo: us.accountNo,
        orderLines: [line],
        shippingAddress: { ...recommendable, ...extra }
      })
      expect(recommended.status).toBe(500)
      const decoded = Schema.decodeUnknownSync(OrderManagement.CreateOrderResponse)(recommended.body)
      expect(decoded.status.message.ID).toBe("API0327")
      expect(decoded.orderLines).toEqual([])
      expect(decoded.recommendedDropShipAddress?.recommendedAddress.zipCode).toBe("78701-3120")
      expect(decoded.recommendedDropShipAddress?.inputAddress.addressLine1).toBe("100 Main Street")
      const refused = yield* post(sandbox, "/createOrder", {
        customerAccountNo: us.accountNo,
        orderLines: [line],
        shippingAddress: { ...invalid, ...extra }
      })
      expect([refused.status, refused.body.status.message.ID, refused.body.recommendedDropShipAddress]).toEqual([
        500,
        "API0327",
        undefined
      ])
    }))
})

describe("price and availability", () => {
  const body = { customerAccountNo: us.accountNo, items: [{ productID: "51515", brandCode: "WIX", quantity: 2 }] }
  it.scoped.each(["/priceAndAvailablity_v2", "/priceAndAvailability_v2"])(
    "%s answers warehouses with availability",
    (path) =>
      Effect.gen(function*() {
        const sandbox = yield* startSandbox()
        const reply = yield* post(sandbox, path, body)
        const decoded = Schema.decodeUnknownSync(OrderManagement.PriceAndAvailabilityResponse)(reply.body)
        expect(decoded.items[0]?.warehouses.map((w) => w.warehouseCode)).toEqual(["DAL", "ATL", "CHI"])
        expect(decoded.items[0]?.warehouses.every((w) => w.quantityAvailable === 50)).toBe(true)
        expect(decoded.items[0]?.brand?.brandDescription).toBe("WIX Filters")
      })
  )

  it.scoped("the deprecated endpoint collapses warehouses; Canadian environments use Canadian warehouses; rules apply", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const old = yield* post(sandbox, "/priceAndAvailability", body)
      expect(old.body.items[0].warehouses).toEqual([{
        warehouseCode: "ALL",
        warehouseName: "All warehouses",
        quantityAvailable: 150,
        deliveryDays: 1
      }])
      const caReply = yield* post(sandbox, "/priceAndAvailability_v2", { ...body, customerAccountNo: ca.accountNo }, {
        env: "CA_QUA",
        token: ca.apiToken
      })
      expect(caReply.body.items[0].warehouses.map((w: any) => w.warehouseCode)).toEqual(["TOR", "VAN", "MTL"])
      const withItems = (items: unknown) =>
        post(sandbox, "/priceAndAvailability_v2", { customerAccountNo: us.accountNo, items })
      expect((yield* withItems([{ productID: "51515", brandCode: "WIX", quantity: -2 }])).body.status.message.ID).toBe(
        "API0231"
      )
      expect((yield* withItems([{ productID: "NP1001", brandCode: "ACD", quantity: 1 }])).body.status.message.ID).toBe(
        "API0243"
      )
      expect((yield* withItems([{ productID: "NS2002", brandCode: "BO", quantity: 1 }])).body.status.message.ID).toBe(
        "API0232"
      )
      expect((yield* withItems([{ productID: "51515", brandCode: "WIX", quantity: 1000 }])).body.status.message.ID)
        .toBe("API0235")
      expect((yield* withItems([{ productID: "51515", brandCode: "WIXX", quantity: 1 }])).body.status.message.ID).toBe(
        "API0288"
      )
    }))
})

describe("invoices", () => {
  it.scoped("finds by number or date range and applies the date rules", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const now = yield* sandbox.admin.now
      const q = (query: Record<string, string>) =>
        get(sandbox, "/invoiceDetails", { customerAccountNo: us.accountNo, ...query })
      const range = yield* q({ fromDate: ymd(now - 30 * 86_400_000), toDate: ymd(now) })
      const decoded = Schema.decodeUnknownSync(OrderManagement.InvoiceDetailsResponse)(range.body)
      expect(decoded.invoices.length).toBe(6)
      const one = yield* q({ invoiceNo: String(decoded.invoices[0]!.invoiceNo) })
      expect(one.body.invoices).toHaveLength(1)
      expect((yield* q({ invoiceNo: "1" })).body.status.message.ID).toBe("API0289")
      expect((yield* q({ fromDate: ymd(now) })).body.status.message.ID).toBe("API0266")
      expect((yield* q({ fromDate: "2026-01-01", toDate: ymd(now) })).body.status.message.ID).toBe("API0263")
      expect((yield* q({ fromDate: ymd(now), toDate: ymd(now + 3 * 86_400_000) })).body.status.message.ID).toBe(
        "API0264"
      )
      expect((yield* q({ fromDate: ymd(now - 86_400_000), toDate: ymd(now - 5 * 86_400_000) })).body.status.message.ID)
        .toBe("API0265")
    }))
})

describe("product content", () => {
  it.scoped("productDetails has brand and category levels; searches apply the rules", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const d = (query: Record<string, string>) => get(sandbox, "/productDetails", query)
      const exact = yield* d({ productID: "51515", brandCode: "WIX" })
      const decoded = Schema.decodeUnknownSync(OrderManagement.ProductDetailsResponse)(exact.body)
      expect(decoded.details.map((x) => x.category)).toEqual(["", "Filters"])
      expect(decoded.details[0]?.description).toContain("<h3>")
      // Each row also names its product (an assumption: the spec's row shows brand, category, description).
      expect(exact.body.details.map((x: any) => Object.keys(x))).toEqual([[
        "productID",
        "brand",
        "category",
        "description"
      ], ["productID", "brand", "category", "description"]])
      expect(exact.body.details.map((x: any) => x.productID)).toEqual(["51515", "51515"])
      const vehicle = SANDBOX_FIXTURES.vehicles[0]!
      expect((yield* d({ searchText: "oil filter" })).body.details.length).toBeGreaterThan(0)
      expect((yield* d({ vin: vehicle.vin, searchText: "brake" })).body.status.message.ID).toBe("API0200")
      expect((yield* d({ searchText: "oi" })).body.status.message.ID).toBe("API0304")
      expect((yield* d({ categoryCode: "NOPE" })).body.status.message.ID).toBe("API0303")
      expect((yield* d({ vehicleGroupId: "VG0000" })).body.status.message.ID).toBe("API0226")
      const badVin = yield* d({ vin: "1FTEW1E5OKFA12345" })
      expect(badVin.body.status.message).toEqual({ ID: "API0267", text: "Invalid character for VIN at position 9" })
      expect((yield* d({ vin: "1FTEW1E50KFA99999" })).body.status.message.ID).toBe("API0261")
      expect((yield* d({ licensePlate: "NOPE123", licensePlateState: "TX" })).body.status.message.ID).toBe("API0262")
      expect(
        (yield* d({ licensePlate: vehicle.licensePlate, licensePlateState: vehicle.licensePlateState })).body.status
          .message.ID
      ).toBe("API0200")
      expect((yield* d({})).body.status.message.ID).toBe("API0203")
      expect((yield* d({ productID: "0000", brandCode: "WIX" })).body.status.message.ID).toBe("API0232")
    }))

  it.scoped("productDigitalAsset lists an image and a document", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const reply = yield* get(sandbox, "/productDigitalAsset", { productID: "51515", brandCode: "WIX" })
      const decoded = Schema.decodeUnknownSync(OrderManagement.DigitalAssetsResponse)(reply.body)
      expect(decoded.assets.map((a) => a.assetType)).toEqual(["P04", "INS"])
      expect((yield* get(sandbox, "/productDigitalAsset", { productID: "51515" })).body.status.message.ID).toBe(
        "API0203"
      )
    }))
})

describe("order ownership and deletion", () => {
  it.scoped("another account's order is API0255; a saved order can be deleted; punchout orders show in orderDetails", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      yield* sandbox.admin.addCustomer({
        accountNo: "100900",
        username: "second@shop.example",
        apiToken: "t-100900",
        country: "US"
      })
      const mine = yield* post(sandbox, "/createOrder", {
        customerAccountNo: us.accountNo,
        submit: false,
        orderLines: [{ productID: "51515", brandCode: "WIX", quantity: 1 }]
      })
      const orderNo: string = mine.body.orderHeader.orderNo
      const theirs = yield* get(sandbox, "/orderDetails", { customerAccountNo: "100900", orderNo }, {
        token: "t-100900"
      })
      expect(theirs.body.status.message.ID).toBe("API0255")
      const deleted = yield* post(sandbox, "/deleteOrder", { customerAccountNo: us.accountNo, orderNo })
      expect(deleted.status).toBe(200)
      expect(
        (yield* get(sandbox, "/orderDetails", { customerAccountNo: us.accountNo, orderNo })).body.status.message.ID
      ).toBe("API0256")
      yield* sandbox.admin.injectFault({ kind: "orderInUse", orderID: "5000002" })
      const other = yield* post(sandbox, "/createOrder", {
        customerAccountNo: us.accountNo,
        submit: false,
        orderLines: [{ productID: "51515", brandCode: "WIX", quantity: 1 }]
      })
      expect(other.body.orderHeader.orderNo).toBe("5000002")
      expect(
        (yield* post(sandbox, "/deleteOrder", { customerAccountNo: us.accountNo, orderNo: "5000002" })).body.status
          .message.ID
      ).toBe("API0273")
    }))
})

describe("stock", () => {
  it.scoped("a saved order holds no stock; opening it reallocates; deleting an open order returns its stock", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const low = { productID: "LS3003", brandCode: "MON", quantity: 2 }
      const saved = yield* post(sandbox, "/createOrder", {
        customerAccountNo: us.accountNo,
        submit: false,
        orderLines: [low]
      })
      const orderNo: string = saved.body.orderHeader.orderNo
      const price =
        (yield* post(sandbox, "/priceAndAvailability_v2", { customerAccountNo: us.accountNo, items: [low] })).body
          .items[0]
      expect(price.warehouses.find((w: any) => w.warehouseCode === "DAL").quantityAvailable).toBe(2)
      expect((yield* post(sandbox, "/openOrder", { customerAccountNo: us.accountNo, orderNo })).status).toBe(200)
      expect(
        (yield* post(sandbox, "/createOrder", { customerAccountNo: us.accountNo, orderLines: [low] })).body.status
          .message.ID
      ).toBe("API0234")
      expect((yield* post(sandbox, "/deleteOrder", { customerAccountNo: us.accountNo, orderNo })).status).toBe(200)
      expect((yield* post(sandbox, "/createOrder", { customerAccountNo: us.accountNo, orderLines: [low] })).status)
        .toBe(200)
    }))
})
