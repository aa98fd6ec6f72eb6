// The client against a scripted node:http server: the request it sends, input validation before
// any request, redaction, API0500 support reports and the drop-ship round trip.
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Option, TestClock } from "effect"
import { OrderManagementClient, OrderManagementError } from "../src/index.js"
import { capture, spanText } from "./support/capture.js"
import { API_KEY, API_TOKEN, makeClient, order } from "./support/client.js"
import { closedPort, envelope, ok, type Recorded, startFaultServer } from "./support/FaultServer.js"

const address = {
  name: "Jane Doe",
  addressLine1: "100 Main St",
  addressLine2: "",
  city: "Austin",
  state: "TX",
  zipCode: "78701",
  country: "US",
  phoneNumber: "5125550100",
  emailAddress: ""
}
const recommended = { ...address, addressLine1: "100 MAIN ST", zipCode: "78701-1234" }

const orderDetails = ok({ customerAccountNo: "100200", orderHeader: { orderNo: "5000123" }, orderLines: [] })
const emptyOk = ok({ items: [], invoices: [], details: [], assets: [], customerAccountNo: "100200" })

const query = (request: Recorded | undefined) => Object.fromEntries(request?.url.searchParams ?? [])

describe("requests", () => {
  it.scopedLive("every call sends the APIKey header, the APIToken query parameter and accept: application/json", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({ json: orderDetails }))
      const { oms } = yield* makeClient(server.url)
      yield* oms.orderDetails({ orderNo: "5000123" })
      const [request] = server.requests
      expect(request?.method).toBe("GET")
      expect(request?.url.pathname).toBe("/web/services/US_QUA/orderDetails")
      expect(request?.headers["apikey"]).toBe(API_KEY)
      expect(request?.headers["accept"]).toBe("application/json")
      expect(query(request)).toEqual({ APIToken: API_TOKEN, customerAccountNo: "100200", orderNo: "5000123" })
    }))

  it.scopedLive("accountDetails sends submitDate as yyyymmdd, the calendar day in the date's own zone", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({
        json: ok({ customerAccountNo: "100200", accountName: "Main St Auto" })
      }))
      const { oms } = yield* makeClient(server.url)
      // 22:30 on the 21st in UTC-5 is already the 22nd in UTC.
      const evening = DateTime.unsafeMakeZoned(new Date("2026-11-22T03:30:00Z"), {
        timeZone: DateTime.zoneMakeOffset(-5 * 3600_000)
      })
      const account = yield* oms.accountDetails({ submitDate: evening })
      expect(account.accountName).toBe("Main St Auto")
      expect(query(server.requests[0])).toEqual({
        APIToken: API_TOKEN,
        customerAccountNo: "100200",
        submitDate: "20261121"
      })
      yield* oms.accountDetails({ submitDate: new Date("2026-01-05T10:00:00Z") })
      expect(query(server.requests[1])["submitDate"]).toBe("20260105")
    }))

  it.scopedLive("priceAndAvailability posts JSON to the spec's v2 path by default, or to the configured one", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({
        json: ok({
          items: [{
            productID: "51515",
            brandCode: "WIX",
            quantityRequested: 2,
            price: 6.49,
            listPrice: 9.99,
            corePrice: 0,
            warehouses: [{ warehouseCode: "DAL", warehouseName: "Dallas DC", quantityAvailable: 14 }]
          }]
        })
      }))
      const items = [{ productID: "51515", brandCode: "WIX", quantity: 2 }]
      const { oms } = yield* makeClient(server.url)
      const response = yield* oms.priceAndAvailability({ items })
      expect(response.items[0]?.warehouses[0]?.quantityAvailable).toBe(14)
      expect(server.requests[0]?.method).toBe("POST")
      expect(server.requests[0]?.url.pathname).toBe("/web/services/US_QUA/priceAndAvailablity_v2")
      expect(query(server.requests[0])).toEqual({ APIToken: API_TOKEN })
      expect(JSON.parse(server.requests[0]?.body ?? "")).toEqual({ customerAccountNo: "100200", items })
      const corrected = yield* makeClient(server.url, { priceAndAvailabilityPath: "/priceAndAvailability_v2" })
      yield* corrected.oms.priceAndAvailability({ items })
      expect(server.requests[1]?.url.pathname).toBe("/web/services/US_QUA/priceAndAvailability_v2")
    }))

  it.scopedLive("product details, search and digital assets send their query parameters", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({ json: emptyOk }))
      const { oms } = yield* makeClient(server.url)
      yield* oms.productDetails({ productID: "51515", brandCode: "WIX" })
      yield* oms.searchProducts({
        searchText: "oil filter",
        licensePlate: { licensePlate: "8ABC123", licensePlateState: "CA" }
      })
      yield* oms.searchProducts({ vin: "1m8gdm9axkp042788", categoryCode: "FIL", vehicleGroupId: "4521" })
      yield* oms.productDigitalAsset({ productID: "51515", brandCode: "WIX" })
      expect(server.requests.map((r) => [r.url.pathname, query(r)])).toEqual([
        ["/web/services/US_QUA/productDetails", { APIToken: API_TOKEN, productID: "51515", brandCode: "WIX" }],
        ["/web/services/US_QUA/productDetails", {
          APIToken: API_TOKEN,
          searchText: "oil filter",
          licensePlate: "8ABC123",
          licensePlateState: "CA"
        }],
        ["/web/services/US_QUA/productDetails", {
          APIToken: API_TOKEN,
          vin: "1M8GDM9AXKP042788",
          categoryCode: "FIL",
          vehicleGroupId: "4521"
        }],
        ["/web/services/US_QUA/productDigitalAsset", { APIToken: API_TOKEN, productID: "51515", brandCode: "WIX" }]
      ])
    }))

  it.scopedLive("a message ID outside the catalogue becomes UnknownMessage; an auth ID its own class", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer((_, n) =>
        n === 1
          ? { status: 400, json: envelope("API0999", "A new rule", 400) }
          : n === 2
          ? { status: 401, json: envelope("UNAUTHORIZED", "Unauthorized", 401) }
          : { status: 401, json: envelope("API0206", "Invalid API key", 401) }
      )
      const { oms } = yield* makeClient(server.url)
      const unknown = yield* Effect.flip(oms.orderDetails({ orderNo: "1" }))
      expect(unknown._tag).toBe("UnknownMessage")
      // The Punchout-only ID is not part of this API's error union.
      const punchoutOnly = yield* Effect.flip(oms.orderDetails({ orderNo: "1" }))
      expect(punchoutOnly._tag === "UnknownMessage" && punchoutOnly.code).toBe("UNAUTHORIZED")
      expect(punchoutOnly.retryClass).toBe("auth")
      const auth = yield* Effect.flip(oms.orderDetails({ orderNo: "1" }))
      expect(auth._tag).toBe("InvalidApiKey")
      expect(OrderManagementError.hasRetryClass("auth")(auth)).toBe(true)
      expect(server.requests).toHaveLength(3)
    }))

  it.scopedLive("a success body that does not match the response schema is an UnexpectedResponse", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({ json: ok({ items: [{ productID: "1" }] }) }))
      const { oms } = yield* makeClient(server.url)
      const error = yield* Effect.flip(
        oms.priceAndAvailability({ items: [{ productID: "1", brandCode: "WIX", quantity: 1 }] })
      )
      expect(error._tag).toBe("UnexpectedResponse")
      expect(error.retryClass).toBe("invalid")
      expect(server.requests).toHaveLength(1)
    }))
})

describe("input validation happens before any request", () => {
  const expectInvalid = (error: OrderManagementError.OrderManagementError, field: string, code?: string) => {
    expect(error._tag).toBe("InvalidInput")
    if (error._tag !== "InvalidInput") return
    expect(error.field).toBe(field)
    expect(error.code).toBe(code)
  }

  it.scopedLive("search, product and order rules name the field and the matching message ID", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({ json: emptyOk }))
      const { attempts, oms } = yield* makeClient(server.url)
      expectInvalid(yield* Effect.flip(oms.searchProducts({ searchText: "ab" })), "searchText", "API0304")
      expectInvalid(yield* Effect.flip(oms.searchProducts({ vin: "1M8GDM9AXKP04278I" })), "vin", "API0267")
      expectInvalid(yield* Effect.flip(oms.searchProducts({})), "")
      expectInvalid(
        yield* Effect.flip(oms.searchProducts({ licensePlate: { licensePlate: "8ABC123", licensePlateState: "ca" } })),
        "licensePlate.licensePlateState"
      )
      expectInvalid(yield* Effect.flip(oms.productDetails({ productID: "51515", brandCode: "W" })), "brandCode")
      expectInvalid(
        yield* Effect.flip(oms.createOrder({ orderLines: [{ productID: "51515", brandCode: "WIX", quantity: 0 }] })),
        "orderLines.0.quantity",
        "API0231"
      )
      expectInvalid(yield* Effect.flip(oms.createOrder({ orderLines: [] })), "orderLines")
      expectInvalid(yield* Effect.flip(oms.orderDetails({ orderNo: " " })), "orderNo")
      expectInvalid(yield* Effect.flip(oms.accountDetails({ submitDate: new Date("nope") })), "submitDate", "API0269")
      expect(attempts.count).toBe(0)
      expect(server.requests).toHaveLength(0)
    }))

  it.scopedLive("the message is one line, the field then the rule, with field, rule and code on the error", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({ json: emptyOk }))
      const { oms } = yield* makeClient(server.url)
      const search = yield* Effect.flip(oms.searchProducts({ searchText: "ab" }))
      expect(search._tag === "InvalidInput" && [search.field, search.rule, search.code]).toEqual([
        "searchText",
        "must be 3 or more characters, got 2",
        "API0304"
      ])
      expect(search.message).toBe("searchText must be 3 or more characters, got 2 (API0304)")
      const quantity = yield* Effect.flip(
        oms.createOrder({ orderLines: [{ productID: "51515", brandCode: "WIX", quantity: 0 }] })
      )
      expect(quantity.message).toBe("orderLines.0.quantity must be a positive whole number, got 0 (API0231)")
      const empty = yield* Effect.flip(oms.createOrder({ orderLines: [] }))
      expect(empty.message).toBe("orderLines must not be empty")
      const mistyped = yield* Effect.flip(oms.orderDetails({ orderNo: 5000123 as never }))
      expect(mistyped.message).toBe("orderNo must be string, got 5000123")
      for (const error of [search, quantity, empty, mistyped]) expect(error.message).not.toContain("\n")
      expect(server.requests).toHaveLength(0)
    }))

  it.scoped("invoiceDetails checks API0263–API0266 against today's date from the Clock", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-11-21T12:00:00Z"))
      const server = yield* startFaultServer(() => ({ json: ok({ invoices: [] }) }))
      const { oms } = yield* makeClient(server.url)
      const day = (iso: string) => DateTime.unsafeMake(iso)
      expectInvalid(yield* Effect.flip(oms.invoiceDetails({})), "fromDate", "API0266")
      expectInvalid(yield* Effect.flip(oms.invoiceDetails({ fromDate: day("2026-11-01") })), "toDate", "API0266")
      expectInvalid(
        yield* Effect.flip(oms.invoiceDetails({ fromDate: day("2026-11-22"), toDate: day("2026-11-22") })),
        "fromDate",
        "API0263"
      )
      expectInvalid(
        yield* Effect.flip(oms.invoiceDetails({ fromDate: day("2026-11-01"), toDate: day("2026-11-22") })),
        "toDate",
        "API0264"
      )
      expectInvalid(
        yield* Effect.flip(oms.invoiceDetails({ fromDate: day("2026-11-20"), toDate: day("2026-11-10") })),
        "fromDate",
        "API0265"
      )
      expect(server.requests).toHaveLength(0)
      yield* oms.invoiceDetails({ fromDate: day("2026-11-01"), toDate: day("2026-11-21") })
      yield* oms.invoiceDetails({ invoiceNo: "INV-1" })
      expect(server.requests.map(query)).toEqual([
        { APIToken: API_TOKEN, customerAccountNo: "100200", fromDate: "20261101", toDate: "20261121" },
        { APIToken: API_TOKEN, customerAccountNo: "100200", invoiceNo: "INV-1" }
      ])
    }))
})

describe("redaction", () => {
  it.scopedLive("neither the API key nor the token reaches a log line, a span, an error message or its JSON", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer((_, n) =>
        n === 1
          ? { json: envelope("API0258", "Order is locked by another job") }
          : n === 2
          ? { json: orderDetails }
          : n === 3
          ? { status: 401, json: envelope("API0206", "Invalid API key", 401) }
          : n === 4
          ? { status: 502, text: "bad gateway" }
          : { status: 500, json: envelope("API0500", "Something went wrong, that's all we know", 500) }
      )
      const { oms } = yield* makeClient(server.url, { retry: { maxAttempts: 2, baseDelay: "1 millis" } })
      const port = yield* closedPort
      const refused = yield* makeClient(`http://127.0.0.1:${port}`, { retry: { maxAttempts: 1 } })
      const [results, captured] = yield* capture(Effect.all([
        oms.orderDetails({ orderNo: "5000123" }),
        Effect.flip(oms.orderDetails({ orderNo: "5000123" })),
        Effect.flip(oms.createOrder(order)),
        Effect.flip(oms.createOrder(order)),
        Effect.flip(refused.oms.orderDetails({ orderNo: "1" }))
      ]))
      const errors = (results as ReadonlyArray<unknown>).slice(1) as ReadonlyArray<
        OrderManagementError.OrderManagementError
      >
      expect(errors.map((e) => e._tag)).toEqual([
        "InvalidApiKey",
        "UnexpectedResponse",
        "SomethingWentWrong",
        "RequestFailed"
      ])
      const texts = [
        ...captured.logs,
        ...captured.spans.map(spanText),
        ...errors.flatMap((e) => [e.message, String(e), JSON.stringify(e)])
      ]
      expect(captured.logs.length).toBeGreaterThan(0)
      expect(captured.spans.map((s) => s.name)).toContain("OrderManagementClient.orderDetails")
      for (const text of texts) {
        expect(text).not.toContain(API_TOKEN)
        expect(text).not.toContain(API_KEY)
      }
      const span = captured.spans.find((s) => s.name === "OrderManagementClient.orderDetails")
      expect(span?.attributes.get("url.full")).toBe(
        `${server.url}/web/services/US_QUA/orderDetails?APIToken=<redacted>&customerAccountNo=100200&orderNo=5000123`
      )
      expect(span?.attributes.get("oms.attempts")).toBe(2)
    }))

  it.scopedLive("API0500 carries the method, path and payload for support, credentials redacted", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({
        status: 500,
        json: envelope("API0500", "Something went wrong, that's all we know", 500, { referenceID: "ref-9" })
      }))
      const { oms } = yield* makeClient(server.url)
      const error = yield* Effect.flip(oms.createOrder(order))
      expect(server.requests).toHaveLength(1)
      if (error._tag !== "SomethingWentWrong") return expect.fail(`expected SomethingWentWrong, got ${error._tag}`)
      expect(error.retryClass).toBe("server")
      expect(error).toBeInstanceOf(OrderManagementError.SomethingWentWrongWithReport)
      if (!(error instanceof OrderManagementError.SomethingWentWrongWithReport)) return
      expect(error.referenceID).toBe("ref-9")
      expect(error.support).toEqual({
        method: "POST",
        path: "/web/services/US_QUA/createOrder",
        query: { APIToken: "<redacted>" },
        headers: { APIKey: "<redacted>", accept: "application/json" },
        payload: { customerAccountNo: "100200", ...order }
      })
      expect(error.message).toContain("POST /web/services/US_QUA/createOrder")
    }))
})

describe("drop-ship address recommendation (API0327)", () => {
  it.scopedLive("the rejection carries the input, the recommendation text and address, and resubmits with it", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer((request) => {
        const body = JSON.parse(request.body) as { shippingAddress?: { zipCode: string } }
        return body.shippingAddress?.zipCode === "78701"
          ? {
            status: 500,
            json: envelope("API0327", "Drop ship address update is recommended", 500, {
              clientTransactionID: "7d0c2f5e-4b8a-4c57-9f39-8f3d8f1e2a11",
              customerAccountNo: 100200,
              orderHeader: {},
              orderLines: [],
              recommendedDropShipAddress: {
                inputAddress: address,
                recommendationText: "ZIP code extended",
                recommendedAddress: recommended
              }
            })
          }
          : { json: ok({ customerAccountNo: 100200, orderHeader: { orderNo: "5000124" }, orderLines: [] }) }
      })
      const { oms } = yield* makeClient(server.url)
      const rejected = yield* Effect.flip(oms.createOrder({ ...order, shippingAddress: address }))
      if (rejected._tag !== "DropShipAddressRejected") {
        return expect.fail(`expected DropShipAddressRejected, got ${rejected._tag}`)
      }
      expect(rejected.httpStatus).toBe(500)
      expect(rejected.inputAddress).toEqual(address)
      expect(rejected.recommendationText).toBe("ZIP code extended")
      expect(rejected.recommendedAddress).toEqual(recommended)
      expect(server.requests).toHaveLength(1)
      expect(OrderManagementClient.recommendedOrder(rejected)).toEqual(
        Option.some({ ...order, shippingAddress: recommended })
      )
      const created = yield* oms.resubmitWithRecommendation(rejected)
      expect(created.orderHeader.orderNo).toBe("5000124")
      expect(JSON.parse(server.requests[1]?.body ?? "")).toEqual({
        customerAccountNo: "100200",
        ...order,
        shippingAddress: recommended
      })
    }))

  it.scopedLive("without a recommendation, resubmitting fails with the same rejection and sends nothing", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({
        status: 500,
        json: envelope("API0327", "Drop ship address update is recommended", 500, { orderLines: [] })
      }))
      const { oms } = yield* makeClient(server.url)
      const rejected = yield* Effect.flip(oms.createOrder({ ...order, shippingAddress: address }))
      if (rejected._tag !== "DropShipAddressRejected") return expect.fail(rejected._tag)
      expect(rejected.recommendedAddress).toBeUndefined()
      expect(rejected.inputAddress).toEqual(address)
      expect(Option.isNone(OrderManagementClient.recommendedOrder(rejected))).toBe(true)
      const again = yield* Effect.flip(oms.resubmitWithRecommendation(rejected))
      expect(again).toBe(rejected)
      expect(server.requests).toHaveLength(1)
    }))
})

describe("asset URLs", () => {
  it.effect("are built from assetBaseUrl when configured", () =>
    Effect.gen(function*() {
      const { service } = yield* makeClient("http://127.0.0.1:9", { assetBaseUrl: "https://assets.example/" })
      const assets = Option.getOrThrow(service.assets)
      expect(assets.forAsset({ assetName: "wix 51515.jpg" }, 110)).toBe(
        "https://assets.example/wam?type=image&size=110&asset=wix%2051515.jpg"
      )
      expect(assets.forAsset({ assetName: "install.pdf" })).toBe(
        "https://assets.example/wam?type=doc&asset=install.pdf"
      )
      expect(assets.image("a.jpg", 1500)).toBe("https://assets.example/wam?type=image&size=1500&asset=a.jpg")
      expect(assets.brandLogo({ SERVICEBrandLogo: "wix" })).toBe("https://assets.example/brands/wix.gif")
      expect(assets.brandLogo({ SERVICEBrandLogo: "" })).toBeUndefined()
      const without = yield* makeClient("http://127.0.0.1:9")
      expect(Option.isNone(without.service.assets)).toBe(true)
    }))
})
