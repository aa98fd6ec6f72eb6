/**
 * Bodies the service POSTs to the vendor: the order webhook (after Export and Submit) and the
 * quote webhook (after Export).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { ReferenceId } from "../Values.js"
import { QuoteLine, WebhookOrder } from "./Catalog.js"

/**
 * The order webhook body: `referenceID` and the submitted `order` (status a number per the model,
 * a string accepted).
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * const body = Schema.decodeUnknownSync(Punchout.OrderWebhook)({
 *   referenceID: "RO-1042",
 *   order: {
 *     orderID: "10423",
 *     orderCreateTime: 1763769600000,
 *     orderLines: [],
 *     comment: "",
 *     status: 3,
 *     statusDescription: "Order submitted"
 *   }
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const OrderWebhook = Schema.Struct({
  referenceID: Schema.optionalWith(ReferenceId, { nullable: true, default: () => "" }),
  order: WebhookOrder
}).annotations({ identifier: "OrderWebhook" })
/** @since 0.1.0 */
export interface OrderWebhook extends Schema.Schema.Type<typeof OrderWebhook> {}

/**
 * The quote webhook body: `referenceID` and the priced `quotes[]`.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.QuoteWebhook)({ referenceID: "RO-1042", quotes: [] })
 *
 * @since 0.1.0
 * @category schemas
 */
export const QuoteWebhook = Schema.Struct({
  referenceID: Schema.optionalWith(ReferenceId, { nullable: true, default: () => "" }),
  quotes: Schema.Array(QuoteLine)
}).annotations({ identifier: "QuoteWebhook" })
/** @since 0.1.0 */
export interface QuoteWebhook extends Schema.Schema.Type<typeof QuoteWebhook> {}
