// Webhook delivery: POST JSON with a deadline and a few retries, recording every attempt, on the
// shared transport layer (@shoplink/http: its Deadline and its Retry policy, backoff with jitter).
// Runs on the live clock (real network time) in a background fiber so a dead receiver never
// blocks the ordering page.
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { Deadline, Retry } from "@shoplink/http"

/**
 * One delivery attempt of a webhook.
 *
 * @example
 * import { Effect } from "effect"
 * import { type WebhookDelivery, withSandbox } from "@shoplink/sandbox"
 * const failed = (all: ReadonlyArray<WebhookDelivery>) => all.filter((d) => !d.ok)
 * const program = withSandbox((sandbox) => Effect.map(sandbox.admin.deliveries(), failed))
 *
 * @since 0.1.0
 */
export interface WebhookDelivery {
  /** Sequence number of the delivery (all attempts of one delivery share it). */
  readonly deliveryId: number
  readonly event: "order" | "quote"
  readonly url: string
  /** 1-based attempt number. */
  readonly attempt: number
  /** ISO time of the attempt (wall clock). */
  readonly at: string
  readonly body: unknown
  /** HTTP status of the receiver's answer, when there was one. */
  readonly status: number | undefined
  /** Transport error or timeout, when there was no answer. */
  readonly error: string | undefined
  readonly ok: boolean
}

export interface WebhookOptions {
  readonly timeout: Duration.DurationInput
  readonly attempts: number
  readonly backoff: Duration.DurationInput
}

export const makeDeliverer = (
  client: HttpClient.HttpClient,
  log: SubscriptionRef.SubscriptionRef<ReadonlyArray<WebhookDelivery>>,
  options: WebhookOptions
) => {
  let nextId = 1
  // The live Clock itself (not a copy), so the deadline is a plain timer.
  const liveClock = Context.get(DefaultServices.liveServices, Clock.Clock)
  const timeout = Duration.decode(options.timeout)
  // Receivers dedupe deliveries by id (Standard Webhooks), so a delivery is idempotent: every
  // failure is retried, `attempts` in all, pauses from `backoff` doubling, no Retry-After.
  const policy = Retry.make({
    maxAttempts: Math.max(1, options.attempts),
    baseDelay: options.backoff,
    maxDelay: "1 minute",
    maxElapsed: "10 minutes",
    retryAfterCap: Duration.zero
  })
  return (event: "order" | "quote", url: string, body: unknown): Effect.Effect<void> => {
    const deliveryId = nextId++
    const record = (
      attempt: number,
      entry: Omit<WebhookDelivery, "deliveryId" | "event" | "url" | "body" | "at" | "attempt">
    ) =>
      SubscriptionRef.update(log, (all) => [
        ...all,
        { deliveryId, event, url, body, attempt, at: new Date().toISOString(), ...entry }
      ])
    const once = (attempt: number) =>
      Effect.gen(function*() {
        const response = yield* client.execute(HttpClientRequest.post(url).pipe(HttpClientRequest.bodyUnsafeJson(body)))
          .pipe(
            Effect.flatMap((r) => Effect.as(r.text.pipe(Effect.ignore), r.status)),
            Effect.scoped,
            Deadline.timeoutFail({ duration: timeout, onTimeout: () => "timeout" as const }),
            Effect.either
          )
        if (response._tag === "Left") {
          const error = response.left === "timeout"
            ? `timed out after ${Duration.format(timeout)}`
            : response.left.message
          yield* record(attempt, { status: undefined, error, ok: false })
          return yield* Effect.fail(error)
        }
        const ok = response.right >= 200 && response.right < 300
        yield* record(attempt, { status: response.right, error: undefined, ok })
        if (!ok) return yield* Effect.fail(`HTTP ${response.right}`)
      })
    return Retry.retry(once, { policy, idempotency: "idempotent", while: () => true }).pipe(
      Effect.ignore,
      Effect.withClock(liveClock)
    )
  }
}
