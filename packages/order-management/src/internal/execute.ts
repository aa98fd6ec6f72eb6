// One Order Management call: credentials, request, envelope classification, retries, span and logs.
import { Headers, HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpClientError } from "@effect/platform"
import { Envelope, type MessageError, Transport, UnknownMessage } from "@shoplink/protocol"
import { Clock, Duration, Effect, Either, FiberRef, ParseResult, Random, Redacted, Schema } from "effect"
import {
  type ApiError,
  type OrderManagementError,
  RateLimited,
  RequestFailed,
  SomethingWentWrongWithReport,
  UnexpectedResponse
} from "../OrderManagementError.js"
import { redactedUrl, supportReport } from "./redact.js"
import { type AttemptFailure, backoff, isRetryable, type RetryPolicy } from "./retry.js"

/** What every call of one client shares. */
export interface Runtime {
  readonly httpClient: HttpClient.HttpClient
  readonly environment: string
  /** Host plus `/web/services/<environment>`, no trailing slash. */
  readonly baseUrl: string
  readonly basePath: string
  readonly apiKey: Redacted.Redacted<string>
  readonly timeout: Duration.Duration
  readonly retry: RetryPolicy
}

/** One call's description. */
export interface Call<A> {
  readonly operation: string
  readonly method: "GET" | "POST"
  readonly path: string
  /** Query parameters besides `APIToken`. */
  readonly query: Readonly<Record<string, string>>
  readonly body?: unknown
  readonly idempotent: boolean
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

const attempt = <A>(runtime: Runtime, call: Call<A>, url: string): Effect.Effect<A, AttemptFailure> =>
  Effect.gen(function*() {
    const request = HttpClientRequest.make(call.method)(`${runtime.baseUrl}${call.path}`, {
      urlParams: { APIToken: Redacted.value(call.apiToken), ...call.query },
      headers: { APIKey: Redacted.value(runtime.apiKey), accept: "application/json" }
    })
    const withBody = call.body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, call.body)
    const fail = (error: OrderManagementError, mayHaveReachedServer = true, retryAfterMillis?: number): AttemptFailure => ({
      error,
      mayHaveReachedServer,
      retryAfterMillis
    })
    const transportFailure = (error: HttpClientError.HttpClientError): AttemptFailure => {
      const code = Transport.errorCodes(error.cause)[0]
      const notSent = Transport.notSentReason(error.cause)
      return fail(
        new RequestFailed({
          reason: notSent === "HostNotFound" ? "HostNotFound" : notSent === "ConnectionRefused" ? "Connect" : "Transport",
          method: call.method,
          url,
          detail: code ?? error.reason
        }),
        notSent === undefined
      )
    }
    // The timeout covers the whole exchange, body included: a server that stalls mid-body is as
    // stuck as one that never answers.
    const send = runtime.httpClient.execute(withBody).pipe(
      Effect.flatMap((response) => Effect.map(response.text, (text) => ({ response, text }))),
      Effect.catchTags({
        RequestError: (error) => Effect.fail(transportFailure(error)),
        ResponseError: (error) => Effect.fail(transportFailure(error))
      })
    )
    const { response, text } = yield* Duration.isFinite(runtime.timeout)
      ? Effect.timeoutFail(send, {
        duration: runtime.timeout,
        onTimeout: () =>
          fail(
            new RequestFailed({ reason: "Timeout", method: call.method, url, detail: `no complete response within ${Duration.format(runtime.timeout)}` })
          )
      })
      : send
    const status = response.status
    yield* Effect.annotateCurrentSpan("http.response.status_code", status)
    const now = yield* Clock.currentTimeMillis
    const retryAfterMillis = Transport.retryAfterMillis(response.headers["retry-after"], now)
    const retryAfter = retryAfterMillis === undefined ? {} : { retryAfter: Duration.millis(retryAfterMillis) }
    const unexpected = (detail: string) =>
      fail(
        status === 429
          ? new RateLimited({ httpStatus: status, method: call.method, url, ...retryAfter })
          : new UnexpectedResponse({ httpStatus: status, method: call.method, url, detail, ...retryAfter }),
        true,
        retryAfterMillis
      )
    const body = yield* Effect.try({ try: () => JSON.parse(text) as unknown, catch: () => unexpected("body is not JSON") })
    const envelope = yield* Schema.decodeUnknown(Envelope.StatusEnvelope)(body).pipe(
      Effect.mapError(() => unexpected("body has no status envelope"))
    )
    yield* Effect.logDebug("order management response").pipe(
      Effect.annotateLogs({ "http.status": status, "oms.messageId": envelope.status.message.ID ?? "" })
    )
    const outcome = Envelope.classify(envelope, status)
    if (Either.isLeft(outcome)) {
      const messageError = outcome.left
      const error = call.refine?.(messageError, body) ?? toApiError(messageError, runtime, call)
      return yield* Effect.fail(fail(error, true, retryAfterMillis))
    }
    return yield* Schema.decodeUnknown(call.response)(body).pipe(
      Effect.mapError((error) => unexpected(`response does not match ${call.operation}: ${ParseResult.TreeFormatter.formatErrorSync(error)}`))
    )
  })

/**
 * Runs a call with the retry allow-list, inside a span named after the operation. Only redacted
 * URLs reach spans, logs and errors; the platform's own HTTP span (which would record the full
 * URL, token included) is disabled by the client.
 */
export const execute = <A>(runtime: Runtime, call: Call<A>): Effect.Effect<A, OrderManagementError> => {
  const url = redactedUrl(runtime.baseUrl, call.path, call.query)
  const policy = runtime.retry
  const attemptSpan = (n: number) =>
    attempt(runtime, call, url).pipe(
      Effect.annotateLogs({ "oms.attempt": n }),
      Effect.withSpan(`OrderManagement.${call.operation}.attempt`, {
        kind: "client",
        attributes: { "oms.operation": call.operation, "oms.attempt": n }
      })
    )
  return Effect.gen(function*() {
    const startedAt = yield* Clock.currentTimeMillis
    let n = 1
    while (true) {
      const outcome = yield* Effect.either(attemptSpan(n))
      if (Either.isRight(outcome)) {
        yield* Effect.annotateCurrentSpan("oms.attempts", n)
        return outcome.right
      }
      const failure = outcome.left
      const jittered = Duration.toMillis(backoff(policy, n, yield* Random.next))
      const delay = Math.max(jittered, failure.retryAfterMillis ?? 0)
      const now = yield* Clock.currentTimeMillis
      const stop = n >= policy.maxAttempts ||
        !isRetryable(failure, call.idempotent) ||
        (failure.retryAfterMillis !== undefined && failure.retryAfterMillis > Duration.toMillis(policy.retryAfterCap)) ||
        now - startedAt + delay > Duration.toMillis(policy.maxElapsed)
      if (stop) {
        yield* Effect.annotateCurrentSpan("oms.attempts", n)
        yield* Effect.logDebug("order management call failed").pipe(
          Effect.annotateLogs({ "oms.attempt": n, "oms.error": failure.error.message })
        )
        return yield* Effect.fail(failure.error)
      }
      yield* Effect.logDebug("order management call failed; retrying").pipe(
        Effect.annotateLogs({ "oms.attempt": n, "oms.error": failure.error.message, "oms.retryIn": `${delay}ms` })
      )
      if (delay > 0) yield* Effect.sleep(Duration.millis(delay))
      n++
    }
  }).pipe(
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
