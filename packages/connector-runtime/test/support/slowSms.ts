// An in-memory shop system with latency, for the worker's concurrency tests: each write takes a
// chosen time (or hangs until interrupted), lines are stored by idempotency key as the contract
// requires, and it records what a test asserts on: the order of writes per repair order, how many
// writes were in flight at once (overall and per repair order), and how often each key was added.
import { ShopSystem } from "@shoplink/connector"
import { Effect, Layer } from "effect"

export interface SlowSmsOptions {
  /** Milliseconds a write of this repair order takes (its n-th call, 0-based). */
  readonly latency: (repairOrderId: string, call: number) => number
  /** Calls that never answer (until interrupted, e.g. by the worker's timeout). */
  readonly hangs?: (repairOrderId: string, call: number) => boolean
  /** Store the lines before the latency instead of after (a crash then leaves them written). */
  readonly writeFirst?: boolean
}

export const makeSlowSms = (options: SlowSmsOptions) => {
  const calls = new Map<string, number>()
  /** Repair order → the first line's productID of each completed write, in completion order. */
  const order = new Map<string, Array<string>>()
  /** Idempotency key → how many times it was added (must never exceed 1). */
  const added = new Map<string, number>()
  const inFlightByRo = new Map<string, number>()
  const stats = { inFlight: 0, maxInFlight: 0, maxInFlightPerRo: 0, writes: 0 }

  const store = (repairOrderId: string, lines: ReadonlyArray<ShopSystem.PartLine>) => {
    let fresh = 0
    for (const line of lines) {
      const times = added.get(line.idempotencyKey) ?? 0
      if (times === 0) fresh++
      // The contract: a key already there is not added again.
      if (times === 0) added.set(line.idempotencyKey, 1)
    }
    const list = order.get(repairOrderId) ?? order.set(repairOrderId, []).get(repairOrderId)!
    list.push(lines[0]?.productID ?? "")
    stats.writes++
    return { added: fresh, alreadyPresent: lines.length - fresh }
  }

  const write = (repairOrderId: string, lines: ReadonlyArray<ShopSystem.PartLine>) =>
    Effect.suspend(() => {
      const call = calls.get(repairOrderId) ?? 0
      calls.set(repairOrderId, call + 1)
      stats.inFlight++
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight)
      const ro = (inFlightByRo.get(repairOrderId) ?? 0) + 1
      inFlightByRo.set(repairOrderId, ro)
      stats.maxInFlightPerRo = Math.max(stats.maxInFlightPerRo, ro)
      const wait = options.hangs?.(repairOrderId, call) === true
        ? Effect.never
        : Effect.sleep(options.latency(repairOrderId, call))
      const body = options.writeFirst === true
        ? Effect.sync(() => store(repairOrderId, lines)).pipe(Effect.tap(() => wait))
        : wait.pipe(Effect.andThen(Effect.sync(() => store(repairOrderId, lines))))
      return body.pipe(
        Effect.ensuring(Effect.sync(() => {
          stats.inFlight--
          inFlightByRo.set(repairOrderId, (inFlightByRo.get(repairOrderId) ?? 1) - 1)
        }))
      )
    })

  const layer = Layer.succeed(ShopSystem.ShopSystem, {
    capabilities: new Set(ShopSystem.ALL_CAPABILITIES),
    loadRepairOrder: ({ repairOrderId }) => Effect.succeed({ id: repairOrderId, number: repairOrderId, vehicle: {} }),
    applyQuote: (w) => write(w.repairOrderId, w.lines),
    applyOrder: (w) => write(w.repairOrderId, w.lines)
  })
  return { layer, order, added, stats, calls }
}

/** A quote delivery whose one line's productID names it (`<ro>#<n>`), so write order is visible. */
export const quoteDelivery = (shopId: string, repairOrderId: string, n: number) => {
  const productID = `${repairOrderId}#${n}`
  return {
    kind: "quote" as const,
    contentKey: `quote:${shopId}:${repairOrderId}:${n}`,
    shopId,
    repairOrderId,
    body: JSON.stringify({
      referenceID: repairOrderId,
      quotes: [{
        acaPartTerminologyID: 5340,
        productID,
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
    }),
    productID
  }
}
