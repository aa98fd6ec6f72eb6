// The page the user's browser lands on after an export (the session's webhooks.callback).
import type { Launch } from "../LaunchRegistry.js"
import type { InboxEntry } from "../WebhookInbox.js"

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

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

/** One sentence about the newest delivery of the launch, and whether the page should refresh. */
export const callbackSummary = (launch: Launch, entries: ReadonlyArray<InboxEntry>) => {
  const ro = `RO ${launch.repairOrderNumber}`
  const latest = entries.at(-1)
  if (latest === undefined) return { text: `Waiting for the distributor to send the parts for ${ro}…`, refresh: true, state: "waiting" }
  const what = latest.kind === "order" ? "ordered" : "quoted"
  const n = lineCount(latest)
  switch (latest.status) {
    case "applied":
      return { text: `${parts(n)} ${what} and added to ${ro}.`, refresh: false, state: "applied" }
    case "pending":
      return { text: `${parts(n)} ${what}; adding them to ${ro}…`, refresh: true, state: "pending" }
    case "dead":
      return { text: `${parts(n)} ${what}, but they could not be added to ${ro}. Your administrator can replay the delivery.`, refresh: false, state: "dead" }
  }
}

export const renderCallbackPage = (launch: Launch, entries: ReadonlyArray<InboxEntry>): string => {
  const summary = callbackSummary(launch, entries)
  const link = launch.repairOrderUrl === undefined
    ? ""
    : `<p><a data-testid="repair-order-link" href="${escape(launch.repairOrderUrl)}">Back to RO ${escape(launch.repairOrderNumber)}</a></p>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parts for RO ${escape(launch.repairOrderNumber)}</title>
${summary.refresh ? "<meta http-equiv=\"refresh\" content=\"2\">" : ""}
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2933}
p.summary{font-size:1.25rem}a{color:#0b6bcb}</style></head>
<body><h1>RO ${escape(launch.repairOrderNumber)}</h1>
<p class="summary" data-testid="callback-summary" data-state="${summary.state}">${escape(summary.text)}</p>
${link}</body></html>`
}

export const renderStatusPage = (status: number, text: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status}</title></head><body><p>${escape(text)}</p></body></html>`
