/**
 * The sandbox server: a faithful local distributor serving the Punchout API, the ordering pages,
 * the Order Management API, an admin API and OpenAPI documents from one HTTP server.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { OrderManagement, type Values } from "@shoplink/protocol"
import { createServer } from "node:http"
import { ServerTimeouts } from "@shoplink/http"
import { SANDBOX_CREDENTIALS, type SandboxCredentials } from "./Credentials.js"
import { SANDBOX_FIXTURES, type SandboxFixtures } from "./Fixtures.js"
import type { SandboxAdminError } from "./internal/admin.js"
import { makeAdmin } from "./internal/admin.js"
import { makeHttpApp } from "./internal/http.js"
import type { Ctx } from "./internal/context.js"
import { PATHS } from "./internal/paths.js"
import type { ExportButton } from "./internal/ordering.js"
import { type Fault, type OrderState, type OutOfStockPolicy, SandboxState } from "./internal/state.js"
import { makeDeliverer, type WebhookDelivery } from "./internal/webhooks.js"

export type { Fault, OrderState, OutOfStockPolicy } from "./internal/state.js"
export type { WebhookDelivery } from "./internal/webhooks.js"
export type { ExportButton } from "./internal/ordering.js"
export { SandboxAdminError } from "./internal/admin.js"

/**
 * Options of {@link startSandbox}.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { SandboxOptions } from "@shoplink/sandbox"
 * const options: SandboxOptions = { port: 0, seed: 7, webhookAttempts: 2 }
 * // Reachable from other machines: guard the admin API; back-order what is out of stock.
 * const shared: SandboxOptions = { host: "0.0.0.0", adminToken: Redacted.make("s3cret"), outOfStock: "backOrder" }
 *
 * @since 0.1.0
 */
export interface SandboxOptions {
  /** TCP port; 0 (the default) picks a free one. */
  readonly port?: number | undefined
  /** Interface to listen on; default 127.0.0.1. */
  readonly host?: string | undefined
  /** Catalog seed (prices, stock, fitment); default 1. Credentials do not depend on it. */
  readonly seed?: number | undefined
  /** Timeout of one webhook attempt; default 5 seconds. */
  readonly webhookTimeout?: Duration.DurationInput | undefined
  /** Attempts per webhook delivery; default 3. */
  readonly webhookAttempts?: number | undefined
  /** First retry delay (doubling); default 200 millis. */
  readonly webhookBackoff?: Duration.DurationInput | undefined
  /**
   * A quantity no warehouse has: `"refuse"` (default, API0234 — the spec's "Quantity exceeds stock
   * on hand") or `"backOrder"` (accepted, dispatched a week after the warehouse's next dispatch).
   */
  readonly outOfStock?: OutOfStockPolicy | undefined
  /**
   * When set, the admin API (`/__sandbox/`) answers 401 unless the request carries
   * `Authorization: Bearer <token>`. Set it whenever `host` is not a loopback address: the admin
   * API can add customers, move the clock and inject faults. `sandbox.admin` (in process) is not affected.
   */
  readonly adminToken?: Redacted.Redacted<string> | undefined
  /**
   * How long a client may take to send its headers, a whole request, and how long an idle
   * keep-alive connection stays open (`ServerTimeouts` of `@shoplink/http`; default 10 s, 30 s
   * and 5 s; a late request is answered 408).
   */
  readonly serverTimeouts?: ServerTimeouts.Options | undefined
}

/**
 * A customer to add with the admin API.
 *
 * @example
 * import type { SandboxCustomerInput } from "@shoplink/sandbox"
 * const customer: SandboxCustomerInput = {
 *   accountNo: "700800",
 *   username: "a@b.example",
 *   apiToken: "t-700800",
 *   country: "US"
 * }
 * const west: SandboxCustomerInput = {
 *   ...customer,
 *   accountNo: "700801",
 *   apiToken: "t-700801",
 *   timeZone: "America/Los_Angeles"
 * }
 *
 * @since 0.1.0
 */
export interface SandboxCustomerInput {
  readonly accountNo: string
  readonly username: string
  readonly apiToken: string
  readonly country: Values.CountryCode
  readonly name?: string
  readonly poRequired?: boolean
  /** IANA time zone the ordering pages show this shop's times in; default: its address's zone. */
  readonly timeZone?: string
}

/**
 * What the test driver's search returns.
 *
 * @example
 * import type { DriverSearchResult } from "@shoplink/sandbox"
 * const empty: DriverSearchResult = { vehicle: undefined, results: [], page: 1, pageCount: 1, total: 0 }
 *
 * @since 0.1.0
 */
export interface DriverSearchResult {
  readonly vehicle: string | undefined
  readonly results: ReadonlyArray<{
    readonly productID: string
    readonly brandID: string
    readonly description: string
    readonly price: number | undefined
    readonly available: number
  }>
  /** The page shown (pass `page` in the search parameters for another; 20 results a page). */
  readonly page: number
  readonly pageCount: number
  /** Results over all pages. */
  readonly total: number
}

/**
 * What pressing an export button did: the order, the webhook sent, and where the browser goes.
 *
 * @example
 * import type { DriverPressResult } from "@shoplink/sandbox"
 * const done = (r: DriverPressResult) => r.redirect ?? "no callback"
 *
 * @since 0.1.0
 */
export interface DriverPressResult {
  readonly button: ExportButton
  readonly orderID: string | undefined
  /** Where the browser goes next (`webhooks.callback`), when one was given. */
  readonly redirect: string | undefined
  readonly webhook: "order" | "quote" | undefined
  /** The Export and Save response body (ExportAndSaveResponse). */
  readonly response: unknown
}

/**
 * The admin helpers: the same operations as the `/__sandbox/` HTTP API, as Effects.
 *
 * @example
 * import { Effect } from "effect"
 * import { withSandbox } from "@shoplink/sandbox"
 * const program = withSandbox((sandbox) => sandbox.admin.advanceClock("13 hours"))
 *
 * @since 0.1.0
 */
export interface SandboxAdmin {
  /** Now on the sandbox clock (epoch milliseconds). */
  readonly now: Effect.Effect<number>
  /** Moves the sandbox clock forward (sessions and orders expire on it). */
  readonly advanceClock: (duration: Duration.DurationInput) => Effect.Effect<void>
  readonly injectFault: (fault: Fault) => Effect.Effect<void>
  readonly clearFaults: Effect.Effect<void>
  /** Every webhook delivery attempt so far. */
  readonly deliveries: () => Effect.Effect<ReadonlyArray<WebhookDelivery>>
  /** Waits until at least `count` attempts were recorded, then returns them all. */
  readonly awaitDeliveries: (count: number) => Effect.Effect<ReadonlyArray<WebhookDelivery>>
  /** Adds a customer; dies on a `timeZone` that is not an IANA zone. */
  readonly addCustomer: (customer: SandboxCustomerInput) => Effect.Effect<void>
  readonly addVendorKey: (apiKey: string) => Effect.Effect<void>
  readonly addOmsKey: (apiKey: string, tier: "test" | "production") => Effect.Effect<void>
  /** Deletes a customer's API token: creates and Order Management calls with it fail. */
  readonly revokeToken: (apiToken: string) => Effect.Effect<boolean>
  /** Expires a vendor key or Order Management key. */
  readonly expireKey: (apiKey: string) => Effect.Effect<boolean>
  /** Order Management calls allowed per calendar month for a key (API0208 beyond). */
  readonly setMonthlyAllowance: (apiKey: string, limit: number) => Effect.Effect<void>
  /** Moves an order to a state (e.g. `processing`, `shippedPartial`). */
  readonly setOrderState: (orderID: string, state: OrderState) => Effect.Effect<boolean>
  /** Performs what a person does in the ordering pages, without a browser. */
  readonly driver: {
    readonly search: (
      token: string,
      params: Record<string, string>
    ) => Effect.Effect<DriverSearchResult, SandboxAdminError>
    readonly addToCart: (
      token: string,
      item: { readonly productID: string; readonly brandID: string; readonly quantity: number }
    ) => Effect.Effect<{ readonly orderID: string; readonly lines: number }, SandboxAdminError>
    readonly press: (token: string, button: ExportButton) => Effect.Effect<DriverPressResult, SandboxAdminError>
  }
}

/**
 * A running sandbox: its URLs, credentials, fixtures and admin helpers.
 *
 * @example
 * import { Effect } from "effect"
 * import { withSandbox } from "@shoplink/sandbox"
 * const program = withSandbox((sandbox) => Effect.log(sandbox.url, sandbox.omsBaseUrl("US_QUA")))
 *
 * @since 0.1.0
 */
export interface RunningSandbox {
  /** Base URL, e.g. `http://127.0.0.1:43121` (no trailing slash). */
  readonly url: string
  /** `{url}/punchout/v1/create`. */
  readonly punchoutCreateUrl: string
  /** `{url}/web/services/{environment}`. */
  readonly omsBaseUrl: (environment: OrderManagement.Environment) => string
  /** The generated OpenAPI documents (the distributor's two APIs and the sandbox's own routes) and the docs page. */
  readonly openApi: {
    readonly punchout: string
    readonly orderManagement: string
    readonly sandbox: string
    readonly docs: string
  }
  readonly adminUrl: string
  readonly credentials: SandboxCredentials
  readonly fixtures: SandboxFixtures
  readonly seed: number
  readonly admin: SandboxAdmin
}

// A TestClock starts at the epoch; the sandbox then starts on a fixed date so epochs keep their
// 10- and 13-digit forms. TestClock.adjust still moves it.
const FIXED_START = Date.UTC(2026, 5, 1, 14, 0, 0)
const YEAR_2001 = 978_307_200_000

const displayHost = (host: string) =>
  host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host.includes(":") ? `[${host}]` : host

/**
 * Starts the sandbox on a real HTTP server for the lifetime of the Scope.
 *
 * @example
 * import { Effect } from "effect"
 * import { startSandbox } from "@shoplink/sandbox"
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const sandbox = yield* startSandbox({ port: 0 })
 *   yield* Effect.log(`sandbox at ${sandbox.url}`)
 * }))
 *
 * @since 0.1.0
 */
export const startSandbox = (options: SandboxOptions = {}): Effect.Effect<RunningSandbox, never, Scope.Scope> =>
  Effect.gen(function*() {
    const host = options.host ?? "127.0.0.1"
    const seed = options.seed ?? 1
    const clock = Effect.map(Clock.currentTimeMillis, (t) => (t < YEAR_2001 ? FIXED_START + t : t))
    const state = new SandboxState(seed, yield* clock, options.outOfStock ?? "refuse")
    const now = Effect.map(clock, (t) => t + state.clockOffset)
    const log = yield* SubscriptionRef.make<ReadonlyArray<WebhookDelivery>>([])
    const fibers = yield* FiberSet.make()
    const client = yield* Layer.build(NodeHttpClient.layerUndici).pipe(Effect.map(Context.get(HttpClient.HttpClient)))
    const send = makeDeliverer(client, log, {
      timeout: options.webhookTimeout ?? Duration.seconds(5),
      attempts: options.webhookAttempts ?? 3,
      backoff: options.webhookBackoff ?? Duration.millis(200)
    })
    let url = ""
    const ctx: Ctx = {
      state,
      now,
      baseUrl: () => url,
      adminToken: options.adminToken,
      deliver: (event, target, body) => Effect.asVoid(FiberSet.run(fibers, send(event, target, body)))
    }
    const admin = makeAdmin(ctx, log)
    const server = yield* NodeHttpServer.make(
      () => createServer(ServerTimeouts.nodeServerOptions(options.serverTimeouts)),
      { port: options.port ?? 0, host }
    ).pipe(
      Effect.orDie
    )
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    url = `http://${displayHost(host)}:${port}`
    yield* server.serve(yield* makeHttpApp(ctx, admin))
    const running: RunningSandbox = {
      url,
      punchoutCreateUrl: `${url}${PATHS.create}`,
      omsBaseUrl: (environment) => `${url}${OrderManagement.basePath(environment)}`,
      openApi: {
        punchout: `${url}${PATHS.punchoutDocument}`,
        orderManagement: `${url}${PATHS.orderManagementDocument}`,
        sandbox: `${url}${PATHS.sandboxDocument}`,
        docs: `${url}${PATHS.docs}`
      },
      adminUrl: `${url}${PATHS.admin}`,
      credentials: SANDBOX_CREDENTIALS,
      fixtures: SANDBOX_FIXTURES,
      seed,
      admin
    }
    return running
  })

/**
 * The running sandbox as a service, for `it.layer` and Layer-based programs.
 *
 * @example
 * import { Effect } from "effect"
 * import { SandboxServer } from "@shoplink/sandbox"
 * const program = Effect.gen(function*() {
 *   const sandbox = yield* SandboxServer
 *   return sandbox.url
 * }).pipe(Effect.provide(SandboxServer.layer({ seed: 1 })))
 *
 * // or from configuration:
 * import { Config } from "effect"
 * const fromEnv = SandboxServer.layerConfig({ seed: Config.number("SANDBOX_SEED").pipe(Config.withDefault(1)) })
 *
 * @since 0.1.0
 */
export class SandboxServer extends Context.Tag("@shoplink/sandbox/SandboxServer")<SandboxServer, RunningSandbox>() {
  /** Starts a sandbox for the layer's lifetime. */
  static readonly layer = (options: SandboxOptions = {}): Layer.Layer<SandboxServer> =>
    Layer.scoped(SandboxServer, startSandbox(options))

  /** Starts a sandbox with options read from Config (e.g. `Config.number("SANDBOX_PORT")`). */
  static readonly layerConfig = (
    options: Config.Config.Wrap<SandboxOptions>
  ): Layer.Layer<SandboxServer, ConfigError.ConfigError> =>
    Layer.unwrapEffect(Effect.map(Config.unwrap(options), (resolved) => SandboxServer.layer(resolved)))
}

/**
 * Starts a sandbox on port 0, runs `f` with it, and stops it.
 *
 * @example
 * import { Effect } from "effect"
 * import { withSandbox } from "@shoplink/sandbox"
 * const url = withSandbox((sandbox) => Effect.succeed(sandbox.url))
 *
 * @since 0.1.0
 */
export const withSandbox = <A, E, R>(
  f: (sandbox: RunningSandbox) => Effect.Effect<A, E, R>,
  options: SandboxOptions = {}
): Effect.Effect<A, E, Exclude<R, Scope.Scope>> =>
  Effect.scoped(Effect.flatMap(startSandbox({ ...options, port: options.port ?? 0 }), f))

/**
 * A started sandbox for Promise users.
 *
 * @example
 * import type { SandboxHandle } from "@shoplink/sandbox"
 * const stop = (handle: SandboxHandle) => handle.close()
 *
 * @since 0.1.0
 */
export interface SandboxHandle {
  readonly url: string
  readonly credentials: SandboxCredentials
  readonly sandbox: RunningSandbox
  readonly close: () => Promise<void>
}

/**
 * Starts the sandbox without Effect: resolves once it listens; `close()` stops it.
 *
 * @example
 * import { startSandboxServer } from "@shoplink/sandbox"
 * const handle = await startSandboxServer({ port: 0 })
 * console.log(handle.url)
 * await handle.close()
 *
 * @since 0.1.0
 */
export const startSandboxServer = async (options: SandboxOptions = {}): Promise<SandboxHandle> => {
  const scope = Effect.runSync(Scope.make())
  const sandbox = await Effect.runPromise(Scope.extend(startSandbox(options), scope))
  return {
    url: sandbox.url,
    credentials: sandbox.credentials,
    sandbox,
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}
