/**
 * Request and response bodies of the API commands run inside a session:
 * GetProductQuotes, CreateOrder (both body shapes), SubmitOrder and ReserveOrder.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import type { EndpointNameOf } from "../ApiAnnotations.js"
import { envelopeFields, ReserveOrderEnvelope } from "../Envelope.js"
import { NonBlank } from "../internal/fields.js"
import { OrderComment, OrderId, Quantity, QuantityFromString, ReserveOrderId } from "../Values.js"
import type { PunchoutApi } from "../PunchoutApi.js"
import { Order, QuoteLine } from "./Catalog.js"

/**
 * An API command: POST with a JSON body inside a session (`GetProductQuotes`, `CreateOrder`,
 * `SubmitOrder`, `ReserveOrder`), read from the `PunchoutApi` definition.
 *
 * @example
 * import type { Punchout } from "@shoplink/protocol"
 * const command: Punchout.ApiCommand = "ReserveOrder"
 *
 * @since 0.1.0
 */
export type ApiCommand = Exclude<EndpointNameOf<typeof PunchoutApi, "POST">, "create">
/**
 * A browser command: GET, answered with an ordering page (`ShowCatalog`, `ShowOrder`), read from
 * the `PunchoutApi` definition.
 *
 * @example
 * import type { Punchout } from "@shoplink/protocol"
 * const page: Punchout.BrowserCommand = "ShowCatalog"
 *
 * @since 0.1.0
 */
export type BrowserCommand = EndpointNameOf<typeof PunchoutApi, "GET">
/**
 * A command run inside a session: an API command or a browser command (every `PunchoutApi`
 * endpoint but `create`).
 *
 * @example
 * import type { Punchout } from "@shoplink/protocol"
 * const command: Punchout.Command = "GetProductQuotes"
 *
 * @since 0.1.0
 */
export type Command = ApiCommand | BrowserCommand

const optionalString = Schema.optionalWith(Schema.String, { exact: true })

/**
 * GetProductQuotes body: `productID` is a product ID or a search term; with `brandID` it is an
 * exact match. `quantity` is a string on the wire and a positive number in code.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.encodeSync(Punchout.GetProductQuotesRequest)({ productID: "oil filter", quantity: 1 })
 * // { productID: "oil filter", quantity: "1" }
 *
 * @since 0.1.0
 * @category schemas
 */
export const GetProductQuotesRequest = Schema.Struct({
  productID: NonBlank("productID"),
  quantity: QuantityFromString,
  brandID: optionalString,
  referenceID: optionalString
}).annotations({ identifier: "GetProductQuotesRequest" })
/** @since 0.1.0 */
export interface GetProductQuotesRequest extends Schema.Schema.Type<typeof GetProductQuotesRequest> {}

/**
 * GetProductQuotes response: the envelope plus `quotes[]` (an absent or `null` list is empty).
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.GetProductQuotesResponse)({
 *   serverVersion: "1.4.0", status: { code: 200, message: { text: "Success" } }, quotes: [], referenceID: "RO-1"
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const GetProductQuotesResponse = Schema.Struct({
  ...envelopeFields,
  quotes: Schema.optionalWith(Schema.Array(QuoteLine), { nullable: true, default: () => [] })
}).annotations({ identifier: "GetProductQuotesResponse" })
/** @since 0.1.0 */
export interface GetProductQuotesResponse extends Schema.Schema.Type<typeof GetProductQuotesResponse> {}

/**
 * CreateOrder for one product: `productID`, `brandID` and a string `quantity`.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.encodeSync(Punchout.CreateOrderSingle)({ productID: "51515", brandID: "WIX", quantity: 2 })
 *
 * @since 0.1.0
 * @category schemas
 */
export const CreateOrderSingle = Schema.Struct({
  productID: NonBlank("productID"),
  brandID: NonBlank("brandID"),
  quantity: QuantityFromString,
  referenceID: optionalString,
  comment: Schema.optionalWith(OrderComment, { exact: true })
}).annotations({ identifier: "CreateOrderSingle" })

/**
 * One product of the multi-product CreateOrder shape (`quantity` is a number here).
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.CreateOrderItem)({ productID: "51515", brandID: "WIX", quantity: 2 })
 *
 * @since 0.1.0
 * @category schemas
 */
export const CreateOrderItem = Schema.Struct({
  productID: NonBlank("productID"),
  brandID: NonBlank("brandID"),
  quantity: Quantity
}).annotations({ identifier: "CreateOrderItem" })

/**
 * CreateOrder for several products: `referenceID` plus a non-empty `quotes` array. A `comment` is
 * accepted as in the single shape (see docs/assumptions.md).
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.CreateOrderMultiple)({
 *   referenceID: "RO-1042", quotes: [{ productID: "51515", brandID: "WIX", quantity: 1 }]
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const CreateOrderMultiple = Schema.Struct({
  referenceID: optionalString,
  quotes: Schema.NonEmptyArray(CreateOrderItem),
  comment: Schema.optionalWith(OrderComment, { exact: true })
}).annotations({ identifier: "CreateOrderMultiple" })

/**
 * A CreateOrder body of either shape.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * const body = Schema.decodeUnknownSync(Punchout.CreateOrderRequest)({
 *   productID: "51515",
 *   brandID: "WIX",
 *   quantity: "1"
 * })
 * "quotes" in body // false
 *
 * @since 0.1.0
 * @category schemas
 */
export const CreateOrderRequest = Schema.Union(CreateOrderMultiple, CreateOrderSingle).annotations({
  identifier: "CreateOrderRequest"
})
/** @since 0.1.0 */
export type CreateOrderRequest = typeof CreateOrderRequest.Type

/**
 * CreateOrder and SubmitOrder response: the envelope plus `order`.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.OrderResponse)({
 *   serverVersion: "1.4.0",
 *   status: { code: 200, message: { text: "Success" } },
 *   referenceID: "RO-1",
 *   order: {
 *     orderID: "10423",
 *     orderCreateTime: 1763769600000,
 *     orderLines: [],
 *     comment: "",
 *     status: "0",
 *     statusDescription: "In shopping cart"
 *   }
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const OrderResponse = Schema.Struct({ ...envelopeFields, order: Order }).annotations({
  identifier: "OrderResponse"
})
/** @since 0.1.0 */
export interface OrderResponse extends Schema.Schema.Type<typeof OrderResponse> {}

/**
 * SubmitOrder body.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.SubmitOrderRequest)({ orderID: "10423" })
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubmitOrderRequest = Schema.Struct({
  orderID: OrderId,
  referenceID: optionalString
}).annotations({ identifier: "SubmitOrderRequest" })
/** @since 0.1.0 */
export interface SubmitOrderRequest extends Schema.Schema.Type<typeof SubmitOrderRequest> {}

/**
 * ReserveOrder body: `orderID` a non-zero integer of 1 to 8 digits; `comment` 1 to 20 characters.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.ReserveOrderRequest)({ orderID: "10423", comment: "PO 77" })
 *
 * @since 0.1.0
 * @category schemas
 */
export const ReserveOrderRequest = Schema.Struct({
  orderID: ReserveOrderId,
  referenceID: optionalString,
  comment: Schema.optionalWith(OrderComment, { exact: true })
}).annotations({ identifier: "ReserveOrderRequest" })
/** @since 0.1.0 */
export interface ReserveOrderRequest extends Schema.Schema.Type<typeof ReserveOrderRequest> {}

/**
 * ReserveOrder response: `order`, `referenceId` (this spelling; `null` when none was sent),
 * `serverVersion` and `status` (success: code 200, ID `API0200`, text "Successful").
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.ReserveOrderResponse)({
 *   referenceId: null,
 *   serverVersion: "1.4.0",
 *   status: { code: 200, message: { ID: "API0200", text: "Successful" } },
 *   order: {
 *     orderID: "10423",
 *     orderCreateTime: 1763769600000,
 *     orderLines: [],
 *     comment: "PO 77",
 *     status: "0",
 *     statusDescription: "In shopping cart"
 *   }
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const ReserveOrderResponse = Schema.Struct({ ...ReserveOrderEnvelope.fields, order: Order }).annotations({
  identifier: "ReserveOrderResponse"
})
/** @since 0.1.0 */
export interface ReserveOrderResponse extends Schema.Schema.Type<typeof ReserveOrderResponse> {}

/**
 * The body the Export and Save button answers with: the envelope plus the saved `orderID`
 * (added 2026-05-01; the rest of the shape is not shown, see docs/assumptions.md).
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.ExportAndSaveResponse)({
 *   status: { code: 200, message: { text: "Success" } }, orderID: "10423"
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const ExportAndSaveResponse = Schema.Struct({ ...envelopeFields, orderID: OrderId }).annotations({
  identifier: "ExportAndSaveResponse"
})
