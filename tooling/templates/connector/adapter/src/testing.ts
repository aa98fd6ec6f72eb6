/**
 * @shoplink/adapter-__name__/testing — a fake __title__ API on the test-kit's `FakeServer` (a real
 * HTTP server on 127.0.0.1, port 0) and the conformance harness on it (`conformanceHarness`), for
 * the adapter's tests (test/harness.ts), the sample's tests and its embedded default. The plumbing
 * is done (the API key, failing writes on demand, a store the tests read directly, the harness);
 * what is left is `routes`: __title__'s own paths and payloads, written from its public API
 * documentation, as reads and writes of the store.
 *
 * @since 0.1.0
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import type { ShopSystem } from "@shoplink/connector"
import type { ConformanceHarness } from "@shoplink/connector-testkit"
import * as FakeServer from "@shoplink/connector-testkit/FakeServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { __Name__Config, API_KEY_SECRET } from "./__Name__Connector.js"

/**
 * A repair order in the fake. Keep the facts the adapter maps (number, vehicle, customer) here, in
 * whatever shape `route` answers them in __title__'s own words.
 *
 * @example
 * import type { FakeRepairOrder } from "@shoplink/adapter-__name__/testing"
 * const ro: FakeRepairOrder = {
 *   id: "1",
 *   number: "1042",
 *   customerName: "Dana Reyes",
 *   vehicle: { vin: "1FTEW1E56KFA12345" }
 * }
 *
 * @since 0.1.0
 */
export interface FakeRepairOrder {
  readonly id: string
  readonly number: string
  readonly customerName?: string | undefined
  /** Shoplink's vehicle: what the adapter reads from __title__'s repair order, as it maps it. */
  readonly vehicle: ShopSystem.Vehicle
}

/**
 * A part line the adapter wrote on a repair order, as the fake keeps it (money in integer cents per
 * unit). `key` is the line's `idempotencyKey`, kept in whatever field __title__ lets the adapter
 * search (an external id, a note).
 *
 * @example
 * import type { FakeLine } from "@shoplink/adapter-__name__/testing"
 * const line: FakeLine = {
 *   key: "q:1:0", kind: "quoted", productID: "51515", brandID: "WIX", description: "Oil Filter",
 *   quantity: 2, costCents: 649, listCents: 999, coreCents: 0
 * }
 *
 * @since 0.1.0
 */
export interface FakeLine extends
  Pick<
    ShopSystem.PartLine,
    "productID" | "brandID" | "description" | "quantity" | "costCents" | "listCents" | "coreCents"
  >
{
  readonly key: string
  readonly kind: "quoted" | "ordered"
}

/**
 * The fake's store: what `route` reads and writes, and what tests read directly.
 *
 * @example
 * import type { FakeStore } from "@shoplink/adapter-__name__/testing"
 * const lineCount = (store: FakeStore, id: string) => store.lines.get(id)?.length ?? 0
 *
 * @since 0.1.0
 */
export interface FakeStore {
  readonly repairOrders: Map<string, FakeRepairOrder>
  readonly lines: Map<string, Array<FakeLine>>
  /** The distributor order recorded on a repair order. */
  readonly orders: Map<string, { readonly orderID: string; readonly status: string }>
}

/**
 * The running fake.
 *
 * @example
 * import type { Fake__Name__ } from "@shoplink/adapter-__name__/testing"
 * const quoted = (fake: Fake__Name__, id: string) => fake.lines(id).filter((l) => l.kind === "quoted")
 *
 * @since 0.1.0
 */
export interface Fake__Name__ {
  readonly url: string
  /** The API key it accepts: a shop's `apiKey` secret. */
  readonly apiKey: string
  /** Adds a repair order; answers its id. */
  readonly addRepairOrder: (ro: Omit<FakeRepairOrder, "id">) => string
  readonly lines: (repairOrderId: string) => ReadonlyArray<FakeLine>
  readonly order: (repairOrderId: string) => { readonly orderID: string; readonly status: string } | undefined
  /** The next `count` writes (any method but GET) answer 503 when `retryable`, else 422, writing nothing. */
  readonly failNextWrites: (count: number, retryable: boolean) => void
}

/**
 * The API key the fake accepts unless told otherwise.
 *
 * @example
 * import { Redacted } from "effect"
 * import { FAKE___NAME___API_KEY } from "@shoplink/adapter-__name__/testing"
 * const sms = { apiKey: Redacted.make(FAKE___NAME___API_KEY) }
 *
 * @since 0.1.0
 */
export const FAKE___NAME___API_KEY = "fake-__name__-api-key"

// TODO: __title__'s routes, as its API documentation describes them: the repair order the adapter
// loads (with its vehicle and customer), the part lines it lists and adds, the purchase order it
// records. Each is "<METHOD> <path>" (`:id` a parameter) with its answer in __title__'s JSON and
// status codes (404 for an unknown repair order); the request body arrives as text. A list the
// API pages answers one page (`FakeServer.page(items, { offset, size })`) in its envelope, so the
// adapter's client is tested following the pages. For example:
//   { route: "GET /repair-orders/:id", handle: ({ params }, store) => ... store.repairOrders.get(params.id!) ... }
const routes: ReadonlyArray<FakeServer.Route<FakeStore>> = []

// TODO: how __title__ authenticates a request; a bearer API key here.
const authorized = (request: FakeServer.Request, apiKey: string) => request.headers.authorization === `Bearer ${apiKey}`

const listen = async (apiKey: string) => {
  const store: FakeStore = { repairOrders: new Map(), lines: new Map(), orders: new Map() }
  let failing = { count: 0, retryable: true }
  let nextId = 1
  const server = await FakeServer.start({
    routes,
    before: (request) => {
      if (!authorized(request, apiKey)) return { status: 401, body: { error: "unauthorized" } }
      if (request.method !== "GET" && failing.count > 0) {
        failing.count--
        return failing.retryable
          ? { status: 503, body: { error: "unavailable" } }
          : { status: 422, body: { error: "refused" } }
      }
      return { context: store }
    },
    notFound: (request) => ({
      status: 404,
      body: { error: `the fake __title__ has no route for ${request.method} ${request.path} yet (src/testing.ts)` }
    })
  })
  const fake: Fake__Name__ = {
    url: server.url,
    apiKey,
    addRepairOrder: (ro) => {
      const id = String(nextId++)
      store.repairOrders.set(id, { ...ro, id })
      return id
    },
    lines: (id) => [...(store.lines.get(id) ?? [])],
    order: (id) => store.orders.get(id),
    failNextWrites: (count, retryable) => {
      failing = { count, retryable }
    }
  }
  return { fake, close: server.close }
}

/**
 * Starts a fake __title__ in the current Scope (closed with it), with no repair orders yet.
 *
 * @example
 * import { Effect } from "effect"
 * import { startFake__Name__ } from "@shoplink/adapter-__name__/testing"
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const fake = yield* startFake__Name__()
 *   const id = fake.addRepairOrder({ number: "1042", vehicle: { vin: "1FTEW1E56KFA12345" } })
 *   return fake.lines(id)
 * }))
 *
 * @since 0.1.0
 */
export const startFake__Name__ = (
  options: { readonly apiKey?: string } = {}
): Effect.Effect<Fake__Name__, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(Effect.promise(() => listen(options.apiKey ?? FAKE___NAME___API_KEY)), (running) =>
      Effect.promise(running.close)),
    (running) =>
      running.fake
  )

/**
 * The conformance harness (`ConformanceSms` of `@shoplink/connector-testkit`): a fresh fake
 * __title__ for each check, seeded with the suite's repair orders, the adapter pointed at it over
 * `fetch`, the key the fake accepts as the shop's `smsSecrets` (the suite onboards the shop with
 * it and the runtime gives it to the adapter through `SmsCredentials`, as in production), and
 * direct reads of what the adapter wrote in the fake's store. Once the fake's routes and the
 * adapter are written, nothing here needs to change unless the adapter's layer needs more (a
 * setting of `__Name__Config`: add it to `layer`). An SMS without part-line writes answers
 * `readLines` with `Effect.succeed([])`; one without a purchase-order record, `readOrder` with
 * `Effect.succeed(undefined)`.
 *
 * @example
 * import { runConnectorConformance } from "@shoplink/connector-testkit"
 * import { __Name__Connector } from "@shoplink/adapter-__name__"
 * import { conformanceHarness } from "@shoplink/adapter-__name__/testing"
 * runConnectorConformance({ connector: __Name__Connector.connector, sms: conformanceHarness })
 *
 * @since 0.1.0
 */
export const conformanceHarness: ConformanceHarness.ConformanceSms<__Name__Config | HttpClient.HttpClient> = {
  setup: (seed) =>
    Effect.gen(function*() {
      const fake = yield* startFake__Name__()
      const seeded = seed.repairOrders.map((ro) => ({
        identifier: ro.identifier,
        id: fake.addRepairOrder({ number: ro.number, customerName: ro.customer.name, vehicle: ro.vehicle })
      }))
      const idOf = (identifier: ConformanceHarness.VehicleIdentifier) =>
        seeded.find((ro) => ro.identifier === identifier)?.id ?? "missing"
      return {
        layer: Layer.merge(Layer.succeed(__Name__Config, { baseUrl: fake.url }), FetchHttpClient.layer),
        smsSecrets: { [API_KEY_SECRET]: Redacted.make(fake.apiKey) },
        repairOrders: { vin: idOf("vin"), licensePlate: idOf("licensePlate"), baseVehicleID: idOf("baseVehicleID") },
        readLines: (id) => Effect.sync(() => fake.lines(id).map(({ key: _key, ...line }) => line)),
        readOrder: (id) => Effect.sync(() => fake.order(id)),
        failNextWrites: (count, retryable) => Effect.sync(() => fake.failNextWrites(count, retryable))
      }
    })
}
