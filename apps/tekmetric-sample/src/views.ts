// Server-rendered pages: sign-in, the repair order list and a repair order with the parts the
// runtime keeps for it (Tekmetric takes no part lines) and the distributor orders recorded in
// Tekmetric. Everything goes through the escaping `html` template; no page has a script, and the
// one inline stylesheet is allowed by its hash in the Content-Security-Policy.
import { createHash } from "node:crypto"
import { Money, type PartsLedger } from "@shoplink/connector"
import { Html as HtmlTag } from "@shoplink/http"

const { html, toHtmlString } = HtmlTag
type Html = HtmlTag.Html

const STYLE = `
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2933}
h1{font-size:1.5rem}table{border-collapse:collapse;width:100%;margin:1rem 0}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #d9e2ec}th{background:#f0f4f8}
td.num{text-align:right;font-variant-numeric:tabular-nums}button{background:#0b6bcb;color:#fff;border:0;border-radius:4px;padding:.4rem .9rem;cursor:pointer}
.muted{color:#627d98}.badge{background:#e3f8ff;border-radius:4px;padding:.1rem .4rem}a{color:#0b6bcb}
.hint{color:#8d2b0b;font-size:.875rem;margin:.25rem 0 0}.error{color:#8d2b0b}
header{display:flex;justify-content:space-between;align-items:center;border-bottom:1px solid #d9e2ec;padding-bottom:.5rem}
header form{display:inline}header button{background:#627d98}
label{display:block;margin:.75rem 0 .25rem}input{padding:.4rem;width:20rem;max-width:100%}
`

/** The stylesheet's CSP source. */
export const STYLE_HASH = `'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`

export interface Viewer {
  readonly name: string
  readonly email: string
  readonly shopName: string
  readonly csrfToken: string
}

const csrfField = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`

const layout = (title: string, body: Html, options: { readonly viewer?: Viewer; readonly refreshSeconds?: number } = {}) => {
  const head = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
${options.refreshSeconds === undefined ? "" : html`<meta http-equiv="refresh" content="${options.refreshSeconds}">`}`
  const page = html`<body>
${
    options.viewer === undefined ? "" : html`<header><span data-testid="signed-in-as">${options.viewer.name} · <strong data-testid="shop-name">${options.viewer.shopName}</strong></span>
<form method="post" action="/sign-out">${csrfField(options.viewer.csrfToken)}<button data-testid="sign-out">Sign out</button></form></header>`
  }
${body}</body></html>`
  return `${toHtmlString(head)}\n<style>${STYLE}</style></head>${toHtmlString(page)}`
}

export interface RepairOrderRow {
  readonly id: string
  readonly number: string
  readonly vehicle: string
  readonly customer: string
  /** Set when Tekmetric has no VIN or plate with state for the vehicle: what to add. */
  readonly vehicleHint: string | undefined
}

// The catalog opens in a new tab; the service's own page stays where it was.
const orderPartsButton = (ro: { readonly id: string; readonly vehicleHint: string | undefined }, viewer: Viewer) =>
  ro.vehicleHint === undefined
    ? html`<form method="post" action="/ro/${encodeURIComponent(ro.id)}/order-parts" target="_blank">${csrfField(viewer.csrfToken)}<button data-testid="order-parts">Order parts</button></form>`
    : html`<p class="hint" data-testid="vehicle-hint">${ro.vehicleHint}</p>`

export const repairOrdersPage = (viewer: Viewer, rows: ReadonlyArray<RepairOrderRow>) =>
  layout("Repair orders", html`<h1>Repair orders</h1>
<table><thead><tr><th>RO</th><th>Vehicle</th><th>Customer</th><th></th></tr></thead><tbody>
${rows.map((ro) => html`<tr data-testid="repair-order" data-ro="${ro.number}">
<td><a href="/ro/${encodeURIComponent(ro.id)}">RO ${ro.number}</a></td><td>${ro.vehicle}</td><td>${ro.customer}</td>
<td>${orderPartsButton(ro, viewer)}</td></tr>
`)}</tbody></table>`, { viewer })

export interface RepairOrderView extends RepairOrderRow {
  readonly parts: ReadonlyArray<PartsLedger.LedgerLine>
  /** The distributor orders as recorded on the repair order's job note in Tekmetric. */
  readonly recorded: ReadonlyArray<{ readonly orderID: string; readonly status: string }>
  /** A signed link to the runtime's parts page of this repair order (with its CSV download). */
  readonly partsPageUrl: string | undefined
  readonly pending: number
  readonly failed: ReadonlyArray<string>
}

const partsTable = (rows: ReadonlyArray<PartsLedger.LedgerLine>) =>
  html`<table><thead><tr><th>Kind</th><th>Order</th><th>Status</th><th>Part number</th><th>Brand</th><th>Description</th><th>Qty</th><th>Cost</th><th>List</th><th>Core</th></tr></thead><tbody>
${rows.map((p) => html`<tr data-testid="kept-line" data-kind="${p.kind}"><td>${p.kind === "order" ? "ordered" : "quoted"}</td><td>${p.orderID ?? ""}</td>
<td>${p.statusDescription ?? ""}</td><td>${p.productID}</td><td>${p.brandID}</td><td>${p.description}</td>
<td class="num">${p.quantity}</td><td class="num">$${Money.formatCents(p.costCents)}</td><td class="num">$${Money.formatCents(p.listCents)}</td>
<td class="num">${p.coreCents > 0 ? `$${Money.formatCents(p.coreCents)}` : "—"}</td></tr>
`)}</tbody></table>`

export const repairOrderPage = (viewer: Viewer, ro: RepairOrderView) =>
  layout(
    `RO ${ro.number}`,
    html`<p><a href="/">← Repair orders</a></p>
<h1 data-testid="ro-title">RO ${ro.number} · ${ro.vehicle}</h1>
<p class="muted">${ro.customer}</p>
${orderPartsButton(ro, viewer)}
${ro.pending > 0 ? html`<p data-testid="pending">${ro.pending} delivery(ies) from the distributor being recorded…</p>` : ""}
${ro.failed.map((f) => html`<p data-testid="failed">Could not record a delivery: ${f}</p>`)}
<h2>Parts</h2>
<p class="muted">Tekmetric takes no part lines from other systems: the integration keeps the quoted and ordered parts of this repair order.</p>
${ro.parts.length === 0 ? html`<p class="muted">None yet.</p>` : partsTable(ro.parts)}
${ro.partsPageUrl === undefined ? "" : html`<p><a data-testid="parts-page-link" href="${ro.partsPageUrl}">Parts page (with CSV download)</a></p>`}
<h2>Recorded in Tekmetric</h2>
${
      ro.recorded.length === 0
        ? html`<p class="muted">No distributor order yet.</p>`
        : html`<ul>${ro.recorded.map((o) => html`<li data-testid="recorded-order" data-order-id="${o.orderID}">Distributor order ${o.orderID} <span class="badge">status ${o.status}</span>, on the repair order's job note</li>`)}</ul>`
    }`,
    { viewer, ...(ro.pending > 0 ? { refreshSeconds: 2 } : {}) }
  )

export const signInPage = (options: { readonly csrfToken: string; readonly next: string; readonly email?: string; readonly error?: string }) =>
  layout("Sign in", html`<h1>Sign in</h1>
${options.error === undefined ? "" : html`<p class="error" data-testid="sign-in-error" role="alert">${options.error}</p>`}
<form method="post" action="/sign-in">${csrfField(options.csrfToken)}<input type="hidden" name="next" value="${options.next}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ""}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<p><button data-testid="sign-in">Sign in</button></p></form>`)

export const errorPage = (status: number, message: string, viewer?: Viewer) =>
  layout(
    `Error ${status}`,
    html`<h1>Something went wrong</h1><p data-testid="error">${message}</p><p><a href="/">← Repair orders</a></p>`,
    viewer === undefined ? {} : { viewer }
  )

export const forbiddenPage = () =>
  layout(
    "Forbidden",
    html`<h1>Forbidden</h1><p data-testid="error">This request was refused. Sign in, then try again from the service's own page.</p><p><a href="/sign-in">Sign in</a></p>`
  )
