// One command exchange: POST JSON, read the envelope whatever the HTTP status, map every failure to
// a typed error, and retry per the command's mode. Secrets never reach spans, logs or errors.
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Clock, Duration, Effect, Either, ParseResult, Random, Redacted, Schema } from "effect"
import { Envelope, type MessageError, Transport } from "@shoplink/protocol"
import { type CommandName, MalformedResponse, PunchoutTransportError } from "../PunchoutError.js"
import { delayFor, isRetryable, type RetryMode, type RetryPolicy } from "../RetryPolicy.js"
import { excerpt, redactText } from "./redact.js"
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

export type ExchangeError = MessageError.MessageError | PunchoutTransportError | MalformedResponse

/** Sets our User-Agent under the caller's `transformClient`, which may still replace it. */
export const withUserAgent = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  HttpClient.mapRequest(client, HttpClientRequest.setHeader("user-agent", USER_AGENT))

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

const attemptOnce = <A, I>(config: ExchangeConfig, spec: CommandSpec<A, I>, attempt: number): Effect.Effect<A, ExchangeError> => {
  const request = HttpClientRequest.post(Redacted.value(spec.url)).pipe(
    HttpClientRequest.acceptJson,
    HttpClientRequest.bodyUnsafeJson(spec.body)
  )
  const transport = (reason: PunchoutTransportError["reason"], requestSent: boolean, detail: string) =>
    new PunchoutTransportError({ command: spec.command, reason, requestSent, attempt, detail: redactText(detail, spec.secrets) })
  return config.httpClient.execute(request).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.text, (text): RawResponse => ({
        status: response.status,
        contentType: response.headers["content-type"] ?? "",
        retryAfter: response.headers["retry-after"],
        text
      }))
    ),
    Effect.mapError((error) => {
      if (error._tag === "RequestError") {
        if (error.reason !== "Transport") return transport("Transport", false, `${error.reason}: request could not be built`)
        const refused = Transport.neverSent(error.cause)
        return refused
          ? transport("ConnectionRefused", false, Transport.describeCause(error.cause))
          : transport("Transport", true, Transport.describeCause(error.cause))
      }
      // The response started but its body could not be read: the server has the request.
      return transport("Transport", true, Transport.describeCause(error.cause ?? error))
    }),
    Effect.timeoutFail({
      duration: config.timeout,
      onTimeout: () => transport("Timeout", true, `no complete response within ${Duration.format(config.timeout)}`)
    }),
    Effect.flatMap((raw) => Effect.flatMap(Clock.currentTimeMillis, (now) => decodeResponse(spec, raw, attempt, now))),
    Effect.withSpan(`Punchout.${spec.command}.attempt`, {
      kind: "client",
      captureStackTrace: false,
      attributes: { "punchout.command": spec.command, "punchout.attempt": attempt }
    })
  )
}

/**
 * Runs a command with its retry rule. `finalError` may replace the error that ends the command,
 * knowing how many attempts were made (SubmitOrder's "already submitted after a retry").
 */
export const runCommand = <A, I, E = never>(
  config: ExchangeConfig,
  spec: CommandSpec<A, I>,
  finalError: (error: ExchangeError, attempts: number) => ExchangeError | E = (error) => error
): Effect.Effect<A, ExchangeError | E> =>
  Effect.gen(function*() {
    const policy = config.retry
    // Annotations go on each log line rather than around the whole command: cheaper on the happy path.
    const logContext = { "punchout.command": spec.command, "punchout.referenceID": spec.referenceID ?? "" }
    const started = yield* Clock.currentTimeMillis
    let attempt = 1
    while (true) {
      const outcome = yield* Effect.either(attemptOnce(config, spec, attempt))
      if (Either.isRight(outcome)) {
        yield* Effect.annotateCurrentSpan("punchout.attempts", attempt)
        yield* Effect.logDebug("punchout command succeeded").pipe(Effect.annotateLogs({ ...logContext, "punchout.attempt": attempt }))
        return outcome.right
      }
      const error = outcome.left
      const now = yield* Clock.currentTimeMillis
      const retryAfter = error._tag === "PunchoutTransportError" ? error.retryAfterMillis : undefined
      const delay = delayFor(policy, attempt, yield* Random.next, retryAfter)
      const withinBudget = now - started + Duration.toMillis(delay) <= Duration.toMillis(policy.maxElapsed)
      if (attempt >= policy.maxAttempts || !withinBudget || !isRetryable(spec.mode, error)) {
        yield* Effect.annotateCurrentSpan("punchout.attempts", attempt)
        yield* Effect.logDebug("punchout command failed").pipe(
          Effect.annotateLogs({ ...logContext, "punchout.attempt": attempt, "punchout.error": error.message })
        )
        return yield* Effect.fail(finalError(error, attempt))
      }
      yield* Effect.logDebug("punchout command failed; retrying").pipe(
        Effect.annotateLogs({
          ...logContext,
          "punchout.attempt": attempt,
          "punchout.error": error.message,
          "punchout.retryIn": Duration.format(delay)
        })
      )
      if (Duration.toMillis(delay) > 0) yield* Effect.sleep(delay)
      attempt++
    }
  }).pipe(
    Effect.withSpan(`PunchoutClient.${spec.command}`, {
      captureStackTrace: false,
      attributes: { "punchout.command": spec.command, "punchout.referenceID": spec.referenceID ?? "" }
    })
  )
