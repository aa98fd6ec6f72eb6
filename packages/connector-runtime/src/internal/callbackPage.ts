// The page the user's browser lands on after an export (the session's webhooks.callback).
//
// Every export of a launch lands the browser on the same URL, and the export's webhook may arrive
// before or after the browser does. So a landing is pinned to "the deliveries after the last one
// this browser was shown" (a cookie), and the page waits for one of those rather than reporting an
// older, already applied export as the result.
import type { Launch } from "../LaunchRegistry.js"
import type { LedgerLine } from "../PartsLedger.js"
import type { InboxEntry } from "../WebhookInbox.js"
import { Html } from "@shoplink/http"
import { Punchout } from "@shoplink/protocol"
import { deadDeliveryText, retryingDeliveryText } from "../FailureWords.js"

const { html, safeHref, toHtmlString } = Html

/** How long a landing waits for its export's webhook before saying nothing new arrived. */
export const CALLBACK_WAIT_MILLIS = 2 * 60 * 1000

/** Cookie holding the id of the newest delivery the page showed this browser. */
export const SEEN_COOKIE = "shoplink_seen"

/** How many part lines a stored delivery carries (0 when it cannot be read). */
const lineCount = (entry: InboxEntry): number => {
  try {
    const body = JSON.parse(entry.body) as { quotes?: unknown; order?: { orderLines?: unknown } }
    const lines = entry.kind === "quote" ? body.quotes : body.order?.orderLines
    return Array.isArray(lines) ? lines.length : 0
  } catch {
    return 0
  }
}

const parts = (n: number) => `${n} part${n === 1 ? "" : "s"}`
const them = (n: number) => (n === 1 ? "it" : "them")

type CallbackState = "waiting" | "pending" | "applied" | "dead" | "quiet"

interface CallbackView {
  readonly text: string
  readonly refresh: boolean
  readonly state: CallbackState
  /** The delivery shown, if any: it becomes the browser's "seen" marker. */
  readonly shown: InboxEntry | undefined
}

/**
 * What the page says. `after` is the id of the last delivery this browser was shown at landing
 * (undefined: none); only deliveries after it count as this landing's export. `landedAt` and `now`
 * bound the wait for one to arrive.
 */
export const callbackView = (
  launch: Launch,
  entries: ReadonlyArray<InboxEntry>,
  landing: { readonly after: string | undefined; readonly landedAt: number; readonly now: number },
  kept: ReadonlyArray<LedgerLine> = []
): CallbackView => {
  const ro = `RO ${launch.repairOrderNumber}`
  const index = landing.after === undefined ? -1 : entries.findIndex((e) => e.id === landing.after)
  const latest = entries.slice(index + 1).at(-1)
  if (latest === undefined) {
    return landing.now - landing.landedAt < CALLBACK_WAIT_MILLIS
      ? {
        text: `Waiting for the distributor to send the parts for ${ro}…`,
        refresh: true,
        state: "waiting",
        shown: undefined
      }
      : {
        text: `Nothing new has arrived from the distributor for ${ro}. Reload this page to check again.`,
        refresh: false,
        state: "quiet",
        shown: undefined
      }
  }
  const what = latest.kind === "order" ? "ordered" : "quoted"
  const n = lineCount(latest)
  // Kept by the runtime (the shop system cannot take these lines), not written to the SMS.
  const inLedger = kept.some((line) => line.kind === latest.kind)
  switch (latest.status) {
    case "applied":
      return inLedger
        ? { text: `${parts(n)} ${what} and kept with ${ro}.`, refresh: false, state: "applied", shown: latest }
        : { text: `${parts(n)} ${what} and added to ${ro}.`, refresh: false, state: "applied", shown: latest }
    case "pending":
      // A failed attempt that will be tried again says so: nothing for the user to do.
      return latest.attempts > 0 && latest.lastError !== undefined
        ? {
          text: `${parts(n)} ${what}; adding ${them(n)} to ${ro} did not work yet. ${
            retryingDeliveryText(latest.lastError)
          }`,
          refresh: true,
          state: "pending",
          shown: latest
        }
        : { text: `${parts(n)} ${what}; adding ${them(n)} to ${ro}…`, refresh: true, state: "pending", shown: latest }
    case "dead":
      // What happened, whether it is retried, what to do: never a command (that is the operator's).
      return {
        text: `${parts(n)} ${what}, but ${n === 1 ? "it" : "they"} could not be added to ${ro}. ${
          deadDeliveryText(latest.lastError, latest.id)
        }`,
        refresh: false,
        state: "dead",
        shown: latest
      }
  }
}

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`

/** The table of a repair order's kept part lines (empty string when there are none). */
const partsTable = (lines: ReadonlyArray<LedgerLine>) =>
  lines.length === 0 ?
    "" :
    html`<table data-testid="parts-table"><thead><tr><th>Kind</th><th>Order</th><th>Status</th><th>Brand</th>
<th>Part</th><th>Description</th><th>Qty</th><th>Unit cost</th><th>List</th><th>Core</th></tr></thead><tbody>
${
      lines.map((line) =>
        html`<tr data-testid="parts-row" data-kind="${line.kind}"><td>${line.kind}</td><td>${line.orderID ?? ""}</td>
<td>${
          line.status === undefined
            ? line.statusDescription ?? ""
            : Punchout.orderStatusText(line.status, line.statusDescription)
        }</td><td>${line.brandID}</td><td>${line.productID}</td><td>${line.description}</td>
<td>${line.quantity}</td><td>${money(line.costCents)}</td><td>${money(line.listCents)}</td><td>${
          money(line.coreCents)
        }</td></tr>`
      )
    }
</tbody></table>`

// Phone first (360 px and up): below 48rem a table scrolls inside its own box, never the page.
const TABLE_STYLE =
  "table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{border-bottom:1px solid #d9e2ec;padding:.3rem;text-align:left}" +
  "@media (max-width:48rem){table{display:block;overflow-x:auto}}"

/** Every page's viewport: laid out at the device's width, not a 980 px desktop. */
const VIEWPORT = html`<meta name="viewport" content="width=device-width, initial-scale=1">`

export const renderCallbackPage = (
  launch: Launch,
  view: CallbackView,
  kept: ReadonlyArray<LedgerLine> = []
): string => {
  const href = safeHref(launch.repairOrderUrl)
  return toHtmlString(html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">${VIEWPORT}<title>Parts for RO ${launch.repairOrderNumber}</title>
${view.refresh ? html`<meta http-equiv="refresh" content="2">` : ""}
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1f2933;line-height:1.4;overflow-wrap:break-word}
p.summary{font-size:1.25rem}a{color:#0b6bcb}${TABLE_STYLE}</style></head>
<body><h1>RO ${launch.repairOrderNumber}</h1>
<p class="summary" data-testid="callback-summary" data-state="${view.state}">${view.text}</p>
${kept.length === 0 ? "" : html`<h2>Parts kept for RO ${launch.repairOrderNumber}</h2>${partsTable(kept)}`}
${
    href === undefined
      ? ""
      : html`<p><a data-testid="repair-order-link" href="${href}">Back to RO ${launch.repairOrderNumber}</a></p>`
  }</body></html>`)
}

/** The authenticated parts page of one repair order: its kept lines and a CSV download. */
export const renderPartsPage = (
  ref: { readonly shopId: string; readonly repairOrderId: string },
  lines: ReadonlyArray<LedgerLine>,
  csvHref: string
): string =>
  toHtmlString(html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">${VIEWPORT}<title>Parts for repair order ${ref.repairOrderId}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#1f2933;line-height:1.4;overflow-wrap:break-word}a{color:#0b6bcb}${TABLE_STYLE}</style></head>
<body><h1>Parts for repair order ${ref.repairOrderId}</h1>
<p data-testid="parts-summary">${
    lines.length === 0
      ? "No parts have been quoted or ordered for this repair order yet."
      : `${parts(lines.length)} quoted or ordered (shop ${ref.shopId}).`
  }</p>
${partsTable(lines)}
<p><a data-testid="parts-csv" href="${csvHref}" download>Download CSV</a></p></body></html>`)

export const renderStatusPage = (status: number, text: string): string =>
  toHtmlString(
    html`<!doctype html><html lang="en"><head><meta charset="utf-8">${VIEWPORT}<title>${status}</title></head><body><p>${text}</p></body></html>`
  )
