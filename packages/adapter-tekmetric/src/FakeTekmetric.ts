/**
 * A fake Tekmetric API for tests, the conformance suite and the sample app, built from Tekmetric's
 * public API documentation: a real HTTP server on 127.0.0.1 (port 0 by default) with
 * - `POST /api/v1/oauth/token`: OAuth2 client credentials (HTTP Basic client ID and secret,
 *   `grant_type=client_credentials`), answering `access_token`, `token_type: "bearer"` and a
 *   `scope` listing the client's shop IDs; `expires_in` and token expiry when `tokenLifetimeSeconds`
 *   is set; 401 `{ error: "invalid_client" }` for wrong credentials;
 * - `GET /api/v1/repair-orders?shop&repairOrderStatusId&sort&sortDirection&page&size`, `/repair-orders/{id}`, `/vehicles/{id}`,
 *   `/customers/{id}`, `/jobs?shop&repairOrderId&page&size` — pages as Tekmetric answers them
 *   (`content`, `number`, `size`, `totalPages`, `totalElements`, `first`, `last`), a shop outside the
 *   token's scope 403, an unknown id 404, errors as `{ type: "ERROR", message }`;
 * - `PATCH /api/v1/jobs/{id}` taking `note` (and `name`), answering `{ type: "SUCCESS", message, data }`;
 * - a rate limit per token (`rateLimitPerMinute`, default 300 like the sandbox) answering 429 with
 *   `Retry-After`, `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`; and
 *   switches for faults (`inject429`, `failNextWrites`, `revokeTokens`).
 *
 * @since 0.1.0
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { randomUUID } from "node:crypto"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { CLIENT_ID_SECRET, CLIENT_SECRET_SECRET, recordedOrders, TekmetricConfig } from "./TekmetricConnector.js"
import { ServerTimeouts } from "@shoplink/http"

/**
 * An OAuth client of the fake: its credentials and the shops its tokens may reach.
 *
 * @example
 * import type { FakeClient } from "@shoplink/adapter-tekmetric/testing"
 * const client: FakeClient = { clientId: "shoplink-demo", clientSecret: "demo-secret", shops: [1, 2] }
 *
 * @since 0.1.0
 */
export interface FakeClient {
  readonly clientId: string
  readonly clientSecret: string
  readonly shops: ReadonlyArray<number>
}

/**
 * A repair order to seed, with its vehicle, customer and jobs.
 *
 * @example
 * import type { FakeRepairOrderSeed } from "@shoplink/adapter-tekmetric/testing"
 * const seed: FakeRepairOrderSeed = {
 *   shopId: 1, number: 1042, customer: { firstName: "Dana", lastName: "Reyes" },
 *   vehicle: { year: 2019, make: "Ford", model: "F-150", vin: "1FTEW1E56KFA12345" }, jobs: ["Oil change"]
 * }
 *
 * @since 0.1.0
 */
export interface FakeRepairOrderSeed {
  readonly id?: number
  readonly shopId: number
  readonly number: number
  readonly customer?: { readonly firstName: string; readonly lastName: string } | undefined
  readonly vehicle?: {
    readonly year?: number | undefined
    readonly make?: string | undefined
    readonly model?: string | undefined
    readonly vin?: string | undefined
    readonly licensePlate?: string | undefined
    readonly state?: string | undefined
  } | undefined
  /** Job names (default one job, "Inspection"). */
  readonly jobs?: ReadonlyArray<string>
  /** Status id: 1 Estimate, 2 Work-in-Progress (default), 3 Complete, 4 Saved for Later, 5 Posted, 6 AR, 7 Deleted. */
  readonly statusId?: number
}

/**
 * The default seed: client `shoplink-demo` reaches shops 1 and 2, client `maple-garage` shop 3;
 * repair orders #1042–#1045 in shop 1 (F-150 by VIN, Camry by plate, Civic with neither, a
 * Silverado), #2001 in shop 2 and #3001–#3002 in shop 3, vehicles that the sandbox catalog knows.
 *
 * @example
 * import { FAKE_TEKMETRIC_FIXTURES } from "@shoplink/adapter-tekmetric/testing"
 * FAKE_TEKMETRIC_FIXTURES.repairOrders.vin.id // 1042
 *
 * @since 0.1.0
 */
export const FAKE_TEKMETRIC_FIXTURES = {
  clients: {
    demo: { clientId: "shoplink-demo", clientSecret: "tekmetric-demo-secret-0001", shops: [1, 2] },
    maple: { clientId: "maple-garage", clientSecret: "tekmetric-maple-secret-0002", shops: [3] }
  },
  repairOrders: {
    vin: { id: 1042, shopId: 1, number: 1042, customer: { firstName: "Dana", lastName: "Reyes" }, vehicle: { year: 2019, make: "Ford", model: "F-150", vin: "1FTEW1E56KFA12345", licensePlate: "8ABC123", state: "CA" }, jobs: ["Front brakes"] },
    plate: { id: 1043, shopId: 1, number: 1043, customer: { firstName: "Sam", lastName: "Okafor" }, vehicle: { year: 2018, make: "Toyota", model: "Camry", licensePlate: "TXK4521", state: "TX" }, jobs: ["Oil change"] },
    noVehicle: { id: 1044, shopId: 1, number: 1044, customer: { firstName: "Lee", lastName: "Park" }, vehicle: { year: 2017, make: "Honda", model: "Civic" }, jobs: ["Diagnosis"] },
    silverado: { id: 1045, shopId: 1, number: 1045, customer: { firstName: "Northern", lastName: "Fleet" }, vehicle: { year: 2020, make: "Chevrolet", model: "Silverado 1500", vin: "3GCUYDED2LG123456", licensePlate: "CHV1500", state: "MI" }, jobs: ["Alternator", "Battery"] },
    secondShop: { id: 2001, shopId: 2, number: 2001, customer: { firstName: "Ana", lastName: "Lima" }, vehicle: { year: 2016, make: "Nissan", model: "Altima", vin: "1N4AL3APXGC123456", licensePlate: "NSN7788", state: "FL" }, jobs: ["Brakes"] },
    maple: { id: 3001, shopId: 3, number: 3001, customer: { firstName: "Jo", lastName: "Maple" }, vehicle: { year: 2021, make: "Jeep", model: "Wrangler", licensePlate: "JEEP21", state: "CO" }, jobs: ["Starter"] },
    mapleNoJob: { id: 3002, shopId: 3, number: 3002, customer: { firstName: "Kim", lastName: "Maple" }, vehicle: { year: 2016, make: "Nissan", model: "Altima", vin: "1N4AL3APXGC123456" }, jobs: [] }
  }
} as const satisfies {
  readonly clients: Record<string, FakeClient>
  readonly repairOrders: Record<string, FakeRepairOrderSeed & { readonly id: number }>
}

/**
 * Settings of the fake.
 *
 * @example
 * import type { FakeTekmetricOptions } from "@shoplink/adapter-tekmetric/testing"
 * const options: FakeTekmetricOptions = { tokenLifetimeSeconds: 3600, rateLimitPerMinute: 600 }
 *
 * @since 0.1.0
 */
export interface FakeTekmetricOptions {
  readonly port?: number
  readonly host?: string
  /** OAuth clients (default the fixtures' two). */
  readonly clients?: ReadonlyArray<FakeClient>
  /** Repair orders (default the fixtures'). */
  readonly repairOrders?: ReadonlyArray<FakeRepairOrderSeed>
  /** When set, tokens carry `expires_in` and are refused (401) once it has passed. */
  readonly tokenLifetimeSeconds?: number
  /** Requests per token per minute before 429 (default 300, the sandbox's limit). */
  readonly rateLimitPerMinute?: number
  /** Time source in epoch milliseconds (default `Date.now`), for expiry and the rate window. */
  readonly now?: () => number
  /** Delay before the token endpoint answers, in milliseconds (default 0). */
  readonly tokenDelayMillis?: number
}

/**
 * A request the fake received (no credentials in it).
 *
 * @example
 * import type { FakeTekmetricRequest } from "@shoplink/adapter-tekmetric/testing"
 * const isToken = (r: FakeTekmetricRequest) => r.path === "/api/v1/oauth/token"
 *
 * @since 0.1.0
 */
export interface FakeTekmetricRequest {
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  readonly status: number
}

/**
 * A job as the fake keeps it.
 *
 * @example
 * import type { FakeJob } from "@shoplink/adapter-tekmetric/testing"
 * const noted = (job: FakeJob) => job.note !== null
 *
 * @since 0.1.0
 */
export interface FakeJob {
  readonly id: number
  readonly repairOrderId: number
  readonly shopId: number
  name: string
  note: string | null
}

/**
 * The running fake.
 *
 * @example
 * import type { FakeTekmetric } from "@shoplink/adapter-tekmetric/testing"
 * const tokens = (fake: FakeTekmetric) => fake.requests().filter((r) => r.path === "/api/v1/oauth/token").length
 *
 * @since 0.1.0
 */
export interface FakeTekmetric {
  readonly url: string
  readonly requests: () => ReadonlyArray<FakeTekmetricRequest>
  /** How many tokens the token endpoint issued. */
  readonly tokensIssued: () => number
  /** The jobs of a repair order, by id. */
  readonly jobs: (repairOrderId: number) => ReadonlyArray<FakeJob>
  /** Adds a repair order (and its vehicle, customer and jobs); answers its id. */
  readonly addRepairOrder: (seed: FakeRepairOrderSeed) => number
  /** The next `times` API calls (not the token endpoint) answer 429 with this `Retry-After`. */
  readonly inject429: (times: number, retryAfterSeconds: number) => void
  /** The next `times` job PATCHes answer 503 (`retryable`) or 400, writing nothing. */
  readonly failNextWrites: (times: number, retryable: boolean) => void
  /** Every issued token is refused from now on (as after a revocation). */
  readonly revokeTokens: () => void
  readonly close: () => Promise<void>
}

const STATUSES: Readonly<Record<number, readonly [code: string, name: string]>> = {
  1: ["ESTIMATE", "Estimate"],
  2: ["WORKINPROGRESS", "Work-in-Progress"],
  3: ["COMPLETE", "Complete"],
  4: ["SAVEDFORLATER", "Saved for Later"],
  5: ["POSTED", "Posted"],
  6: ["ACCOUNTSRECEIVABLE", "Accounts Receivable"],
  7: ["DELETED", "Deleted"]
}

// Repair orders are created a minute apart, in the order they are added.
const SEED_TIME = Date.parse("2026-01-05T15:00:00.000Z")

interface FakeRepairOrder {
  id: number
  shopId: number
  repairOrderNumber: number
  customerId: number | null
  vehicleId: number | null
  createdDate: string
  repairOrderStatus: { readonly id: number; readonly code: string; readonly name: string }
}

interface State {
  readonly repairOrders: Map<number, FakeRepairOrder>
  readonly vehicles: Map<number, Record<string, unknown>>
  readonly customers: Map<number, Record<string, unknown>>
  readonly jobs: Map<number, FakeJob>
  nextId: number
}

const json = (response: Http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { "content-type": "application/json", ...headers })
  response.end(JSON.stringify(body))
}

const page = <A>(items: ReadonlyArray<A>, query: Record<string, string>) => {
  const size = Math.min(Math.max(Number.parseInt(query["size"] ?? "10", 10) || 10, 1), 100)
  const number = Math.max(Number.parseInt(query["page"] ?? "0", 10) || 0, 0)
  const totalPages = Math.ceil(items.length / size)
  const content = items.slice(number * size, number * size + size)
  return {
    content,
    pageable: { pageNumber: number, pageSize: size },
    totalPages,
    totalElements: items.length,
    last: number + 1 >= totalPages,
    first: number === 0,
    size,
    number,
    numberOfElements: content.length,
    empty: content.length === 0
  }
}

const readBody = (request: Http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

/**
 * Starts the fake (a Promise; see `startFakeTekmetric` for the scoped Effect).
 *
 * @example
 * import { startFakeTekmetricServer } from "@shoplink/adapter-tekmetric/testing"
 * const fake = await startFakeTekmetricServer()
 * console.log(fake.url)
 * await fake.close()
 *
 * @since 0.1.0
 */
export const startFakeTekmetricServer = async (options: FakeTekmetricOptions = {}): Promise<FakeTekmetric> => {
  const now = options.now ?? Date.now
  const clients = options.clients ?? Object.values(FAKE_TEKMETRIC_FIXTURES.clients)
  const limit = options.rateLimitPerMinute ?? 300
  const state: State = { repairOrders: new Map(), vehicles: new Map(), customers: new Map(), jobs: new Map(), nextId: 10_000 }
  const tokens = new Map<string, { readonly shops: ReadonlyArray<number>; readonly expiresAt: number | undefined; window: number; count: number }>()
  const log: Array<FakeTekmetricRequest> = []
  let issued = 0
  let pending429: { times: number; retryAfter: number } = { times: 0, retryAfter: 0 }
  let failingWrites: { times: number; retryable: boolean } = { times: 0, retryable: true }

  const addRepairOrder = (seed: FakeRepairOrderSeed): number => {
    const id = seed.id ?? state.nextId++
    let vehicleId: number | null = null
    let customerId: number | null = null
    if (seed.customer !== undefined) {
      customerId = state.nextId++
      state.customers.set(customerId, { id: customerId, shopId: seed.shopId, firstName: seed.customer.firstName, lastName: seed.customer.lastName })
    }
    if (seed.vehicle !== undefined) {
      vehicleId = state.nextId++
      const v = seed.vehicle
      state.vehicles.set(vehicleId, {
        id: vehicleId,
        customerId,
        year: v.year ?? null,
        make: v.make ?? null,
        model: v.model ?? null,
        subModel: null,
        vin: v.vin ?? null,
        licensePlate: v.licensePlate ?? null,
        state: v.state ?? null
      })
    }
    const statusId = seed.statusId ?? 2
    const [code, name] = STATUSES[statusId] ?? ["UNKNOWN", "Unknown"]
    state.repairOrders.set(id, {
      id,
      shopId: seed.shopId,
      repairOrderNumber: seed.number,
      customerId,
      vehicleId,
      createdDate: new Date(SEED_TIME + state.repairOrders.size * 60_000).toISOString(),
      repairOrderStatus: { id: statusId, code, name }
    })
    for (const name of seed.jobs ?? ["Inspection"]) {
      const jobId = state.nextId++
      state.jobs.set(jobId, { id: jobId, repairOrderId: id, shopId: seed.shopId, name, note: null })
    }
    return id
  }
  for (const seed of options.repairOrders ?? Object.values(FAKE_TEKMETRIC_FIXTURES.repairOrders)) addRepairOrder(seed)

  const error = (response: Http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) =>
    json(response, status, { type: "ERROR", message, data: null }, headers)

  const handle = async (request: Http.IncomingMessage, response: Http.ServerResponse): Promise<number> => {
    const url = new URL(request.url ?? "/", "http://fake")
    const query = Object.fromEntries(url.searchParams)
    const path = url.pathname

    // --- OAuth2 client credentials ---
    if (path === "/api/v1/oauth/token") {
      if (request.method !== "POST") return (error(response, 405, "Method Not Allowed"), 405)
      const body = new URLSearchParams(await readBody(request))
      const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? "")
      const [id, secret] = basic === null ? [] : Buffer.from(basic[1]!, "base64").toString("utf8").split(":")
      const client = clients.find((c) => c.clientId === id && c.clientSecret === secret)
      if (options.tokenDelayMillis) await new Promise((resolve) => setTimeout(resolve, options.tokenDelayMillis))
      if (body.get("grant_type") !== "client_credentials") {
        return (json(response, 400, { error: "unsupported_grant_type", error_description: "Unsupported grant type" }), 400)
      }
      if (client === undefined) return (json(response, 401, { error: "invalid_client", error_description: "Bad client credentials" }), 401)
      const token = `tok-${randomUUID()}`
      const lifetime = options.tokenLifetimeSeconds
      tokens.set(token, { shops: client.shops, expiresAt: lifetime === undefined ? undefined : now() + lifetime * 1000, window: 0, count: 0 })
      issued++
      return (json(response, 200, {
        access_token: token,
        token_type: "bearer",
        scope: client.shops.join(" "),
        ...(lifetime === undefined ? {} : { expires_in: lifetime })
      }), 200)
    }

    // --- Bearer token, rate limit ---
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1]
    const grant = bearer === undefined ? undefined : tokens.get(bearer)
    if (grant === undefined || (grant.expiresAt !== undefined && now() >= grant.expiresAt)) {
      return (json(response, 401, { error: "invalid_token", error_description: "Access token expired or invalid" }), 401)
    }
    const window = Math.floor(now() / 60_000)
    if (grant.window !== window) {
      grant.window = window
      grant.count = 0
    }
    grant.count++
    const reset = String((window + 1) * 60)
    const rateHeaders = { "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": String(Math.max(0, limit - grant.count)), "x-ratelimit-reset": reset }
    if (pending429.times > 0 || grant.count > limit) {
      if (pending429.times > 0) pending429.times--
      const retryAfter = pending429.retryAfter > 0 ? pending429.retryAfter : Math.max(1, (window + 1) * 60 - Math.floor(now() / 1000))
      return (error(response, 429, "Too Many Requests", { ...rateHeaders, "x-ratelimit-remaining": "0", "retry-after": String(retryAfter) }), 429)
    }
    const inScope = (shopId: number) => grant.shops.includes(shopId)

    // --- Resources ---
    let match: RegExpExecArray | null
    if (request.method === "GET" && path === "/api/v1/repair-orders") {
      const shop = Number(query["shop"])
      if (!inScope(shop)) return (error(response, 403, `Access denied to shop ${query["shop"] ?? ""}`), 403)
      const statuses = query["repairOrderStatusId"]?.split(",").map(Number)
      const direction = query["sortDirection"] === "DESC" ? -1 : 1
      const rows = [...state.repairOrders.values()]
        .filter((ro) => ro.shopId === shop && (statuses === undefined || statuses.includes(ro.repairOrderStatus.id)))
        .sort((a, b) => query["sort"] === "createdDate" ? direction * a.createdDate.localeCompare(b.createdDate) : a.id - b.id)
      return (json(response, 200, page(rows, query), rateHeaders), 200)
    }
    if (request.method === "GET" && (match = /^\/api\/v1\/repair-orders\/(\d+)$/.exec(path)) !== null) {
      const ro = state.repairOrders.get(Number(match[1]))
      if (ro === undefined) return (error(response, 404, "Repair order not found"), 404)
      if (!inScope(ro.shopId)) return (error(response, 403, "Access denied"), 403)
      return (json(response, 200, ro, rateHeaders), 200)
    }
    if (request.method === "GET" && (match = /^\/api\/v1\/(vehicles|customers)\/(\d+)$/.exec(path)) !== null) {
      const table = match[1] === "vehicles" ? state.vehicles : state.customers
      const row = table.get(Number(match[2]))
      if (row === undefined) return (error(response, 404, `${match[1] === "vehicles" ? "Vehicle" : "Customer"} not found`), 404)
      return (json(response, 200, row, rateHeaders), 200)
    }
    if (request.method === "GET" && path === "/api/v1/jobs") {
      const shop = Number(query["shop"])
      if (!inScope(shop)) return (error(response, 403, `Access denied to shop ${query["shop"] ?? ""}`), 403)
      const roId = query["repairOrderId"] === undefined ? undefined : Number(query["repairOrderId"])
      const rows = [...state.jobs.values()].filter((j) => j.shopId === shop && (roId === undefined || j.repairOrderId === roId))
        .sort((a, b) => a.id - b.id)
      return (json(response, 200, page(rows, query), rateHeaders), 200)
    }
    if (request.method === "PATCH" && (match = /^\/api\/v1\/jobs\/(\d+)$/.exec(path)) !== null) {
      const raw = await readBody(request)
      const job = state.jobs.get(Number(match[1]))
      if (job === undefined) return (error(response, 404, "Job not found"), 404)
      if (!inScope(job.shopId)) return (error(response, 403, "Access denied"), 403)
      if (failingWrites.times > 0) {
        failingWrites.times--
        return failingWrites.retryable
          ? (error(response, 503, "Service Unavailable"), 503)
          : (error(response, 400, "Job cannot be updated"), 400)
      }
      let body: Record<string, unknown>
      try {
        body = JSON.parse(raw) as Record<string, unknown>
      } catch {
        return (error(response, 400, "Malformed JSON request"), 400)
      }
      if (body["note"] !== undefined && body["note"] !== null && typeof body["note"] !== "string") {
        return (error(response, 400, "note must be a string"), 400)
      }
      if (typeof body["note"] === "string" || body["note"] === null) job.note = body["note"] as string | null
      if (typeof body["name"] === "string") job.name = body["name"]
      return (json(response, 200, { type: "SUCCESS", message: "Job updated", data: job }, rateHeaders), 200)
    }
    return (error(response, 404, "Not Found"), 404)
  }

  // The same header, request and keep-alive timeouts as every Shoplink server (a slow client cannot hold a socket).
  const server = Http.createServer(ServerTimeouts.nodeServerOptions(), (request, response) => {
    const url = new URL(request.url ?? "/", "http://fake")
    handle(request, response).then(
      (status) => log.push({ method: request.method ?? "GET", path: url.pathname, query: Object.fromEntries(url.searchParams), status }),
      () => {
        if (!response.headersSent) json(response, 500, { type: "ERROR", message: "Internal Server Error" })
      }
    )
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    requests: () => [...log],
    tokensIssued: () => issued,
    jobs: (repairOrderId) => [...state.jobs.values()].filter((j) => j.repairOrderId === repairOrderId).sort((a, b) => a.id - b.id),
    addRepairOrder,
    inject429: (times, retryAfterSeconds) => {
      pending429 = { times, retryAfter: retryAfterSeconds }
    },
    failNextWrites: (times, retryable) => {
      failingWrites = { times, retryable }
    },
    revokeTokens: () => tokens.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/**
 * Starts the fake in the current Scope (closed with it).
 *
 * @example
 * import { Effect } from "effect"
 * import { startFakeTekmetric } from "@shoplink/adapter-tekmetric/testing"
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const fake = yield* startFakeTekmetric()
 *   return fake.url
 * }))
 *
 * @since 0.1.0
 */
export const startFakeTekmetric = (options: FakeTekmetricOptions = {}): Effect.Effect<FakeTekmetric, never, Scope.Scope> =>
  Effect.acquireRelease(Effect.promise(() => startFakeTekmetricServer(options)), (fake) => Effect.promise(fake.close))

/**
 * What the conformance suite seeds (the shape of `@shoplink/connector-testkit`'s `Seed`).
 *
 * @example
 * import type { ConformanceSeed } from "@shoplink/adapter-tekmetric/testing"
 * const seed: ConformanceSeed = { shopId: "shop_1", repairOrders: [{ number: "1042", customer: { name: "Dana Reyes" }, vehicle: { vin: "1FTEW1E56KFA12345" } }] }
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
      readonly licensePlateState?: string | undefined
      readonly year?: number | undefined
      readonly make?: string | undefined
      readonly model?: string | undefined
    }
  }>
}

const CONFORMANCE_CLIENT: FakeClient = { clientId: "conformance-client", clientSecret: "conformance-secret-0001", shops: [1] }

/**
 * The conformance harness (`ConformanceSms` of `@shoplink/connector-testkit`): a fake Tekmetric
 * per check, seeded with the suite's repair orders in Tekmetric shop 1 (one job each; Tekmetric's
 * vehicle holds a VIN, a plate and its state, no ACES base vehicle ID), the adapter pointed at it
 * over `fetch`, the client credentials as the shop's `smsSecrets`, and direct reads: no part lines
 * (Tekmetric takes none), the distributor order from the first job's note.
 *
 * @example
 * import { runConnectorConformance } from "@shoplink/connector-testkit"
 * import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
 * import { conformanceHarness } from "@shoplink/adapter-tekmetric/testing"
 * runConnectorConformance({ connector: TekmetricConnector.connector, sms: conformanceHarness, vehicleIdentifiers: ["vin", "licensePlate"] })
 *
 * @since 0.1.0
 */
export const conformanceHarness = {
  setup: (seed: ConformanceSeed) =>
    Effect.gen(function*() {
      const fake = yield* startFakeTekmetric({ clients: [CONFORMANCE_CLIENT], repairOrders: [] })
      const ids = seed.repairOrders.map((ro, i) => {
        const [firstName = "", ...rest] = ro.customer.name.split(" ")
        return String(fake.addRepairOrder({
          shopId: 1,
          number: Number(ro.number),
          customer: { firstName, lastName: rest.join(" ") },
          vehicle: {
            year: ro.vehicle.year,
            make: ro.vehicle.make,
            model: ro.vehicle.model,
            vin: ro.vehicle.vin,
            licensePlate: ro.vehicle.licensePlate,
            state: ro.vehicle.licensePlateState
          },
          jobs: [`Job ${i + 1}`]
        }))
      })
      return {
        layer: Layer.mergeAll(
          Layer.succeed(TekmetricConfig, { baseUrl: fake.url, retry: { baseDelay: "10 millis", maxDelay: "50 millis" } }),
          FetchHttpClient.layer
        ),
        smsSecrets: {
          [CLIENT_ID_SECRET]: Redacted.make(CONFORMANCE_CLIENT.clientId),
          [CLIENT_SECRET_SECRET]: Redacted.make(CONFORMANCE_CLIENT.clientSecret)
        },
        repairOrders: { vin: ids[0] ?? "", licensePlate: ids[1] ?? "", baseVehicleID: ids[2] ?? "" },
        readLines: (_repairOrderId: string): Effect.Effect<ReadonlyArray<never>> => Effect.succeed([]),
        readOrder: (repairOrderId: string) => Effect.sync(() => recordedOrders(fake.jobs(Number(repairOrderId))[0]?.note).at(-1)),
        failNextWrites: (count: number, retryable: boolean) => Effect.sync(() => fake.failNextWrites(count, retryable)),
        fake
      }
    })
}
