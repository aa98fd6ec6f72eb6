/**
 * Order Management orders: createOrder (with drop-ship `shippingAddress`), its response with
 * `recommendedDropShipAddress`, and orderDetails. The spec shows the response's top-level fields
 * and the address shapes; order header and line fields are assumptions (docs/assumptions.md).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { envelopeFields } from "../Envelope.js"
import { IdString, NonBlank } from "../internal/fields.js"
import { LenientNumber, OptionalText, Quantity } from "../Values.js"
import { RecommendedDropShipAddress, ShippingAddress } from "./Address.js"
import { BrandInformation, ProductRef } from "./Products.js"

/**
 * A line of a createOrder request (assumed shape).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.OrderLineRequest)({ productID: "51515", brandCode: "WIX", quantity: 1 })
 *
 * @since 0.1.0
 * @category schemas
 */
export const OrderLineRequest = Schema.Struct({
  ...ProductRef.fields,
  quantity: Quantity,
  warehouseCode: Schema.optionalWith(NonBlank("warehouseCode"), { exact: true })
}).annotations({ identifier: "OrderLineRequest" })

/**
 * createOrder request: order data (assumed) and an optional drop-ship `shippingAddress`; without
 * it the order ships to the primary account's `defaultShippingAddress`.
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.CreateOrderRequest)({
 *   customerAccountNo: "100200",
 *   customerPO: "PO-77",
 *   orderLines: [{ productID: "51515", brandCode: "WIX", quantity: 1 }]
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const CreateOrderRequest = Schema.Struct({
  customerAccountNo: NonBlank("customerAccountNo"),
  customerPO: Schema.optionalWith(Schema.String, { exact: true }),
  comment: Schema.optionalWith(Schema.String, { exact: true }),
  submit: Schema.optionalWith(Schema.Boolean, { exact: true }),
  orderLines: Schema.NonEmptyArray(OrderLineRequest),
  shippingAddress: Schema.optionalWith(ShippingAddress, { exact: true })
}).annotations({ identifier: "CreateOrderRequest" })
/** @since 0.1.0 */
export interface CreateOrderRequest extends Schema.Schema.Type<typeof CreateOrderRequest> {}

/**
 * `orderHeader` (fields not shown by the spec; all assumed and optional).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.OrderHeader)({ orderNo: "5000123", orderStatus: "API0283" })
 *
 * @since 0.1.0
 * @category schemas
 */
export const OrderHeader = Schema.Struct({
  orderNo: Schema.optionalWith(IdString, { nullable: true, exact: true }),
  orderStatus: Schema.optionalWith(Schema.String, { nullable: true, exact: true }),
  orderStatusText: Schema.optionalWith(Schema.String, { nullable: true, exact: true }),
  customerPO: Schema.optionalWith(Schema.String, { nullable: true, exact: true }),
  comment: Schema.optionalWith(Schema.String, { nullable: true, exact: true }),
  orderDate: Schema.optionalWith(Schema.String, { nullable: true, exact: true }),
  orderTotal: Schema.optionalWith(Schema.JsonNumber, { nullable: true, exact: true }),
  shippingAddress: Schema.optionalWith(ShippingAddress, { nullable: true, exact: true })
}).annotations({ identifier: "OrderHeader" })
/** @since 0.1.0 */
export interface OrderHeader extends Schema.Schema.Type<typeof OrderHeader> {}

/**
 * A line of an order in responses (assumed shape).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.OrderLineDetail)({
 *   lineNo: 1,
 *   productID: "51515",
 *   brandCode: "WIX",
 *   quantity: 1,
 *   price: 6.49
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const OrderLineDetail = Schema.Struct({
  lineNo: LenientNumber,
  productID: IdString,
  brandCode: Schema.String,
  productDesc: OptionalText,
  quantity: Schema.JsonNumber,
  quantityShipped: LenientNumber,
  price: Schema.JsonNumber,
  corePrice: LenientNumber,
  warehouseCode: OptionalText,
  brand: Schema.optionalWith(BrandInformation, { nullable: true, exact: true })
}).annotations({ identifier: "OrderLineDetail" })
/** @since 0.1.0 */
export interface OrderLineDetail extends Schema.Schema.Type<typeof OrderLineDetail> {}

/**
 * createOrder response: the status, `clientTransactionID` (UUID), `customerAccountNo`,
 * `orderHeader`, `orderLines` (empty in the drop-ship error sample) and, on a drop-ship address
 * error with a recommendation, `recommendedDropShipAddress`.
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.CreateOrderResponse)({
 *   status: { code: 200, message: { ID: "API0200", text: "Successful" } },
 *   clientTransactionID: "7d0c2f5e-4b8a-4c57-9f39-8f3d8f1e2a11", customerAccountNo: 100200,
 *   orderHeader: { orderNo: "5000123" }, orderLines: []
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const CreateOrderResponse = Schema.Struct({
  ...envelopeFields,
  clientTransactionID: OptionalText,
  customerAccountNo: Schema.optionalWith(
    Schema.Union(Schema.JsonNumber, Schema.compose(Schema.NumberFromString, Schema.JsonNumber)),
    { nullable: true, exact: true }
  ),
  orderHeader: Schema.optionalWith(OrderHeader, { nullable: true, default: () => ({}) }),
  orderLines: Schema.optionalWith(Schema.Array(OrderLineDetail), { nullable: true, default: () => [] }),
  recommendedDropShipAddress: Schema.optionalWith(RecommendedDropShipAddress, { nullable: true, exact: true })
}).annotations({ identifier: "CreateOrderResponse" })
/** @since 0.1.0 */
export interface CreateOrderResponse extends Schema.Schema.Type<typeof CreateOrderResponse> {}

/**
 * orderDetails request (assumed: query parameters).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.OrderDetailsRequest)({ customerAccountNo: "100200", orderNo: "5000123" })
 *
 * @since 0.1.0
 * @category schemas
 */
export const OrderDetailsRequest = Schema.Struct({
  customerAccountNo: NonBlank("customerAccountNo"),
  orderNo: NonBlank("orderNo")
}).annotations({ identifier: "OrderDetailsRequest" })

/**
 * orderDetails response (assumed: the createOrder response's order fields).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.OrderDetailsResponse)({
 *   status: { code: 200, message: { ID: "API0283", text: "Order submitted" } },
 *   orderHeader: { orderNo: "5000123" },
 *   orderLines: []
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const OrderDetailsResponse = Schema.Struct({
  ...envelopeFields,
  customerAccountNo: CreateOrderResponse.fields.customerAccountNo,
  orderHeader: CreateOrderResponse.fields.orderHeader,
  orderLines: CreateOrderResponse.fields.orderLines
}).annotations({ identifier: "OrderDetailsResponse" })
/** @since 0.1.0 */
export interface OrderDetailsResponse extends Schema.Schema.Type<typeof OrderDetailsResponse> {}
