/**
 * Rules the distributor applies to orders in both APIs, each written once: the largest total
 * quantity of one order (API0235) and what an order's status forbids (the Order Management spec's
 * "States and transitions": API0272, API0247, API0268, API0257). The sandbox enforces them; a
 * client may check them before sending.
 *
 * @since 0.1.0
 */
import type { MessageId } from "./MessageCatalog.js"

/**
 * The largest total quantity of one order; more is API0235 ("Excessive order quantity"). The spec
 * says only that a maximum applies; 999 is assumed (docs/assumptions.md).
 *
 * @example
 * import { OrderRules } from "@shoplink/protocol"
 * OrderRules.MAX_ORDER_QUANTITY // 999
 *
 * @since 0.1.0
 */
export const MAX_ORDER_QUANTITY = 999

/**
 * Whether the lines of one order (or one price request) add up to more than
 * {@link MAX_ORDER_QUANTITY}: the server answers API0235.
 *
 * @example
 * import { OrderRules } from "@shoplink/protocol"
 * OrderRules.exceedsMaxQuantity([{ quantity: 600 }, { quantity: 400 }]) // true
 *
 * @since 0.1.0
 */
export const exceedsMaxQuantity = (lines: Iterable<{ readonly quantity: number }>): boolean => {
  let total = 0
  for (const line of lines) total += line.quantity
  return total > MAX_ORDER_QUANTITY
}

/**
 * The order status reports of the catalogue: saved for later, submitted, processing, shipped
 * partial, shipped complete.
 *
 * @example
 * import type { OrderRules } from "@shoplink/protocol"
 * const submitted: OrderRules.OrderStatusId = "API0283"
 *
 * @since 0.1.0
 */
export type OrderStatusId = "API0282" | "API0283" | "API0284" | "API0285" | "API0286"

/**
 * What is done to an order: `submit` it, `change` it (reserve it again, open it, change its lines)
 * or `delete` it.
 *
 * @example
 * import type { OrderRules } from "@shoplink/protocol"
 * const action: OrderRules.OrderAction = "submit"
 *
 * @since 0.1.0
 */
export type OrderAction = "submit" | "change" | "delete"

/**
 * The message that refuses an action on an order in a status, or `undefined` when the status
 * allows it (an order in the cart has no status report: pass `undefined` or `"API0200"`):
 * - a saved order cannot be submitted; it must be opened first (API0272);
 * - a submitted order cannot be submitted again or changed (API0247);
 * - an order being processed or shipped cannot be submitted or changed (API0268);
 * - a submitted, processing or shipped order cannot be deleted (API0257).
 *
 * @example
 * import { OrderRules } from "@shoplink/protocol"
 * OrderRules.refusal("submit", "API0283") // "API0247"
 * OrderRules.refusal("change", "API0284") // "API0268"
 * OrderRules.refusal("change", "API0282") // undefined
 *
 * @since 0.1.0
 */
export const refusal = (
  action: OrderAction,
  status: OrderStatusId | "API0200" | undefined
): Extract<MessageId, "API0247" | "API0257" | "API0268" | "API0272"> | undefined => {
  if (status === undefined || status === "API0200") return undefined
  if (action === "delete") return status === "API0282" ? undefined : "API0257"
  switch (status) {
    case "API0282":
      return action === "submit" ? "API0272" : undefined
    case "API0283":
      return "API0247"
    case "API0284":
    case "API0285":
    case "API0286":
      return "API0268"
  }
}
