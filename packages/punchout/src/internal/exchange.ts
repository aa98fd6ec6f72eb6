// One command exchange: POST JSON, read the envelope whatever the HTTP status, map every failure to
// a typed error, and retry per the command's mode. Secrets never reach spans, logs or errors.
import * as HttpBody from "@effect/platform/HttpBody"
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as LogLevel from "effect/LogLevel"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type * as Tracer from "effect/Tracer"
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
}

export interface CommandSpec<A, I> {
  readonly command: CommandName
  /** The full URL, token included: never logged or put on a span. */
  readonly url: Redacted.Redacted<string>
  readonly body: unknown
  readonly response: Schema.Schema<A, I>
  /** From the API's definition (`PunchoutApi.route`). */
  readonly method: "GET" | "POST"
  readonly idempotency: Retry.Idempotency
  readonly referenceID?: string | undefined
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>
}

export type ExchangeError = MessageError.MessageError | TransportError.TransportError

/** The platform client records `url.full` on its span, which would carry the session token. */
export const prepareClient = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  HttpClient.withTracerDisabledWhen(client, () => true)

interface RawResponse {
  readonly status: number
  readonly contentType: string
  readonly retryAfter: string | undefined
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
      const retryAfterMillis = Transport.retryAfterMillis(raw.retryAfter, now)
      const retryAfter = retryAfterMillis === undefined ? {} : { retryAfter: Duration.millis(retryAfterMillis) }
      if (raw.status === 429) {
        return new TransportError.RateLimited({ operation: spec.command, httpStatus: raw.status, attempt, excerpt: cut, ...retryAfter })
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
    return new TransportError.UnexpectedResponse({ operation: spec.command, reason, httpStatus: raw.status, attempt, detail: safeDetail, excerpt: cut })
  }
  if (raw.text.trim() === "") return Either.left(unreadable("EmptyBody", "the response body is empty"))
  let json: unknown
  try {
    json = JSON.parse(raw.text)
  } catch (error) {
    const type = raw.contentType === "" ? "no content type" : `content type ${raw.contentType}`
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

const readRaw = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<RawResponse, HttpClientError.ResponseError> =>
  Effect.map(response.text, (text): RawResponse => ({
    status: response.status,
    contentType: response.headers["content-type"] ?? "",
    retryAfter: response.headers["retry-after"],
    text
  }))

const attemptOnce = <A, I>(
  config: ExchangeConfig,
  spec: CommandSpec<A, I>,
  request: HttpClientRequest.HttpClientRequest,
  attempt: number,
  commandSpan: Tracer.Span
): Effect.Effect<A, ExchangeError> => {
  const failed = (reason: TransportError.RequestFailed["reason"], requestSent: boolean, detail: string) =>
    new TransportError.RequestFailed({ operation: spec.command, reason, requestSent, attempt, detail: redactText(detail, spec.secrets) })
  const exchange = config.httpClient.execute(request).pipe(
    Effect.flatMap(readRaw),
    Effect.mapError((error) => {
      if (error._tag === "RequestError") {
        if (error.reason !== "Transport") return failed("InvalidRequest", false, `${error.reason}: request could not be built`)
        const notSent = Transport.notSentReason(error.cause)
        return notSent === undefined
          ? failed("Transport", true, Transport.describeCause(error.cause))
          : failed(notSent, false, Transport.describeCause(error.cause))
      }
      // The response started but its body could not be read: the server has the request.
      return failed("Transport", true, Transport.describeCause(error.cause ?? error))
    })
  )
  return Effect.useSpan(`Punchout.${spec.command}.attempt`, {
    kind: "client",
    captureStackTrace: false,
    parent: commandSpan,
    attributes: { "punchout.command": spec.command, "punchout.attempt": attempt }
  }, (span) =>
    Effect.flatMap(
      Deadline.timeoutFail(exchange, {
        duration: config.timeout,
        onTimeout: () =>
          new TransportError.Timeout({ operation: spec.command, attempt, detail: `no complete response within ${Duration.format(config.timeout)}` }),
        parentSpan: span
      }),
      (raw) => Effect.clockWith((clock) => decodeResponse(spec, raw, attempt, clock.unsafeCurrentTimeMillis()))
    ))
}

/**
 * Runs a command with the shared retry policy and rule (`@shoplink/http`'s `Retry`). `finalError`
 * may replace the error that ends the command, knowing how many attempts were made (SubmitOrder's
 * "already submitted after a retry").
 *
 * The command span is the parent of the attempt spans and of the debug logs, and each attempt span
 * the parent of what the HttpClient does (the attempt fiber starts with it in its context). The
 * command span is not provided around the whole loop: that would copy the caller's context and
 * FiberRefs on every command for nothing.
 */
export const runCommand = <A, I, E = never>(
  config: ExchangeConfig,
  spec: CommandSpec<A, I>,
  finalError: (error: ExchangeError, attempts: number) => ExchangeError | E = (error) => error
): Effect.Effect<A, ExchangeError | E> => {
  const commandAttributes = { "punchout.command": spec.command, "punchout.referenceID": spec.referenceID ?? "" }
  return Effect.useSpan(`PunchoutClient.${spec.command}`, { captureStackTrace: false, attributes: commandAttributes }, (span) =>
    Effect.withFiberRuntime<A, ExchangeError | E>((fiber) => {
      // A debug log costs FiberRef updates even when it is filtered out: build it only when enabled.
      const debug = LogLevel.lessThanEqual(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), LogLevel.Debug)
      const log = (message: string, annotations: Record<string, unknown>) =>
        Effect.logDebug(message).pipe(Effect.annotateLogs({ ...commandAttributes, ...annotations }), Effect.withParentSpan(span))
      // One request for every attempt: the body and headers do not change between them.
      const request = HttpClientRequest.make(spec.method)(Redacted.value(spec.url), {
        headers: { accept: "application/json", "user-agent": USER_AGENT },
        body: HttpBody.unsafeJson(spec.body)
      })
      let attempts = 0
      const once = (attempt: number) => {
        attempts = attempt
        return attemptOnce(config, spec, request, attempt, span)
      }
      return Effect.matchEffect(
        Retry.retry(once, {
          policy: config.retry,
          idempotency: spec.idempotency,
          onRetry: debug
            ? ({ attempt, delay, error }) =>
              log("punchout command failed; retrying", {
                "punchout.attempt": attempt,
                "punchout.error": error.message,
                "punchout.retryIn": Duration.format(delay)
              })
            : undefined
        }),
        {
          onSuccess: (value) => {
            span.attribute("punchout.attempts", attempts)
            return debug ? Effect.as(log("punchout command succeeded", { "punchout.attempt": attempts }), value) : Effect.succeed(value)
          },
          onFailure: (error) => {
            span.attribute("punchout.attempts", attempts)
            const failed = Effect.fail(finalError(error, attempts))
            return debug
              ? Effect.zipRight(log("punchout command failed", { "punchout.attempt": attempts, "punchout.error": error.message }), failed)
              : failed
          }
        }
      )
    }))
}
