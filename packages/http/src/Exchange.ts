/**
 * One HTTP exchange of an SMS client, with its failure as the shared `TransportError` the retry
 * policy acts on: the status, the body text and the `Retry-After` header, or a `Timeout` (no
 * answer in time) or a `RequestFailed` that says whether the request can have reached the server.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
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
