// Turns stored state into wire bodies by encoding the @shoplink/protocol schemas, so the sandbox
// writes exactly the shapes (and epoch units, status types) the protocol defines.
import { DateTime, Schema } from "effect"
import { MessageCatalog, OrderManagement, Punchout } from "@shoplink/protocol"
import type { Product } from "./catalog.js"
import { type MessageFailure, textOf } from "./failure.js"
import { type SandboxState, type StoredInvoice, type StoredLine, type StoredOrder } from "./state.js"

export const SERVER_VERSION = "sandbox-1.0.0"

const dt = (millis: number) => DateTime.unsafeMake(millis)

// Compiled once: building a parser per call dominates a request's cost.
const encodeOrderType = Schema.encodeSync(Punchout.Order)
const encodeWebhookOrderType = Schema.encodeSync(Punchout.WebhookOrder)
const encodeQuoteLine = Schema.encodeSync(Punchout.QuoteLine)
const decodeBrandInformation = Schema.decodeUnknownSync(OrderManagement.BrandInformation)
const encodeOrderLineDetail = Schema.encodeSync(OrderManagement.OrderLineDetail)
const encodeInvoiceType = Schema.encodeSync(OrderManagement.Invoice)

export const successStatus = { code: 200, message: { text: "Success" } }
export const successfulStatus = { code: 200, message: { ID: "API0200", text: "Successful" } }

/** The error envelope for a message (with `referenceId` spelling for ReserveOrder). */
export const errorEnvelope = (
  failure: MessageFailure,
  httpStatus: number,
  reference: { readonly referenceID?: string | undefined; readonly spelling?: "referenceID" | "referenceId" } = {}
): Record<string, unknown> => ({
  serverVersion: SERVER_VERSION,
  status: { code: httpStatus, message: { ID: failure.id, text: textOf(failure) } },
  ...(reference.spelling === "referenceId"
    ? { referenceId: reference.referenceID ?? null }
    : reference.referenceID === undefined ? {} : { referenceID: reference.referenceID }),
  ...failure.extra
})

const PUNCHOUT_STATUS: Record<StoredOrder["state"], { readonly code: string; readonly description: string }> = {
  cart: Punchout.ORDER_STATUS.inCart,
  expired: { code: "9", description: "Expired" },
  saved: { code: "1", description: "Saved for later" },
  submitted: Punchout.ORDER_STATUS.submitted,
  processing: Punchout.ORDER_STATUS.submitted,
  shippedPartial: Punchout.ORDER_STATUS.submitted,
  shippedComplete: Punchout.ORDER_STATUS.submitted
}

/** The Order Management status message of an order state (API0282–API0286, API0200 otherwise). */
export const omsStatusId = (state: StoredOrder["state"]): "API0200" | "API0282" | "API0283" | "API0284" | "API0285" | "API0286" => {
  switch (state) {
    case "saved":
      return "API0282"
    case "submitted":
      return "API0283"
    case "processing":
      return "API0284"
    case "shippedPartial":
      return "API0285"
    case "shippedComplete":
      return "API0286"
    default:
      return "API0200"
  }
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

/** `order` as the commands write it (status a string). */
export const encodeOrder = (_state: SandboxState, order: StoredOrder): unknown =>
  encodeOrderType(orderType(order))

/** `order` as the order webhook writes it (status a number, per the webhook model). */
export const encodeWebhookOrder = (_state: SandboxState, order: StoredOrder): unknown =>
  encodeWebhookOrderType(orderType(order))

/** A quote line for a product and requested quantity in a country, priced now. */
export const encodeQuote = (
  state: SandboxState,
  now: number,
  product: Product,
  quantity: number,
  country: "US" | "CA",
  makeId = 0
): unknown => {
  const timing = state.timingOf(now, product, country, quantity)
  const price = product.price ?? 0
  const quote: Punchout.QuoteLine = {
    acaPartTerminologyID: product.terminologyId,
    productID: product.productID,
    brandID: product.brandCode,
    categoryID: product.categoryID,
    productDesc: product.name,
    orderByTime: dt(timing.orderByTime),
    dispatchTime: dt(timing.dispatchTime),
    quantityAvail: product.stocked ? state.available(product, country) : 0,
    quantityReq: quantity,
    price,
    listPrice: product.listPrice,
    corePrice: product.corePrice,
    weight: product.weight,
    quality: product.quality,
    makeId,
    subtotal: Math.round(price * quantity * 100) / 100
  }
  return encodeQuoteLine(quote)
}

// ---------------------------------------------------------------- Order Management

export const brandInformation = (state: SandboxState, product: Product): OrderManagement.BrandInformation => {
  const brand = state.brandOf(product)
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

export const omsOrderBody = (state: SandboxState, order: StoredOrder, statusId: MessageCatalog.MessageId) => {
  const total = order.lines.reduce((n, l) => n + (l.product.price ?? 0) * l.quantity, 0)
  const orderStatusId = omsStatusId(order.state)
  return {
    serverVersion: SERVER_VERSION,
    status: { code: 200, message: { ID: statusId, text: MessageCatalog.messages[statusId].text } },
    customerAccountNo: Number(order.accountNo),
    orderHeader: {
      orderNo: order.orderID,
      ...(orderStatusId === "API0200"
        ? { orderStatusText: PUNCHOUT_STATUS[order.state].description }
        : { orderStatus: orderStatusId, orderStatusText: MessageCatalog.messages[orderStatusId].text }),
      customerPO: order.customerPO,
      comment: order.comment,
      orderDate: yyyymmdd(order.createdAt),
      orderTotal: Math.round(total * 100) / 100,
      ...(order.shippingAddress === undefined ? {} : { shippingAddress: order.shippingAddress })
    },
    orderLines: order.lines.map((l, i) => encodeOrderLineDetail(omsLine(state, l, i)))
  }
}

export const encodeInvoice = (state: SandboxState, invoice: StoredInvoice): unknown => {
  const lines = invoice.lines.map((l, i) =>
    omsLine(state, { product: l.product, quantity: l.quantity, warehouseCode: l.warehouseCode, orderByTime: 0, dispatchTime: 0, requestedProductId: "", quantityShipped: l.quantity, backOrdered: false }, i)
  )
  return encodeInvoiceType({
    invoiceNo: invoice.invoiceNo,
    invoiceDate: dt(invoice.date),
    orderNo: invoice.orderNo,
    invoiceTotal: Math.round(lines.reduce((n, l) => n + l.price * l.quantity, 0) * 100) / 100,
    lines
  })
}
