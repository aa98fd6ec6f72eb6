/**
 * Errors the Punchout client adds to the protocol's message errors: bad settings caught when the
 * layer is built, bad input caught before any network call, failed exchanges, rate limiting,
 * unreadable responses, and a SubmitOrder that was already done.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { InvalidInput as Invalid, TransportError } from "@shoplink/http"
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
export type CommandName = "CreateSession" | "GetProductQuotes" | "CreateOrder" | "SubmitOrder" | "ReserveOrder" | "ShowCatalog" | "ShowOrder"

/**
 * Input refused by the protocol's rules before anything was sent: the one `InvalidInput` of every
 * Shoplink client (`@shoplink/http`), so one `Effect.catchTag("InvalidInput", …)` sees one shape.
 * `operation` is the command, `field` the path (`quotes.0.quantity`), `rule` the broken rule;
 * its message is one line naming both (`apiToken must not be empty`).
 *
 * @example
 * import { PunchoutError } from "@shoplink/punchout"
 * const error = new PunchoutError.InvalidInput({ operation: "ReserveOrder", field: "orderID", rule: "must not be empty" })
 * error.message // "orderID must not be empty"
 *
 * @since 0.1.0
 * @category errors
 */
export const InvalidInput = Invalid.InvalidInput

/**
 * The type of `InvalidInput`.
 *
 * @example
 * import type { PunchoutError } from "@shoplink/punchout"
 * const fieldOf = (error: PunchoutError.InvalidInput) => error.field
 *
 * @since 0.1.0
 * @category errors
 */
export type InvalidInput = Invalid.InvalidInput

/**
 * The client cannot be built as configured: a setting that is wrong on its face (an empty vendor
 * key, a base URL that does not parse, a timeout that is not a positive duration). Raised when the
 * layer is built, before any request; the same tag and fields as the Order Management client's
 * `ConfigurationError`, so one `Effect.catchTag("ConfigurationError", …)` covers both.
 *
 * @example
 * import { PunchoutError } from "@shoplink/punchout"
 * new PunchoutError.ConfigurationError({ setting: "baseUrl", problem: "must be an absolute http(s) URL" }).message
 * // "Punchout client configuration: baseUrl: must be an absolute http(s) URL"
 *
 * @since 0.1.0
 * @category errors
 */
export class ConfigurationError extends Schema.TaggedError<ConfigurationError>()("ConfigurationError", {
  setting: Schema.String,
  problem: Schema.String
}) {
  override get message(): string {
    return `Punchout client configuration: ${this.setting}: ${this.problem}`
  }
}

/**
 * The request got no HTTP answer (`@shoplink/http`'s `TransportError.RequestFailed`): reason
 * `HostNotFound` or `ConnectionRefused` (`requestSent: false`, the request never reached the
 * server), `Transport` (the connection broke; the server may have acted) or `InvalidRequest`.
 * Formerly `PunchoutTransportError`; `operation` is the command.
 *
 * @example
 * import { PunchoutError } from "@shoplink/punchout"
 * const error = new PunchoutError.RequestFailed({
 *   operation: "SubmitOrder", reason: "ConnectionRefused", requestSent: false, detail: "connect ECONNREFUSED"
 * })
 * error.message // "SubmitOrder: ConnectionRefused: connect ECONNREFUSED"
 *
 * @since 0.1.0
 * @category errors
 */
export const RequestFailed = TransportError.RequestFailed

/**
 * The type of `RequestFailed`.
 *
 * @example
 * import type { PunchoutError } from "@shoplink/punchout"
 * const mayRetryUnsafe = (error: PunchoutError.RequestFailed) => !error.requestSent
 *
 * @since 0.1.0
 * @category errors
 */
export type RequestFailed = TransportError.RequestFailed

/**
 * No complete answer within `requestTimeout` (`@shoplink/http`'s `TransportError.Timeout`); the
 * server may have acted. Formerly `PunchoutTransportError` with reason `Timeout`.
 *
 * @example
 * import { PunchoutError } from "@shoplink/punchout"
 * new PunchoutError.Timeout({ operation: "GetProductQuotes", attempt: 3, detail: "no complete response within 2s" }).attempt // 3
 *
 * @since 0.1.0
 * @category errors
 */
export const Timeout = TransportError.Timeout

/**
 * The type of `Timeout`.
 *
 * @example
 * import type { PunchoutError } from "@shoplink/punchout"
 * const attempts = (error: PunchoutError.Timeout) => error.attempt
 *
 * @since 0.1.0
 * @category errors
 */
export type Timeout = TransportError.Timeout

/**
 * HTTP 429 without a readable envelope (`@shoplink/http`'s `TransportError.RateLimited`).
 * `retryAfter` is its `Retry-After` when it sent one. Idempotent commands retry it, waiting
 * `retryAfter`; a `retryAfter` longer than the policy's `retryAfterCap` ends the retries at once
 * with this error, so the caller decides when to come back.
 *
 * @example
 * import { Duration, Effect } from "effect"
 * import { PunchoutError } from "@shoplink/punchout"
 * const later = <A>(self: Effect.Effect<A, PunchoutError.RateLimited>) =>
 *   self.pipe(Effect.catchTag("RateLimited", (e) => Effect.logWarning(`come back in ${Duration.format(e.retryAfter ?? Duration.minutes(1))}`)))
 *
 * @since 0.1.0
 * @category errors
 */
export const RateLimited = TransportError.RateLimited

/**
 * The type of `RateLimited`.
 *
 * @example
 * import type { PunchoutError } from "@shoplink/punchout"
 * const after = (error: PunchoutError.RateLimited) => error.retryAfter
 *
 * @since 0.1.0
 * @category errors
 */
export type RateLimited = TransportError.RateLimited

/**
 * The service answered, but not with a readable envelope (`@shoplink/http`'s
 * `TransportError.UnexpectedResponse`): reason `EmptyBody`, `InvalidJson`, `NotAnEnvelope` or
 * `UnexpectedShape` (a success envelope whose data has the wrong shape). `excerpt` is the start
 * of the body with tokens and keys replaced by `<redacted>`. With a 408 or 5xx status (a gateway's
 * HTML 502 page) idempotent commands retry it. Formerly `MalformedResponse`, and
 * `PunchoutTransportError` with reason `HttpStatus`.
 *
 * @example
 * import { PunchoutError } from "@shoplink/punchout"
 * const error = new PunchoutError.UnexpectedResponse({
 *   operation: "GetProductQuotes", reason: "InvalidJson", httpStatus: 200, detail: "Unexpected token", excerpt: "{\"status\":"
 * })
 * error.reason // "InvalidJson"
 *
 * @since 0.1.0
 * @category errors
 */
export const UnexpectedResponse = TransportError.UnexpectedResponse

/**
 * The type of `UnexpectedResponse`.
 *
 * @example
 * import type { PunchoutError } from "@shoplink/punchout"
 * const status = (error: PunchoutError.UnexpectedResponse) => error.httpStatus
 *
 * @since 0.1.0
 * @category errors
 */
export type UnexpectedResponse = TransportError.UnexpectedResponse

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
