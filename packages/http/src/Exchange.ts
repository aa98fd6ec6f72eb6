/**
 * The HTTP exchanges of an SMS client: one exchange (`send`), with its failure as the shared
 * `TransportError` the retry policy acts on (the status, the body text and the `Retry-After`
 * header, or a `Timeout` or a `RequestFailed` that says whether the request can have reached the
 * server); an error status the retries act on (`retryableStatusError`); the failure a call ends
 * with after its retries (`CallFailure`, with `retryable` and `notFound` by `Retry`'s rule, and
 * `fromTransportError`); and a list followed page after page (`allPages`).
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Retry from "./Retry.js"
import * as Transport from "./Transport.js"
import * as TransportError from "./TransportError.js"

/**
 * What the server answered: its status, the body as text and its `Retry-After` header.
 *
 * @example
 * import type { Exchange } from "@shoplink/http"
 * const answer: Exchange.Answer = { status: 429, text: "", retryAfter: "2" }
 *
 * @since 0.1.0
 */
export interface Answer {
  readonly status: number
  readonly text: string
  readonly retryAfter: string | undefined
}

/**
 * Sends `request` once, waiting at most `timeout` for the whole answer. The failure names
 * `operation`, the request's method and `baseUrl` plus its path (never its query, which may carry
 * a secret) and `attempt`.
 *
 * @example
 * import { HttpClient, HttpClientRequest } from "@effect/platform"
 * import { Effect } from "effect"
 * import { Exchange } from "@shoplink/http"
 * const answer = Effect.flatMap(HttpClient.HttpClient, (http) =>
 *   Exchange.send(http, HttpClientRequest.get("https://api.example.com/v1/orders"), {
 *     operation: "listOrders",
 *     attempt: 1,
 *     timeout: "15 seconds",
 *     baseUrl: "https://api.example.com"
 *   }))
 *
 * @since 0.1.0
 */
export const send = (
  http: HttpClient.HttpClient,
  request: HttpClientRequest.HttpClientRequest,
  call: {
    readonly operation: string
    readonly attempt: number
    readonly timeout: Duration.DurationInput
    readonly baseUrl: string
  }
): Effect.Effect<Answer, TransportError.Timeout | TransportError.RequestFailed> => {
  const { attempt, baseUrl, operation } = call
  const timeout = Duration.decode(call.timeout)
  return http.execute(request).pipe(
    Effect.flatMap((response) =>
      Effect.map(
        response.text,
        (text) => ({ status: response.status, text, retryAfter: response.headers["retry-after"] })
      )
    ),
    Effect.timeout(timeout),
    Effect.mapError((error) => {
      const url = `${baseUrl}${new URL(request.url).pathname}`
      if (error._tag === "TimeoutException") {
        return new TransportError.Timeout({
          operation,
          method: request.method,
          url,
          attempt,
          detail: `no answer within ${Duration.format(timeout)}`
        })
      }
      if (error._tag === "RequestError" && error.reason !== "Transport") {
        return new TransportError.RequestFailed({
          operation,
          method: request.method,
          url,
          attempt,
          reason: "InvalidRequest",
          requestSent: false,
          detail: Transport.describeCause(error.cause ?? error)
        })
      }
      const cause = error._tag === "RequestError" ? error.cause : error
      return new TransportError.RequestFailed({
        operation,
        method: request.method,
        url,
        attempt,
        reason: Transport.notSentReason(cause) ?? "Transport",
        requestSent: !Transport.neverSent(cause),
        detail: Transport.describeCause(cause ?? error)
      })
    })
  )
}

/**
 * Which call of an SMS client: its operation, method and path (below the base URL, no query).
 *
 * @example
 * import type { Exchange } from "@shoplink/http"
 * const where: Exchange.Where = { operation: "getRepairOrder", method: "GET", path: "/api/v1/repair-orders/42" }
 *
 * @since 0.1.0
 */
export interface Where {
  readonly operation: string
  readonly method: string
  readonly path: string
}

/**
 * An error status the retries act on (`Retry.retryableStatus`: 408, 429, 5xx) as the transport
 * error they read: `RateLimited` for 429, `UnexpectedResponse` (`HttpStatus`) otherwise, each with
 * the answer's `Retry-After` (read at `now`, Clock milliseconds) and `detail`, the SMS's message.
 * `undefined` for any other status: the client's own final error.
 *
 * @example
 * import { Exchange } from "@shoplink/http"
 * const where = { operation: "getRepairOrder", method: "GET", path: "/api/v1/repair-orders/42" }
 * const answer = { status: 429, text: "", retryAfter: "2" }
 * const context = { baseUrl: "https://api.example.com", attempt: 1, now: 0, detail: "slow down" }
 * Exchange.retryableStatusError(where, answer, context) // RateLimited, retryAfter 2 seconds
 * Exchange.retryableStatusError(where, { ...answer, status: 404 }, context) // undefined
 *
 * @since 0.1.0
 */
export const retryableStatusError = (
  where: Where,
  answer: Answer,
  context: { readonly baseUrl: string; readonly attempt: number; readonly now: number; readonly detail: string }
): TransportError.RateLimited | TransportError.UnexpectedResponse | undefined => {
  if (!Retry.retryableStatus(answer.status)) return undefined
  const retryAfterMillis = Transport.retryAfterMillis(answer.retryAfter, context.now)
  const common = {
    operation: where.operation,
    method: where.method,
    url: `${context.baseUrl}${where.path}`,
    attempt: context.attempt,
    detail: context.detail,
    ...(retryAfterMillis === undefined ? {} : { retryAfter: Duration.millis(retryAfterMillis) })
  }
  return answer.status === 429
    ? new TransportError.RateLimited(common)
    : new TransportError.UnexpectedResponse({ ...common, reason: "HttpStatus", httpStatus: answer.status })
}

/**
 * Why an SMS call failed: no answer (`Transport`), too slow (`Timeout`), an HTTP error status
 * (`HttpStatus`, with `status`), an answer that is not what the SMS documents (`Decode`), or a
 * request that could not be built (`InvalidRequest`).
 *
 * @example
 * import type { Exchange } from "@shoplink/http"
 * const reason: Exchange.CallFailureReason = "HttpStatus"
 *
 * @since 0.1.0
 */
export type CallFailureReason = "Transport" | "Timeout" | "HttpStatus" | "Decode" | "InvalidRequest"

/**
 * The fields of the error an SMS client's call fails with after its retries, for the client's
 * own `Schema.TaggedError` (`TekmetricError`, `ShopWareError`…), whose getters are
 * `callRetryable`, `callNotFound` and `describeCall` of itself.
 *
 * @example
 * import { Schema } from "effect"
 * import { Exchange } from "@shoplink/http"
 * class AcmeError extends Schema.TaggedError<AcmeError>()("AcmeError", Exchange.CallFailure) {
 *   get retryable(): boolean {
 *     return Exchange.callRetryable(this)
 *   }
 * }
 *
 * @since 0.1.0
 */
export const CallFailure = {
  /** The client operation (`getRepairOrder`, `createNote`, …). */
  operation: Schema.String,
  method: Schema.String,
  /** The path below the base URL, without the query string. */
  path: Schema.String,
  reason: Schema.Literal("Transport", "Timeout", "HttpStatus", "Decode", "InvalidRequest"),
  status: Schema.optional(Schema.Number),
  detail: Schema.String,
  /** Whether the request may have reached the SMS. */
  requestSent: Schema.Boolean,
  /** Attempts made, retries included. */
  attempts: Schema.Number,
  /** The `Retry-After` of the last 429, in milliseconds. */
  retryAfterMillis: Schema.optional(Schema.Number)
}

/**
 * The values of `CallFailure`.
 *
 * @example
 * import type { Exchange } from "@shoplink/http"
 * const failure: Exchange.CallFailureFields = {
 *   operation: "getRepairOrder", method: "GET", path: "/r/1", reason: "Timeout", detail: "late",
 *   requestSent: true, attempts: 4
 * }
 *
 * @since 0.1.0
 */
export type CallFailureFields = Schema.Struct.Constructor<typeof CallFailure>

/**
 * Whether the same call may succeed later: no answer, a timeout, or an HTTP status
 * `Retry.retryableStatus` retries (408, 429, 5xx); never a decode failure or a request that
 * could not be built.
 *
 * @example
 * import { Exchange } from "@shoplink/http"
 * Exchange.callRetryable({ reason: "HttpStatus", status: 503 }) // true
 * Exchange.callRetryable({ reason: "HttpStatus", status: 400 }) // false
 *
 * @since 0.1.0
 */
export const callRetryable = (failure: Pick<CallFailureFields, "reason" | "status">): boolean =>
  failure.reason === "Transport" || failure.reason === "Timeout" ||
  (failure.reason === "HttpStatus" && failure.status !== undefined && Retry.retryableStatus(failure.status))

/**
 * Whether the SMS said the id does not exist (HTTP 404).
 *
 * @example
 * import { Exchange } from "@shoplink/http"
 * Exchange.callNotFound({ reason: "HttpStatus", status: 404 }) // true
 *
 * @since 0.1.0
 */
export const callNotFound = (failure: Pick<CallFailureFields, "reason" | "status">): boolean =>
  failure.reason === "HttpStatus" && failure.status === 404

/**
 * The failure in one line, led by the SMS's name.
 *
 * @example
 * import { Exchange } from "@shoplink/http"
 * Exchange.describeCall("Acme", {
 *   operation: "getRepairOrder", method: "GET", path: "/r/1", reason: "HttpStatus", status: 503,
 *   detail: "down", requestSent: true, attempts: 4
 * })
 * // "Acme getRepairOrder (GET /r/1) failed: HttpStatus 503: down after 4 attempts"
 *
 * @since 0.1.0
 */
export const describeCall = (sms: string, failure: CallFailureFields): string => {
  const status = failure.status === undefined ? "" : ` ${failure.status}`
  const tries = failure.attempts > 1 ? ` after ${failure.attempts} attempts` : ""
  return `${sms} ${failure.operation} (${failure.method} ${failure.path}) failed: ${failure.reason}${status}: ${failure.detail}${tries}`
}

/**
 * A transport error left after the retries as the fields of the client's call failure: a
 * `Timeout` as `Timeout`, a `RequestFailed` as `Transport` (or `InvalidRequest`, not sent), a
 * `RateLimited` or `UnexpectedResponse` as `HttpStatus` with its status and `Retry-After`.
 *
 * @example
 * import { Exchange, TransportError } from "@shoplink/http"
 * const where = { operation: "getRepairOrder", method: "GET", path: "/r/1" }
 * const late = new TransportError.Timeout({ operation: "getRepairOrder", attempt: 4, detail: "late" })
 * Exchange.fromTransportError(where, late)
 * // { operation: "getRepairOrder", method: "GET", path: "/r/1", attempts: 4, reason: "Timeout",
 * //   detail: "late", requestSent: true }
 *
 * @since 0.1.0
 */
export const fromTransportError = (where: Where, error: TransportError.TransportError): CallFailureFields => {
  const common = { operation: where.operation, method: where.method, path: where.path, attempts: error.attempt }
  switch (error._tag) {
    case "Timeout":
      return { ...common, reason: "Timeout", detail: error.detail, requestSent: true }
    case "RequestFailed":
      return {
        ...common,
        reason: error.reason === "InvalidRequest" ? "InvalidRequest" : "Transport",
        detail: error.detail,
        requestSent: error.requestSent
      }
    case "RateLimited":
    case "UnexpectedResponse":
      return {
        ...common,
        reason: "HttpStatus",
        status: error.httpStatus,
        detail: error.detail,
        requestSent: true,
        ...(error.retryAfter === undefined ? {} : { retryAfterMillis: Duration.toMillis(error.retryAfter) })
      }
  }
}

/**
 * Every item of a paged list, read page after page: `page(n)` from `first` (0 or 1, as the SMS
 * counts) until a page is empty, `isLast(page, n)` says it is the last (each SMS names its paging
 * fields its own way), `limit` items are read, or `maxPages` (default 10,000) pages.
 *
 * @example
 * import { Effect } from "effect"
 * import { Exchange } from "@shoplink/http"
 * interface Page { readonly results: ReadonlyArray<number>; readonly total_pages: number }
 * declare const listPage: (n: number) => Effect.Effect<Page>
 * const all = Exchange.allPages({
 *   first: 1,
 *   page: listPage,
 *   items: (page) => page.results,
 *   isLast: (page, n) => n >= page.total_pages
 * })
 *
 * @since 0.1.0
 */
export const allPages = <P, A, E, R>(options: {
  readonly first: number
  readonly page: (n: number) => Effect.Effect<P, E, R>
  readonly items: (page: P) => ReadonlyArray<A>
  readonly isLast: (page: P, n: number) => boolean
  readonly limit?: number | undefined
  readonly maxPages?: number | undefined
}): Effect.Effect<ReadonlyArray<A>, E, R> =>
  Effect.gen(function*() {
    const { first, isLast, limit = Infinity, maxPages = 10_000 } = options
    const items: Array<A> = []
    for (let n = first; n < first + maxPages && items.length < limit; n++) {
      const page = yield* options.page(n)
      const got = options.items(page)
      items.push(...got)
      if (got.length === 0 || isLast(page, n)) break
    }
    return items
  })
