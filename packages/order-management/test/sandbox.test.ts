// The client against @shoplink/sandbox: every operation, the message IDs the sandbox produces,
// auth failures, environment selection and the drop-ship recommendation round trip.
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { type RunningSandbox, SANDBOX_PO_REQUIRED_CUSTOMER, startSandbox } from "@shoplink/sandbox"
import { DateTime, Effect, Option, Redacted } from "effect"
import { Customer, OrderManagementClient, type OrderManagementError } from "../src/index.js"

interface Setup {
  readonly sandbox: RunningSandbox
  readonly attempts: { count: number }
  readonly client: (
    options?: Partial<OrderManagementClient.Options>
  ) => Effect.Effect<OrderManagementClient.OrderManagementClient.Service, OrderManagementError.ConfigurationError>
  readonly us: OrderManagementClient.CustomerClient
}

const setup: Effect.Effect<Setup, OrderManagementError.ConfigurationError, import("effect").Scope.Scope> = Effect.gen(
  function*() {
    const sandbox = yield* startSandbox()
    const attempts = { count: 0 }
    const client = (options: Partial<OrderManagementClient.Options> = {}) =>
      OrderManagementClient.make({
        environment: "US_QUA",
        apiKey: Redacted.make(sandbox.credentials.oms.testApiKey),
        testBaseUrl: sandbox.url,
        prodBaseUrl: sandbox.url,
        assetBaseUrl: "https://assets.example",
        retry: { maxAttempts: 3, baseDelay: "1 millis", maxDelay: "2 millis" },
        transformClient: HttpClient.tapRequest(() => Effect.sync(() => attempts.count++)),
        ...options
      }).pipe(Effect.provide(FetchHttpClient.layer))
    const { us } = sandbox.credentials.customers
    const service = yield* client()
    return { sandbox, attempts, client, us: service.forCustomer(Customer.make(us.accountNo, us.apiToken)) }
  }
)

const daysAgo = (days: number) => DateTime.unsafeMake(Date.now() - days * 86_400_000)

const tagOf = <A>(self: Effect.Effect<A, OrderManagementError.OrderManagementError>) =>
  Effect.map(Effect.flip(self), (error) => error._tag)

describe("every operation against the sandbox", () => {
  it.scopedLive("account, prices, orders, invoices, products and assets", () =>
    Effect.gen(function*() {
      const { client, sandbox, us } = yield* setup
      const { oilFilter } = sandbox.fixtures.products
      const oilFilterRef = { productID: oilFilter.productID, brandCode: oilFilter.brandID }

      const account = yield* us.accountDetails({ submitDate: new Date() })
      expect(account.customerAccountNo).toBe("100200")
      expect(account.accountName).not.toBe("")

      const prices = yield* us.priceAndAvailability({ items: [{ ...oilFilterRef, quantity: 2 }] })
      expect(prices.items[0]?.productID).toBe(oilFilter.productID)
      expect(prices.items[0]?.warehouses.length).toBeGreaterThan(1)
      const corrected = (yield* client({ priceAndAvailabilityPath: "/priceAndAvailability_v2" })).forCustomer(
        Customer.make("100200", sandbox.credentials.customers.us.apiToken)
      )
      expect((yield* corrected.priceAndAvailability({ items: [{ ...oilFilterRef, quantity: 1 }] })).items).toHaveLength(
        1
      )

      const created = yield* us.createOrder({ customerPO: "PO-1", orderLines: [{ ...oilFilterRef, quantity: 1 }] })
      const orderNo = created.orderHeader.orderNo
      expect(orderNo).toBeDefined()
      const details = yield* us.orderDetails({ orderNo: orderNo ?? "" })
      expect(details.orderHeader.orderNo).toBe(orderNo)
      expect(details.orderLines[0]?.productID).toBe(oilFilter.productID)

      const range = yield* us.invoiceDetails({ fromDate: daysAgo(30), toDate: daysAgo(0) })
      expect(range.invoices.length).toBeGreaterThan(0)
      const first = range.invoices[0]!
      const one = yield* us.invoiceDetails({ invoiceNo: first.invoiceNo })
      expect(one.invoices.map((i) => i.invoiceNo)).toEqual([first.invoiceNo])

      const product = yield* us.productDetails(oilFilterRef)
      expect(product.details.length).toBeGreaterThan(0)
      const vehicle = sandbox.fixtures.vehicles[0]!
      for (
        const search of [
          { searchText: "filter" },
          { vin: vehicle.vin },
          { licensePlate: { licensePlate: vehicle.licensePlate, licensePlateState: vehicle.licensePlateState } },
          { vehicleGroupId: vehicle.vehicleGroupId },
          { categoryCode: "FLT" }
        ]
      ) {
        const found = yield* us.searchProducts(search)
        expect(found.status.message.ID).toBe("API0200")
      }

      const assets = yield* us.productDigitalAsset(oilFilterRef)
      expect(assets.assets.length).toBeGreaterThan(0)
      const urls = Option.getOrThrow((yield* client()).assets)
      const pdf = assets.assets.find((a) => a.assetName.endsWith(".pdf"))
      expect(pdf && urls.forAsset(pdf)).toBe(`https://assets.example/wam?type=doc&asset=${pdf?.assetName}`)
      const logo = prices.items[0]?.brand
      expect(logo && urls.brandLogo(logo)).toMatch(/^https:\/\/assets\.example\/brands\/.+\.gif$/)
    }))
})

describe("message IDs the sandbox produces", () => {
  it.scopedLive("order, product, search and invoice errors arrive as their own classes", () =>
    Effect.gen(function*() {
      const { client, sandbox, us } = yield* setup
      const { lowStock, notStocked, oilFilter, unpriced } = sandbox.fixtures.products
      const ref = (p: { productID: string; brandID: string }) => ({ productID: p.productID, brandCode: p.brandID })
      const service = yield* client()
      const stranger = service.forCustomer(Customer.make("999999", sandbox.credentials.customers.us.apiToken))

      expect(yield* tagOf(stranger.orderDetails({ orderNo: "1" }))).toBe("CustomerAccountNotFound")
      expect(yield* tagOf(us.priceAndAvailability({ items: [{ ...ref(notStocked), quantity: 1 }] }))).toBe(
        "ProductNotStocked"
      )
      expect(yield* tagOf(us.priceAndAvailability({ items: [{ ...ref(unpriced), quantity: 1 }] }))).toBe(
        "PriceNotDetermined"
      )
      expect(yield* tagOf(us.priceAndAvailability({ items: [{ ...ref(oilFilter), quantity: 1000 }] }))).toBe(
        "ExcessiveOrderQuantity"
      )
      expect(yield* tagOf(us.createOrder({ orderLines: [{ ...ref(lowStock), quantity: 3 }] }))).toBe(
        "QuantityNotAvailable"
      )
      expect(
        yield* tagOf(
          us.createOrder({ orderLines: [{ ...ref(oilFilter), quantity: 1 }, { ...ref(oilFilter), quantity: 1 }] })
        )
      ).toBe("DuplicateOrderLine")
      expect(yield* tagOf(us.orderDetails({ orderNo: "99999999" }))).toBe("OrderNotFound")
      expect(yield* tagOf(us.orderDetails({ orderNo: "ABC" }))).toBe("OrderNumberInvalid")
      expect(yield* tagOf(us.invoiceDetails({ invoiceNo: "1" }))).toBe("InvoiceNotFound")
      expect(yield* tagOf(us.accountDetails({ submitDate: new Date("2099-01-01") }))).toBe("InvalidSubmitDate")
      expect(yield* tagOf(us.searchProducts({ vin: "1M8GDM9AXKP042788" }))).toBe("VinNotDecoded")
      expect(yield* tagOf(us.searchProducts({ licensePlate: { licensePlate: "NOPE1", licensePlateState: "TX" } })))
        .toBe(
          "LicensePlateNotFound"
        )
      expect(yield* tagOf(us.searchProducts({ vehicleGroupId: "no-such-group" }))).toBe("InvalidVehicleGroupId")
      expect(yield* tagOf(us.searchProducts({ categoryCode: "ZZZ" }))).toBe("InvalidCategoryCode")

      const po = service.forCustomer(
        Customer.make(SANDBOX_PO_REQUIRED_CUSTOMER.accountNo, SANDBOX_PO_REQUIRED_CUSTOMER.apiToken)
      )
      expect(yield* tagOf(po.createOrder({ orderLines: [{ ...ref(oilFilter), quantity: 1 }] }))).toBe(
        "CustomerPoRequired"
      )

      const ca = sandbox.credentials.customers.ca
      const caService = yield* client({ environment: "CA_QUA" })
      const caOrder = yield* caService.forCustomer(Customer.make(ca.accountNo, ca.apiToken)).createOrder({
        customerPO: "PO-CA",
        orderLines: [{ ...ref(oilFilter), quantity: 1 }]
      })
      expect(yield* tagOf(us.orderDetails({ orderNo: caOrder.orderHeader.orderNo ?? "" }))).toBe(
        "CustomerOrderMismatch"
      )
    }))

  it.scopedLive("injected busy messages are retried; API0500 on createOrder is reported once with its support report", () =>
    Effect.gen(function*() {
      const { attempts, sandbox, us } = yield* setup
      const { oilFilter } = sandbox.fixtures.products
      const created = yield* us.createOrder({
        customerPO: "PO-2",
        orderLines: [{ productID: oilFilter.productID, brandCode: oilFilter.brandID, quantity: 1 }]
      })
      const orderNo = created.orderHeader.orderNo ?? ""

      yield* sandbox.admin.injectFault({ kind: "message", endpoint: "orderDetails", id: "API0258", times: 2 })
      attempts.count = 0
      expect((yield* us.orderDetails({ orderNo })).orderHeader.orderNo).toBe(orderNo)
      expect(attempts.count).toBe(3)

      yield* sandbox.admin.injectFault({ kind: "message", endpoint: "orderDetails", id: "API0273", times: 5 })
      attempts.count = 0
      expect(yield* tagOf(us.orderDetails({ orderNo }))).toBe("OrderInUse")
      expect(attempts.count).toBe(3)
      yield* sandbox.admin.clearFaults

      yield* sandbox.admin.injectFault({ kind: "message", endpoint: "createOrder", id: "API0500" })
      attempts.count = 0
      const error = yield* Effect.flip(
        us.createOrder({ orderLines: [{ productID: oilFilter.productID, brandCode: oilFilter.brandID, quantity: 1 }] })
      )
      expect(attempts.count).toBe(1)
      expect(error._tag).toBe("SomethingWentWrong")
      expect(error._tag === "SomethingWentWrong" && "support" in error && error.support.path).toBe(
        "/web/services/US_QUA/createOrder"
      )

      yield* sandbox.admin.injectFault({ kind: "httpStatus", endpoint: "createOrder", status: 503 })
      attempts.count = 0
      expect(
        yield* tagOf(
          us.createOrder({
            orderLines: [{ productID: oilFilter.productID, brandCode: oilFilter.brandID, quantity: 1 }]
          })
        )
      ).toBe(
        "UnexpectedResponse"
      )
      expect(attempts.count).toBe(1)

      yield* sandbox.admin.injectFault({ kind: "connectionReset", endpoint: "createOrder" })
      attempts.count = 0
      const reset = yield* Effect.flip(
        us.createOrder({ orderLines: [{ productID: oilFilter.productID, brandCode: oilFilter.brandID, quantity: 1 }] })
      )
      expect(reset._tag === "RequestFailed" && reset.reason).toBe("Transport")
      expect(attempts.count).toBe(1)

      yield* sandbox.admin.injectFault({ kind: "httpStatus", endpoint: "priceAndAvailablity_v2", status: 503 })
      attempts.count = 0
      yield* us.priceAndAvailability({
        items: [{ productID: oilFilter.productID, brandCode: oilFilter.brandID, quantity: 1 }]
      })
      expect(attempts.count).toBe(2)
    }))
})

describe("auth failures", () => {
  it.scopedLive("unknown, expired and other-tier keys; revoked and foreign tokens; the monthly allowance", () =>
    Effect.gen(function*() {
      const { client, sandbox, us } = yield* setup
      const usToken = sandbox.credentials.customers.us.apiToken
      const forUs = (service: OrderManagementClient.OrderManagementClient.Service) =>
        service.forCustomer(Customer.make("100200", usToken))
      const account = (customer: OrderManagementClient.CustomerClient) =>
        customer.accountDetails({ submitDate: new Date() })

      expect(yield* tagOf(account(forUs(yield* client({ apiKey: Redacted.make("a1b2c3d4") }))))).toBe("InvalidApiKey")
      // The message says which credential was refused and what to check, masked.
      const wrongKey = yield* Effect.flip(
        account(forUs(yield* client({ apiKey: Redacted.make("wrong-oms-key-9f8e") })))
      )
      expect(wrongKey.message).toBe(
        "API0206: Invalid API key (HTTP 401) — the distributor refused the Order Management API key <redacted>…9f8e (APIKey header) " +
          "for US_QUA: check it is this environment's key (test and production keys differ) and not expired"
      )
      const stranger = yield* Effect.flip(
        (yield* client()).forCustomer(Customer.make("999999", usToken)).accountDetails({ submitDate: new Date() })
      )
      expect(stranger.message).toContain(
        `the distributor does not know customer account 999999 with API token <redacted>…${
          usToken.slice(-4)
        } (APIToken)`
      )
      expect(stranger.message).not.toContain(usToken)

      yield* sandbox.admin.addOmsKey("partner-key-5e6f", "production")
      const otherTier = forUs(yield* client({ apiKey: Redacted.make("partner-key-5e6f") }))
      const refused = yield* Effect.flip(account(otherTier))
      expect(refused._tag).toBe("NotAuthorizedToService")
      expect(refused.retryClass).toBe("auth")

      const ca = forUs(yield* client({ environment: "CA_QUA" }))
      expect(yield* tagOf(account(ca))).toBe("NotAuthorizedToService")

      yield* sandbox.admin.setMonthlyAllowance(sandbox.credentials.oms.testApiKey, 1)
      yield* account(us).pipe(Effect.ignore)
      const quota = yield* Effect.flip(account(us))
      expect(quota._tag).toBe("MonthlyLimitExceeded")
      expect(quota.retryClass).toBe("quota")

      yield* sandbox.admin.expireKey(sandbox.credentials.oms.testApiKey)
      expect(yield* tagOf(account(us))).toBe("ApiKeyExpired")

      const prod = forUs(
        yield* client({ environment: "US_PRD", apiKey: Redacted.make(sandbox.credentials.oms.prodApiKey) })
      )
      yield* sandbox.admin.revokeToken(usToken)
      expect(yield* tagOf(account(prod))).toBe("NotAuthorizedToService")
    }))
})

describe("environment selection", () => {
  it.scopedLive("test and production environments with their keys; a mismatched key never reaches the sandbox", () =>
    Effect.gen(function*() {
      const { attempts, client, sandbox } = yield* setup
      const { ca, us } = sandbox.credentials.customers
      const caQua = (yield* client({ environment: "CA_QUA" })).forCustomer(Customer.make(ca.accountNo, ca.apiToken))
      expect((yield* caQua.accountDetails({ submitDate: new Date() })).customerAccountNo).toBe(ca.accountNo)
      const prod = yield* client({ environment: "US_PRD", apiKey: Redacted.make(sandbox.credentials.oms.prodApiKey) })
      expect(prod.baseUrl).toBe(sandbox.omsBaseUrl("US_PRD"))
      const usPrd = prod.forCustomer(Customer.make(us.accountNo, us.apiToken))
      expect((yield* usPrd.accountDetails({ submitDate: new Date() })).customerAccountNo).toBe(us.accountNo)
      attempts.count = 0
      const mismatch = yield* Effect.flip(client({ environment: "US_PRD" }))
      expect(mismatch._tag).toBe("ConfigurationError")
      expect(attempts.count).toBe(0)
    }))
})

describe("drop-ship address recommendation round trip", () => {
  it.scopedLive("API0327 with a recommendation, resubmitted with it; without one, nothing to resubmit", () =>
    Effect.gen(function*() {
      const { sandbox, us } = yield* setup
      const { oilFilter } = sandbox.fixtures.products
      const orderLines = [{ productID: oilFilter.productID, brandCode: oilFilter.brandID, quantity: 1 }]
      const contact = {
        name: "Jane Doe",
        addressLine2: "",
        phoneNumber: "5125550100",
        emailAddress: "jane@example.com"
      }
      const address = { ...contact, ...sandbox.fixtures.dropShip.recommendable }

      const rejected = yield* Effect.flip(us.createOrder({ customerPO: "PO-3", orderLines, shippingAddress: address }))
      if (rejected._tag !== "DropShipAddressRejected") {
        return expect.fail(`expected DropShipAddressRejected, got ${rejected._tag}`)
      }
      expect(rejected.inputAddress?.addressLine1).toBe(address.addressLine1)
      expect(rejected.recommendationText).not.toBe("")
      expect(rejected.recommendedAddress?.zipCode).toMatch(/^\d{5}-\d{4}$/)
      const created = yield* us.resubmitWithRecommendation(rejected)
      expect(created.orderHeader.shippingAddress).toEqual(rejected.recommendedAddress)

      const valid = yield* us.createOrder({
        customerPO: "PO-4",
        orderLines,
        shippingAddress: { ...contact, ...sandbox.fixtures.dropShip.valid }
      })
      expect(valid.orderHeader.shippingAddress?.zipCode).toBe(sandbox.fixtures.dropShip.valid.zipCode)

      const invalid = yield* Effect.flip(
        us.createOrder({ orderLines, shippingAddress: { ...contact, ...sandbox.fixtures.dropShip.invalid } })
      )
      if (invalid._tag !== "DropShipAddressRejected") {
        return expect.fail(`expected DropShipAddressRejected, got ${invalid._tag}`)
      }
      expect(invalid.recommendedAddress).toBeUndefined()
      expect(yield* Effect.flip(us.resubmitWithRecommendation(invalid))).toBe(invalid)
    }))
})
