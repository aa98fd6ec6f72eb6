/**
 * The error channel of the Order Management client: every message ID of the API as its own class
 * from `@shoplink/protocol`, the two message errors it enriches (API0327, API0500), and the errors
 * every Shoplink client shares (`@shoplink/http`: input or settings refused, the transport errors),
 * re-exported here.
 *
 * @since 0.1.0
 */
import type { TransportError } from "@shoplink/http"
import type { ConfigurationError, InvalidInput } from "@shoplink/http/InvalidInput"
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

// The errors every Shoplink client shares, defined and documented once in `@shoplink/http`.
export { ConfigurationError, InvalidInput } from "@shoplink/http/InvalidInput"
export { RateLimited, RequestFailed, Timeout, UnexpectedResponse } from "@shoplink/http/TransportError"

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
  code: Schema.Literal("API0327").pipe(
    Schema.propertySignature,
    Schema.withConstructorDefault(() => "API0327" as const)
  ),
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
    return `API0327: ${this.text}${
      this.recommendationText === "" ? "" : ` — ${this.recommendationText}`
    } (HTTP ${this.httpStatus}${
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
 *   self.pipe(
 *     Effect.catchTags({
 *       MonthlyLimitExceeded: () => Effect.succeed(undefined),
 *       OrderLocked: () => Effect.succeed(undefined)
 *     })
 *   )
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

// Whether a value is one of this client's errors (message errors included).
const isOrderManagementError = (u: unknown): u is OrderManagementError | ConfigurationError =>
  MessageError.isMessageError(u) ||
  (Predicate.hasProperty(u, "_tag") && typeof u._tag === "string" && clientTags.has(u._tag))

/**
 * Selects errors of one retry class, for `Effect.catchIf`: works for message errors and for the
 * client's own errors alike (a `ConfigurationError`, which has no retry class, counts as `auth`).
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
export const hasRetryClass = (retryClass: RetryClass) => (u: unknown): u is OrderManagementError | ConfigurationError =>
  isOrderManagementError(u) && (u._tag === "ConfigurationError" ? "auth" : u.retryClass) === retryClass
