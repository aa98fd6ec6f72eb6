/**
 * A fake Tekmetric API for tests, the conformance suite and the sample app, built from Tekmetric's
 * public API documentation, on the test-kit's `FakeServer` (loopback, port 0): its route table
 * below is the fake's API — the OAuth2 client-credentials token (scope: the client's shop IDs,
 * optional expiry), repair orders (filtered by open status, sorted by creation date), vehicles,
 * customers, jobs and the job-note PATCH, in Tekmetric's pages and `{ type: "ERROR", message }`
 * errors; a shop outside the token's scope 403, an unknown id 404; a rate limit per token with
 * Tekmetric's `X-RateLimit-*` headers; and fault switches (`inject429`, `failNextWrites`,
 * `revokeTokens`).
 *
 * @since 0.1.0
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { randomUUID } from "node:crypto"
import { CLIENT_ID_SECRET, CLIENT_SECRET_SECRET, recordedOrders, TekmetricConfig } from "./TekmetricConnector.js"
import * as FakeServer from "@shoplink/connector-testkit/FakeServer"

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
    vin: {
      id: 1042,
      shopId: 1,
      number: 1042,
      customer: { firstName: "Dana", lastName: "Reyes" },
      vehicle: {
        year: 2019,
        make: "Ford",
        model: "F-150",
        vin: "1FTEW1E56KFA12345",
        licensePlate: "8ABC123",
        state: "CA"
      },
      jobs: ["Front brakes"]
    },
    plate: {
      id: 1043,
      shopId: 1,
      number: 1043,
      customer: { firstName: "Sam", lastName: "Okafor" },
      vehicle: { year: 2018, make: "Toyota", model: "Camry", licensePlate: "TXK4521", state: "TX" },
      jobs: ["Oil change"]
    },
    noVehicle: {
      id: 1044,
      shopId: 1,
      number: 1044,
      customer: { firstName: "Lee", lastName: "Park" },
      vehicle: { year: 2017, make: "Honda", model: "Civic" },
      jobs: ["Diagnosis"]
    },
    silverado: {
      id: 1045,
      shopId: 1,
      number: 1045,
      customer: { firstName: "Northern", lastName: "Fleet" },
      vehicle: {
        year: 2020,
        make: "Chevrolet",
        model: "Silverado 1500",
        vin: "3GCUYDED2LG123456",
        licensePlate: "CHV1500",
        state: "MI"
      },
      jobs: ["Alternator", "Battery"]
    },
    secondShop: {
      id: 2001,
      shopId: 2,
      number: 2001,
      customer: { firstName: "Ana", lastName: "Lima" },
      vehicle: {
        year: 2016,
        make: "Nissan",
        model: "Altima",
        vin: "1N4AL3APXGC123456",
        licensePlate: "NSN7788",
        state: "FL"
      },
      jobs: ["Brakes"]
    },
    maple: {
      id: 3001,
      shopId: 3,
      number: 3001,
      customer: { firstName: "Jo", lastName: "Maple" },
      vehicle: { year: 2021, make: "Jeep", model: "Wrangler", licensePlate: "JEEP21", state: "CO" },
      jobs: ["Starter"]
    },
    mapleNoJob: {
      id: 3002,
      shopId: 3,
      number: 3002,
      customer: { firstName: "Kim", lastName: "Maple" },
      vehicle: { year: 2016, make: "Nissan", model: "Altima", vin: "1N4AL3APXGC123456" },
      jobs: []
    }
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

const TOKEN_PATH = "/api/v1/oauth/token"

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

// A Tekmetric page (Spring's): `content` and its numbers, from `page` (0-based) and `size` (≤ 100).
const pageOf = <A>(items: ReadonlyArray<A>, query: Readonly<Record<string, string>>) => {
  const size = Math.min(Math.max(Number.parseInt(query["size"] ?? "10", 10) || 10, 1), 100)
  const number = Math.max(Number.parseInt(query["page"] ?? "0", 10) || 0, 0)
  const { items: content, total } = FakeServer.page(items, { offset: number * size, size })
  const totalPages = Math.ceil(total / size)
  return {
    content,
    pageable: { pageNumber: number, pageSize: size },
    totalPages,
    totalElements: total,
    last: number + 1 >= totalPages,
    first: number === 0,
    size,
    number,
    numberOfElements: content.length,
    empty: content.length === 0
  }
}

const error = (status: number, message: string, headers: Record<string, string> = {}): FakeServer.Response => ({
  status,
  body: { type: "ERROR", message, data: null },
  headers
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
  const state: State = {
    repairOrders: new Map(),
    vehicles: new Map(),
    customers: new Map(),
    jobs: new Map(),
    nextId: 10_000
  }
  const tokens = new Map<
    string,
    { readonly shops: ReadonlyArray<number>; readonly expiresAt: number | undefined; window: number; count: number }
  >()
  let issued = 0
  let pending429: { times: number; retryAfter: number } = { times: 0, retryAfter: 0 }
  let failingWrites: { times: number; retryable: boolean } = { times: 0, retryable: true }

  const addRepairOrder = (seed: FakeRepairOrderSeed): number => {
    const id = seed.id ?? state.nextId++
    let vehicleId: number | null = null
    let customerId: number | null = null
    if (seed.customer !== undefined) {
      customerId = state.nextId++
      state.customers.set(customerId, {
        id: customerId,
        shopId: seed.shopId,
        firstName: seed.customer.firstName,
        lastName: seed.customer.lastName
      })
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

  // The token endpoint answers before any bearer check; every other route needs a live token.
  const issueToken = async (request: FakeServer.Request): Promise<FakeServer.Response> => {
    const body = new URLSearchParams(request.body)
    const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? "")
    const [id, secret] = basic === null ? [] : Buffer.from(basic[1]!, "base64").toString("utf8").split(":")
    const client = clients.find((c) => c.clientId === id && c.clientSecret === secret)
    if (options.tokenDelayMillis) await new Promise((resolve) => setTimeout(resolve, options.tokenDelayMillis))
    if (body.get("grant_type") !== "client_credentials") {
      return { status: 400, body: { error: "unsupported_grant_type", error_description: "Unsupported grant type" } }
    }
    if (client === undefined) {
      return { status: 401, body: { error: "invalid_client", error_description: "Bad client credentials" } }
    }
    const token = `tok-${randomUUID()}`
    const lifetime = options.tokenLifetimeSeconds
    tokens.set(token, {
      shops: client.shops,
      expiresAt: lifetime === undefined ? undefined : now() + lifetime * 1000,
      window: 0,
      count: 0
    })
    issued++
    return {
      status: 200,
      body: {
        access_token: token,
        token_type: "bearer",
        scope: client.shops.join(" "),
        ...(lifetime === undefined ? {} : { expires_in: lifetime })
      }
    }
  }

  interface Grant {
    readonly inScope: (shopId: number) => boolean
    readonly rateHeaders: Record<string, string>
  }

  // Bearer token and rate limit, per token and minute.
  const before = (request: FakeServer.Request): FakeServer.Response | { readonly context: Grant | undefined } => {
    if (request.path === TOKEN_PATH) {
      return request.method === "POST"
        ? { context: undefined }
        : error(405, "Method Not Allowed")
    }
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1]
    const grant = bearer === undefined ? undefined : tokens.get(bearer)
    if (grant === undefined || (grant.expiresAt !== undefined && now() >= grant.expiresAt)) {
      return { status: 401, body: { error: "invalid_token", error_description: "Access token expired or invalid" } }
    }
    const window = Math.floor(now() / 60_000)
    if (grant.window !== window) {
      grant.window = window
      grant.count = 0
    }
    grant.count++
    const reset = String((window + 1) * 60)
    const rateHeaders = {
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": String(Math.max(0, limit - grant.count)),
      "x-ratelimit-reset": reset
    }
    if (pending429.times > 0 || grant.count > limit) {
      if (pending429.times > 0) pending429.times--
      const retryAfter = pending429.retryAfter > 0
        ? pending429.retryAfter
        : Math.max(1, (window + 1) * 60 - Math.floor(now() / 1000))
      return error(429, "Too Many Requests", {
        ...rateHeaders,
        "x-ratelimit-remaining": "0",
        "retry-after": String(retryAfter)
      })
    }
    return { context: { inScope: (shopId) => grant.shops.includes(shopId), rateHeaders } }
  }

  const ok = (grant: Grant, body: unknown): FakeServer.Response => ({ status: 200, body, headers: grant.rateHeaders })
  const routes: ReadonlyArray<FakeServer.Route<Grant | undefined>> = [
    { route: `POST ${TOKEN_PATH}`, handle: issueToken },
    {
      route: "GET /api/v1/repair-orders",
      handle: ({ query }, grant) => {
        const shop = Number(query["shop"])
        if (!grant!.inScope(shop)) return error(403, `Access denied to shop ${query["shop"] ?? ""}`)
        const statuses = query["repairOrderStatusId"]?.split(",").map(Number)
        const direction = query["sortDirection"] === "DESC" ? -1 : 1
        const rows = [...state.repairOrders.values()]
          .filter((ro) => ro.shopId === shop && (statuses === undefined || statuses.includes(ro.repairOrderStatus.id)))
          .sort((a, b) =>
            query["sort"] === "createdDate" ? direction * a.createdDate.localeCompare(b.createdDate) : a.id - b.id
          )
        return ok(grant!, pageOf(rows, query))
      }
    },
    {
      route: "GET /api/v1/repair-orders/:id",
      handle: ({ params }, grant) => {
        const ro = /^\d+$/.test(params.id!) ? state.repairOrders.get(Number(params.id)) : undefined
        if (ro === undefined) return error(404, "Repair order not found")
        return grant!.inScope(ro.shopId) ? ok(grant!, ro) : error(403, "Access denied")
      }
    },
    ...(["vehicles", "customers"] as const).map((table): FakeServer.Route<Grant | undefined> => ({
      route: `GET /api/v1/${table}/:id`,
      handle: ({ params }, grant) => {
        const row = /^\d+$/.test(params.id!)
          ? (table === "vehicles" ? state.vehicles : state.customers).get(Number(params.id))
          : undefined
        return row === undefined
          ? error(404, `${table === "vehicles" ? "Vehicle" : "Customer"} not found`)
          : ok(grant!, row)
      }
    })),
    {
      route: "GET /api/v1/jobs",
      handle: ({ query }, grant) => {
        const shop = Number(query["shop"])
        if (!grant!.inScope(shop)) return error(403, `Access denied to shop ${query["shop"] ?? ""}`)
        const roId = query["repairOrderId"] === undefined ? undefined : Number(query["repairOrderId"])
        const rows = [...state.jobs.values()].filter((j) =>
          j.shopId === shop && (roId === undefined || j.repairOrderId === roId)
        )
          .sort((a, b) => a.id - b.id)
        return ok(grant!, pageOf(rows, query))
      }
    },
    {
      route: "PATCH /api/v1/jobs/:id",
      handle: ({ body: raw, params }, grant) => {
        const job = /^\d+$/.test(params.id!) ? state.jobs.get(Number(params.id)) : undefined
        if (job === undefined) return error(404, "Job not found")
        if (!grant!.inScope(job.shopId)) return error(403, "Access denied")
        if (failingWrites.times > 0) {
          failingWrites.times--
          return failingWrites.retryable ? error(503, "Service Unavailable") : error(400, "Job cannot be updated")
        }
        let body: Record<string, unknown>
        try {
          body = JSON.parse(raw) as Record<string, unknown>
        } catch {
          return error(400, "Malformed JSON request")
        }
        if (body["note"] !== undefined && body["note"] !== null && typeof body["note"] !== "string") {
          return error(400, "note must be a string")
        }
        if (typeof body["note"] === "string" || body["note"] === null) job.note = body["note"] as string | null
        if (typeof body["name"] === "string") job.name = body["name"]
        return ok(grant!, { type: "SUCCESS", message: "Job updated", data: job })
      }
    }
  ]

  const server = await FakeServer.start({
    host: options.host,
    port: options.port,
    before,
    routes,
    notFound: () => error(404, "Not Found"),
    record: (request, status): FakeTekmetricRequest => ({
      method: request.method,
      path: request.path,
      query: request.query,
      status
    })
  })
  return {
    url: server.url,
    requests: server.requests,
    tokensIssued: () => issued,
    jobs: (repairOrderId) =>
      [...state.jobs.values()].filter((j) => j.repairOrderId === repairOrderId).sort((a, b) => a.id - b.id),
    addRepairOrder,
    inject429: (times, retryAfterSeconds) => {
      pending429 = { times, retryAfter: retryAfterSeconds }
    },
    failNextWrites: (times, retryable) => {
      failingWrites = { times, retryable }
    },
    revokeTokens: () => tokens.clear(),
    close: server.close
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
export const startFakeTekmetric = (
  options: FakeTekmetricOptions = {}
): Effect.Effect<FakeTekmetric, never, Scope.Scope> =>
  Effect.acquireRelease(Effect.promise(() => startFakeTekmetricServer(options)), (fake) => Effect.promise(fake.close))

/**
 * What the conformance suite seeds (the shape of `@shoplink/connector-testkit`'s `Seed`).
 *
 * @example
 * import type { ConformanceSeed } from "@shoplink/adapter-tekmetric/testing"
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
      readonly licensePlateState?: string | undefined
      readonly year?: number | undefined
      readonly make?: string | undefined
      readonly model?: string | undefined
    }
  }>
}

const CONFORMANCE_CLIENT: FakeClient = {
  clientId: "conformance-client",
  clientSecret: "conformance-secret-0001",
  shops: [1]
}

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
 * runConnectorConformance({
 *   connector: TekmetricConnector.connector,
 *   sms: conformanceHarness,
 *   vehicleIdentifiers: ["vin", "licensePlate"]
 * })
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
          Layer.succeed(TekmetricConfig, {
            baseUrl: fake.url,
            retry: { baseDelay: "10 millis", maxDelay: "50 millis" }
          }),
          FetchHttpClient.layer
        ),
        smsSecrets: {
          [CLIENT_ID_SECRET]: Redacted.make(CONFORMANCE_CLIENT.clientId),
          [CLIENT_SECRET_SECRET]: Redacted.make(CONFORMANCE_CLIENT.clientSecret)
        },
        repairOrders: { vin: ids[0] ?? "", licensePlate: ids[1] ?? "", baseVehicleID: ids[2] ?? "" },
        readLines: (_repairOrderId: string): Effect.Effect<ReadonlyArray<never>> => Effect.succeed([]),
        readOrder: (repairOrderId: string) =>
          Effect.sync(() => recordedOrders(fake.jobs(Number(repairOrderId))[0]?.note).at(-1)),
        failNextWrites: (count: number, retryable: boolean) => Effect.sync(() => fake.failNextWrites(count, retryable)),
        fake
      }
    })
}
