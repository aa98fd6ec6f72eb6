/**
 * A fake Shopmonkey API v3 for tests, the conformance suite and the sample app, on the test-kit's
 * `FakeServer` (loopback, port 0 by default; its route table below is the fake's API): the public
 * resource and field names, stateful (services and parts written through it are kept and readable
 * through `store`), seeded with two companies (each its own API key, location, customers, vehicles,
 * orders and vendors) whose repair orders' vehicles are the sandbox's fixture vehicles, bearer-key
 * authentication that scopes every request to the key's company, `limit`/`skip` pagination with
 * `meta.hasMore` and the limit clamped at 100 like the real API, and `429` injection with
 * `Retry-After`.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as FakeServer from "@shoplink/connector-testkit/FakeServer"
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
    fleet: {
      id: "ord_1045",
      number: "1045",
      vehicle: SEED_VEHICLES.chevroletSilverado,
      customerName: "Northern Garage Fleet"
    },
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
    yearMakeModel: {
      id: "ord_5203",
      number: "5203",
      vehicle: SECOND_SEED_VEHICLES.subaruOutback,
      customerName: "Harbor Auto Body"
    }
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

const send = (status: number, body: unknown, headers: Record<string, string> = {}): FakeServer.Response => ({
  status,
  body,
  headers
})

const failure = (status: number, message: string, code: string, headers: Record<string, string> = {}) =>
  send(status, { success: false, code, message }, headers)

const copy = (row: Row): Record<string, unknown> => structuredClone(row)

const matches = (row: Row, where: Record<string, unknown>) => Object.entries(where).every(([k, v]) => row[k] === v)

const MAX_LIMIT = 100

interface Company {
  readonly id: string
  readonly locationId: string
  readonly apiKey: string
}

/** Creates the fake's state and routes; `serve` starts its server. */
const createFake = (options: FakeShopmonkeyOptions) => {
  const companies: ReadonlyArray<Company> = [
    { id: COMPANY_ID, locationId: LOCATION_ID, apiKey: options.apiKey ?? FAKE_SHOPMONKEY_API_KEY },
    {
      id: SECOND_COMPANY_ID,
      locationId: SECOND_LOCATION_ID,
      apiKey: options.secondApiKey ?? FAKE_SHOPMONKEY_SECOND_COMPANY.apiKey
    }
  ]
  if (companies[0]!.apiKey === companies[1]!.apiKey) {
    throw new TypeError("the fake's two companies need different API keys")
  }
  const tables: Tables = seedTables(Math.max(0, Math.floor(options.extraOrders ?? 0)))
  let pending429: { times: number; retryAfter: number } = { times: 0, retryAfter: 0 }
  let pendingWriteFailures: { times: number; status: number } = { times: 0, status: 503 }
  let pending503 = 0
  let sequence = 0
  const nextId = (prefix: string) => `${prefix}_${(++sequence).toString(36).padStart(6, "0")}`
  const now = () => new Date().toISOString()

  // Every read and write is scoped to the caller's company: another company's row is "not found",
  // exactly like an id that does not exist (Shopmonkey does not reveal other tenants' ids).
  const rowsOf = (table: Map<string, Row>, company: Company) =>
    [...table.values()].filter((r) => r.companyId === company.id)
  const rowOf = (table: Map<string, Row>, company: Company, id: string) => {
    const row = table.get(id)
    return row?.companyId === company.id ? row : undefined
  }
  const servicesOf = (company: Company, orderId?: string) =>
    rowsOf(tables.service, company).filter((s) => orderId === undefined || s.orderId === orderId)
  const partsOf = (company: Company, orderId?: string) =>
    rowsOf(tables.part, company).filter((p) => orderId === undefined || p.orderId === orderId)
  const stamp = (prefix: string, company: Company) => ({
    id: nextId(prefix),
    companyId: company.id,
    locationId: company.locationId,
    createdDate: now(),
    updatedDate: now()
  })

  const list = (rows: ReadonlyArray<Row>, query: Readonly<Record<string, string>>) => {
    let filtered = rows
    const whereText = query["where"]
    if (whereText !== undefined) {
      let where: unknown
      try {
        where = JSON.parse(whereText)
      } catch {
        return failure(400, "where must be a JSON object", "BAD_REQUEST")
      }
      if (typeof where !== "object" || where === null) return failure(400, "where must be a JSON object", "BAD_REQUEST")
      filtered = rows.filter((row) => matches(row, where as Record<string, unknown>))
    }
    const limit = Math.min(
      MAX_LIMIT,
      Math.max(1, Number.parseInt(query["limit"] ?? String(MAX_LIMIT), 10) || MAX_LIMIT)
    )
    const skip = Math.max(0, Number.parseInt(query["skip"] ?? "0", 10) || 0)
    const { hasMore, items, total } = FakeServer.page(filtered, { offset: skip, size: limit })
    return send(200, { success: true, data: items.map(copy), meta: { total, hasMore } })
  }

  const isText = (v: unknown): v is string => typeof v === "string" && v.trim() !== ""
  const isCents = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0
  const isMetadata = (v: unknown) => v === undefined || v === null || (typeof v === "object" && !Array.isArray(v))

  const createService = (company: Company, orderId: string, body: Record<string, unknown>) => {
    if (rowOf(tables.order, company, orderId) === undefined) return failure(404, "order not found", "NOT_FOUND")
    if (!isText(body.name)) return failure(400, "name is required", "BAD_REQUEST")
    if (!isMetadata(body.metadata)) return failure(400, "metadata must be an object", "BAD_REQUEST")
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
    return send(200, { success: true, data: { ...copy(row), parts: [] } })
  }

  const createPart = (company: Company, orderId: string, serviceId: string, body: Record<string, unknown>) => {
    const service = rowOf(tables.service, company, serviceId)
    if (rowOf(tables.order, company, orderId) === undefined || service === undefined || service.orderId !== orderId) {
      return failure(404, "service not found", "NOT_FOUND")
    }
    if (!isText(body.name)) return failure(400, "name is required", "BAD_REQUEST")
    if (typeof body.quantity !== "number" || !(body.quantity > 0)) {
      return failure(400, "quantity must be positive", "BAD_REQUEST")
    }
    for (const field of ["wholesaleCostCents", "retailCostCents", "coreChargeCents"] as const) {
      if (body[field] !== undefined && !isCents(body[field])) {
        return failure(400, `${field} must be a non-negative integer number of cents`, "BAD_REQUEST")
      }
    }
    if (
      body.vendorId !== undefined && body.vendorId !== null &&
      rowOf(tables.vendor, company, String(body.vendorId)) === undefined
    ) {
      return failure(400, "vendorId does not name a vendor", "BAD_REQUEST")
    }
    if (!isMetadata(body.metadata)) return failure(400, "metadata must be an object", "BAD_REQUEST")
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
    return send(200, { success: true, data: copy(row) })
  }

  const createVendor = (company: Company, body: Record<string, unknown>) => {
    if (!isText(body.name)) return failure(400, "name is required", "BAD_REQUEST")
    const { updatedDate: _updated, ...stamped } = stamp("ven", company)
    const row: Row = { ...stamped, name: body.name, metadata: null }
    tables.vendor.set(row.id, row)
    return send(200, { success: true, data: copy(row) })
  }

  // A POST body must be a JSON object.
  const withBody =
    (handle: (request: FakeServer.Request, company: Company, body: Record<string, unknown>) => FakeServer.Response) =>
    (request: FakeServer.Request, company: Company): FakeServer.Response => {
      let body: unknown
      try {
        body = JSON.parse(request.body === "" ? "{}" : request.body)
      } catch {
        body = undefined
      }
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        return failure(400, "the body must be a JSON object", "BAD_REQUEST")
      }
      return handle(request, company, body as Record<string, unknown>)
    }

  const readable = { order: tables.order, vehicle: tables.vehicle, customer: tables.customer, vendor: tables.vendor }
  const routes: ReadonlyArray<FakeServer.Route<Company>> = [
    ...Object.entries(readable).flatMap(([resource, table]): ReadonlyArray<FakeServer.Route<Company>> => [
      { route: `GET /v3/${resource}`, handle: ({ query }, company) => list(rowsOf(table, company), query) },
      {
        route: `GET /v3/${resource}/:id`,
        handle: ({ params }, company) => {
          const row = rowOf(table, company, params.id!)
          return row === undefined
            ? failure(404, `${resource} not found`, "NOT_FOUND")
            : send(200, { success: true, data: copy(row) })
        }
      }
    ]),
    {
      route: "GET /v3/order/:id/service",
      handle: ({ params }, company) => {
        if (rowOf(tables.order, company, params.id!) === undefined) return failure(404, "order not found", "NOT_FOUND")
        const parts = partsOf(company, params.id)
        const data = servicesOf(company, params.id).map((s) => ({
          ...copy(s),
          parts: parts.filter((p) => p.serviceId === s.id).map(copy)
        }))
        return send(200, { success: true, data })
      }
    },
    {
      route: "POST /v3/order/:id/service",
      handle: withBody(({ params }, company, body) => createService(company, params.id!, body))
    },
    {
      route: "POST /v3/order/:id/service/:serviceId/part",
      handle: withBody(({ params }, company, body) => createPart(company, params.id!, params.serviceId!, body))
    },
    { route: "POST /v3/vendor", handle: withBody((_request, company, body) => createVendor(company, body)) }
  ]

  const companyOf = (request: FakeServer.Request) =>
    companies.find((c) => request.headers.authorization === `Bearer ${c.apiKey}`)

  // Authentication, then the injected faults, before any route.
  const before = (request: FakeServer.Request): FakeServer.Response | { readonly context: Company } => {
    const company = companyOf(request)
    if (company === undefined) return failure(401, "Unauthorized", "UNAUTHORIZED")
    if (pendingWriteFailures.times > 0 && request.method !== "GET" && request.method !== "HEAD") {
      pendingWriteFailures = { ...pendingWriteFailures, times: pendingWriteFailures.times - 1 }
      const status = pendingWriteFailures.status
      return failure(
        status,
        status >= 500 ? "Service Unavailable" : "Unprocessable Entity",
        status >= 500 ? "UNAVAILABLE" : "VALIDATION_ERROR"
      )
    }
    if (pending429.times > 0) {
      pending429 = { ...pending429, times: pending429.times - 1 }
      return failure(429, "Too Many Requests", "TOO_MANY_REQUESTS", { "retry-after": String(pending429.retryAfter) })
    }
    if (pending503 > 0) {
      pending503--
      return failure(503, "Service Unavailable", "SERVICE_UNAVAILABLE")
    }
    return { context: company }
  }

  const record = (request: FakeServer.Request, status: number): FakeRequest => {
    const company = companyOf(request)
    return {
      method: request.method,
      path: request.path,
      query: request.query,
      authorized: company !== undefined,
      companyId: company?.id,
      bearer: /^Bearer\s+/i.test(request.headers.authorization ?? ""),
      status
    }
  }

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
    serve: (host: string, port: number) =>
      FakeServer.start({
        host,
        port,
        before,
        routes,
        record,
        notFound: (r) => failure(404, `no route for ${r.method} ${r.path}`, "NOT_FOUND")
      }),
    apiKey: handles[0]!.apiKey,
    store: handles[0]!.store,
    companies: handles,
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
  const server = await fake.serve(options.host ?? "127.0.0.1", options.port ?? 0)
  return {
    url: `${server.url}/v3`,
    apiKey: fake.apiKey,
    store: fake.store,
    companies: fake.companies,
    requests: server.requests,
    inject429: fake.inject429,
    injectUnavailable: fake.injectUnavailable,
    failNextWrites: fake.failNextWrites,
    close: server.close
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
export const startFakeShopmonkey = (
  options: FakeShopmonkeyOptions = {}
): Effect.Effect<FakeShopmonkey, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(() => startFakeShopmonkeyServer(options)),
    (fake) => Effect.promise(() => fake.close())
  ).pipe(Effect.map(({ close: _close, ...fake }) => fake))
