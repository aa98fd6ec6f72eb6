/**
 * The HTTP side of the runtime, as an `HttpRouter` to mount in any @effect/platform server:
 * - `POST {basePath}/webhooks/:key/order` and `/quote` — the distributor's webhooks. The raw body is
 *   read with a size limit (declared or chunked: 413, which the sender receives before the
 *   connection closes), decoded with @shoplink/punchout, and written to the durable inbox
 *   **before** the 2xx; a repeated delivery (same content) is acknowledged without a second entry.
 *   An unknown key answers 404 and an expired one 410, both without details; a body that does not
 *   decode, whatever its shape, answers 400 with a short reason, logs a warning and writes nothing;
 *   an inbox failure answers 503 so the sender retries.
 * - `GET {basePath}/callback/:key` — where the browser lands after an export: a page saying what
 *   the newest export of the launch did ("3 parts ordered and added to RO 1042") with a link back
 *   to the SMS. It refreshes until that export's delivery has arrived and been applied (or has
 *   failed); a browser landing again after a second export waits for that one, not the first.
 *   With a `PartsLedger` in context (the runtime provides one), the page also lists the parts the
 *   runtime keeps for that repair order when the shop system cannot take part lines.
 *
 * Each delivery runs in a `WebhookReceiver.receive` span (`kind`, `shopId`, `repairOrderId`,
 * `duplicate`, `entryId`; never the launch key), its log lines carry `kind`, `shopId`,
 * `repairOrderId` and, once stored, `entryId`, and it counts in
 * `shoplink_deliveries_received_total` or `shoplink_deliveries_duplicate_total` (label `kind`).
 *
 * @since 0.1.0
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Clock, Effect, Either, Metric, Option, Stream } from "effect"
import { Webhooks } from "@shoplink/punchout"
import { CALLBACK_WAIT_MILLIS, callbackView, renderCallbackPage, renderStatusPage, SEEN_COOKIE } from "./internal/callbackPage.js"
import { orderContentKey, quoteContentKey } from "./internal/deliveries.js"
import { duplicate as duplicateDeliveries, received as receivedDeliveries } from "./internal/metrics.js"
import { LaunchRegistry } from "./LaunchRegistry.js"
import { PartsLedger } from "./PartsLedger.js"
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
// `connection: close`: the rest of an oversized body is not read, so the connection cannot be reused.
const tooLarge = () => HttpServerResponse.unsafeJson({ error: "body too large" }, { status: 413, headers: { connection: "close" } })

/** Cuts what a sender or a log gets from a refused body: an error may quote a 200 KB field. */
const clip = (text: string, max = 200) => text.length <= max ? text : `${text.slice(0, max)}…`

/**
 * The body as text, or `undefined` once it passes `maxBytes`. Reads the stream in the request's
 * Scope and stops pulling at the limit: the stream is released (and the socket closed) only
 * after the 413 has been written, so the sender receives it instead of a connection reset.
 */
const readLimited = (request: HttpServerRequest.HttpServerRequest, maxBytes: number) =>
  Effect.gen(function*() {
    const pull = yield* Stream.toPull(request.stream)
    const chunks: Array<Uint8Array> = []
    let size = 0
    while (true) {
      const next = yield* Effect.either(pull)
      if (Either.isLeft(next)) {
        if (Option.isNone(next.left)) return Buffer.concat(chunks).toString("utf8")
        return yield* Effect.fail(next.left.value)
      }
      for (const chunk of next.right) {
        size += chunk.byteLength
        if (size > maxBytes) return undefined
        chunks.push(chunk)
      }
    }
  })

/**
 * Decodes a body into its content key. Total: a decoder that throws (say, on a deeply nested body)
 * is a refused body like any other, never a 500.
 */
const contentKeyOf = (
  kind: "order" | "quote",
  body: string,
  contentType: string | undefined,
  launch: { readonly shopId: string; readonly repairOrderId: string }
): Either.Either<string, { readonly reason: string; readonly detail: string }> => {
  try {
    const decoded = kind === "order"
      ? Either.map(Webhooks.decodeOrderWebhook(body, { contentType }), (o) => orderContentKey(launch.shopId, launch.repairOrderId, o))
      : Either.map(Webhooks.decodeQuoteWebhook(body, { contentType }), (q) => quoteContentKey(launch.shopId, launch.repairOrderId, q))
    return Either.mapLeft(decoded, (error) => ({ reason: error.reason, detail: error.message }))
  } catch (error) {
    return Either.left({
      reason: `Undecodable (${error instanceof Error ? clip(error.message, 100) : "defect"})`,
      detail: `${kind} webhook: the body could not be decoded`
    })
  }
}

// The counters by kind, tagged once (a tagged metric is a new key object per call otherwise).
const receivedByKind = {
  order: Metric.tagged(receivedDeliveries, "kind", "order"),
  quote: Metric.tagged(receivedDeliveries, "kind", "quote")
}
const duplicateByKind = {
  order: Metric.tagged(duplicateDeliveries, "kind", "order"),
  quote: Metric.tagged(duplicateDeliveries, "kind", "quote")
}

/** Entry ids are UUIDs; anything else in the cookie or the query is ignored. */
const entryId = (value: unknown): string | undefined =>
  typeof value === "string" && /^[0-9a-f-]{36}$/i.test(value) ? value : undefined

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

  // Everything after the launch key resolved: its log lines carry the shop and repair order, its
  // span the same and whether the delivery was a duplicate (never the key).
  const accept = (
    kind: "order" | "quote",
    request: HttpServerRequest.HttpServerRequest,
    launch: { readonly shopId: string; readonly repairOrderId: string; readonly repairOrderNumber: string }
  ) =>
    Effect.gen(function*() {
      // A declared length is the framing (Node's parser reads no more), checked before the key
      // was resolved; a chunked body declares none, so its limit is enforced while reading it.
      const body = request.headers["content-length"] !== undefined
        ? yield* request.text
        : yield* readLimited(request, maxBodyBytes)
      if (body === undefined) {
        yield* Effect.logWarning("webhook refused: body too large").pipe(Effect.annotateLogs({ maxBodyBytes }))
        return tooLarge()
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
        RequestError: () => Effect.logWarning("webhook refused: body unreadable").pipe(Effect.as(json(400, { error: "body unreadable" }))),
        InboxError: (error) =>
          Effect.logError("inbox write failed; asking the sender to retry", error).pipe(Effect.as(json(503, { error: "try again" })))
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
        LaunchRegistryError: (error) => Effect.logError("launch registry failed", error).pipe(Effect.as(json(503, { error: "try again" })))
      }),
      Effect.annotateLogs({ kind }),
      Effect.withSpan("WebhookReceiver.receive", { attributes: { kind } })
    )

  // A landing (no `after` in the query) is pinned to the deliveries after the last one this browser
  // was shown, and redirected to a URL that says so: a reload then shows the same export.
  const callback = Effect.gen(function*() {
    const launch = yield* resolveLaunch
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
    const entries = yield* inbox.list({ shopId: launch.shopId, repairOrderId: launch.repairOrderId, receivedSince: launch.createdAt })
    // A shop system that cannot take part lines: the runtime's parts ledger holds them, and the page lists them.
    const ledger = yield* Effect.serviceOption(PartsLedger)
    const kept = Option.isSome(ledger)
      ? yield* ledger.value.list({ shopId: launch.shopId, repairOrderId: launch.repairOrderId })
      : []
    const view = callbackView(launch, entries, {
      after: entryId(query["after"]),
      landedAt: Number.isFinite(landedAt) && landedAt <= now ? landedAt : now,
      now
    }, kept)
    const page = html(renderCallbackPage(launch, view, kept)).pipe(HttpServerResponse.setHeader("cache-control", "no-store"))
    if (view.shown === undefined) return page
    const { key } = yield* HttpRouter.params
    return page.pipe(HttpServerResponse.unsafeSetCookie(SEEN_COOKIE, view.shown.id, {
      path: `${base}/callback/${key}`,
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

  const path = (suffix: string) => `${base}${suffix}` as HttpRouter.PathInput
  return HttpRouter.empty.pipe(
    HttpRouter.post(path("/webhooks/:key/order"), webhook("order")),
    HttpRouter.post(path("/webhooks/:key/quote"), webhook("quote")),
    HttpRouter.get(path("/callback/:key"), callback)
  )
}
