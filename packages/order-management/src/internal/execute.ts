// One Order Management call: credentials, request, envelope classification, retries, span and logs.
//
// The hot path is kept lean (issue #18): what does not change between calls is built once — the
// decoders (one per schema), each customer's request template per route (URL, APIToken, headers),
// the redacted URL of a call without query — and per call there is one span, one deadline (a timer
// on the live Clock, not a race of two fibers), one decode of the whole response, and debug logs
// only when the debug level is enabled.
import * as Headers from "@effect/platform/Headers"
import * as HttpBody from "@effect/platform/HttpBody"
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Deadline, Retry, Transport, TransportError } from "@shoplink/http"
import { Decoder as SchemaDecoder, Envelope, type MessageError, UnknownMessage } from "@shoplink/protocol"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as LogLevel from "effect/LogLevel"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type * as Tracer from "effect/Tracer"
import { type ApiError, type OrderManagementError, SomethingWentWrongWithReport } from "../OrderManagementError.js"
import { redactedUrl, supportReport } from "./redact.js"
import { USER_AGENT } from "./version.js"

const { compiledDecoder } = SchemaDecoder

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
  /**
   * The request without query and body (method, URL, `APIToken`, headers), built once per customer
   * and route by `requestTemplate`; built here when absent.
   */
  readonly template?: HttpClientRequest.HttpClientRequest | undefined
}

const apiKeyHeader = /^apikey$/i

/**
 * A customer's request for a route, without its query and body: built once and reused by every
 * call. `user-agent` is ours; a `transformClient` may still replace it.
 */
export const requestTemplate = (
  runtime: Runtime,
  route: { readonly method: "GET" | "POST"; readonly path: string },
  apiToken: Redacted.Redacted<string>
): HttpClientRequest.HttpClientRequest =>
  HttpClientRequest.make(route.method)(`${runtime.baseUrl}${route.path}`, {
    urlParams: { APIToken: Redacted.value(apiToken) },
    headers: { APIKey: Redacted.value(runtime.apiKey), accept: "application/json", "user-agent": USER_AGENT }
  })

// Decoders are compiled once per schema, not per response (`compiledDecoder`: a fast path for
// valid input, Effect's own decoder for everything else).
type Decoder<A> = (u: unknown) => Either.Either<A, ParseResult.ParseError>
const decoders = new WeakMap<object, Decoder<unknown>>()
const decoderOf = <A>(schema: Schema.Schema<A, any>): Decoder<A> => {
  let decoder = decoders.get(schema)
  if (decoder === undefined) {
    decoder = compiledDecoder(schema) as Decoder<unknown>
    decoders.set(schema, decoder)
  }
  return decoder as Decoder<A>
}
const decodeEnvelope = compiledDecoder(Envelope.StatusEnvelope)

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

interface Where {
  readonly operation: string
  readonly method: "GET" | "POST"
  readonly url: string
  readonly attempt: number
}

const transportFailure = (where: Where) => (error: HttpClientError.HttpClientError): OrderManagementError => {
  if (error._tag === "RequestError" && error.reason !== "Transport") {
    return new TransportError.RequestFailed({ ...where, reason: "InvalidRequest", requestSent: false, detail: error.reason })
  }
  const code = Transport.errorCodes(error.cause)[0]
  const notSent = Transport.notSentReason(error.cause)
  return new TransportError.RequestFailed({
    ...where,
    reason: notSent ?? "Transport",
    requestSent: notSent === undefined,
    detail: code ?? error.reason
  })
}

interface Exchanged {
  readonly response: HttpClientResponse.HttpClientResponse
  readonly text: string
}

const readText = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<Exchanged, HttpClientError.ResponseError> =>
  Effect.map(response.text, (text) => ({ response, text }))

// The response → the decoded value or the error, with no Effect in between.
const decodeResponse = <A>(
  runtime: Runtime,
  call: Call<A>,
  where: Where,
  { response, text }: Exchanged,
  now: number
): Either.Either<A, OrderManagementError> => {
  const status = response.status
  const unexpected = (reason: TransportError.UnexpectedResponse["reason"], detail: string): OrderManagementError => {
    const retryAfterMillis = Transport.retryAfterMillis(response.headers["retry-after"], now)
    const retryAfter = retryAfterMillis === undefined ? {} : { retryAfter: Duration.millis(retryAfterMillis) }
    return status === 429
      ? new TransportError.RateLimited({ ...where, httpStatus: status, ...retryAfter })
      : new TransportError.UnexpectedResponse({ ...where, reason, httpStatus: status, detail, ...retryAfter })
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return Either.left(unexpected("InvalidJson", "body is not JSON"))
  }
  // Happy path: one decode of the whole response (its envelope fields included), then the
  // envelope rule on its status.
  const decoded = decoderOf(call.response)(body)
  let envelope: Envelope.StatusEnvelope
  if (Either.isRight(decoded) && (decoded.right as { readonly status?: unknown }).status !== undefined) {
    envelope = decoded.right as unknown as Envelope.StatusEnvelope
  } else {
    // An error envelope lacks the data, and that is not malformed: read just the envelope.
    const only = decodeEnvelope(body)
    if (Either.isLeft(only)) return Either.left(unexpected("NotAnEnvelope", "body has no status envelope"))
    envelope = only.right
  }
  const outcome = Envelope.classify(envelope, status)
  if (Either.isLeft(outcome)) {
    const messageError = outcome.left
    return Either.left(call.refine?.(messageError, body) ?? toApiError(messageError, runtime, call))
  }
  if (Either.isLeft(decoded)) {
    return Either.left(
      unexpected("UnexpectedShape", `response does not match ${call.operation}: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`)
    )
  }
  return Either.right(decoded.right)
}

type Log = (message: string, annotations: Record<string, unknown>, span: Tracer.Span) => Effect.Effect<void>

const attempt = <A>(
  runtime: Runtime,
  call: Call<A>,
  request: HttpClientRequest.HttpClientRequest,
  url: string,
  n: number,
  commandSpan: Tracer.Span,
  log: Log | undefined
): Effect.Effect<A, OrderManagementError> => {
  const where: Where = { operation: call.operation, method: call.method, url, attempt: n }
  // The deadline covers the whole exchange, body included: a server that stalls mid-body is as
  // stuck as one that never answers.
  const send = Effect.mapError(Effect.flatMap(runtime.httpClient.execute(request), readText), transportFailure(where))
  return Effect.useSpan(`OrderManagement.${call.operation}.attempt`, {
    kind: "client",
    captureStackTrace: false,
    parent: commandSpan,
    attributes: { "oms.operation": call.operation, "oms.attempt": n }
  }, (span) =>
    Effect.flatMap(
      Deadline.timeoutFail(send, {
        duration: runtime.timeout,
        onTimeout: () => new TransportError.Timeout({ ...where, detail: `no complete response within ${Duration.format(runtime.timeout)}` }),
        parentSpan: span
      }),
      (exchanged) => {
        span.attribute("http.response.status_code", exchanged.response.status)
        return Effect.clockWith((clock) => {
          const outcome = decodeResponse(runtime, call, where, exchanged, clock.unsafeCurrentTimeMillis())
          if (log === undefined) return outcome
          const messageId = Either.isRight(outcome)
            ? (outcome.right as { readonly status?: Envelope.Status }).status?.message.ID ?? ""
            : (outcome.left as { readonly code?: unknown }).code ?? ""
          return Effect.zipRight(
            log("order management response", { "oms.attempt": n, "http.status": exchanged.response.status, "oms.messageId": messageId }, span),
            outcome
          )
        })
      }
    ))
}

// The redacted URL of a call without query is the same on every call: kept per template.
const plainUrls = new WeakMap<HttpClientRequest.HttpClientRequest, string>()

/**
 * Runs a call with the shared retry policy and rule (`@shoplink/http`'s `Retry`), inside a span
 * named after the operation. Only redacted URLs reach spans, logs and errors; the platform's own
 * HTTP span (which would record the full URL, token included) is disabled by the client.
 */
export const execute = <A>(runtime: Runtime, call: Call<A>): Effect.Effect<A, OrderManagementError> => {
  const template = call.template ?? requestTemplate(runtime, call, call.apiToken)
  const emptyQuery = isEmpty(call.query)
  let url = emptyQuery ? plainUrls.get(template) : undefined
  if (url === undefined) {
    url = redactedUrl(runtime.baseUrl, call.path, call.query)
    if (emptyQuery) plainUrls.set(template, url)
  }
  const redacted = url
  // One request for every attempt: the body and query do not change between them.
  const withQuery = emptyQuery ? template : HttpClientRequest.appendUrlParams(template, call.query)
  const request = call.body === undefined ? withQuery : HttpClientRequest.setBody(withQuery, HttpBody.unsafeJson(call.body))
  const logAnnotations = { "oms.operation": call.operation, "http.method": call.method, "url.full": redacted }
  return Effect.useSpan(`OrderManagementClient.${call.operation}`, {
    kind: "client",
    captureStackTrace: false,
    attributes: {
      "http.request.method": call.method,
      "url.full": redacted,
      "url.path": `${runtime.basePath}${call.path}`,
      "oms.environment": runtime.environment,
      ...(call.accountNo === undefined ? {} : { "oms.customerAccountNo": call.accountNo })
    }
  }, (span) =>
    Effect.withFiberRuntime<A, OrderManagementError>((fiber) => {
      // A debug log costs FiberRef updates even when it is filtered out: build it only when enabled.
      const debug = LogLevel.lessThanEqual(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), LogLevel.Debug)
      const log = (message: string, annotations: Record<string, unknown>, parent: Tracer.Span = span) =>
        Effect.logDebug(message).pipe(Effect.annotateLogs({ ...logAnnotations, ...annotations }), Effect.withParentSpan(parent))
      let attempts = 0
      const once = (n: number) => {
        attempts = n
        return attempt(runtime, call, request, redacted, n, span, debug ? log : undefined)
      }
      const run = Effect.matchEffect(
        Retry.retry(once, {
          policy: runtime.retry,
          idempotency: call.idempotency,
          onRetry: debug
            ? ({ attempt: n, delay, error }) =>
              log("order management call failed; retrying", {
                "oms.attempt": n,
                "oms.error": error.message,
                "oms.retryIn": Duration.format(delay)
              })
            : undefined
        }),
        {
          onSuccess: (value) => {
            span.attribute("oms.attempts", attempts)
            return Effect.succeed(value)
          },
          onFailure: (error) => {
            span.attribute("oms.attempts", attempts)
            return debug
              ? Effect.zipRight(log("order management call failed", { "oms.attempt": attempts, "oms.error": error.message }), Effect.fail(error))
              : Effect.fail(error)
          }
        }
      )
      // The platform's own span is disabled; keep the APIKey header redacted in anything else that
      // prints a request's headers (only where it is not already).
      const names = fiber.getFiberRef(Headers.currentRedactedNames)
      return names.includes(apiKeyHeader) ? run : Effect.locally(run, Headers.currentRedactedNames, [...names, apiKeyHeader])
    }))
}

const isEmpty = (record: Readonly<Record<string, string>>): boolean => {
  for (const _ in record) return false
  return true
}
