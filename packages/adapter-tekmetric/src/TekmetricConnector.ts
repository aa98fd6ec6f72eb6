/**
 * The Tekmetric connector: `ShopSystem` implemented over the Tekmetric API, for many shops, each
 * with its own Tekmetric OAuth client credentials (and, when those cover several Tekmetric shops,
 * the one to use).
 *
 * What Tekmetric's public API allows a third party, and so what this adapter declares:
 * - `readRepairOrder` — `GET /api/v1/repair-orders/{id}`, its vehicle (`/vehicles/{id}`: VIN,
 *   license plate, state) and customer (`/customers/{id}`);
 * - `listRepairOrders` — `GET /api/v1/repair-orders` of the shop's open statuses, newest first;
 * - `recordPurchaseOrder` — the distributor's order number and status written on the note of the
 *   repair order's first job (`PATCH /api/v1/jobs/{id}`), one line per order, idempotently;
 * - `linkToRepairOrder` — the repair order's page in the Tekmetric web app.
 *
 * Tekmetric documents no write of part lines, so `writeQuotedParts` and `writeOrderedParts` are
 * not declared: the runtime keeps quoted and ordered parts in its own parts ledger (see
 * `PartsLedger` in @shoplink/connector) and shows them on its callback and parts pages.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import { Connector, ShopSystem, SmsCredentials } from "@shoplink/connector"
import type { Retry } from "@shoplink/http"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Resources from "./Resources.js"
import * as TekmetricClient from "./TekmetricClient.js"
import { type AnyTekmetricError, TekmetricShopNotInScope } from "./TekmetricError.js"

/**
 * How to reach Tekmetric, the same for every shop: the API base URL (`https://api.tekmetric.com`,
 * or `https://sandbox.tekmetric.com`), the web app's URL for links to repair orders (default: the
 * API host with `api.` replaced by `shop.`), and the client's timeout and retry overrides. A shop's
 * own credentials are not here: the adapter reads them per shop through `SmsCredentials`.
 *
 * @example
 * import { Layer } from "effect"
 * import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
 * const config = Layer.succeed(TekmetricConnector.TekmetricConfig, { baseUrl: "https://sandbox.tekmetric.com" })
 *
 * @since 0.1.0
 */
export class TekmetricConfig extends Context.Tag("@shoplink/adapter-tekmetric/TekmetricConfig")<TekmetricConfig, {
  readonly baseUrl: string
  readonly appUrl?: string | undefined
  readonly timeout?: TekmetricClient.Options["timeout"] | undefined
  readonly retry?: Retry.RetryPolicyInput | undefined
}>() {}

/**
 * The shop's SMS secret holding its Tekmetric OAuth client ID.
 *
 * @example
 * import { Redacted } from "effect"
 * import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
 * const sms = {
 *   [TekmetricConnector.CLIENT_ID_SECRET]: Redacted.make("client-id"),
 *   [TekmetricConnector.CLIENT_SECRET_SECRET]: Redacted.make("client-secret")
 * }
 *
 * @since 0.1.0
 */
export const CLIENT_ID_SECRET = "clientId"

/**
 * The shop's SMS secret holding its Tekmetric OAuth client secret.
 *
 * @example
 * import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
 * TekmetricConnector.CLIENT_SECRET_SECRET // "clientSecret"
 *
 * @since 0.1.0
 */
export const CLIENT_SECRET_SECRET = "clientSecret"

/**
 * The shop's optional SMS secret naming its Tekmetric shop ID. Needed only when the credentials'
 * scope lists several shops; it must be one of them.
 *
 * @example
 * import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
 * TekmetricConnector.SHOP_ID_SECRET // "tekmetricShopId"
 *
 * @since 0.1.0
 */
export const SHOP_ID_SECRET = "tekmetricShopId"

/**
 * What this adapter declares (see the module description).
 *
 * @example
 * import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
 * TekmetricConnector.CAPABILITIES.includes("writeOrderedParts") // false
 *
 * @since 0.1.0
 */
export const CAPABILITIES: ReadonlyArray<ShopSystem.Capability> = [
  "readRepairOrder",
  "listRepairOrders",
  "recordPurchaseOrder",
  "linkToRepairOrder"
]

/** The marker that makes the purchase-order line of an order findable in a job note. */
const marker = (orderID: string) => `[shoplink-order:${orderID}]`

/**
 * The line the adapter writes on a job note for a distributor order.
 *
 * @example
 * import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
 * TekmetricConnector.purchaseOrderLine({ orderID: "10423", status: "3", statusDescription: "Order submitted" })
 * // "Parts order 10423: Order submitted (status 3), via Shoplink [shoplink-order:10423]"
 *
 * @since 0.1.0
 */
export const purchaseOrderLine = (
  order: { readonly orderID: string; readonly status: string; readonly statusDescription: string }
): string =>
  `Parts order ${order.orderID}: ${
    order.statusDescription.replace(/[\r\n]+/g, " ")
  } (status ${order.status}), via Shoplink ${marker(order.orderID)}`

/**
 * The orders recorded in a job note, newest status of each (what `purchaseOrderLine` wrote).
 *
 * @example
 * import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
 * TekmetricConnector.recordedOrders(
 *   "Parts order 10423: Order submitted (status 3), via Shoplink [shoplink-order:10423]"
 * )
 * // [{ orderID: "10423", status: "3" }]
 *
 * @since 0.1.0
 */
export const recordedOrders = (
  note: string | null | undefined
): ReadonlyArray<{ readonly orderID: string; readonly status: string }> =>
  (note ?? "").split("\n").flatMap((line) => {
    const match = /\(status ([^)]*)\), via Shoplink \[shoplink-order:([^\]]+)\]$/.exec(line)
    return match === null ? [] : [{ orderID: match[2]!, status: match[1]! }]
  })

/** The note with the order's line added, or replaced when the order is there with another status. */
const notedWith = (note: string | null | undefined, line: string, orderID: string): string | undefined => {
  const lines = note === null || note === undefined || note === "" ? [] : note.split("\n")
  const at = lines.findIndex((l) => l.endsWith(marker(orderID)))
  if (at >= 0) {
    if (lines[at] === line) return undefined
    lines[at] = line
    return lines.join("\n")
  }
  return [...lines, line].join("\n")
}

const text = (
  value: string | null | undefined
): string | undefined => (value === null || value === undefined || value.trim() === "" ? undefined : value.trim())

const toShopSystemError = (operation: string) => (error: AnyTekmetricError) =>
  new ShopSystem.ShopSystemError({ operation, reason: error.message, retryable: error.retryable })

const make = Effect.gen(function*() {
  const config = yield* TekmetricConfig
  const context = yield* Effect.context<HttpClient.HttpClient>()
  const appUrl = (config.appUrl ?? config.baseUrl.replace("://api.", "://shop.")).replace(/\/+$/, "")

  // One client per shop, kept while its credentials stay the same: a token is fetched once per
  // shop and shared by its calls; re-onboarded credentials make a new client at once.
  const clientOf = yield* SmsCredentials.perShop({
    required: [CLIENT_ID_SECRET, CLIENT_SECRET_SECRET],
    optional: [SHOP_ID_SECRET],
    build: (_shopId, secrets) =>
      Effect.map(
        TekmetricClient.make({
          baseUrl: config.baseUrl,
          clientId: Redacted.value(secrets[CLIENT_ID_SECRET]!),
          clientSecret: secrets[CLIENT_SECRET_SECRET]!,
          ...(config.timeout === undefined ? {} : { timeout: config.timeout }),
          ...(config.retry === undefined ? {} : { retry: config.retry })
        }).pipe(Effect.provide(context)),
        (client) => ({ client, chosen: secrets[SHOP_ID_SECRET] })
      )
  })

  /** The shop's client and its Tekmetric shop ID, checked against the token's scope. */
  const connect = (shopId: string, operation: string) =>
    Effect.gen(function*() {
      const { chosen, client } = yield* clientOf(shopId).pipe(
        Effect.mapError((error) =>
          new ShopSystem.ShopSystemError({ operation, reason: error.message, retryable: false })
        )
      )
      const scope = yield* client.shops.pipe(Effect.mapError(toShopSystemError(operation)))
      const shop = chosen !== undefined ? Redacted.value(chosen).trim() : scope.length === 1 ? scope[0] : undefined
      if (shop === undefined || !scope.includes(shop)) {
        return yield* Effect.fail(
          toShopSystemError(operation)(new TekmetricShopNotInScope({ ...(shop === undefined ? {} : { shop }), scope }))
        )
      }
      return { client, shop }
    })

  // A repair order with its vehicle and customer, as the runtime sees it.
  const repairOrderOf = (client: TekmetricClient.Client, shop: string, operation: string, ro: Resources.RepairOrder) =>
    Effect.gen(function*() {
      const vehicle: Resources.Vehicle | undefined = ro.vehicleId === null || ro.vehicleId === undefined
        ? undefined
        : yield* client.vehicle(String(ro.vehicleId)).pipe(Effect.mapError(toShopSystemError(operation)))
      const customer: Resources.Customer | undefined = ro.customerId === null || ro.customerId === undefined
        ? undefined
        : yield* client.customer(String(ro.customerId)).pipe(Effect.mapError(toShopSystemError(operation)))
      const name = [text(customer?.firstName), text(customer?.lastName)].filter((s) => s !== undefined).join(" ")
      return {
        id: String(ro.id),
        number: String(ro.repairOrderNumber ?? ro.id),
        vehicle: {
          vin: text(vehicle?.vin),
          licensePlate: text(vehicle?.licensePlate),
          licensePlateState: text(vehicle?.state),
          year: vehicle?.year ?? undefined,
          make: text(vehicle?.make),
          model: text(vehicle?.model)
        },
        customer: customer === undefined
          ? undefined
          : { id: String(customer.id), name: name === "" ? `Customer ${customer.id}` : name },
        url: `${appUrl}/admin/shop/${encodeURIComponent(shop)}/repair-orders/${
          encodeURIComponent(String(ro.id))
        }/estimate`
      } satisfies ShopSystem.RepairOrder
    })

  const loadRepairOrder: ShopSystem.Operations["loadRepairOrder"] = ({ repairOrderId, shopId }) =>
    Effect.gen(function*() {
      const { client, shop } = yield* connect(shopId, "loadRepairOrder")
      const notFound = new ShopSystem.RepairOrderNotFound({ shopId, repairOrderId })
      if (!/^\d{1,18}$/.test(repairOrderId)) return yield* notFound
      const ro = yield* client.repairOrder(repairOrderId).pipe(
        Effect.catchIf(
          (error) => error._tag === "TekmetricError" && (error.notFound || error.status === 403),
          () => Effect.fail(notFound)
        ),
        Effect.mapError((
          error
        ) => (error._tag === "RepairOrderNotFound" ? error : toShopSystemError("loadRepairOrder")(error)))
      )
      // Another Tekmetric shop's repair order is not this shop's, even when the token reaches both.
      if (String(ro.shopId) !== shop) return yield* notFound
      const loaded = yield* repairOrderOf(client, shop, "loadRepairOrder", ro)
      const { licensePlate, licensePlateState, vin } = loaded.vehicle
      // The catalog is searched by vehicle: refuse here, in one line, before any distributor call.
      if (vin === undefined && (licensePlate === undefined || licensePlateState === undefined)) {
        return yield* new ShopSystem.ShopSystemError({
          operation: "loadRepairOrder",
          reason:
            `Tekmetric repair order ${loaded.number} has no vehicle with a VIN or a license plate and state: add one in Tekmetric before ordering parts`,
          retryable: false
        })
      }
      return loaded
    })

  // Listed as they are, without a VIN or plate too: the list says what to add before ordering.
  const listRepairOrders: NonNullable<ShopSystem.Operations["listRepairOrders"]> = ({ limit, shopId }) =>
    Effect.gen(function*() {
      const { client, shop } = yield* connect(shopId, "listRepairOrders")
      const ros = yield* client.openRepairOrders(shop, Math.max(0, Math.floor(limit))).pipe(
        Effect.mapError(toShopSystemError("listRepairOrders"))
      )
      return yield* Effect.forEach(ros, (ro) => repairOrderOf(client, shop, "listRepairOrders", ro), { concurrency: 4 })
    })

  // Tekmetric takes no part lines: the runtime never calls this for an adapter without
  // writeQuotedParts (it keeps the lines itself); a direct caller gets a clear refusal.
  const applyQuote: ShopSystem.Operations["applyQuote"] = () =>
    Effect.fail(
      new ShopSystem.ShopSystemError({
        operation: "applyQuote",
        reason: "Tekmetric's API has no part-line write",
        retryable: false
      })
    )

  // Records the distributor order on the first job's note; the lines themselves are the runtime's.
  const applyOrder: ShopSystem.Operations["applyOrder"] = (write) =>
    Effect.gen(function*() {
      const { client, shop } = yield* connect(write.shopId, "applyOrder")
      const ro = yield* loadRepairOrderShallow(client, shop, write.shopId, write.repairOrderId)
      const jobs = yield* client.jobs(shop, String(ro.id)).pipe(Effect.mapError(toShopSystemError("applyOrder")))
      const job = [...jobs].sort((a, b) => a.id - b.id)[0]
      if (job === undefined) {
        return yield* new ShopSystem.ShopSystemError({
          operation: "applyOrder",
          reason: `Tekmetric repair order ${
            String(ro.repairOrderNumber ?? ro.id)
          } has no job to record parts order ${write.orderID} on: add a job, then replay`,
          retryable: false
        })
      }
      const note = notedWith(job.note, purchaseOrderLine(write), write.orderID)
      if (note !== undefined) {
        yield* client.updateJob(String(job.id), { note }).pipe(Effect.mapError(toShopSystemError("applyOrder")))
      }
      return { added: 0, alreadyPresent: 0 }
    })

  const loadRepairOrderShallow = (
    client: TekmetricClient.Client,
    shop: string,
    shopId: string,
    repairOrderId: string
  ) =>
    Effect.gen(function*() {
      const notFound = new ShopSystem.RepairOrderNotFound({ shopId, repairOrderId })
      if (!/^\d{1,18}$/.test(repairOrderId)) return yield* notFound
      const ro = yield* client.repairOrder(repairOrderId).pipe(
        Effect.catchIf((error) => error._tag === "TekmetricError" && (error.notFound || error.status === 403), () =>
          Effect.fail(notFound)),
        Effect.mapError((
          error
        ) => (error._tag === "RepairOrderNotFound" ? error : toShopSystemError("applyOrder")(error)))
      )
      if (String(ro.shopId) !== shop) {
        return yield* notFound
      }
      return ro
    })

  return ShopSystem.ShopSystem.of({
    capabilities: new Set(CAPABILITIES),
    loadRepairOrder,
    listRepairOrders,
    applyQuote,
    applyOrder
  })
})

/**
 * The adapter's layer: a `ShopSystem` for every shop, needing `TekmetricConfig`, an `HttpClient`
 * and `SmsCredentials` (which `ConnectorRuntime` provides from its shop store).
 *
 * @example
 * import { Layer, Redacted } from "effect"
 * import { FetchHttpClient } from "@effect/platform"
 * import { SmsCredentials } from "@shoplink/connector"
 * import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
 * const shopSystem = TekmetricConnector.layer.pipe(
 *   Layer.provide(Layer.succeed(TekmetricConnector.TekmetricConfig, { baseUrl: "https://sandbox.tekmetric.com" })),
 *   Layer.provide(FetchHttpClient.layer),
 *   Layer.provide(
 *     SmsCredentials.layerStatic({ shop_1: { clientId: Redacted.make("id"), clientSecret: Redacted.make("secret") } })
 *   )
 * )
 *
 * @since 0.1.0
 */
export const layer: Layer.Layer<
  ShopSystem.ShopSystem,
  never,
  TekmetricConfig | HttpClient.HttpClient | SmsCredentials.SmsCredentials
> = Layer.effect(ShopSystem.ShopSystem, make)

/**
 * The Tekmetric connector.
 *
 * @example
 * import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
 * TekmetricConnector.connector.id // "tekmetric"
 *
 * @since 0.1.0
 */
export const connector: Connector.Connector<
  never,
  TekmetricConfig | HttpClient.HttpClient | SmsCredentials.SmsCredentials
> = Connector.defineConnector({
  id: "tekmetric",
  name: "Tekmetric",
  capabilities: CAPABILITIES,
  layer
})
