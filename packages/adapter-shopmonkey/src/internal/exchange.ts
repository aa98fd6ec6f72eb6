// One Shopmonkey call: build the request (bearer key in the Authorization header only), read the
// answer whatever its status, map every failure to a ShopmonkeyError, and retry per the call's mode.
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { Deadline, Retry, Transport, TransportError } from "@shoplink/http"
import { ShopmonkeyError } from "../ShopmonkeyError.js"

export interface ExchangeConfig {
  readonly httpClient: HttpClient.HttpClient
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  readonly timeout: Duration.Duration
  readonly retry: Retry.RetryPolicy
}

/**
 * `read`: GETs, idempotent — retried on no response, timeouts, 408, 429 and 5xx (the shared rule
 * of `@shoplink/http`'s `Retry.retryable`).
 * `create`: POSTs that add a row, unsafe — retried only when Shopmonkey cannot have acted on them:
 * a refused connection (never sent, the shared rule) or a 429 (Shopmonkey documents that it
 * rejects the request before processing it).
 */
export type Mode = "read" | "create"

export interface Call {
  readonly operation: string
  readonly method: "GET" | "POST"
  readonly path: string
  readonly query?: Readonly<Record<string, string>>
  readonly body?: unknown
  readonly mode: Mode
}

// The answer's details the transport errors do not carry (Shopmonkey's error `code`).
interface Answer {
  code?: string | undefined
}

const errorBody = (text: string): { readonly code?: string; readonly message?: string; readonly success?: unknown } => {
  try {
    const json = JSON.parse(text) as unknown
    if (typeof json !== "object" || json === null) return {}
    const record = json as Record<string, unknown>
    return {
      success: record.success,
      ...(typeof record.code === "string" ? { code: record.code } : {}),
      ...(typeof record.message === "string" ? { message: record.message } : {})
    }
  } catch {
    return {}
  }
}

const excerpt = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text)

const attemptOnce = (
  config: ExchangeConfig,
  call: Call,
  attempt: number,
  answer: Answer
): Effect.Effect<unknown, TransportError.TransportError> =>
  Effect.gen(function*() {
    answer.code = undefined
    const where = { operation: call.operation, method: call.method, url: call.path, attempt }
    let request = HttpClientRequest.make(call.method)(`${config.baseUrl}${call.path}`, {
      urlParams: call.query ?? {},
      acceptJson: true
    }).pipe(HttpClientRequest.bearerToken(Redacted.value(config.apiKey)))
    if (call.body !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, call.body)
    const raw = yield* config.httpClient.execute(request).pipe(
      Effect.flatMap((response) =>
        Effect.map(
          response.text,
          (text) => ({ status: response.status, text, retryAfter: response.headers["retry-after"] })
        )
      ),
      Effect.mapError((error) => {
        if (error._tag === "RequestError" && error.reason !== "Transport") {
          return new TransportError.RequestFailed({
            ...where,
            reason: "InvalidRequest",
            requestSent: false,
            detail: Transport.describeCause(error.cause ?? error)
          })
        }
        const notSent = error._tag === "RequestError" ? Transport.notSentReason(error.cause) : undefined
        return new TransportError.RequestFailed({
          ...where,
          reason: notSent ?? "Transport",
          requestSent: notSent === undefined,
          detail: Transport.describeCause(error.cause ?? error)
        })
      }),
      Deadline.timeoutFail({
        duration: config.timeout,
        onTimeout: () =>
          new TransportError.Timeout({ ...where, detail: `no answer within ${Duration.format(config.timeout)}` })
      })
    )
    const body = errorBody(raw.text)
    if (raw.status >= 200 && raw.status < 300 && body.success !== false) {
      try {
        return JSON.parse(raw.text) as unknown
      } catch {
        return yield* new TransportError.UnexpectedResponse({
          ...where,
          reason: "InvalidJson",
          httpStatus: raw.status,
          detail: `not JSON: ${excerpt(raw.text)}`
        })
      }
    }
    answer.code = body.code
    const retryAfterMillis = Transport.retryAfterMillis(raw.retryAfter, yield* Clock.currentTimeMillis)
    const retryAfter = retryAfterMillis === undefined ? {} : { retryAfter: Duration.millis(retryAfterMillis) }
    const detail = body.message ?? (excerpt(raw.text) || "no body")
    return yield* raw.status === 429
      ? new TransportError.RateLimited({ ...where, httpStatus: raw.status, detail, ...retryAfter })
      : new TransportError.UnexpectedResponse({
        ...where,
        reason: "HttpStatus",
        httpStatus: raw.status,
        detail,
        ...retryAfter
      })
  })

// The transport error of the last attempt as the client's one error.
const toShopmonkeyError = (call: Call, error: TransportError.TransportError, answer: Answer): ShopmonkeyError => {
  const common = {
    operation: call.operation,
    method: call.method,
    path: call.path,
    detail: error.detail,
    attempts: error.attempt
  }
  switch (error._tag) {
    case "RequestFailed":
      return new ShopmonkeyError({
        ...common,
        reason: error.reason === "InvalidRequest" ? "InvalidRequest" : "Transport",
        requestSent: error.requestSent
      })
    case "Timeout":
      return new ShopmonkeyError({ ...common, reason: "Timeout", requestSent: true })
    case "RateLimited":
    case "UnexpectedResponse": {
      const decode = error._tag === "UnexpectedResponse" && error.reason !== "HttpStatus"
      return new ShopmonkeyError({
        ...common,
        reason: decode ? "Decode" : "HttpStatus",
        status: error.httpStatus,
        ...(answer.code === undefined ? {} : { code: answer.code }),
        requestSent: true,
        ...(error.retryAfter === undefined ? {} : { retryAfterMillis: Duration.toMillis(error.retryAfter) })
      })
    }
  }
}

/** The JSON body of a successful answer, after the retries the call's mode allows. */
export const exchange = (config: ExchangeConfig, call: Call): Effect.Effect<unknown, ShopmonkeyError> => {
  const idempotency: Retry.Idempotency = call.mode === "read" ? "idempotent" : "unsafe"
  const answer: Answer = {}
  return Retry.retry((attempt) => attemptOnce(config, call, attempt, answer), {
    policy: config.retry,
    idempotency,
    // Shopmonkey rejects a 429 before processing it: a create may be sent again too.
    while: (error) => error._tag === "RateLimited" || Retry.retryable(error, idempotency),
    onRetry: ({ attempt, delay, error }) =>
      Effect.logDebug("Shopmonkey call retried").pipe(
        Effect.annotateLogs({
          operation: call.operation,
          attempt,
          status: "httpStatus" in error ? error.httpStatus : error._tag,
          delayMillis: Duration.toMillis(delay)
        })
      )
  }).pipe(Effect.mapError((error) => toShopmonkeyError(call, error, answer)))
}

export const optionalString = (value: string | null | undefined): string | undefined =>
  Option.getOrUndefined(Option.fromNullable(value === "" ? null : value))
