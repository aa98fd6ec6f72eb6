// An in-memory shop system for the runtime tests: repair orders in, part lines out, stored by
// idempotency key as the contract requires, with direct reads for assertions.
import { ShopSystem } from "@shoplink/connector"
import { Effect, Layer } from "effect"

export interface StoredLine extends ShopSystem.PartLine {
  readonly kind: "quoted" | "ordered"
  readonly orderID?: string
}

export const makeMemorySms = (repairOrders: ReadonlyArray<ShopSystem.RepairOrder>) => {
  const lines = new Map<string, Map<string, StoredLine>>() // repairOrderId → key → line
  const orders = new Map<string, { orderID: string; status: string }>()
  const linesOf = (id: string) => lines.get(id) ?? lines.set(id, new Map()).get(id)!
  const write = (
    repairOrderId: string,
    incoming: ReadonlyArray<ShopSystem.PartLine>,
    extra: Omit<StoredLine, keyof ShopSystem.PartLine>
  ) => {
    const stored = linesOf(repairOrderId)
    let added = 0
    for (const line of incoming) {
      if (stored.has(line.idempotencyKey)) continue
      stored.set(line.idempotencyKey, { ...line, ...extra })
      added++
    }
    return { added, alreadyPresent: incoming.length - added }
  }
  const find = (shopId: string, repairOrderId: string) => {
    const ro = repairOrders.find((r) => r.id === repairOrderId)
    return ro === undefined
      ? Effect.fail(new ShopSystem.RepairOrderNotFound({ shopId, repairOrderId }))
      : Effect.succeed(ro)
  }
  const layer = Layer.succeed(ShopSystem.ShopSystem, {
    capabilities: new Set(ShopSystem.ALL_CAPABILITIES),
    loadRepairOrder: ({ repairOrderId, shopId }) => find(shopId, repairOrderId),
    applyQuote: (w) =>
      Effect.map(find(w.shopId, w.repairOrderId), () => write(w.repairOrderId, w.lines, { kind: "quoted" })),
    applyOrder: (w) =>
      Effect.map(find(w.shopId, w.repairOrderId), () => {
        orders.set(w.repairOrderId, { orderID: w.orderID, status: w.status })
        return write(w.repairOrderId, w.lines, { kind: "ordered", orderID: w.orderID })
      })
  })
  return {
    layer,
    read: {
      lines: (repairOrderId: string) => [...linesOf(repairOrderId).values()],
      order: (repairOrderId: string) => orders.get(repairOrderId)
    }
  }
}
