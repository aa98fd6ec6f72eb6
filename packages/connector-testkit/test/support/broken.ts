// Adapters with one deliberate mistake each, built from the reference adapter's pieces, to show
// the suite catches what it claims to catch.
import { Connector, ShopSystem } from "@shoplink/connector"
import { Effect, Layer } from "effect"
import type { ConformanceHarness } from "../../src/index.js"
import { ReferenceConnector, ReferenceHarness, ReferenceSms } from "../../src/reference.js"

type Mistake =
  | "notIdempotent" // writes every line it is given, even when its key is already there
  | "costIsList" // puts the list price where the cost goes
  | "allFailuresFinal" // reports an outage as not retryable
  | "swallowsFailures" // answers success when the SMS failed
  | "dropsPlate" // forgets the license plate when loading a repair order
  | "ordersWithoutPurchaseOrder" // never records the distributor order

const toSmsLine = (
  line: ShopSystem.PartLine,
  source: "quote" | "order",
  mistake: Mistake
): ReferenceSms.SmsPartLine => ({
  externalKey: line.idempotencyKey,
  source,
  partNumber: line.productID,
  brand: line.brandID,
  description: line.description,
  quantity: line.quantity,
  unitCostCents: mistake === "costIsList" ? line.listCents : line.costCents,
  unitListCents: line.listCents,
  unitCoreCents: line.coreCents
})

const brokenLayer = (mistake: Mistake) =>
  Layer.effect(
    ShopSystem.ShopSystem,
    Effect.gen(function*() {
      const sms = yield* ReferenceSms.ReferenceSms
      const reference = yield* Effect.provide(
        ShopSystem.ShopSystem,
        ReferenceConnector.layer.pipe(Layer.provide(Layer.succeed(ReferenceSms.ReferenceSms, sms)))
      )
      const fail = (error: ReferenceSms.SmsUnavailable) =>
        mistake === "swallowsFailures"
          ? Effect.void
          : Effect.fail(
            new ShopSystem.ShopSystemError({
              operation: "write",
              reason: error.detail,
              retryable: mistake !== "allFailuresFinal" && error.temporary
            })
          )
      const write = (repairOrderId: string, lines: ReadonlyArray<ShopSystem.PartLine>, source: "quote" | "order") =>
        Effect.gen(function*() {
          const present = new Set((yield* sms.listParts(repairOrderId)).map((l) => l.externalKey))
          let added = 0
          for (const line of lines) {
            if (mistake !== "notIdempotent" && present.has(line.idempotencyKey)) continue
            yield* sms.addPart(repairOrderId, toSmsLine(line, source, mistake)).pipe(Effect.catchAll(fail))
            added++
          }
          return { added, alreadyPresent: lines.length - added }
        })
      return ShopSystem.ShopSystem.of({
        capabilities: reference.capabilities,
        loadRepairOrder: (ref) =>
          Effect.map(reference.loadRepairOrder(ref), (ro) =>
            mistake === "dropsPlate" ? { ...ro, vehicle: { ...ro.vehicle, licensePlate: undefined } } : ro),
        applyQuote: (w) =>
          write(w.repairOrderId, w.lines, "quote"),
        applyOrder: (w) =>
          Effect.gen(function*() {
            const result = yield* write(w.repairOrderId, w.lines, "order")
            if (mistake !== "ordersWithoutPurchaseOrder") {
              yield* sms.setPurchaseOrder(w.repairOrderId, { number: w.orderID, status: w.status }).pipe(
                Effect.catchAll(fail)
              )
            }
            return result
          })
      })
    })
  )

export const brokenConnector = (mistake: Mistake) =>
  Connector.defineConnector({
    id: `broken-${mistake.toLowerCase()}`,
    name: `Broken (${mistake})`,
    capabilities: ShopSystem.ALL_CAPABILITIES,
    layer: brokenLayer(mistake)
  })

// The reference ShopSystem offering only some capabilities.
const offering = (capabilities: ReadonlyArray<ShopSystem.Capability>) =>
  Layer.effect(
    ShopSystem.ShopSystem,
    Effect.map(ShopSystem.ShopSystem, (sms) => ({ ...sms, capabilities: new Set(capabilities) }))
  ).pipe(Layer.provide(ReferenceConnector.layer))

/** The reference adapter with fewer capabilities, declared and offered consistently. */
export const narrowedReference = (capabilities: ReadonlyArray<ShopSystem.Capability>) =>
  Connector.defineConnector({
    id: "reference-narrowed",
    name: "Reference (narrowed)",
    capabilities,
    layer: offering(capabilities)
  })

/** Declares every capability but its service offers only some: the report check must fail. */
export const overclaiming = Connector.defineConnector({
  id: "overclaiming",
  name: "Overclaiming",
  capabilities: ShopSystem.ALL_CAPABILITIES,
  layer: offering(["readRepairOrder", "writeQuotedParts"])
})

/** Declares every capability but its ShopSystem has no listRepairOrders: the list check must fail. */
export const listsNothing = Connector.defineConnector({
  id: "lists-nothing",
  name: "Lists nothing",
  capabilities: ShopSystem.ALL_CAPABILITIES,
  layer: Layer.effect(
    ShopSystem.ShopSystem,
    Effect.map(ShopSystem.ShopSystem, ({ listRepairOrders: _left, ...sms }) => sms)
  ).pipe(Layer.provide(ReferenceConnector.layer))
})

/** The reference harness for an SMS that cannot hold one kind of vehicle identifier. */
export const harnessWithout = (
  field: "baseVehicleId" | "licensePlate" | "vin"
): ConformanceHarness.ConformanceSms<ReferenceSms.ReferenceSms> => ({
  setup: (seed) =>
    ReferenceHarness.harness.setup({
      ...seed,
      repairOrders: seed.repairOrders.map((ro) => ({ ...ro, vehicle: { ...ro.vehicle, [field]: undefined } }))
    })
})
