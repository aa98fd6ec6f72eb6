// What the callback page says, for each state of the export's delivery.
import { describe, expect, it } from "@effect/vitest"
import { callbackView } from "../src/internal/callbackPage.js"
import { describeFailure, referenceOf } from "../src/FailureWords.js"
import type { LaunchRegistry, WebhookInbox } from "@shoplink/connector-runtime"

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
  it("a dead-lettered export says what happened, that it is not retried, and what to do, with a short reference and never a command", () => {
    const view = callbackView(launch, [entry("dead")], { after: undefined, landedAt: 0, now: 1 })
    expect(view).toMatchObject({ state: "dead", refresh: false })
    expect(view.text).toBe(
      "2 parts ordered, but they could not be added to RO 1042. The shop-management system could not be reached. Shoplink tried several times and has stopped. Your administrator has been notified (reference 3F1C2A4E) and can send them again once it is fixed."
    )
    expect(view.text).not.toMatch(/shoplink inbox|replay/)
  })

  it("an authentication failure names the system that refused and says the shop must be connected again", () => {
    const refused = {
      ...entry("dead"),
      attempts: 1,
      body: JSON.stringify({ quotes: [{}] }),
      kind: "quote" as const,
      lastError: "applyQuote: Shopmonkey createPart (POST /v3/order/o1/service) failed: HttpStatus 401: Unauthorized"
    }
    expect(callbackView(launch, [refused], { after: undefined, landedAt: 0, now: 1 }).text).toBe(
      "1 part quoted, but it could not be added to RO 1042. Shopmonkey refused this shop's credentials. Retrying cannot help, so it is not retried automatically. The shop must be connected to Shopmonkey again; your administrator has been notified (reference 3F1C2A4E)."
    )
    const tekmetric = {
      ...refused,
      lastError:
        "applyOrder: Tekmetric refused the client credentials (HTTP 401: invalid_client): check the shop's clientId and clientSecret"
    }
    expect(callbackView(launch, [tekmetric], { after: undefined, landedAt: 0, now: 1 }).text).toContain(
      "Tekmetric refused this shop's credentials"
    )
  })

  it("a delivery that failed and will be retried says Shoplink retries by itself", () => {
    const retrying = {
      ...entry("pending"),
      attempts: 2,
      lastError: "applyOrder: Shopmonkey createPart (POST /v3/x) failed: Timeout: no answer within 10s (retryable)"
    }
    const view = callbackView(launch, [retrying], { after: undefined, landedAt: 0, now: 1 })
    expect(view).toMatchObject({ state: "pending", refresh: true })
    expect(view.text).toBe(
      "2 parts ordered; adding them to RO 1042 did not work yet. Shopmonkey could not be reached; Shoplink retries automatically, nothing to do."
    )
  })

  it("applied and pending read as final and as still working", () => {
    expect(callbackView(launch, [entry("applied")], { after: undefined, landedAt: 0, now: 1 }).text).toBe(
      "2 parts ordered and added to RO 1042."
    )
    const fresh = { ...entry("pending"), attempts: 0, lastError: undefined }
    expect(callbackView(launch, [fresh], { after: undefined, landedAt: 0, now: 1 })).toMatchObject({
      refresh: true,
      text: "2 parts ordered; adding them to RO 1042…"
    })
  })
})

describe("failure words", () => {
  it("reads every failure the worker and the adapters record", () => {
    const cases: ReadonlyArray<readonly [string, string, boolean]> = [
      [
        "applyQuote: Shopmonkey createPart (POST /v3/order/o/service) failed: HttpStatus 403: Forbidden",
        "authentication",
        false
      ],
      [
        "applyQuote: Shopmonkey createPart (POST /v3/order/o/service) failed: HttpStatus 503: busy after 5 attempts (retryable)",
        "unavailable",
        true
      ],
      ["applyQuote: Shopmonkey getOrder (GET /v3/order/o) failed: HttpStatus 404: Not Found", "notFound", false],
      [
        "applyQuote: Shopmonkey createPart (POST /v3/order/o/service) failed: HttpStatus 422: quantity must be positive",
        "rejected",
        false
      ],
      ["applyOrder timed out after 30s", "unavailable", true],
      ["stored body does not decode: Expected string", "unreadable", false],
      ["order verification failed: order 10423 is unknown to the distributor (API0215)", "verification", false],
      ["order verification unavailable: Transport: ECONNREFUSED", "unavailable", true],
      ["adapter defect: TypeError: x is undefined", "internal", true],
      [
        "order verification unavailable: Order Management getOrderDetails failed: API0206 Invalid API key (401)",
        "authentication",
        false
      ]
    ]
    for (const [error, kind, transient] of cases) {
      expect(describeFailure(error), error).toMatchObject({ kind, transient })
    }
    expect(referenceOf("ec89f3a0-1111-4000-8000-000000000000")).toBe("EC89F3A0")
    expect(describeFailure("order verification unavailable: API0207 API key expired")).toMatchObject({
      system: "the distributor"
    })
  })
})
