// One command exchange: POST JSON, read the envelope whatever the HTTP status, map every failure to
// a typed error, and retry per the command's mode. Secrets never reach spans, logs or errors.
import { HttpBody, HttpClient, type HttpClientError, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { Clock, Context, Duration, Effect, Either, FiberRef, LogLevel, ParseResult, Random, Redacted, Schema, type Tracer } from "effect"
import { Envelope, type MessageError, Transport } from "@shoplink/protocol"
import { type CommandName, MalformedResponse, PunchoutTransportError, RateLimited } from "../PunchoutError.js"
import { delayFor, isRetryable, type RetryMode, type RetryPolicy } from "../RetryPolicy.js"
import { excerpt, redactText } from "./redact.js"
import { withDeadline } from "./timeout.js"
import { USER_AGENT } from "./version.js"

export interface ExchangeConfig {
  readonly httpClient: HttpClient.HttpClient
  readonly timeout: Duration.Duration
  readonly retry: RetryPolicy
}

export interface CommandSpec<A, I> {
  readonly command: CommandName
  /** The full URL, token included: never logged or put on a span. */
  readonly url: Redacted.Redacted<string>
  readonly body: unknown
  readonly response: Schema.Schema<A, I>
  readonly mode: RetryMode
  readonly referenceID?: string | undefined
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>
}

export type ExchangeError = MessageError.MessageError | PunchoutTransportError | RateLimited | MalformedResponse

/** The platform client records `url.full` on its span, which would carry the session token. */
export const prepareClient = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  HttpClient.withTracerDisabledWhen(client, () => true)

interface RawResponse {
  readonly status: number
  readonly contentType: string
  readonly retryAfter: string | undefined
  readonly text: string
}

// Decoders are built once per schema, not per response.
const decoders = new WeakMap<object, (u: unknown) => Either.Either<unknown, ParseResult.ParseError>>()
const decoderOf = <A, I>(schema: Schema.Schema<A, I>): (u: unknown) => Either.Either<A, ParseResult.ParseError> => {
  let decoder = decoders.get(schema)
  if (decoder === undefined) {
    decoder = Schema.decodeUnknownEither(schema)
    decoders.set(schema, decoder)
  }
  return decoder as (u: unknown) => Either.Either<A, ParseResult.ParseError>
}
const decodeEnvelope = Schema.decodeUnknownEither(Envelope.StatusEnvelope)

const transientStatus = (status: number) => status === 408 || status === 429 || status >= 500

const decodeResponse = <A, I>(
  spec: CommandSpec<A, I>,
  raw: RawResponse,
  attempt: number,
  now: number
): Either.Either<A, ExchangeError> => {
  const unreadable = (reason: MalformedResponse["reason"], detail: string): ExchangeError => {
    const cut = excerpt(raw.text, spec.secrets)
    const safeDetail = redactText(detail, spec.secrets)
    if (transientStatus(raw.status)) {
      const retryAfterMillis = Transport.retryAfterMillis(raw.retryAfter, now)
      if (raw.status === 429) {
        return new RateLimited({
          command: spec.command,
          httpStatus: raw.status,
          attempt,
          excerpt: cut,
          ...(retryAfterMillis === undefined ? {} : { retryAfter: Duration.millis(retryAfterMillis) })
        })
      }
      return new PunchoutTransportError({
        command: spec.command,
        reason: "HttpStatus",
        requestSent: true,
        attempt,
        httpStatus: raw.status,
        detail: `${reason}: ${safeDetail}`,
        excerpt: cut,
        ...(retryAfterMillis === undefined ? {} : { retryAfterMillis })
      })
    }
    return new MalformedResponse({ command: spec.command, reason, httpStatus: raw.status, detail: safeDetail, excerpt: cut })
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
    new MalformedResponse({
      command: spec.command,
      reason: "UnexpectedShape",
      httpStatus: raw.status,
      detail: Either.isLeft(decoded)
        ? redactText(ParseResult.TreeFormatter.formatErrorSync(decoded.left), spec.secrets)
        : "the response has no status",
      excerpt: excerpt(raw.text, spec.secrets)
    })
  )
}

interface Attempt {
  readonly number: number
  readonly clock: Clock.Clock
  readonly commandSpan: Tracer.Span
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
  attempt: Attempt
): Effect.Effect<A, ExchangeError> => {
  const transport = (reason: PunchoutTransportError["reason"], requestSent: boolean, detail: string) =>
    new PunchoutTransportError({
      command: spec.command,
      reason,
      requestSent,
      attempt: attempt.number,
      detail: redactText(detail, spec.secrets)
    })
  const exchange = config.httpClient.execute(request).pipe(
    Effect.flatMap(readRaw),
    Effect.mapError((error) => {
      if (error._tag === "RequestError") {
        if (error.reason !== "Transport") return transport("Transport", false, `${error.reason}: request could not be built`)
        const notSent = Transport.notSentReason(error.cause)
        return notSent === undefined
          ? transport("Transport", true, Transport.describeCause(error.cause))
          : transport(notSent, false, Transport.describeCause(error.cause))
      }
      // The response started but its body could not be read: the server has the request.
      return transport("Transport", true, Transport.describeCause(error.cause ?? error))
    })
  )
  return Effect.useSpan(`Punchout.${spec.command}.attempt`, {
    kind: "client",
    captureStackTrace: false,
    parent: attempt.commandSpan,
    attributes: { "punchout.command": spec.command, "punchout.attempt": attempt.number }
  }, (span) =>
    Effect.flatMap(
      withDeadline(exchange, {
        duration: config.timeout,
        onTimeout: () => transport("Timeout", true, `no complete response within ${Duration.format(config.timeout)}`),
        parentSpan: span
      }),
      (raw) => decodeResponse(spec, raw, attempt.number, attempt.clock.unsafeCurrentTimeMillis())
    ))
}

/**
 * Runs a command with its retry rule. `finalError` may replace the error that ends the command,
 * knowing how many attempts were made (SubmitOrder's "already submitted after a retry").
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
      const policy = config.retry
      const clock = Context.get(fiber.currentDefaultServices, Clock.Clock)
      // A debug log costs FiberRef updates even when it is filtered out: build it only when enabled.
      const debug = LogLevel.lessThanEqual(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), LogLevel.Debug)
      const log = (message: string, annotations: Record<string, unknown>) =>
        Effect.logDebug(message).pipe(Effect.annotateLogs({ ...commandAttributes, ...annotations }), Effect.withParentSpan(span))
      const started = clock.unsafeCurrentTimeMillis()
      // One request for every attempt: the body and headers do not change between them.
      const request = HttpClientRequest.post(Redacted.value(spec.url), {
        headers: { accept: "application/json", "user-agent": USER_AGENT },
        body: HttpBody.unsafeJson(spec.body)
      })
      const finish = (attempt: number) => span.attribute("punchout.attempts", attempt)
      const run = (attempt: number): Effect.Effect<A, ExchangeError | E> =>
        Effect.matchEffect(attemptOnce(config, spec, request, { number: attempt, clock, commandSpan: span }), {
          onSuccess: (value) => {
            finish(attempt)
            return debug ? Effect.as(log("punchout command succeeded", { "punchout.attempt": attempt }), value) : Effect.succeed(value)
          },
          onFailure: (error) =>
            Effect.flatMap(Random.next, (random) => {
              const now = clock.unsafeCurrentTimeMillis()
              const retryAfter = error._tag === "PunchoutTransportError"
                ? error.retryAfterMillis
                : error._tag === "RateLimited" && error.retryAfter !== undefined
                ? Duration.toMillis(error.retryAfter)
                : undefined
              const delay = delayFor(policy, attempt, random, retryAfter)
              const withinBudget = now - started + Duration.toMillis(delay) <= Duration.toMillis(policy.maxElapsed)
              // A server asking for a longer pause than we wait gets no retry: the error carries the delay.
              const pauseTooLong = retryAfter !== undefined && retryAfter > Duration.toMillis(policy.retryAfterCap)
              if (attempt >= policy.maxAttempts || pauseTooLong || !withinBudget || !isRetryable(spec.mode, error)) {
                finish(attempt)
                const failed = Effect.fail(finalError(error, attempt))
                return debug
                  ? Effect.zipRight(log("punchout command failed", { "punchout.attempt": attempt, "punchout.error": error.message }), failed)
                  : failed
              }
              const again = Effect.suspend(() => run(attempt + 1))
              const next = Duration.toMillis(delay) > 0 ? Effect.zipRight(Effect.sleep(delay), again) : again
              return debug
                ? Effect.zipRight(
                  log("punchout command failed; retrying", {
                    "punchout.attempt": attempt,
                    "punchout.error": error.message,
                    "punchout.retryIn": Duration.format(delay)
                  }),
                  next
                )
                : next
            })
        })
      return run(1)
    }))
}
