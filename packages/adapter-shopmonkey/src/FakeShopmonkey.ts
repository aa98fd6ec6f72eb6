/**
 * A fake Shopmonkey API v3 for tests, the conformance suite and the sample app: a real HTTP server
 * on 127.0.0.1 (port 0 by default) with the public resource and field names, stateful (services
 * and parts written through it are kept and readable through `store`), seeded with two companies
 * (each its own API key, location, customers, vehicles, orders and vendors) whose repair orders'
 * vehicles are the sandbox's fixture vehicles, bearer-key authentication that scopes every request
 * to the key's company, `limit`/`skip` pagination with `meta.hasMore` and the limit clamped at 100
 * like the real API, and `429` injection with `Retry-After`.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { ServerTimeouts } from "@shoplink/http"
import {
  COMPANY_ID,
  LOCATION_ID,
  type Row,
  SECOND_COMPANY_ID,
  SECOND_LOCATION_ID,
  SECOND_SEED_VEHICLES,
  SEED_VEHICLES,
  seedTables,
  type Tables
} from "./internal/fakeStore.js"

/**
 * The API key the fake accepts unless told otherwise (a public test fixture, not a secret).
 *
 * @example
 * import { FAKE_SHOPMONKEY_API_KEY } from "@shoplink/adapter-shopmonkey/testing"
 * FAKE_SHOPMONKEY_API_KEY // "sm-fake-key-0001"
 *
 * @since 0.1.0
 */
export const FAKE_SHOPMONKEY_API_KEY = "sm-fake-key-0001"

/**
 * The seeded repair orders and what they exercise. Order ids are stable.
 * - `vin` (#1042): 2019 Ford F-150 with the sandbox VIN and plate, customer Dana Reyes;
 * - `plate` (#1043): 2018 Toyota Camry known by plate TXK4521 / TX only, customer Sam Okafor;
 * - `yearMakeModel` (#1044): 2017 Honda Civic, no VIN or plate, customer Lee Park;
 * - `fleet` (#1045): 2020 Chevrolet Silverado 1500 (VIN and plate), business customer;
 * - `noVehicle` (#1046): no vehicle and no customer yet.
 *
 * @example
 * import { FAKE_SHOPMONKEY_FIXTURES } from "@shoplink/adapter-shopmonkey/testing"
 * FAKE_SHOPMONKEY_FIXTURES.orders.vin.id // "ord_1042"
 *
 * @since 0.1.0
 */
export const FAKE_SHOPMONKEY_FIXTURES = {
  companyId: COMPANY_ID,
  locationId: LOCATION_ID,
  orders: {
    vin: { id: "ord_1042", number: "1042", vehicle: SEED_VEHICLES.fordF150, customerName: "Dana Reyes" },
    plate: { id: "ord_1043", number: "1043", vehicle: SEED_VEHICLES.toyotaCamry, customerName: "Sam Okafor" },
    yearMakeModel: { id: "ord_1044", number: "1044", vehicle: SEED_VEHICLES.hondaCivic, customerName: "Lee Park" },
    fleet: { id: "ord_1045", number: "1045", vehicle: SEED_VEHICLES.chevroletSilverado, customerName: "Northern Garage Fleet" },
    noVehicle: { id: "ord_1046", number: "1046", vehicle: undefined, customerName: undefined }
  },
  vendors: ["NAPA Auto Parts", "Worldpac", "Local Tire Supply"]
} as const

/**
 * The fake's second company (another shop's Shopmonkey account), seeded beside
 * {@link FAKE_SHOPMONKEY_FIXTURES}: its own API key, location, customers, vehicles, vendors and
 * repair orders, numbered 52xx so a test can tell them from the first company's 104x. A request
 * with this key sees only these rows; the first company's ids answer 404, and the other way round.
 * - `vin` (#5201): 2016 Nissan Altima with a sandbox VIN and plate, customer Riley Chen;
 * - `plate` (#5202): 2021 Jeep Wrangler known by plate JEEP21 / CO only, customer Morgan Diaz;
 * - `yearMakeModel` (#5203): 2018 Subaru Outback, no VIN or plate, business customer.
 *
 * @example
 * import { FAKE_SHOPMONKEY_SECOND_COMPANY } from "@shoplink/adapter-shopmonkey/testing"
 * FAKE_SHOPMONKEY_SECOND_COMPANY.apiKey // "sm-fake-key-0002"
 * FAKE_SHOPMONKEY_SECOND_COMPANY.orders.plate.id // "ord_5202"
 *
 * @since 0.1.0
 */
export const FAKE_SHOPMONKEY_SECOND_COMPANY = {
  apiKey: "sm-fake-key-0002",
  companyId: SECOND_COMPANY_ID,
  locationId: SECOND_LOCATION_ID,
  orders: {
    vin: { id: "ord_5201", number: "5201", vehicle: SECOND_SEED_VEHICLES.nissanAltima, customerName: "Riley Chen" },
    plate: { id: "ord_5202", number: "5202", vehicle: SECOND_SEED_VEHICLES.jeepWrangler, customerName: "Morgan Diaz" },
    yearMakeModel: { id: "ord_5203", number: "5203", vehicle: SECOND_SEED_VEHICLES.subaruOutback, customerName: "Harbor Auto Body" }
  },
  vendors: ["NAPA Auto Parts", "Carquest"]
} as const

/**
 * Settings of the fake.
 *
 * @example
 * import type { FakeShopmonkeyOptions } from "@shoplink/adapter-shopmonkey/testing"
 * const options: FakeShopmonkeyOptions = { extraOrders: 250 }
 *
 * @since 0.1.0
 */
export interface FakeShopmonkeyOptions {
  readonly port?: number
  readonly host?: string
  /** The first company's bearer key (default {@link FAKE_SHOPMONKEY_API_KEY}). */
  readonly apiKey?: string
  /** The second company's bearer key (default `FAKE_SHOPMONKEY_SECOND_COMPANY.apiKey`). */
  readonly secondApiKey?: string
  /** Extra archived orders (no vehicle) of the first company seeded after its fixtures, for pagination (default 0). */
  readonly extraOrders?: number
}

/**
 * A request the fake received. Whether it carried the right bearer key is recorded, not the
 * header itself.
 *
 * @example
 * import type { FakeRequest } from "@shoplink/adapter-shopmonkey/testing"
 * const isPage = (r: FakeRequest) => r.method === "GET" && r.query.limit !== undefined
 *
 * @since 0.1.0
 */
export interface FakeRequest {
  readonly method: string
  /** Path without the query, e.g. `/v3/order/ord_1042`. */
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  /** The `Authorization` header was `Bearer <key>` with the key of one of the fake's companies. */
  readonly authorized: boolean
  /** The company that key belongs to (`undefined` when not authorized). */
  readonly companyId: string | undefined
  /** The `Authorization` header used the `Bearer` scheme (with any key). */
  readonly bearer: boolean
  readonly status: number
}

/**
 * Direct reads of one company's state (copies; changing them does not change the fake).
 *
 * @example
 * import type { FakeShopmonkeyStore } from "@shoplink/adapter-shopmonkey/testing"
 * const partNumbers = (store: FakeShopmonkeyStore, orderId: string) => store.parts(orderId).map((p) => p.partNumber)
 *
 * @since 0.1.0
 */
export interface FakeShopmonkeyStore {
  readonly orders: () => ReadonlyArray<Record<string, unknown>>
  readonly order: (id: string) => Record<string, unknown> | undefined
  readonly vehicles: () => ReadonlyArray<Record<string, unknown>>
  readonly customers: () => ReadonlyArray<Record<string, unknown>>
  readonly vendors: () => ReadonlyArray<Record<string, unknown>>
  /** Services of one order (or all), without their parts. */
  readonly services: (orderId?: string) => ReadonlyArray<Record<string, unknown>>
  /** Parts of one order (or all), in creation order. */
  readonly parts: (orderId?: string) => ReadonlyArray<Record<string, unknown>>
}

/**
 * One company of the fake: the key that authenticates as it, and its state.
 *
 * @example
 * import type { FakeShopmonkey } from "@shoplink/adapter-shopmonkey/testing"
 * const orderIdsByCompany = (fake: FakeShopmonkey) =>
 *   fake.companies.map((company) => [company.companyId, company.store.orders().map((o) => o.id)])
 *
 * @since 0.1.0
 */
export interface FakeCompany {
  readonly companyId: string
  readonly locationId: string
  /** The bearer key of this company (a public test fixture, not a secret). */
  readonly apiKey: string
  readonly store: FakeShopmonkeyStore
}

/**
 * A running fake.
 *
 * @example
 * import { Effect } from "effect"
 * import { startFakeShopmonkey } from "@shoplink/adapter-shopmonkey/testing"
 * const program = Effect.scoped(Effect.map(startFakeShopmonkey(), (fake) => fake.url))
 *
 * @since 0.1.0
 */
export interface FakeShopmonkey {
  /** Base URL including `/v3`, e.g. `http://127.0.0.1:41234/v3` (give it to `ShopmonkeyClient`). */
  readonly url: string
  /** The first company's key. */
  readonly apiKey: string
  /** The first company's state (the one {@link FAKE_SHOPMONKEY_FIXTURES} describes). */
  readonly store: FakeShopmonkeyStore
  /**
   * Every company, the first one first: `companies[1]` is {@link FAKE_SHOPMONKEY_SECOND_COMPANY}.
   */
  readonly companies: ReadonlyArray<FakeCompany>
  /** Requests received so far, oldest first. */
  readonly requests: () => ReadonlyArray<FakeRequest>
  /** Answers the next `times` requests with 429 and `Retry-After: retryAfterSeconds`. */
  readonly inject429: (times: number, retryAfterSeconds: number) => void
  /**
   * Answers the next `times` writes (POST, PUT, PATCH, DELETE) with `status` — a 5xx for an outage,
   * a 4xx for a write Shopmonkey refuses — leaving reads alone.
   */
  readonly failNextWrites: (times: number, status: number) => void
  /** Answers the next `times` requests with a 503 (no `Retry-After`). */
  readonly injectUnavailable: (times: number) => void
}

const send = (res: Http.ServerResponse, status: number, body: unknown, headers: Http.OutgoingHttpHeaders = {}) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers })
  res.end(JSON.stringify(body))
}

const failure = (res: Http.ServerResponse, status: number, message: string, code: string, headers: Http.OutgoingHttpHeaders = {}) =>
  send(res, status, { success: false, code, message }, headers)

const copy = (row: Row): Record<string, unknown> => structuredClone(row)

const matches = (row: Row, where: Record<string, unknown>) => Object.entries(where).every(([k, v]) => row[k] === v)

const MAX_LIMIT = 100

interface Company {
  readonly id: string
  readonly locationId: string
  readonly apiKey: string
}

/** Creates the fake's server and state; `listen` binds it. */
const createFake = (options: FakeShopmonkeyOptions) => {
  const companies: ReadonlyArray<Company> = [
    { id: COMPANY_ID, locationId: LOCATION_ID, apiKey: options.apiKey ?? FAKE_SHOPMONKEY_API_KEY },
    { id: SECOND_COMPANY_ID, locationId: SECOND_LOCATION_ID, apiKey: options.secondApiKey ?? FAKE_SHOPMONKEY_SECOND_COMPANY.apiKey }
  ]
  if (companies[0]!.apiKey === companies[1]!.apiKey) throw new TypeError("the fake's two companies need different API keys")
  const tables: Tables = seedTables(Math.max(0, Math.floor(options.extraOrders ?? 0)))
  const requests: Array<FakeRequest> = []
  let pending429: { times: number; retryAfter: number } = { times: 0, retryAfter: 0 }
  let pendingWriteFailures: { times: number; status: number } = { times: 0, status: 503 }
  let pending503 = 0
  let sequence = 0
  const nextId = (prefix: string) => `${prefix}_${(++sequence).toString(36).padStart(6, "0")}`
  const now = () => new Date().toISOString()

  // Every read and write is scoped to the caller's company: another company's row is "not found",
  // exactly like an id that does not exist (Shopmonkey does not reveal other tenants' ids).
  const rowsOf = (table: Map<string, Row>, company: Company) => [...table.values()].filter((r) => r.companyId === company.id)
  const rowOf = (table: Map<string, Row>, company: Company, id: string) => {
    const row = table.get(id)
    return row?.companyId === company.id ? row : undefined
  }
  const servicesOf = (company: Company, orderId?: string) =>
    rowsOf(tables.service, company).filter((s) => orderId === undefined || s.orderId === orderId)
  const partsOf = (company: Company, orderId?: string) =>
    rowsOf(tables.part, company).filter((p) => orderId === undefined || p.orderId === orderId)
  const stamp = (prefix: string, company: Company) =>
    ({ id: nextId(prefix), companyId: company.id, locationId: company.locationId, createdDate: now(), updatedDate: now() })

  const list = (res: Http.ServerResponse, rows: ReadonlyArray<Row>, query: URLSearchParams) => {
    let filtered = rows
    const whereText = query.get("where")
    if (whereText !== null) {
      let where: unknown
      try {
        where = JSON.parse(whereText)
      } catch {
        return failure(res, 400, "where must be a JSON object", "BAD_REQUEST")
      }
      if (typeof where !== "object" || where === null) return failure(res, 400, "where must be a JSON object", "BAD_REQUEST")
      filtered = rows.filter((row) => matches(row, where as Record<string, unknown>))
    }
    const limit = Math.min(MAX_LIMIT, Math.max(1, Number.parseInt(query.get("limit") ?? String(MAX_LIMIT), 10) || MAX_LIMIT))
    const skip = Math.max(0, Number.parseInt(query.get("skip") ?? "0", 10) || 0)
    const data = filtered.slice(skip, skip + limit).map(copy)
    send(res, 200, { success: true, data, meta: { total: filtered.length, hasMore: skip + data.length < filtered.length } })
  }

  const isText = (v: unknown): v is string => typeof v === "string" && v.trim() !== ""
  const isCents = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0
  const isMetadata = (v: unknown) => v === undefined || v === null || (typeof v === "object" && !Array.isArray(v))

  const createService = (res: Http.ServerResponse, company: Company, orderId: string, body: Record<string, unknown>) => {
    if (rowOf(tables.order, company, orderId) === undefined) return failure(res, 404, "order not found", "NOT_FOUND")
    if (!isText(body.name)) return failure(res, 400, "name is required", "BAD_REQUEST")
    if (!isMetadata(body.metadata)) return failure(res, 400, "metadata must be an object", "BAD_REQUEST")
    const row: Row = {
      ...stamp("svc", company),
      orderId,
      name: body.name,
      note: typeof body.note === "string" ? body.note : "",
      metadata: body.metadata ?? null,
      pricing: "LineItem",
      authorizationStatus: "NotAuthorized",
      ordinal: servicesOf(company, orderId).length + 1
    }
    tables.service.set(row.id, row)
    send(res, 200, { success: true, data: { ...copy(row), parts: [] } })
  }

  const createPart = (res: Http.ServerResponse, company: Company, orderId: string, serviceId: string, body: Record<string, unknown>) => {
    const service = rowOf(tables.service, company, serviceId)
    if (rowOf(tables.order, company, orderId) === undefined || service === undefined || service.orderId !== orderId) {
      return failure(res, 404, "service not found", "NOT_FOUND")
    }
    if (!isText(body.name)) return failure(res, 400, "name is required", "BAD_REQUEST")
    if (typeof body.quantity !== "number" || !(body.quantity > 0)) return failure(res, 400, "quantity must be positive", "BAD_REQUEST")
    for (const field of ["wholesaleCostCents", "retailCostCents", "coreChargeCents"] as const) {
      if (body[field] !== undefined && !isCents(body[field])) {
        return failure(res, 400, `${field} must be a non-negative integer number of cents`, "BAD_REQUEST")
      }
    }
    if (body.vendorId !== undefined && body.vendorId !== null && rowOf(tables.vendor, company, String(body.vendorId)) === undefined) {
      return failure(res, 400, "vendorId does not name a vendor", "BAD_REQUEST")
    }
    if (!isMetadata(body.metadata)) return failure(res, 400, "metadata must be an object", "BAD_REQUEST")
    const row: Row = {
      ...stamp("prt", company),
      orderId,
      serviceId,
      name: body.name,
      partNumber: typeof body.partNumber === "string" ? body.partNumber : "",
      quantity: body.quantity,
      wholesaleCostCents: body.wholesaleCostCents ?? null,
      retailCostCents: body.retailCostCents ?? 0,
      coreChargeCents: body.coreChargeCents ?? null,
      vendorId: body.vendorId ?? null,
      note: typeof body.note === "string" ? body.note : "",
      showPartNumber: body.showPartNumber === true,
      metadata: body.metadata ?? null,
      ordinal: partsOf(company, orderId).filter((p) => p.serviceId === serviceId).length + 1
    }
    tables.part.set(row.id, row)
    send(res, 200, { success: true, data: copy(row) })
  }

  const createVendor = (res: Http.ServerResponse, company: Company, body: Record<string, unknown>) => {
    if (!isText(body.name)) return failure(res, 400, "name is required", "BAD_REQUEST")
    const { updatedDate: _updated, ...stamped } = stamp("ven", company)
    const row: Row = { ...stamped, name: body.name, metadata: null }
    tables.vendor.set(row.id, row)
    send(res, 200, { success: true, data: copy(row) })
  }

  const route = (req: Http.IncomingMessage, res: Http.ServerResponse, company: Company, url: URL, bodyText: string) => {
    const method = req.method ?? "GET"
    const parts = url.pathname.split("/").filter((s) => s !== "").map(decodeURIComponent)
    if (parts[0] !== "v3") return failure(res, 404, "not found", "NOT_FOUND")
    const [resource, id, sub, subId, leaf] = parts.slice(1)
    let body: Record<string, unknown> = {}
    if (method === "POST" || method === "PUT") {
      try {
        const parsed = JSON.parse(bodyText === "" ? "{}" : bodyText) as unknown
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object")
        body = parsed as Record<string, unknown>
      } catch {
        return failure(res, 400, "the body must be a JSON object", "BAD_REQUEST")
      }
    }
    const tableOf = (name: string | undefined) =>
      name === "order" ? tables.order : name === "vehicle" ? tables.vehicle : name === "customer" ? tables.customer :
      name === "vendor" ? tables.vendor : undefined
    if (method === "GET" && id === undefined) {
      const table = tableOf(resource)
      if (table !== undefined) return list(res, rowsOf(table, company), url.searchParams)
    }
    if (method === "GET" && id !== undefined && sub === undefined) {
      const table = tableOf(resource)
      if (table !== undefined) {
        const row = rowOf(table, company, id)
        return row === undefined ? failure(res, 404, `${resource} not found`, "NOT_FOUND") : send(res, 200, { success: true, data: copy(row) })
      }
    }
    if (resource === "order" && id !== undefined && sub === "service") {
      if (method === "GET" && subId === undefined) {
        if (rowOf(tables.order, company, id) === undefined) return failure(res, 404, "order not found", "NOT_FOUND")
        const parts = partsOf(company, id)
        const data = servicesOf(company, id).map((s) => ({ ...copy(s), parts: parts.filter((p) => p.serviceId === s.id).map(copy) }))
        return send(res, 200, { success: true, data })
      }
      if (method === "POST" && subId === undefined) return createService(res, company, id, body)
      if (method === "POST" && subId !== undefined && leaf === "part") return createPart(res, company, id, subId, body)
    }
    if (resource === "vendor" && method === "POST" && id === undefined) return createVendor(res, company, body)
    failure(res, 404, `no route for ${method} ${url.pathname}`, "NOT_FOUND")
  }

  // The same header, request and keep-alive timeouts as every Shoplink server (a slow client cannot hold a socket).
  const server = Http.createServer(ServerTimeouts.nodeServerOptions(), (req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1")
      const header = req.headers.authorization ?? ""
      const bearer = /^Bearer\s+/i.test(header)
      const company = companies.find((c) => header === `Bearer ${c.apiKey}`)
      const record = (status: number) =>
        requests.push({
          method: req.method ?? "GET",
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          authorized: company !== undefined,
          companyId: company?.id,
          bearer,
          status
        })
      res.on("finish", () => record(res.statusCode))
      if (company === undefined) return failure(res, 401, "Unauthorized", "UNAUTHORIZED")
      if (pendingWriteFailures.times > 0 && req.method !== "GET" && req.method !== "HEAD") {
        pendingWriteFailures = { ...pendingWriteFailures, times: pendingWriteFailures.times - 1 }
        const status = pendingWriteFailures.status
        return failure(res, status, status >= 500 ? "Service Unavailable" : "Unprocessable Entity", status >= 500 ? "UNAVAILABLE" : "VALIDATION_ERROR")
      }
      if (pending429.times > 0) {
        pending429 = { ...pending429, times: pending429.times - 1 }
        return failure(res, 429, "Too Many Requests", "TOO_MANY_REQUESTS", { "retry-after": String(pending429.retryAfter) })
      }
      if (pending503 > 0) {
        pending503--
        return failure(res, 503, "Service Unavailable", "SERVICE_UNAVAILABLE")
      }
      try {
        route(req, res, company, url, Buffer.concat(chunks).toString("utf8"))
      } catch (error) {
        failure(res, 500, error instanceof Error ? error.message : "internal error", "INTERNAL")
      }
    })
  })

  const storeOf = (company: Company): FakeShopmonkeyStore => ({
    orders: () => rowsOf(tables.order, company).map(copy),
    order: (id) => {
      const row = rowOf(tables.order, company, id)
      return row === undefined ? undefined : copy(row)
    },
    vehicles: () => rowsOf(tables.vehicle, company).map(copy),
    customers: () => rowsOf(tables.customer, company).map(copy),
    vendors: () => rowsOf(tables.vendor, company).map(copy),
    services: (orderId) => servicesOf(company, orderId).map(copy),
    parts: (orderId) => partsOf(company, orderId).map(copy)
  })
  const handles: ReadonlyArray<FakeCompany> = companies.map((company) => ({
    companyId: company.id,
    locationId: company.locationId,
    apiKey: company.apiKey,
    store: storeOf(company)
  }))

  return {
    server,
    apiKey: handles[0]!.apiKey,
    store: handles[0]!.store,
    companies: handles,
    requests: () => [...requests],
    inject429: (times: number, retryAfterSeconds: number) => {
      pending429 = { times: Math.max(0, Math.floor(times)), retryAfter: Math.max(0, Math.floor(retryAfterSeconds)) }
    },
    injectUnavailable: (times: number) => {
      pending503 = Math.max(0, Math.floor(times))
    },
    failNextWrites: (times: number, status: number) => {
      pendingWriteFailures = { times: Math.max(0, Math.floor(times)), status }
    }
  }
}

const listen = (server: Http.Server, port: number, host: string) =>
  new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => {
      server.off("error", reject)
      resolve()
    })
  })

const close = (server: Http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

/**
 * A fake with a Promise API, for code that does not use Effect (`close()` when done).
 *
 * @example
 * import { startFakeShopmonkeyServer } from "@shoplink/adapter-shopmonkey/testing"
 * const fake = await startFakeShopmonkeyServer()
 * console.log(fake.url)
 * await fake.close()
 *
 * @since 0.1.0
 */
export const startFakeShopmonkeyServer = async (
  options: FakeShopmonkeyOptions = {}
): Promise<FakeShopmonkey & { readonly close: () => Promise<void> }> => {
  const fake = createFake(options)
  const host = options.host ?? "127.0.0.1"
  await listen(fake.server, options.port ?? 0, host)
  const { port } = fake.server.address() as AddressInfo
  return {
    url: `http://${host}:${port}/v3`,
    apiKey: fake.apiKey,
    store: fake.store,
    companies: fake.companies,
    requests: fake.requests,
    inject429: fake.inject429,
    injectUnavailable: fake.injectUnavailable,
    failNextWrites: fake.failNextWrites,
    close: () => close(fake.server)
  }
}

/**
 * Starts a fake for the lifetime of the scope.
 *
 * @example
 * import { Effect, Redacted } from "effect"
 * import { startFakeShopmonkey } from "@shoplink/adapter-shopmonkey/testing"
 * const program = Effect.gen(function*() {
 *   const fake = yield* startFakeShopmonkey({ extraOrders: 120 })
 *   fake.inject429(1, 2)
 *   return { baseUrl: fake.url, apiKey: Redacted.make(fake.apiKey) }
 * })
 *
 * @since 0.1.0
 */
export const startFakeShopmonkey = (options: FakeShopmonkeyOptions = {}): Effect.Effect<FakeShopmonkey, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(() => startFakeShopmonkeyServer(options)),
    (fake) => Effect.promise(() => fake.close())
  ).pipe(Effect.map(({ close: _close, ...fake }) => fake))
