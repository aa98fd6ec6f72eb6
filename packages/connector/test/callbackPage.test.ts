// What the callback page says, for each state of the export's delivery.
import { describe, expect, it } from "@effect/vitest"
import { callbackView } from "../src/internal/callbackPage.js"
import type { LaunchRegistry, WebhookInbox } from "@shoplink/connector"

const launch: LaunchRegistry.Launch = {
  id: "0123456789abcdef",
  shopId: "shop_1",
  repairOrderId: "ro_1",
  repairOrderNumber: "1042",
  repairOrderUrl: undefined,
  createdAt: 0,
  expiresAt: 1_000_000
}
const entry = (status: WebhookInbox.EntryStatus): WebhookInbox.InboxEntry => ({
  id: "3f1c2a4e-0000-4000-8000-000000000001",
  kind: "order",
  contentKey: "k",
  shopId: "shop_1",
  repairOrderId: "ro_1",
  body: JSON.stringify({ order: { orderLines: [{}, {}] } }),
  status,
  attempts: 8,
  lastError: "applyOrder: SMS answered 500",
  receivedAt: 0,
  nextAttemptAt: 0,
  appliedAt: undefined
})

describe("callback page", () => {
  it("a dead-lettered export names the command that retries it, which exists in the CLI", () => {
    const view = callbackView(launch, [entry("dead")], { after: undefined, landedAt: 0, now: 1 })
    expect(view).toMatchObject({ state: "dead", refresh: false })
    expect(view.text).toBe(
      "2 parts ordered, but they could not be added to RO 1042. Your administrator can retry with: shoplink inbox replay 3f1c2a4e-0000-4000-8000-000000000001"
    )
  })

  it("applied and pending read as final and as still working", () => {
    expect(callbackView(launch, [entry("applied")], { after: undefined, landedAt: 0, now: 1 }).text).toBe("2 parts ordered and added to RO 1042.")
    expect(callbackView(launch, [entry("pending")], { after: undefined, landedAt: 0, now: 1 }).refresh).toBe(true)
  })
})
