// One Order Management call: credentials, request, envelope classification, retries, span and logs.
//
// The hot path is kept lean (issues #18, #29): what does not change between calls is built once —
// the decoders (one per schema), each customer's request template per route (URL, APIToken,
// headers), the redacted URL of a call without query — and per call there is no span unless a
// tracer is provided (then one, attempts as its events), one deadline (enforced by the transport
// when it can: no fiber per attempt), no retry state until an attempt fails, one decode of the
// whole response, and debug logs only when the debug level is enabled.
import * as Headers from "@effect/platform/Headers"
import * as HttpBody from "@effect/platform/HttpBody"
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Deadline, Mask, Retry, Transport, TransportError } from "@shoplink/http"
import { Decoder as SchemaDecoder, Envelope, MessageError, UnknownMessage } from "@shoplink/protocol"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as LogLevel from "effect/LogLevel"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type * as Fiber from "effect/Fiber"
import * as Tracer from "effect/Tracer"
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
  /**
   * The transport enforces `Deadline.timeoutAbort` deadlines and makes no span of its own, and no
   * `transformClient` sees the request: no fiber per attempt, no FiberRef change per call.
   */
  readonly transportDeadline: boolean
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
    // A POST's body is a JSON string (`HttpBody.raw`): its content type is set here, once.
    headers: route.method === "POST"
      ? {
        APIKey: Redacted.value(runtime.apiKey),
        accept: "application/json",
        "content-type": "application/json",
        "user-agent": USER_AGENT
      }
      : { APIKey: Redacted.value(runtime.apiKey), accept: "application/json", "user-agent": USER_AGENT }
  })

const nativeTracer = Context.get(DefaultServices.liveServices, Tracer.Tracer)

/** Spans only when the user provided a tracer (not Effect's default native one) and tracing is on. */
const tracerProvided = (fiber: Fiber.RuntimeFiber<unknown, unknown>): boolean =>
  Context.get(fiber.currentDefaultServices, Tracer.Tracer) !== nativeTracer &&
  fiber.getFiberRef(FiberRef.currentTracerEnabled)

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
// The auth messages whose credential is known, and what a person should check (masked).
const authHint = <A>(error: MessageError.MessageError, runtime: Runtime, call: Call<A>): string | undefined => {
  switch (error.code) {
    case "API0204":
    case "API0206":
    case "API0207":
      return `the distributor refused the Order Management API key ${
        Mask.secret(runtime.apiKey)
      } (APIKey header) for ${runtime.environment}: check it is this environment's key (test and production keys differ) and not expired`
    case "API0202":
    case "API0244":
      return `the distributor does not know customer account ${call.accountNo ?? "(not given)"} with API token ${
        Mask.secret(call.apiToken)
      } (APIToken): check the account number, and that the customer has not deleted or replaced the token`
    default:
      return undefined
  }
}

const toApiError = <A>(error: MessageError.MessageError, runtime: Runtime, call: Call<A>): ApiError => {
  const hint = authHint(error, runtime, call)
  if (hint !== undefined) return MessageError.withHint(error, hint) as ApiError
  switch (error._tag) {
    case "SomethingWentWrong":
      return new SomethingWentWrongWithReport(
        messageFieldsOf(error),
        supportReport({
          method: call.method,
          basePath: runtime.basePath,
          path: call.path,
          query: call.query,
          body: call.body
        })
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
    return new TransportError.RequestFailed({
      ...where,
      reason: "InvalidRequest",
      requestSent: false,
      detail: error.reason
    })
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

const readText = (
  response: HttpClientResponse.HttpClientResponse
): Effect.Effect<Exchanged, HttpClientError.ResponseError> => Effect.map(response.text, (text) => ({ response, text }))

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
      unexpected(
        "UnexpectedShape",
        `response does not match ${call.operation}: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`
      )
    )
  }
  return Either.right(decoded.right)
}

type Log = (message: string, annotations: Record<string, unknown>) => Effect.Effect<void>

/** What one call shares between its attempts. */
interface CallState<A> {
  readonly runtime: Runtime
  readonly call: Call<A>
  readonly request: HttpClientRequest.HttpClientRequest
  readonly url: string
  readonly clock: Clock.Clock
  /** The call's span, only when a tracer is provided. */
  readonly span: Tracer.Span | undefined
  readonly log: Log | undefined
  attempts: number
}

const attemptEvent = (state: CallState<unknown>, n: number, outcome: string, status: number | undefined): void => {
  state.span!.event("attempt", state.clock.unsafeCurrentTimeNanos(), {
    "oms.attempt": n,
    "oms.outcome": outcome,
    ...(status === undefined ? {} : { "http.response.status_code": status })
  })
}

const attempt = <A>(state: CallState<A>, n: number): Effect.Effect<A, OrderManagementError> => {
  state.attempts = n
  const { call, runtime } = state
  const where: Where = { operation: call.operation, method: call.method, url: state.url, attempt: n }
  // The deadline covers the whole exchange, body included: a server that stalls mid-body is as
  // stuck as one that never answers.
  const send = Effect.flatMap(runtime.httpClient.execute(state.request), readText)
  const deadline = {
    duration: runtime.timeout,
    onTimeout: () =>
      new TransportError.Timeout({
        ...where,
        detail: `no complete response within ${Duration.format(runtime.timeout)}`
      })
  }
  const bounded = runtime.transportDeadline
    ? Deadline.timeoutAbort(send, deadline)
    : Deadline.timeoutFail(send, deadline)
  return Effect.matchEffect(bounded, {
    onFailure: (error) => {
      const failure = error._tag === "Timeout" ? error : transportFailure(where)(error)
      if (state.span !== undefined) attemptEvent(state as CallState<unknown>, n, failure._tag, undefined)
      return Effect.fail(failure)
    },
    onSuccess: (exchanged) => {
      const outcome = decodeResponse(runtime, call, where, exchanged, state.clock.unsafeCurrentTimeMillis())
      if (state.span !== undefined) {
        attemptEvent(
          state as CallState<unknown>,
          n,
          Either.isRight(outcome) ? "ok" : outcome.left._tag,
          exchanged.response.status
        )
      }
      if (state.log === undefined) return outcome
      const messageId = Either.isRight(outcome)
        ? (outcome.right as { readonly status?: Envelope.Status }).status?.message.ID ?? ""
        : (outcome.left as { readonly code?: unknown }).code ?? ""
      return Effect.zipRight(
        state.log("order management response", {
          "oms.attempt": n,
          "http.status": exchanged.response.status,
          "oms.messageId": messageId
        }),
        outcome
      )
    }
  })
}

// The redacted URL of a call without query is the same on every call: kept per template.
const plainUrls = new WeakMap<HttpClientRequest.HttpClientRequest, string>()

/**
 * Runs a call with the shared retry policy and rule (`@shoplink/http`'s `Retry`). Only redacted
 * URLs reach spans, logs and errors; the platform's own HTTP span (which would record the full URL,
 * token included) is disabled by the client.
 *
 * Spans: none unless a tracer is provided (`Effect.withTracer`, an OpenTelemetry layer); then one
 * per call, `OrderManagementClient.<operation>`, with an `attempt` event per attempt (its number,
 * outcome and HTTP status) and the number of attempts; it is the parent of what the HttpClient does.
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
  const request = call.body === undefined
    ? withQuery
    : HttpClientRequest.setBody(withQuery, HttpBody.raw(JSON.stringify(call.body)))
  return Effect.withFiberRuntime<A, OrderManagementError>((fiber) => {
    // A debug log costs FiberRef updates even when it is filtered out: build it only when enabled.
    const debug = LogLevel.lessThanEqual(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), LogLevel.Debug)
    const run = (span: Tracer.Span | undefined) => calls(runtime, call, request, redacted, fiber, span, debug)
    const traced = tracerProvided(fiber)
      ? Effect.useSpan(`OrderManagementClient.${call.operation}`, {
        kind: "client",
        captureStackTrace: false,
        attributes: {
          "http.request.method": call.method,
          "url.full": redacted,
          "url.path": `${runtime.basePath}${call.path}`,
          "oms.environment": runtime.environment,
          ...(call.accountNo === undefined ? {} : { "oms.customerAccountNo": call.accountNo })
        }
      }, (span) => Effect.withParentSpan(run(span), span))
      : run(undefined)
    // The platform's own span is disabled; where a transformClient may print a request's headers,
    // keep the APIKey header redacted (only where it is not already).
    if (runtime.transportDeadline) return traced
    const names = fiber.getFiberRef(Headers.currentRedactedNames)
    return names.includes(apiKeyHeader)
      ? traced
      : Effect.locally(traced, Headers.currentRedactedNames, [...names, apiKeyHeader])
  })
}

const calls = <A>(
  runtime: Runtime,
  call: Call<A>,
  request: HttpClientRequest.HttpClientRequest,
  url: string,
  fiber: Fiber.RuntimeFiber<unknown, unknown>,
  span: Tracer.Span | undefined,
  debug: boolean
): Effect.Effect<A, OrderManagementError> => {
  const clock = Context.get(fiber.currentDefaultServices, Clock.Clock)
  const log: Log | undefined = debug
    ? (message, annotations) =>
      Effect.annotateLogs(Effect.logDebug(message), {
        "oms.operation": call.operation,
        "http.method": call.method,
        "url.full": url,
        ...annotations
      })
    : undefined
  const state: CallState<A> = { runtime, call, request, url, clock, span, log, attempts: 0 }
  const retried = Retry.retry((n) => attempt(state, n), {
    policy: runtime.retry,
    idempotency: call.idempotency,
    startedAt: clock.unsafeCurrentTimeMillis(),
    onRetry: debug || span !== undefined
      ? ({ attempt: n, delay, error }) => {
        span?.event("retry", clock.unsafeCurrentTimeNanos(), {
          "oms.attempt": n,
          "oms.retryIn": Duration.format(delay)
        })
        return log === undefined
          ? Effect.void
          : log("order management call failed; retrying", {
            "oms.attempt": n,
            "oms.error": error.message,
            "oms.retryIn": Duration.format(delay)
          })
      }
      : undefined
  })
  // The fast path: nothing to record.
  if (!debug && span === undefined) return retried
  return Effect.matchEffect(retried, {
    onSuccess: (value) => {
      span?.attribute("oms.attempts", state.attempts)
      return Effect.succeed(value)
    },
    onFailure: (error) => {
      span?.attribute("oms.attempts", state.attempts)
      return log === undefined
        ? Effect.fail(error)
        : Effect.zipRight(
          log("order management call failed", { "oms.attempt": state.attempts, "oms.error": error.message }),
          Effect.fail(error)
        )
    }
  })
}

const isEmpty = (record: Readonly<Record<string, string>>): boolean => {
  for (const _ in record) return false
  return true
}
