/**
 * The port a shop-management-system adapter implements: what the SMS can do (capabilities) and
 * the operations behind them. The runtime (launcher, webhook worker) only ever talks to an SMS
 * through this service.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

/**
 * What an SMS can do through its API. An adapter declares the ones it really supports; the
 * runtime and the conformance suite skip what is not declared, and say so.
 * - `readRepairOrder` — load a repair order with its vehicle and customer (required to launch);
 * - `listRepairOrders` — list the shop's open repair orders, newest first (`Operations.listRepairOrders`);
 * - `writeQuotedParts` — put quoted parts on a repair order (quote webhook);
 * - `writeOrderedParts` — put ordered parts on a repair order (order webhook);
 * - `recordPurchaseOrder` — record the distributor order number and status on the repair order;
 * - `linkToRepairOrder` — give a URL of the repair order in the SMS, for the callback page;
 * - `receiveRepairOrderEvents` — decode the SMS's repair-order webhooks and subscribe the runtime's
 *   URL to them (`Operations.repairOrderEvents`), so a closed or deleted repair order is seen at once.
 *
 * @example
 * import type { ShopSystem } from "@shoplink/connector"
 * const caps: ReadonlyArray<ShopSystem.Capability> = ["readRepairOrder", "writeQuotedParts"]
 *
 * @since 0.1.0
 */
export type Capability =
  | "readRepairOrder"
  | "listRepairOrders"
  | "writeQuotedParts"
  | "writeOrderedParts"
  | "recordPurchaseOrder"
  | "linkToRepairOrder"
  | "receiveRepairOrderEvents"

/**
 * Every capability, in a stable order.
 *
 * @example
 * import { ShopSystem } from "@shoplink/connector"
 * ShopSystem.ALL_CAPABILITIES.length // 7
 *
 * @since 0.1.0
 */
export const ALL_CAPABILITIES: ReadonlyArray<Capability> = [
  "readRepairOrder",
  "listRepairOrders",
  "writeQuotedParts",
  "writeOrderedParts",
  "recordPurchaseOrder",
  "linkToRepairOrder",
  "receiveRepairOrderEvents"
]

/**
 * How the distributor can identify the vehicle of a repair order. The launcher uses the first
 * the SMS knows, in this order: VIN, license plate with its state, ACES base vehicle ID.
 *
 * @example
 * import type { ShopSystem } from "@shoplink/connector"
 * const vehicle: ShopSystem.Vehicle = { vin: "1M8GDM9AXKP042788", year: 2019, make: "Ford", model: "F-150" }
 *
 * @since 0.1.0
 */
export interface Vehicle {
  readonly vin?: string | undefined
  readonly licensePlate?: string | undefined
  readonly licensePlateState?: string | undefined
  readonly baseVehicleId?: string | undefined
  readonly year?: number | undefined
  readonly make?: string | undefined
  readonly model?: string | undefined
}

/**
 * A repair order as the runtime needs it.
 *
 * @example
 * import type { ShopSystem } from "@shoplink/connector"
 * const ro: ShopSystem.RepairOrder = {
 *   id: "ro_8f2", number: "1042", vehicle: { vin: "1M8GDM9AXKP042788" }, customer: { id: "c_1", name: "Dana Reyes" }
 * }
 *
 * @since 0.1.0
 */
export interface RepairOrder {
  /** The SMS's own identifier. */
  readonly id: string
  /** The number people see ("RO 1042"). */
  readonly number: string
  readonly vehicle: Vehicle
  readonly customer?: { readonly id: string; readonly name: string } | undefined
  /** A link to the repair order in the SMS (capability `linkToRepairOrder`). */
  readonly url?: string | undefined
  /**
   * True when the SMS says the repair order is closed (invoiced, posted, archived): the runtime
   * then refuses to launch punchout for it. Absent means open.
   */
  readonly closed?: boolean | undefined
}

/**
 * A part line to write onto a repair order. Money is in integer cents (see `Money.toCents`);
 * `idempotencyKey` is stable for the same line of the same delivery, so writing it twice must not
 * add it twice.
 *
 * @example
 * import type { ShopSystem } from "@shoplink/connector"
 * const line: ShopSystem.PartLine = {
 *   idempotencyKey: "order:10423:0", productID: "51515", brandID: "WIX", description: "Oil Filter",
 *   quantity: 2, costCents: 649, listCents: 999, coreCents: 0, partTerminologyId: 5340, categoryID: "FLT"
 * }
 *
 * @since 0.1.0
 */
export interface PartLine {
  readonly idempotencyKey: string
  readonly productID: string
  readonly brandID: string
  readonly description: string
  readonly quantity: number
  /** What the shop pays the distributor, per unit. */
  readonly costCents: number
  /** The distributor's list price, per unit. */
  readonly listCents: number
  /** Core charge per unit (0 when none). */
  readonly coreCents: number
  readonly partTerminologyId: number
  readonly categoryID: string
}

/**
 * Quote lines exported from the catalog (quote webhook) for a repair order.
 *
 * @example
 * import type { ShopSystem } from "@shoplink/connector"
 * const quote: ShopSystem.QuoteWrite = { shopId: "shop_1", repairOrderId: "ro_8f2", lines: [] }
 *
 * @since 0.1.0
 */
export interface QuoteWrite {
  readonly shopId: string
  readonly repairOrderId: string
  readonly lines: ReadonlyArray<PartLine>
}

/**
 * A submitted order (order webhook) for a repair order: its lines, the distributor's order number
 * and status.
 *
 * @example
 * import type { ShopSystem } from "@shoplink/connector"
 * const order: ShopSystem.OrderWrite = {
 *   shopId: "shop_1",
 *   repairOrderId: "ro_8f2",
 *   orderID: "10423",
 *   status: "3",
 *   statusDescription: "Order submitted",
 *   lines: []
 * }
 *
 * @since 0.1.0
 */
export interface OrderWrite {
  readonly shopId: string
  readonly repairOrderId: string
  readonly orderID: string
  readonly status: string
  readonly statusDescription: string
  readonly lines: ReadonlyArray<PartLine>
}

/**
 * What a write did: how many lines it added and how many it found already there (by key).
 *
 * @example
 * import type { ShopSystem } from "@shoplink/connector"
 * const result: ShopSystem.WriteResult = { added: 3, alreadyPresent: 0 }
 *
 * @since 0.1.0
 */
export interface WriteResult {
  readonly added: number
  readonly alreadyPresent: number
}

/**
 * A failure of the SMS. `retryable` says whether the same call may succeed later (rate limit,
 * outage) — the webhook worker retries those with backoff and dead-letters the rest.
 *
 * @example
 * import { ShopSystem } from "@shoplink/connector"
 * new ShopSystem.ShopSystemError({ operation: "applyQuote", reason: "SMS answered 503", retryable: true })
 *
 * @since 0.1.0
 */
export class ShopSystemError extends Schema.TaggedError<ShopSystemError>()("ShopSystemError", {
  operation: Schema.String,
  reason: Schema.String,
  retryable: Schema.Boolean
}) {
  override get message(): string {
    return `${this.operation}: ${this.reason}${this.retryable ? " (retryable)" : ""}`
  }
}

/**
 * The answer of an operation a new adapter has not written yet: a `ShopSystemError` (not
 * retryable) whose reason starts "not implemented:" and says what is left to do, which the
 * conformance suite lists as the adapter's to-do. `pnpm new:connector` generates one per operation.
 *
 * @example
 * import { ShopSystem } from "@shoplink/connector"
 * const loadRepairOrder = () => ShopSystem.notImplemented("loadRepairOrder", "fetch the repair order from the SMS")
 *
 * @since 0.1.0
 */
export const notImplemented = (operation: string, todo: string): Effect.Effect<never, ShopSystemError> =>
  new ShopSystemError({ operation, reason: `not implemented: ${todo}`, retryable: false })

/**
 * A repair order the SMS does not know.
 *
 * @example
 * import { ShopSystem } from "@shoplink/connector"
 * new ShopSystem.RepairOrderNotFound({ shopId: "shop_1", repairOrderId: "ro_404" })
 *
 * @since 0.1.0
 */
export class RepairOrderNotFound extends Schema.TaggedError<RepairOrderNotFound>()("RepairOrderNotFound", {
  shopId: Schema.String,
  repairOrderId: Schema.String
}) {
  override get message(): string {
    return `repair order ${this.repairOrderId} not found for shop ${this.shopId}`
  }
}

/**
 * An operation the adapter did not declare a capability for.
 *
 * @example
 * import { ShopSystem } from "@shoplink/connector"
 * new ShopSystem.CapabilityMissing({ capability: "writeOrderedParts" })
 *
 * @since 0.1.0
 */
export class CapabilityMissing extends Schema.TaggedError<CapabilityMissing>()("CapabilityMissing", {
  capability: Schema.String
}) {
  override get message(): string {
    return `the shop system does not support ${this.capability}`
  }
}

/**
 * A repair order an SMS webhook delivery names, and what happened to it. The runtime does not take
 * the delivery's word for it: it reads the repair order again (`loadRepairOrder`) and records what
 * it finds.
 *
 * @example
 * import type { ShopSystem } from "@shoplink/connector"
 * const event: ShopSystem.RepairOrderEvent = { repairOrderId: "ro_8f2", action: "deleted" }
 *
 * @since 0.1.0
 */
export interface RepairOrderEvent {
  readonly repairOrderId: string
  readonly action: "created" | "updated" | "deleted"
}

/**
 * What an adapter with the capability `receiveRepairOrderEvents` provides: `decode` reads one
 * delivery's body (events the runtime does not need decode to none; a body that is not the SMS's
 * shape fails, not retryable), and `subscribe` registers the runtime's URL for the shop with the
 * SMS, once however often it is called.
 *
 * @example
 * import { Effect } from "effect"
 * import type { ShopSystem } from "@shoplink/connector"
 * const events: ShopSystem.RepairOrderEvents = {
 *   decode: ({ body }) => Effect.succeed([{ repairOrderId: String(JSON.parse(body).id), action: "updated" }]),
 *   subscribe: () => Effect.void
 * }
 *
 * @since 0.1.0
 */
export interface RepairOrderEvents {
  readonly decode: (delivery: {
    readonly shopId: string
    readonly body: string
  }) => Effect.Effect<ReadonlyArray<RepairOrderEvent>, ShopSystemError>
  readonly subscribe: (subscription: {
    readonly shopId: string
    readonly url: string
  }) => Effect.Effect<void, ShopSystemError>
}

/**
 * The operations of the port. Writes must be idempotent by `PartLine.idempotencyKey`.
 *
 * @example
 * import { Effect } from "effect"
 * import type { ShopSystem } from "@shoplink/connector"
 * const readOnly: ShopSystem.Operations = {
 *   capabilities: new Set(["readRepairOrder"]),
 *   loadRepairOrder: ({ repairOrderId }) => Effect.succeed({ id: repairOrderId, number: "1", vehicle: {} }),
 *   applyQuote: () => Effect.succeed({ added: 0, alreadyPresent: 0 }),
 *   applyOrder: () => Effect.succeed({ added: 0, alreadyPresent: 0 })
 * }
 *
 * @since 0.1.0
 */
export interface Operations {
  readonly capabilities: ReadonlySet<Capability>
  readonly loadRepairOrder: (ref: {
    readonly shopId: string
    readonly repairOrderId: string
  }) => Effect.Effect<RepairOrder, RepairOrderNotFound | ShopSystemError>
  /**
   * The shop's open repair orders, newest first, at most `limit` (capability `listRepairOrders`):
   * what a service's repair-order list shows (`ServiceApp` of @shoplink/service-pages). Adapters
   * without the capability leave it out.
   */
  readonly listRepairOrders?: (query: {
    readonly shopId: string
    readonly limit: number
  }) => Effect.Effect<ReadonlyArray<RepairOrder>, ShopSystemError>
  readonly applyQuote: (write: QuoteWrite) => Effect.Effect<WriteResult, RepairOrderNotFound | ShopSystemError>
  readonly applyOrder: (write: OrderWrite) => Effect.Effect<WriteResult, RepairOrderNotFound | ShopSystemError>
  /** The SMS's repair-order webhooks (capability `receiveRepairOrderEvents`); others leave it out. */
  readonly repairOrderEvents?: RepairOrderEvents | undefined
}

/**
 * The service tag adapters provide.
 *
 * @example
 * import { Effect } from "effect"
 * import { ShopSystem } from "@shoplink/connector"
 * const program = Effect.gen(function*() {
 *   const sms = yield* ShopSystem.ShopSystem
 *   return yield* sms.loadRepairOrder({ shopId: "shop_1", repairOrderId: "ro_8f2" })
 * })
 *
 * @since 0.1.0
 */
export class ShopSystem extends Context.Tag("@shoplink/connector/ShopSystem")<ShopSystem, Operations>() {}
