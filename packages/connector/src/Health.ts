/**
 * Liveness and readiness, for a load balancer or an orchestrator. The runtime builds its
 * `healthRouter` with these:
 *
 * - `GET /healthz` — liveness: the process answers. It checks no dependency, so a restart is
 *   never triggered by a database or a shop system being slow. Always `200 {"ok":true}`.
 * - `GET /readyz` — readiness: whether this instance can do its job now. `200 {"ok":true}` (with
 *   `"degraded":"…"` while a part works in a fallback mode, e.g. the inbox's wake-ups are down and
 *   the worker polls), or `503 {"ok":false,"reason":"…"}` with a short reason and nothing else
 *   (the routes are public).
 *
 * @since 0.3.0
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

/**
 * The answer of a readiness check.
 *
 * @example
 * import type { Health } from "@shoplink/connector"
 * const notReady: Health.Readiness = { ok: false, reason: "database did not answer within 1s" }
 *
 * @since 0.3.0
 */
export type Readiness =
  | {
    readonly ok: true
    /** Ready, with a part working in a fallback mode (e.g. the inbox's wake-ups down: polling). */
    readonly degraded?: string
  }
  | { readonly ok: false; readonly reason: string }

/**
 * What the runtime's readiness check requires. In order:
 * 1. the runtime is not shutting down;
 * 2. the database answers a round trip that takes the write lock (SQLite: `BEGIN IMMEDIATE`,
 *    given up after 200 ms of waiting for a lock another connection holds) within
 *    `databaseTimeout` (default 1 second): a database the receiver cannot write to fails every
 *    webhook;
 * 3. with a worker in this process: its fiber is running, and the oldest pending inbox entry
 *    (received but neither applied nor dead-lettered) is younger than `maxBacklogAge`
 *    (default 5 minutes; with the worker's default retries an entry that keeps failing is
 *    dead-lettered in about 4). `false` turns the backlog check off.
 *
 * A receive-only process (`worker: false`) checks 1 and 2 only: the backlog is the worker's.
 *
 * @example
 * import type { Health } from "@shoplink/connector"
 * const options: Health.ReadinessOptions = { maxBacklogAge: "10 minutes", databaseTimeout: "500 millis" }
 *
 * @since 0.3.0
 */
export interface ReadinessOptions {
  readonly maxBacklogAge?: Duration.DurationInput | false
  readonly databaseTimeout?: Duration.DurationInput
}

const probeHeaders = { "cache-control": "no-store" }

/**
 * `GET /healthz` and `GET /readyz` on a readiness check. Mount it where the orchestrator reaches
 * it; it is public by design and answers only `ok` and a reason.
 *
 * @example
 * import { Effect } from "effect"
 * import { Health } from "@shoplink/connector"
 * const router = Health.router(Effect.succeed({ ok: true } as const))
 *
 * @since 0.3.0
 */
export const router = <R>(readiness: Effect.Effect<Readiness, never, R>): HttpRouter.HttpRouter<never, R> =>
  HttpRouter.empty.pipe(
    HttpRouter.get("/healthz", Effect.succeed(HttpServerResponse.unsafeJson({ ok: true }, { headers: probeHeaders }))),
    HttpRouter.get(
      "/readyz",
      Effect.map(readiness, (ready) =>
        ready.ok
          ? HttpServerResponse.unsafeJson(ready.degraded === undefined ? { ok: true } : { ok: true, degraded: ready.degraded }, { headers: probeHeaders })
          : HttpServerResponse.unsafeJson({ ok: false, reason: ready.reason }, { status: 503, headers: probeHeaders }))
    )
  )
