/**
 * The runtime's public HTTP side, as an `HttpRouter` to mount in any @effect/platform server: the
 * distributor's webhooks (`POST {basePath}/webhooks/:key/order|quote`, under the launch's webhook
 * key), each written to the durable inbox before the 2xx and deduplicated, and the callback page
 * (`GET {basePath}/callback/:callbackKey`, under the launch's separate callback key), which says
 * what the newest export of the launch did and waits for it to be applied. `nodeHandler` and
 * `serve` answer the same webhook routes without the platform server, with the same guarantees (the
 * answers are listed at `nodeHandler`). No span or log line carries a launch key.
 *
 * @since 0.1.0
 */
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpRouter from "@effect/platform/HttpRouter"
import type * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Html } from "@shoplink/http"
import {
  CALLBACK_WAIT_MILLIS,
  callbackView,
  renderCallbackPage,
  renderStatusPage,
  SEEN_COOKIE
} from "./internal/callbackPage.js"
import { lineKeysOf, receivedOnLaunch } from "./internal/deliveries.js"
import {
  clip,
  contentKeyOf,
  DEFAULT_MAX_BODY_BYTES,
  duplicateByKind,
  frontOnFirstRequest,
  makeNodeHandler,
  NOT_UTF8,
  receivedByKind,
  utf8Text
} from "./internal/nodeWebhooks.js"
import { readLimited } from "./internal/http/responses.js"
import * as Routes from "./internal/routes.js"
import { LaunchRegistry } from "./LaunchRegistry.js"
import { PartsLedger } from "./PartsLedger.js"
import { WebhookInbox } from "./WebhookInbox.js"

/**
 * Receiver settings.
 *
 * @example
 * import type { WebhookReceiver } from "@shoplink/connector-runtime"
 * const options: WebhookReceiver.Options = { basePath: "/shoplink", maxBodyBytes: 512 * 1024 }
 *
 * @since 0.1.0
 */
export interface Options {
  /** Where the routes live (default `/shoplink`; must match the launcher's). */
  readonly basePath?: string
  /** Largest body accepted (default 256 KiB); larger answers 413. */
  readonly maxBodyBytes?: number
}

const json = (status: number, body: unknown) => HttpServerResponse.unsafeJson(body, { status })
// Every page with the security headers (CSP without scripts, no framing, nosniff, no Referer, no-store).
const html = (body: string, status = 200) => Html.page(body, { status })
// `connection: close`: the rest of an oversized body is not read, so the connection cannot be reused.
const tooLarge = () =>
  HttpServerResponse.unsafeJson({ error: "body too large" }, { status: 413, headers: { connection: "close" } })

/**
 * The body's bytes, or `undefined` once it passes `maxBytes`. Reads the stream in the request's
 * Scope and stops pulling at the limit: the stream is released (and the socket closed) only
 * after the 413 has been written, so the sender receives it instead of a connection reset.
 */
/** Entry ids are UUIDs; anything else in the cookie or the query is ignored. */
const entryId = (value: unknown): string | undefined =>
  typeof value === "string" && /^[0-9a-f-]{36}$/i.test(value) ? value : undefined

/**
 * The router.
 *
 * @example
 * import { HttpRouter } from "@effect/platform"
 * import { WebhookReceiver } from "@shoplink/connector-runtime"
 * const app = HttpRouter.empty.pipe(HttpRouter.concat(WebhookReceiver.router({ basePath: "/shoplink" })))
 *
 * @since 0.1.0
 */
export const router = (options: Options = {}): HttpRouter.HttpRouter<never, WebhookInbox | LaunchRegistry> => {
  const base = Routes.basePathOf(options.basePath)
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES

  const resolveLaunch = Effect.gen(function*() {
    const { key } = yield* HttpRouter.params
    const registry = yield* LaunchRegistry
    return yield* registry.resolve(key ?? "")
  })

  // Everything after the launch key resolved: its log lines carry the shop and repair order, its
  // span the same and whether the delivery was a duplicate (never the key).
  const accept = (
    kind: "order" | "quote",
    request: HttpServerRequest.HttpServerRequest,
    launch: {
      readonly id: string
      readonly shopId: string
      readonly repairOrderId: string
      readonly repairOrderNumber: string
    }
  ) =>
    Effect.gen(function*() {
      // A declared length is the framing (Node's parser reads no more), checked before the key
      // was resolved; a chunked body declares none, so its limit is enforced while reading it.
      const bytes = request.headers["content-length"] !== undefined
        ? new Uint8Array(yield* request.arrayBuffer)
        : yield* readLimited(request, maxBodyBytes)
      if (bytes === undefined) {
        yield* Effect.logWarning("webhook refused: body too large").pipe(Effect.annotateLogs({ maxBodyBytes }))
        return tooLarge()
      }
      const body = utf8Text(bytes)
      if (body === undefined) {
        yield* Effect.logWarning("webhook refused").pipe(Effect.annotateLogs({ reason: "NotUtf8", detail: NOT_UTF8 }))
        return json(400, { error: NOT_UTF8 })
      }
      const decoded = contentKeyOf(kind, body, request.headers["content-type"], launch)
      if (Either.isLeft(decoded)) {
        yield* Effect.logWarning("webhook refused").pipe(
          Effect.annotateLogs({ reason: decoded.left.reason, detail: clip(decoded.left.detail) })
        )
        return json(400, { error: clip(decoded.left.detail) })
      }
      const inbox = yield* WebhookInbox
      const { duplicate, entry } = yield* inbox.receive({
        kind,
        contentKey: decoded.right,
        shopId: launch.shopId,
        repairOrderId: launch.repairOrderId,
        body
      })
      yield* Metric.increment(duplicate ? duplicateByKind[kind] : receivedByKind[kind])
      yield* Effect.annotateCurrentSpan({ duplicate, entryId: entry.id })
      yield* Effect.logInfo(duplicate ? "webhook already received" : "webhook received").pipe(
        Effect.annotateLogs({ entryId: entry.id, repairOrderNumber: launch.repairOrderNumber, duplicate })
      )
      return json(200, { received: true, duplicate })
    }).pipe(
      Effect.catchTags({
        RequestError: () =>
          Effect.logWarning("webhook refused: body unreadable").pipe(
            Effect.as(json(400, { error: "body unreadable" }))
          ),
        InboxError: (error) =>
          Effect.logError("inbox write failed; asking the sender to retry", error).pipe(
            Effect.as(json(503, { error: "try again" }))
          )
      }),
      Effect.annotateLogs({ shopId: launch.shopId, repairOrderId: launch.repairOrderId })
    )

  const webhook = (kind: "order" | "quote") =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const declared = Number(request.headers["content-length"] ?? "0")
      if (declared > maxBodyBytes) {
        yield* Effect.logWarning("webhook refused: body too large").pipe(Effect.annotateLogs({ maxBodyBytes }))
        return tooLarge()
      }
      const launch = yield* resolveLaunch
      yield* Effect.annotateCurrentSpan({ shopId: launch.shopId, repairOrderId: launch.repairOrderId })
      return yield* accept(kind, request, launch)
    }).pipe(
      Effect.catchTags({
        LaunchKeyUnknown: () => Effect.succeed(json(404, {})),
        LaunchKeyExpired: () => Effect.succeed(json(410, {})),
        LaunchRegistryError: (error) =>
          Effect.logError("launch registry failed", error).pipe(Effect.as(json(503, { error: "try again" })))
      }),
      Effect.annotateLogs({ kind }),
      Effect.withSpan("WebhookReceiver.receive", { attributes: { kind } })
    )

  // A landing (no `after` in the query) is pinned to the deliveries after the last one this browser
  // was shown, and redirected to a URL that says so: a reload then shows the same export.
  const callback = Effect.gen(function*() {
    const { key: callbackKey } = yield* HttpRouter.params
    const launch = yield* Effect.flatMap(LaunchRegistry, (registry) => registry.resolveCallback(callbackKey ?? ""))
    const request = yield* HttpServerRequest.HttpServerRequest
    const query = yield* HttpServerRequest.ParsedSearchParams
    const now = yield* Clock.currentTimeMillis
    if (query["after"] === undefined) {
      const seen = entryId(request.cookies[SEEN_COOKIE]) ?? ""
      return HttpServerResponse.empty({
        status: 303,
        headers: { location: `?after=${encodeURIComponent(seen)}&at=${now}`, "cache-control": "no-store" }
      })
    }
    const landedAt = Number(query["at"])
    const inbox = yield* WebhookInbox
    // This launch's deliveries only (those received on its webhook key), not the repair order's others.
    const entries = (yield* inbox.list({
      shopId: launch.shopId,
      repairOrderId: launch.repairOrderId,
      receivedSince: launch.createdAt
    }))
      .filter((entry) => receivedOnLaunch(entry, launch.id))
    // A shop system that cannot take part lines: the runtime's parts ledger holds them, and the page
    // lists those of this launch's deliveries (not the lines earlier launches kept for the repair order).
    const ledger = yield* Effect.serviceOption(PartsLedger)
    const launchLines = new Set(entries.flatMap(lineKeysOf))
    const kept = Option.isSome(ledger) && launchLines.size > 0
      ? (yield* ledger.value.list({ shopId: launch.shopId, repairOrderId: launch.repairOrderId }))
        .filter((line) => launchLines.has(line.idempotencyKey))
      : []
    const view = callbackView(launch, entries, {
      after: entryId(query["after"]),
      landedAt: Number.isFinite(landedAt) && landedAt <= now ? landedAt : now,
      now
    }, kept)
    const page = html(renderCallbackPage(launch, view, kept)).pipe(
      HttpServerResponse.setHeader("cache-control", "no-store")
    )
    if (view.shown === undefined) return page
    return page.pipe(HttpServerResponse.unsafeSetCookie(SEEN_COOKIE, view.shown.id, {
      path: Routes.path("callback", base, callbackKey ?? ""),
      httpOnly: true,
      sameSite: "lax",
      maxAge: `${Math.max(CALLBACK_WAIT_MILLIS, launch.expiresAt - now)} millis`
    }))
  }).pipe(
    Effect.catchTags({
      LaunchKeyUnknown: () => Effect.succeed(html(renderStatusPage(404, "This link is not known."), 404)),
      LaunchKeyExpired: () => Effect.succeed(html(renderStatusPage(410, "This link has expired."), 410)),
      InboxError: () => Effect.succeed(html(renderStatusPage(503, "Please try again in a moment."), 503)),
      PartsLedgerError: () => Effect.succeed(html(renderStatusPage(503, "Please try again in a moment."), 503)),
      LaunchRegistryError: () => Effect.succeed(html(renderStatusPage(503, "Please try again in a moment."), 503))
    })
  )

  return HttpRouter.empty.pipe(
    Routes.mount(Routes.webhookRoutes.order, base, webhook("order")),
    Routes.mount(Routes.webhookRoutes.quote, base, webhook("quote")),
    Routes.mount("callback", base, callback)
  )
}

/**
 * A `node:http` request handler: answers `true` after taking a request (it writes the answer
 * itself), or `false` without touching it (the request is someone else's).
 *
 * @example
 * import type { WebhookReceiver } from "@shoplink/connector-runtime"
 * import { createServer } from "node:http"
 * const listen = (webhooks: WebhookReceiver.NodeHandler) =>
 *   createServer((req, res) => {
 *     if (!webhooks(req, res)) res.writeHead(404).end()
 *   })
 *
 * @since 0.1.0
 */
export type NodeHandler = (request: IncomingMessage, response: ServerResponse) => boolean

/**
 * The webhook routes of `router` (`POST {basePath}/webhooks/:key/order|quote`) as a `node:http`
 * handler, without the platform server's per-request work: it answers those requests exactly as
 * the router does — the size limit (413 with `Connection: close`), 404 / 410 for an unknown or
 * expired key, 400 for a body that is not valid UTF-8 or does not decode, the inbox write before the 2xx (503 if it
 * fails), duplicates acknowledged, the metrics, the `WebhookReceiver.receive` span (a server span
 * with the key cut out of `url.path`) and the log lines, never with the launch key — and declines
 * everything else, including the callback page. Its Effects run with the logger, tracer and Clock
 * of the fiber that builds it.
 *
 * @example
 * import { Effect } from "effect"
 * import { createServer } from "node:http"
 * import { WebhookReceiver } from "@shoplink/connector-runtime"
 * const listener = Effect.map(WebhookReceiver.nodeHandler({ basePath: "/shoplink" }), (webhooks) =>
 *   createServer((req, res) => {
 *     if (!webhooks(req, res)) res.writeHead(404).end()
 *   }))
 *
 * @since 0.1.0
 */
export const nodeHandler = (options: Options = {}): Effect.Effect<NodeHandler, never, WebhookInbox | LaunchRegistry> =>
  Effect.gen(function*() {
    const inbox = yield* WebhookInbox
    const registry = yield* LaunchRegistry
    const runtime = yield* Effect.runtime<never>()
    return makeNodeHandler(
      { base: Routes.basePathOf(options.basePath), maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES },
      { inbox, registry },
      runtime
    )
  })

/**
 * Serves `app` (which should contain `router(options)`) on a `NodeHttpServer`, with `nodeHandler`
 * in front of it on the same listener: once the first request has come in, the webhook routes are
 * answered without the platform server and every other request goes to `app` as before. Behind
 * another kind of `HttpServer` (or a listener with more than one `request` handler) it serves
 * `app` alone. Middleware inside `app` does not see the webhook requests the handler answers.
 *
 * @example
 * import { HttpRouter } from "@effect/platform"
 * import { NodeHttpServer } from "@effect/platform-node"
 * import { Effect } from "effect"
 * import { createServer } from "node:http"
 * import { WebhookReceiver } from "@shoplink/connector-runtime"
 * const program = Effect.gen(function*() {
 *   const server = yield* NodeHttpServer.make(() => createServer(), { port: 3000 })
 *   yield* WebhookReceiver.serve(server, HttpRouter.toHttpApp(WebhookReceiver.router()).pipe(Effect.flatten))
 * })
 *
 * @since 0.1.0
 */
export const serve = <E, R>(
  server: HttpServer.HttpServer,
  app: HttpApp.Default<E, R>,
  options: Options = {}
): Effect.Effect<
  void,
  never,
  Exclude<R, HttpServerRequest.HttpServerRequest | Scope.Scope> | Scope.Scope | WebhookInbox | LaunchRegistry
> =>
  Effect.gen(function*() {
    const handler = yield* nodeHandler(options)
    const front = frontOnFirstRequest(handler)
    yield* Effect.addFinalizer(() => Effect.sync(front.remove))
    yield* server.serve(front.middleware(app))
  }) as Effect.Effect<
    void,
    never,
    Exclude<R, HttpServerRequest.HttpServerRequest | Scope.Scope> | Scope.Scope | WebhookInbox | LaunchRegistry
  >
