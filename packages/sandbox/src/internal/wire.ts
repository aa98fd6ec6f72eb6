// Turns stored state into wire bodies by encoding the @shoplink/protocol schemas, so the sandbox
// writes exactly the shapes (and epoch units, status types) the protocol defines.
import * as DateTime from "effect/DateTime"
import * as Schema from "effect/Schema"
import {
  Envelope,
  MessageCatalog,
  OrderManagement,
  OrderManagementApi,
  Punchout,
  type Values
} from "@shoplink/protocol"
import type { Product } from "./catalog.js"
import { type MessageFailure, textOf } from "./failure.js"
import { omsStatusId } from "./domain/orders.js"
import type { Customer, SandboxState, StoredInvoice, StoredLine, StoredOrder } from "./state.js"

export const SERVER_VERSION = "sandbox-1.0.0"

const dt = (millis: number) => DateTime.unsafeMake(millis)

// Compiled once: building a parser per call dominates a request's cost.
const decodeBrandInformation = Schema.decodeUnknownSync(OrderManagement.BrandInformation)
const encodeStatusEnvelope = Schema.encodeSync(Envelope.StatusEnvelope)
const encodeReserveEnvelope = Schema.encodeSync(Envelope.ReserveOrderEnvelope)
const encodeQuotesResponse = Schema.encodeSync(Punchout.GetProductQuotesResponse)
const encodeOrderResponse = Schema.encodeSync(Punchout.OrderResponse)
const encodeReserveOrderResponse = Schema.encodeSync(Punchout.ReserveOrderResponse)
const encodeExportAndSave = Schema.encodeSync(Punchout.ExportAndSaveResponse)
const encodeQuoteWebhook = Schema.encodeSync(Punchout.QuoteWebhook)
const encodeOrderWebhook = Schema.encodeSync(Punchout.OrderWebhook)

/** The Punchout API's success status (no message ID). */
export const successStatus: Envelope.Status = { code: 200, message: { text: "Success" } }
/** The Order Management API's success status (API0200), also ReserveOrder's. */
const successfulStatus: Envelope.Status = { code: 200, message: { ID: "API0200", text: "Successful" } }

const referenceField = (referenceID: string | undefined) => (referenceID === undefined ? {} : { referenceID })

/** The error envelope for a message (with `referenceId` spelling for ReserveOrder), plus the message's extra fields. */
export const errorEnvelope = (
  failure: MessageFailure,
  httpStatus: number,
  reference: { readonly referenceID?: string | undefined; readonly spelling?: "referenceID" | "referenceId" } = {}
): Record<string, unknown> => {
  const status = { code: httpStatus, message: { ID: failure.id, text: textOf(failure) } }
  const head = reference.spelling === "referenceId"
    ? encodeReserveEnvelope({ serverVersion: SERVER_VERSION, status, referenceId: reference.referenceID ?? null })
    : encodeStatusEnvelope({ serverVersion: SERVER_VERSION, status, ...referenceField(reference.referenceID) })
  return failure.extra === undefined ? head : { ...head, ...failure.extra }
}

/** An envelope for any message ID, known to the catalogue or not (fault injection). */
export const messageEnvelope = (id: string, text: string | undefined, httpStatus: number): Record<string, unknown> =>
  encodeStatusEnvelope({
    serverVersion: SERVER_VERSION,
    status: { code: httpStatus, message: { ID: id, text: text ?? "" } }
  })

const encodePriceAndAvailability = Schema.encodeSync(OrderManagement.PriceAndAvailabilityResponse)
const encodeDigitalAssets = Schema.encodeSync(OrderManagement.DigitalAssetsResponse)

/** priceAndAvailability(_v2)'s answer. */
export const priceAndAvailabilityResponse = (items: ReadonlyArray<OrderManagement.PricedItem>): unknown =>
  encodePriceAndAvailability({ serverVersion: SERVER_VERSION, status: successfulStatus, items })

/** productDigitalAsset's answer. */
export const digitalAssetsResponse = (assets: ReadonlyArray<OrderManagement.DigitalAsset>): unknown =>
  encodeDigitalAssets({ serverVersion: SERVER_VERSION, status: successfulStatus, assets })

const encodeProductDetails = Schema.encodeSync(OrderManagement.ProductDetailsResponse)

/**
 * productDetails' answer, encoded through the protocol's schema. Each row then gets the product it
 * is about as `productID`, which the spec's row does not show (docs/assumptions.md): a search
 * answers rows of up to 25 products.
 */
export const productDetailsResponse = (
  rows: ReadonlyArray<{ readonly productID: string; readonly detail: OrderManagement.ProductMarketingDetail }>
): unknown => {
  const encoded = encodeProductDetails({
    serverVersion: SERVER_VERSION,
    status: successfulStatus,
    details: rows.map((r) => r.detail)
  })
  return {
    ...encoded,
    details: (encoded.details ?? []).map((detail, i) => ({ productID: rows[i]!.productID, ...detail }))
  }
}

/** GetProductQuotes' answer. */
export const quotesResponse = (quotes: ReadonlyArray<Punchout.QuoteLine>, referenceID: string | undefined): unknown =>
  encodeQuotesResponse({ serverVersion: SERVER_VERSION, status: successStatus, ...referenceField(referenceID), quotes })

/** CreateOrder's and SubmitOrder's answer. */
export const orderResponse = (order: StoredOrder, referenceID: string | undefined): unknown =>
  encodeOrderResponse({
    serverVersion: SERVER_VERSION,
    status: successStatus,
    ...referenceField(referenceID),
    order: orderType(order)
  })

/** ReserveOrder's answer (`referenceId`, API0200). */
export const reserveOrderResponse = (order: StoredOrder, referenceId: string | null): unknown =>
  encodeReserveOrderResponse({
    serverVersion: SERVER_VERSION,
    status: successfulStatus,
    referenceId,
    order: orderType(order)
  })

/** The Export and Save button's answer. */
export const exportAndSaveResponse = (orderID: string, referenceID: string | undefined): unknown =>
  encodeExportAndSave({ serverVersion: SERVER_VERSION, status: successStatus, ...referenceField(referenceID), orderID })

/** The quote webhook's body. */
export const quoteWebhook = (referenceID: string, quotes: ReadonlyArray<Punchout.QuoteLine>): unknown =>
  encodeQuoteWebhook({ referenceID, quotes })

/** The order webhook's body (status a number, per the webhook model). */
export const orderWebhook = (referenceID: string, order: StoredOrder): unknown =>
  encodeOrderWebhook({ referenceID, order: orderType(order) })

const PUNCHOUT_STATUS: Record<StoredOrder["state"], { readonly code: string; readonly description: string }> = {
  cart: Punchout.ORDER_STATUS.inCart,
  expired: { code: "9", description: "Expired" },
  saved: { code: "1", description: "Saved for later" },
  submitted: Punchout.ORDER_STATUS.submitted,
  processing: Punchout.ORDER_STATUS.submitted,
  shippedPartial: Punchout.ORDER_STATUS.submitted,
  shippedComplete: Punchout.ORDER_STATUS.submitted
}

const lineType = (order: StoredOrder, line: StoredLine): Punchout.OrderLine => {
  const status = PUNCHOUT_STATUS[order.state]
  return {
    acaPartTerminologyID: line.product.terminologyId,
    productID: line.product.productID,
    brandID: line.product.brandCode,
    categoryID: line.product.categoryID,
    productDesc: line.product.name,
    dispatchTime: dt(line.dispatchTime),
    quantity: line.quantity,
    price: line.product.price ?? 0,
    listPrice: line.product.listPrice,
    corePrice: line.product.corePrice,
    weight: line.product.weight,
    quality: line.product.quality,
    requestedProductId: line.requestedProductId,
    status: status.code,
    statusDescription: status.description
  }
}

const orderType = (order: StoredOrder): Punchout.Order => {
  const status = PUNCHOUT_STATUS[order.state]
  return {
    orderID: order.orderID,
    orderCreateTime: dt(order.createdAt),
    orderLines: order.lines.map((l) => lineType(order, l)),
    comment: order.comment,
    status: status.code,
    statusDescription: status.description
  }
}

/** A quote line for a product and requested quantity in a country, priced now. */
export const quoteLine = (
  state: SandboxState,
  now: number,
  product: Product,
  quantity: number,
  country: Values.CountryCode,
  makeId = 0
): Punchout.QuoteLine => {
  const timing = state.inventory.timingOf(now, product, country, quantity)
  const price = product.price ?? 0
  const quote: Punchout.QuoteLine = {
    acaPartTerminologyID: product.terminologyId,
    productID: product.productID,
    brandID: product.brandCode,
    categoryID: product.categoryID,
    productDesc: product.name,
    orderByTime: dt(timing.orderByTime),
    dispatchTime: dt(timing.dispatchTime),
    quantityAvail: product.stocked ? state.inventory.available(product, country) : 0,
    quantityReq: quantity,
    price,
    listPrice: product.listPrice,
    corePrice: product.corePrice,
    weight: product.weight,
    quality: product.quality,
    makeId,
    subtotal: Math.round(price * quantity * 100) / 100
  }
  return quote
}

// ---------------------------------------------------------------- Order Management

export const brandInformation = (state: SandboxState, product: Product): OrderManagement.BrandInformation => {
  const brand = state.inventory.brandOf(product)
  return decodeBrandInformation({
    ACABrandID: brand.acaBrandId,
    SERVICEBrandCode: brand.code,
    SERVICEBrandLogo: brand.logo,
    brandDescription: brand.name,
    brandLogoLevel1URL: brand.website
  })
}

const omsLine = (state: SandboxState, line: StoredLine, index: number): OrderManagement.OrderLineDetail => ({
  lineNo: index + 1,
  productID: line.product.productID,
  brandCode: line.product.brandCode,
  productDesc: line.product.description,
  quantity: line.quantity,
  quantityShipped: line.quantityShipped,
  price: line.product.price ?? 0,
  corePrice: line.product.corePrice,
  warehouseCode: line.warehouseCode,
  brand: brandInformation(state, line.product)
})

const yyyymmdd = (millis: number) => OrderManagement.formatYyyymmdd(dt(millis))

const encodeOrderDetails = Schema.encodeSync(OrderManagement.OrderDetailsResponse)
const encodeCreateOrderResponse = Schema.encodeSync(OrderManagement.CreateOrderResponse)

const omsOrderFields = (state: SandboxState, order: StoredOrder, statusId: MessageCatalog.MessageId) => {
  const total = order.lines.reduce((n, l) => n + (l.product.price ?? 0) * l.quantity, 0)
  const orderStatusId = omsStatusId(order.state)
  const orderHeader: OrderManagement.OrderHeader = {
    orderNo: order.orderID,
    ...(orderStatusId === "API0200"
      ? { orderStatusText: PUNCHOUT_STATUS[order.state].description }
      : { orderStatus: orderStatusId, orderStatusText: MessageCatalog.messages[orderStatusId].text }),
    customerPO: order.customerPO,
    comment: order.comment,
    orderDate: yyyymmdd(order.createdAt),
    orderTotal: Math.round(total * 100) / 100,
    ...(order.shippingAddress === undefined
      ? {}
      : { shippingAddress: order.shippingAddress as OrderManagement.ShippingAddress })
  }
  return {
    serverVersion: SERVER_VERSION,
    status: { code: 200, message: { ID: statusId, text: MessageCatalog.messages[statusId].text } },
    customerAccountNo: Number(order.accountNo),
    orderHeader,
    orderLines: order.lines.map((l, i) => omsLine(state, l, i))
  }
}

/** orderDetails' answer (and the assumed order changes'), with the order's status message. */
export const omsOrderBody = (state: SandboxState, order: StoredOrder, statusId: MessageCatalog.MessageId): unknown =>
  encodeOrderDetails(omsOrderFields(state, order, statusId))

/** createOrder's answer. */
export const createOrderResponse = (state: SandboxState, order: StoredOrder, clientTransactionID: string): unknown =>
  encodeCreateOrderResponse({ ...omsOrderFields(state, order, "API0200"), clientTransactionID })

const invoiceOf = (state: SandboxState, invoice: StoredInvoice): OrderManagement.Invoice => {
  const lines = invoice.lines.map((l, i) =>
    omsLine(state, {
      product: l.product,
      quantity: l.quantity,
      warehouseCode: l.warehouseCode,
      orderByTime: 0,
      dispatchTime: 0,
      requestedProductId: "",
      quantityShipped: l.quantity,
      backOrdered: false
    }, i)
  )
  return {
    invoiceNo: invoice.invoiceNo,
    invoiceDate: dt(invoice.date),
    orderNo: invoice.orderNo,
    invoiceTotal: Math.round(lines.reduce((n, l) => n + l.price * l.quantity, 0) * 100) / 100,
    lines
  }
}

const encodeInvoiceDetails = Schema.encodeSync(OrderManagement.InvoiceDetailsResponse)
const encodeAccountDetails = Schema.encodeSync(OrderManagement.AccountDetailsResponse)
const encodeDeleteOrder = Schema.encodeSync(OrderManagementApi.DeleteOrderResponse)

/** invoiceDetails' answer. */
export const invoiceDetailsResponse = (state: SandboxState, invoices: ReadonlyArray<StoredInvoice>): unknown =>
  encodeInvoiceDetails({
    serverVersion: SERVER_VERSION,
    status: successfulStatus,
    invoices: invoices.map((i) => invoiceOf(state, i))
  })

/** accountDetails' answer. */
export const accountDetailsResponse = (account: Customer): unknown =>
  encodeAccountDetails({
    serverVersion: SERVER_VERSION,
    status: successfulStatus,
    customerAccountNo: account.accountNo,
    accountName: account.name,
    country: account.country,
    active: account.active,
    poRequired: account.poRequired,
    defaultShippingAddress: account.defaultShippingAddress as OrderManagement.ShippingAddress
  })

/** deleteOrder's answer (a sandbox assumption). */
export const deleteOrderResponse = (accountNo: string, orderNo: string): unknown =>
  encodeDeleteOrder({
    serverVersion: SERVER_VERSION,
    status: successfulStatus,
    customerAccountNo: Number(accountNo),
    orderHeader: { orderNo }
  })
