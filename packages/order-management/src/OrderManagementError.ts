/**
 * The error channel of the Order Management client: every message ID of the API as its own class
 * from `@shoplink/protocol`, plus the client's own failures (bad input, bad configuration,
 * transport, unexpected responses) and the two message errors it enriches (API0327, API0500).
 *
 * @since 0.1.0
 */
import { MessageError, type MessageCatalog, OrderManagement, SomethingWentWrong } from "@shoplink/protocol"
import { Duration, Predicate, Schema } from "effect"

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
 * Input refused by the client before any request was sent: which field, which rule, and the
 * message ID the server would have answered with when the rule mirrors one (API0263–API0266,
 * API0304, …). Its message is one line, the field then the rule:
 * `Invalid input: searchText must be 3 or more characters, got 2 (API0304)`.
 *
 * @example
 * import { Effect } from "effect"
 * import { OrderManagementError } from "@shoplink/order-management"
 * const program = Effect.fail(new OrderManagementError.InvalidInput({ field: "toDate", rule: "must not be in the future", code: "API0264" }))
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  field: Schema.String,
  rule: Schema.String,
  code: Schema.optional(Schema.String)
}) {
  /** Bad input is never retried. */
  get retryClass(): RetryClass {
    return "invalid"
  }
  override get message(): string {
    return `Invalid input: ${this.field === "" ? "request" : this.field} ${this.rule}${
      this.code === undefined ? "" : ` (${this.code})`
    }`
  }
}

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
 * The request got no HTTP response: the host name did not resolve (`HostNotFound`: `ENOTFOUND`,
 * or `EAI_AGAIN` when the resolver could not answer), the connection failed (`Connect`: refused,
 * unreachable), in both cases before the server saw the request; the connection broke mid-way
 * (`Transport`), or no answer came within the timeout (`Timeout`). `url` is redacted
 * (`APIToken=<redacted>`).
 *
 * @example
 * import { OrderManagementError } from "@shoplink/order-management"
 * const error = new OrderManagementError.RequestFailed({
 *   reason: "Connect", method: "GET", url: "http://127.0.0.1:1/web/services/US_QUA/accountDetails?APIToken=<redacted>", detail: "ECONNREFUSED"
 * })
 * error.retryClass // "retryable"
 *
 * @since 0.1.0
 * @category errors
 */
export class RequestFailed extends Schema.TaggedError<RequestFailed>()("RequestFailed", {
  reason: Schema.Literal("HostNotFound", "Connect", "Transport", "Timeout"),
  method: Schema.String,
  url: Schema.String,
  detail: Schema.String
}) {
  get retryClass(): RetryClass {
    return "retryable"
  }
  override get message(): string {
    return `${this.reason} failure: ${this.detail} (${this.method} ${this.url})`
  }
}

/**
 * An HTTP response that is not a status envelope (an HTML error page, a proxy's 503, a body the
 * response schema refuses). `httpStatus` decides the retry class: 408/429 `retryable`, 5xx
 * `server`, anything else `invalid`.
 *
 * @example
 * import { OrderManagementError } from "@shoplink/order-management"
 * const error = new OrderManagementError.UnexpectedResponse({
 *   httpStatus: 503, method: "POST", url: "http://host/web/services/US_QUA/createOrder?APIToken=<redacted>", detail: "not JSON"
 * })
 * error.retryClass // "server"
 *
 * @since 0.1.0
 * @category errors
 */
export class UnexpectedResponse extends Schema.TaggedError<UnexpectedResponse>()("UnexpectedResponse", {
  httpStatus: Schema.Number,
  method: Schema.String,
  url: Schema.String,
  detail: Schema.String,
  /** The response's `Retry-After`, when it sent one (e.g. a 503 during maintenance). */
  retryAfter: Schema.optional(Schema.DurationFromSelf)
}) {
  get retryClass(): RetryClass {
    return this.httpStatus === 408 || this.httpStatus === 429
      ? "retryable"
      : this.httpStatus >= 500
      ? "server"
      : "invalid"
  }
  override get message(): string {
    return `Unexpected response (HTTP ${this.httpStatus}): ${this.detail} (${this.method} ${this.url})`
  }
}

/**
 * HTTP 429 without a status envelope: too many requests (the monthly allowance, API0208, is
 * `MonthlyLimitExceeded` instead). `retryAfter` is the response's `Retry-After` when it sent one.
 * Reads retry it, waiting `retryAfter`; a `retryAfter` above `retryAfterCap` ends the retries at
 * once with this error, so the caller decides when to come back. `url` is redacted.
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
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  httpStatus: Schema.Number,
  method: Schema.String,
  url: Schema.String,
  /** The response's `Retry-After`, when it sent one. */
  retryAfter: Schema.optional(Schema.DurationFromSelf)
}) {
  get retryClass(): RetryClass {
    return "retryable"
  }
  override get message(): string {
    const after = this.retryAfter === undefined ? "" : `, retry after ${Duration.format(this.retryAfter)}`
    return `Rate limited (HTTP ${this.httpStatus}${after}) (${this.method} ${this.url})`
  }
}

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
export type OrderManagementError = ApiError | InvalidInput | RequestFailed | RateLimited | UnexpectedResponse

const clientTags: ReadonlySet<string> = new Set([
  "InvalidInput",
  "RequestFailed",
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
