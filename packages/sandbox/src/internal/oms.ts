// The Order Management API under /web/services/{US_QUA|CA_QUA|US_PRD|CA_PRD}/.
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { randomUUID } from "node:crypto"
import { OrderManagement, OrderManagementApi, OrderRules, type Values, Vin } from "@shoplink/protocol"
import { type Ctx, decodeWith, envelope, json, nonPositiveQuantity, readJsonObject } from "./context.js"
import { MessageFailure } from "./failure.js"
import type { Product } from "./catalog.js"
import { omsStatusId } from "./domain/orders.js"
import { reject, type Result } from "./domain/result.js"
import type { Address, Customer, StoredOrder } from "./state.js"
import {
  accountDetailsResponse,
  brandInformation,
  createOrderResponse,
  deleteOrderResponse,
  digitalAssetsResponse,
  invoiceDetailsResponse,
  omsOrderBody,
  priceAndAvailabilityResponse,
  productDetailsResponse
} from "./wire.js"

/**
 * Each endpoint's method, read from the definition (submitOrder, openOrder and deleteOrder are
 * sandbox assumptions).
 */
const METHOD_OF: ReadonlyMap<string, string> = new Map(OrderManagementApi.routes.map((r) => [r.name, r.method]))

type Answer = Result<HttpServerResponse.HttpServerResponse>

interface Caller {
  readonly customer: Customer
  readonly environment: OrderManagement.Environment
  readonly country: Values.CountryCode
}

/** APIKey header, APIToken query string, environment, allowance (API0206/0207/0204/0208). */
const authenticate = (
  ctx: Ctx,
  environment: OrderManagement.Environment,
  apiKey: string | undefined,
  apiToken: string | null,
  now: number
): Result<Caller> =>
  Either.gen(function*() {
    const info = OrderManagement.ENVIRONMENTS[environment]
    if (apiKey === undefined || apiKey.trim() === "") return yield* reject("API0206")
    const key = ctx.state.accounts.omsKeys.get(apiKey)
    if (key === undefined) return yield* reject("API0206")
    if (key.expired) return yield* reject("API0207")
    if (key.tier !== info.tier) {
      return yield* reject("API0204", "You are not authorized to this service: the key is for the other environment")
    }
    const customer = apiToken === null ? undefined : ctx.state.accounts.customerByToken(apiToken)
    if (customer === undefined || customer.revoked) {
      return yield* reject("API0204")
    }
    if (customer.country !== info.country) {
      return yield* reject(
        "API0204",
        "You are not authorized to this service: the account is not in this environment's country"
      )
    }
    if (!ctx.state.accounts.countCall(apiKey, now)) return yield* reject("API0208")
    return { customer, environment, country: info.country }
  })

/** `customerAccountNo` must name the token's own, active account. */
const checkAccount = (ctx: Ctx, caller: Caller, accountNo: string | undefined): Result<Customer> =>
  Either.gen(function*() {
    if (accountNo === undefined || accountNo.trim() === "") {
      return yield* reject("API0203", "Missing selection criteria: customerAccountNo")
    }
    const account = ctx.state.accounts.customers.get(accountNo.trim())
    if (account === undefined) return yield* reject("API0202")
    if (!account.active) return yield* reject("API0244")
    if (account.accountNo !== caller.customer.accountNo) {
      return yield* reject("API0204", "You are not authorized to this service: the token does not act for this account")
    }
    return account
  })

const accountDetails = (ctx: Ctx, caller: Caller, query: URLSearchParams, now: number): Answer =>
  Either.gen(function*() {
    const account = yield* checkAccount(ctx, caller, query.get("customerAccountNo") ?? undefined)
    const submitDate = query.get("submitDate")
    if (submitDate === null || submitDate === "") {
      return yield* reject("API0203", "Missing selection criteria: submitDate")
    }
    const date = OrderManagement.parseYyyymmdd(submitDate)
    // A submit date must be a real yyyymmdd date no later than tomorrow on the sandbox clock.
    if (date === undefined || date.epochMillis > now + 86_400_000) return yield* reject("API0269")
    return json(accountDetailsResponse(account))
  })

const itemsWithQuantities = (body: Record<string, unknown>, field: string): Result<void> =>
  Either.gen(function*() {
    const items = body[field]
    if (Array.isArray(items)) {
      for (const item of items) {
        if (
          typeof item === "object" && item !== null &&
          nonPositiveQuantity((item as Record<string, unknown>)["quantity"])
        ) return yield* reject("API0231")
      }
    }
  })

const createOrder = (ctx: Ctx, caller: Caller, body: Record<string, unknown>, now: number): Answer =>
  Either.gen(function*() {
    yield* itemsWithQuantities(body, "orderLines")
    const request = yield* decodeWith(OrderManagement.CreateOrderRequest, body)
    const account = yield* checkAccount(ctx, caller, request.customerAccountNo)
    if (account.poRequired && (request.customerPO === undefined || request.customerPO.trim() === "")) {
      return yield* reject("API0259")
    }
    const allocations = yield* ctx.state.inventory.allocate(
      request.orderLines.map((l) => ({
        productID: l.productID,
        brandID: l.brandCode,
        quantity: l.quantity,
        warehouseCode: l.warehouseCode
      })),
      caller.country
    )
    let shippingAddress: Address | undefined
    if (request.shippingAddress !== undefined) {
      const address: Address = { ...request.shippingAddress }
      const check = ctx.state.inventory.validateAddress(address)
      if (!check.ok) {
        return yield* reject("API0327", undefined, {
          clientTransactionID: randomUUID(),
          customerAccountNo: Number(account.accountNo),
          orderHeader: {},
          orderLines: [],
          ...(check.recommended === undefined ? {} : {
            recommendedDropShipAddress: {
              inputAddress: address,
              recommendationText: "The address could not be validated; use the standardized address",
              recommendedAddress: check.recommended
            }
          })
        })
      }
      shippingAddress = address
    }
    const order = ctx.state.orders.createOmsOrder(now, account.accountNo, allocations, {
      submit: request.submit ?? true,
      customerPO: request.customerPO ?? "",
      comment: request.comment ?? "",
      shippingAddress
    })
    return json(createOrderResponse(ctx.state, order, randomUUID()))
  })

const priceAndAvailability = (ctx: Ctx, caller: Caller, body: Record<string, unknown>, collapse: boolean): Answer =>
  Either.gen(function*() {
    yield* itemsWithQuantities(body, "items")
    const request = yield* decodeWith(OrderManagement.PriceAndAvailabilityRequest, body)
    yield* checkAccount(ctx, caller, request.customerAccountNo)
    if (OrderRules.exceedsMaxQuantity(request.items)) return yield* reject("API0235")
    const items: Array<OrderManagement.PricedItem> = []
    for (const item of request.items) {
      const product = ctx.state.inventory.findProduct(item.productID, item.brandCode)
      if (product === undefined || !product.stocked) return yield* reject("API0232")
      if (product.price === undefined) return yield* reject("API0243")
      const warehouses = ctx.state.inventory.warehousesOf(caller.country).map((w) => ({
        warehouseCode: w.code,
        warehouseName: w.name,
        quantityAvailable: ctx.state.inventory.stockAt(product, w.code),
        deliveryDays: w.deliveryDays
      }))
      const summary = [{
        warehouseCode: "ALL",
        warehouseName: "All warehouses",
        quantityAvailable: warehouses.reduce((n, w) => n + w.quantityAvailable, 0),
        deliveryDays: Math.min(...warehouses.filter((w) => w.quantityAvailable > 0).map((w) => w.deliveryDays), 99)
      }]
      items.push({
        productID: product.productID,
        brandCode: product.brandCode,
        productDesc: product.description,
        quantityRequested: item.quantity,
        price: product.price,
        listPrice: product.listPrice,
        corePrice: product.corePrice,
        brand: brandInformation(ctx.state, product),
        warehouses: collapse ? summary : warehouses
      })
    }
    return json(priceAndAvailabilityResponse(items))
  })

const orderNoOf = (query: URLSearchParams | Record<string, unknown>): Result<string> =>
  Either.gen(function*() {
    const raw = query instanceof URLSearchParams ? query.get("orderNo") : query["orderNo"]
    if (raw === null || raw === undefined || raw === "") {
      return yield* reject("API0203", "Missing selection criteria: orderNo")
    }
    const orderNo = String(raw).trim()
    if (!/^\d{1,10}$/.test(orderNo)) {
      return yield* reject("API0230")
    }
    return orderNo
  })

const findOrder = (ctx: Ctx, accountNo: string, orderNo: string): Result<StoredOrder> =>
  Either.gen(function*() {
    const order = ctx.state.orders.get(orderNo)
    if (order === undefined) return yield* reject("API0256")
    if (order.accountNo !== accountNo) return yield* reject("API0255")
    return order
  })

const orderDetails = (ctx: Ctx, caller: Caller, query: URLSearchParams): Answer =>
  Either.gen(function*() {
    const account = yield* checkAccount(ctx, caller, query.get("customerAccountNo") ?? undefined)
    const order = yield* findOrder(ctx, account.accountNo, yield* orderNoOf(query))
    return json(omsOrderBody(ctx.state, order, omsStatusId(order.state)))
  })

const changeOrder = (
  ctx: Ctx,
  caller: Caller,
  body: Record<string, unknown>,
  change: "submit" | "open" | "delete",
  now: number
): Answer =>
  Either.gen(function*() {
    const account = yield* checkAccount(
      ctx,
      caller,
      typeof body["customerAccountNo"] === "string"
        ? body["customerAccountNo"]
        : body["customerAccountNo"] === undefined
        ? undefined
        : String(body["customerAccountNo"])
    )
    const order = yield* findOrder(ctx, account.accountNo, yield* orderNoOf(body))
    // What the order's status forbids is the protocol's OrderRules, applied by the orders aggregate.
    if (change === "submit") {
      yield* ctx.state.orders.submitOrder(order.orderID, account.accountNo)
    } else if (change === "open") {
      yield* ctx.state.orders.openOrder(now, order.orderID, account.accountNo, caller.country)
    } else {
      yield* ctx.state.orders.deleteOrder(order.orderID, account.accountNo)
      return json(deleteOrderResponse(account.accountNo, order.orderID))
    }
    return json(omsOrderBody(ctx.state, order, omsStatusId(order.state)))
  })

const invoiceDetails = (ctx: Ctx, caller: Caller, query: URLSearchParams, now: number): Answer =>
  Either.gen(function*() {
    const account = yield* checkAccount(ctx, caller, query.get("customerAccountNo") ?? undefined)
    const mine = ctx.state.accounts.invoices.filter((i) => i.accountNo === account.accountNo)
    const invoiceNo = query.get("invoiceNo")
    if (invoiceNo !== null && invoiceNo.trim() !== "") {
      const invoice = mine.find((i) => i.invoiceNo === invoiceNo.trim())
      if (invoice === undefined) return yield* reject("API0289")
      return json(invoiceDetailsResponse(ctx.state, [invoice]))
    }
    const from = query.get("fromDate") ?? undefined
    const to = query.get("toDate") ?? undefined
    // The date rules are the protocol's (API0266, API0263, API0264, API0265, in that order).
    const problem = OrderManagement.invoiceDateProblem(
      { fromDate: from, toDate: to },
      OrderManagement.formatYyyymmdd(DateTime.unsafeMake(now))
    )
    if (problem !== undefined) return yield* reject(problem.id)
    // Both dates are present and valid here: the rules above checked them.
    const fromDate = OrderManagement.parseYyyymmdd(from!)!
    const toDate = OrderManagement.parseYyyymmdd(to!)!
    const inRange = mine.filter((i) => i.date >= fromDate.epochMillis && i.date < toDate.epochMillis + 86_400_000)
    return json(invoiceDetailsResponse(ctx.state, inRange))
  })

const productDetails = (ctx: Ctx, query: URLSearchParams): Answer =>
  Either.gen(function*() {
    const get = (name: string) => {
      const value = query.get(name)
      return value === null || value.trim() === "" ? undefined : value.trim()
    }
    const productID = get("productID")
    const brandCode = get("brandCode")
    const detailsOf = (product: Product) => {
      const brand = ctx.state.inventory.brandOf(product)
      const category = ctx.state.inventory.catalog.categories.find((c) => c.code === product.categoryID)
      return [
        { productID: product.productID, detail: { brand: brand.code, category: "", description: brand.warrantyHtml } },
        {
          productID: product.productID,
          detail: {
            brand: brand.code,
            category: category?.name ?? product.categoryID,
            description: product.featuresHtml
          }
        }
      ]
    }
    if (productID !== undefined) {
      if (brandCode === undefined) return yield* reject("API0203", "Missing selection criteria: brandCode")
      if (!/^[A-Za-z0-9]{2,3}$/.test(brandCode)) {
        return yield* reject("API0288", "Invalid API parameters: brandCode must be 2 to 3 characters")
      }
      const product = ctx.state.inventory.findProduct(productID, brandCode)
      if (product === undefined) {
        return yield* reject("API0232")
      }
      return json(productDetailsResponse(detailsOf(product)))
    }
    const searchText = get("searchText")
    const categoryCode = get("categoryCode")
    const vehicleGroupId = get("vehicleGroupId")
    const vin = get("vin")
    const plate = get("licensePlate")
    const plateState = get("licensePlateState")
    if ([searchText, categoryCode, vehicleGroupId, vin, plate].every((v) => v === undefined)) {
      return yield* reject("API0203")
    }
    if (searchText !== undefined && searchText.length < 3) return yield* reject("API0304")
    if (
      categoryCode !== undefined &&
      !ctx.state.inventory.catalog.categories.some((c) => c.code === categoryCode.toUpperCase())
    ) return yield* reject("API0303")
    let vehicle
    if (vehicleGroupId !== undefined) {
      vehicle = ctx.state.inventory.vehicleByGroupId(vehicleGroupId)
      if (vehicle === undefined) return yield* reject("API0226")
    }
    if (vin !== undefined) {
      const problem = Vin.shapeProblem(vin.toUpperCase())
      if (problem?.reason === "character") {
        return yield* reject("API0267", `Invalid character for VIN at position ${problem.position}`)
      }
      vehicle = problem === undefined ? ctx.state.inventory.vehicleByVin(vin) : undefined
      if (vehicle === undefined) return yield* reject("API0261")
    }
    if (plate !== undefined) {
      if (plateState === undefined) return yield* reject("API0203", "Missing selection criteria: licensePlateState")
      vehicle = ctx.state.inventory.vehicleByPlate(plate, plateState)
      if (vehicle === undefined) return yield* reject("API0262")
    }
    const products = ctx.state.inventory.search(searchText, vehicle, 500)
      .filter((p) => categoryCode === undefined || p.categoryID === categoryCode.toUpperCase())
      .slice(0, 25)
    return json(productDetailsResponse(products.flatMap(detailsOf)))
  })

const digitalAssets = (ctx: Ctx, query: URLSearchParams): Answer =>
  Either.gen(function*() {
    const productID = query.get("productID")
    const brandCode = query.get("brandCode")
    if (productID === null || productID === "" || brandCode === null || brandCode === "") {
      return yield* reject("API0203")
    }
    const product = ctx.state.inventory.findProduct(productID, brandCode)
    if (product === undefined) return yield* reject("API0232")
    const stem = `${product.brandCode.toLowerCase()}_${product.productID.toLowerCase()}`
    return json(digitalAssetsResponse([
      { assetName: `${stem}.jpg`, assetType: "P04", language: "EN" },
      { assetName: `${stem}_install.pdf`, assetType: "INS", language: "EN" }
    ]))
  })

/** Handles `/web/services/{environment}/{endpoint}`. */
export const handleOms = (
  ctx: Ctx,
  environment: string,
  endpoint: string,
  url: URL
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const now = yield* ctx.now
    if (!Schema.is(OrderManagement.Environment)(environment)) {
      return yield* Effect.fail(
        new MessageFailure("API0288", `Invalid API parameters: unknown environment ${environment}`)
      )
    }
    const method = METHOD_OF.get(endpoint)
    if (method === undefined) {
      return yield* Effect.fail(new MessageFailure("API0288", `Invalid API parameters: unknown endpoint /${endpoint}`))
    }
    const caller = yield* authenticate(
      ctx,
      environment,
      request.headers["apikey"],
      url.searchParams.get("APIToken"),
      now
    )
    if (request.method !== method) {
      return yield* Effect.fail(new MessageFailure("API0288", `Invalid API parameters: /${endpoint} takes ${method}`))
    }
    const body = method === "POST" ? yield* readJsonObject : {}
    const query = url.searchParams
    const answer: Answer = (() => {
      switch (endpoint) {
        case "accountDetails":
          return accountDetails(ctx, caller, query, now)
        case "createOrder":
          return createOrder(ctx, caller, body, now)
        case "priceAndAvailablity_v2":
        case "priceAndAvailability_v2":
          return priceAndAvailability(ctx, caller, body, false)
        case "priceAndAvailability":
          return priceAndAvailability(ctx, caller, body, true)
        case "orderDetails":
          return orderDetails(ctx, caller, query)
        case "invoiceDetails":
          return invoiceDetails(ctx, caller, query, now)
        case "productDetails":
          return productDetails(ctx, query)
        case "productDigitalAsset":
          return digitalAssets(ctx, query)
        case "submitOrder":
          return changeOrder(ctx, caller, body, "submit", now)
        case "openOrder":
          return changeOrder(ctx, caller, body, "open", now)
        default:
          return changeOrder(ctx, caller, body, "delete", now)
      }
    })()
    return yield* answer
  }).pipe(
    Effect.catchAll((failure) => Effect.succeed(envelope(failure)))
  )
