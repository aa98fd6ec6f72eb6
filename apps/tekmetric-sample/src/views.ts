// The Tekmetric-specific page: a repair order with the parts the runtime keeps for it (Tekmetric
// takes no part lines) and the distributor orders recorded in Tekmetric. The layout, the list, the
// sign-in and error pages are ServicePages of @shoplink/connector; everything goes through the
// escaping `html` template.
import { type PartsLedger } from "@shoplink/connector-runtime"
import { ServicePages } from "@shoplink/service-pages"
import { Html } from "@shoplink/http"

const { html } = Html

export interface RepairOrderView extends ServicePages.RepairOrderHeading {
  readonly parts: ReadonlyArray<PartsLedger.LedgerLine>
  /** The distributor orders as recorded on the repair order's job note in Tekmetric. */
  readonly recorded: ReadonlyArray<{ readonly orderID: string; readonly status: string }>
  /** A signed link to the runtime's parts page of this repair order (with its CSV download). */
  readonly partsPageUrl: string | undefined
}

const partsTable = (rows: ReadonlyArray<PartsLedger.LedgerLine>) =>
  html`<table><thead><tr><th>Kind</th><th>Order</th><th>Status</th><th>Part number</th><th>Brand</th><th>Description</th><th>Qty</th><th>Cost</th><th>List</th><th>Core</th></tr></thead><tbody>
${rows.map((p) => html`<tr data-testid="kept-line" data-kind="${p.kind}"><td>${p.kind === "order" ? "ordered" : "quoted"}</td><td>${p.orderID ?? ""}</td>
<td>${p.status === undefined ? p.statusDescription ?? "" : ServicePages.orderStatusText(p.status, p.statusDescription)}</td><td>${p.productID}</td><td>${p.brandID}</td><td>${p.description}</td>
${ServicePages.amountCells(p)}</tr>
`)}</tbody></table>`

export const repairOrderPage = (viewer: ServicePages.Viewer, ro: RepairOrderView) =>
  ServicePages.repairOrderPage(
    viewer,
    ro,
    html`<h2>Parts</h2>
<p class="muted">Tekmetric takes no part lines from other systems: the integration keeps the quoted and ordered parts of this repair order.</p>
${ro.parts.length === 0 ? html`<p class="muted">None yet.</p>` : partsTable(ro.parts)}
${ro.partsPageUrl === undefined ? "" : html`<p><a data-testid="parts-page-link" href="${ro.partsPageUrl}">Parts page (with CSV download)</a></p>`}
<h2>Recorded in Tekmetric</h2>
${
      ro.recorded.length === 0
        ? html`<p class="muted">No distributor order yet.</p>`
        : html`<ul>${ro.recorded.map((o) => html`<li data-testid="recorded-order" data-order-id="${o.orderID}">Distributor order ${o.orderID} <span class="badge" data-testid="order-status">${ServicePages.orderStatusText(o.status)}</span>, on the repair order's job note</li>`)}</ul>`
    }`,
    { withoutVehicle: "hint", applied: { being: "recorded", couldNot: "record" } }
  )
