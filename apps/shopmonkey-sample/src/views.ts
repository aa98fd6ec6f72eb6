// Server-rendered pages: the repair order list and a repair order with its parts.
import { Money } from "@shoplink/connector"

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

const layout = (title: string, body: string, refreshSeconds?: number) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
${refreshSeconds === undefined ? "" : `<meta http-equiv="refresh" content="${refreshSeconds}">`}
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2933}
h1{font-size:1.5rem}table{border-collapse:collapse;width:100%;margin:1rem 0}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #d9e2ec}th{background:#f0f4f8}
td.num{text-align:right;font-variant-numeric:tabular-nums}button{background:#0b6bcb;color:#fff;border:0;border-radius:4px;padding:.4rem .9rem;cursor:pointer}
.muted{color:#627d98}.badge{background:#e3f8ff;border-radius:4px;padding:.1rem .4rem}a{color:#0b6bcb}
</style></head><body>${body}</body></html>`

export interface RepairOrderRow {
  readonly id: string
  readonly number: string
  readonly vehicle: string
  readonly customer: string
}

export const repairOrdersPage = (rows: ReadonlyArray<RepairOrderRow>, notice?: string) =>
  layout("Repair orders", `<h1>Repair orders</h1>
${notice === undefined ? "" : `<p data-testid="notice">${escape(notice)}</p>`}
<table><thead><tr><th>RO</th><th>Vehicle</th><th>Customer</th><th></th></tr></thead><tbody>
${rows.map((ro) => `<tr data-testid="repair-order" data-ro="${escape(ro.number)}">
<td><a href="/ro/${encodeURIComponent(ro.id)}">RO ${escape(ro.number)}</a></td><td>${escape(ro.vehicle)}</td><td>${escape(ro.customer)}</td>
<td><form method="post" action="/ro/${encodeURIComponent(ro.id)}/order-parts"><button data-testid="order-parts">Order parts</button></form></td></tr>`).join("\n")}
</tbody></table>`)

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

export interface RepairOrderView {
  readonly id: string
  readonly number: string
  readonly vehicle: string
  readonly customer: string
  readonly quoted: ReadonlyArray<PartRow>
  readonly orders: ReadonlyArray<DistributorOrder>
  /** Deliveries received but not yet on the RO. */
  readonly pending: number
  readonly failed: ReadonlyArray<string>
}

const partsTable = (rows: ReadonlyArray<PartRow>, testId: string) => `<table><thead><tr>
<th>Part number</th><th>Brand</th><th>Description</th><th>Qty</th><th>Cost</th><th>List</th><th>Core</th></tr></thead><tbody>
${rows.map((p) => `<tr data-testid="${testId}"><td>${escape(p.partNumber)}</td><td>${escape(p.brand)}</td><td>${escape(p.name)}</td>
<td class="num">${p.quantity}</td><td class="num">$${Money.formatCents(p.costCents)}</td><td class="num">$${Money.formatCents(p.retailCents)}</td>
<td class="num">${p.coreCents > 0 ? `$${Money.formatCents(p.coreCents)}` : "—"}</td></tr>`).join("\n")}
</tbody></table>`

export const repairOrderPage = (ro: RepairOrderView) =>
  layout(`RO ${ro.number}`, `<p><a href="/">← Repair orders</a></p>
<h1 data-testid="ro-title">RO ${escape(ro.number)} · ${escape(ro.vehicle)}</h1>
<p class="muted">${escape(ro.customer)}</p>
<form method="post" action="/ro/${encodeURIComponent(ro.id)}/order-parts"><button data-testid="order-parts">Order parts</button></form>
${ro.pending > 0 ? `<p data-testid="pending">${ro.pending} delivery(ies) from the distributor being added…</p>` : ""}
${ro.failed.map((f) => `<p data-testid="failed">Could not add a delivery: ${escape(f)}</p>`).join("")}
<h2>Quoted parts</h2>
${ro.quoted.length === 0 ? "<p class=\"muted\">None yet.</p>" : partsTable(ro.quoted, "quoted-line")}
<h2>Distributor orders</h2>
${ro.orders.length === 0 ? "<p class=\"muted\">None yet.</p>" : ro.orders.map((o) => `<h3 data-testid="distributor-order" data-order-id="${escape(o.orderID)}">
Order ${escape(o.orderID)} <span class="badge" data-testid="order-status">${escape(o.statusDescription)}</span></h3>
${partsTable(o.lines, "ordered-line")}`).join("\n")}`, ro.pending > 0 ? 2 : undefined)

export const errorPage = (status: number, message: string) =>
  layout(`Error ${status}`, `<h1>Something went wrong</h1><p data-testid="error">${escape(message)}</p><p><a href="/">← Repair orders</a></p>`)
