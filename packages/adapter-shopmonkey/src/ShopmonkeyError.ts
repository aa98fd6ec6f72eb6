/**
 * The one error of the Shopmonkey client: what was asked, how it failed, and whether the same call
 * may succeed later. Shopmonkey's error body is `{ success: false, message, code? }`; its HTTP
 * status says the family (401 bad key, 403 no permission, 404 unknown id, 429 rate limited, 5xx).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * How a request failed:
 * - `Transport` — no response (connection refused or reset, DNS), see `requestSent`;
 * - `Timeout` — no response within the client's timeout;
 * - `HttpStatus` — Shopmonkey answered an error status or `success: false`;
 * - `Decode` — a success answer whose body is not the documented shape;
 * - `InvalidRequest` — the request could not be built (bad base URL, unserializable body); not sent.
 *
 * @example
 * import type { ShopmonkeyError } from "@shoplink/adapter-shopmonkey"
 * const reason: ShopmonkeyError.Reason = "HttpStatus"
 *
 * @since 0.1.0
 */
export type Reason = "Transport" | "Timeout" | "HttpStatus" | "Decode" | "InvalidRequest"

/**
 * A failed Shopmonkey call. The API key never appears in it (it travels only in the
 * `Authorization` header, which is not recorded).
 *
 * @example
 * import { ShopmonkeyError } from "@shoplink/adapter-shopmonkey"
 * const error = new ShopmonkeyError.ShopmonkeyError({
 *   operation: "getOrder", method: "GET", path: "/order/ord_1", reason: "HttpStatus", status: 429,
 *   detail: "Too Many Requests", requestSent: true, attempts: 5
 * })
 * error.retryable // true
 *
 * @since 0.1.0
 */
export class ShopmonkeyError extends Schema.TaggedError<ShopmonkeyError>()("ShopmonkeyError", {
  /** The client operation (`getOrder`, `createPart`, …). */
  operation: Schema.String,
  method: Schema.String,
  /** Path below the base URL, without query string. */
  path: Schema.String,
  reason: Schema.Literal("Transport", "Timeout", "HttpStatus", "Decode", "InvalidRequest"),
  /** HTTP status when Shopmonkey answered. */
  status: Schema.optional(Schema.Number),
  /** Shopmonkey's error `code`, when the body had one. */
  code: Schema.optional(Schema.String),
  detail: Schema.String,
  /** Whether the request may have reached Shopmonkey. */
  requestSent: Schema.Boolean,
  /** Attempts made, retries included. */
  attempts: Schema.Number,
  /** The `Retry-After` of the last 429, in milliseconds. */
  retryAfterMillis: Schema.optional(Schema.Number)
}) {
  /**
   * Whether the same call may succeed later: no response, a timeout, 408, 429 or a 5xx.
   * Authentication (401/403), unknown ids (404) and invalid input (4xx) are not retryable.
   */
  get retryable(): boolean {
    if (this.reason === "Transport" || this.reason === "Timeout") return true
    if (this.reason === "HttpStatus" && this.status !== undefined) {
      return this.status === 408 || this.status === 429 || this.status >= 500
    }
    return false
  }

  /** Shopmonkey said the id does not exist. */
  get notFound(): boolean {
    return this.reason === "HttpStatus" && this.status === 404
  }

  override get message(): string {
    const status = this.status === undefined ? "" : ` ${this.status}${this.code === undefined ? "" : ` ${this.code}`}`
    const tries = this.attempts > 1 ? ` after ${this.attempts} attempts` : ""
    return `Shopmonkey ${this.operation} (${this.method} ${this.path}) failed: ${this.reason}${status}: ${this.detail}${tries}`
  }
}
