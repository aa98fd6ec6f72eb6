// One Shopmonkey call: build the request (bearer key in the Authorization header only), read the
// answer whatever its status, map every failure to a ShopmonkeyError, and retry per the call's mode.
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Clock, Duration, Effect, Either, Option, Random, Redacted } from "effect"
import { Transport } from "@shoplink/protocol"
import { ShopmonkeyError } from "../ShopmonkeyError.js"

export interface RetrySettings {
  readonly maxAttempts: number
  readonly baseDelay: Duration.Duration
  readonly maxDelay: Duration.Duration
  readonly maxRetryAfter: Duration.Duration
  readonly maxElapsed: Duration.Duration
}

export interface ExchangeConfig {
  readonly httpClient: HttpClient.HttpClient
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  readonly timeout: Duration.Duration
  readonly retry: RetrySettings
}

/**
 * `read`: GETs, safe to repeat — retried on no response, timeouts, 408, 429 and 5xx.
 * `create`: POSTs that add a row — retried only when Shopmonkey cannot have acted on them: a 429
 * (rejected before processing) or a refused connection (never sent).
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

interface Failure {
  readonly reason: ShopmonkeyError["reason"]
  readonly status?: number
  readonly code?: string
  readonly detail: string
  readonly requestSent: boolean
  readonly retryAfterMillis?: number
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

const attemptOnce = (config: ExchangeConfig, call: Call): Effect.Effect<Either.Either<unknown, Failure>> =>
  Effect.gen(function*() {
    let request = HttpClientRequest.make(call.method)(`${config.baseUrl}${call.path}`, {
      urlParams: call.query ?? {},
      acceptJson: true
    }).pipe(HttpClientRequest.bearerToken(Redacted.value(config.apiKey)))
    if (call.body !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, call.body)
    const exchanged = yield* config.httpClient.execute(request).pipe(
      Effect.flatMap((response) =>
        Effect.map(response.text, (text) => ({ status: response.status, text, retryAfter: response.headers["retry-after"] }))
      ),
      Effect.timeout(config.timeout),
      Effect.either
    )
    if (Either.isLeft(exchanged)) {
      const error = exchanged.left
      if (error._tag === "TimeoutException") {
        return Either.left<Failure>({ reason: "Timeout", detail: `no answer within ${Duration.format(config.timeout)}`, requestSent: true })
      }
      if (error._tag === "RequestError" && error.reason !== "Transport") {
        return Either.left<Failure>({ reason: "InvalidRequest", detail: Transport.describeCause(error.cause ?? error), requestSent: false })
      }
      const refused = error._tag === "RequestError" && Transport.neverSent(error.cause)
      return Either.left<Failure>({ reason: "Transport", detail: Transport.describeCause(error.cause ?? error), requestSent: !refused })
    }
    const raw = exchanged.right
    const body = errorBody(raw.text)
    if (raw.status >= 200 && raw.status < 300 && body.success !== false) {
      try {
        return Either.right(JSON.parse(raw.text) as unknown)
      } catch {
        return Either.left<Failure>({ reason: "Decode", status: raw.status, detail: `not JSON: ${excerpt(raw.text)}`, requestSent: true })
      }
    }
    const retryAfterMillis = Transport.retryAfterMillis(raw.retryAfter, yield* Clock.currentTimeMillis)
    return Either.left<Failure>({
      reason: "HttpStatus",
      status: raw.status,
      ...(body.code === undefined ? {} : { code: body.code }),
      detail: body.message ?? (excerpt(raw.text) || "no body"),
      requestSent: true,
      ...(retryAfterMillis === undefined ? {} : { retryAfterMillis })
    })
  })

const retryable = (mode: Mode, failure: Failure): boolean => {
  if (failure.reason === "HttpStatus" && failure.status === 429) return true
  if (mode === "create") return failure.reason === "Transport" && !failure.requestSent
  if (failure.reason === "Transport" || failure.reason === "Timeout") return true
  return failure.reason === "HttpStatus" && failure.status !== undefined && (failure.status === 408 || failure.status >= 500)
}

/** The JSON body of a successful answer, after the retries the call's mode allows. */
export const exchange = (config: ExchangeConfig, call: Call): Effect.Effect<unknown, ShopmonkeyError> =>
  Effect.gen(function*() {
    const started = yield* Clock.currentTimeMillis
    const { retry } = config
    for (let attempt = 1;; attempt++) {
      const outcome = yield* attemptOnce(config, call)
      if (Either.isRight(outcome)) return outcome.right
      const failure = outcome.left
      const fail = () =>
        new ShopmonkeyError({
          operation: call.operation,
          method: call.method,
          path: call.path,
          reason: failure.reason,
          ...(failure.status === undefined ? {} : { status: failure.status }),
          ...(failure.code === undefined ? {} : { code: failure.code }),
          detail: failure.detail,
          requestSent: failure.requestSent,
          attempts: attempt,
          ...(failure.retryAfterMillis === undefined ? {} : { retryAfterMillis: failure.retryAfterMillis })
        })
      if (attempt >= retry.maxAttempts || !retryable(call.mode, failure)) return yield* fail()
      let delay: number
      if (failure.retryAfterMillis !== undefined) {
        // Honoured exactly; a longer wait than we accept is the caller's to schedule.
        if (failure.retryAfterMillis > Duration.toMillis(retry.maxRetryAfter)) return yield* fail()
        delay = failure.retryAfterMillis
      } else {
        const exponential = Math.min(Duration.toMillis(retry.baseDelay) * 2 ** (attempt - 1), Duration.toMillis(retry.maxDelay))
        delay = Math.round(exponential * (0.5 + (yield* Random.next) / 2))
      }
      const now = yield* Clock.currentTimeMillis
      if (now + delay - started > Duration.toMillis(retry.maxElapsed)) return yield* fail()
      yield* Effect.logDebug("Shopmonkey call retried").pipe(
        Effect.annotateLogs({ operation: call.operation, attempt, status: failure.status ?? failure.reason, delayMillis: delay })
      )
      yield* Effect.sleep(Duration.millis(delay))
    }
  })

export const optionalString = (value: string | null | undefined): string | undefined =>
  Option.getOrUndefined(Option.fromNullable(value === "" ? null : value))
