/**
 * The "shop-management system" of the reference adapter: a tiny in-memory store standing in for
 * a real SMS and its API. It has its own vocabulary (part numbers, unit prices, an external key per
 * line) on purpose, so the adapter next to it shows the mapping a real adapter does.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"

/**
 * A repair order as the SMS keeps it.
 *
 * @example
 * import type { ReferenceSms } from "@shoplink/connector-testkit/reference"
 * const ro: ReferenceSms.SmsRepairOrder = {
 *   id: "ro_1",
 *   shopId: "shop_1",
 *   number: "1042",
 *   customerName: "Dana Reyes",
 *   vehicle: { vin: "1FTEW1E56KFA12345", year: 2019 }
 * }
 *
 * @since 0.1.0
 */
export interface SmsRepairOrder {
  readonly id: string
  /** The shop (SMS account) the repair order belongs to. */
  readonly shopId: string
  readonly number: string
  readonly customerName?: string | undefined
  readonly vehicle: {
    readonly vin?: string | undefined
    readonly plate?: string | undefined
    readonly plateState?: string | undefined
    readonly acesBaseVehicleId?: string | undefined
    readonly year?: number | undefined
    readonly make?: string | undefined
    readonly model?: string | undefined
  }
}

/**
 * A part line on a repair order, in the SMS's words. `externalKey` is the SMS field an
 * integration may set and search by; the adapter stores the idempotency key there.
 *
 * @example
 * import type { ReferenceSms } from "@shoplink/connector-testkit/reference"
 * const line: ReferenceSms.SmsPartLine = {
 *   externalKey: "quote:ab12:0", source: "quote", partNumber: "51515", brand: "WIX", description: "Oil Filter",
 *   quantity: 2, unitCostCents: 649, unitListCents: 999, unitCoreCents: 0
 * }
 *
 * @since 0.1.0
 */
export interface SmsPartLine {
  readonly externalKey: string
  readonly source: "quote" | "order"
  readonly partNumber: string
  readonly brand: string
  readonly description: string
  readonly quantity: number
  readonly unitCostCents: number
  readonly unitListCents: number
  readonly unitCoreCents: number
  readonly purchaseOrder?: string | undefined
}

/**
 * What the SMS answers when a call fails: `temporary` for an outage (try later), otherwise a
 * refusal.
 *
 * @example
 * import { ReferenceSms } from "@shoplink/connector-testkit/reference"
 * new ReferenceSms.SmsUnavailable({ temporary: true, detail: "503 Service Unavailable" })
 *
 * @since 0.1.0
 */
export class SmsUnavailable extends Data.TaggedError("SmsUnavailable")<{
  readonly temporary: boolean
  readonly detail: string
}> {}

/**
 * The SMS's "API".
 *
 * @example
 * import { Effect } from "effect"
 * import { ReferenceSms } from "@shoplink/connector-testkit/reference"
 * const sms = ReferenceSms.make([{ id: "ro_1", shopId: "shop_1", number: "1042", vehicle: {} }])
 * Effect.runSync(sms.getRepairOrder("ro_1"))?.number // "1042"
 *
 * @since 0.1.0
 */
export interface Api {
  readonly getRepairOrder: (id: string) => Effect.Effect<SmsRepairOrder | undefined>
  /** A shop's repair orders, newest (last added) first. */
  readonly listRepairOrders: (shopId: string) => Effect.Effect<ReadonlyArray<SmsRepairOrder>>
  /** The lines of a repair order, in insertion order. */
  readonly listParts: (repairOrderId: string) => Effect.Effect<ReadonlyArray<SmsPartLine>>
  readonly addPart: (repairOrderId: string, line: SmsPartLine) => Effect.Effect<void, SmsUnavailable>
  readonly setPurchaseOrder: (
    repairOrderId: string,
    po: { readonly number: string; readonly status: string }
  ) => Effect.Effect<void, SmsUnavailable>
  readonly getPurchaseOrder: (
    repairOrderId: string
  ) => Effect.Effect<{ readonly number: string; readonly status: string } | undefined>
  /** Test switch: the next `count` writes fail before changing anything. */
  readonly failNextWrites: (count: number, temporary: boolean) => Effect.Effect<void>
  /** How the SMS links to a repair order in its web app. */
  readonly repairOrderUrl: (id: string) => string
  /** Registers a URL for the SMS's repair-order webhooks (once per URL). */
  readonly subscribe: (url: string) => Effect.Effect<void>
  /** The registered webhook URLs. */
  readonly subscriptions: () => Effect.Effect<ReadonlyArray<string>>
}

/**
 * The service tag: the adapter's layer needs a connection to "the SMS".
 *
 * @example
 * import { Layer } from "effect"
 * import { ReferenceSms } from "@shoplink/connector-testkit/reference"
 * const connection = Layer.succeed(ReferenceSms.ReferenceSms, ReferenceSms.make([]))
 *
 * @since 0.1.0
 */
export class ReferenceSms extends Context.Tag("@shoplink/connector-testkit/ReferenceSms")<ReferenceSms, Api>() {}

/**
 * A fresh SMS holding the given repair orders.
 *
 * @example
 * import { ReferenceSms } from "@shoplink/connector-testkit/reference"
 * const sms = ReferenceSms.make([{
 *   id: "ro_1",
 *   shopId: "shop_1",
 *   number: "1042",
 *   vehicle: { plate: "8ABC123", plateState: "CA" }
 * }])
 *
 * @since 0.1.0
 */
export const make = (repairOrders: ReadonlyArray<SmsRepairOrder>): Api => {
  const orders = new Map(repairOrders.map((ro) => [ro.id, ro]))
  const parts = new Map<string, Array<SmsPartLine>>()
  const purchaseOrders = new Map<string, { readonly number: string; readonly status: string }>()
  let failures = { remaining: 0, temporary: true }
  const webhooks = new Set<string>()

  // Every write passes here first, so an injected failure never leaves half a write behind.
  const checkWrite = Effect.suspend(() => {
    if (failures.remaining <= 0) return Effect.void
    failures = { ...failures, remaining: failures.remaining - 1 }
    return Effect.fail(new SmsUnavailable({ temporary: failures.temporary, detail: "injected failure" }))
  })

  return {
    getRepairOrder: (id) => Effect.sync(() => orders.get(id)),
    listRepairOrders: (shopId) =>
      Effect.sync(() => [...orders.values()].filter((ro) => ro.shopId === shopId).reverse()),
    listParts: (repairOrderId) => Effect.sync(() => [...(parts.get(repairOrderId) ?? [])]),
    addPart: (repairOrderId, line) =>
      Effect.zipRight(
        checkWrite,
        Effect.sync(() => {
          parts.set(repairOrderId, [...(parts.get(repairOrderId) ?? []), line])
        })
      ),
    setPurchaseOrder: (repairOrderId, po) =>
      Effect.zipRight(
        checkWrite,
        Effect.sync(() => {
          purchaseOrders.set(repairOrderId, po)
        })
      ),
    getPurchaseOrder: (repairOrderId) => Effect.sync(() => purchaseOrders.get(repairOrderId)),
    subscribe: (url) =>
      Effect.sync(() => {
        webhooks.add(url)
      }),
    subscriptions: () => Effect.sync(() => [...webhooks]),
    failNextWrites: (count, temporary) =>
      Effect.sync(() => {
        failures = { remaining: count, temporary }
      }),
    repairOrderUrl: (id) => `https://sms.example/repair-orders/${encodeURIComponent(id)}`
  }
}
