/**
 * The reference adapter: `ShopSystem` implemented over the in-memory `ReferenceSms`. Read this
 * first when writing an adapter — a real one swaps `ReferenceSms` for an HTTP client of its SMS and
 * keeps the same four moves: map the repair order in, map part lines out, make writes idempotent
 * by `idempotencyKey`, and say which failures are worth retrying.
 *
 * @since 0.1.0
 */
import { Connector, ShopSystem } from "@shoplink/connector"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ReferenceSms, type SmsPartLine, type SmsRepairOrder, type SmsUnavailable } from "./ReferenceSms.js"

// 1. The SMS's repair order → the runtime's. Only what the SMS really has; missing stays undefined.
const toRepairOrder = (ro: SmsRepairOrder, url: string): ShopSystem.RepairOrder => ({
  id: ro.id,
  number: ro.number,
  url,
  vehicle: {
    vin: ro.vehicle.vin,
    licensePlate: ro.vehicle.plate,
    licensePlateState: ro.vehicle.plateState,
    baseVehicleId: ro.vehicle.acesBaseVehicleId,
    year: ro.vehicle.year,
    make: ro.vehicle.make,
    model: ro.vehicle.model
  },
  customer: ro.customerName === undefined ? undefined : { id: `${ro.id}:customer`, name: ro.customerName }
})

// 2. A part line → the SMS's. Money is already integer cents per unit.
const toSmsLine = (line: ShopSystem.PartLine, source: SmsPartLine["source"], purchaseOrder?: string): SmsPartLine => ({
  externalKey: line.idempotencyKey,
  source,
  partNumber: line.productID,
  brand: line.brandID,
  description: line.description,
  quantity: line.quantity,
  unitCostCents: line.costCents,
  unitListCents: line.listCents,
  unitCoreCents: line.coreCents,
  purchaseOrder
})

// 4. An outage is retryable; a refusal is not (the worker dead-letters it for a person to look at).
const smsError = (operation: string) => (error: SmsUnavailable) =>
  new ShopSystem.ShopSystemError({ operation, reason: error.detail, retryable: error.temporary })

const make = Effect.gen(function*() {
  const sms = yield* ReferenceSms

  const find = (shopId: string, repairOrderId: string) =>
    Effect.flatMap(
      sms.getRepairOrder(repairOrderId),
      (ro) =>
        ro === undefined
          ? Effect.fail(new ShopSystem.RepairOrderNotFound({ shopId, repairOrderId }))
          : Effect.succeed(ro)
    )

  // 3. Idempotent writes: skip lines whose key is already on the repair order. A retry after a
  //    failure half-way (or a replayed delivery) adds only what is missing.
  const writeLines = (
    operation: string,
    repairOrderId: string,
    lines: ReadonlyArray<ShopSystem.PartLine>,
    toLine: (line: ShopSystem.PartLine) => SmsPartLine
  ) =>
    Effect.gen(function*() {
      const present = new Set((yield* sms.listParts(repairOrderId)).map((l) => l.externalKey))
      let added = 0
      for (const line of lines) {
        if (present.has(line.idempotencyKey)) continue
        yield* sms.addPart(repairOrderId, toLine(line)).pipe(Effect.mapError(smsError(operation)))
        present.add(line.idempotencyKey)
        added++
      }
      return { added, alreadyPresent: lines.length - added }
    })

  return ShopSystem.ShopSystem.of({
    capabilities: new Set(ShopSystem.ALL_CAPABILITIES),
    loadRepairOrder: ({ repairOrderId, shopId }) =>
      Effect.map(find(shopId, repairOrderId), (ro) => toRepairOrder(ro, sms.repairOrderUrl(ro.id))),
    // The SMS keeps them newest first; a shop sees only its own.
    listRepairOrders: ({ limit, shopId }) =>
      Effect.map(
        sms.listRepairOrders(shopId),
        (ros) => ros.slice(0, Math.max(0, Math.floor(limit))).map((ro) => toRepairOrder(ro, sms.repairOrderUrl(ro.id)))
      ),
    // 4. Repair-order webhooks: the SMS posts `{ "repairOrderId", "event" }`; only the id matters,
    //    since the runtime reads the repair order back.
    repairOrderEvents: {
      decode: ({ body }) => {
        const event = decodeEvent(body)
        return event === undefined
          ? Effect.fail(
            new ShopSystem.ShopSystemError({
              operation: "repairOrderEvents.decode",
              reason: "the body is not a Reference SMS repair-order event",
              retryable: false
            })
          )
          : Effect.succeed([event])
      },
      subscribe: ({ url }) => sms.subscribe(url)
    },
    applyQuote: ({ lines, repairOrderId, shopId }) =>
      Effect.zipRight(
        find(shopId, repairOrderId),
        writeLines("applyQuote", repairOrderId, lines, (l) => toSmsLine(l, "quote"))
      ),
    applyOrder: ({ lines, orderID, repairOrderId, shopId, status }) =>
      Effect.gen(function*() {
        yield* find(shopId, repairOrderId)
        const result = yield* writeLines("applyOrder", repairOrderId, lines, (l) => toSmsLine(l, "order", orderID))
        // Setting the same purchase order again is harmless, so no key is needed here.
        yield* sms.setPurchaseOrder(repairOrderId, { number: orderID, status }).pipe(
          Effect.mapError(smsError("applyOrder"))
        )
        return result
      })
  })
})

const decodeEvent = (body: string): ShopSystem.RepairOrderEvent | undefined => {
  try {
    const parsed = JSON.parse(body) as { readonly repairOrderId?: unknown; readonly event?: unknown }
    if (typeof parsed.repairOrderId !== "string" || parsed.repairOrderId === "") return undefined
    const action = parsed.event === "deleted" || parsed.event === "created" ? parsed.event : "updated"
    return { repairOrderId: parsed.repairOrderId, action }
  } catch {
    return undefined
  }
}

/**
 * The adapter's layer: a `ShopSystem` needing a `ReferenceSms` connection.
 *
 * @example
 * import { Layer } from "effect"
 * import { ReferenceConnector, ReferenceSms } from "@shoplink/connector-testkit/reference"
 * const shopSystem = ReferenceConnector.layer.pipe(
 *   Layer.provide(Layer.succeed(ReferenceSms.ReferenceSms, ReferenceSms.make([])))
 * )
 *
 * @since 0.1.0
 */
export const layer: Layer.Layer<ShopSystem.ShopSystem, never, ReferenceSms> = Layer.effect(ShopSystem.ShopSystem, make)

/**
 * The reference connector: every capability, built with `defineConnector`.
 *
 * @example
 * import { ReferenceConnector } from "@shoplink/connector-testkit/reference"
 * ReferenceConnector.connector.capabilities.has("writeOrderedParts") // true
 *
 * @since 0.1.0
 */
export const connector: Connector.Connector<never, ReferenceSms> = Connector.defineConnector({
  id: "reference",
  name: "Reference SMS",
  capabilities: ShopSystem.ALL_CAPABILITIES,
  layer
})
