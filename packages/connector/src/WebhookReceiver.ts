/**
 * The HTTP side of the runtime, as an `HttpRouter` to mount in any @effect/platform server:
 * - `POST {basePath}/webhooks/:key/order` and `/quote` — the distributor's webhooks. The raw body is
 *   read with a size limit, decoded with @shoplink/punchout, and written to the durable inbox
 *   **before** the 2xx; a repeated delivery is acknowledged without a second entry. An unknown
 *   key answers 404 and an expired one 410, both without details; a body that does not decode
 *   answers 400 and writes nothing; an inbox failure answers 503 so the sender retries.
 * - `GET {basePath}/callback/:key` — where the browser lands after an export: a page saying what
 *   happened ("3 parts ordered and added to RO 1042") with a link back to the SMS.
 *
 * @since 0.1.0
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Either, Option } from "effect"
import { Webhooks } from "@shoplink/punchout"
import { renderCallbackPage, renderStatusPage } from "./internal/callbackPage.js"
import { orderContentKey, quoteContentKey } from "./internal/deliveries.js"
import { LaunchRegistry } from "./LaunchRegistry.js"
import { normalizeBasePath } from "./PunchoutLauncher.js"
import { WebhookInbox } from "./WebhookInbox.js"

/**
 * Receiver settings.
 *
 * @example
 * import type { WebhookReceiver } from "@shoplink/connector"
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
const html = (body: string, status = 200) => HttpServerResponse.text(body, { status, contentType: "text/html; charset=utf-8" })

/**
 * The router.
 *
 * @example
 * import { HttpRouter } from "@effect/platform"
 * import { WebhookReceiver } from "@shoplink/connector"
 * const app = HttpRouter.empty.pipe(HttpRouter.concat(WebhookReceiver.router({ basePath: "/shoplink" })))
 *
 * @since 0.1.0
 */
export const router = (options: Options = {}): HttpRouter.HttpRouter<never, WebhookInbox | LaunchRegistry> => {
  const base = normalizeBasePath(options.basePath ?? "/shoplink")
  const maxBodyBytes = options.maxBodyBytes ?? 256 * 1024

  const resolveLaunch = Effect.gen(function*() {
    const { key } = yield* HttpRouter.params
    const registry = yield* LaunchRegistry
    return yield* registry.resolve(key ?? "")
  })

  const webhook = (kind: "order" | "quote") =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const declared = Number(request.headers["content-length"] ?? "0")
      if (declared > maxBodyBytes) return json(413, { error: "body too large" })
      const launch = yield* resolveLaunch
      const body = yield* request.text
      if (Buffer.byteLength(body) > maxBodyBytes) return json(413, { error: "body too large" })
      const decodeOptions = { contentType: request.headers["content-type"] }
      const inbox = yield* WebhookInbox
      const decoded = kind === "order"
        ? Either.map(Webhooks.decodeOrderWebhook(body, decodeOptions), (o) => orderContentKey(launch.shopId, launch.repairOrderId, o))
        : Either.map(Webhooks.decodeQuoteWebhook(body, decodeOptions), (q) => quoteContentKey(launch.shopId, launch.repairOrderId, q))
      if (Either.isLeft(decoded)) {
        yield* Effect.logWarning("webhook refused").pipe(Effect.annotateLogs({ kind, reason: decoded.left.reason }))
        return json(400, { error: decoded.left.message })
      }
      const { duplicate, entry } = yield* inbox.receive({
        kind,
        contentKey: decoded.right,
        shopId: launch.shopId,
        repairOrderId: launch.repairOrderId,
        body
      })
      yield* Effect.logInfo(duplicate ? "webhook already received" : "webhook received").pipe(
        Effect.annotateLogs({ kind, entry: entry.id, repairOrder: launch.repairOrderNumber })
      )
      return json(200, { received: true, duplicate })
    }).pipe(
      // A body over the stream limit fails while reading it.
      HttpServerRequest.withMaxBodySize(Option.some(maxBodyBytes)),
      Effect.catchTags({
        LaunchKeyUnknown: () => Effect.succeed(json(404, {})),
        LaunchKeyExpired: () => Effect.succeed(json(410, {})),
        RequestError: () => Effect.succeed(json(413, { error: "body too large or unreadable" })),
        InboxError: (error) =>
          Effect.logError("inbox write failed; asking the sender to retry", error).pipe(Effect.as(json(503, { error: "try again" }))),
        LaunchRegistryError: (error) => Effect.logError("launch registry failed", error).pipe(Effect.as(json(503, { error: "try again" })))
      }),
      Effect.withSpan(`WebhookReceiver.${kind}`)
    )

  const callback = Effect.gen(function*() {
    const launch = yield* resolveLaunch
    const inbox = yield* WebhookInbox
    const entries = yield* inbox.list({ shopId: launch.shopId, repairOrderId: launch.repairOrderId, receivedSince: launch.createdAt })
    return html(renderCallbackPage(launch, entries))
  }).pipe(
    Effect.catchTags({
      LaunchKeyUnknown: () => Effect.succeed(html(renderStatusPage(404, "This link is not known."), 404)),
      LaunchKeyExpired: () => Effect.succeed(html(renderStatusPage(410, "This link has expired."), 410)),
      InboxError: () => Effect.succeed(html(renderStatusPage(503, "Please try again in a moment."), 503)),
      LaunchRegistryError: () => Effect.succeed(html(renderStatusPage(503, "Please try again in a moment."), 503))
    })
  )

  const path = (suffix: string) => `${base}${suffix}` as HttpRouter.PathInput
  return HttpRouter.empty.pipe(
    HttpRouter.post(path("/webhooks/:key/order"), webhook("order")),
    HttpRouter.post(path("/webhooks/:key/quote"), webhook("quote")),
    HttpRouter.get(path("/callback/:key"), callback)
  )
}
