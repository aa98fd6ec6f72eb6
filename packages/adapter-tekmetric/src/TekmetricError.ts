/**
 * What can go wrong talking to Tekmetric, each as one line: the client credentials refused
 * (`TekmetricAuthError`), a shop the token does not cover (`TekmetricShopNotInScope`), and any
 * other failed call (`TekmetricError`, with the HTTP status, Tekmetric's message and whether the
 * same call may succeed later).
 *
 * @since 0.1.0
 */
import { Exchange } from "@shoplink/http"
import * as Schema from "effect/Schema"

/**
 * Tekmetric refused the OAuth client credentials (401 from `POST /api/v1/oauth/token`): a wrong
 * client ID or secret, or credentials Tekmetric revoked. Never retried.
 *
 * @example
 * import { TekmetricError } from "@shoplink/adapter-tekmetric"
 * new TekmetricError.TekmetricAuthError({ status: 401, detail: "Bad credentials" }).message
 * // "Tekmetric refused the client credentials (HTTP 401: Bad credentials): check the shop's clientId and clientSecret"
 *
 * @since 0.1.0
 */
export class TekmetricAuthError extends Schema.TaggedError<TekmetricAuthError>()("TekmetricAuthError", {
  status: Schema.Number,
  detail: Schema.String
}) {
  /** Never: the same credentials will be refused again. */
  get retryable(): boolean {
    return false
  }
  override get message(): string {
    return `Tekmetric refused the client credentials (HTTP ${this.status}: ${this.detail}): check the shop's clientId and clientSecret`
  }
}

/**
 * The Tekmetric shop asked for is not in the token's scope (the scope lists the shop IDs the
 * client credentials may reach), or the credentials cover several shops and none was chosen.
 *
 * @example
 * import { TekmetricError } from "@shoplink/adapter-tekmetric"
 * new TekmetricError.TekmetricShopNotInScope({ shop: "9", scope: ["1", "2"] }).message
 * // "Tekmetric shop 9 is not in the token's scope (shops 1, 2)"
 *
 * @since 0.1.0
 */
export class TekmetricShopNotInScope extends Schema.TaggedError<TekmetricShopNotInScope>()("TekmetricShopNotInScope", {
  /** The shop asked for; undefined when none was configured and the scope has several. */
  shop: Schema.optional(Schema.String),
  scope: Schema.Array(Schema.String)
}) {
  /** Never: the scope changes only when Tekmetric grants another shop. */
  get retryable(): boolean {
    return false
  }
  override get message(): string {
    const shops = this.scope.length === 0 ? "no shop" : `shops ${this.scope.join(", ")}`
    return this.shop === undefined
      ? `the Tekmetric credentials cover ${shops}: set the shop's secret tekmetricShopId to one of them`
      : `Tekmetric shop ${this.shop} is not in the token's scope (${shops})`
  }
}

/**
 * Why a call failed: no answer (`Transport`), too slow (`Timeout`), an HTTP error status
 * (`HttpStatus`, with `status`), an answer that is not what the documentation describes
 * (`Decode`), or a request that could not be built (`InvalidRequest`).
 *
 * @example
 * import type { TekmetricError } from "@shoplink/adapter-tekmetric"
 * const reason: TekmetricError.Reason = "HttpStatus"
 *
 * @since 0.1.0
 */
export type Reason = Exchange.CallFailureReason

/**
 * A Tekmetric call that failed after the retries its kind allows.
 *
 * @example
 * import { TekmetricError } from "@shoplink/adapter-tekmetric"
 * const error = new TekmetricError.TekmetricError({
 *   operation: "getRepairOrder", method: "GET", path: "/api/v1/repair-orders/42", reason: "HttpStatus",
 *   status: 429, detail: "Too Many Requests", requestSent: true, attempts: 4, retryAfterMillis: 60000
 * })
 * error.retryable // true
 *
 * @since 0.1.0
 */
export class TekmetricError extends Schema.TaggedError<TekmetricError>()("TekmetricError", Exchange.CallFailure) {
  /** Whether the same call may succeed later: no answer, a timeout, 408, 429 or a 5xx (`Retry`'s rule). */
  get retryable(): boolean {
    return Exchange.callRetryable(this)
  }
  /** Tekmetric said the id does not exist. */
  get notFound(): boolean {
    return Exchange.callNotFound(this)
  }
  override get message(): string {
    return Exchange.describeCall("Tekmetric", this)
  }
}

/**
 * Every failure of the client.
 *
 * @example
 * import type { TekmetricError } from "@shoplink/adapter-tekmetric"
 * const line = (error: TekmetricError.AnyTekmetricError) => `${error._tag}: ${error.message}`
 *
 * @since 0.1.0
 */
export type AnyTekmetricError = TekmetricError | TekmetricAuthError | TekmetricShopNotInScope
