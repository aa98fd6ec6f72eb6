/**
 * The errors of the Punchout client besides the protocol's message errors: those every Shoplink
 * client shares (`@shoplink/http`: input or settings refused, the transport errors), re-exported
 * here, and its own `OrderAlreadySubmittedAfterRetry`, a SubmitOrder that was already done.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import type { TransportError } from "@shoplink/http"
import type { InvalidInput } from "@shoplink/http/InvalidInput"
import type { MessageError } from "@shoplink/protocol"

/**
 * The command an error belongs to (`CreateSession` for the create endpoint).
 *
 * @example
 * import { PunchoutError } from "@shoplink/punchout"
 * const command: PunchoutError.CommandName = "GetProductQuotes"
 *
 * @since 0.1.0
 */
export type CommandName =
  | "CreateSession"
  | "GetProductQuotes"
  | "CreateOrder"
  | "SubmitOrder"
  | "ReserveOrder"
  | "ShowCatalog"
  | "ShowOrder"

// The errors every Shoplink client shares, defined and documented once in `@shoplink/http`.
export { ConfigurationError, InvalidInput } from "@shoplink/http/InvalidInput"
export { RateLimited, RequestFailed, Timeout, UnexpectedResponse } from "@shoplink/http/TransportError"

/**
 * SubmitOrder was retried (an earlier attempt never reached the server, or was refused as busy,
 * e.g. API0258 "Order is locked by another job") and the retry answered "Order has already been
 * submitted" (API0247): the order is submitted, so callers can treat this as done.
 *
 * @example
 * import { Effect } from "effect"
 * import { PunchoutError } from "@shoplink/punchout"
 * const treatAsDone = <A>(self: Effect.Effect<A, PunchoutError.OrderAlreadySubmittedAfterRetry>) =>
 *   self.pipe(Effect.catchTag("OrderAlreadySubmittedAfterRetry", (e) => Effect.log(`order ${e.orderID} is submitted`)))
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderAlreadySubmittedAfterRetry extends Schema.TaggedError<OrderAlreadySubmittedAfterRetry>()(
  "OrderAlreadySubmittedAfterRetry",
  {
    orderID: Schema.String,
    attempts: Schema.Number,
    referenceID: Schema.optional(Schema.String)
  }
) {
  override get message(): string {
    return `SubmitOrder: order ${this.orderID} was already submitted when retried (attempt ${this.attempts})`
  }
}

/**
 * Every error a Punchout command can fail with.
 *
 * @example
 * import { Effect } from "effect"
 * import type { PunchoutError } from "@shoplink/punchout"
 * const describe = (error: PunchoutError.CommandError) => Effect.logWarning(error.message)
 *
 * @since 0.1.0
 * @category errors
 */
export type CommandError = MessageError.PunchoutMessageError | TransportError.TransportError | InvalidInput

/**
 * Every error SubmitOrder can fail with.
 *
 * @example
 * import type { PunchoutError } from "@shoplink/punchout"
 * const isDone = (error: PunchoutError.SubmitOrderError) => error._tag === "OrderAlreadySubmittedAfterRetry"
 *
 * @since 0.1.0
 * @category errors
 */
export type SubmitOrderError = CommandError | OrderAlreadySubmittedAfterRetry
