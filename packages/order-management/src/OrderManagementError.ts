/**
 * The error channel of the Order Management client: every message ID of the API as its own class
 * from `@shoplink/protocol`, plus the client's own failures (bad input, bad configuration,
 * transport, unexpected responses) and the two message errors it enriches (API0327, API0500).
 *
 * @since 0.1.0
 */
import { InvalidInput as Invalid, TransportError } from "@shoplink/http"
import { MessageError, type MessageCatalog, OrderManagement, SomethingWentWrong } from "@shoplink/protocol"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"

/**
 * How a caller should react to an error (`retryable`, `quota`, `auth`, `invalid`, `state`,
 * `server`), shared with the protocol's message errors.
 *
 * @example
 * import type { OrderManagementError } from "@shoplink/order-management"
 * const retryClass: OrderManagementError.RetryClass = "quota"
 *
 * @since 0.1.0
 */
export type RetryClass = MessageCatalog.RetryClass

/**
 * Input refused by the client before any request was sent: the one `InvalidInput` of every
 * Shoplink client (`@shoplink/http`). `operation` is the call, `field` the path, `rule` the broken
 * rule, and `code` the message ID the server would have answered with when the rule mirrors one
 * (API0263–API0266, API0304, …). Its message is one line, the field then the rule:
 * `searchText must be 3 or more characters, got 2 (API0304)`. Its retry class is `invalid`.
 *
 * @example
 * import { Effect } from "effect"
 * import { OrderManagementError } from "@shoplink/order-management"
 * const program = Effect.fail(
 *   new OrderManagementError.InvalidInput({ operation: "invoiceDetails", field: "toDate", rule: "must not be in the future", code: "API0264" })
 * )
 *
 * @since 0.1.0
 * @category errors
 */
export const InvalidInput = Invalid.InvalidInput

/**
 * The type of `InvalidInput`.
 *
 * @example
 * import type { OrderManagementError } from "@shoplink/order-management"
 * const codeOf = (error: OrderManagementError.InvalidInput) => error.code
 *
 * @since 0.1.0
 * @category errors
 */
export type InvalidInput = Invalid.InvalidInput

/**
 * The client cannot be built as configured (for example an empty key, a production environment
 * with a test key, no host for the environment's tier, a host that does not parse, or a timeout
 * that is not a duration). Raised when the layer is built, before any request; the Punchout
 * client's `ConfigurationError` has the same tag and fields.
 *
 * @example
 * import { OrderManagementError } from "@shoplink/order-management"
 * new OrderManagementError.ConfigurationError({ setting: "apiKey", problem: "a test key cannot call US_PRD" }).message
 *
 * @since 0.1.0
 * @category errors
 */
export class ConfigurationError extends Schema.TaggedError<ConfigurationError>()("ConfigurationError", {
  setting: Schema.String,
  problem: Schema.String
}) {
  get retryClass(): RetryClass {
    return "auth"
  }
  override get message(): string {
    return `Order Management client configuration: ${this.setting}: ${this.problem}`
  }
}

/**
 * The request got no HTTP response (`@shoplink/http`'s `TransportError.RequestFailed`): the host
 * name did not resolve (`HostNotFound`) or the connection failed (`ConnectionRefused`, formerly
 * `Connect`), in both cases before the server saw the request (`requestSent: false`); or the
 * connection broke mid-way (`Transport`). `url` is redacted (`APIToken=<redacted>`). A timeout is
 * `Timeout` (formerly this class with reason `Timeout`).
 *
 * @example
 * import { OrderManagementError } from "@shoplink/order-management"
 * const error = new OrderManagementError.RequestFailed({
 *   operation: "accountDetails", reason: "ConnectionRefused", requestSent: false, method: "GET",
 *   url: "http://127.0.0.1:1/web/services/US_QUA/accountDetails?APIToken=<redacted>", detail: "ECONNREFUSED"
 * })
 * error.retryClass // "retryable"
 *
 * @since 0.1.0
 * @category errors
 */
export const RequestFailed = TransportError.RequestFailed

/**
 * The type of `RequestFailed`.
 *
 * @example
 * import type { OrderManagementError } from "@shoplink/order-management"
 * const neverSent = (error: OrderManagementError.RequestFailed) => !error.requestSent
 *
 * @since 0.1.0
 * @category errors
 */
export type RequestFailed = TransportError.RequestFailed

/**
 * No complete answer within the client's `timeout` (`@shoplink/http`'s `TransportError.Timeout`);
 * the server may have acted. Retry class `retryable`.
 *
 * @example
 * import { OrderManagementError } from "@shoplink/order-management"
 * new OrderManagementError.Timeout({ operation: "orderDetails", detail: "no complete response within 30s" }).retryClass // "retryable"
 *
 * @since 0.1.0
 * @category errors
 */
export const Timeout = TransportError.Timeout

/**
 * The type of `Timeout`.
 *
 * @example
 * import type { OrderManagementError } from "@shoplink/order-management"
 * const attempts = (error: OrderManagementError.Timeout) => error.attempt
 *
 * @since 0.1.0
 * @category errors
 */
export type Timeout = TransportError.Timeout

/**
 * An HTTP response that is not a status envelope (`@shoplink/http`'s
 * `TransportError.UnexpectedResponse`): an HTML error page, a proxy's 503, a body the response
 * schema refuses. `httpStatus` decides the retry class: 408/429 `retryable`, 5xx `server`,
 * anything else `invalid`. `retryAfter` is the response's `Retry-After` when it sent one.
 *
 * @example
 * import { OrderManagementError } from "@shoplink/order-management"
 * const error = new OrderManagementError.UnexpectedResponse({
 *   operation: "createOrder", reason: "InvalidJson", httpStatus: 503, method: "POST",
 *   url: "http://host/web/services/US_QUA/createOrder?APIToken=<redacted>", detail: "body is not JSON"
 * })
 * error.retryClass // "server"
 *
 * @since 0.1.0
 * @category errors
 */
export const UnexpectedResponse = TransportError.UnexpectedResponse

/**
 * The type of `UnexpectedResponse`.
 *
 * @example
 * import type { OrderManagementError } from "@shoplink/order-management"
 * const status = (error: OrderManagementError.UnexpectedResponse) => error.httpStatus
 *
 * @since 0.1.0
 * @category errors
 */
export type UnexpectedResponse = TransportError.UnexpectedResponse

/**
 * HTTP 429 without a status envelope (`@shoplink/http`'s `TransportError.RateLimited`): too many
 * requests (the monthly allowance, API0208, is `MonthlyLimitExceeded` instead). Reads retry it,
 * waiting `retryAfter`; a `retryAfter` above `retryAfterCap` ends the retries at once with this
 * error, so the caller decides when to come back. `url` is redacted.
 *
 * @example
 * import { Duration, Effect } from "effect"
 * import type { OrderManagementError } from "@shoplink/order-management"
 * const later = <A>(self: Effect.Effect<A, OrderManagementError.RateLimited>) =>
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
 * import type { OrderManagementError } from "@shoplink/order-management"
 * const after = (error: OrderManagementError.RateLimited) => error.retryAfter
 *
 * @since 0.1.0
 * @category errors
 */
export type RateLimited = TransportError.RateLimited

/**
 * What support needs about a failed call (the spec's API0500 row: "report the call, header and
 * payload to support"), with the credentials replaced by `<redacted>`.
 *
 * @example
 * import { OrderManagementError } from "@shoplink/order-management"
 * const report: OrderManagementError.SupportReport = {
 *   method: "POST", path: "/web/services/US_QUA/createOrder", query: { APIToken: "<redacted>" },
 *   headers: { APIKey: "<redacted>", accept: "application/json" }, payload: { customerAccountNo: "100200" }
 * }
 *
 * @since 0.1.0
 */
export interface SupportReport {
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  readonly headers: Readonly<Record<string, string>>
  readonly payload: unknown
}

/**
 * API0500 ("Something went wrong, that's all we know") with the `SupportReport` of the call. It is
 * the protocol's `SomethingWentWrong` (same `_tag`, `instanceof` holds), so
 * `Effect.catchTag("SomethingWentWrong", …)` sees the `support` field.
 *
 * @example
 * import { Effect } from "effect"
 * import type { OrderManagementError } from "@shoplink/order-management"
 * const report = <A>(self: Effect.Effect<A, OrderManagementError.SomethingWentWrongWithReport>) =>
 *   self.pipe(Effect.catchTag("SomethingWentWrong", (error) => Effect.logError("for support", error.support)))
 *
 * @since 0.1.0
 * @category errors
 */
export class SomethingWentWrongWithReport extends SomethingWentWrong {
  constructor(
    props: ConstructorParameters<typeof SomethingWentWrong>[0],
    /** The call as support needs it, credentials redacted. */
    readonly support: SupportReport
  ) {
    super(props)
  }
  override get message(): string {
    return `${super.message} [${this.support.method} ${this.support.path}]`
  }
}

/**
 * API0327 ("Drop ship address update is recommended") on createOrder: the address was refused.
 * Carries the order as sent, the address as the server received it, the recommendation text and
 * the standardized address when the server offered one. `OrderManagementClient` has
 * `resubmitWithRecommendation` to send the order again with the recommended address.
 *
 * @example
 * import { Effect } from "effect"
 * import type { OrderManagementError } from "@shoplink/order-management"
 * const explain = <A>(self: Effect.Effect<A, OrderManagementError.DropShipAddressRejected>) =>
 *   self.pipe(Effect.catchTag("DropShipAddressRejected", (error) => Effect.succeed(error.recommendationText)))
 *
 * @since 0.1.0
 * @category errors
 */
export class DropShipAddressRejected extends Schema.TaggedError<DropShipAddressRejected>()("DropShipAddressRejected", {
  code: Schema.Literal("API0327").pipe(Schema.propertySignature, Schema.withConstructorDefault(() => "API0327" as const)),
  text: Schema.String,
  httpStatus: Schema.Number,
  referenceID: Schema.optional(Schema.String),
  /** The createOrder request that was refused (without customerAccountNo credentials). */
  order: Schema.typeSchema(OrderManagement.CreateOrderRequest),
  /** `recommendedDropShipAddress.inputAddress`, or the address sent when the server gave none. */
  inputAddress: Schema.optional(Schema.typeSchema(OrderManagement.ShippingAddress)),
  recommendationText: Schema.String,
  recommendedAddress: Schema.optional(Schema.typeSchema(OrderManagement.ShippingAddress))
}) {
  /** The address must change before the order can ship. */
  get retryClass(): RetryClass {
    return "invalid"
  }
  override get message(): string {
    return `API0327: ${this.text}${this.recommendationText === "" ? "" : ` — ${this.recommendationText}`} (HTTP ${this.httpStatus}${
      this.recommendedAddress === undefined ? ", no recommendation" : ", recommendation available"
    })`
  }
}

/**
 * Every message error the Order Management API answers with. The client enriches two: API0500
 * arrives as `SomethingWentWrongWithReport`, and API0327 on createOrder as `DropShipAddressRejected`
 * (`DropShipAddressRecommended` stays possible from other endpoints, which the spec does not rule
 * out).
 *
 * @example
 * import type { OrderManagementError } from "@shoplink/order-management"
 * const codeOf = (error: OrderManagementError.ApiError) => error.code
 *
 * @since 0.1.0
 * @category errors
 */
export type ApiError =
  | Exclude<MessageError.OrderManagementMessageError, { readonly _tag: "SomethingWentWrong" }>
  | SomethingWentWrongWithReport
  | DropShipAddressRejected

/**
 * Everything a client call can fail with (configuration errors happen when the layer is built).
 *
 * @example
 * import { Effect } from "effect"
 * import type { OrderManagementError } from "@shoplink/order-management"
 * const quiet = <A>(self: Effect.Effect<A, OrderManagementError.OrderManagementError>) =>
 *   self.pipe(Effect.catchTags({ MonthlyLimitExceeded: () => Effect.succeed(undefined), OrderLocked: () => Effect.succeed(undefined) }))
 *
 * @since 0.1.0
 * @category errors
 */
export type OrderManagementError = ApiError | InvalidInput | TransportError.TransportError

const clientTags: ReadonlySet<string> = new Set([
  "InvalidInput",
  "RequestFailed",
  "Timeout",
  "RateLimited",
  "UnexpectedResponse",
  "DropShipAddressRejected",
  "ConfigurationError"
])

/**
 * Whether a value is one of this client's errors (message errors included).
 *
 * @example
 * import { OrderManagementError } from "@shoplink/order-management"
 * OrderManagementError.isOrderManagementError(new Error("x")) // false
 *
 * @since 0.1.0
 * @category guards
 */
export const isOrderManagementError = (u: unknown): u is OrderManagementError | ConfigurationError =>
  MessageError.isMessageError(u) ||
  (Predicate.hasProperty(u, "_tag") && typeof u._tag === "string" && clientTags.has(u._tag))

/**
 * Selects errors of one retry class, for `Effect.catchIf`: works for message errors and for the
 * client's own errors alike.
 *
 * @example
 * import { Effect } from "effect"
 * import { OrderManagementError } from "@shoplink/order-management"
 * const skipQuota = <A, E>(self: Effect.Effect<A, E>) =>
 *   self.pipe(Effect.catchIf(OrderManagementError.hasRetryClass("quota"), () => Effect.void))
 *
 * @since 0.1.0
 * @category guards
 */
export const hasRetryClass = (retryClass: RetryClass) =>
(u: unknown): u is OrderManagementError | ConfigurationError =>
  isOrderManagementError(u) && u.retryClass === retryClass
