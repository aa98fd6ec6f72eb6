/**
 * A fake Shop-Ware partner API (v1) for tests, the conformance suite and the sample app, on the
 * test-kit's `FakeServer` (loopback, port 0), built from Shop-Ware's public OpenAPI rather than
 * retyped: `openapi/shop-ware-v1.subset.yml` (the served path items, verbatim, with their source
 * commit and lines) is turned by `scripts/generate-openapi.mjs` into a table of operations (method,
 * path template, success status, request and response schemas). The fake mounts one route per row,
 * refuses a body that breaks the request schema (422), and shapes each success answer to the
 * response schema — exactly its properties; `null` where it is nullable and the fake has no value,
 * else `""`, `0`, `false` or `[]` — so a field renamed in the document is renamed here, and
 * test/openapi.test.ts checks every answer against the document (docs/assumptions.md, 157–158).
 *
 * It serves the partner's authorizations (`writable` per tenant), tenants, repair orders (filtered
 * by `status`, `shop_id` and `number`; `associations[]=integrator_tags`), vehicles, customers,
 * notes and integrator tags (list, create, update), all in Shop-Ware's pages (`results`,
 * `current_page`, `total_pages`, …) from `page` and `per_page`. The OpenAPI documents no error
 * responses: the fake answers `{ "error": message }` with 401 (wrong `X-Api-Partner-Id` /
 * `X-Api-Secret`), 403 (a tenant not authorized, or a write to a read-only one), 404 and 422, and
 * 429 with `Retry-After` on demand (`inject429`) — assumptions recorded in docs/assumptions.md.
 *
 * Webhooks: a partner registers, lists, reads, updates and deletes its subscriptions on
 * `/api/v1/webhooks` (`url`, `events` such as `repair_order.updated`, `format`), and the test
 * controls `addRepairOrder`, `setState` and `deleteRepairOrder` post `repair_order.created`,
 * `.updated` and `.deleted` to the subscriptions of every partner authorized for the repair order's
 * tenant: a JSON `{ "event", "object_type", "action", "id" }` (the AsyncAPI document's payload; no
 * tenant, no signature). `deliveries()` logs each one with the status answered or the transport
 * error, `settle()` waits for those under way, and `postWebhook` sends any body (a forged one).
 *
 * @since 0.1.0
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as FakeServer from "@shoplink/connector-testkit/FakeServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import {
  API_SECRET_SECRET,
  PARTNER_ID_SECRET,
  recordedOrders,
  ShopWareConfig,
  TENANT_ID_SECRET
} from "./ShopWareConnector.js"
import { type Handler, mount } from "./internal/openapi.js"
import { OPERATIONS } from "./internal/openapi.generated.js"
import { makeWebhooks } from "./internal/webhooks.js"

/**
 * An API partner of the fake: its credentials and its authorizations, per tenant.
 *
 * @example
 * import type { FakePartner } from "@shoplink/adapter-shop-ware/testing"
 * const partner: FakePartner = { partnerId: 12, secret: "s", tenants: [{ tenantId: 1, writable: true }] }
 *
 * @since 0.1.0
 */
export interface FakePartner {
  readonly partnerId: number
  readonly secret: string
  readonly tenants: ReadonlyArray<{ readonly tenantId: number; readonly writable: boolean }>
}

/**
 * A repair order to seed, with its vehicle and customer.
 *
 * @example
 * import type { FakeRepairOrderSeed } from "@shoplink/adapter-shop-ware/testing"
 * const seed: FakeRepairOrderSeed = {
 *   tenantId: 1, shopId: 1, number: 1042, customer: { firstName: "Dana", lastName: "Reyes" },
 *   vehicle: { year: "2019", make: "Ford", model: "F-150", vin: "1FTEW1E56KFA12345" }
 * }
 *
 * @since 0.1.0
 */
export interface FakeRepairOrderSeed {
  readonly id?: number
  readonly tenantId: number
  readonly shopId: number
  readonly number: number
  readonly customer?: { readonly firstName: string; readonly lastName: string } | undefined
  readonly vehicle?: {
    readonly year?: string | undefined
    readonly make?: string | undefined
    readonly model?: string | undefined
    readonly vin?: string | undefined
    readonly plate?: string | undefined
  } | undefined
  /** `estimate`, `in_progress` (default) or `invoice`. */
  readonly state?: "estimate" | "in_progress" | "invoice"
}

/**
 * The default seed: partner 12 is authorized for tenants 1 (writable, cname `demo-auto`) and 2
 * (read-only); repair orders #1042 (a VIN), #1043 (a plate only) in tenant 1, and #2001 in
 * tenant 2, on vehicles the sandbox's catalog knows.
 *
 * @example
 * import { FAKE_SHOP_WARE_FIXTURES } from "@shoplink/adapter-shop-ware/testing"
 * FAKE_SHOP_WARE_FIXTURES.partner.partnerId // 12
 *
 * @since 0.1.0
 */
export const FAKE_SHOP_WARE_FIXTURES = {
  partner: {
    partnerId: 12,
    secret: "shop-ware-demo-secret-0001",
    tenants: [{ tenantId: 1, writable: true }, { tenantId: 2, writable: false }]
  },
  tenants: [{ id: 1, cname: "demo-auto", name: "Demo Auto" }, { id: 2, cname: "read-only-garage", name: "Read Only" }],
  repairOrders: [
    {
      id: 1042,
      tenantId: 1,
      shopId: 1,
      number: 1042,
      customer: { firstName: "Dana", lastName: "Reyes" },
      vehicle: { year: "2019", make: "Ford", model: "F-150", vin: "1FTEW1E56KFA12345", plate: "8ABC123" }
    },
    {
      id: 1043,
      tenantId: 1,
      shopId: 1,
      number: 1043,
      customer: { firstName: "Sam", lastName: "Okafor" },
      vehicle: { year: "2018", make: "Toyota", model: "Camry", plate: "TXK4521" }
    },
    {
      id: 2001,
      tenantId: 2,
      shopId: 5,
      number: 2001,
      customer: { firstName: "Ana", lastName: "Lima" },
      vehicle: { year: "2016", make: "Nissan", model: "Altima", vin: "1N4AL3APXGC123456" }
    }
  ]
} as const satisfies {
  readonly partner: FakePartner
  readonly tenants: ReadonlyArray<{ readonly id: number; readonly cname: string; readonly name: string }>
  readonly repairOrders: ReadonlyArray<FakeRepairOrderSeed>
}

/**
 * Settings of the fake.
 *
 * @example
 * import type { FakeShopWareOptions } from "@shoplink/adapter-shop-ware/testing"
 * const options: FakeShopWareOptions = { repairOrders: [] }
 *
 * @since 0.1.0
 */
export interface FakeShopWareOptions {
  readonly port?: number
  readonly host?: string
  /** API partners (default the fixtures' one). */
  readonly partners?: ReadonlyArray<FakePartner>
  /** Tenants (default the fixtures'). */
  readonly tenants?: ReadonlyArray<{ readonly id: number; readonly cname: string; readonly name: string }>
  /** Repair orders (default the fixtures'). */
  readonly repairOrders?: ReadonlyArray<FakeRepairOrderSeed>
}

/**
 * A request the fake received (no credentials in it).
 *
 * @example
 * import type { FakeShopWareRequest } from "@shoplink/adapter-shop-ware/testing"
 * const isWrite = (r: FakeShopWareRequest) => r.method !== "GET"
 *
 * @since 0.1.0
 */
export interface FakeShopWareRequest {
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  readonly status: number
}

/**
 * A note as the fake keeps it.
 *
 * @example
 * import type { FakeNote } from "@shoplink/adapter-shop-ware/testing"
 * const text = (note: FakeNote) => note.description
 *
 * @since 0.1.0
 */
export interface FakeNote {
  readonly id: number
  readonly tenantId: number
  repair_order_id: number
  description: string
  readonly created_at: string
  updated_at: string
}

/**
 * An integrator tag as the fake keeps it.
 *
 * @example
 * import type { FakeTag } from "@shoplink/adapter-shop-ware/testing"
 * const pair = (tag: FakeTag) => `${tag.name}=${tag.value}`
 *
 * @since 0.1.0
 */
export interface FakeTag {
  readonly id: number
  readonly tenantId: number
  taggable_type: string
  taggable_id: number
  name: string
  value: string
  readonly created_at: string
  updated_at: string
}

/**
 * A webhook subscription registered with the fake (`POST /api/v1/webhooks`), and the partner whose
 * credentials registered it.
 *
 * @example
 * import type { FakeShopWareWebhook } from "@shoplink/adapter-shop-ware/testing"
 * const wantsUpdates = (w: FakeShopWareWebhook) => w.events.includes("repair_order.updated")
 *
 * @since 0.1.0
 */
export interface FakeShopWareWebhook {
  readonly id: number
  readonly partnerId: number
  readonly url: string
  readonly events: ReadonlyArray<string>
  /** `null` (Shop-Ware's default format) or `"zapier"`. */
  readonly format: string | null
}

/**
 * The body of a webhook delivery, as Shop-Ware's AsyncAPI document shows it: the event
 * (`object_type.action`), its two parts and the id of the object. No tenant, no signature.
 *
 * @example
 * import type { FakeShopWareWebhookBody } from "@shoplink/adapter-shop-ware/testing"
 * const body: FakeShopWareWebhookBody = {
 *   event: "repair_order.updated", object_type: "repair_order", action: "updated", id: 1042
 * }
 *
 * @since 0.1.0
 */
export interface FakeShopWareWebhookBody {
  readonly event: string
  readonly object_type: string
  readonly action: string
  readonly id: number
}

/**
 * A webhook delivery the fake made: where to, the body (a `FakeShopWareWebhookBody`, or what
 * `postWebhook` was given), and the status the receiver answered or the transport error (both
 * `undefined` while the delivery is under way; `settle()` waits for it).
 *
 * @example
 * import type { FakeShopWareDelivery } from "@shoplink/adapter-shop-ware/testing"
 * const delivered = (d: FakeShopWareDelivery) => d.status !== undefined && d.status < 300
 *
 * @since 0.1.0
 */
export interface FakeShopWareDelivery {
  /** The subscription it was made for (`undefined` for `postWebhook`). */
  readonly webhookId: number | undefined
  readonly url: string
  readonly body: unknown
  readonly status: number | undefined
  readonly error: string | undefined
}

/**
 * The running fake.
 *
 * @example
 * import type { FakeShopWare } from "@shoplink/adapter-shop-ware/testing"
 * const writes = (fake: FakeShopWare) => fake.requests().filter((r) => r.method !== "GET").length
 *
 * @since 0.1.0
 */
export interface FakeShopWare {
  readonly url: string
  readonly requests: () => ReadonlyArray<FakeShopWareRequest>
  /** The notes of a repair order, oldest first. */
  readonly notes: (repairOrderId: number) => ReadonlyArray<FakeNote>
  /** The integrator tags on a repair order, oldest first. */
  readonly tags: (repairOrderId: number) => ReadonlyArray<FakeTag>
  /**
   * Adds a repair order (and its vehicle and customer); answers its id. Posts
   * `repair_order.created` to the webhooks subscribed to it.
   */
  readonly addRepairOrder: (seed: FakeRepairOrderSeed) => number
  /**
   * Sets a repair order's state (`estimate`, `in_progress`, `invoice`) and posts
   * `repair_order.updated` to the webhooks subscribed to it.
   */
  readonly setState: (repairOrderId: number, state: "estimate" | "in_progress" | "invoice") => void
  /**
   * Deletes a repair order (it then answers 404 and leaves the lists) and posts
   * `repair_order.deleted` to the webhooks subscribed to it.
   */
  readonly deleteRepairOrder: (repairOrderId: number) => void
  /** The webhooks registered (by every partner), oldest first. */
  readonly webhooks: () => ReadonlyArray<FakeShopWareWebhook>
  /** The webhook deliveries made, oldest first (copies; see `settle`). */
  readonly deliveries: () => ReadonlyArray<FakeShopWareDelivery>
  /** Resolves when every delivery made so far (and any made meanwhile) has an answer or an error. */
  readonly settle: () => Promise<void>
  /**
   * Posts `body` to `url` as a delivery would (JSON unless a string, sent as is): for a forged or
   * foreign body. Logged with the deliveries; resolves with its outcome, never rejects.
   */
  readonly postWebhook: (url: string, body: unknown) => Promise<FakeShopWareDelivery>
  /** The next `times` calls answer 429 with this `Retry-After` (seconds). */
  readonly inject429: (times: number, retryAfterSeconds: number) => void
  /** The next `times` writes (POST, PUT, DELETE) answer 503 (`retryable`) or 422, writing nothing. */
  readonly failNextWrites: (times: number, retryable: boolean) => void
  readonly close: () => Promise<void>
}

// Repair orders are created a minute apart, in the order they are added.
const SEED_TIME = Date.parse("2026-01-05T15:00:00.000Z")
const SEED = "2026-01-05T15:00:00Z"

interface FakeRepairOrder {
  readonly id: number
  readonly tenantId: number
  readonly shop_id: number
  readonly number: number
  state: string
  readonly customer_id: number
  readonly vehicle_id: number
  readonly created_at: string
  updated_at: string
}

// A Shop-Ware page: `results` and its counts, from `page` (1-based) and `per_page` (default 30).
const pageOf = <A>(items: ReadonlyArray<A>, query: Readonly<Record<string, string>>) => {
  const size = Math.min(Math.max(Number.parseInt(query["per_page"] ?? "30", 10) || 30, 1), 100)
  const number = Math.max(Number.parseInt(query["page"] ?? "1", 10) || 1, 1)
  const { items: results, total } = FakeServer.page(items, { offset: (number - 1) * size, size })
  return {
    results,
    limit: results.length,
    limited: total > results.length,
    total_count: total,
    current_page: number,
    total_pages: Math.max(1, Math.ceil(total / size))
  }
}

const error = (status: number, message: string, headers: Record<string, string> = {}): FakeServer.Response => ({
  status,
  body: { error: message },
  headers
})

const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.length > 0

interface Grant {
  readonly partner: FakePartner
  readonly tenantId: number | undefined
}

/**
 * Starts the fake (a Promise; see `startFakeShopWare` for the scoped Effect).
 *
 * @example
 * import { startFakeShopWareServer } from "@shoplink/adapter-shop-ware/testing"
 * const fake = await startFakeShopWareServer()
 * console.log(fake.url)
 * await fake.close()
 *
 * @since 0.1.0
 */
export const startFakeShopWareServer = async (options: FakeShopWareOptions = {}): Promise<FakeShopWare> => {
  const partners = options.partners ?? [FAKE_SHOP_WARE_FIXTURES.partner]
  const tenants = new Map((options.tenants ?? FAKE_SHOP_WARE_FIXTURES.tenants).map((t) => [t.id, t]))
  const repairOrders = new Map<number, FakeRepairOrder>()
  const vehicles = new Map<number, Record<string, unknown> & { readonly tenantId: number; readonly id: number }>()
  const customers = new Map<number, Record<string, unknown> & { readonly tenantId: number; readonly id: number }>()
  const notes = new Map<number, FakeNote>()
  const tags = new Map<number, FakeTag>()
  let nextId = 10_000
  const webhooks = makeWebhooks<Grant>({ partnerOf: (grant) => grant.partner, error: (s, m) => error(s, m) })
  // A repair-order event goes to the webhooks of every partner authorized for its tenant.
  const publish = (tenantId: number, action: string, id: number) =>
    webhooks.publish(
      new Set(partners.filter((p) => p.tenants.some((t) => t.tenantId === tenantId)).map((p) => p.partnerId)),
      "repair_order",
      action,
      id
    )
  let pending429 = { times: 0, retryAfter: 1 }
  let failingWrites = { times: 0, retryable: true }
  const stamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z")

  const addRepairOrder = (seed: FakeRepairOrderSeed): number => {
    const id = seed.id ?? nextId++
    const created = new Date(SEED_TIME + repairOrders.size * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z")
    // The document's repair order always has a `customer_id` and a `vehicle_id` (integers, not
    // nullable): a seed without one gets an empty one, answered with the document's empty values.
    const customerId = nextId++
    customers.set(customerId, {
      tenantId: seed.tenantId,
      id: customerId,
      created_at: created,
      updated_at: created,
      first_name: seed.customer?.firstName,
      last_name: seed.customer?.lastName,
      shop_ids: [seed.shopId],
      origin_shop_id: seed.shopId,
      customer_type: "individual"
    })
    const vehicleId = nextId++
    const v = seed.vehicle ?? {}
    vehicles.set(vehicleId, {
      tenantId: seed.tenantId,
      id: vehicleId,
      created_at: created,
      updated_at: created,
      plate: v.plate,
      vin: v.vin,
      year: v.year,
      make: v.make,
      model: v.model
    })
    repairOrders.set(id, {
      id,
      tenantId: seed.tenantId,
      shop_id: seed.shopId,
      number: seed.number,
      state: seed.state ?? "in_progress",
      customer_id: customerId,
      vehicle_id: vehicleId,
      created_at: created,
      updated_at: created
    })
    publish(seed.tenantId, "created", id)
    return id
  }
  for (const seed of options.repairOrders ?? FAKE_SHOP_WARE_FIXTURES.repairOrders) addRepairOrder(seed)

  const tagsOf = (tenantId: number, type: string, id: number) =>
    [...tags.values()].filter((t) => t.tenantId === tenantId && t.taggable_type === type && t.taggable_id === id)
      .map(({ tenantId: _t, ...tag }) => tag)
  const roBody = (ro: FakeRepairOrder, withTags: boolean) => {
    const { tenantId, ...body } = ro
    return withTags ? { ...body, integrator_tags: tagsOf(tenantId, "RepairOrder", ro.id) } : body
  }
  const inTenant = <A extends { readonly tenantId: number }>(row: A | undefined, grant: Grant) =>
    row !== undefined && row.tenantId === grant.tenantId ? row : undefined
  const publicRow = <A extends { readonly tenantId: number }>(row: A) => {
    const { tenantId: _t, ...rest } = row
    return rest
  }
  const idOf = (raw: string | undefined) => (raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined)

  // Both headers on every request; a tenant path needs an authorization for that tenant, and a
  // write a writable one; then the injected 429s and failing writes.
  const before = (request: FakeServer.Request): FakeServer.Response | { readonly context: Grant } => {
    const partnerId = request.headers["x-api-partner-id"]
    const secret = request.headers["x-api-secret"]
    const partner = partners.find((p) => String(p.partnerId) === partnerId && p.secret === secret)
    if (partner === undefined) return error(401, "Unauthorized")
    if (pending429.times > 0) {
      pending429.times--
      return error(429, "Too Many Requests", { "retry-after": String(pending429.retryAfter) })
    }
    const tenantMatch = /^\/api\/v1\/tenants\/([^/]+)(\/|$)/.exec(request.path)
    let tenantId: number | undefined
    if (tenantMatch !== null) {
      tenantId = idOf(tenantMatch[1])
      const authorization = partner.tenants.find((t) => t.tenantId === tenantId)
      if (authorization === undefined) return error(403, "Not authorized for this tenant")
      if (request.method !== "GET" && !authorization.writable) {
        return error(403, "Write actions are not enabled for this authorization")
      }
    }
    if (request.method !== "GET" && failingWrites.times > 0) {
      failingWrites.times--
      return failingWrites.retryable ? error(503, "Service Unavailable") : error(422, "Unprocessable Entity")
    }
    return { context: { partner, tenantId } }
  }

  // One handler per operation of the document's table (OPERATIONS, generated from the OpenAPI):
  // the body arrives checked against the operation's request schema, and a success answer leaves
  // shaped to its response schema (`mount`).
  const T = "/api/v1/tenants/{tenant_id}"
  const handlers: Record<string, Handler<Grant>> = {
    ...webhooks.handlers,
    "GET /api/v1/partners/{partner_id}/authorizations": ({ params, query }, grant) => {
      if (params.partner_id !== String(grant.partner.partnerId)) return error(403, "Forbidden")
      const rows = grant.partner.tenants.map((t, i) => ({
        id: i + 1,
        api_partner_id: grant.partner.partnerId,
        tenant_id: t.tenantId,
        writable: t.writable,
        api_tenant_id: t.tenantId
      }))
      return { status: 200, body: pageOf(rows, query) }
    },
    "GET /api/v1/tenants/{id}": ({ params }) => {
      const tenant = tenants.get(idOf(params.id) ?? -1)
      return tenant === undefined
        ? error(404, "Not Found")
        : {
          status: 200,
          body: { ...tenant, country_code: "US", subscription_status: "Active", created_at: SEED, updated_at: SEED }
        }
    },
    [`GET ${T}/repair_orders`]: ({ query }, grant) => {
      const shop = idOf(query["shop_id"])
      const number = idOf(query["number"])
      const rows = [...repairOrders.values()].filter((ro) =>
        ro.tenantId === grant.tenantId && (shop === undefined || ro.shop_id === shop) &&
        (query["status"] === undefined || query["status"] === "" || ro.state === query["status"]) &&
        (number === undefined || ro.number === number)
      ).sort((a, b) => a.id - b.id).map((ro) => roBody(ro, false))
      return { status: 200, body: pageOf(rows, query) }
    },
    [`GET ${T}/repair_orders/{id}`]: ({ params, query }, grant) => {
      const ro = inTenant(repairOrders.get(idOf(params.id) ?? -1), grant)
      if (ro === undefined) return error(404, "Not Found")
      return { status: 200, body: roBody(ro, query["associations[]"] === "integrator_tags") }
    },
    ...Object.fromEntries((["vehicles", "customers"] as const).map((table): [string, Handler<Grant>] => [
      `GET ${T}/${table}/{id}`,
      ({ params }, grant) => {
        const row = inTenant((table === "vehicles" ? vehicles : customers).get(idOf(params.id) ?? -1), grant)
        if (row === undefined) return error(404, "Not Found")
        const type = table === "vehicles" ? "Vehicle" : "Customer"
        return { status: 200, body: { ...publicRow(row), integrator_tags: tagsOf(grant.tenantId!, type, row.id) } }
      }
    ])),
    [`GET ${T}/notes`]: ({ query }, grant) => {
      const ro = idOf(query["repair_order_id"])
      const rows = [...notes.values()].filter((n) =>
        n.tenantId === grant.tenantId && (ro === undefined || n.repair_order_id === ro)
      ).sort((a, b) => a.id - b.id).map(publicRow)
      return { status: 200, body: pageOf(rows, query) }
    },
    [`POST ${T}/notes`]: (_request, grant, input) => {
      const ro = inTenant(repairOrders.get(Number(input["repair_order_id"])), grant)
      if (ro === undefined) return error(422, "repair_order_id must point to a repair order")
      if (!nonEmpty(input["description"])) return error(422, "description can't be blank")
      const now = stamp()
      const note: FakeNote = {
        id: nextId++,
        tenantId: grant.tenantId!,
        repair_order_id: ro.id,
        description: input["description"],
        created_at: now,
        updated_at: now
      }
      notes.set(note.id, note)
      return { status: 201, body: publicRow(note) }
    },
    [`PUT ${T}/notes/{id}`]: ({ params }, grant, input) => {
      const note = inTenant(notes.get(idOf(params.id) ?? -1), grant)
      if (note === undefined) return error(404, "Not Found")
      if (input["description"] !== undefined) {
        if (!nonEmpty(input["description"])) return error(422, "description can't be blank")
        note.description = input["description"]
      }
      note.updated_at = stamp()
      return { status: 200, body: publicRow(note) }
    },
    [`GET ${T}/integrator_tags`]: ({ query }, grant) => {
      const rows = [...tags.values()].filter((t) => t.tenantId === grant.tenantId).sort((a, b) => b.id - a.id)
        .map(publicRow)
      return { status: 200, body: pageOf(rows, query) }
    },
    // `taggable_type` (one of the document's enum), `taggable_id`, and non-empty `name` and `value`
    // are checked against the request schema before the handler.
    [`POST ${T}/integrator_tags`]: (_request, grant, input) => {
      const type = String(input["taggable_type"])
      const taggableId = Number(input["taggable_id"])
      if (type === "RepairOrder" && inTenant(repairOrders.get(taggableId), grant) === undefined) {
        return error(422, "taggable must exist")
      }
      const now = stamp()
      const tag: FakeTag = {
        id: nextId++,
        tenantId: grant.tenantId!,
        taggable_type: type,
        taggable_id: taggableId,
        name: String(input["name"]),
        value: String(input["value"]),
        created_at: now,
        updated_at: now
      }
      tags.set(tag.id, tag)
      return { status: 201, body: publicRow(tag) }
    },
    [`PUT ${T}/integrator_tags/{id}`]: ({ params }, grant, input) => {
      const tag = inTenant(tags.get(idOf(params.id) ?? -1), grant)
      if (tag === undefined) return error(404, "Not Found")
      for (const key of ["name", "value", "taggable_type"] as const) {
        if (typeof input[key] === "string") tag[key] = input[key]
      }
      if (typeof input["taggable_id"] === "number") tag.taggable_id = input["taggable_id"]
      tag.updated_at = stamp()
      return { status: 200, body: publicRow(tag) }
    }
  }
  const routes = mount(OPERATIONS, handlers, (status, message) => error(status, message))

  const server = await FakeServer.start({
    host: options.host,
    port: options.port,
    before,
    routes,
    notFound: () => error(404, "Not Found"),
    record: (request, status): FakeShopWareRequest => ({
      method: request.method,
      path: request.path,
      query: request.query,
      status
    })
  })
  return {
    url: server.url,
    requests: server.requests,
    notes: (id) => [...notes.values()].filter((n) => n.repair_order_id === id).sort((a, b) => a.id - b.id),
    tags: (id) =>
      [...tags.values()].filter((t) => t.taggable_type === "RepairOrder" && t.taggable_id === id).sort((a, b) =>
        a.id - b.id
      ),
    addRepairOrder,
    setState: (id, state) => {
      const ro = repairOrders.get(id)
      if (ro === undefined) return
      ro.state = state
      ro.updated_at = stamp()
      publish(ro.tenantId, "updated", id)
    },
    deleteRepairOrder: (id) => {
      const ro = repairOrders.get(id)
      if (ro === undefined) return
      repairOrders.delete(id)
      publish(ro.tenantId, "deleted", id)
    },
    webhooks: webhooks.webhooks,
    deliveries: webhooks.deliveries,
    settle: webhooks.settle,
    postWebhook: webhooks.postWebhook,
    inject429: (times, retryAfterSeconds) => {
      pending429 = { times, retryAfter: retryAfterSeconds }
    },
    failNextWrites: (times, retryable) => {
      failingWrites = { times, retryable }
    },
    close: server.close
  }
}

/**
 * Starts the fake in the current Scope (closed with it).
 *
 * @example
 * import { Effect } from "effect"
 * import { startFakeShopWare } from "@shoplink/adapter-shop-ware/testing"
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const fake = yield* startFakeShopWare()
 *   return fake.url
 * }))
 *
 * @since 0.1.0
 */
export const startFakeShopWare = (
  options: FakeShopWareOptions = {}
): Effect.Effect<FakeShopWare, never, Scope.Scope> =>
  Effect.acquireRelease(Effect.promise(() => startFakeShopWareServer(options)), (fake) => Effect.promise(fake.close))

/**
 * The shop's SMS secrets for a partner of the fake and one of its tenants.
 *
 * @example
 * import { FAKE_SHOP_WARE_FIXTURES, smsSecretsFor } from "@shoplink/adapter-shop-ware/testing"
 * const sms = smsSecretsFor(FAKE_SHOP_WARE_FIXTURES.partner, 1)
 *
 * @since 0.1.0
 */
export const smsSecretsFor = (
  partner: FakePartner,
  tenantId: number
): Record<string, Redacted.Redacted<string>> => ({
  [PARTNER_ID_SECRET]: Redacted.make(String(partner.partnerId)),
  [API_SECRET_SECRET]: Redacted.make(partner.secret),
  [TENANT_ID_SECRET]: Redacted.make(String(tenantId))
})

/**
 * What the conformance suite seeds (the shape of `@shoplink/connector-testkit`'s `Seed`).
 *
 * @example
 * import type { ConformanceSeed } from "@shoplink/adapter-shop-ware/testing"
 * const seed: ConformanceSeed = {
 *   shopId: "shop_1",
 *   repairOrders: [{ number: "1042", customer: { name: "Dana Reyes" }, vehicle: { vin: "1FTEW1E56KFA12345" } }]
 * }
 *
 * @since 0.1.0
 */
export interface ConformanceSeed {
  readonly shopId: string
  readonly repairOrders: ReadonlyArray<{
    readonly number: string
    readonly customer: { readonly name: string }
    readonly vehicle: {
      readonly vin?: string | undefined
      readonly licensePlate?: string | undefined
      readonly year?: number | undefined
      readonly make?: string | undefined
      readonly model?: string | undefined
    }
  }>
}

const CONFORMANCE_PARTNER: FakePartner = {
  partnerId: 77,
  secret: "conformance-secret-0001",
  tenants: [{ tenantId: 1, writable: true }]
}

/**
 * The conformance harness (`ConformanceSms` of `@shoplink/connector-testkit`): a fake Shop-Ware
 * per check, seeded with the suite's repair orders in tenant 1 (Shop-Ware's vehicle holds a VIN
 * and a plate without its state, no ACES base vehicle ID), the adapter pointed at it over `fetch`,
 * the partner's credentials and tenant as the shop's `smsSecrets`, and direct reads: no part lines
 * (Shop-Ware takes none), the distributor order from the repair order's integrator tags.
 *
 * @example
 * import { runConnectorConformance } from "@shoplink/connector-testkit"
 * import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
 * import { conformanceHarness } from "@shoplink/adapter-shop-ware/testing"
 * runConnectorConformance({
 *   connector: ShopWareConnector.connector,
 *   sms: conformanceHarness,
 *   vehicleIdentifiers: ["vin"]
 * })
 *
 * @since 0.1.0
 */
export const conformanceHarness = {
  setup: (seed: ConformanceSeed) =>
    Effect.gen(function*() {
      const fake = yield* startFakeShopWare({
        partners: [CONFORMANCE_PARTNER],
        tenants: [{ id: 1, cname: "conformance", name: "Conformance Auto" }],
        repairOrders: []
      })
      const ids = seed.repairOrders.map((ro) => {
        const [firstName = "", ...rest] = ro.customer.name.split(" ")
        return String(fake.addRepairOrder({
          tenantId: 1,
          shopId: 1,
          number: Number(ro.number),
          customer: { firstName, lastName: rest.join(" ") },
          vehicle: {
            year: ro.vehicle.year === undefined ? undefined : String(ro.vehicle.year),
            make: ro.vehicle.make,
            model: ro.vehicle.model,
            vin: ro.vehicle.vin,
            plate: ro.vehicle.licensePlate
          }
        }))
      })
      return {
        layer: Layer.mergeAll(
          Layer.succeed(ShopWareConfig, {
            baseUrl: fake.url,
            appUrl: `${fake.url}/app/{cname}`,
            retry: { baseDelay: "10 millis", maxDelay: "50 millis" }
          }),
          FetchHttpClient.layer
        ),
        smsSecrets: smsSecretsFor(CONFORMANCE_PARTNER, 1),
        repairOrders: { vin: ids[0] ?? "", licensePlate: ids[1] ?? "", baseVehicleID: ids[2] ?? "" },
        readLines: (_repairOrderId: string): Effect.Effect<ReadonlyArray<never>> => Effect.succeed([]),
        readOrder: (repairOrderId: string) =>
          Effect.sync(() => recordedOrders(fake.tags(Number(repairOrderId))).at(-1)),
        failNextWrites: (count: number, retryable: boolean) => Effect.sync(() => fake.failNextWrites(count, retryable)),
        // The body Shop-Ware posts about a repair order (what the fake's deliveries carry).
        repairOrderEventBody: (repairOrderId: string, action: "updated" | "deleted") =>
          JSON.stringify({
            event: `repair_order.${action}`,
            object_type: "repair_order",
            action,
            id: Number(repairOrderId)
          }),
        fake
      }
    })
}
