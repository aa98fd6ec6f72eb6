/**
 * The Shop-Ware connector: `ShopSystem` implemented over Shop-Ware's partner API (v1), for many
 * shops, each with its own partner credentials and Shop-Ware tenant (and, when the tenant has
 * several shops, the one to use).
 *
 * What Shop-Ware's public OpenAPI allows a third party, and so what this adapter declares:
 * - `readRepairOrder` — `GET /api/v1/tenants/{tenant_id}/repair_orders/{id}`, its vehicle
 *   (`/vehicles/{id}`: VIN, plate) and customer (`/customers/{id}`);
 * - `listRepairOrders` — `GET …/repair_orders?status=` of the open states (`estimate`,
 *   `in_progress`), newest first;
 * - `recordPurchaseOrder` — each distributor order as an integrator tag on the repair order
 *   (`shoplink_order_<orderID>` = its status) plus a note (`…/notes`), idempotently: a later status
 *   updates both (`PUT`);
 * - `linkToRepairOrder` — the repair order's page in the tenant's Shop-Ware web app;
 * - `receiveRepairOrderEvents` — Shop-Ware's partner-level webhooks (`/api/v1/webhooks`):
 *   `subscribe` registers the runtime's URL for `repair_order.created`, `.updated` and `.deleted`
 *   once, and `decode` reads a delivery (`{ event, object_type, action, id }`) into the repair
 *   order's id and action; the runtime then reads the repair order again.
 *
 * A repair order whose `state` is `invoice` is `closed` (the runtime launches no punchout for it).
 *
 * Shop-Ware's parts (`services[].parts`) are read-only: no endpoint creates or updates a part
 * line, so `writeQuotedParts` and `writeOrderedParts` are not declared and the runtime keeps quoted
 * and ordered parts in its own parts ledger. Shop-Ware keeps a vehicle's plate without the state
 * that issued it, so the catalog is searched by VIN only.
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
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Resources from "./Resources.js"
import * as ShopWareClient from "./ShopWareClient.js"
import { type AnyShopWareError, ShopWareTenantNotAuthorized } from "./ShopWareError.js"

/**
 * How to reach Shop-Ware, the same for every shop: the API base URL (`https://api.shop-ware.com`),
 * the web app's URL for links to repair orders (`{cname}` is the tenant's subdomain; default
 * `https://{cname}.shop-ware.com`), and the client's timeout and retry overrides. A shop's own
 * credentials are not here: the adapter reads them per shop through `SmsCredentials`.
 *
 * @example
 * import { Layer } from "effect"
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * const config = Layer.succeed(ShopWareConnector.ShopWareConfig, { baseUrl: "https://api.shop-ware.com" })
 *
 * @since 0.1.0
 */
export class ShopWareConfig extends Context.Tag("@shoplink/adapter-shop-ware/ShopWareConfig")<ShopWareConfig, {
  readonly baseUrl: string
  readonly appUrl?: string | undefined
  readonly timeout?: ShopWareClient.Options["timeout"] | undefined
  readonly retry?: Retry.RetryPolicyInput | undefined
}>() {}

/**
 * The shop's SMS secret holding its Shop-Ware partner ID (`X-Api-Partner-Id`).
 *
 * @example
 * import { Redacted } from "effect"
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * const sms = {
 *   [ShopWareConnector.PARTNER_ID_SECRET]: Redacted.make("12"),
 *   [ShopWareConnector.API_SECRET_SECRET]: Redacted.make("partner-secret"),
 *   [ShopWareConnector.TENANT_ID_SECRET]: Redacted.make("3")
 * }
 *
 * @since 0.1.0
 */
export const PARTNER_ID_SECRET = "partnerId"

/**
 * The shop's SMS secret holding its Shop-Ware partner secret (`X-Api-Secret`).
 *
 * @example
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * ShopWareConnector.API_SECRET_SECRET // "apiSecret"
 *
 * @since 0.1.0
 */
export const API_SECRET_SECRET = "apiSecret"

/**
 * The shop's SMS secret naming its Shop-Ware tenant (`tenant_id`).
 *
 * @example
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * ShopWareConnector.TENANT_ID_SECRET // "tenantId"
 *
 * @since 0.1.0
 */
export const TENANT_ID_SECRET = "tenantId"

/**
 * The shop's optional SMS secret naming one Shop-Ware shop (`shop_id`) of the tenant: repair
 * orders are then listed, and read, only in that shop.
 *
 * @example
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * ShopWareConnector.SHOP_ID_SECRET // "shopWareShopId"
 *
 * @since 0.1.0
 */
export const SHOP_ID_SECRET = "shopWareShopId"

/**
 * What this adapter declares (see the module description).
 *
 * @example
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * ShopWareConnector.CAPABILITIES.includes("writeOrderedParts") // false
 *
 * @since 0.1.0
 */
export const CAPABILITIES: ReadonlyArray<ShopSystem.Capability> = [
  "readRepairOrder",
  "listRepairOrders",
  "recordPurchaseOrder",
  "linkToRepairOrder",
  "receiveRepairOrderEvents"
]

/**
 * The repair-order state Shop-Ware calls `invoice` (v1:13422): the adapter reads it as `closed`,
 * no longer open for parts ordering.
 *
 * @example
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * ShopWareConnector.CLOSED_STATES.includes("invoice") // true
 *
 * @since 0.1.0
 */
export const CLOSED_STATES: ReadonlyArray<string> = ["invoice"]

/**
 * The Shop-Ware events `subscribe` registers the runtime's URL for.
 *
 * @example
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * ShopWareConnector.REPAIR_ORDER_EVENTS
 * // ["repair_order.created", "repair_order.updated", "repair_order.deleted"]
 *
 * @since 0.1.0
 */
export const REPAIR_ORDER_EVENTS: ReadonlyArray<string> = [
  "repair_order.created",
  "repair_order.updated",
  "repair_order.deleted"
]

/** A body quoted in an error: one line, at most 80 characters. */
const quote = (body: string) => {
  const line = body.replace(/[\s\u0000-\u001f\u007f]+/g, " ").trim()
  return line.length > 80 ? `${line.slice(0, 80)}…` : line
}

const ACTIONS: ReadonlyArray<ShopSystem.RepairOrderEvent["action"]> = ["created", "updated", "deleted"]

/**
 * Reads the body of one Shop-Ware webhook delivery (`Resources.WebhookDelivery`; other fields
 * ignored) into the repair-order events it names: `repair_order.created`, `.updated` and
 * `.deleted` are one event each (any other repair-order action is an `updated`, since the runtime
 * reads the repair order again anyway); an event about another object (`customer.updated`, …) is
 * none. The type comes from `object_type` and `action`, else from `event`. A body that is not a
 * JSON object, names no object type, or a repair-order event without an `id` (a number or a string
 * of digits) fails in one line, not retryable. Shop-Ware sends no tenant, so the id is all the
 * delivery says.
 *
 * @example
 * import { Effect } from "effect"
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * Effect.runSync(ShopWareConnector.decodeRepairOrderEvents(
 *   `{"event":"repair_order.deleted","object_type":"repair_order","action":"deleted","id":1042}`
 * ))
 * // [{ repairOrderId: "1042", action: "deleted" }]
 *
 * @since 0.1.0
 */
export const decodeRepairOrderEvents = (
  body: string
): Effect.Effect<ReadonlyArray<ShopSystem.RepairOrderEvent>, ShopSystem.ShopSystemError> => {
  const refuse = (reason: string) =>
    Effect.fail(
      new ShopSystem.ShopSystemError({
        operation: "decodeRepairOrderEvents",
        reason: `Shop-Ware webhook body ${reason}`,
        retryable: false
      })
    )
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return refuse(`is not JSON: ${quote(body) || "empty"}`)
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return refuse(`is not a JSON object: ${quote(body)}`)
  }
  const decoded = Schema.decodeUnknownEither(Resources.WebhookDelivery)(json)
  if (Either.isLeft(decoded)) {
    return refuse(`is not Shop-Ware's delivery ({ event, object_type, action, id }): ${quote(body)}`)
  }
  const delivery = decoded.right
  const [eventType, eventAction] = (delivery.event ?? "").split(".")
  const objectType = text(delivery.object_type) ?? text(eventType)
  const action = text(delivery.action) ?? text(eventAction)
  if (objectType === undefined) return refuse(`names no event or object_type: ${quote(body)}`)
  if (objectType !== "repair_order") return Effect.succeed([])
  const id = text(delivery.id)
  if (id === undefined || !/^\d{1,18}$/.test(id)) {
    return refuse(`of ${delivery.event ?? `${objectType}.${action ?? "?"}`} has no repair order id: ${quote(body)}`)
  }
  const known = ACTIONS.find((a) => a === action)
  return Effect.succeed([{ repairOrderId: id, action: known ?? "updated" }])
}

/** The prefix of the integrator tag naming a distributor order on a repair order. */
const TAG_PREFIX = "shoplink_order_"

/**
 * The integrator tag name of a distributor order (its value is the order's status).
 *
 * @example
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * ShopWareConnector.orderTagName("10423") // "shoplink_order_10423"
 *
 * @since 0.1.0
 */
export const orderTagName = (orderID: string): string => `${TAG_PREFIX}${orderID}`

/**
 * The distributor orders recorded as integrator tags on a repair order, with their status.
 *
 * @example
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * ShopWareConnector.recordedOrders([
 *   { id: 1, taggable_type: "RepairOrder", taggable_id: 42, name: "shoplink_order_10423", value: "3" }
 * ])
 * // [{ orderID: "10423", status: "3" }]
 *
 * @since 0.1.0
 */
export const recordedOrders = (
  tags: ReadonlyArray<Resources.IntegratorTag> | null | undefined
): ReadonlyArray<{ readonly orderID: string; readonly status: string }> =>
  (tags ?? []).flatMap((tag) =>
    tag.taggable_type === "RepairOrder" && tag.name.startsWith(TAG_PREFIX)
      ? [{ orderID: tag.name.slice(TAG_PREFIX.length), status: tag.value ?? "" }]
      : []
  )

/** The marker that makes the note of an order findable. */
const marker = (orderID: string) => `[shoplink-order:${orderID}]`

/**
 * The note the adapter writes on the repair order for a distributor order.
 *
 * @example
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * ShopWareConnector.purchaseOrderNote({ orderID: "10423", status: "3", statusDescription: "Order submitted" })
 * // "Parts order 10423: Order submitted (status 3), via Shoplink [shoplink-order:10423]"
 *
 * @since 0.1.0
 */
export const purchaseOrderNote = (
  order: { readonly orderID: string; readonly status: string; readonly statusDescription: string }
): string =>
  `Parts order ${order.orderID}: ${
    order.statusDescription.replace(/[\r\n]+/g, " ")
  } (status ${order.status}), via Shoplink ${marker(order.orderID)}`

const text = (
  value: string | number | null | undefined
): string | undefined =>
  value === null || value === undefined || String(value).trim() === "" ? undefined : String(value).trim()

/** The same subscription URL: equal once parsed (case of scheme and host, default port). */
const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).href === new URL(b).href
  } catch {
    return a === b
  }
}

const toShopSystemError = (operation: string) => (error: AnyShopWareError) =>
  new ShopSystem.ShopSystemError({ operation, reason: error.message, retryable: error.retryable })

const make = Effect.gen(function*() {
  const config = yield* ShopWareConfig
  const context = yield* Effect.context<HttpClient.HttpClient>()
  const appUrl = (config.appUrl ?? "https://{cname}.shop-ware.com").replace(/\/+$/, "")

  // One client per shop, kept while its secrets stay the same; its tenant's authorization and
  // subdomain are read once per client (re-onboarded secrets make a new client at once).
  const clientOf = yield* SmsCredentials.perShop({
    required: [PARTNER_ID_SECRET, API_SECRET_SECRET, TENANT_ID_SECRET],
    optional: [SHOP_ID_SECRET],
    build: (_shopId, secrets) =>
      Effect.gen(function*() {
        const client = yield* ShopWareClient.make({
          baseUrl: config.baseUrl,
          partnerId: Redacted.value(secrets[PARTNER_ID_SECRET]!).trim(),
          apiSecret: secrets[API_SECRET_SECRET]!,
          tenantId: Redacted.value(secrets[TENANT_ID_SECRET]!).trim(),
          ...(config.timeout === undefined ? {} : { timeout: config.timeout }),
          ...(config.retry === undefined ? {} : { retry: config.retry })
        })
        const shopSecret = secrets[SHOP_ID_SECRET]
        const chosen = shopSecret === undefined ? undefined : Redacted.value(shopSecret).trim()
        return {
          client,
          shop: chosen === "" ? undefined : chosen,
          authorization: yield* Effect.cached(authorizationOf(client)),
          tenant: yield* Effect.cached(client.tenant)
        }
      }).pipe(Effect.provide(context))
  })

  /** The partner's authorization for the client's tenant: absent, read-only or writable. */
  const authorizationOf = (client: ShopWareClient.Client) =>
    Effect.map(client.authorizations, (all) => {
      const found = all.find((a) => String(a.tenant_id ?? a.api_tenant_id) === client.tenantId)
      return { authorized: found !== undefined, writable: found?.writable === true }
    })

  /**
   * The shop's client, its tenant authorized (and writable when `write`): wrong credentials and a
   * tenant that did not authorize the partner (or only for reading) are one line, not retryable.
   */
  const connect = (shopId: string, operation: string, write: boolean) =>
    Effect.gen(function*() {
      const connection = yield* clientOf(shopId).pipe(
        Effect.mapError((error) =>
          new ShopSystem.ShopSystemError({ operation, reason: error.message, retryable: false })
        )
      )
      const { authorized, writable } = yield* connection.authorization.pipe(
        Effect.mapError(toShopSystemError(operation))
      )
      if (!authorized || (write && !writable)) {
        return yield* Effect.fail(
          toShopSystemError(operation)(
            new ShopWareTenantNotAuthorized({ tenant: connection.client.tenantId, authorized, writable })
          )
        )
      }
      return connection
    })

  type Connection = Effect.Effect.Success<ReturnType<typeof connect>>

  /** The repair order, or `RepairOrderNotFound` (unknown, not a number, or another shop's). */
  const fetchRepairOrder = (connection: Connection, shopId: string, repairOrderId: string, operation: string) =>
    Effect.gen(function*() {
      const notFound = new ShopSystem.RepairOrderNotFound({ shopId, repairOrderId })
      if (!/^\d{1,18}$/.test(repairOrderId)) return yield* notFound
      const ro = yield* connection.client.repairOrder(repairOrderId).pipe(
        Effect.catchIf(
          (error) => error._tag === "ShopWareError" && (error.notFound || error.status === 403),
          () => Effect.fail(notFound)
        ),
        Effect.mapError((error) => (error._tag === "RepairOrderNotFound" ? error : toShopSystemError(operation)(error)))
      )
      if (connection.shop !== undefined && String(ro.shop_id) !== connection.shop) return yield* notFound
      return ro
    })

  // A repair order with its vehicle and customer, as the runtime sees it.
  const repairOrderOf = (connection: Connection, operation: string, ro: Resources.RepairOrder) =>
    Effect.gen(function*() {
      const { client } = connection
      const vehicle: Resources.Vehicle | undefined = ro.vehicle_id === null || ro.vehicle_id === undefined
        ? undefined
        : yield* client.vehicle(String(ro.vehicle_id)).pipe(Effect.mapError(toShopSystemError(operation)))
      const customer: Resources.Customer | undefined = ro.customer_id === null || ro.customer_id === undefined
        ? undefined
        : yield* client.customer(String(ro.customer_id)).pipe(Effect.mapError(toShopSystemError(operation)))
      const tenant = yield* connection.tenant.pipe(Effect.mapError(toShopSystemError(operation)))
      const person = [text(customer?.first_name), text(customer?.last_name)].filter((s) => s !== undefined).join(" ")
      const name = person !== "" ? person : text(customer?.business_name)
      // The document's vehicle year is text; an empty one is no year (not 0).
      const yearText = text(vehicle?.year)
      const year = yearText === undefined ? undefined : Number(yearText)
      const cname = text(tenant.cname) ?? client.tenantId
      return {
        id: String(ro.id),
        number: String(ro.number ?? ro.id),
        vehicle: {
          vin: text(vehicle?.vin),
          // Shop-Ware keeps no plate state: the plate is shown, the catalog cannot search by it.
          licensePlate: text(vehicle?.plate),
          year: year !== undefined && Number.isInteger(year) ? year : undefined,
          make: text(vehicle?.make),
          model: text(vehicle?.model)
        },
        customer: customer === undefined
          ? undefined
          : { id: String(customer.id), name: name ?? `Customer ${customer.id}` },
        url: `${appUrl.replace("{cname}", encodeURIComponent(cname))}/work_orders/${encodeURIComponent(String(ro.id))}`,
        closed: CLOSED_STATES.includes(text(ro.state) ?? "")
      } satisfies ShopSystem.RepairOrder
    })

  // A launch ends in a distributor order recorded here: the tenant must be writable, checked now,
  // before any distributor call. A repair order without a VIN is answered as it is (its page shows
  // what to add); a runtime with `requireVehicle` (ServiceApp's `withoutVehicle: "hint"`) refuses
  // to launch for it, since Shop-Ware keeps no plate state to search by.
  const loadRepairOrder: ShopSystem.Operations["loadRepairOrder"] = ({ repairOrderId, shopId }) =>
    Effect.gen(function*() {
      const connection = yield* connect(shopId, "loadRepairOrder", true)
      const ro = yield* fetchRepairOrder(connection, shopId, repairOrderId, "loadRepairOrder")
      return yield* repairOrderOf(connection, "loadRepairOrder", ro)
    })

  // Listed as they are, without a VIN too: the list says what to add before ordering.
  const listRepairOrders: NonNullable<ShopSystem.Operations["listRepairOrders"]> = ({ limit, shopId }) =>
    Effect.gen(function*() {
      const connection = yield* connect(shopId, "listRepairOrders", false)
      const ros = yield* connection.client.openRepairOrders(connection.shop, Math.max(0, Math.floor(limit))).pipe(
        Effect.mapError(toShopSystemError("listRepairOrders"))
      )
      return yield* Effect.forEach(ros, (ro) => repairOrderOf(connection, "listRepairOrders", ro), { concurrency: 4 })
    })

  // Shop-Ware takes no part lines: the runtime never calls this for an adapter without
  // writeQuotedParts (it keeps the lines itself); a direct caller gets a clear refusal.
  const applyQuote: ShopSystem.Operations["applyQuote"] = () =>
    Effect.fail(
      new ShopSystem.ShopSystemError({
        operation: "applyQuote",
        reason: "Shop-Ware's API has no part-line write (repair-order parts are read-only)",
        retryable: false
      })
    )

  // Records the distributor order as an integrator tag and a note; the lines are the runtime's.
  // Each write is skipped when already there with the same status, so a replay writes nothing.
  const applyOrder: ShopSystem.Operations["applyOrder"] = (write) =>
    Effect.gen(function*() {
      const connection = yield* connect(write.shopId, "applyOrder", true)
      const { client } = connection
      const fail = toShopSystemError("applyOrder")
      const ro = yield* fetchRepairOrder(connection, write.shopId, write.repairOrderId, "applyOrder")
      const status = write.status.trim() === "" ? "unknown" : write.status.trim()
      const tag = (ro.integrator_tags ?? []).find((t) =>
        t.taggable_type === "RepairOrder" && t.name === orderTagName(write.orderID)
      )
      if (tag === undefined) {
        yield* client.createTag({
          taggable_type: "RepairOrder",
          taggable_id: ro.id,
          name: orderTagName(write.orderID),
          value: status
        }).pipe(Effect.mapError(fail))
      } else if (tag.value !== status) {
        yield* client.updateTag(tag.id, status).pipe(Effect.mapError(fail))
      }
      const description = purchaseOrderNote(write)
      const notes = yield* client.notes(String(ro.id)).pipe(Effect.mapError(fail))
      const mine = (n: Resources.Note) =>
        n.repair_order_id === ro.id && (n.description ?? "").endsWith(marker(write.orderID))
      const note = notes.find(mine)
      if (note === undefined) {
        yield* client.createNote(ro.id, description).pipe(Effect.mapError(fail))
      } else if (note.description !== description) {
        yield* client.updateNote(note.id, description).pipe(Effect.mapError(fail))
      }
      return { added: 0, alreadyPresent: 0 }
    })

  // Webhooks are the partner's: the shop's credentials (and its tenant's authorization, read
  // only) are checked first, then the runtime's URL is subscribed unless it already is.
  const subscribe: ShopSystem.RepairOrderEvents["subscribe"] = ({ shopId, url }) =>
    Effect.gen(function*() {
      const { client } = yield* connect(shopId, "subscribeRepairOrderEvents", false)
      const fail = toShopSystemError("subscribeRepairOrderEvents")
      const existing = yield* client.webhooks.pipe(Effect.mapError(fail))
      const same = existing.find((w) => sameUrl(w.url, url))
      if (same === undefined) {
        yield* client.createWebhook({ url, events: REPAIR_ORDER_EVENTS }).pipe(Effect.mapError(fail))
        return
      }
      const missing = REPAIR_ORDER_EVENTS.filter((e) => !same.events.includes(e))
      const format = text(same.format)
      if (missing.length > 0 || format !== undefined) {
        yield* client.updateWebhook(same.id, {
          events: [...same.events, ...missing],
          ...(format === undefined ? {} : { format: null })
        }).pipe(Effect.mapError(fail))
      }
    })

  return ShopSystem.ShopSystem.of({
    capabilities: new Set(CAPABILITIES),
    loadRepairOrder,
    listRepairOrders,
    applyQuote,
    applyOrder,
    repairOrderEvents: {
      decode: ({ body }) => decodeRepairOrderEvents(body),
      subscribe
    }
  })
})

/**
 * The adapter's layer: a `ShopSystem` for every shop, needing `ShopWareConfig`, an `HttpClient`
 * and `SmsCredentials` (which `ConnectorRuntime` provides from its shop store).
 *
 * @example
 * import { Layer, Redacted } from "effect"
 * import { FetchHttpClient } from "@effect/platform"
 * import { SmsCredentials } from "@shoplink/connector"
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * const shopSystem = ShopWareConnector.layer.pipe(
 *   Layer.provide(Layer.succeed(ShopWareConnector.ShopWareConfig, { baseUrl: "https://api.shop-ware.com" })),
 *   Layer.provide(FetchHttpClient.layer),
 *   Layer.provide(SmsCredentials.layerStatic({
 *     shop_1: { partnerId: Redacted.make("12"), apiSecret: Redacted.make("secret"), tenantId: Redacted.make("3") }
 *   }))
 * )
 *
 * @since 0.1.0
 */
export const layer: Layer.Layer<
  ShopSystem.ShopSystem,
  never,
  ShopWareConfig | HttpClient.HttpClient | SmsCredentials.SmsCredentials
> = Layer.effect(ShopSystem.ShopSystem, make)

/**
 * The Shop-Ware connector.
 *
 * @example
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * ShopWareConnector.connector.id // "shop-ware"
 *
 * @since 0.1.0
 */
export const connector: Connector.Connector<
  never,
  ShopWareConfig | HttpClient.HttpClient | SmsCredentials.SmsCredentials
> = Connector.defineConnector({
  id: "shop-ware",
  name: "Shop-Ware",
  capabilities: CAPABILITIES,
  layer
})
