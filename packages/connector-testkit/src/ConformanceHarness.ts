/**
 * What an adapter gives the conformance suite besides its connector: a fake of its shop system,
 * seeded with repair orders, and direct reads of what was written there. The suite checks the SMS
 * side through these reads, never only through the adapter.
 *
 * @since 0.1.0
 */
import type { ShopSystem } from "@shoplink/connector"
import { SANDBOX_FIXTURES } from "@shoplink/sandbox"
import type * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"

/**
 * How the distributor identifies a repair order's vehicle (the launcher's names).
 *
 * @example
 * import type { ConformanceHarness } from "@shoplink/connector-testkit"
 * const identifier: ConformanceHarness.VehicleIdentifier = "licensePlate"
 *
 * @since 0.1.0
 */
export type VehicleIdentifier = "vin" | "licensePlate" | "baseVehicleID"

/**
 * Every vehicle identifier, in the launcher's order of preference.
 *
 * @example
 * import { ConformanceHarness } from "@shoplink/connector-testkit"
 * ConformanceHarness.VEHICLE_IDENTIFIERS // ["vin", "licensePlate", "baseVehicleID"]
 *
 * @since 0.1.0
 */
export const VEHICLE_IDENTIFIERS: ReadonlyArray<VehicleIdentifier> = ["vin", "licensePlate", "baseVehicleID"]

/**
 * A repair order the harness must create in its fake SMS before a check runs. Its vehicle carries
 * exactly one identifier (plus year, make and model), taken from a sandbox vehicle, so a launch
 * can only succeed through that identifier.
 *
 * @example
 * import { ConformanceHarness } from "@shoplink/connector-testkit"
 * const byPlate = ConformanceHarness.SEED_REPAIR_ORDERS.find((ro) => ro.identifier === "licensePlate")
 *
 * @since 0.1.0
 */
export interface SeedRepairOrder {
  readonly identifier: VehicleIdentifier
  /** The number people see; it becomes the session's referenceID. */
  readonly number: string
  readonly customer: { readonly name: string }
  readonly vehicle: ShopSystem.Vehicle
}

const [ford, camry, civic] = SANDBOX_FIXTURES.vehicles
if (ford === undefined || camry === undefined || civic === undefined) {
  throw new Error("@shoplink/sandbox fixtures have fewer than 3 vehicles")
}

/**
 * The repair orders every check starts with: one per vehicle identifier, each matching a different
 * vehicle of `SANDBOX_FIXTURES`.
 *
 * @example
 * import { ConformanceHarness } from "@shoplink/connector-testkit"
 * ConformanceHarness.SEED_REPAIR_ORDERS.map((ro) => ro.number) // ["1042", "1043", "1044"]
 *
 * @since 0.1.0
 */
export const SEED_REPAIR_ORDERS: ReadonlyArray<SeedRepairOrder> = [
  {
    identifier: "vin",
    number: "1042",
    customer: { name: "Dana Reyes" },
    vehicle: { vin: ford.vin, year: ford.year, make: ford.make, model: ford.model }
  },
  {
    identifier: "licensePlate",
    number: "1043",
    customer: { name: "Sam Okafor" },
    vehicle: {
      licensePlate: camry.licensePlate,
      licensePlateState: camry.licensePlateState,
      year: camry.year,
      make: camry.make,
      model: camry.model
    }
  },
  {
    identifier: "baseVehicleID",
    number: "1044",
    customer: { name: "Lee Park" },
    vehicle: { baseVehicleId: civic.baseVehicleID, year: civic.year, make: civic.make, model: civic.model }
  }
]

/**
 * A part line as the fake SMS stores it, read back directly. Money is integer cents per unit.
 *
 * @example
 * import type { ConformanceHarness } from "@shoplink/connector-testkit"
 * const line: ConformanceHarness.SmsLine = {
 *   kind: "quoted", productID: "51515", brandID: "WIX", description: "Oil Filter",
 *   quantity: 2, costCents: 649, listCents: 999, coreCents: 0
 * }
 *
 * @since 0.1.0
 */
export interface SmsLine {
  /** `quoted` from an Export (quote webhook), `ordered` from a submitted order (order webhook). */
  readonly kind: "quoted" | "ordered"
  /** The distributor's part number. */
  readonly productID: string
  readonly brandID: string
  readonly description: string
  readonly quantity: number
  readonly costCents: number
  readonly listCents: number
  readonly coreCents: number
}

/**
 * The distributor order recorded on a repair order.
 *
 * @example
 * import type { ConformanceHarness } from "@shoplink/connector-testkit"
 * const order: ConformanceHarness.SmsOrder = { orderID: "10000001", status: "3" }
 *
 * @since 0.1.0
 */
export interface SmsOrder {
  readonly orderID: string
  /** The status as the SMS keeps it (the webhook's code, or the SMS's own word for it). */
  readonly status: string
}

/**
 * One running fake SMS, for one check.
 *
 * @example
 * import { Effect, Layer, Redacted } from "effect"
 * import type { ConformanceHarness } from "@shoplink/connector-testkit"
 * const lines: Array<ConformanceHarness.SmsLine> = []
 * const harness: ConformanceHarness.SmsHarness<never> = {
 *   layer: Layer.empty,
 *   smsSecrets: { apiKey: Redacted.make("key-of-the-fake-sms") },
 *   repairOrders: { vin: "ro_1", licensePlate: "ro_2", baseVehicleID: "ro_3" },
 *   readLines: () => Effect.succeed(lines),
 *   readOrder: () => Effect.succeed(undefined),
 *   failNextWrites: () => Effect.void
 * }
 *
 * @since 0.1.0
 */
export interface SmsHarness<R> {
  /**
   * What the connector's layer needs (the fake SMS's URL, store, `HttpClient`…), except what the
   * runtime provides (`SmsCredentials`: give the secrets as `smsSecrets` instead).
   */
  readonly layer: Layer.Layer<R, unknown>
  /**
   * The shop's SMS secrets (e.g. `{ apiKey: Redacted.make(fake.apiKey) }`): the suite onboards the
   * shop with them, and the runtime gives them to the adapter through `SmsCredentials`, as in
   * production. Leave out when the adapter reads no per-shop secret.
   */
  readonly smsSecrets?: Readonly<Record<string, Redacted.Redacted<string>>> | undefined
  /** The SMS's id of each seeded repair order, by the identifier of its vehicle. */
  readonly repairOrders: Readonly<Record<VehicleIdentifier, string>>
  /** The part lines on a repair order, read from the SMS store directly. */
  readonly readLines: (repairOrderId: string) => Effect.Effect<ReadonlyArray<SmsLine>>
  /** The distributor order recorded on a repair order, if any. */
  readonly readOrder: (repairOrderId: string) => Effect.Effect<SmsOrder | undefined>
  /**
   * Makes the next `count` writes of part lines fail before writing anything, the way the real
   * SMS fails (an outage when `retryable`, a refusal otherwise); the adapter must turn them into
   * `ShopSystemError` with that `retryable`.
   */
  readonly failNextWrites: (count: number, retryable: boolean) => Effect.Effect<void>
  /**
   * The body the SMS posts when a repair order is updated or deleted, for the check of
   * `receiveRepairOrderEvents`; leave out when the adapter does not declare it.
   */
  readonly repairOrderEventBody?: ((repairOrderId: string, action: "updated" | "deleted") => string) | undefined
}

/**
 * The `sms` option of `runConnectorConformance`: starts a fresh fake SMS for each check (for the
 * check's Scope), seeded with the shop and repair orders given.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import type { ConformanceHarness } from "@shoplink/connector-testkit"
 * const sms: ConformanceHarness.ConformanceSms<never> = {
 *   setup: ({ repairOrders }) =>
 *     Effect.succeed({
 *       layer: Layer.empty,
 *       repairOrders: {
 *         vin: repairOrders[0]!.number,
 *         licensePlate: repairOrders[1]!.number,
 *         baseVehicleID: repairOrders[2]!.number
 *       },
 *       readLines: () => Effect.succeed([]),
 *       readOrder: () => Effect.succeed(undefined),
 *       failNextWrites: () => Effect.void
 *     })
 * }
 *
 * @since 0.1.0
 */
export interface ConformanceSms<R> {
  readonly setup: (seed: Seed) => Effect.Effect<SmsHarness<R>, unknown, Scope.Scope>
}

/**
 * What `setup` must create: a shop and its repair orders (`SEED_REPAIR_ORDERS`).
 *
 * @example
 * import { ConformanceHarness } from "@shoplink/connector-testkit"
 * const seed: ConformanceHarness.Seed = { shopId: "shop_1", repairOrders: ConformanceHarness.SEED_REPAIR_ORDERS }
 *
 * @since 0.1.0
 */
export interface Seed {
  readonly shopId: string
  readonly repairOrders: ReadonlyArray<SeedRepairOrder>
}
