/**
 * The reference adapter's conformance harness: starts a fresh `ReferenceSms` per check, seeds the
 * repair orders the suite asks for, and reads lines and purchase orders straight from the store.
 * An adapter with a fake HTTP server does the same with its server's store.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ConformanceSms, SmsHarness, VehicleIdentifier } from "../ConformanceHarness.js"
import * as ReferenceSms from "./ReferenceSms.js"

/**
 * The harness to pass as `sms` to `runConnectorConformance`.
 *
 * @example
 * import { runConnectorConformance } from "@shoplink/connector-testkit"
 * import { ReferenceConnector, ReferenceHarness } from "@shoplink/connector-testkit/reference"
 * runConnectorConformance({ connector: ReferenceConnector.connector, sms: ReferenceHarness.harness })
 *
 * @since 0.1.0
 */
export const harness: ConformanceSms<ReferenceSms.ReferenceSms> = {
  setup: ({ repairOrders, shopId }) =>
    Effect.sync((): SmsHarness<ReferenceSms.ReferenceSms> => {
      const seeded = repairOrders.map((ro, i): ReferenceSms.SmsRepairOrder & { identifier: VehicleIdentifier } => ({
        identifier: ro.identifier,
        id: `ro_${i + 1}`,
        shopId,
        number: ro.number,
        customerName: ro.customer.name,
        vehicle: {
          vin: ro.vehicle.vin,
          plate: ro.vehicle.licensePlate,
          plateState: ro.vehicle.licensePlateState,
          acesBaseVehicleId: ro.vehicle.baseVehicleId,
          year: ro.vehicle.year,
          make: ro.vehicle.make,
          model: ro.vehicle.model
        }
      }))
      const sms = ReferenceSms.make(seeded)
      const idOf = (identifier: VehicleIdentifier) => seeded.find((ro) => ro.identifier === identifier)?.id ?? "missing"
      return {
        layer: Layer.succeed(ReferenceSms.ReferenceSms, sms),
        repairOrders: { vin: idOf("vin"), licensePlate: idOf("licensePlate"), baseVehicleID: idOf("baseVehicleID") },
        repairOrderEventBody: (repairOrderId, action) => JSON.stringify({ repairOrderId, event: action }),
        readLines: (repairOrderId) =>
          Effect.map(sms.listParts(repairOrderId), (lines) =>
            lines.map((l) => ({
              kind: l.source === "quote" ? "quoted" as const : "ordered" as const,
              productID: l.partNumber,
              brandID: l.brand,
              description: l.description,
              quantity: l.quantity,
              costCents: l.unitCostCents,
              listCents: l.unitListCents,
              coreCents: l.unitCoreCents
            }))),
        readOrder: (repairOrderId) =>
          Effect.map(sms.getPurchaseOrder(repairOrderId), (po) =>
            po === undefined ? undefined : { orderID: po.number, status: po.status }),
        failNextWrites: sms.failNextWrites
      }
    })
}
