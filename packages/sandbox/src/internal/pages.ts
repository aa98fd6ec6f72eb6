// Server-rendered ordering pages: ShowCatalog, ShowOrder, the cart and the export buttons.
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { Html } from "@shoplink/http"
import type { Punchout } from "@shoplink/protocol"
import type { Ctx } from "./context.js"
import type { Product } from "./catalog.js"
import {
  addToCart,
  cartOf,
  type CatalogView,
  catalogView,
  EXPORT_BUTTONS,
  type ExportButton,
  emptyCartQuotes,
  isVisible,
  openOrder,
  PAGE_SIZE,
  type PageFailure,
  type PageResult,
  press,
  removeFromCart,
  startLaunch
} from "./ordering.js"
import { appActionPath, PATHS } from "./paths.js"
import type { Session, StoredOrder } from "./state.js"

const html = Html.html

const BUTTON_LABEL: Record<ExportButton, { readonly label: string; readonly testid: string }> = {
  export: { label: "Export", testid: "export" },
  exportAndSubmit: { label: "Export and Submit", testid: "export-and-submit" },
  exportAndSave: { label: "Export and Save", testid: "export-and-save" }
}

const money = (n: number | undefined) => (n === undefined ? "price on request" : `$${n.toFixed(2)}`)

const formatters = new Map<string, Intl.DateTimeFormat>()
const formatterOf = (timeZone: string) => {
  let f = formatters.get(timeZone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "short",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZoneName: "short"
    })
    formatters.set(timeZone, f)
  }
  return f
}

/**
 * A time in the shop's zone with its abbreviation, then in UTC: a cutoff read as local time by a
 * shop in another zone is the mistake the UTC-only pages invited.
 */
const time = (millis: number, timeZone: string): Html.Html => {
  const iso = new Date(millis).toISOString()
  // ICU puts a narrow no-break space before AM/PM; a plain space reads and matches the same.
  const local = formatterOf(timeZone).format(millis).replace(/\u202f/g, " ")
  return html`<time datetime="${iso}">${local}</time> <span class="utc">(${iso.slice(0, 10)} ${
    iso.slice(11, 16)
  } UTC)</span>`
}

const zoneOf = (ctx: Ctx, session: Session) => ctx.state.accounts.customers.get(session.accountNo)?.timeZone ?? "UTC"

const zoneNote = (ctx: Ctx, session: Session) =>
  html`<p class="note" data-testid="time-zone">Times are in your shop's time zone, ${
    zoneOf(ctx, session)
  }, with UTC in brackets.</p>`

// Phone first (360 px and up): wide tables scroll inside their own box (`.scroll`), the search
// fields stack, nothing has a fixed width.
const STYLE = html`*,*::before,*::after{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0;color:#1d2733;line-height:1.4;overflow-wrap:anywhere}
header{background:#0b3d6e;color:#fff;padding:12px 16px}main{padding:12px 16px}h1{font-size:1.4rem}h2{font-size:1.15rem}
.scroll{overflow-x:auto;max-width:100%}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #dde3ea;padding:6px;text-align:left;vertical-align:top;overflow-wrap:normal}
form.inline{display:inline}fieldset{border:1px solid #dde3ea;margin:0 0 12px;min-width:0}
fieldset label{display:inline-block;margin:0 10px 6px 0}input,button{font:inherit;max-width:100%}
button{cursor:pointer;padding:4px 10px}footer{border-top:1px solid #dde3ea;padding:10px 16px;color:#5b6b7b}
.error{background:#fde8e8;border:1px solid #e0a0a0;padding:12px}.cart{background:#f4f8fc;padding:12px;margin:12px 0}
.utc,.note{color:#5b6b7b}.out{color:#9b2c2c}nav.paging{margin:10px 0}nav.paging a{margin-left:12px;white-space:nowrap}
@media (max-width:40rem){fieldset label{display:block}fieldset input{width:100%}
table.reflow,table.reflow tbody,table.reflow tr{display:block}table.reflow tr.head{display:none}
table.reflow tr{border-bottom:1px solid #dde3ea;padding:8px 0}table.reflow td{display:inline-block;border:0;padding:2px 8px 2px 0}
table.reflow td.action{display:block}table.reflow td[data-label]::before{content:attr(data-label) " "}}`

const footer = (session: Session | undefined) => {
  if (session === undefined) return ""
  const reference = session.pageReferenceID ?? session.referenceID
  return html`${session.smsVendorName}${reference === undefined ? "" : html` · Reference ${reference}`}`
}

export const layout = (title: string, session: Session | undefined, body: Html.Html): string =>
  Html.toHtmlString(
    html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>${STYLE}</style></head><body>
<header><strong>Parts ordering</strong> — Shoplink sandbox</header><main>${body}</main>
<footer data-testid="footer">${footer(session)}</footer>
</body></html>`
  )

/**
 * A page with the security headers (`Html.page`: no script, no framing, nosniff, no Referer). Its
 * forms post here, and Export is redirected to the SMS's callback page, wherever that is.
 */
export const page = (body: string, status = 200) =>
  Html.page(body, { status, formAction: ["'self'", "http:", "https:"] })

const q = (token: string) => `token=${encodeURIComponent(token)}`

// Where a link back may go: one of the ordering pages, else the catalog.
const safeBack = (back: string | undefined, token: string): string =>
  back !== undefined && (back.startsWith(`${PATHS.showCatalog}?`) || back.startsWith(`${PATHS.showOrder}?`))
    ? back
    : `${PATHS.showCatalog}?${q(token)}`

const parts = (n: number) => `${n} part${n === 1 ? "" : "s"}`

/** An error page; with a session, a link back to where the user was (`back`, else the catalog). */
export const errorPage = (message: string, session: Session | undefined, status = 400, back?: string) =>
  page(
    layout(
      "Error",
      session,
      html`<div class="error" data-testid="error">${message}</div>${
        session === undefined ?
          "" :
          html`<p><a data-testid="back" href="${safeBack(back, session.token)}">← Back to the ${
            back?.startsWith(`${PATHS.showOrder}?`) === true ? "order" : "catalog"
          }</a></p>`
      }`
    ),
    status
  )

const cartHtml = (ctx: Ctx, session: Session, back: string): Html.Html => {
  const cart = cartOf(ctx, session)
  const lines = cart?.lines ?? []
  const total = lines.reduce((n, l) => n + (l.product.price ?? 0) * l.quantity, 0)
  const buttons = EXPORT_BUTTONS.filter((b) => isVisible(session, b)).map((b, i) =>
    html`${i === 0 ? "" : " "}<form class="inline" method="post" action="${appActionPath("press")}?${
      q(session.token)
    }"><input type="hidden" name="button" value="${b}"><input type="hidden" name="back" value="${back}"><button type="submit" data-testid="${
      BUTTON_LABEL[b].testid
    }">${BUTTON_LABEL[b].label}</button></form>`
  )
  // An empty cart's Export sends the last search's priced parts: said here, and asked before sending.
  const quoted = emptyCartQuotes(session).length
  const exportNote = lines.length > 0 || !isVisible(session, "export")
    ? ""
    : html`<p class="note" data-testid="export-note">${
      quoted === 0
        ? "The cart is empty: add parts to export them."
        : `With the cart empty, Export would send the ${
          parts(quoted)
        } priced on the last results page as quotes; it asks first.`
    }</p>`
  const rows = lines.map((l) =>
    html`<tr data-testid="cart-line" data-product-id="${l.product.productID}" data-brand-id="${l.product.brandCode}"><td>${
      ctx.state.inventory.brandOf(l.product).name
    }</td><td>${l.product.productID} ${l.product.description}</td><td>${l.quantity}</td><td>${
      money(l.product.price)
    }</td><td>${l.warehouseCode}${l.backOrdered ? html` <span data-testid="back-ordered">back-ordered</span>` : ""}</td>
<td><form class="inline" method="post" action="${appActionPath("remove")}?${
      q(session.token)
    }"><input type="hidden" name="productID" value="${l.product.productID}"><input type="hidden" name="brandID" value="${l.product.brandCode}"><input type="hidden" name="back" value="${back}"><button type="submit" data-testid="remove-from-cart">Remove</button></form></td></tr>`
  )
  return html`<section class="cart" data-testid="cart"><h2>Cart${
    cart === undefined ? "" : html` — order <span data-testid="cart-order-id">${cart.orderID}</span>`
  }</h2>
${
    lines.length === 0
      ? html`<p data-testid="cart-empty">The cart is empty.</p>`
      : html`<div class="scroll"><table><tr><th>Brand</th><th>Part</th><th>Qty</th><th>Price</th><th>Warehouse</th><th></th></tr>${rows}</table></div><p>Total ${
        money(total)
      }</p>`
  }
${exportNote}<div data-testid="export-buttons">${buttons}</div></section>`
}

// A link to another page of the same search: every parameter the user gave is kept.
const pageLink = (url: URL, page: number) => {
  const params = new URLSearchParams(url.searchParams)
  params.set("page", String(page))
  return `${url.pathname}?${params.toString()}`
}

const pagingHtml = (view: CatalogView, url: URL): Html.Html | "" => {
  if (view.total === 0) return ""
  const first = (view.page - 1) * PAGE_SIZE + 1
  const last = first + view.products.length - 1
  const prev = view.page > 1
    ? html`<a data-testid="page-prev" rel="prev" href="${pageLink(url, view.page - 1)}">‹ Previous</a>`
    : ""
  const next = view.page < view.pageCount
    ? html`<a data-testid="page-next" rel="next" href="${pageLink(url, view.page + 1)}">Next ›</a>`
    : ""
  return html`<nav class="paging" data-testid="paging"><span data-testid="page-summary">Results ${first}–${last} of ${view.total} · page ${view.page} of ${view.pageCount}</span>${prev}${next}</nav>`
}

const catalogPage = (ctx: Ctx, session: Session, url: URL, back: string, now: number): PageResult<string> => {
  const query = queryRecord(url)
  return Either.map(catalogView(ctx, session, query), (view) => catalogHtml(ctx, session, url, back, now, query, view))
}

const catalogHtml = (
  ctx: Ctx,
  session: Session,
  url: URL,
  back: string,
  now: number,
  query: Record<string, string>,
  view: CatalogView
): string => {
  const country = ctx.state.accounts.customers.get(session.accountNo)!.country
  const zone = zoneOf(ctx, session)
  const backOrders = ctx.state.inventory.outOfStock === "backOrder"
  const v = view.vehicle
  const field = (name: string, label: string) =>
    html`<label>${label} <input name="${name}" value="${query[name] ?? ""}"></label>`
  const addForm = (p: Product, label: string, testid: string) =>
    html`<form class="inline" method="post" action="${appActionPath("add")}?${
      q(session.token)
    }"><input type="hidden" name="productID" value="${p.productID}"><input type="hidden" name="brandID" value="${p.brandCode}"><input type="hidden" name="back" value="${back}"><input name="quantity" value="1" size="3" aria-label="Quantity"><button type="submit" data-testid="${testid}">${label}</button></form>`
  const rows = view.products.map((p) => {
    const brand = ctx.state.inventory.brandOf(p)
    const available = p.stocked ? ctx.state.inventory.available(p, country) : 0
    const timing = ctx.state.inventory.timingOf(now, p, country, 1)
    // Only what the distributor would take gets a button: unpriced and unstocked parts are refused
    // (API0243 / API0232), and so is stock on hand of zero unless the policy back-orders it.
    const [availability, dispatch, action] = !p.stocked
      ? [
        html`<span class="out">Not stocked</span>`,
        "—",
        html`<span class="out" data-testid="unavailable">Special order only</span>`
      ]
      : p.price === undefined
      ? [html`${available} available`, "—", html`<span class="out" data-testid="unavailable">Call for price</span>`]
      : available > 0
      ? [
        html`${available} available (${timing.warehouse.name})`,
        html`Dispatch ${time(timing.dispatchTime, zone)}`,
        addForm(p, "Add to cart", "add-to-cart")
      ]
      : backOrders
      ? [
        html`<span class="out">Out of stock</span> — back-order`,
        html`Dispatch ${time(timing.dispatchTime, zone)}`,
        addForm(p, "Back-order", "back-order")
      ]
      : [
        html`<span class="out">Out of stock</span>`,
        "—",
        html`<span class="out" data-testid="unavailable">Out of stock</span>`
      ]
    return html`<tr data-testid="result" data-product-id="${p.productID}" data-brand-id="${p.brandCode}">
<td><span class="brand" title="${brand.logo}">${brand.name}</span> (${brand.code})</td><td>${p.productID}</td><td>${p.description}</td>
${
      p.price === undefined
        ? html`<td data-testid="price">Price on request</td>`
        : html`<td data-testid="price" data-label="Price">${money(p.price)}</td>`
    }<td data-testid="list-price">List ${
      p.price === undefined || p.listPrice <= 0 ? "price on request" : money(p.listPrice)
    }</td><td>Core ${money(p.corePrice)}</td>
<td data-testid="availability">${availability}</td><td data-testid="dispatch">${dispatch}</td>
<td class="action">${action}</td></tr>`
  })
  return layout(
    "Catalog",
    session,
    html`<form method="get" action="${PATHS.showCatalog}"><input type="hidden" name="token" value="${session.token}">
<fieldset><legend>Vehicle and search</legend>${field("searchTerm", "Search")} ${field("vin", "VIN")} ${
      field("licensePlate", "Plate")
    } ${field("licensePlateState", "State")} ${
      field("baseVehicleID", "Base vehicle ID")
    } <button type="submit">Search</button></fieldset></form>
<div data-testid="vehicle">${
      v === undefined ? "No vehicle selected" : html`${v.year} ${v.make} ${v.model} — ${view.identifier ?? ""}`
    }</div>
<div data-testid="search-term">${view.searchTerm ?? ""}</div>
${zoneNote(ctx, session)}
${cartHtml(ctx, session, back)}
${pagingHtml(view, url)}
<div class="scroll"><table class="reflow" data-testid="results"><tr class="head"><th>Brand</th><th>Part</th><th>Description</th><th>Price</th><th>List</th><th>Core</th><th>Availability</th><th>Dispatch</th><th></th></tr>${rows}</table></div>
${view.products.length === 0 ? html`<p data-testid="no-results">No products.</p>` : ""}
${pagingHtml(view, url)}`
  )
}

const STATUS_TEXT = { cart: "In shopping cart", expired: "Expired", saved: "Saved for later" } as const

const orderPage = (ctx: Ctx, session: Session, order: StoredOrder, back: string): string =>
  layout(
    "Order",
    session,
    html`${zoneNote(ctx, session)}<h1>Order <span data-testid="order-id">${order.orderID}</span></h1>
<p>Status: <span data-testid="order-status">${
      order.state in STATUS_TEXT ? STATUS_TEXT[order.state as keyof typeof STATUS_TEXT] : "Order submitted"
    }</span>${order.comment === "" ? "" : html` · Comment ${order.comment}`}</p>
<div class="scroll"><table><tr><th>Brand</th><th>Part</th><th>Qty</th><th>Price</th><th>Dispatch</th></tr>${
      order.lines.map((l) =>
        html`<tr data-testid="order-line"><td>${
          ctx.state.inventory.brandOf(l.product).name
        }</td><td>${l.product.productID} ${l.product.description}</td><td>${l.quantity}</td><td>${
          money(l.product.price)
        }</td><td data-testid="order-line-dispatch">${time(l.dispatchTime, zoneOf(ctx, session))}${
          l.backOrdered ? html` <span data-testid="back-ordered">back-ordered</span>` : ""
        }</td></tr>`
      )
    }</table></div>
${order.state === "cart" ? cartHtml(ctx, session, back) : ""}`
  )

const queryRecord = (url: URL): Record<string, string> => Object.fromEntries(url.searchParams.entries())

/** A refused page operation, shown as an error page with a link back to where the user was. */
const failurePage = (session: Session, back?: string) => (failure: PageFailure) =>
  Effect.succeed(errorPage(failure.message, session, failure.status, back))

/**
 * Whether this page request is a launch: a browser navigation from another site (the vendor's
 * page sent the user here), by its Fetch Metadata. Links and forms of these pages are same-origin;
 * a client without Fetch Metadata (an API client, a test) is never a launch.
 */
const isLaunch = (request: HttpServerRequest.HttpServerRequest) => {
  const site = request.headers["sec-fetch-site"]
  return (site === "cross-site" || site === "same-site") && request.headers["sec-fetch-mode"] !== "cors"
}

/** GET ShowCatalog / ShowOrder for a valid session. */
export const handlePage = (ctx: Ctx, command: Punchout.BrowserCommand, session: Session, url: URL) =>
  Effect.gen(function*() {
    const now = yield* ctx.now
    if (isLaunch(yield* HttpServerRequest.HttpServerRequest)) startLaunch(session)
    const back = `${url.pathname}${url.search}`
    if (command === "ShowCatalog") return page(yield* catalogPage(ctx, session, url, back, now))
    const orderId = url.searchParams.get("orderId")
    if (orderId === null || orderId.trim() === "") {
      return errorPage(
        url.searchParams.has("orderID") ? "orderId is required (spelled orderId)" : "orderId is required",
        session
      )
    }
    const order = yield* openOrder(ctx, session, orderId, url.searchParams.get("referenceID") ?? undefined)
    return page(orderPage(ctx, session, order, back))
  }).pipe(Effect.catchTag("PageFailure", failurePage(session)))

/** The page that asks before an empty cart's Export sends the last results page's parts as quotes. */
const confirmExportPage = (ctx: Ctx, session: Session, back: string): string => {
  const items = emptyCartQuotes(session)
  return layout(
    "Export quotes?",
    session,
    html`<h1>Export quotes for ${parts(items.length)}?</h1>
<p data-testid="export-confirm-summary">The cart is empty. Export would send these ${
      parts(items.length)
    } from the last results page to ${session.smsVendorName} as quotes:</p>
<div class="scroll"><table data-testid="export-confirm-lines"><tr><th>Brand</th><th>Part</th><th>Qty</th><th>Price</th></tr>${
      items.map((i) =>
        html`<tr data-testid="export-confirm-line" data-product-id="${i.product.productID}"><td>${
          ctx.state.inventory.brandOf(i.product).name
        }</td><td>${i.product.productID} ${i.product.description}</td><td>${i.quantity}</td><td>${
          money(i.product.price)
        }</td></tr>`
      )
    }</table></div>
<p><form class="inline" method="post" action="${appActionPath("press")}?${
      q(session.token)
    }"><input type="hidden" name="button" value="export"><input type="hidden" name="confirm" value="empty-cart"><input type="hidden" name="back" value="${back}"><button type="submit" data-testid="export-confirm">Send ${
      parts(items.length)
    } as quotes</button></form>
 <a data-testid="back" href="${back}">Back, to add parts to the cart</a></p>`
  )
}

/** POST /punchout/v1/app/{add|remove|press} from the pages' forms. */
export const handleAppAction = (ctx: Ctx, action: string, session: Session) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const form = yield* request.urlParamsBody.pipe(Effect.orElseSucceed(() => []))
    const get = (name: string) => form.find(([k]) => k === name)?.[1]
    const back = safeBack(get("back"), session.token)
    return yield* Effect.gen(function*() {
      const now = yield* ctx.now
      if (action === "add") {
        yield* addToCart(ctx, session, now, {
          productID: get("productID") ?? "",
          brandID: get("brandID") ?? "",
          quantity: Number(get("quantity") ?? "1")
        })
        return HttpServerResponse.redirect(back, { status: 303 })
      }
      if (action === "remove") {
        yield* removeFromCart(ctx, session, { productID: get("productID") ?? "", brandID: get("brandID") ?? "" })
        return HttpServerResponse.redirect(back, { status: 303 })
      }
      if (action === "press") {
        const button = get("button") as ExportButton
        if (!EXPORT_BUTTONS.includes(button)) return errorPage("Unknown button", session, 400, back)
        // An empty cart's Export asks first: it would send a whole results page.
        const cartLines = cartOf(ctx, session)?.lines.length ?? 0
        if (
          button === "export" && cartLines === 0 && emptyCartQuotes(session).length > 0 &&
          get("confirm") !== "empty-cart" && isVisible(session, button)
        ) {
          return page(confirmExportPage(ctx, session, back))
        }
        const { result, send } = yield* press(ctx, session, now, button)
        for (const s of send) yield* ctx.deliver(s.event, s.url, s.body)
        if (result.redirect !== undefined) return HttpServerResponse.redirect(result.redirect, { status: 303 })
        return page(
          layout(
            "Exported",
            session,
            html`<div data-testid="export-result">${BUTTON_LABEL[button].label} done.${
              result.orderID === undefined ? "" : html` Order <span data-testid="order-id">${result.orderID}</span>`
            }</div><p><a data-testid="back" href="${back}">← Back to the ${
              back.startsWith(`${PATHS.showOrder}?`) ? "order" : "catalog"
            }</a></p>`
          )
        )
      }
      return errorPage(`Unknown action ${action}`, session, 404, back)
    }).pipe(Effect.catchTag("PageFailure", failurePage(session, back)))
  })
