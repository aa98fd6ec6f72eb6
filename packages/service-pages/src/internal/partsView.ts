// The parts section of ServiceApp's repair-order page: the quoted parts and the distributor orders
// of a repair order, from what the runtime applied to it — its parts ledger for the kinds the
// adapter cannot write, the applied deliveries (their stored webhook bodies, read as the worker
// writes them: `InboxWorker.writeOf`) for the kinds it can.
import { InboxWorker, type PartsLedger, type WebhookInbox } from "@shoplink/connector-runtime"
import { Html } from "@shoplink/http"
import * as ServicePages from "../ServicePages.js"

const { html } = Html

/** A part line as the page shows it. */
export interface ShownLine {
  readonly productID: string
  readonly brandID: string
  readonly description: string
  readonly quantity: number
  readonly costCents: number
  readonly listCents: number
  readonly coreCents: number
}

/** A distributor order with its status in words and its lines. */
export interface ShownOrder {
  readonly orderID: string
  readonly status: string
  readonly lines: ReadonlyArray<ShownLine>
}

export interface PartsView {
  readonly quoted: ReadonlyArray<ShownLine>
  readonly orders: ReadonlyArray<ShownOrder>
}

/** Adds `line` under `key` unless there (a redelivery, a later status: an SMS adds a line once). */
const collect = () => {
  const seen = new Set<string>()
  const quoted: Array<ShownLine> = []
  const orders = new Map<string, { status: string; lines: Array<ShownLine> }>()
  return {
    quote: (key: string, line: ShownLine) => {
      if (!seen.has(key)) void (seen.add(key), quoted.push(line))
    },
    order: (orderID: string, status: string, key: string, line: ShownLine | undefined) => {
      const order = orders.get(orderID) ?? { status, lines: [] }
      order.status = status
      orders.set(orderID, order)
      if (line !== undefined && !seen.has(key)) void (seen.add(key), order.lines.push(line))
    },
    view: (): PartsView => ({ quoted, orders: [...orders].map(([orderID, o]) => ({ orderID, ...o })) })
  }
}

/**
 * The parts of a repair order: `kept` (the ledger) for the kinds in `fromLedger`, the applied
 * `entries` (oldest first) for the others.
 */
export const partsOf = (
  kept: ReadonlyArray<PartsLedger.LedgerLine>,
  entries: ReadonlyArray<WebhookInbox.InboxEntry>,
  fromLedger: ReadonlySet<"quote" | "order">
): PartsView => {
  const parts = collect()
  for (const line of kept) {
    if (!fromLedger.has(line.kind)) continue
    if (line.kind === "quote") parts.quote(`ledger:${line.idempotencyKey}`, line)
    else {
      const status = line.status === undefined
        ? line.statusDescription ?? ""
        : ServicePages.orderStatusText(line.status, line.statusDescription)
      parts.order(line.orderID ?? "", status, `ledger:${line.idempotencyKey}`, line)
    }
  }
  // The runtime's own lines and keys: a redelivery or a later status adds what the SMS would add.
  for (const entry of entries) {
    if (entry.status !== "applied" || fromLedger.has(entry.kind)) continue
    const applied = InboxWorker.writeOf(entry)
    if (applied === undefined) continue
    if (applied.kind === "quote") {
      for (const line of applied.write.lines) parts.quote(line.idempotencyKey, line)
      continue
    }
    const { lines, orderID, status, statusDescription } = applied.write
    const shown = ServicePages.orderStatusText(status, statusDescription)
    if (lines.length === 0) parts.order(orderID, shown, "", undefined)
    for (const line of lines) parts.order(orderID, shown, line.idempotencyKey, line)
  }
  return parts.view()
}

const table = (rows: ReadonlyArray<ShownLine>, testId: string, orderID?: string) =>
  html`<table><thead><tr>
<th>Part number</th><th>Brand</th><th>Description</th><th>Qty</th><th>Cost</th><th>List</th><th>Core</th></tr></thead><tbody>
${
    rows.map((p) =>
      html`<tr data-testid="${testId}"${
        orderID === undefined ? "" : html` data-order-id="${orderID}"`
      }><td>${p.productID}</td><td>${p.brandID}</td><td>${p.description}</td>
${ServicePages.amountCells(p)}</tr>
`
    )
  }</tbody></table>`

/** The section: a note on where the parts are, the quoted parts, then each distributor order. */
export const partsSection = (view: PartsView, note: string | undefined, partsPageUrl: string | undefined): Html.Html =>
  html`${note === undefined ? "" : html`<p class="muted" data-testid="parts-note">${note}</p>`}
${
    partsPageUrl === undefined
      ? ""
      : html`<p><a data-testid="parts-page-link" href="${partsPageUrl}">Parts page (with CSV download)</a></p>`
  }
<h2>Quoted parts</h2>
${view.quoted.length === 0 ? html`<p class="muted">None yet.</p>` : table(view.quoted, "quoted-line")}
<h2>Distributor orders</h2>
${
    view.orders.length === 0 ?
      html`<p class="muted">None yet.</p>` :
      view.orders.map((o) =>
        html`<h3 data-testid="distributor-order" data-order-id="${o.orderID}">
Order ${o.orderID} <span class="badge" data-testid="order-status">${o.status}</span></h3>
${table(o.lines, "ordered-line", o.orderID)}
`
      )
  }`
