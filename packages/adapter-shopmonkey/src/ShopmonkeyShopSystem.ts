/**
 * The `ShopSystem` of @shoplink/connector on Shopmonkey:
 * - reads an order with its vehicle (`vin`, `licensePlate`, `licensePlateState`, year/make/model)
 *   and customer; lists the open ones (not archived, not invoiced), newest first;
 * - writes quoted parts onto a service named "Parts quote (distributor)" and ordered parts onto a
 *   service per distributor order, "Distributor order <orderID>", each part with `partNumber`,
 *   `name`, `quantity`, `wholesaleCostCents` (distributor cost), `retailCostCents` (distributor
 *   list price), `coreChargeCents`, the distributor as vendor and a note naming brand and order;
 * - never adds a line twice: each part carries its line's idempotency key in its `metadata`
 *   (`shoplinkKey`), and a write first reads the order's parts and skips the keys already there.
 *
 * One process can serve many shops, each with its own Shopmonkey account: `layerPerShop` resolves
 * the shop's API key (secret {@link API_KEY_SECRET}) through the `SmsCredentials` port of
 * @shoplink/connector on every call and keeps one client per shop. `layer` serves every shop from
 * the one `ShopmonkeyClient` in context (a single-shop setup).
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { ShopSystem, SmsCredentials } from "@shoplink/connector"
import { optionalString } from "./internal/exchange.js"
import type { CreatePart, Customer, Metadata, Order, Service, Vehicle } from "./Resources.js"
import * as ShopmonkeyClient from "./ShopmonkeyClient.js"
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
export const capabilities: ReadonlyArray<ShopSystem.Capability> = [
  "readRepairOrder",
  "listRepairOrders",
  "writeQuotedParts",
  "writeOrderedParts"
]

/**
 * The `where` filter of an open order: what `listRepairOrders` lists (an archived or invoiced
 * order takes no more parts).
 *
 * @example
 * import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * ShopmonkeyShopSystem.OPEN_ORDERS // { archived: false, invoiced: false }
 *
 * @since 0.1.0
 */
export const OPEN_ORDERS: Readonly<Record<string, unknown>> = { archived: false, invoiced: false }

// Shopmonkey documents no sort order for a list: newest by creation date, then by number.
const newestFirst = (a: Order, b: Order): number =>
  (b.createdDate ?? "").localeCompare(a.createdDate ?? "") || Number(b.number) - Number(a.number)

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
 * Options of {@link layerPerShop}: the adapter's settings (but a vendor id, which is per
 * Shopmonkey company — the vendor is found or created by name in each shop's account), the client
 * settings every shop's client shares (`baseUrl`, `timeout`, retries) and a hook on each shop's
 * HTTP client.
 *
 * @example
 * import type { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * const options: ShopmonkeyShopSystem.PerShopOptions = {
 *   baseUrl: "https://sandbox-api.shopmonkey.cloud/v3",
 *   vendorName: "Main Street Parts Supply",
 *   maxAttempts: 3
 * }
 *
 * @since 0.1.0
 */
export interface PerShopOptions extends Omit<Options, "vendorId">, Omit<ShopmonkeyClient.Options, "apiKey"> {
  /**
   * Changes the `HttpClient` a shop's Shopmonkey client is built on (a proxy, tracing, a rate
   * limit per key…). Called once each time a shop's client is built: on its first call, and again
   * after its API key changed.
   */
  readonly transformClient?: (client: HttpClient.HttpClient, shopId: string) => HttpClient.HttpClient
}

/**
 * The name of the shop's SMS secret holding its Shopmonkey API key: what onboarding stores
 * (`ShopStore` `sms: { apiKey }`) and what `layerPerShop` asks `SmsCredentials` for.
 *
 * @example
 * import { Redacted } from "effect"
 * import { SmsCredentials } from "@shoplink/connector"
 * import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * const credentials = SmsCredentials.layerStatic({
 *   shop_1: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make("sm-key-of-shop-1") }
 * })
 *
 * @since 0.1.0
 */
export const API_KEY_SECRET = "apiKey"

/** What one shop's calls run on. */
interface ShopContext {
  readonly client: ShopmonkeyClient.Service
  /** The distributor vendor's id in the shop's account, looked up (or created) once. */
  readonly vendorId: Effect.Effect<string, ShopmonkeyError>
  /** Serializes the shop's writes: "read the parts, then add the missing ones" must not interleave. */
  readonly writeLock: Effect.Semaphore
}

type Operation = "loadRepairOrder" | "listRepairOrders" | "applyQuote" | "applyOrder"

const cachedVendorId = (client: ShopmonkeyClient.Service, vendorName: string, vendorId: string | undefined) =>
  Effect.map(Ref.make(Option.fromNullable(vendorId)), (ref) =>
    Effect.gen(function*() {
      const known = yield* Ref.get(ref)
      if (Option.isSome(known)) return known.value
      const found = (yield* client.listVendors({ where: { name: vendorName } })).find((v) => v.name === vendorName)
      const id = found?.id ?? (yield* client.createVendor({ name: vendorName })).id
      yield* Ref.set(ref, Option.some(id))
      return id
    }))

const DEFAULT_VENDOR_NAME = "Shoplink distributor"

/** The operations, for whatever way `contextOf` finds a shop's client. */
const operations = (
  options: Omit<Options, "vendorId">,
  contextOf: (operation: Operation, shopId: string) => Effect.Effect<ShopContext, ShopSystem.ShopSystemError>
): ShopSystem.Operations => {
  const quoteServiceName = options.quoteServiceName ?? "Parts quote (distributor)"

  const smsError = (operation: string) => (error: ShopmonkeyError) =>
    new ShopSystem.ShopSystemError({ operation, reason: error.message, retryable: error.retryable })

  const getOrder = (client: ShopmonkeyClient.Service, operation: string, shopId: string, repairOrderId: string) =>
    client.getOrder(repairOrderId).pipe(
      Effect.mapError((error): ShopSystem.RepairOrderNotFound | ShopSystem.ShopSystemError =>
        // An order of another Shopmonkey company answers 404 too: for this shop it does not exist.
        error.notFound ? new ShopSystem.RepairOrderNotFound({ shopId, repairOrderId }) : smsError(operation)(error)
      )
    )

  // The order with its vehicle and customer, as the runtime sees it.
  const repairOrderOf = (client: ShopmonkeyClient.Service, operation: Operation, order: Order) =>
    Effect.gen(function*() {
      const vehicleId = optionalString(order.vehicleId)
      const customerId = optionalString(order.customerId)
      const [vehicle, customer] = yield* Effect.all([
        vehicleId === undefined ? Effect.succeed(undefined) : client.getVehicle(vehicleId),
        customerId === undefined ? Effect.succeed(undefined) : client.getCustomer(customerId)
      ], { concurrency: 2 }).pipe(Effect.mapError(smsError(operation)))
      return {
        id: order.id,
        number: String(order.number),
        vehicle: vehicleOf(vehicle),
        customer: customer === undefined ? undefined : { id: customer.id, name: customerName(customer) }
      } satisfies ShopSystem.RepairOrder
    })

  const loadRepairOrder: ShopSystem.Operations["loadRepairOrder"] = ({ repairOrderId, shopId }) =>
    Effect.gen(function*() {
      const { client } = yield* contextOf("loadRepairOrder", shopId)
      const order = yield* getOrder(client, "loadRepairOrder", shopId, repairOrderId)
      return yield* repairOrderOf(client, "loadRepairOrder", order)
    })

  // Every open order is read (no documented sort), then the newest `limit` are completed.
  const listRepairOrders: NonNullable<ShopSystem.Operations["listRepairOrders"]> = ({ limit, shopId }) =>
    Effect.gen(function*() {
      const { client } = yield* contextOf("listRepairOrders", shopId)
      const orders = yield* client.listOrders({ where: OPEN_ORDERS }).pipe(
        Effect.mapError(smsError("listRepairOrders"))
      )
      const newest = [...orders].sort(newestFirst).slice(0, Math.max(0, Math.floor(limit)))
      return yield* Effect.forEach(newest, (order) => repairOrderOf(client, "listRepairOrders", order), {
        concurrency: 4
      })
    })

  const writeLines = (
    operation: "applyQuote" | "applyOrder",
    write: ShopSystem.QuoteWrite | ShopSystem.OrderWrite,
    target: { readonly key: string; readonly name: string; readonly note: string },
    partNote: (line: ShopSystem.PartLine) => string
  ): Effect.Effect<ShopSystem.WriteResult, ShopSystem.RepairOrderNotFound | ShopSystem.ShopSystemError> =>
    Effect.gen(function*() {
      const invalid = write.lines.find((l) =>
        !isCents(l.costCents) || !isCents(l.listCents) || !isCents(l.coreCents) || !Number.isSafeInteger(l.quantity) ||
        l.quantity <= 0
      )
      if (invalid !== undefined) {
        return yield* new ShopSystem.ShopSystemError({
          operation,
          reason: `line ${invalid.idempotencyKey} has a non-integer or negative amount, or a quantity below 1`,
          retryable: false
        })
      }
      const { client, vendorId, writeLock } = yield* contextOf(operation, write.shopId)
      return yield* Effect.gen(function*() {
        yield* getOrder(client, operation, write.shopId, write.repairOrderId)
        const services = yield* client.listServices(write.repairOrderId).pipe(Effect.mapError(smsError(operation)))
        const present = new Set(
          services.flatMap((s) => s.parts.map((p) => keyOf(p.metadata))).filter((k) => k !== undefined)
        )
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
    })

  return {
    capabilities: new Set(capabilities),
    loadRepairOrder,
    listRepairOrders,
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
}

/**
 * Builds the ShopSystem operations on the `ShopmonkeyClient` in context, for every shop (one
 * Shopmonkey account; `makePerShop` serves one account per shop).
 *
 * @example
 * import { Effect } from "effect"
 * import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * const operations = ShopmonkeyShopSystem.make({ vendorName: "Main Street Parts Supply" })
 *
 * @since 0.1.0
 */
export const make = (
  options: Options = {}
): Effect.Effect<ShopSystem.Operations, never, ShopmonkeyClient.ShopmonkeyClient> =>
  Effect.gen(function*() {
    const client = yield* ShopmonkeyClient.ShopmonkeyClient
    const vendorId = yield* cachedVendorId(client, options.vendorName ?? DEFAULT_VENDOR_NAME, options.vendorId)
    const writeLock = yield* Effect.makeSemaphore(1)
    const context: ShopContext = { client, vendorId, writeLock }
    return operations(options, () => Effect.succeed(context))
  })

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim()

/**
 * Builds the ShopSystem operations for many shops, each on its own Shopmonkey account: every call
 * asks `SmsCredentials` for the shop's {@link API_KEY_SECRET} and runs on that shop's client, built
 * on the first call and kept while the key stays the same (a rotated key builds a new one, with
 * a fresh vendor lookup). A shop without a usable key fails with a non-retryable
 * `ShopSystemError` naming the shop (never the key) before any request is sent.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Effect, Redacted } from "effect"
 * import { SmsCredentials } from "@shoplink/connector"
 * import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * const operations = ShopmonkeyShopSystem.makePerShop({ baseUrl: "https://sandbox-api.shopmonkey.cloud/v3" }).pipe(
 *   Effect.provide(SmsCredentials.layerStatic({ shop_1: { apiKey: Redacted.make("sm-key") } })),
 *   Effect.provide(FetchHttpClient.layer)
 * )
 *
 * @since 0.1.0
 */
export const makePerShop = (
  options: PerShopOptions = {}
): Effect.Effect<ShopSystem.Operations, never, SmsCredentials.SmsCredentials | HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const httpClient = yield* HttpClient.HttpClient
    const { quoteServiceName, transformClient, vendorName, ...clientOptions } = options
    // A shop's write lock outlives its client: a key rotated in the middle of a write must not let
    // a second write to the same order run beside it on the new client.
    const writeLocks = new Map<string, Effect.Semaphore>()
    const clientOf = yield* SmsCredentials.perShop({
      required: [API_KEY_SECRET],
      build: (shopId, secrets) =>
        Effect.gen(function*() {
          const http = transformClient === undefined ? httpClient : transformClient(httpClient, shopId)
          const client = yield* ShopmonkeyClient.make({ ...clientOptions, apiKey: secrets[API_KEY_SECRET]! }).pipe(
            Effect.provideService(HttpClient.HttpClient, http)
          )
          const vendorId = yield* cachedVendorId(client, vendorName ?? DEFAULT_VENDOR_NAME, undefined)
          let writeLock = writeLocks.get(shopId)
          if (writeLock === undefined) {
            writeLock = yield* Effect.makeSemaphore(1)
            writeLocks.set(shopId, writeLock)
          }
          return { client, vendorId, writeLock } satisfies ShopContext
        })
    })

    const contextOf = (operation: Operation, shopId: string) =>
      clientOf(shopId).pipe(
        Effect.mapError((error) =>
          new ShopSystem.ShopSystemError({
            operation,
            // The port's reason says what is missing ("no apiKey stored", "unknown shop"); it
            // never carries a secret. Not retryable: onboarding the key, then a replay, fixes it.
            reason: `no Shopmonkey API key for shop ${shopId} (${oneLine(error.reason)})`,
            retryable: false
          })
        )
      )

    return operations({
      ...(quoteServiceName === undefined ? {} : { quoteServiceName }),
      ...(vendorName === undefined ? {} : { vendorName })
    }, contextOf)
  })

/**
 * A layer providing `ShopSystem` on the `ShopmonkeyClient` in context (one Shopmonkey account for
 * every shop).
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Config, Layer } from "effect"
 * import { ShopmonkeyClient, ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * const live = ShopmonkeyShopSystem.layer().pipe(
 *   Layer.provide(ShopmonkeyClient.layerConfig({ apiKey: Config.redacted("ACME_SHOPMONKEY_API_KEY") })),
 *   Layer.provide(FetchHttpClient.layer)
 * )
 *
 * @since 0.1.0
 */
export const layer = (
  options: Options = {}
): Layer.Layer<ShopSystem.ShopSystem, never, ShopmonkeyClient.ShopmonkeyClient> =>
  Layer.effect(ShopSystem.ShopSystem, make(options))

/**
 * A layer providing `ShopSystem` for many shops, each on its own Shopmonkey account, with the
 * API key of each shop from `SmsCredentials` (see {@link makePerShop}). The runtime provides
 * `SmsCredentials` from its `ShopStore` (`ShopStore.layerSmsCredentials`).
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Layer, Redacted } from "effect"
 * import { SmsCredentials } from "@shoplink/connector"
 * import { ShopmonkeyClient, ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * const live = ShopmonkeyShopSystem.layerPerShop({ baseUrl: ShopmonkeyClient.SANDBOX_BASE_URL }).pipe(
 *   Layer.provide(SmsCredentials.layerStatic({
 *     shop_1: { apiKey: Redacted.make("sm-key-1") },
 *     shop_2: { apiKey: Redacted.make("sm-key-2") }
 *   })),
 *   Layer.provide(FetchHttpClient.layer)
 * )
 *
 * @since 0.1.0
 */
export const layerPerShop = (
  options: PerShopOptions = {}
): Layer.Layer<ShopSystem.ShopSystem, never, SmsCredentials.SmsCredentials | HttpClient.HttpClient> =>
  Layer.effect(ShopSystem.ShopSystem, makePerShop(options))

/**
 * The options of {@link layerPerShop} that `layerPerShopConfig` reads from configuration.
 *
 * @example
 * import type { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * const options: ShopmonkeyShopSystem.PerShopConfigOptions = { baseUrl: "https://sandbox-api.shopmonkey.cloud/v3" }
 *
 * @since 0.1.0
 */
export type PerShopConfigOptions = Pick<PerShopOptions, "baseUrl" | "vendorName" | "quoteServiceName">

/**
 * {@link layerPerShop} from configuration: each option a `Config` (the application names its
 * variables; `shopmonkeyBaseUrl` is the one the sample and `shopmonkeyConnector` use), the others
 * given as `options`. The keys are per shop, from `SmsCredentials`.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Config, Layer } from "effect"
 * import { SmsCredentials } from "@shoplink/connector"
 * import { ShopStore } from "@shoplink/connector-runtime"
 * import { ShopmonkeyClient, ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * const live = ShopmonkeyShopSystem.layerPerShopConfig({
 *   baseUrl: Config.string("ACME_SHOPMONKEY_BASE_URL").pipe(Config.withDefault(ShopmonkeyClient.PRODUCTION_BASE_URL))
 * }).pipe(
 *   Layer.provide(ShopStore.layerSmsCredentials.pipe(Layer.provide(ShopStore.layerMemory))),
 *   Layer.provide(FetchHttpClient.layer)
 * )
 *
 * @since 0.1.0
 */
export const layerPerShopConfig = (
  config: Config.Config.Wrap<PerShopConfigOptions>,
  options: Omit<PerShopOptions, keyof PerShopConfigOptions> = {}
): Layer.Layer<ShopSystem.ShopSystem, ConfigError.ConfigError, SmsCredentials.SmsCredentials | HttpClient.HttpClient> =>
  Layer.unwrapEffect(Effect.map(Config.unwrap(config), (configured) => layerPerShop({ ...options, ...configured })))
