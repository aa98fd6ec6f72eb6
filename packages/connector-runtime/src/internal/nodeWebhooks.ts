// The webhook routes without the platform server: a `node:http` request handler that answers
// `POST {base}/webhooks/:key/order|quote` itself and declines everything else, so it can sit in
// front of an @effect/platform app on the same listener. It keeps what the router does, step by
// step (see WebhookReceiver): the size limit (413 with `Connection: close`, declared or chunked),
// the key (404 / 410 / 503), UTF-8 and the decode (400, a warning, nothing written), the durable commit before
// the 2xx (503 when the inbox fails), dedupe, the metrics, the `WebhookReceiver.receive` span and the
// log lines without the launch key. What it saves is the platform's per-request work (the request
// object, the router, the middleware and the fibers they run): one fiber per delivery is left.
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { isUtf8 } from "node:buffer"
import type { IncomingMessage, ServerResponse } from "node:http"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import * as Metric from "effect/Metric"
import * as Runtime from "effect/Runtime"
import { Webhooks } from "@shoplink/punchout"
import type { LaunchRegistry } from "../LaunchRegistry.js"
import type { NodeHandler } from "../WebhookReceiver.js"
import type { WebhookInbox } from "../WebhookInbox.js"
import { orderContentKey, quoteContentKey } from "./deliveries.js"
import { duplicate as duplicateDeliveries, received as receivedDeliveries } from "./metrics.js"
import { redactText } from "./redact.js"
import { keyedMatcher, pattern, routes, webhookRoutes } from "./routes.js"

/** The largest webhook body accepted unless configured otherwise (256 KiB). */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024

/** Cuts what a sender or a log gets from a refused body: an error may quote a 200 KB field. */
export const clip = (text: string, max = 200) => text.length <= max ? text : `${text.slice(0, max)}…`

/**
 * The body's text, or `undefined` when its bytes are not valid UTF-8 (answered 400, nothing
 * stored): decoding them anyway would replace the bad bytes with U+FFFD and store, and apply, a
 * body other than the one sent.
 */
export const utf8Text = (bytes: Uint8Array): string | undefined =>
  isUtf8(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8") : undefined

/** What a sender and the log get for a body that is not valid UTF-8. */
export const NOT_UTF8 = "body is not valid UTF-8"

/**
 * Decodes a body into its content key (which ends with the launch's id: see `deliveries`). Total: a
 * decoder that throws (say, on a deeply nested body) is a refused body like any other, never a 500.
 */
export const contentKeyOf = (
  kind: "order" | "quote",
  body: string,
  contentType: string | undefined,
  launch: { readonly id: string; readonly shopId: string; readonly repairOrderId: string }
): Either.Either<string, { readonly reason: string; readonly detail: string }> => {
  try {
    const decoded = kind === "order"
      ? Either.map(
        Webhooks.decodeOrderWebhook(body, { contentType }),
        (o) => orderContentKey(launch.shopId, launch.repairOrderId, o, launch.id)
      )
      : Either.map(
        Webhooks.decodeQuoteWebhook(body, { contentType }),
        (q) => quoteContentKey(launch.shopId, launch.repairOrderId, q, launch.id)
      )
    return Either.mapLeft(decoded, (error) => ({ reason: error.reason, detail: error.message }))
  } catch (error) {
    return Either.left({
      reason: `Undecodable (${error instanceof Error ? clip(error.message, 100) : "defect"})`,
      detail: `${kind} webhook: the body could not be decoded`
    })
  }
}

// The counters by kind, tagged once (a tagged metric is a new key object per call otherwise).
export const receivedByKind = {
  order: Metric.tagged(receivedDeliveries, "kind", "order"),
  quote: Metric.tagged(receivedDeliveries, "kind", "quote")
}
export const duplicateByKind = {
  order: Metric.tagged(duplicateDeliveries, "kind", "order"),
  quote: Metric.tagged(duplicateDeliveries, "kind", "quote")
}

interface Reply {
  readonly status: number
  readonly body: string
  readonly close?: boolean
}
const reply = (status: number, body: unknown, close = false): Reply => ({ status, body: JSON.stringify(body), close })
const tooLarge = reply(413, { error: "body too large" }, true)
const tryAgain = reply(503, { error: "try again" })

/** The body as it arrives: read in full, not UTF-8, over the limit (reading stopped), or broken. */
type BodyState =
  | { readonly _tag: "Reading" }
  | { readonly _tag: "Read"; readonly text: string }
  | { readonly _tag: "NotUtf8" }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "Unreadable" }

/**
 * Starts reading `request` at once (in parallel with the key's lookup) and gives an Effect that
 * waits for the outcome. Past `maxBytes` it stops: the chunks are dropped and the stream paused,
 * and the 413 goes out with `Connection: close`, so the rest of the body is never read.
 */
const readBody = (request: IncomingMessage, maxBytes: number) => {
  let state: BodyState = { _tag: "Reading" }
  let waiter: ((state: BodyState) => void) | undefined
  let chunks: Array<Buffer> = []
  let size = 0
  const settle = (next: BodyState) => {
    if (state._tag !== "Reading") return
    state = next
    chunks = []
    const resume = waiter
    waiter = undefined
    resume?.(next)
  }
  request.on("data", (chunk: Buffer) => {
    if (state._tag !== "Reading") return
    size += chunk.byteLength
    if (size > maxBytes) {
      request.pause()
      return settle({ _tag: "TooLarge" })
    }
    chunks.push(chunk)
  })
  request.on("end", () => {
    const text = utf8Text(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))
    settle(text === undefined ? { _tag: "NotUtf8" } : { _tag: "Read", text })
  })
  request.on("error", () => settle({ _tag: "Unreadable" }))
  request.on("aborted", () => settle({ _tag: "Unreadable" }))
  return Effect.async<BodyState>((resume) => {
    if (state._tag !== "Reading") return resume(Effect.succeed(state))
    waiter = (next) => resume(Effect.succeed(next))
  })
}

const send = (response: ServerResponse, { body, close, status }: Reply) => {
  if (response.headersSent || response.destroyed) return
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body)
  }
  if (close) headers["connection"] = "close"
  response.writeHead(status, headers).end(body)
}

/**
 * The handler: `base` is the normalized base path (`/shoplink`), `services` the inbox and the
 * launch registry the router would get from its context, `runtime` where its Effects run (the
 * logger, the tracer and the Clock of the server that serves it).
 */
export const makeNodeHandler = (
  options: { readonly base: string; readonly maxBodyBytes: number },
  services: { readonly inbox: WebhookInbox["Type"]; readonly registry: LaunchRegistry["Type"] },
  runtime: Runtime.Runtime<never>
): NodeHandler => {
  const { base, maxBodyBytes } = options
  const { inbox, registry } = services
  const match = keyedMatcher(base, [webhookRoutes.order, webhookRoutes.quote])
  const runCallback = Runtime.runCallback(runtime)

  // The server span of a request: the path with the key cut out, never the key. No stack trace: one
  // per delivery costs more than the rest of the span, and the name says where it comes from.
  const spanOptions = (kind: "order" | "quote") =>
    ({
      kind: "server",
      attributes: {
        kind,
        "http.request.method": routes[webhookRoutes[kind]].method,
        "url.path": pattern(webhookRoutes[kind], base)
      },
      captureStackTrace: false
    }) as const
  const spans = { order: spanOptions("order"), quote: spanOptions("quote") }

  // One fiber per delivery. Its log lines carry `kind`, and once the key is resolved `shopId` and
  // `repairOrderId` (annotated on each line rather than around the whole program: most deliveries
  // log one line, or none below the info level). Span attributes are set on the span directly.
  const receive = (kind: "order" | "quote", key: string, request: IncomingMessage, body: Effect.Effect<BodyState>) =>
    Effect.useSpan("WebhookReceiver.receive", spans[kind], (span) =>
      Effect.withParentSpan(
        Effect.gen(function*() {
          let annotations: Record<string, unknown> = { kind }
          const log = (line: Effect.Effect<void>, extra?: Record<string, unknown>) =>
            Effect.annotateLogs(line, extra === undefined ? annotations : { ...annotations, ...extra })
          const answer = (reply: Reply) => {
            span.attribute("http.response.status_code", reply.status)
            return reply
          }
          const declared = request.headers["content-length"]
          if (declared !== undefined && Number(declared) > maxBodyBytes) {
            yield* log(Effect.logWarning("webhook refused: body too large"), { maxBodyBytes })
            return answer(tooLarge)
          }
          const resolved = yield* Effect.either(registry.resolve(key))
          if (Either.isLeft(resolved)) {
            const error = resolved.left
            if (error._tag === "LaunchKeyUnknown") return answer(reply(404, {}))
            if (error._tag === "LaunchKeyExpired") return answer(reply(410, {}))
            yield* log(Effect.logError("launch registry failed", error))
            return answer(tryAgain)
          }
          const launch = resolved.right
          span.attribute("shopId", launch.shopId)
          span.attribute("repairOrderId", launch.repairOrderId)
          annotations = { kind, shopId: launch.shopId, repairOrderId: launch.repairOrderId }
          const read = yield* body
          if (read._tag === "TooLarge") {
            yield* log(Effect.logWarning("webhook refused: body too large"), { maxBodyBytes })
            return answer(tooLarge)
          }
          if (read._tag === "NotUtf8") {
            yield* log(Effect.logWarning("webhook refused"), { reason: "NotUtf8", detail: NOT_UTF8 })
            return answer(reply(400, { error: NOT_UTF8 }))
          }
          if (read._tag !== "Read") {
            yield* log(Effect.logWarning("webhook refused: body unreadable"))
            return answer(reply(400, { error: "body unreadable" }))
          }
          const decoded = contentKeyOf(kind, read.text, request.headers["content-type"], launch)
          if (Either.isLeft(decoded)) {
            yield* log(Effect.logWarning("webhook refused"), {
              reason: decoded.left.reason,
              detail: clip(decoded.left.detail)
            })
            return answer(reply(400, { error: clip(decoded.left.detail) }))
          }
          const stored = yield* Effect.either(inbox.receive({
            kind,
            contentKey: decoded.right,
            shopId: launch.shopId,
            repairOrderId: launch.repairOrderId,
            body: read.text
          }))
          if (Either.isLeft(stored)) {
            yield* log(Effect.logError("inbox write failed; asking the sender to retry", stored.left))
            return answer(tryAgain)
          }
          const { duplicate, entry } = stored.right
          yield* Metric.increment(duplicate ? duplicateByKind[kind] : receivedByKind[kind])
          span.attribute("duplicate", duplicate)
          span.attribute("entryId", entry.id)
          yield* log(Effect.logInfo(duplicate ? "webhook already received" : "webhook received"), {
            entryId: entry.id,
            repairOrderNumber: launch.repairOrderNumber,
            duplicate
          })
          return answer(reply(200, { received: true, duplicate }))
        }),
        span
      ))

  return (request, response) => {
    // Anything the router would decode or match differently (an escape, a second slash) is its own.
    const matched = match(request.method, request.url)
    if (matched === undefined) return false
    const { key } = matched
    const kind = matched.name === webhookRoutes.order ? "order" : "quote"
    runCallback(receive(kind, key, request, readBody(request, maxBodyBytes)), {
      onExit: (exit) => {
        if (Exit.isSuccess(exit)) return send(response, exit.value)
        // Not expected (every failure above is answered); a defect still gets an answer and a log line.
        runCallback(
          Effect.logError("webhook receiver failed", redactText(Cause.pretty(exit.cause)).split(key).join(":key"))
        )
        send(response, reply(500, {}))
      }
    })
    return true
  }
}

/**
 * Puts `handler` in front of the platform's request listener on `server` (a `node:http` server):
 * the one listener is replaced by one that asks `handler` first. Returns how to take it away when
 * the serving Scope closes; `undefined` (nothing changed) unless the server has exactly one request
 * listener, the platform's.
 */
const installInFront = (server: unknown, handler: NodeHandler): (() => void) | undefined => {
  if (typeof server !== "object" || server === null) return undefined
  const emitter = server as {
    listeners?: (event: string) => Array<(...args: Array<any>) => void>
    on?: unknown
    removeListener?: unknown
  }
  if (
    typeof emitter.listeners !== "function" || typeof emitter.on !== "function" ||
    typeof emitter.removeListener !== "function"
  ) {
    return undefined
  }
  const listeners = emitter.listeners("request")
  if (listeners.length !== 1) return undefined
  const platform = listeners[0]!
  const node = server as import("node:events").EventEmitter
  const front = function(this: unknown, request: IncomingMessage, response: ServerResponse) {
    if (!handler(request, response)) platform.call(this, request, response)
  }
  node.removeListener("request", platform)
  node.on("request", front)
  // Taken away with the serving Scope, like the platform's own listener (which is no longer there).
  return () => void node.removeListener("request", front)
}

/** The `node:http` server a platform request arrived on, when it has one (`@effect/platform-node`). */
const nodeServerOf = (request: unknown): unknown => {
  const source = (request as { readonly source?: { readonly socket?: { readonly server?: unknown } } }).source
  return source?.socket?.server
}

/**
 * Set by the runtime's `serve` for each request it serves; the runtime's public router calls it,
 * which tells `serve` that this listener's app routes to that router.
 */
export const publicRouteProbe: FiberRef.FiberRef<(() => void) | undefined> = FiberRef.unsafeMake<
  (() => void) | undefined
>(undefined)

/**
 * A middleware that, at the first request it sees, puts `handler` in front of the platform's
 * listener of the `node:http` server the request came on (see `installInFront`); `remove` takes it
 * away; `install` does it for a given request (the runtime waits for one its public router takes).
 */
export const frontOnFirstRequest = (handler: NodeHandler) => {
  let done = false
  let remove: (() => void) | undefined
  const install = (request: HttpServerRequest.HttpServerRequest) => {
    if (done) return
    done = true
    remove = installInFront(nodeServerOf(request), handler)
  }
  return {
    install,
    remove: () => remove?.(),
    middleware: HttpMiddleware.make((app) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        install(request)
        return app
      })
    )
  }
}
