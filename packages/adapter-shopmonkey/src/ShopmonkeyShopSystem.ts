/**
 * The `ShopSystem` of @shoplink/connector on Shopmonkey:
 * - reads an order with its vehicle (`vin`, `licensePlate`, `licensePlateState`, year/make/model)
 *   and customer;
 * - writes quoted parts onto a service named "Parts quote (distributor)" and ordered parts onto a
 *   service per distributor order, "Distributor order <orderID>", each part with `partNumber`,
 *   `name`, `quantity`, `wholesaleCostCents` (distributor cost), `retailCostCents` (distributor
 *   list price), `coreChargeCents`, the distributor as vendor and a note naming brand and order;
 * - never adds a line twice: each part carries its line's idempotency key in its `metadata`
 *   (`shoplinkKey`), and a write first reads the order's parts and skips the keys already there.
 *
 * @since 0.1.0
 */
import { Effect, Layer, Option, Ref } from "effect"
import { ShopSystem } from "@shoplink/connector"
import { optionalString } from "./internal/exchange.js"
import type { CreatePart, Customer, Metadata, Service, Vehicle } from "./Resources.js"
import { ShopmonkeyClient } from "./ShopmonkeyClient.js"
import type { ShopmonkeyError } from "./ShopmonkeyError.js"

/**
 * What this adapter supports through Shopmonkey's public API. Not declared:
 * `recordPurchaseOrder` (the order number is written on the service name and part notes, but the
 * order-level `purchaseOrderNumber` holds one value while a repair order can have several
 * distributor orders, and its write through the public API is not documented) and
 * `linkToRepairOrder` (the public API documents no web-app URL for an order).
 *
 * @example
 * import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * ShopmonkeyShopSystem.capabilities.includes("writeOrderedParts") // true
 *
 * @since 0.1.0
 */
export const capabilities: ReadonlyArray<ShopSystem.Capability> = ["readRepairOrder", "writeQuotedParts", "writeOrderedParts"]

/**
 * Adapter settings.
 *
 * @example
 * import type { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * const options: ShopmonkeyShopSystem.Options = { vendorName: "Main Street Parts Supply" }
 *
 * @since 0.1.0
 */
export interface Options {
  /**
   * The Shopmonkey vendor the parts are bought from: found by exact name (created when missing).
   * Default "Shoplink distributor".
   */
  readonly vendorName?: string
  /** Use this vendor id instead of looking the vendor up by name. */
  readonly vendorId?: string
  /** Name of the service quoted parts go onto (default "Parts quote (distributor)"). */
  readonly quoteServiceName?: string
}

/**
 * The metadata key holding a part line's idempotency key.
 *
 * @example
 * import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * ShopmonkeyShopSystem.IDEMPOTENCY_KEY_FIELD // "shoplinkKey"
 *
 * @since 0.1.0
 */
export const IDEMPOTENCY_KEY_FIELD = "shoplinkKey"

/**
 * The metadata key naming which Shoplink service a Shopmonkey service is (`quote` or
 * `order:<orderID>`), so a renamed service is still found.
 *
 * @example
 * import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * ShopmonkeyShopSystem.SERVICE_KEY_FIELD // "shoplinkService"
 *
 * @since 0.1.0
 */
export const SERVICE_KEY_FIELD = "shoplinkService"

/**
 * The service name used for the lines of a distributor order.
 *
 * @example
 * import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * ShopmonkeyShopSystem.orderServiceName("10423") // "Distributor order 10423"
 *
 * @since 0.1.0
 */
export const orderServiceName = (orderID: string): string => `Distributor order ${orderID}`

const customerName = (customer: Customer): string => {
  const person = [customer.firstName, customer.lastName].map((s) => s?.trim() ?? "").filter((s) => s !== "").join(" ")
  return person !== "" ? person : (customer.companyName?.trim() ?? "")
}

const vehicleOf = (vehicle: Vehicle | undefined): ShopSystem.Vehicle => {
  if (vehicle === undefined) return {}
  const year = vehicle.year ?? undefined
  return {
    vin: optionalString(vehicle.vin),
    licensePlate: optionalString(vehicle.licensePlate),
    licensePlateState: optionalString(vehicle.licensePlateState),
    year: year === undefined || year === 0 ? undefined : year,
    make: optionalString(vehicle.make),
    model: optionalString(vehicle.model)
  }
}

const keyOf = (metadata: Metadata | null | undefined): string | undefined => {
  const value = metadata?.[IDEMPOTENCY_KEY_FIELD]
  return typeof value === "string" ? value : undefined
}

const isCents = (n: number) => Number.isSafeInteger(n) && n >= 0

/**
 * Builds the ShopSystem operations on the `ShopmonkeyClient` in context.
 *
 * @example
 * import { Effect } from "effect"
 * import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * const operations = ShopmonkeyShopSystem.make({ vendorName: "Main Street Parts Supply" })
 *
 * @since 0.1.0
 */
export const make = (options: Options = {}): Effect.Effect<ShopSystem.Operations, never, ShopmonkeyClient> =>
  Effect.gen(function*() {
    const client = yield* ShopmonkeyClient
    const vendorName = options.vendorName ?? "Shoplink distributor"
    const quoteServiceName = options.quoteServiceName ?? "Parts quote (distributor)"
    const vendorRef = yield* Ref.make(Option.fromNullable(options.vendorId))
    // One write at a time: "read the parts, then add the missing ones" must not interleave.
    const writeLock = yield* Effect.makeSemaphore(1)

    const smsError = (operation: string) => (error: ShopmonkeyError) =>
      new ShopSystem.ShopSystemError({ operation, reason: error.message, retryable: error.retryable })

    const getOrder = (operation: string, shopId: string, repairOrderId: string) =>
      client.getOrder(repairOrderId).pipe(
        Effect.mapError((error): ShopSystem.RepairOrderNotFound | ShopSystem.ShopSystemError =>
          error.notFound ? new ShopSystem.RepairOrderNotFound({ shopId, repairOrderId }) : smsError(operation)(error)
        )
      )

    const vendorId = Effect.gen(function*() {
      const known = yield* Ref.get(vendorRef)
      if (Option.isSome(known)) return known.value
      const found = (yield* client.listVendors({ where: { name: vendorName } })).find((v) => v.name === vendorName)
      const id = found?.id ?? (yield* client.createVendor({ name: vendorName })).id
      yield* Ref.set(vendorRef, Option.some(id))
      return id
    })

    const loadRepairOrder: ShopSystem.Operations["loadRepairOrder"] = ({ repairOrderId, shopId }) =>
      Effect.gen(function*() {
        const order = yield* getOrder("loadRepairOrder", shopId, repairOrderId)
        const vehicleId = optionalString(order.vehicleId)
        const customerId = optionalString(order.customerId)
        const [vehicle, customer] = yield* Effect.all([
          vehicleId === undefined ? Effect.succeed(undefined) : client.getVehicle(vehicleId),
          customerId === undefined ? Effect.succeed(undefined) : client.getCustomer(customerId)
        ], { concurrency: 2 }).pipe(Effect.mapError(smsError("loadRepairOrder")))
        return {
          id: order.id,
          number: String(order.number),
          vehicle: vehicleOf(vehicle),
          customer: customer === undefined ? undefined : { id: customer.id, name: customerName(customer) }
        }
      })

    const writeLines = (
      operation: "applyQuote" | "applyOrder",
      write: ShopSystem.QuoteWrite | ShopSystem.OrderWrite,
      target: { readonly key: string; readonly name: string; readonly note: string },
      partNote: (line: ShopSystem.PartLine) => string
    ): Effect.Effect<ShopSystem.WriteResult, ShopSystem.RepairOrderNotFound | ShopSystem.ShopSystemError> =>
      Effect.gen(function*() {
        const invalid = write.lines.find((l) =>
          !isCents(l.costCents) || !isCents(l.listCents) || !isCents(l.coreCents) || !Number.isSafeInteger(l.quantity) || l.quantity <= 0
        )
        if (invalid !== undefined) {
          return yield* new ShopSystem.ShopSystemError({
            operation,
            reason: `line ${invalid.idempotencyKey} has a non-integer or negative amount, or a quantity below 1`,
            retryable: false
          })
        }
        yield* getOrder(operation, write.shopId, write.repairOrderId)
        const services = yield* client.listServices(write.repairOrderId).pipe(Effect.mapError(smsError(operation)))
        const present = new Set(services.flatMap((s) => s.parts.map((p) => keyOf(p.metadata))).filter((k) => k !== undefined))
        const pending: Array<ShopSystem.PartLine> = []
        for (const line of write.lines) {
          if (present.has(line.idempotencyKey)) continue
          present.add(line.idempotencyKey)
          pending.push(line)
        }
        const alreadyPresent = write.lines.length - pending.length
        if (pending.length === 0) return { added: 0, alreadyPresent }
        const existing: Service | undefined = services.find((s) => s.metadata?.[SERVICE_KEY_FIELD] === target.key) ??
          services.find((s) => s.name === target.name)
        const service = existing ??
          (yield* client.createService(write.repairOrderId, {
            name: target.name,
            note: target.note,
            metadata: { [SERVICE_KEY_FIELD]: target.key }
          }).pipe(Effect.mapError(smsError(operation))))
        const vendor = yield* vendorId.pipe(Effect.mapError(smsError(operation)))
        for (const line of pending) {
          const body: CreatePart = {
            name: line.description,
            partNumber: line.productID,
            quantity: line.quantity,
            wholesaleCostCents: line.costCents,
            retailCostCents: line.listCents,
            ...(line.coreCents > 0 ? { coreChargeCents: line.coreCents } : {}),
            vendorId: vendor,
            showPartNumber: true,
            note: partNote(line),
            metadata: {
              [IDEMPOTENCY_KEY_FIELD]: line.idempotencyKey,
              shoplinkBrandId: line.brandID,
              shoplinkPartTerminologyId: line.partTerminologyId,
              shoplinkCategoryId: line.categoryID
            }
          }
          yield* client.createPart(write.repairOrderId, service.id, body).pipe(Effect.mapError(smsError(operation)))
        }
        return { added: pending.length, alreadyPresent }
      }).pipe(writeLock.withPermits(1))

    return {
      capabilities: new Set(capabilities),
      loadRepairOrder,
      applyQuote: (write) =>
        writeLines(
          "applyQuote",
          write,
          { key: "quote", name: quoteServiceName, note: "Quoted from the distributor catalog (Shoplink). Not ordered." },
          (line) => `${line.brandID} ${line.productID} — quoted, not ordered`
        ),
      applyOrder: (write) =>
        writeLines(
          "applyOrder",
          write,
          {
            key: `order:${write.orderID}`,
            name: orderServiceName(write.orderID),
            note: `Ordered from the distributor, order ${write.orderID} (${write.statusDescription}).`
          },
          (line) => `${line.brandID} ${line.productID} — ordered, distributor order ${write.orderID}`
        )
    }
  })

/**
 * A layer providing `ShopSystem` on the `ShopmonkeyClient` in context.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Layer } from "effect"
 * import { ShopmonkeyClient, ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * const live = ShopmonkeyShopSystem.layer().pipe(
 *   Layer.provide(ShopmonkeyClient.layerConfig()),
 *   Layer.provide(FetchHttpClient.layer)
 * )
 *
 * @since 0.1.0
 */
export const layer = (options: Options = {}): Layer.Layer<ShopSystem.ShopSystem, never, ShopmonkeyClient> =>
  Layer.effect(ShopSystem.ShopSystem, make(options))
