/**
 * What can go wrong talking to Shop-Ware, each as one line: the partner credentials refused
 * (`ShopWareAuthError`), a tenant the partner is not authorized for or may only read
 * (`ShopWareTenantNotAuthorized`), and any other failed call (`ShopWareError`, with the HTTP
 * status, Shop-Ware's message and whether the same call may succeed later).
 *
 * @since 0.1.0
 */
import { Exchange } from "@shoplink/http"
import * as Schema from "effect/Schema"

/**
 * Shop-Ware refused the partner credentials (`X-Api-Partner-Id` / `X-Api-Secret`): 401 or 403 on
 * the partner's authorizations. Never retried.
 *
 * @example
 * import { ShopWareError } from "@shoplink/adapter-shop-ware"
 * new ShopWareError.ShopWareAuthError({ status: 401, detail: "Unauthorized" }).message
 * // "Shop-Ware refused the partner credentials (HTTP 401: Unauthorized): check the shop's partnerId and apiSecret"
 *
 * @since 0.1.0
 */
export class ShopWareAuthError extends Schema.TaggedError<ShopWareAuthError>()("ShopWareAuthError", {
  status: Schema.Number,
  detail: Schema.String
}) {
  /** Never: the same credentials will be refused again. */
  get retryable(): boolean {
    return false
  }
  override get message(): string {
    return `Shop-Ware refused the partner credentials (HTTP ${this.status}: ${this.detail}): check the shop's partnerId and apiSecret`
  }
}

/**
 * The partner has no authorization for the tenant, or one that is not `writable` when the
 * operation writes (the distributor order is recorded on the repair order).
 *
 * @example
 * import { ShopWareError } from "@shoplink/adapter-shop-ware"
 * new ShopWareError.ShopWareTenantNotAuthorized({ tenant: "7", authorized: true, writable: false }).message
 * // "Shop-Ware tenant 7 is read-only for this partner (authorization not writable): ask the shop to grant
 * // write access"
 *
 * @since 0.1.0
 */
export class ShopWareTenantNotAuthorized
  extends Schema.TaggedError<ShopWareTenantNotAuthorized>()("ShopWareTenantNotAuthorized", {
    tenant: Schema.String,
    authorized: Schema.Boolean,
    writable: Schema.Boolean
  })
{
  /** Never: only the shop can change its authorization. */
  get retryable(): boolean {
    return false
  }
  override get message(): string {
    return this.authorized
      ? `Shop-Ware tenant ${this.tenant} is read-only for this partner (authorization not writable): ask the shop to grant write access`
      : `Shop-Ware tenant ${this.tenant} has not authorized this partner: check the shop's tenantId, or ask the shop to authorize Shoplink`
  }
}

/**
 * Why a call failed: no answer (`Transport`), too slow (`Timeout`), an HTTP error status
 * (`HttpStatus`, with `status`), an answer that is not what the OpenAPI describes (`Decode`), or a
 * request that could not be built (`InvalidRequest`).
 *
 * @example
 * import type { ShopWareError } from "@shoplink/adapter-shop-ware"
 * const reason: ShopWareError.Reason = "HttpStatus"
 *
 * @since 0.1.0
 */
export type Reason = Exchange.CallFailureReason

/**
 * A Shop-Ware call that failed after the retries its kind allows.
 *
 * @example
 * import { ShopWareError } from "@shoplink/adapter-shop-ware"
 * const error = new ShopWareError.ShopWareError({
 *   operation: "getRepairOrder", method: "GET", path: "/api/v1/tenants/1/repair_orders/42", reason: "HttpStatus",
 *   status: 429, detail: "Too Many Requests", requestSent: true, attempts: 4, retryAfterMillis: 60000
 * })
 * error.retryable // true
 *
 * @since 0.1.0
 */
export class ShopWareError extends Schema.TaggedError<ShopWareError>()("ShopWareError", Exchange.CallFailure) {
  /** Whether the same call may succeed later: no answer, a timeout, 408, 429 or a 5xx (`Retry`'s rule). */
  get retryable(): boolean {
    return Exchange.callRetryable(this)
  }
  /** Shop-Ware said the id does not exist. */
  get notFound(): boolean {
    return Exchange.callNotFound(this)
  }
  override get message(): string {
    return Exchange.describeCall("Shop-Ware", this)
  }
}

/**
 * Every failure of the client and the connector.
 *
 * @example
 * import type { ShopWareError } from "@shoplink/adapter-shop-ware"
 * const line = (error: ShopWareError.AnyShopWareError) => `${error._tag}: ${error.message}`
 *
 * @since 0.1.0
 */
export type AnyShopWareError = ShopWareError | ShopWareAuthError | ShopWareTenantNotAuthorized
