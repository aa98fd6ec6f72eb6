// One command exchange: POST JSON, read the envelope whatever the HTTP status, map every failure to
// a typed error, and retry per the command's mode. Secrets never reach spans, logs or errors.
//
// The hot path (issue #29): no span unless a tracer is provided (then one per command, attempts as
// its events); the deadline enforced by the transport when it can (`Deadline.timeoutAbort`, no fiber
// per attempt); no retry state until an attempt fails; the request per session and command built
// once, its body a JSON string.
import * as HttpBody from "@effect/platform/HttpBody"
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
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
import * as Tracer from "effect/Tracer"
import type * as Fiber from "effect/Fiber"
import { Deadline, Retry, Transport, TransportError } from "@shoplink/http"
import { Decoder, Envelope, type MessageError } from "@shoplink/protocol"
import type { CommandName } from "../PunchoutError.js"
import { excerpt, redactText } from "./redact.js"
import { USER_AGENT } from "./version.js"

const { compiledDecoder } = Decoder

export interface ExchangeConfig {
  readonly httpClient: HttpClient.HttpClient
  readonly timeout: Duration.Duration
  readonly retry: Retry.RetryPolicy
  /** The transport enforces `Deadline.timeoutAbort` deadlines: no fiber per attempt. */
  readonly transportDeadline: boolean
}

export interface CommandSpec<A, I> {
  readonly command: CommandName
  /** The request without body (method, full URL with the token, headers): see `requestFor`. */
  readonly request: HttpClientRequest.HttpClientRequest
  /** The encoded body, serialized once. */
  readonly body: string
  readonly response: Schema.Schema<A, I>
  /** From the API's definition (`PunchoutApi.route`). */
  readonly idempotency: Retry.Idempotency
  readonly referenceID?: string | undefined
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>
}

export type ExchangeError = MessageError.MessageError | TransportError.TransportError

/** The platform client records `url.full` on its span, which would carry the session token. */
export const prepareClient = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  HttpClient.withTracerDisabledWhen(client, () => true)

/**
 * A command's request without its body: method, URL (token included: never logged or put on a
 * span) and headers, `content-type` included so that the body can be a plain JSON string. Built
 * once per session and command by the client.
 */
export const requestFor = (method: "GET" | "POST", url: string): HttpClientRequest.HttpClientRequest =>
  HttpClientRequest.make(method)(url, {
    headers: { accept: "application/json", "content-type": "application/json", "user-agent": USER_AGENT }
  })

const nativeTracer = Context.get(DefaultServices.liveServices, Tracer.Tracer)

/** Spans only when the user provided a tracer (not Effect's default native one) and tracing is on. */
export const tracerProvided = (fiber: Fiber.RuntimeFiber<unknown, unknown>): boolean =>
  Context.get(fiber.currentDefaultServices, Tracer.Tracer) !== nativeTracer &&
  fiber.getFiberRef(FiberRef.currentTracerEnabled)

// The headers are read only on the way to an error: building them costs an object per response.
interface RawResponse {
  readonly status: number
  readonly response: HttpClientResponse.HttpClientResponse
  readonly text: string
}

// Decoders are compiled once per schema, not per response (`compiledDecoder`: a fast path for
// valid input, Effect's own decoder for everything else, so errors are Effect's).
const decoders = new WeakMap<object, (u: unknown) => Either.Either<unknown, ParseResult.ParseError>>()
const decoderOf = <A, I>(schema: Schema.Schema<A, I>): (u: unknown) => Either.Either<A, ParseResult.ParseError> => {
  let decoder = decoders.get(schema)
  if (decoder === undefined) {
    decoder = compiledDecoder(schema)
    decoders.set(schema, decoder)
  }
  return decoder as (u: unknown) => Either.Either<A, ParseResult.ParseError>
}
const decodeEnvelope = compiledDecoder(Envelope.StatusEnvelope)

const transientStatus = (status: number) => status === 408 || status === 429 || status >= 500

const decodeResponse = <A, I>(
  spec: CommandSpec<A, I>,
  raw: RawResponse,
  attempt: number,
  now: number
): Either.Either<A, ExchangeError> => {
  const unreadable = (reason: TransportError.UnexpectedResponse["reason"], detail: string): ExchangeError => {
    const cut = excerpt(raw.text, spec.secrets)
    const safeDetail = redactText(detail, spec.secrets)
    if (transientStatus(raw.status)) {
      const retryAfterMillis = Transport.retryAfterMillis(raw.response.headers["retry-after"], now)
      const retryAfter = retryAfterMillis === undefined ? {} : { retryAfter: Duration.millis(retryAfterMillis) }
      if (raw.status === 429) {
        return new TransportError.RateLimited({
          operation: spec.command,
          httpStatus: raw.status,
          attempt,
          excerpt: cut,
          ...retryAfter
        })
      }
      return new TransportError.UnexpectedResponse({
        operation: spec.command,
        reason,
        httpStatus: raw.status,
        attempt,
        detail: safeDetail,
        excerpt: cut,
        ...retryAfter
      })
    }
    return new TransportError.UnexpectedResponse({
      operation: spec.command,
      reason,
      httpStatus: raw.status,
      attempt,
      detail: safeDetail,
      excerpt: cut
    })
  }
  if (raw.text.trim() === "") return Either.left(unreadable("EmptyBody", "the response body is empty"))
  let json: unknown
  try {
    json = JSON.parse(raw.text)
  } catch (error) {
    const contentType = raw.response.headers["content-type"] ?? ""
    const type = contentType === "" ? "no content type" : `content type ${contentType}`
    return Either.left(unreadable("InvalidJson", `${type}; ${error instanceof Error ? error.message : String(error)}`))
  }
  // Happy path: one decode of the whole response, then the envelope rule on its status.
  const decoded = decoderOf(spec.response)(json)
  if (Either.isRight(decoded)) {
    const body = decoded.right as { readonly status?: Envelope.Status; readonly serverVersion?: string | null }
    if (body.status !== undefined) {
      const outcome = Envelope.classify({
        status: body.status,
        serverVersion: body.serverVersion ?? undefined,
        referenceID: Envelope.referenceOf(json)
      }, raw.status)
      return Either.isLeft(outcome) ? Either.left(outcome.left) : Either.right(decoded.right)
    }
  }
  // Otherwise read just the envelope: an error envelope lacks the data, and that is not malformed.
  const envelope = decodeEnvelope(json)
  if (Either.isLeft(envelope)) {
    return Either.left(unreadable("NotAnEnvelope", ParseResult.TreeFormatter.formatErrorSync(envelope.left)))
  }
  const outcome = Envelope.classify({
    status: envelope.right.status,
    serverVersion: envelope.right.serverVersion ?? undefined,
    referenceID: Envelope.referenceOf(json)
  }, raw.status)
  if (Either.isLeft(outcome)) return Either.left(outcome.left)
  return Either.left(
    new TransportError.UnexpectedResponse({
      operation: spec.command,
      reason: "UnexpectedShape",
      httpStatus: raw.status,
      attempt,
      detail: Either.isLeft(decoded)
        ? redactText(ParseResult.TreeFormatter.formatErrorSync(decoded.left), spec.secrets)
        : "the response has no status",
      excerpt: excerpt(raw.text, spec.secrets)
    })
  )
}

const readRaw = (
  response: HttpClientResponse.HttpClientResponse
): Effect.Effect<RawResponse, HttpClientError.ResponseError> =>
  Effect.map(response.text, (text): RawResponse => ({ status: response.status, response, text }))

const toRequestFailed = <A, I>(
  spec: CommandSpec<A, I>,
  attempt: number,
  error: HttpClientError.HttpClientError
): ExchangeError => {
  const failed = (reason: TransportError.RequestFailed["reason"], requestSent: boolean, detail: string) =>
    new TransportError.RequestFailed({
      operation: spec.command,
      reason,
      requestSent,
      attempt,
      detail: redactText(detail, spec.secrets)
    })
  if (error._tag === "RequestError") {
    if (error.reason !== "Transport") {
      return failed("InvalidRequest", false, `${error.reason}: request could not be built`)
    }
    const notSent = Transport.notSentReason(error.cause)
    return notSent === undefined
      ? failed("Transport", true, Transport.describeCause(error.cause))
      : failed(notSent, false, Transport.describeCause(error.cause))
  }
  // The response started but its body could not be read: the server has the request.
  return failed("Transport", true, Transport.describeCause(error.cause ?? error))
}

/** What one call shares between its attempts. */
interface CallState<A, I> {
  readonly config: ExchangeConfig
  readonly spec: CommandSpec<A, I>
  readonly request: HttpClientRequest.HttpClientRequest
  readonly clock: Clock.Clock
  /** The command's span, only when a tracer is provided. */
  readonly span: Tracer.Span | undefined
  attempts: number
}

const attemptEvent = (
  state: CallState<unknown, unknown>,
  attempt: number,
  outcome: string,
  status: number | undefined
): void => {
  state.span!.event("attempt", state.clock.unsafeCurrentTimeNanos(), {
    "punchout.attempt": attempt,
    "punchout.outcome": outcome,
    ...(status === undefined ? {} : { "http.response.status_code": status })
  })
}

const attemptOnce = <A, I>(state: CallState<A, I>, attempt: number): Effect.Effect<A, ExchangeError> => {
  state.attempts = attempt
  const { config, spec } = state
  // The deadline covers the whole exchange, body included.
  const exchange = Effect.flatMap(config.httpClient.execute(state.request), readRaw)
  const deadline = {
    duration: config.timeout,
    onTimeout: () =>
      new TransportError.Timeout({
        operation: spec.command,
        attempt,
        detail: `no complete response within ${Duration.format(config.timeout)}`
      })
  }
  const bounded = config.transportDeadline
    ? Deadline.timeoutAbort(exchange, deadline)
    : Deadline.timeoutFail(exchange, deadline)
  return Effect.matchEffect(bounded, {
    onFailure: (error) => {
      const failure = error._tag === "Timeout" ? error : toRequestFailed(spec, attempt, error)
      if (state.span !== undefined) attemptEvent(state as CallState<unknown, unknown>, attempt, failure._tag, undefined)
      return Effect.fail(failure)
    },
    onSuccess: (raw) => {
      const outcome = decodeResponse(spec, raw, attempt, state.clock.unsafeCurrentTimeMillis())
      if (state.span !== undefined) {
        attemptEvent(
          state as CallState<unknown, unknown>,
          attempt,
          Either.isRight(outcome) ? "ok" : outcome.left._tag,
          raw.status
        )
      }
      return outcome
    }
  })
}

/**
 * Runs a command with the shared retry policy and rule (`@shoplink/http`'s `Retry`). `finalError`
 * may replace the error that ends the command, knowing how many attempts were made (SubmitOrder's
 * "already submitted after a retry").
 *
 * Spans: none unless a tracer is provided (`Effect.withTracer`, an OpenTelemetry layer); then one
 * per command, `PunchoutClient.<command>`, with an `attempt` event per attempt (its number, outcome
 * and HTTP status) and the number of attempts; it is the parent of what the HttpClient does.
 */
export const runCommand = <A, I, E = never>(
  config: ExchangeConfig,
  spec: CommandSpec<A, I>,
  finalError?: (error: ExchangeError, attempts: number) => ExchangeError | E
): Effect.Effect<A, ExchangeError | E> =>
  Effect.withFiberRuntime<A, ExchangeError | E>((fiber) => {
    // A debug log costs FiberRef updates even when it is filtered out: build it only when enabled.
    const debug = LogLevel.lessThanEqual(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), LogLevel.Debug)
    if (!tracerProvided(fiber)) return run(config, spec, fiber, undefined, debug, finalError)
    return Effect.useSpan(`PunchoutClient.${spec.command}`, {
      kind: "client",
      captureStackTrace: false,
      attributes: { "punchout.command": spec.command, "punchout.referenceID": spec.referenceID ?? "" }
    }, (span) => Effect.withParentSpan(run(config, spec, fiber, span, debug, finalError), span))
  })

const run = <A, I, E>(
  config: ExchangeConfig,
  spec: CommandSpec<A, I>,
  fiber: Fiber.RuntimeFiber<unknown, unknown>,
  span: Tracer.Span | undefined,
  debug: boolean,
  finalError: ((error: ExchangeError, attempts: number) => ExchangeError | E) | undefined
): Effect.Effect<A, ExchangeError | E> => {
  const clock = Context.get(fiber.currentDefaultServices, Clock.Clock)
  // One request for every attempt: the body and headers do not change between them.
  const state: CallState<A, I> = {
    config,
    spec,
    request: HttpClientRequest.setBody(spec.request, HttpBody.raw(spec.body)),
    clock,
    span,
    attempts: 0
  }
  const retried = Retry.retry((attempt) => attemptOnce(state, attempt), {
    policy: config.retry,
    idempotency: spec.idempotency,
    startedAt: clock.unsafeCurrentTimeMillis(),
    onRetry: debug || span !== undefined
      ? ({ attempt, delay, error }) => {
        span?.event("retry", clock.unsafeCurrentTimeNanos(), {
          "punchout.attempt": attempt,
          "punchout.retryIn": Duration.format(delay)
        })
        return debug
          ? log(spec, "punchout command failed; retrying", {
            "punchout.attempt": attempt,
            "punchout.error": error.message,
            "punchout.retryIn": Duration.format(delay)
          })
          : Effect.void
      }
      : undefined
  })
  // The fast path: nothing to record, nothing to replace.
  if (!debug && span === undefined && finalError === undefined) return retried
  return Effect.matchEffect(retried, {
    onSuccess: (value) => {
      span?.attribute("punchout.attempts", state.attempts)
      return debug
        ? Effect.as(log(spec, "punchout command succeeded", { "punchout.attempt": state.attempts }), value)
        : Effect.succeed(value)
    },
    onFailure: (error) => {
      span?.attribute("punchout.attempts", state.attempts)
      const failed = Effect.fail(finalError === undefined ? error : finalError(error, state.attempts))
      return debug
        ? Effect.zipRight(
          log(spec, "punchout command failed", { "punchout.attempt": state.attempts, "punchout.error": error.message }),
          failed
        )
        : failed
    }
  })
}

const log = <A, I>(spec: CommandSpec<A, I>, message: string, annotations: Record<string, unknown>) =>
  Effect.annotateLogs(Effect.logDebug(message), {
    "punchout.command": spec.command,
    "punchout.referenceID": spec.referenceID ?? "",
    ...annotations
  })
