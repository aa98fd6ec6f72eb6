/**
 * The one family of transport errors every Shoplink client, adapter and worker fails with when an
 * HTTP exchange goes wrong below the API's own answers: the request failed (`RequestFailed`, with
 * whether it may have reached the server), no answer in time (`Timeout`), an answer that is not
 * the API's (`UnexpectedResponse`: a gateway's HTML page, a body that does not parse, a shape the
 * schema refuses) and too many requests (`RateLimited`, with its `Retry-After`).
 *
 * Each is a `Schema.TaggedError` carrying the brand `TypeId`, so `isTransportError` recognises the
 * whole family whatever client raised it, and `Effect.catchTag("RequestFailed", …)` sees one shape
 * in every package.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"

/**
 * The brand every transport error carries.
 *
 * @example
 * import { TransportError } from "@shoplink/http"
 * const error = new TransportError.Timeout({ operation: "getOrder", detail: "no answer within 30s" })
 * TransportError.TypeId in error // true
 *
 * @since 0.1.0
 * @category type ids
 */
export const TypeId: unique symbol = Symbol.for("@shoplink/http/TransportError")

/**
 * The type of `TypeId`.
 *
 * @example
 * import type { TransportError } from "@shoplink/http"
 * type Brand = TransportError.TypeId
 *
 * @since 0.1.0
 * @category type ids
 */
export type TypeId = typeof TypeId

/**
 * How a caller should react, in the vocabulary of the protocol's message errors: `retryable`
 * (try again), `server` (the server failed; try again only if the request is idempotent) or
 * `invalid` (the same request will fail again).
 *
 * @example
 * import type { TransportError } from "@shoplink/http"
 * const retryClass: TransportError.RetryClass = "server"
 *
 * @since 0.1.0
 */
export type RetryClass = "retryable" | "server" | "invalid"

/**
 * The retry class of an HTTP error status, the one rule every status answer is judged by: 408 and
 * 429 `retryable`, 5xx `server`, anything else `invalid`. `UnexpectedResponse.retryClass` is this
 * of its `httpStatus`, and `Retry.retryableStatus` applies it to a request's idempotency.
 *
 * @example
 * import { TransportError } from "@shoplink/http"
 * TransportError.statusRetryClass(429) // "retryable"
 * TransportError.statusRetryClass(503) // "server"
 * TransportError.statusRetryClass(404) // "invalid"
 *
 * @since 0.1.0
 */
export const statusRetryClass = (status: number): RetryClass =>
  status === 408 || status === 429 ? "retryable" : status >= 500 ? "server" : "invalid"

// Fields every member has. `operation` names what was asked (a Punchout command, an Order
// Management operation, a shop-system call); `url` is always redacted by the client.
const common = {
  /** What was asked: `SubmitOrder`, `createOrder`, `getOrder`… */
  operation: Schema.String,
  /** The HTTP method, when the client records it. */
  method: Schema.optional(Schema.String),
  /** The URL with credentials replaced by `<redacted>`, when the client records it. */
  url: Schema.optional(Schema.String),
  /** The attempt that failed (1 for the first); after retries, the number of attempts made. */
  attempt: Schema.optionalWith(Schema.Number, { default: () => 1 }),
  /** What went wrong, without any secret. */
  detail: Schema.String
}

const where = (error: { readonly method?: string | undefined; readonly url?: string | undefined }) =>
  error.url === undefined ? "" : ` (${error.method === undefined ? "" : `${error.method} `}${error.url})`

const attemptText = (attempt: number) => attempt > 1 ? ` (attempt ${attempt})` : ""

/**
 * Why a request failed without an HTTP answer:
 * - `HostNotFound`: the host name did not resolve; the request never left the client.
 * - `ConnectionRefused`: no connection could be opened (refused, unreachable, connect timeout); the
 *   request provably never reached the server.
 * - `Transport`: the connection broke (reset, hang-up, TLS) after the request may have been sent.
 * - `InvalidRequest`: the request could not be built (a URL or body the HTTP client refuses); not
 *   sent, and sending it again would fail the same way.
 *
 * @example
 * import type { TransportError } from "@shoplink/http"
 * const reason: TransportError.RequestFailedReason = "ConnectionRefused"
 *
 * @since 0.1.0
 */
export type RequestFailedReason = "HostNotFound" | "ConnectionRefused" | "Transport" | "InvalidRequest"

/**
 * The request got no HTTP answer: see `RequestFailedReason`. `requestSent` is `false` only when
 * the request provably never reached the server, the one case in which a non-idempotent request
 * may be sent again.
 *
 * @example
 * import { TransportError } from "@shoplink/http"
 * const error = new TransportError.RequestFailed({
 *   operation: "SubmitOrder",
 *   reason: "ConnectionRefused",
 *   requestSent: false,
 *   detail: "connect ECONNREFUSED 127.0.0.1:1"
 * })
 * error.message // "SubmitOrder: ConnectionRefused: connect ECONNREFUSED 127.0.0.1:1"
 *
 * @since 0.1.0
 * @category errors
 */
export class RequestFailed extends Schema.TaggedError<RequestFailed>("@shoplink/http/RequestFailed")("RequestFailed", {
  ...common,
  reason: Schema.Literal("HostNotFound", "ConnectionRefused", "Transport", "InvalidRequest"),
  /** Whether the request may have reached the server. */
  requestSent: Schema.Boolean
}) {
  /** The brand of the family. */
  readonly [TypeId]: TypeId = TypeId
  /** A request that could not be built is `invalid`; any other failure is `retryable`. */
  get retryClass(): RetryClass {
    return this.reason === "InvalidRequest" ? "invalid" : "retryable"
  }
  override get message(): string {
    return `${this.operation}: ${this.reason}${attemptText(this.attempt)}: ${this.detail}${where(this)}`
  }
}

/**
 * No complete answer came within the deadline. The request may have reached the server.
 *
 * @example
 * import { TransportError } from "@shoplink/http"
 * const error = new TransportError.Timeout({
 *   operation: "GetProductQuotes",
 *   attempt: 3,
 *   detail: "no complete response within 2s"
 * })
 * error.message // "GetProductQuotes: Timeout (attempt 3): no complete response within 2s"
 *
 * @since 0.1.0
 * @category errors
 */
export class Timeout extends Schema.TaggedError<Timeout>("@shoplink/http/Timeout")("Timeout", {
  ...common
}) {
  /** The brand of the family. */
  readonly [TypeId]: TypeId = TypeId
  /** A timed-out request may have reached the server. */
  get requestSent(): true {
    return true
  }
  get retryClass(): RetryClass {
    return "retryable"
  }
  override get message(): string {
    return `${this.operation}: Timeout${attemptText(this.attempt)}: ${this.detail}${where(this)}`
  }
}

/**
 * Why an answer was not the API's:
 * - `HttpStatus`: an error status without a readable body of the API (a gateway's page);
 * - `EmptyBody`, `InvalidJson`: nothing, or something that is not JSON;
 * - `NotAnEnvelope`: JSON without the API's status envelope;
 * - `UnexpectedShape`: a success answer whose data the response schema refuses.
 *
 * @example
 * import type { TransportError } from "@shoplink/http"
 * const reason: TransportError.UnexpectedResponseReason = "InvalidJson"
 *
 * @since 0.1.0
 */
export type UnexpectedResponseReason = "HttpStatus" | "EmptyBody" | "InvalidJson" | "NotAnEnvelope" | "UnexpectedShape"

/**
 * The server (or something in front of it) answered, but not as the API does: see
 * `UnexpectedResponseReason`. `httpStatus` decides the retry class (`statusRetryClass`: 408 and
 * 429 `retryable`, 5xx `server`, anything else `invalid`). `excerpt` is the start of the body with secrets replaced by
 * `<redacted>`.
 *
 * @example
 * import { TransportError } from "@shoplink/http"
 * const error = new TransportError.UnexpectedResponse({
 *   operation: "createOrder",
 *   reason: "InvalidJson",
 *   httpStatus: 502,
 *   detail: "Unexpected token <",
 *   excerpt: "<html>Bad Gateway"
 * })
 * error.retryClass // "server"
 *
 * @since 0.1.0
 * @category errors
 */
export class UnexpectedResponse
  extends Schema.TaggedError<UnexpectedResponse>("@shoplink/http/UnexpectedResponse")("UnexpectedResponse", {
    ...common,
    reason: Schema.Literal("HttpStatus", "EmptyBody", "InvalidJson", "NotAnEnvelope", "UnexpectedShape"),
    httpStatus: Schema.Number,
    /** The start of the body, secrets redacted. */
    excerpt: Schema.optional(Schema.String),
    /** The response's `Retry-After`, when it sent one (e.g. a 503 during maintenance). */
    retryAfter: Schema.optional(Schema.DurationFromSelf)
  })
{
  /** The brand of the family. */
  readonly [TypeId]: TypeId = TypeId
  get retryClass(): RetryClass {
    return statusRetryClass(this.httpStatus)
  }
  override get message(): string {
    const body = this.excerpt === undefined ? "" : `; body starts ${JSON.stringify(this.excerpt)}`
    return `${this.operation}: ${this.reason} HTTP ${this.httpStatus}${
      attemptText(this.attempt)
    }: ${this.detail}${body}${where(this)}`
  }
}

/**
 * HTTP 429 without an answer of the API: too many requests. `retryAfter` is the response's
 * `Retry-After` when it sent one; the retry policy waits it up to `retryAfterCap`, and a longer
 * one ends the retries at once with this error, so the caller decides when to come back.
 *
 * @example
 * import { Duration, Effect } from "effect"
 * import type { TransportError } from "@shoplink/http"
 * const later = <A>(self: Effect.Effect<A, TransportError.RateLimited>) =>
 *   self.pipe(
 *     Effect.catchTag("RateLimited", (e) =>
 *       Effect.logWarning(`come back in ${Duration.format(e.retryAfter ?? Duration.minutes(1))}`))
 *   )
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimited extends Schema.TaggedError<RateLimited>("@shoplink/http/RateLimited")("RateLimited", {
  ...common,
  detail: Schema.optionalWith(Schema.String, { default: () => "too many requests" }),
  httpStatus: Schema.optionalWith(Schema.Number, { default: () => 429 }),
  /** The response's `Retry-After`, when it sent one. */
  retryAfter: Schema.optional(Schema.DurationFromSelf),
  /** The start of the body, secrets redacted. */
  excerpt: Schema.optional(Schema.String)
}) {
  /** The brand of the family. */
  readonly [TypeId]: TypeId = TypeId
  get retryClass(): RetryClass {
    return "retryable"
  }
  override get message(): string {
    const after = this.retryAfter === undefined ? "" : `, retry after ${Duration.format(this.retryAfter)}`
    return `${this.operation}: RateLimited HTTP ${this.httpStatus}${after}${attemptText(this.attempt)}${where(this)}`
  }
}

/**
 * Any member of the family.
 *
 * @example
 * import { Effect } from "effect"
 * import type { TransportError } from "@shoplink/http"
 * const log = (error: TransportError.TransportError) => Effect.logWarning(error.message)
 *
 * @since 0.1.0
 * @category errors
 */
export type TransportError = RequestFailed | Timeout | UnexpectedResponse | RateLimited

/**
 * Whether a value is a transport error, whatever client raised it.
 *
 * @example
 * import { TransportError } from "@shoplink/http"
 * TransportError.isTransportError(new TransportError.Timeout({ operation: "getOrder", detail: "late" })) // true
 * TransportError.isTransportError(new Error("boom")) // false
 *
 * @since 0.1.0
 * @category guards
 */
export const isTransportError = (u: unknown): u is TransportError => Predicate.hasProperty(u, TypeId)

/**
 * Whether an error proves its request never reached the server: a `RequestFailed` with
 * `requestSent: false` whose request could be built (a host that did not resolve, a refused
 * connection). Only then may a non-idempotent request be sent again.
 *
 * @example
 * import { TransportError } from "@shoplink/http"
 * TransportError.neverReachedServer(new TransportError.RequestFailed({
 *   operation: "CreateOrder", reason: "ConnectionRefused", requestSent: false, detail: "ECONNREFUSED"
 * })) // true
 *
 * @since 0.1.0
 * @category guards
 */
export const neverReachedServer = (u: unknown): boolean =>
  isTransportError(u) && u._tag === "RequestFailed" && !u.requestSent && u.reason !== "InvalidRequest"

/**
 * The `Retry-After` a transport error carries (`RateLimited`, `UnexpectedResponse`), if any.
 *
 * @example
 * import { Duration } from "effect"
 * import { TransportError } from "@shoplink/http"
 * const error = new TransportError.RateLimited({ operation: "getOrder", retryAfter: Duration.seconds(3) })
 * TransportError.retryAfterOf(error) // Duration.seconds(3)
 *
 * @since 0.1.0
 */
export const retryAfterOf = (u: unknown): Duration.Duration | undefined =>
  isTransportError(u) && (u._tag === "RateLimited" || u._tag === "UnexpectedResponse") ? u.retryAfter : undefined
