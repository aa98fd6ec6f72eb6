// The Order Management API under /web/services/{US_QUA|CA_QUA|US_PRD|CA_PRD}/.
import { HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { OrderManagement, Vin } from "@shoplink/protocol"
import { attempt, type Ctx, decodeWith, envelope, json, nonPositiveQuantity, readJsonObject } from "./context.js"
import { fail, MessageFailure } from "./failure.js"
import type { Product } from "./catalog.js"
import type { Address, Customer } from "./state.js"
import { brandInformation, encodeInvoice, omsOrderBody, omsStatusId, SERVER_VERSION, successfulStatus } from "./wire.js"

type Method = "GET" | "POST"

/** Endpoints and their methods; `submitOrder`, `openOrder` and `deleteOrder` are sandbox assumptions. */
export const OMS_ENDPOINTS: Record<string, Method> = {
  accountDetails: "GET",
  createOrder: "POST",
  priceAndAvailablity_v2: "POST",
  priceAndAvailability_v2: "POST",
  priceAndAvailability: "POST",
  orderDetails: "GET",
  invoiceDetails: "GET",
  productDetails: "GET",
  productDigitalAsset: "GET",
  submitOrder: "POST",
  openOrder: "POST",
  deleteOrder: "POST"
}

const ok = (fields: Record<string, unknown>) => json({ serverVersion: SERVER_VERSION, status: successfulStatus, ...fields })

interface Caller {
  readonly customer: Customer
  readonly environment: OrderManagement.Environment
  readonly country: "US" | "CA"
}

/** APIKey header, APIToken query string, environment, allowance (API0206/0207/0204/0208). */
const authenticate = (ctx: Ctx, environment: OrderManagement.Environment, apiKey: string | undefined, apiToken: string | null, now: number): Caller => {
  const info = OrderManagement.ENVIRONMENTS[environment]
  if (apiKey === undefined || apiKey.trim() === "") return fail("API0206")
  const key = ctx.state.omsKeys.get(apiKey)
  if (key === undefined) return fail("API0206")
  if (key.expired) return fail("API0207")
  if (key.tier !== info.tier) return fail("API0204", "You are not authorized to this service: the key is for the other environment")
  const customer = apiToken === null ? undefined : ctx.state.customerByToken(apiToken)
  if (customer === undefined || customer.revoked) return fail("API0204")
  if (customer.country !== info.country) return fail("API0204", "You are not authorized to this service: the account is not in this environment's country")
  if (!ctx.state.countCall(apiKey, now)) return fail("API0208")
  return { customer, environment, country: info.country }
}

/** `customerAccountNo` must name the token's own, active account. */
const checkAccount = (ctx: Ctx, caller: Caller, accountNo: string | undefined) => {
  if (accountNo === undefined || accountNo.trim() === "") return fail("API0203", "Missing selection criteria: customerAccountNo")
  const account = ctx.state.customers.get(accountNo.trim())
  if (account === undefined) return fail("API0202")
  if (!account.active) return fail("API0244")
  if (account.accountNo !== caller.customer.accountNo) return fail("API0204", "You are not authorized to this service: the token does not act for this account")
  return account
}

const accountDetails = (ctx: Ctx, caller: Caller, query: URLSearchParams, now: number) => {
  const account = checkAccount(ctx, caller, query.get("customerAccountNo") ?? undefined)
  const submitDate = query.get("submitDate")
  if (submitDate === null || submitDate === "") return fail("API0203", "Missing selection criteria: submitDate")
  const date = OrderManagement.parseYyyymmdd(submitDate)
  // A submit date must be a real yyyymmdd date no later than tomorrow on the sandbox clock.
  if (date === undefined || date.epochMillis > now + 86_400_000) return fail("API0269")
  return ok({
    customerAccountNo: account.accountNo,
    accountName: account.name,
    country: account.country,
    active: account.active,
    poRequired: account.poRequired,
    defaultShippingAddress: account.defaultShippingAddress
  })
}

const itemsWithQuantities = (body: Record<string, unknown>, field: string) => {
  const items = body[field]
  if (Array.isArray(items)) {
    for (const item of items) {
      if (typeof item === "object" && item !== null && nonPositiveQuantity((item as Record<string, unknown>)["quantity"])) fail("API0231")
    }
  }
}

const createOrder = (ctx: Ctx, caller: Caller, body: Record<string, unknown>, now: number) => {
  itemsWithQuantities(body, "orderLines")
  const request = decodeWith(OrderManagement.CreateOrderRequest, body)
  const account = checkAccount(ctx, caller, request.customerAccountNo)
  if (account.poRequired && (request.customerPO === undefined || request.customerPO.trim() === "")) fail("API0259")
  const allocations = ctx.state.allocate(
    request.orderLines.map((l) => ({ productID: l.productID, brandID: l.brandCode, quantity: l.quantity, warehouseCode: l.warehouseCode })),
    caller.country
  )
  let shippingAddress: Address | undefined
  if (request.shippingAddress !== undefined) {
    const address: Address = { ...request.shippingAddress }
    const check = ctx.state.validateAddress(address)
    if (!check.ok) {
      return fail("API0327", undefined, {
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
  const order = ctx.state.createOmsOrder(now, account.accountNo, allocations, {
    submit: request.submit ?? true,
    customerPO: request.customerPO ?? "",
    comment: request.comment ?? "",
    shippingAddress
  })
  return json({ ...omsOrderBody(ctx.state, order, "API0200"), clientTransactionID: randomUUID() })
}

const priceAndAvailability = (ctx: Ctx, caller: Caller, body: Record<string, unknown>, collapse: boolean) => {
  itemsWithQuantities(body, "items")
  const request = decodeWith(OrderManagement.PriceAndAvailabilityRequest, body)
  checkAccount(ctx, caller, request.customerAccountNo)
  const total = request.items.reduce((n, i) => n + i.quantity, 0)
  if (total > 999) fail("API0235")
  const items = request.items.map((item) => {
    const product = ctx.state.findProduct(item.productID, item.brandCode)
    if (product === undefined || !product.stocked) return fail("API0232")
    if (product.price === undefined) return fail("API0243")
    const warehouses = ctx.state.warehousesOf(caller.country).map((w) => ({
      warehouseCode: w.code,
      warehouseName: w.name,
      quantityAvailable: ctx.state.stockAt(product, w.code),
      deliveryDays: w.deliveryDays
    }))
    const summary = [{
      warehouseCode: "ALL",
      warehouseName: "All warehouses",
      quantityAvailable: warehouses.reduce((n, w) => n + w.quantityAvailable, 0),
      deliveryDays: Math.min(...warehouses.filter((w) => w.quantityAvailable > 0).map((w) => w.deliveryDays), 99)
    }]
    return {
      productID: product.productID,
      brandCode: product.brandCode,
      productDesc: product.description,
      quantityRequested: item.quantity,
      price: product.price,
      listPrice: product.listPrice,
      corePrice: product.corePrice,
      brand: Schema.encodeSync(OrderManagement.BrandInformation)(brandInformation(ctx.state, product)),
      warehouses: collapse ? summary : warehouses
    }
  })
  return ok({ items })
}

const orderNoOf = (query: URLSearchParams | Record<string, unknown>) => {
  const raw = query instanceof URLSearchParams ? query.get("orderNo") : query["orderNo"]
  if (raw === null || raw === undefined || raw === "") return fail("API0203", "Missing selection criteria: orderNo")
  const orderNo = String(raw).trim()
  if (!/^\d{1,10}$/.test(orderNo)) return fail("API0230")
  return orderNo
}

const findOrder = (ctx: Ctx, accountNo: string, orderNo: string) => {
  const order = ctx.state.orders.get(orderNo)
  if (order === undefined) return fail("API0256")
  if (order.accountNo !== accountNo) return fail("API0255")
  return order
}

const orderDetails = (ctx: Ctx, caller: Caller, query: URLSearchParams) => {
  const account = checkAccount(ctx, caller, query.get("customerAccountNo") ?? undefined)
  const order = findOrder(ctx, account.accountNo, orderNoOf(query))
  return json(omsOrderBody(ctx.state, order, omsStatusId(order.state)))
}

const changeOrder = (ctx: Ctx, caller: Caller, body: Record<string, unknown>, change: "submit" | "open" | "delete", now: number) => {
  const account = checkAccount(ctx, caller, typeof body["customerAccountNo"] === "string" ? body["customerAccountNo"] : body["customerAccountNo"] === undefined ? undefined : String(body["customerAccountNo"]))
  const order = findOrder(ctx, account.accountNo, orderNoOf(body))
  if (change === "submit") {
    if (order.state === "saved") fail("API0272")
    ctx.state.submitOrder(order.orderID, account.accountNo)
  } else if (change === "open") {
    ctx.state.checkOrderFaults(order.orderID)
    if (order.state === "submitted") fail("API0247")
    if (order.state === "processing" || order.state === "shippedPartial" || order.state === "shippedComplete") fail("API0268")
    if (order.state === "saved") ctx.state.reserveOrder(now, order.orderID, account.accountNo, undefined, caller.country)
  } else {
    ctx.state.checkOrderFaults(order.orderID)
    if (order.state !== "cart" && order.state !== "saved" && order.state !== "expired") fail("API0257")
    ctx.state.deleteOrder(order.orderID)
    return ok({ customerAccountNo: Number(account.accountNo), orderHeader: { orderNo: order.orderID } })
  }
  return json(omsOrderBody(ctx.state, order, omsStatusId(order.state)))
}

const invoiceDetails = (ctx: Ctx, caller: Caller, query: URLSearchParams, now: number) => {
  const account = checkAccount(ctx, caller, query.get("customerAccountNo") ?? undefined)
  const mine = ctx.state.invoices.filter((i) => i.accountNo === account.accountNo)
  const invoiceNo = query.get("invoiceNo")
  if (invoiceNo !== null && invoiceNo.trim() !== "") {
    const invoice = mine.find((i) => i.invoiceNo === invoiceNo.trim())
    if (invoice === undefined) return fail("API0289")
    return ok({ invoices: [encodeInvoice(ctx.state, invoice)] })
  }
  const from = query.get("fromDate")
  const to = query.get("toDate")
  if (from === null || from === "" || to === null || to === "") return fail("API0266")
  const fromDate = OrderManagement.parseYyyymmdd(from)
  if (fromDate === undefined || fromDate.epochMillis > now) return fail("API0263")
  const toDate = OrderManagement.parseYyyymmdd(to)
  if (toDate === undefined || toDate.epochMillis > now) return fail("API0264")
  if (fromDate.epochMillis > toDate.epochMillis) return fail("API0265")
  const inRange = mine.filter((i) => i.date >= fromDate.epochMillis && i.date < toDate.epochMillis + 86_400_000)
  return ok({ invoices: inRange.map((i) => encodeInvoice(ctx.state, i)) })
}

const productDetails = (ctx: Ctx, query: URLSearchParams) => {
  const get = (name: string) => {
    const value = query.get(name)
    return value === null || value.trim() === "" ? undefined : value.trim()
  }
  const productID = get("productID")
  const brandCode = get("brandCode")
  const detailsOf = (product: Product) => {
    const brand = ctx.state.brandOf(product)
    const category = ctx.state.catalog.categories.find((c) => c.code === product.categoryID)
    return [
      { productID: product.productID, brand: brand.code, category: "", description: brand.warrantyHtml },
      { productID: product.productID, brand: brand.code, category: category?.name ?? product.categoryID, description: product.featuresHtml }
    ]
  }
  if (productID !== undefined) {
    if (brandCode === undefined) return fail("API0203", "Missing selection criteria: brandCode")
    if (!/^[A-Za-z0-9]{2,3}$/.test(brandCode)) return fail("API0288", "Invalid API parameters: brandCode must be 2 to 3 characters")
    const product = ctx.state.findProduct(productID, brandCode)
    if (product === undefined) return fail("API0232")
    return ok({ details: detailsOf(product) })
  }
  const searchText = get("searchText")
  const categoryCode = get("categoryCode")
  const vehicleGroupId = get("vehicleGroupId")
  const vin = get("vin")
  const plate = get("licensePlate")
  const plateState = get("licensePlateState")
  if ([searchText, categoryCode, vehicleGroupId, vin, plate].every((v) => v === undefined)) return fail("API0203")
  if (searchText !== undefined && searchText.length < 3) return fail("API0304")
  if (categoryCode !== undefined && !ctx.state.catalog.categories.some((c) => c.code === categoryCode.toUpperCase())) return fail("API0303")
  let vehicle
  if (vehicleGroupId !== undefined) {
    vehicle = ctx.state.vehicleByGroupId(vehicleGroupId)
    if (vehicle === undefined) return fail("API0226")
  }
  if (vin !== undefined) {
    const problem = Vin.shapeProblem(vin.toUpperCase())
    if (problem?.reason === "character") return fail("API0267", `Invalid character for VIN at position ${problem.position}`)
    vehicle = problem === undefined ? ctx.state.vehicleByVin(vin) : undefined
    if (vehicle === undefined) return fail("API0261")
  }
  if (plate !== undefined) {
    if (plateState === undefined) return fail("API0203", "Missing selection criteria: licensePlateState")
    vehicle = ctx.state.vehicleByPlate(plate, plateState)
    if (vehicle === undefined) return fail("API0262")
  }
  const products = ctx.state.search(searchText, vehicle, 500)
    .filter((p) => categoryCode === undefined || p.categoryID === categoryCode.toUpperCase())
    .slice(0, 25)
  return ok({ details: products.flatMap(detailsOf) })
}

const digitalAssets = (ctx: Ctx, query: URLSearchParams) => {
  const productID = query.get("productID")
  const brandCode = query.get("brandCode")
  if (productID === null || productID === "" || brandCode === null || brandCode === "") return fail("API0203")
  const product = ctx.state.findProduct(productID, brandCode)
  if (product === undefined) return fail("API0232")
  const stem = `${product.brandCode.toLowerCase()}_${product.productID.toLowerCase()}`
  return ok({
    assets: [
      { assetName: `${stem}.jpg`, assetType: "P04", language: "EN" },
      { assetName: `${stem}_install.pdf`, assetType: "INS", language: "EN" }
    ]
  })
}

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
      return yield* Effect.fail(new MessageFailure("API0288", `Invalid API parameters: unknown environment ${environment}`))
    }
    const method = OMS_ENDPOINTS[endpoint]
    if (method === undefined) return yield* Effect.fail(new MessageFailure("API0288", `Invalid API parameters: unknown endpoint /${endpoint}`))
    const caller = yield* attempt(() => authenticate(ctx, environment, request.headers["apikey"], url.searchParams.get("APIToken"), now))
    if (request.method !== method) {
      return yield* Effect.fail(new MessageFailure("API0288", `Invalid API parameters: /${endpoint} takes ${method}`))
    }
    const body = method === "POST" ? yield* readJsonObject : {}
    const query = url.searchParams
    return yield* attempt(() => {
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
    })
  }).pipe(
    Effect.catchAll((failure) => Effect.succeed(envelope(failure)))
  )
