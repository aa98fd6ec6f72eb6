/**
 * The delivery console: an operator's pages over the webhook inbox and the shops. Deliveries by
 * shop, repair order and status (pending, retrying, dead, applied), newest first in keyset pages
 * (`WebhookInbox.page`), each with its attempts, next attempt, last error and the part lines it
 * carries; replay and discard; the shops with their credential status. Server-rendered with the
 * escaping `html` tag, every page through `Html.page` (CSP, no framing, no script).
 *
 * Who gets in: a signed-in user whose users-file entry has `role: "operator"` (POSTs need the
 * session's CSRF token and the pages' own Origin, as every `ServicePages` action), or a request
 * with `Authorization: Bearer <vendor API key>` (no cookie involved, so no CSRF). Anyone else: a
 * browser without a session is sent to sign in, a signed-in non-operator gets 403, a bad key 401.
 *
 * @since 0.1.0
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Html as HtmlTag } from "@shoplink/http"
import { Webhooks } from "@shoplink/punchout"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { Money } from "@shoplink/connector"
import * as ServicePages from "./ServicePages.js"
import type * as SignIn from "./SignIn.js"
import type { ApiKeys, ShopStore, WebhookInbox } from "@shoplink/connector-runtime"

const { html } = HtmlTag
type Html = HtmlTag.Html

/**
 * What the console reads and acts on: the runtime's inbox, shops and API keys
 * (`ConnectorRuntime.Runtime` has all three).
 *
 * @example
 * import type { ConnectorRuntime } from "@shoplink/connector-runtime"
 * import type { DeliveryConsole } from "@shoplink/service-pages"
 * const dependencies = (runtime: ConnectorRuntime.Runtime): DeliveryConsole.Dependencies => runtime
 *
 * @since 0.1.0
 */
export interface Dependencies {
  readonly inbox: WebhookInbox.Operations
  readonly shops: ShopStore.Operations
  readonly apiKeys: ApiKeys.Operations
}

/**
 * Settings of `router`.
 *
 * @example
 * import type { DeliveryConsole } from "@shoplink/service-pages"
 * const options: DeliveryConsole.Options = { basePath: "/console", pageSize: 50 }
 *
 * @since 0.1.0
 */
export interface Options {
  /** Where the console lives (default `/console`). */
  readonly basePath?: string
  /** Deliveries per page (default 50, at most 500). */
  readonly pageSize?: number
}

/**
 * A delivery's state as the console shows it: `retrying` is a pending entry that failed at least once.
 *
 * @example
 * import { DeliveryConsole } from "@shoplink/service-pages"
 * DeliveryConsole.stateOf({ status: "pending", attempts: 2 }) // "retrying"
 *
 * @since 0.1.0
 */
export type State = "pending" | "retrying" | "dead" | "applied"

/**
 * The console's state of an entry.
 *
 * @example
 * import { DeliveryConsole } from "@shoplink/service-pages"
 * DeliveryConsole.stateOf({ status: "dead", attempts: 8 }) // "dead"
 *
 * @since 0.1.0
 */
export const stateOf = (entry: { readonly status: WebhookInbox.EntryStatus; readonly attempts: number }): State =>
  entry.status === "pending" ? (entry.attempts > 0 ? "retrying" : "pending") : entry.status

const STATES: ReadonlyArray<State> = ["pending", "retrying", "dead", "applied"]

/**
 * A part line a stored delivery carries, decoded from its body.
 *
 * @example
 * import type { DeliveryConsole } from "@shoplink/service-pages"
 * const line: DeliveryConsole.Line = {
 *   productID: "51515",
 *   brandID: "WIX",
 *   description: "Oil Filter",
 *   quantity: 2,
 *   costCents: 649
 * }
 *
 * @since 0.1.0
 */
export interface Line {
  readonly productID: string
  readonly brandID: string
  readonly description: string
  readonly quantity: number
  readonly costCents: number
}

/**
 * The part lines of a stored delivery, decoded with the punchout webhook schemas
 * (`Webhooks.decodeOrderWebhook` / `decodeQuoteWebhook`), and the order's status for an order;
 * `problem` when the body does not decode, or was cleared by retention.
 *
 * @example
 * import { DeliveryConsole } from "@shoplink/service-pages"
 * DeliveryConsole.linesOf({ kind: "quote", body: '{"referenceID":"RO-1","quotes":[]}' }) // { lines: [] }
 *
 * @since 0.1.0
 */
export const linesOf = (entry: { readonly kind: WebhookInbox.DeliveryKind; readonly body: string }): {
  readonly lines: ReadonlyArray<Line>
  readonly orderStatus?: string
  readonly problem?: string
} => {
  if (entry.body === "") {
    return { lines: [], problem: "The body was cleared by retention after the delivery was applied." }
  }
  if (entry.kind === "order") {
    const decoded = Webhooks.decodeOrderWebhook(entry.body)
    if (Either.isLeft(decoded)) {
      return { lines: [], problem: `The stored body does not decode: ${decoded.left.message}` }
    }
    const { order } = decoded.right
    return {
      orderStatus: `Order ${order.orderID}: ${order.statusDescription}`,
      lines: order.orderLines.map((l) => ({
        productID: l.productID,
        brandID: l.brandID,
        description: l.productDesc,
        quantity: l.quantity,
        costCents: Money.toCents(l.price)
      }))
    }
  }
  const decoded = Webhooks.decodeQuoteWebhook(entry.body)
  if (Either.isLeft(decoded)) return { lines: [], problem: `The stored body does not decode: ${decoded.left.message}` }
  return {
    lines: decoded.right.quotes.map((q) => ({
      productID: q.productID,
      brandID: q.brandID,
      description: q.productDesc,
      quantity: q.quantityReq,
      costCents: Money.toCents(q.price)
    }))
  }
}

const time = (millis: number | undefined) =>
  millis === undefined ? "—" : new Date(millis).toISOString().replace("T", " ").slice(0, 19) + " UTC"

/**
 * What happened to a delivery, in words: applied, waiting, failing and when it is tried again,
 * or given up on and why.
 *
 * @example
 * import { DeliveryConsole } from "@shoplink/service-pages"
 * DeliveryConsole.inWords({
 *   status: "dead",
 *   attempts: 8,
 *   lastError: "Shopmonkey refused the API key",
 *   nextAttemptAt: 0,
 *   appliedAt: undefined
 * }, 0)
 * // "Given up after 8 attempts. Last error: Shopmonkey refused the API key. "
 * // + "Replay it once the cause is fixed, or discard it."
 *
 * @since 0.1.0
 */
export const inWords = (
  entry: Pick<WebhookInbox.InboxEntry, "status" | "attempts" | "lastError" | "nextAttemptAt" | "appliedAt">,
  now: number
): string => {
  const attempts = `${entry.attempts} attempt${entry.attempts === 1 ? "" : "s"}`
  const error = entry.lastError === undefined ? "" : ` Last error: ${entry.lastError.replace(/\.?$/, ".")}`
  switch (stateOf(entry)) {
    case "applied":
      return `Applied ${time(entry.appliedAt)} after ${attempts}.`
    case "dead":
      return `Given up after ${attempts}.${error} Replay it once the cause is fixed, or discard it.`
    case "retrying":
      return `Failed ${attempts} so far; tried again ${
        entry.nextAttemptAt <= now ? "now" : `at ${time(entry.nextAttemptAt)}`
      }.${error}`
    case "pending":
      return entry.nextAttemptAt <= now
        ? "Waiting to be applied."
        : `Waiting to be applied at ${time(entry.nextAttemptAt)}.`
  }
}

const ENTRY_ID = /^[A-Za-z0-9._-]{1,100}$/
const SHOP_ID = /^[A-Za-z0-9._-]{1,64}$/

/** The list's filter and cursor as the query string carries them. */
interface Query {
  readonly shop: string | undefined
  readonly ro: string | undefined
  readonly state: State | undefined
  readonly after: WebhookInbox.PageCursor | undefined
}

const readQuery = (url: string): Query => {
  const params = new URL(url, "http://console").searchParams
  const text = (name: string, max: number) => {
    const value = params.get(name)?.trim()
    return value === undefined || value === "" || value.length > max ? undefined : value
  }
  const shop = text("shop", 64)
  const state = text("state", 10)
  const cursor = /^(\d{1,16})\.([A-Za-z0-9._-]{1,100})$/.exec(params.get("after") ?? "")
  return {
    shop: shop !== undefined && SHOP_ID.test(shop) ? shop : undefined,
    ro: shop === undefined ? undefined : text("ro", 128),
    state: STATES.find((s) => s === state),
    after: cursor === null ? undefined : { receivedAt: Number(cursor[1]), id: cursor[2]! }
  }
}

const queryString = (query: Partial<Query>) => {
  const params = new URLSearchParams()
  if (query.shop !== undefined) params.set("shop", query.shop)
  if (query.ro !== undefined) params.set("ro", query.ro)
  if (query.state !== undefined) params.set("state", query.state)
  if (query.after !== undefined) params.set("after", `${query.after.receivedAt}.${query.after.id}`)
  const text = params.toString()
  return text === "" ? "" : `?${text}`
}

/** Who is looking: a signed-in operator (their viewer, for the header and the forms' CSRF token) or an API key. */
type Access = { readonly _tag: "session"; readonly viewer: ServicePages.Viewer } | { readonly _tag: "apiKey" }

const csrf = (access: Access) => access._tag === "session" ? ServicePages.csrfField(access.viewer.csrfToken) : ""

const nav = (base: string) =>
  html`<nav><a href="${base}" data-testid="console-deliveries">Deliveries</a> · <a href="${base}/shops" data-testid="console-shops">Shops</a></nav>`

const lineTable = (lines: ReadonlyArray<Line>): Html =>
  html`<table><thead><tr><th>Part</th><th>Brand</th><th>Description</th><th>Qty</th><th>Cost</th></tr></thead><tbody>
${
    lines.map((l) =>
      html`<tr data-testid="console-line"><td>${l.productID}</td><td>${l.brandID}</td><td>${l.description}</td><td class="num">${l.quantity}</td><td class="num">$${
        Money.formatCents(l.costCents)
      }</td></tr>
`
    )
  }</tbody></table>`

const listPage = (
  base: string,
  access: Access,
  query: Query,
  page: WebhookInbox.Page,
  shops: ReadonlyArray<ShopStore.Shop>,
  now: number
): string =>
  ServicePages.layout(
    "Deliveries",
    html`${nav(base)}
<h1>Deliveries</h1>
<form method="get" action="${base}" data-testid="console-filter">
<label for="shop">Shop</label><select id="shop" name="shop"><option value="">All shops</option>
${
      shops.map((s) => html`<option value="${s.id}"${query.shop === s.id ? html` selected` : ""}>${s.name}</option>`)
    }</select>
<label for="ro">Repair order id</label><input id="ro" name="ro" value="${query.ro ?? ""}">
<label for="state">Status</label><select id="state" name="state"><option value="">Any</option>
${STATES.map((s) => html`<option value="${s}"${query.state === s ? html` selected` : ""}>${s}</option>`)}</select>
<p><button data-testid="console-apply-filter">Show</button></p></form>
<table><thead><tr><th>Received</th><th>Shop</th><th>Repair order</th><th>Kind</th><th>Status</th><th>Attempts</th><th>Next attempt</th><th>Last error</th></tr></thead><tbody>
${
      page.entries.map((e) =>
        html`<tr data-testid="console-delivery" data-id="${e.id}" data-state="${stateOf(e)}">
<td><a href="${base}/deliveries/${encodeURIComponent(e.id)}">${
          time(e.receivedAt)
        }</a></td><td>${e.shopId}</td><td>${e.repairOrderId}</td><td>${e.kind}</td>
<td><span class="badge">${stateOf(e)}</span></td><td class="num">${e.attempts}</td>
<td>${
          e.status === "pending"
            ? (e.nextAttemptAt <= now ? "now" : time(e.nextAttemptAt))
            : "—"
        }</td><td>${e.lastError ?? ""}</td></tr>
`
      )
    }</tbody></table>
${page.entries.length === 0 ? html`<p class="muted" data-testid="console-empty">No deliveries match.</p>` : ""}
<p>${
      query.after === undefined
        ? ""
        : html`<a href="${base}${queryString({ ...query, after: undefined })}" data-testid="console-first">Newest</a> `
    }
${
      page.next === undefined
        ? ""
        : html`<a href="${base}${
          queryString({ ...query, after: page.next })
        }" data-testid="console-next" rel="next">Older →</a>`
    }</p>`,
    access._tag === "session" ? { viewer: access.viewer } : {}
  )

const showPage = (
  base: string,
  access: Access,
  entry: WebhookInbox.InboxEntry,
  now: number,
  notice: string | undefined
): string => {
  const decoded = linesOf(entry)
  const id = encodeURIComponent(entry.id)
  return ServicePages.layout(
    `Delivery ${entry.id}`,
    html`${nav(base)}
<h1>Delivery <code>${entry.id}</code></h1>
${notice === undefined ? "" : html`<p class="badge" data-testid="console-notice" role="status">${notice}</p>`}
<table><tbody>
<tr><th>Status</th><td data-testid="console-state">${stateOf(entry)}</td></tr>
<tr><th>What happened</th><td data-testid="console-words">${inWords(entry, now)}</td></tr>
<tr><th>Shop</th><td><a href="${base}${queryString({ shop: entry.shopId })}">${entry.shopId}</a></td></tr>
<tr><th>Repair order</th><td><a href="${base}${
      queryString({ shop: entry.shopId, ro: entry.repairOrderId })
    }">${entry.repairOrderId}</a></td></tr>
<tr><th>Kind</th><td>${entry.kind}${decoded.orderStatus === undefined ? "" : html` · ${decoded.orderStatus}`}</td></tr>
<tr><th>Received</th><td>${time(entry.receivedAt)}</td></tr>
<tr><th>Attempts</th><td data-testid="console-attempts">${entry.attempts}</td></tr>
<tr><th>Next attempt</th><td>${
      entry.status === "pending" ? (entry.nextAttemptAt <= now ? "now" : time(entry.nextAttemptAt)) : "—"
    }</td></tr>
<tr><th>Last error</th><td data-testid="console-last-error">${entry.lastError ?? "—"}</td></tr>
<tr><th>Content key</th><td><code>${entry.contentKey}</code></td></tr>
</tbody></table>
<h2>Lines</h2>
${
      decoded.problem === undefined
        ? lineTable(decoded.lines)
        : html`<p class="error" data-testid="console-body-problem">${decoded.problem}</p>`
    }
${
      entry.status === "pending"
        ? ""
        : html`<form method="post" action="${base}/deliveries/${id}/replay">${
          csrf(access)
        }<button data-testid="console-replay">Replay</button></form>`
    }
${
      entry.status === "dead"
        ? html`<form method="post" action="${base}/deliveries/${id}/discard">${
          csrf(access)
        }<button data-testid="console-discard">Discard</button></form>`
        : ""
    }`,
    access._tag === "session" ? { viewer: access.viewer } : {}
  )
}

const shopsPage = (base: string, access: Access, shops: ReadonlyArray<ShopStore.Shop>): string =>
  ServicePages.layout(
    "Shops",
    html`${nav(base)}
<h1>Shops</h1>
<table><thead><tr><th>Shop</th><th>Distributor account</th><th>Country</th><th>Credentials</th><th></th></tr></thead><tbody>
${
      shops.map((s) =>
        html`<tr data-testid="console-shop" data-shop="${s.id}" data-status="${s.status}">
<td>${s.name} <span class="muted">${s.id}</span></td><td>${s.distributor.accountNo}</td><td>${s.distributor.country}</td>
<td>${
          s.status === "active"
            ? "active"
            : html`<strong class="error">revoked</strong> ${time(s.revoked?.at)}: ${
              s.revoked?.reason ?? ""
            } — onboard again`
        }</td>
<td><a href="${base}${queryString({ shop: s.id })}">Deliveries</a></td></tr>
`
      )
    }</tbody></table>
${shops.length === 0 ? html`<p class="muted">No shops onboarded.</p>` : ""}`,
    access._tag === "session" ? { viewer: access.viewer } : {}
  )

/**
 * The console's routes under `options.basePath` (default `/console`): GET `/console` (deliveries,
 * `?shop&ro&state&after`), GET `/console/deliveries/:id`, POST `/console/deliveries/:id/replay`
 * and `/discard`, GET `/console/shops`. Mount it beside `pages.routes(…)`; the sign-in return
 * paths of `ServicePages` include `/console`.
 *
 * @example
 * import { HttpRouter } from "@effect/platform"
 * import { Effect } from "effect"
 * import { type ConnectorRuntime } from "@shoplink/connector-runtime"
 * import { DeliveryConsole, type ServicePages } from "@shoplink/service-pages"
 * declare const runtime: ConnectorRuntime.Runtime
 * declare const pages: ServicePages.ServicePages
 * const app = HttpRouter.concat(pages.router, DeliveryConsole.router(runtime, pages))
 *
 * @since 0.1.0
 */
export const router = (
  dependencies: Dependencies,
  pages: ServicePages.ServicePages,
  options: Options = {}
): HttpRouter.HttpRouter => {
  const base = (options.basePath ?? "/console").replace(/\/+$/, "")
  const pageSize = options.pageSize ?? 50
  const { apiKeys, inbox, shops } = dependencies

  const unavailable = (what: string) => (error: { readonly message: string }) =>
    Effect.as(
      Effect.logError(`delivery console: ${what} failed`, error.message),
      pages.page(ServicePages.errorPage(503, "The console could not read the inbox; try again."), 503)
    )
  const notFound = (access: Access) =>
    pages.page(
      ServicePages.errorPage(
        404,
        "No such delivery (it may have been discarded).",
        access._tag === "session" ? access.viewer : undefined
      ),
      404
    )

  // An API key when the request carries `Authorization: Bearer …`; else an operator's session.
  const guard = (
    method: "page" | "action",
    handler: (
      access: Access
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      // A Bearer credential is a vendor API key; anything else (none, or a proxy's Basic) is the session's business.
      if (/^bearer\s/i.test(request.headers["authorization"] ?? "")) {
        const verified = yield* Effect.either(apiKeys.verify(request.headers["authorization"]))
        if (Either.isLeft(verified)) {
          if (verified.left._tag === "ApiKeyStoreError") return yield* unavailable("the API key store")(verified.left)
          yield* Effect.logWarning("delivery console refused").pipe(
            Effect.annotateLogs({ reason: verified.left.message })
          )
          return HttpServerResponse.setHeader(
            pages.page(ServicePages.errorPage(401, "This API key is not valid."), 401),
            "www-authenticate",
            "Bearer realm=\"shoplink\""
          )
        }
        return yield* handler({ _tag: "apiKey" })
      }
      const asOperator = (session: SignIn.Session) =>
        pages.isOperator(session)
          ? handler({ _tag: "session", viewer: ServicePages.viewerOf(session) })
          : pages.refuse("the delivery console needs an operator")
      return yield* (method === "page" ? pages.signedInPage(asOperator) : pages.signedInAction(asOperator))
    })

  const list = guard("page", (access) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const query = readQuery(request.url)
      const page = yield* inbox.page({
        limit: pageSize,
        ...(query.shop === undefined ? {} : { shopId: query.shop }),
        ...(query.ro === undefined ? {} : { repairOrderId: query.ro }),
        ...(query.state === undefined ? {} : query.state === "retrying" || query.state === "pending"
          ? { status: "pending" as const, retrying: query.state === "retrying" }
          : { status: query.state }),
        ...(query.after === undefined ? {} : { after: query.after })
      })
      const known = yield* shops.list()
      return pages.page(listPage(base, access, query, page, known, Date.now()))
    }).pipe(Effect.catchAll(unavailable("the deliveries list"))))

  const entryId = Effect.map(HttpRouter.params, (p) => p["id"] ?? "")
  const notices: Record<string, string> = {
    replayed: "Replayed: the delivery is back in line and will be applied shortly.",
    discarded: "Discarded."
  }

  const show = Effect.flatMap(
    Effect.zip(entryId, HttpServerRequest.HttpServerRequest),
    ([id, request]) =>
      guard("page", (access) =>
        !ENTRY_ID.test(id) ? Effect.succeed(notFound(access)) : inbox.get(id).pipe(
          Effect.map((entry) =>
            pages.page(
              showPage(
                base,
                access,
                entry,
                Date.now(),
                notices[new URL(request.url, "http://console").searchParams.get("done") ?? ""]
              )
            )
          ),
          Effect.catchTag("EntryNotFound", () => Effect.succeed(notFound(access))),
          Effect.catchAll(unavailable("a delivery"))
        ))
  )

  const act = (what: "replay" | "discard") =>
    Effect.flatMap(entryId, (id) =>
      guard("action", (access) =>
        Effect.gen(function*() {
          if (!ENTRY_ID.test(id)) return notFound(access)
          const who = access._tag === "session" ? access.viewer.email : "api key"
          if (what === "replay") {
            const replayed = yield* Effect.either(inbox.replay(id))
            if (Either.isLeft(replayed)) {
              return replayed.left._tag === "EntryNotFound"
                ? notFound(access)
                : yield* unavailable("replay")(replayed.left)
            }
            yield* Effect.logInfo("inbox entry replayed from the console").pipe(
              Effect.annotateLogs({ entryId: id, shopId: replayed.right.shopId, by: who })
            )
            return pages.seeOther(`${base}/deliveries/${encodeURIComponent(id)}?done=replayed`)
          }
          const entry = yield* Effect.either(inbox.get(id))
          if (Either.isLeft(entry)) {
            return entry.left._tag === "EntryNotFound"
              ? notFound(access)
              : yield* unavailable("discard")(entry.left)
          }
          const discarded = yield* Effect.either(inbox.discard(id))
          if (Either.isLeft(discarded)) {
            if (discarded.left._tag === "EntryNotFound") return notFound(access)
            if (discarded.left._tag === "EntryNotDead") {
              return pages.page(
                ServicePages.errorPage(
                  409,
                  "Only a delivery that was given up on (dead) can be discarded.",
                  access._tag === "session" ? access.viewer : undefined
                ),
                409
              )
            }
            return yield* unavailable("discard")(discarded.left)
          }
          yield* Effect.logInfo("inbox entry discarded from the console").pipe(
            Effect.annotateLogs({ entryId: id, shopId: entry.right.shopId, by: who })
          )
          return pages.seeOther(`${base}${queryString({ shop: entry.right.shopId })}`)
        })))

  const shopList = guard(
    "page",
    (access) =>
      shops.list().pipe(
        Effect.map((known) => pages.page(shopsPage(base, access, known))),
        Effect.catchAll(unavailable("the shops list"))
      )
  )

  return HttpRouter.empty.pipe(
    HttpRouter.get(base as HttpRouter.PathInput, list),
    HttpRouter.get(`${base}/shops` as HttpRouter.PathInput, shopList),
    HttpRouter.get(`${base}/deliveries/:id` as HttpRouter.PathInput, show),
    HttpRouter.post(`${base}/deliveries/:id/replay` as HttpRouter.PathInput, act("replay")),
    HttpRouter.post(`${base}/deliveries/:id/discard` as HttpRouter.PathInput, act("discard"))
  )
}
