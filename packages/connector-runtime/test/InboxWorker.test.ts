import { describe, expect, it } from "@effect/vitest"
import { ShopSystem } from "@shoplink/connector"
import { InboxWorker, WebhookInbox } from "@shoplink/connector-runtime"
import { Effect, Layer, Ref, TestClock } from "effect"

const orderBody = (status: number | string = 3) =>
  JSON.stringify({
    referenceID: "ro_1042",
    order: {
      orderID: "10423",
      orderCreateTime: 1763769600000,
      comment: "",
      status,
      statusDescription: "Order submitted",
      orderLines: [
        {
          acaPartTerminologyID: 5340,
          productID: "51515",
          brandID: "WIX",
          categoryID: "FLT",
          productDesc: "Oil Filter",
          dispatchTime: 1763773200000,
          quantity: 2,
          price: 6.49,
          listPrice: 9.99,
          corePrice: 0,
          weight: 0.8,
          quality: "",
          requestedProductId: "",
          status: "3",
          statusDescription: "Order submitted"
        },
        {
          acaPartTerminologyID: 1896,
          productID: "MKD1210",
          brandID: "WGN",
          categoryID: "BRK",
          productDesc: "Brake Pad Set",
          dispatchTime: 1763773200000,
          quantity: 1,
          price: 42.19,
          listPrice: 61.5,
          corePrice: 15,
          weight: 3.1,
          quality: "Premium",
          requestedProductId: "",
          status: "3",
          statusDescription: "Order submitted"
        }
      ]
    }
  })

const quoteBody = JSON.stringify({
  referenceID: "ro_1042",
  quotes: [{
    acaPartTerminologyID: 5340,
    productID: "51515",
    brandID: "WIX",
    categoryID: "FLT",
    productDesc: "Oil Filter",
    orderByTime: 1763769600000,
    dispatchTime: 1763773200000,
    quantityAvail: 12,
    quantityReq: 1,
    price: 6.49,
    listPrice: 9.99,
    corePrice: 0,
    weight: 0.8,
    quality: "",
    makeId: 0,
    subtotal: 6.49
  }]
})

interface Recorder {
  readonly lines: Ref.Ref<ReadonlyMap<string, ShopSystem.PartLine>>
  readonly calls: Ref.Ref<number>
  /** Failures still to give before succeeding: retryable ones first. */
  readonly failures: Ref.Ref<ReadonlyArray<"retryable" | "fatal">>
}

// A recording SMS that stores lines by idempotency key, as adapters must.
const recordingShopSystem = (recorder: Recorder, capabilities: ReadonlyArray<ShopSystem.Capability>) => {
  const write = (operation: string, lines: ReadonlyArray<ShopSystem.PartLine>) =>
    Effect.gen(function*() {
      yield* Ref.update(recorder.calls, (n) => n + 1)
      const [next, ...rest] = yield* Ref.get(recorder.failures)
      if (next !== undefined) {
        yield* Ref.set(recorder.failures, rest)
        return yield* new ShopSystem.ShopSystemError({
          operation,
          reason: `SMS failure (${next})`,
          retryable: next === "retryable"
        })
      }
      return yield* Ref.modify(recorder.lines, (map) => {
        const next = new Map(map)
        let added = 0
        for (const line of lines) {
          if (!next.has(line.idempotencyKey)) added++
          next.set(line.idempotencyKey, line)
        }
        return [{ added, alreadyPresent: lines.length - added }, next]
      })
    })
  return Layer.succeed(ShopSystem.ShopSystem, {
    capabilities: new Set(capabilities),
    loadRepairOrder: ({ repairOrderId }) => Effect.succeed({ id: repairOrderId, number: "1042", vehicle: {} }),
    applyQuote: (w) => write("applyQuote", w.lines),
    applyOrder: (w) => write("applyOrder", w.lines)
  })
}

const setup = (
  capabilities: ReadonlyArray<ShopSystem.Capability> = ShopSystem.ALL_CAPABILITIES,
  failures: ReadonlyArray<"retryable" | "fatal"> = []
) =>
  Effect.gen(function*() {
    const recorder: Recorder = {
      lines: yield* Ref.make<ReadonlyMap<string, ShopSystem.PartLine>>(new Map()),
      calls: yield* Ref.make(0),
      failures: yield* Ref.make(failures)
    }
    const layer = Layer.merge(WebhookInbox.layerMemory, recordingShopSystem(recorder, capabilities))
    return { recorder, layer }
  })

const receive = (kind: WebhookInbox.DeliveryKind, body: string, contentKey: string) =>
  Effect.flatMap(
    WebhookInbox.WebhookInbox,
    (inbox) => inbox.receive({ kind, body, contentKey, shopId: "shop_1", repairOrderId: "ro_1042" })
  )

const options = { baseDelay: "1 second", maxDelay: "1 minute", maxAttempts: 4 } as const

describe("InboxWorker.processDue", () => {
  it.effect("applies an order once, with exact cents and stable keys; a second pass and a duplicate change nothing", () =>
    Effect.gen(function*() {
      const { layer, recorder } = yield* setup()
      yield* Effect.gen(function*() {
        yield* receive("order", orderBody(), "order:10423:3")
        expect(yield* InboxWorker.processDue(options)).toEqual({ applied: 1, retrying: 0, dead: 0 })
        expect(yield* InboxWorker.processDue(options)).toEqual({ applied: 0, retrying: 0, dead: 0 })
        const again = yield* receive("order", orderBody(), "order:10423:3")
        expect(again.duplicate).toBe(true)
        expect(yield* InboxWorker.processDue(options)).toEqual({ applied: 0, retrying: 0, dead: 0 })
      }).pipe(Effect.provide(layer))
      const lines = [...(yield* Ref.get(recorder.lines)).values()]
      expect(lines).toHaveLength(2)
      expect(lines[1]).toMatchObject({
        idempotencyKey: "order:10423:1",
        productID: "MKD1210",
        brandID: "WGN",
        quantity: 1,
        costCents: 4219,
        listCents: 6150,
        coreCents: 1500
      })
      expect(yield* Ref.get(recorder.calls)).toBe(1)
    }))

  it.effect("an SMS that fails twice then recovers: retried with backoff, applied once", () =>
    Effect.gen(function*() {
      const { layer, recorder } = yield* setup(ShopSystem.ALL_CAPABILITIES, ["retryable", "retryable"])
      yield* Effect.gen(function*() {
        const { entry } = yield* receive("quote", quoteBody, "quote:abc")
        expect((yield* InboxWorker.processDue(options)).retrying).toBe(1)
        // Not due before its backoff (≥ 0.5 s for the first retry: 1 s jittered to 50–100%).
        yield* TestClock.adjust("400 millis")
        expect(yield* InboxWorker.processDue(options)).toEqual({ applied: 0, retrying: 0, dead: 0 })
        yield* TestClock.adjust("700 millis")
        expect((yield* InboxWorker.processDue(options)).retrying).toBe(1)
        yield* TestClock.adjust("3 seconds")
        expect((yield* InboxWorker.processDue(options)).applied).toBe(1)
        const applied = yield* Effect.flatMap(WebhookInbox.WebhookInbox, (i) => i.get(entry.id))
        expect(applied).toMatchObject({ status: "applied", attempts: 3 })
      }).pipe(Effect.provide(layer))
      expect(yield* Ref.get(recorder.calls)).toBe(3)
      expect((yield* Ref.get(recorder.lines)).size).toBe(1)
    }))

  it.effect("dead-letters after maxAttempts and on a non-retryable failure; replay applies it", () =>
    Effect.gen(function*() {
      const { layer, recorder } = yield* setup(ShopSystem.ALL_CAPABILITIES, ["fatal"])
      yield* Effect.gen(function*() {
        const inbox = yield* WebhookInbox.WebhookInbox
        const { entry } = yield* receive("order", orderBody(), "order:10423:3")
        expect((yield* InboxWorker.processDue(options)).dead).toBe(1)
        expect(yield* inbox.get(entry.id)).toMatchObject({
          status: "dead",
          lastError: "applyOrder: SMS failure (fatal)"
        })
        yield* inbox.replay(entry.id)
        expect((yield* InboxWorker.processDue(options)).applied).toBe(1)

        yield* Ref.set(recorder.failures, ["retryable", "retryable", "retryable", "retryable"])
        const { entry: second } = yield* receive("order", orderBody("4"), "order:10423:4")
        for (let i = 0; i < 4; i++) {
          yield* InboxWorker.processDue(options)
          yield* TestClock.adjust("1 minute")
        }
        expect(yield* inbox.get(second.id)).toMatchObject({
          status: "dead",
          attempts: 4,
          lastError: "applyOrder: SMS failure (retryable) (retryable)"
        })
      }).pipe(Effect.provide(layer))
      // The second order (a new status) re-used the first order's line keys: still 2 lines.
      expect((yield* Ref.get(recorder.lines)).size).toBe(2)
    }))

  it.effect("a body that does not decode is dead at once; a kind the SMS cannot write is done without a write", () =>
    Effect.gen(function*() {
      const { layer, recorder } = yield* setup(["readRepairOrder", "writeOrderedParts"])
      yield* Effect.gen(function*() {
        const inbox = yield* WebhookInbox.WebhookInbox
        const { entry } = yield* receive("order", "{\"order\":{}}", "order:broken")
        yield* receive("quote", quoteBody, "quote:abc")
        expect(yield* InboxWorker.processDue(options)).toEqual({ applied: 1, retrying: 0, dead: 1 })
        expect((yield* inbox.get(entry.id)).lastError).toContain("stored body does not decode")
      }).pipe(Effect.provide(layer))
      expect(yield* Ref.get(recorder.calls)).toBe(0)
    }))
})

describe("InboxWorker.processDue with a body the decoder chokes on", () => {
  it.effect("a stored body nested deep enough to overflow the decoder is dead-lettered; the pass goes on", () =>
    Effect.gen(function*() {
      const { layer } = yield* setup()
      yield* Effect.gen(function*() {
        const inbox = yield* WebhookInbox.WebhookInbox
        const deep = "[".repeat(120_000) + "]".repeat(120_000)
        const { entry } = yield* receive("order", `{"referenceID":${deep},"order":1}`, "order:deep")
        yield* receive("order", orderBody(), "order:10423:3")
        expect(yield* InboxWorker.processDue(options)).toEqual({ applied: 1, retrying: 0, dead: 1 })
        expect((yield* inbox.get(entry.id)).lastError).toBe(
          "stored body does not decode: the decoder failed: Maximum call stack size exceeded"
        )
      }).pipe(Effect.provide(layer))
    }))
})

describe("InboxWorker.retryDelay", () => {
  it.effect("doubles per attempt, jittered to 50–100%, and stops at the cap", () =>
    Effect.gen(function*() {
      const delays = { baseDelay: "1 second", maxDelay: "10 seconds" } as const
      for (const [attempt, expected] of [[1, 1000], [2, 2000], [3, 4000], [4, 8000], [5, 10000], [9, 10000]] as const) {
        const delay = yield* InboxWorker.retryDelay(attempt, delays)
        expect(delay).toBeGreaterThanOrEqual(expected * 0.5)
        expect(delay).toBeLessThanOrEqual(expected)
      }
    }))
})
