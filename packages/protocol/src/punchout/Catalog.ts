/**
 * Punchout quote lines, orders and order lines.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { EpochMillis } from "../Epoch.js"
import { messages } from "../MessageCatalog.js"
import { BoundedId } from "../internal/fields.js"
import { LenientNumber, OptionalText, OrderId } from "../Values.js"

// Line identifiers are bounded like orderID (docs/assumptions.md).
const ProductId = BoundedId("productID", 64)
const BrandId = BoundedId("brandID", 64)

/**
 * A quote line: `quotes[]` of GetProductQuotes and of the quote webhook. Times are epochs
 * (13-digit milliseconds in the samples).
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * const line = Schema.decodeUnknownSync(Punchout.QuoteLine)({
 *   acaPartTerminologyID: 1684, productID: "51515", brandID: "WIX", categoryID: "FLT",
 *   productDesc: "Oil Filter", orderByTime: 1763769600000, dispatchTime: 1763773200000,
 *   quantityAvail: 12, quantityReq: 1, price: 6.49, listPrice: 9.99, corePrice: 0, weight: 0.8,
 *   quality: "", makeId: 0, subtotal: 6.49
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const QuoteLine = Schema.Struct({
  acaPartTerminologyID: LenientNumber,
  productID: ProductId,
  brandID: BrandId,
  categoryID: OptionalText,
  productDesc: OptionalText,
  orderByTime: EpochMillis,
  dispatchTime: EpochMillis,
  quantityAvail: Schema.JsonNumber,
  quantityReq: Schema.JsonNumber,
  price: Schema.JsonNumber,
  listPrice: LenientNumber,
  corePrice: LenientNumber,
  weight: LenientNumber,
  quality: OptionalText,
  makeId: LenientNumber,
  subtotal: LenientNumber
}).annotations({ identifier: "QuoteLine" })
/** @since 0.1.0 */
export interface QuoteLine extends Schema.Schema.Type<typeof QuoteLine> {}

/**
 * An order status code: a string such as `"0"` (in shopping cart) or `"3"` (submitted). The order
 * webhook's model types it as a number while the samples show strings, so both decode; it encodes
 * as a string.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.OrderStatus)(3) // "3"
 *
 * @since 0.1.0
 * @category schemas
 */
export const OrderStatus = Schema.Union(Schema.String, Schema.Number).pipe(
  Schema.transform(Schema.String, { strict: true, decode: (value) => String(value), encode: (value) => value })
).annotations({
  identifier: "OrderStatus",
  arbitrary: () => (fc) => fc.constantFrom("0", "3")
})

/**
 * The order status as the order webhook model types it: decodes a string or a number and encodes a
 * numeric code as a number.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.encodeSync(Punchout.WebhookOrderStatus)("3") // 3
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebhookOrderStatus = Schema.Union(Schema.String, Schema.Number).pipe(
  Schema.transform(Schema.String, {
    strict: true,
    decode: (value) => String(value),
    encode: (value) => (/^\d+$/.test(value) ? Number(value) : value)
  })
).annotations({
  identifier: "WebhookOrderStatus",
  arbitrary: () => (fc) => fc.constantFrom("0", "3")
})

/**
 * Known order status codes and their descriptions.
 *
 * @example
 * import { Punchout } from "@shoplink/protocol"
 * Punchout.ORDER_STATUS.submitted // { code: "3", description: "Order submitted" }
 *
 * @since 0.1.0
 */
export const ORDER_STATUS = {
  inCart: { code: "0", description: "In shopping cart" },
  submitted: { code: "3", description: "Order submitted" }
} as const

// The order states the Order Management catalogue names (API0282–API0286): their text is the
// catalogue's.
const REPORTED_STATUS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(messages).filter(([, entry]) => entry.kind === "status").map(([id, entry]) => [id, entry.text])
)

/**
 * An order status in words, for people: the punchout codes (`ORDER_STATUS`: `"0"` in shopping
 * cart, `"3"` submitted), `expired`, and the Order Management status reports (API0282–API0286).
 * An unknown code reads as the distributor's own `description` when it sent one, else
 * `"Status <code>"`. The one table every page and message uses.
 *
 * @example
 * import { Punchout } from "@shoplink/protocol"
 * Punchout.orderStatusText("3") // "Order submitted"
 * Punchout.orderStatusText("API0285") // "Shipped, partial"
 * Punchout.orderStatusText("7", "Back-ordered") // "Back-ordered"
 *
 * @since 0.1.0
 */
export const orderStatusText = (status: string | number, description?: string | null): string => {
  const code = String(status).trim()
  const known = Object.values(ORDER_STATUS).find((s) => s.code === code)?.description ??
    REPORTED_STATUS[code.toUpperCase()] ??
    (code.toLowerCase() === "expired" ? "Expired" : undefined)
  if (known !== undefined) return known
  const text = description?.trim()
  return text !== undefined && text !== "" ? text : `Status ${code === "" ? "unknown" : code}`
}

/**
 * An order line (`order.orderLines[]`).
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * const line = Schema.decodeUnknownSync(Punchout.OrderLine)({
 *   acaPartTerminologyID: 1684, productID: "51515", brandID: "WIX", categoryID: "FLT",
 *   productDesc: "Oil Filter", dispatchTime: 1763773200000, quantity: 2, price: 6.49,
 *   listPrice: 9.99, corePrice: 0, weight: 0.8, quality: "", requestedProductId: "",
 *   status: "0", statusDescription: "In shopping cart"
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const OrderLine = Schema.Struct({
  acaPartTerminologyID: LenientNumber,
  productID: ProductId,
  brandID: BrandId,
  categoryID: OptionalText,
  productDesc: OptionalText,
  dispatchTime: EpochMillis,
  quantity: Schema.JsonNumber,
  price: Schema.JsonNumber,
  listPrice: LenientNumber,
  corePrice: LenientNumber,
  weight: LenientNumber,
  quality: OptionalText,
  requestedProductId: OptionalText,
  status: OrderStatus,
  statusDescription: OptionalText
}).annotations({ identifier: "OrderLine" })
/** @since 0.1.0 */
export interface OrderLine extends Schema.Schema.Type<typeof OrderLine> {}

const orderFields = {
  orderID: OrderId,
  orderCreateTime: EpochMillis,
  orderLines: Schema.optionalWith(Schema.Array(OrderLine), { nullable: true, default: () => [] }),
  comment: OptionalText,
  statusDescription: OptionalText
}

/**
 * An order (`order` of CreateOrder, SubmitOrder and ReserveOrder responses).
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * const order = Schema.decodeUnknownSync(Punchout.Order)({
 *   orderID: "10423", orderCreateTime: 1763769600000, orderLines: [], comment: "",
 *   status: "0", statusDescription: "In shopping cart"
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const Order = Schema.Struct({ ...orderFields, status: OrderStatus }).annotations({ identifier: "Order" })
/** @since 0.1.0 */
export interface Order extends Schema.Schema.Type<typeof Order> {}

/**
 * The order as the order webhook sends it: the same fields, with `status` typed as a number by the
 * model (a string is accepted too).
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * const order = Schema.decodeUnknownSync(Punchout.WebhookOrder)({
 *   orderID: "10423", orderCreateTime: 1763769600000, orderLines: [], comment: "",
 *   status: 3, statusDescription: "Order submitted"
 * })
 * order.status // "3"
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebhookOrder = Schema.Struct({ ...orderFields, status: WebhookOrderStatus }).annotations({
  identifier: "WebhookOrder"
})
