// One Order Management call: credentials, request, envelope classification, retries, span and logs.
import { Headers, HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpClientError } from "@effect/platform"
import { Deadline, Retry, Transport, TransportError } from "@shoplink/http"
import { Envelope, type MessageError, UnknownMessage } from "@shoplink/protocol"
import { Clock, Duration, Effect, Either, FiberRef, ParseResult, Redacted, Schema } from "effect"
import { type ApiError, type OrderManagementError, SomethingWentWrongWithReport } from "../OrderManagementError.js"
import { redactedUrl, supportReport } from "./redact.js"

/** What every call of one client shares. */
export interface Runtime {
  readonly httpClient: HttpClient.HttpClient
  readonly environment: string
  /** Host plus `/web/services/<environment>`, no trailing slash. */
  readonly baseUrl: string
  readonly basePath: string
  readonly apiKey: Redacted.Redacted<string>
  readonly timeout: Duration.Duration
  readonly retry: Retry.RetryPolicy
}

/** One call's description. */
export interface Call<A> {
  readonly operation: string
  readonly method: "GET" | "POST"
  readonly path: string
  /** Query parameters besides `APIToken`. */
  readonly query: Readonly<Record<string, string>>
  readonly body?: unknown
  readonly idempotency: Retry.Idempotency
  readonly apiToken: Redacted.Redacted<string>
  readonly accountNo?: string | undefined
  readonly response: Schema.Schema<A, any>
  /** Replaces a message error with a richer one (API0327 on createOrder). */
  readonly refine?: ((error: MessageError.MessageError, body: unknown) => ApiError | undefined) | undefined
}

const apiKeyHeader = /^apikey$/i

const messageFieldsOf = (error: MessageError.MessageError) => ({
  text: error.text,
  httpStatus: error.httpStatus,
  ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
  ...(error.referenceID === undefined ? {} : { referenceID: error.referenceID }),
  ...(error.serverVersion === undefined ? {} : { serverVersion: error.serverVersion })
})

// API0500 gets its support report; the Punchout-only UNAUTHORIZED, which this API does not
// document, is kept as an UnknownMessage so the error union stays this API's.
const toApiError = <A>(error: MessageError.MessageError, runtime: Runtime, call: Call<A>): ApiError => {
  switch (error._tag) {
    case "SomethingWentWrong":
      return new SomethingWentWrongWithReport(
        messageFieldsOf(error),
        supportReport({ method: call.method, basePath: runtime.basePath, path: call.path, query: call.query, body: call.body })
      )
    case "Unauthorized":
      return new UnknownMessage({ ...messageFieldsOf(error), code: error.code })
    default:
      return error
  }
}

const attempt = <A>(runtime: Runtime, call: Call<A>, url: string, n: number): Effect.Effect<A, OrderManagementError> =>
  Effect.gen(function*() {
    const request = HttpClientRequest.make(call.method)(`${runtime.baseUrl}${call.path}`, {
      urlParams: { APIToken: Redacted.value(call.apiToken), ...call.query },
      headers: { APIKey: Redacted.value(runtime.apiKey), accept: "application/json" }
    })
    const withBody = call.body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, call.body)
    const where = { operation: call.operation, method: call.method, url, attempt: n }
    const transportFailure = (error: HttpClientError.HttpClientError): OrderManagementError => {
      const code = Transport.errorCodes(error.cause)[0]
      const notSent = Transport.notSentReason(error.cause)
      if (error._tag === "RequestError" && error.reason !== "Transport") {
        return new TransportError.RequestFailed({ ...where, reason: "InvalidRequest", requestSent: false, detail: error.reason })
      }
      return new TransportError.RequestFailed({
        ...where,
        reason: notSent ?? "Transport",
        requestSent: notSent === undefined,
        detail: code ?? error.reason
      })
    }
    // The deadline covers the whole exchange, body included: a server that stalls mid-body is as
    // stuck as one that never answers.
    const send = runtime.httpClient.execute(withBody).pipe(
      Effect.flatMap((response) => Effect.map(response.text, (text) => ({ response, text }))),
      Effect.mapError(transportFailure)
    )
    const { response, text } = yield* Deadline.timeoutFail(send, {
      duration: runtime.timeout,
      onTimeout: () => new TransportError.Timeout({ ...where, detail: `no complete response within ${Duration.format(runtime.timeout)}` })
    })
    const status = response.status
    yield* Effect.annotateCurrentSpan("http.response.status_code", status)
    const now = yield* Clock.currentTimeMillis
    const retryAfterMillis = Transport.retryAfterMillis(response.headers["retry-after"], now)
    const retryAfter = retryAfterMillis === undefined ? {} : { retryAfter: Duration.millis(retryAfterMillis) }
    const unexpected = (reason: TransportError.UnexpectedResponse["reason"], detail: string): OrderManagementError =>
      status === 429
        ? new TransportError.RateLimited({ ...where, httpStatus: status, ...retryAfter })
        : new TransportError.UnexpectedResponse({ ...where, reason, httpStatus: status, detail, ...retryAfter })
    const body = yield* Effect.try({ try: () => JSON.parse(text) as unknown, catch: () => unexpected("InvalidJson", "body is not JSON") })
    const envelope = yield* Schema.decodeUnknown(Envelope.StatusEnvelope)(body).pipe(
      Effect.mapError(() => unexpected("NotAnEnvelope", "body has no status envelope"))
    )
    yield* Effect.logDebug("order management response").pipe(
      Effect.annotateLogs({ "http.status": status, "oms.messageId": envelope.status.message.ID ?? "" })
    )
    const outcome = Envelope.classify(envelope, status)
    if (Either.isLeft(outcome)) {
      const messageError = outcome.left
      return yield* Effect.fail(call.refine?.(messageError, body) ?? toApiError(messageError, runtime, call))
    }
    return yield* Schema.decodeUnknown(call.response)(body).pipe(
      Effect.mapError((error) =>
        unexpected("UnexpectedShape", `response does not match ${call.operation}: ${ParseResult.TreeFormatter.formatErrorSync(error)}`)
      )
    )
  })

/**
 * Runs a call with the shared retry policy and rule (`@shoplink/http`'s `Retry`), inside a span
 * named after the operation. Only redacted URLs reach spans, logs and errors; the platform's own
 * HTTP span (which would record the full URL, token included) is disabled by the client.
 */
export const execute = <A>(runtime: Runtime, call: Call<A>): Effect.Effect<A, OrderManagementError> => {
  const url = redactedUrl(runtime.baseUrl, call.path, call.query)
  let attempts = 0
  const attemptSpan = (n: number) => {
    attempts = n
    return attempt(runtime, call, url, n).pipe(
      Effect.annotateLogs({ "oms.attempt": n }),
      Effect.withSpan(`OrderManagement.${call.operation}.attempt`, {
        kind: "client",
        attributes: { "oms.operation": call.operation, "oms.attempt": n }
      })
    )
  }
  return Retry.retry(attemptSpan, {
    policy: runtime.retry,
    idempotency: call.idempotency,
    onRetry: ({ attempt: n, delay, error }) =>
      Effect.logDebug("order management call failed; retrying").pipe(
        Effect.annotateLogs({ "oms.attempt": n, "oms.error": error.message, "oms.retryIn": Duration.format(delay) })
      )
  }).pipe(
    Effect.tapBoth({
      onSuccess: () => Effect.annotateCurrentSpan("oms.attempts", attempts),
      onFailure: (error) =>
        Effect.zipRight(
          Effect.annotateCurrentSpan("oms.attempts", attempts),
          Effect.logDebug("order management call failed").pipe(
            Effect.annotateLogs({ "oms.attempt": attempts, "oms.error": error.message })
          )
        )
    }),
    // The platform's own span is disabled; keep the APIKey header redacted in anything else it logs.
    (effect) =>
      Effect.flatMap(FiberRef.get(Headers.currentRedactedNames), (names) =>
        Effect.locally(effect, Headers.currentRedactedNames, [...names, apiKeyHeader])),
    Effect.annotateLogs({ "oms.operation": call.operation, "http.method": call.method, "url.full": url }),
    Effect.withSpan(`OrderManagementClient.${call.operation}`, {
      kind: "client",
      attributes: {
        "http.request.method": call.method,
        "url.full": url,
        "url.path": `${runtime.basePath}${call.path}`,
        "oms.environment": runtime.environment,
        ...(call.accountNo === undefined ? {} : { "oms.customerAccountNo": call.accountNo })
      }
    })
  )
}
