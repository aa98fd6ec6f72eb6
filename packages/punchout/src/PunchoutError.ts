/**
 * Errors the Punchout client adds to the protocol's message errors: bad settings caught when the
 * layer is built, bad input caught before any network call, failed exchanges, rate limiting,
 * unreadable responses, and a SubmitOrder that was already done.
 *
 * @since 0.1.0
 */
import { Duration, Schema } from "effect"
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
 * Input refused by the protocol's rules before anything was sent. `message` is one line naming
 * the field and the rule (`apiToken must not be empty`); `field` (the path, e.g.
 * `quotes.0.quantity`) and `rule` (`must be a positive whole number, got 0`) carry the same
 * details apart, as the Order Management client's `InvalidInput` does.
 *
 * @example
 * import { PunchoutError } from "@shoplink/punchout"
 * const error = new PunchoutError.InvalidInput({
 *   command: "ReserveOrder",
 *   message: "orderID must be a non-zero integer of 1 to 8 digits",
 *   field: "orderID",
 *   rule: "must be a non-zero integer of 1 to 8 digits"
 * })
 * error._tag // "InvalidInput"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  command: Schema.String,
  message: Schema.String,
  /** Dotted path of the refused field; `""` when the rule is about the input as a whole. */
  field: Schema.optional(Schema.String),
  /** The broken rule, without the field name. */
  rule: Schema.optional(Schema.String)
}) {}

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
 * Why an exchange failed below the envelope.
 * - `HostNotFound`: the base URL's host name did not resolve (`ENOTFOUND`, or `EAI_AGAIN` when the
 *   resolver could not answer): the request never left the client.
 * - `ConnectionRefused`: nothing accepted the connection (refused, unreachable, connect timeout),
 *   so the request provably never reached the server.
 * - `Timeout`: no complete answer within the request timeout; the server may have acted.
 * - `Transport`: the connection broke (reset, hang-up, TLS); the server may have acted.
 * - `HttpStatus`: an answer without a readable envelope and with a transient status (408, 5xx),
 *   such as a gateway's HTML 502 page. A 429 is `RateLimited` instead.
 *
 * @example
 * import { PunchoutError } from "@shoplink/punchout"
 * const reason: PunchoutError.TransportReason = "ConnectionRefused"
 *
 * @since 0.1.0
 */
export type TransportReason = "HostNotFound" | "ConnectionRefused" | "Timeout" | "Transport" | "HttpStatus"

/**
 * The exchange with the service failed: see `TransportReason`. `requestSent` is `false` only when
 * the request provably never reached the server. `detail` never contains a token or key.
 *
 * @example
 * import { PunchoutError } from "@shoplink/punchout"
 * const error = new PunchoutError.PunchoutTransportError({
 *   command: "SubmitOrder", reason: "ConnectionRefused", requestSent: false, attempt: 1, detail: "connect ECONNREFUSED"
 * })
 * error.message // "SubmitOrder: ConnectionRefused (attempt 1): connect ECONNREFUSED"
 *
 * @since 0.1.0
 * @category errors
 */
export class PunchoutTransportError extends Schema.TaggedError<PunchoutTransportError>()("PunchoutTransportError", {
  command: Schema.String,
  reason: Schema.Literal("HostNotFound", "ConnectionRefused", "Timeout", "Transport", "HttpStatus"),
  requestSent: Schema.Boolean,
  attempt: Schema.Number,
  detail: Schema.String,
  httpStatus: Schema.optional(Schema.Number),
  /** `Retry-After` of the response, in milliseconds, when it sent one. */
  retryAfterMillis: Schema.optional(Schema.Number),
  /** A redacted excerpt of the body, for `HttpStatus`. */
  excerpt: Schema.optional(Schema.String)
}) {
  override get message(): string {
    const status = this.httpStatus === undefined ? "" : ` HTTP ${this.httpStatus}`
    return `${this.command}: ${this.reason}${status} (attempt ${this.attempt}): ${this.detail}`
  }
}

/**
 * The service (or a gateway in front of it) answered HTTP 429 without a readable envelope: too
 * many requests. `retryAfter` is its `Retry-After` when it sent one. Idempotent commands retry it,
 * waiting `retryAfter`; a `retryAfter` longer than the policy's `retryAfterCap` ends the retries at
 * once with this error, so the caller decides when to come back.
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
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  command: Schema.String,
  httpStatus: Schema.Number,
  attempt: Schema.Number,
  /** The response's `Retry-After`, when it sent one. */
  retryAfter: Schema.optional(Schema.DurationFromSelf),
  /** A redacted excerpt of the body. */
  excerpt: Schema.String
}) {
  override get message(): string {
    const after = this.retryAfter === undefined ? "" : `, retry after ${Duration.format(this.retryAfter)}`
    return `${this.command}: RateLimited HTTP ${this.httpStatus}${after} (attempt ${this.attempt})`
  }
}

/**
 * The service answered, but not with a readable envelope: an empty body, malformed JSON, JSON
 * that is not an envelope, or a success envelope whose data has the wrong shape. `excerpt` is the
 * start of the body with tokens and keys replaced by `<redacted>`.
 *
 * @example
 * import { PunchoutError } from "@shoplink/punchout"
 * const error = new PunchoutError.MalformedResponse({
 *   command: "GetProductQuotes", reason: "InvalidJson", httpStatus: 200, detail: "Unexpected token", excerpt: "{\"status\":"
 * })
 * error.reason // "InvalidJson"
 *
 * @since 0.1.0
 * @category errors
 */
export class MalformedResponse extends Schema.TaggedError<MalformedResponse>()("MalformedResponse", {
  command: Schema.String,
  reason: Schema.Literal("EmptyBody", "InvalidJson", "NotAnEnvelope", "UnexpectedShape"),
  httpStatus: Schema.Number,
  detail: Schema.String,
  excerpt: Schema.String
}) {
  override get message(): string {
    return `${this.command}: ${this.reason} (HTTP ${this.httpStatus}): ${this.detail}; body starts ${JSON.stringify(this.excerpt)}`
  }
}

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
export type CommandError = MessageError.PunchoutMessageError | PunchoutTransportError | RateLimited | MalformedResponse | InvalidInput

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
