// The Shopmonkey-specific page: a repair order with the quoted parts and the distributor orders on
// it (read back from Shopmonkey). The layout, the list, the sign-in and error pages are
// ServicePages of @shoplink/connector; everything goes through the escaping `html` template.
import { ServicePages } from "@shoplink/service-pages"
import { Html } from "@shoplink/http"

const { html } = Html

export interface PartRow {
  readonly partNumber: string
  readonly brand: string
  readonly name: string
  readonly quantity: number
  readonly costCents: number
  readonly retailCents: number
  readonly coreCents: number
}

export interface DistributorOrder {
  readonly orderID: string
  readonly statusDescription: string
  readonly lines: ReadonlyArray<PartRow>
}

export interface RepairOrderView extends ServicePages.RepairOrderHeading {
  readonly quoted: ReadonlyArray<PartRow>
  readonly orders: ReadonlyArray<DistributorOrder>
}

const partsTable = (rows: ReadonlyArray<PartRow>, testId: string) =>
  html`<table><thead><tr>
<th>Part number</th><th>Brand</th><th>Description</th><th>Qty</th><th>Cost</th><th>List</th><th>Core</th></tr></thead><tbody>
${rows.map((p) => html`<tr data-testid="${testId}"><td>${p.partNumber}</td><td>${p.brand}</td><td>${p.name}</td>
${ServicePages.amountCells({ ...p, listCents: p.retailCents })}</tr>
`)}</tbody></table>`

export const repairOrderPage = (viewer: ServicePages.Viewer, ro: RepairOrderView) =>
  ServicePages.repairOrderPage(
    viewer,
    ro,
    html`<h2>Quoted parts</h2>
${ro.quoted.length === 0 ? html`<p class="muted">None yet.</p>` : partsTable(ro.quoted, "quoted-line")}
<h2>Distributor orders</h2>
${
      ro.orders.length === 0 ? html`<p class="muted">None yet.</p>` : ro.orders.map((o) =>
        html`<h3 data-testid="distributor-order" data-order-id="${o.orderID}">
Order ${o.orderID} <span class="badge" data-testid="order-status">${o.statusDescription}</span></h3>
${partsTable(o.lines, "ordered-line")}
`
      )
    }`
  )
