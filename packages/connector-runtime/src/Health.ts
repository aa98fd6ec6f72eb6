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
 * @since 0.1.0
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from "node:http"
import * as Routes from "./internal/routes.js"

/**
 * The answer of a readiness check.
 *
 * @example
 * import type { Health } from "@shoplink/connector-runtime"
 * const notReady: Health.Readiness = { ok: false, reason: "database did not answer within 1s" }
 *
 * @since 0.1.0
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
 * import type { Health } from "@shoplink/connector-runtime"
 * const options: Health.ReadinessOptions = { maxBacklogAge: "10 minutes", databaseTimeout: "500 millis" }
 *
 * @since 0.1.0
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
 * import { Health } from "@shoplink/connector-runtime"
 * const router = Health.router(Effect.succeed({ ok: true } as const))
 *
 * @since 0.1.0
 */
export const router = <R>(readiness: Effect.Effect<Readiness, never, R>): HttpRouter.HttpRouter<never, R> =>
  HttpRouter.empty.pipe(
    Routes.mount("health", "", Effect.succeed(HttpServerResponse.unsafeJson({ ok: true }, { headers: probeHeaders }))),
    Routes.mount(
      "readiness",
      "",
      Effect.map(readiness, (ready) =>
        ready.ok
          ? HttpServerResponse.unsafeJson(
            ready.degraded === undefined ? { ok: true } : { ok: true, degraded: ready.degraded },
            { headers: probeHeaders }
          )
          : HttpServerResponse.unsafeJson({ ok: false, reason: ready.reason }, { status: 503, headers: probeHeaders }))
    )
  )

/**
 * A `node:http` server (for `NodeHttpServer.make`) that never accepts a connection it will not
 * answer: until an app serves on it (the platform adds its request listener), and again once that
 * app stops serving, every request gets `503` with `Retry-After: 1` and `{"ok":false,"reason":"starting"}`
 * (or `"stopping"`). Listening early is then safe: a load balancer's first probe, or a webhook
 * retried during a deploy, meets an answer rather than a socket that never replies.
 *
 * @example
 * import { NodeHttpServer } from "@effect/platform-node"
 * import { Effect } from "effect"
 * import { Health, Settings } from "@shoplink/connector-runtime"
 * const server = Effect.flatMap(Settings.serverTimeouts, (timeouts) =>
 *   NodeHttpServer.make(() => Health.nodeServer(timeouts), { port: 3000 }))
 *
 * @since 0.1.0
 */
export const nodeServer = (options: ServerOptions = {}): Server => {
  const server = createServer(options)
  let served = false
  const placeholder = (_request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify({ ok: false, reason: served ? "stopping" : "starting" })
    response.writeHead(503, {
      "content-type": "application/json",
      "cache-control": "no-store",
      "retry-after": "1",
      "content-length": Buffer.byteLength(body),
      connection: "close"
    }).end(body)
  }
  server.on("request", placeholder)
  // The placeholder steps aside when a real listener comes, and comes back when the last one goes.
  server.on("newListener", (event: string | symbol, listener: unknown) => {
    if (event === "request" && listener !== placeholder) {
      served = true
      server.removeListener("request", placeholder)
    }
  })
  server.on("removeListener", (event: string | symbol, listener: unknown) => {
    if (event === "request" && listener !== placeholder && server.listenerCount("request") === 0) {
      server.on("request", placeholder)
    }
  })
  return server
}
