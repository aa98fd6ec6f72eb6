/**
 * The connector runtime in one piece, for all of a vendor's shops: the stores (shops with sealed
 * secrets, launch keys, the webhook inbox, vendor API keys), the punchout client and session pool,
 * the `PunchoutLauncher`, the `InboxWorker`, and the HTTP routes to mount.
 *
 * - `publicRouter`: what the distributor and the shop's browser reach without credentials, the
 *   webhook routes and the callback page, each keyed by an unguessable launch key.
 * - `apiRouter`: how an SMS backend starts a launch, authenticated. `POST {basePath}/launch` with
 *   `Authorization: Bearer <vendor API key>` answers the catalog URL as JSON; `GET
 *   {basePath}/launch/link?…` takes a signed launch link (`LaunchLinks`) and redirects the browser
 *   to the catalog.
 * - `serve`: serves routers on an `HttpServer` so that no span, log line or error message carries a
 *   launch key, a link signature or a session token: its own server span with a redacted path in
 *   place of the platform's (which records `url.full`), and every failed request answered and
 *   logged by it, redacted (see docs/security.md).
 *   `GET {basePath}/parts?shop&ro` (and `/parts.csv`) shows the part lines the runtime keeps for a
 *   repair order whose shop system cannot take them (`PartsLedger`), with a vendor API key or the
 *   parameters of a signed link (`partsLink`).
 * - `healthRouter`: `GET /healthz` (liveness) and `GET /readyz` (readiness: database, worker,
 *   backlog; see `Health`), public, answering only `ok` and a reason.
 * - `adminRouter`: `GET /metrics`, Effect's metric registry as Prometheus text, with
 *   `Authorization: Bearer <vendor API key>` (the same keys as the launch API).
 *
 * Closing the runtime's Scope stops the worker gracefully: it takes no new entry, and the applies
 * in flight finish (up to `shutdownDeadline`) before it is interrupted.
 *
 * An adapter's `ShopSystem` layer may require `SmsCredentials`: the runtime provides it from its
 * shop store, so the adapter builds its SMS client per shop.
 *
 * @since 0.1.0
 */
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpRouter from "@effect/platform/HttpRouter"
import type * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as HttpTraceContext from "@effect/platform/HttpTraceContext"
import * as Headers from "@effect/platform/Headers"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import { Html } from "@shoplink/http"
import type { Punchout } from "@shoplink/protocol"
import { PunchoutClient, type PunchoutError, SessionPool } from "@shoplink/punchout"
import type { OrderManagementClient } from "@shoplink/order-management"
import * as OrderVerifier from "./OrderVerifier.js"
import { ApiKeys } from "./ApiKeys.js"
import { type CredentialStore, layerShopStore as credentialsFromShops } from "./CredentialStore.js"
import type * as Health from "./Health.js"
import { router as healthRoutes } from "./Health.js"
import * as InboxWorker from "./InboxWorker.js"
import { instrumentShopSystem, makeReadiness, startWorker, type WorkerHandle } from "./internal/operations.js"
import { prometheus } from "./Observability.js"
import * as LaunchLinks from "./LaunchLinks.js"
import * as Retention from "./Retention.js"
import { LaunchRegistry, layerMemory as launchesInMemory, layerSql as launchesInSql } from "./LaunchRegistry.js"
import { renderPartsPage } from "./internal/callbackPage.js"
import { redactText, redactUrl } from "./internal/redact.js"
import { DEFAULT_MAX_BODY_BYTES, frontOnFirstRequest, makeNodeHandler, publicRouteProbe } from "./internal/nodeWebhooks.js"
import * as PartsLedgerModule from "./PartsLedger.js"
import { PartsLedger } from "./PartsLedger.js"
import { normalizeBasePath, PunchoutLauncher, layer as launcherLayer } from "./PunchoutLauncher.js"
import type * as PunchoutLauncherModule from "./PunchoutLauncher.js"
import * as SecretBox from "./SecretBox.js"
import { ShopStore } from "./ShopStore.js"
import * as ShopStoreModule from "./ShopStore.js"
import * as SmsCredentials from "@shoplink/connector/SmsCredentials"
import { ShopSystem } from "@shoplink/connector/ShopSystem"
import * as Storage from "./Storage.js"
import { WebhookInbox, layerMemory as inboxInMemory, layerSql as inboxInSql, layerSqlWith as inboxInSqlWith } from "./WebhookInbox.js"
import * as WebhookReceiver from "./WebhookReceiver.js"
import * as ApiKeysModule from "./ApiKeys.js"

/**
 * What the runtime provides to the adapter's layer: its shop store, and the SMS credentials port
 * built on it.
 *
 * @example
 * import type { ConnectorRuntime } from "@shoplink/connector-runtime"
 * type Given = ConnectorRuntime.ProvidedToAdapter
 *
 * @since 0.1.0
 */
export type ProvidedToAdapter =
  | SmsCredentials.SmsCredentials
  | ShopStore
  | CredentialStore
  | WebhookInbox
  | LaunchRegistry
  | ApiKeys
  | PartsLedger

/**
 * Runtime settings.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { ConnectorRuntime } from "@shoplink/connector-runtime"
 * const options: ConnectorRuntime.Options = {
 *   publicBaseUrl: "https://parts.sms.example",
 *   smsVendorName: "Acme SMS",
 *   punchout: { baseUrl: "https://punchout.distributor.example", vendorApiKey: Redacted.make("vendor-key") },
 *   storage: { sqlite: "/var/lib/shoplink/shoplink.db" },
 *   secretKeys: Redacted.make("k2026:…base64 of 32 random bytes…")
 * }
 *
 * @since 0.1.0
 */
export interface Options {
  /** Where the distributor (webhooks) and browsers (callback, launch links) reach this service. */
  readonly publicBaseUrl: string
  /** Where the runtime's routes live (default `/shoplink`). */
  readonly basePath?: string
  /** Shown in the distributor's footer. */
  readonly smsVendorName: string
  readonly exportButtons?: Punchout.ExportButtons
  /** The distributor's Punchout API: base URL and vendor API key (see `PunchoutClient`). */
  readonly punchout: PunchoutClient.PunchoutClientOptions
  /**
   * The distributor's Order Management API (see `OrderManagementClient`; `Settings.orderManagementClient`
   * reads it). With it, every order webhook is checked with the distributor before it is applied
   * (`OrderVerifier`: the order exists for the shop's account, is submitted, and has the webhook's
   * lines); an order it does not confirm is dead-lettered with the reason. Without it, the runtime
   * logs a warning at start-up: an order webhook is then trusted on its launch key alone.
   */
  readonly orderManagement?: OrderManagementClient.Options | undefined
  /** How orders are verified when `orderManagement` is set (see `OrderVerifier.Options`), or `false` to turn it off. */
  readonly orderVerification?: OrderVerifier.Options | false
  readonly sessionPool?: SessionPool.SessionPoolOptions
  /**
   * `"memory"` (tests, demos), a SQLite file (created 0600; one process), or a PostgreSQL URL
   * (several receivers and workers on one database). `Storage.fromUrl` reads either from one
   * setting.
   */
  readonly storage: "memory" | Storage.Location
  /**
   * The keyring that seals secrets at rest, `id:base64key[,id:base64key…]` (first seals; see
   * `SecretBox`). Required with SQLite or PostgreSQL storage: there is no plain-text fallback.
   */
  readonly secretKeys?: Redacted.Redacted<string> | undefined
  /** Secrets signed launch links are checked against (first signs); without them, links are off. */
  readonly launchLinkSecrets?: ReadonlyArray<Redacted.Redacted<string>> | undefined
  /** Longest lifetime a signed link may claim (default 1 hour). */
  readonly launchLinkMaxLifetime?: Duration.DurationInput
  /**
   * On PostgreSQL, how long a worker's claim on an inbox entry lasts without a heartbeat before
   * another process may take it over (default 30 seconds, on the database's clock; see
   * `WebhookInbox.SqlOptions`). The worker extends it every `heartbeatInterval` (5 seconds) while
   * the entry is being applied, however long that takes; a killed or frozen worker's entries are
   * taken over this long after its last heartbeat. Keep it several heartbeats long.
   */
  readonly inboxLease?: Duration.DurationInput | undefined
  /** The background worker's settings, or `false` for a process that only receives. */
  readonly worker?: InboxWorker.Options | false
  /** The receiver's body limit. */
  readonly maxBodyBytes?: number
  /** How long a launch key outlives its session (default 1 hour). */
  readonly keyGracePeriod?: Duration.DurationInput
  /** What `/readyz` requires (see `Health.ReadinessOptions`). */
  readonly readiness?: Health.ReadinessOptions
  /**
   * When the runtime's Scope closes, how long the applies in flight may take to finish before the
   * worker is interrupted (default 10 seconds). An interrupted apply stays pending and is applied
   * again on the next start, without doubling lines (idempotency keys).
   */
  readonly shutdownDeadline?: Duration.DurationInput
  /**
   * What is purged and when (see `Retention`: applied bodies after 30 days, applied entries after
   * 90, launch keys 7 days after expiry, every hour), or `false` to keep everything.
   */
  readonly retention?: Retention.Options | false
}

/**
 * Launch links are not configured (no `launchLinkSecrets`).
 *
 * @example
 * import { ConnectorRuntime } from "@shoplink/connector-runtime"
 * new ConnectorRuntime.LaunchLinksDisabled().message
 *
 * @since 0.1.0
 */
export class LaunchLinksDisabled extends Schema.TaggedError<LaunchLinksDisabled>()("LaunchLinksDisabled", {}) {
  override get message(): string {
    return "signed launch links are not configured (set launchLinkSecrets)"
  }
}

/**
 * What can stop the runtime from starting: a setting wrong on its face or a store that cannot be
 * opened. Each reads as one line.
 *
 * @example
 * import type { ConnectorRuntime } from "@shoplink/connector-runtime"
 * const explain = (error: ConnectorRuntime.StartError) => `${error._tag}: ${error.message}`
 *
 * @since 0.1.0
 */
export type StartError =
  | SecretBox.SecretKeysInvalid
  | PunchoutError.ConfigurationError
  | ShopStoreModule.ShopStoreError
  | ApiKeysModule.ApiKeyStoreError
  | Storage.StorageUnavailable
  | Layer.Layer.Error<typeof inboxInSql>
  | Layer.Layer.Error<typeof launchesInSql>
  | PartsLedgerModule.PartsLedgerError

/**
 * The running runtime.
 *
 * @example
 * import { Effect } from "effect"
 * import { ConnectorRuntime } from "@shoplink/connector-runtime"
 * const catalogUrl = Effect.flatMap(ConnectorRuntime.ConnectorRuntime, (runtime) =>
 *   runtime.launch({ shopId: "shop_1", repairOrderId: "ro_8f2" }))
 *
 * @since 0.1.0
 */
export interface Runtime {
  readonly basePath: string
  readonly publicBaseUrl: string
  /** Webhooks and the callback page: public, keyed by launch keys. */
  readonly publicRouter: HttpRouter.HttpRouter
  /** The authenticated launch API and signed launch links. */
  readonly apiRouter: HttpRouter.HttpRouter
  /** `GET /healthz` (liveness) and `GET /readyz` (readiness), public: see `Health`. */
  readonly healthRouter: HttpRouter.HttpRouter
  /** `GET /metrics` (Prometheus text), with `Authorization: Bearer <vendor API key>`. */
  readonly adminRouter: HttpRouter.HttpRouter
  /** The check behind `/readyz`. */
  readonly readiness: Effect.Effect<Health.Readiness>
  /**
   * Serves an app on `server` with spans and logs that carry no launch key or session token. On a
   * `NodeHttpServer` whose app contains `publicRouter`, the webhook routes are then answered by a
   * lean `node:http` handler in front of the app (see `WebhookReceiver.nodeHandler`), with the same
   * guarantees; middleware around `publicRouter` inside the app does not see those requests.
   */
  readonly serve: <E, R>(
    server: HttpServer.HttpServer,
    app: HttpApp.Default<E, R>
  ) => Effect.Effect<void, never, Exclude<R, HttpServerRequest.HttpServerRequest | Scope.Scope> | Scope.Scope>
  readonly launch: PunchoutLauncherModule.Operations["launch"]
  readonly openOrder: PunchoutLauncherModule.Operations["openOrder"]
  /**
   * A signed link of purpose `launch` for a repair order (`{basePath}/launch/link?…`), valid for
   * `expiresIn` (default 15 minutes); every other route refuses it.
   */
  readonly launchLink: (grant: {
    readonly shopId: string
    readonly repairOrderId: string
    readonly expiresIn?: Duration.DurationInput
  }) => Effect.Effect<string, LaunchLinksDisabled>
  readonly shops: ShopStoreModule.Operations
  readonly apiKeys: ApiKeysModule.Operations
  readonly inbox: WebhookInbox["Type"]
  /**
   * The runtime's database (SQLite or PostgreSQL, migrated), or `undefined` with `storage:
   * "memory"`. @shoplink/service-pages keeps its sign-in sessions there (`shoplink_sessions`), so
   * every instance on that database serves every signed-in user and a restart signs nobody out.
   */
  readonly database: SqlClient.SqlClient | undefined
  /**
   * The part lines the runtime keeps for shop systems without `writeQuotedParts` or
   * `writeOrderedParts` (see `PartsLedger`), per shop and repair order.
   */
  readonly parts: PartsLedgerModule.Operations
  /**
   * A signed link of purpose `parts` to the parts page of a repair order
   * (`{basePath}/parts?shop&ro&exp&sig`, also good for `/parts.csv`), valid for `expiresIn` (default
   * 15 minutes); needs `launchLinkSecrets` like `launchLink`. The launch route refuses it.
   */
  readonly partsLink: (grant: {
    readonly shopId: string
    readonly repairOrderId: string
    readonly expiresIn?: Duration.DurationInput
  }) => Effect.Effect<string, LaunchLinksDisabled>
  readonly shopSystem: ShopSystem["Type"]
  /** One worker pass over the due inbox entries (tests; the background worker does this itself). */
  readonly drain: Effect.Effect<InboxWorker.PassResult, Effect.Effect.Error<ReturnType<typeof InboxWorker.processDue>>>
  /** Whether a request path is one of the runtime's public, launch-keyed paths. */
  readonly isKeyedPath: (path: string) => boolean
  /**
   * A path as logs and spans carry it: the launch key after `webhooks/` or `callback/` is `:key`,
   * a random-looking segment `:redacted`, and a query string `?…`.
   */
  readonly redactPath: (path: string) => string
}

/**
 * The service tag.
 *
 * @example
 * import { Effect } from "effect"
 * import { ConnectorRuntime } from "@shoplink/connector-runtime"
 * const shops = Effect.flatMap(ConnectorRuntime.ConnectorRuntime, (runtime) => runtime.shops.list())
 *
 * @since 0.1.0
 */
export class ConnectorRuntime extends Context.Tag("@shoplink/connector-runtime/ConnectorRuntime")<ConnectorRuntime, Runtime>() {}

const LaunchRequest = Schema.Struct({
  shopId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)),
  repairOrderId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)),
  searchTerm: Schema.optional(Schema.String.pipe(Schema.maxLength(200)))
})
const decodeLaunchRequest = Schema.decodeUnknownEither(LaunchRequest, { onExcessProperty: "ignore" })

const noStore = { "cache-control": "no-store", "referrer-policy": "no-referrer" }
const jsonError = (status: number, error: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson({ error }, { status, headers: { ...noStore, ...headers } })

/** HTTP status and public message of a launch failure: never a token, never another shop's data. */
const launchFailure = (error: PunchoutLauncherModule.LaunchError): { readonly status: number; readonly error: string } => {
  switch (error._tag) {
    case "CredentialsNotFound":
    case "RepairOrderNotFound":
      return { status: 404, error: "not found" }
    case "CredentialsRevoked":
      return { status: 409, error: error.message }
    case "VehicleRequired":
      return { status: 422, error: error.message }
    case "CapabilityMissing":
      return { status: 501, error: error.message }
    case "InvalidInput":
      return { status: 400, error: error.message }
    default:
      return { status: 502, error: "the distributor or the shop system could not be reached; try again" }
  }
}

/**
 * Builds the runtime in the current Scope (the worker runs until it closes). `shopSystem` is the
 * adapter's layer (`connector.layer`); `SmsCredentials` is provided to it. The `HttpClient` in
 * context is kept by the runtime: it must live as long as this Scope (build its layer in the same
 * Scope, or use `layer`).
 *
 * @example
 * import { Effect, Redacted } from "effect"
 * import { ShopSystem } from "@shoplink/connector"
 * import { ConnectorRuntime } from "@shoplink/connector-runtime"
 * import { Layer } from "effect"
 * declare const adapter: Layer.Layer<ShopSystem.ShopSystem>
 * const runtime = ConnectorRuntime.make(adapter, {
 *   publicBaseUrl: "http://127.0.0.1:3000", smsVendorName: "Acme SMS", storage: "memory",
 *   punchout: { baseUrl: "http://127.0.0.1:4000", vendorApiKey: Redacted.make("vendor-key") }
 * })
 *
 * @since 0.1.0
 */
export const make = <E, R>(
  shopSystem: Layer.Layer<ShopSystem, E, R>,
  options: Options
): Effect.Effect<
  Runtime,
  E | StartError,
  Exclude<R, ProvidedToAdapter> | HttpClient.HttpClient | Scope.Scope
> =>
  Effect.gen(function*() {
    const basePath = normalizeBasePath(options.basePath ?? "/shoplink")
    const publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, "")
    const maxLinkLifetime = Duration.toSeconds(Duration.decode(options.launchLinkMaxLifetime ?? "1 hour"))
    const linkSecrets = options.launchLinkSecrets ?? []

    // Stores: memory, or one database (SQLite or PostgreSQL) with every secret sealed (the key
    // ring is checked before the database is opened). The SQL client is kept for the readiness check.
    const secretBox = options.storage === "memory" ? undefined : yield* keyring(options.secretKeys)
    const sql = options.storage === "memory"
      ? undefined
      : Context.get(yield* Layer.build(Storage.layer(options.storage)), SqlClient.SqlClient)
    const stores = sql === undefined || secretBox === undefined
      ? Layer.mergeAll(ShopStoreModule.layerMemory, inboxInMemory, launchesInMemory, ApiKeysModule.layerMemory, PartsLedgerModule.layerMemory)
      : Layer.mergeAll(
        ShopStoreModule.layerSql,
        inboxInSqlWith(options.inboxLease === undefined ? {} : { lease: options.inboxLease }),
        launchesInSql,
        ApiKeysModule.layerSql,
        PartsLedgerModule.layerSql
      ).pipe(
        Layer.provide(Layer.succeed(SqlClient.SqlClient, sql)),
        Layer.provide(secretBox)
      )
    const storeContext = yield* Layer.build(
      Layer.mergeAll(credentialsFromShops, ShopStoreModule.layerSmsCredentials).pipe(Layer.provideMerge(stores))
    )
    // Every shop-system call, from the launcher or the worker, gets a span and a latency sample.
    const adapterContext = yield* Layer.build(shopSystem.pipe(Layer.provide(Layer.succeedContext(storeContext))))
    const smsContext = Context.add(adapterContext, ShopSystem, instrumentShopSystem(Context.get(adapterContext, ShopSystem)))
    const context = Context.merge(Context.merge(storeContext, smsContext), yield* verification(options, storeContext))

    const punchout = SessionPool.layer(options.sessionPool).pipe(Layer.provideMerge(PunchoutClient.layer(options.punchout)))
    const launcher = Context.get(
      yield* Layer.build(
        launcherLayer({
          publicBaseUrl,
          basePath,
          smsVendorName: options.smsVendorName,
          ...(options.exportButtons === undefined ? {} : { exportButtons: options.exportButtons }),
          ...(options.keyGracePeriod === undefined ? {} : { keyGracePeriod: options.keyGracePeriod })
        }).pipe(Layer.provide(punchout), Layer.provide(Layer.succeedContext(context)))
      ),
      PunchoutLauncher
    )
    let worker: WorkerHandle | undefined
    if (options.worker !== false) {
      worker = yield* startWorker(
        InboxWorker.run(options.worker ?? {}),
        context,
        Duration.decode(options.shutdownDeadline ?? "10 seconds")
      )
    }
    if (options.retention !== false) {
      yield* Effect.forkScoped(Retention.run(options.retention ?? {}).pipe(Effect.provide(context)))
    }

    const shops = Context.get(context, ShopStore)
    const apiKeys = Context.get(context, ApiKeys)

    const keyed = new RegExp(`^${escapeRegExp(basePath)}/(webhooks|callback)/([^/?#]+)`)
    const isKeyedPath = (path: string) =>
      keyed.test(path) || path.startsWith(`${basePath}/launch/link`) || (path.startsWith(`${basePath}/parts`) && path.includes("sig="))
    // Keys (after webhooks/ or callback/, wherever they are), random-looking segments and the query.
    const redactPath = redactUrl

    const logLaunch = (how: string, launched: PunchoutLauncherModule.Launched, shopId: string) =>
      Effect.logInfo("punchout launched").pipe(
        Effect.annotateLogs({ how, shopId, repairOrderId: launched.repairOrder.id, vehicle: launched.vehicle })
      )

    // POST {basePath}/launch — an SMS backend with a vendor API key.
    const launchByKey = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const verified = yield* Effect.either(apiKeys.verify(request.headers["authorization"]))
      if (Either.isLeft(verified)) {
        yield* Effect.logWarning("launch refused").pipe(Effect.annotateLogs({ reason: verified.left.message }))
        return jsonError(401, "unauthorized", { "www-authenticate": "Bearer realm=\"shoplink\"" })
      }
      const body = yield* Effect.either(request.json)
      const input = Either.flatMap(body, (json) => Either.mapLeft(decodeLaunchRequest(json), () => undefined))
      if (Either.isLeft(input)) {
        return jsonError(400, "the body must be JSON { shopId, repairOrderId, searchTerm? } with non-empty ids")
      }
      const launched = yield* Effect.either(launcher.launch(input.right))
      if (Either.isLeft(launched)) {
        const failure = launchFailure(launched.left)
        yield* Effect.logWarning("launch failed").pipe(
          Effect.annotateLogs({ shopId: input.right.shopId, repairOrderId: input.right.repairOrderId, error: launched.left.message })
        )
        return jsonError(failure.status, failure.error)
      }
      yield* logLaunch("api", launched.right, input.right.shopId)
      return HttpServerResponse.unsafeJson({
        url: Redacted.value(launched.right.url),
        repairOrder: { id: launched.right.repairOrder.id, number: launched.right.repairOrder.number },
        vehicle: launched.right.vehicle
      }, { headers: noStore })
    }).pipe(Effect.withSpan("ConnectorRuntime.launch", { attributes: { how: "api" } }))

    // GET {basePath}/launch/link?shop&ro&exp&sig — a browser following a signed link of purpose
    // `launch` (a parts link is refused here before anything is launched).
    const launchByLink = Effect.gen(function*() {
      const forbidden = HttpServerResponse.text("Forbidden: this launch link is not valid (it may have expired). Open the repair order again.", {
        status: 403,
        headers: noStore
      })
      if (linkSecrets.length === 0) return forbidden
      const query = yield* HttpServerRequest.schemaSearchParams(Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Array(Schema.String)) })).pipe(
        Effect.orElseSucceed(() => ({}))
      )
      const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      const grant = LaunchLinks.verify(linkSecrets, query, { purpose: "launch", nowSeconds, maxLifetimeSeconds: maxLinkLifetime })
      if (Either.isLeft(grant)) {
        yield* Effect.logWarning("launch link refused").pipe(Effect.annotateLogs({ reason: grant.left.reason }))
        return forbidden
      }
      const launched = yield* Effect.either(launcher.launch({ shopId: grant.right.shopId, repairOrderId: grant.right.repairOrderId }))
      if (Either.isLeft(launched)) {
        const failure = launchFailure(launched.left)
        yield* Effect.logWarning("launch failed").pipe(
          Effect.annotateLogs({ shopId: grant.right.shopId, repairOrderId: grant.right.repairOrderId, error: launched.left.message })
        )
        // A repair order that is not the shop's is a link for something else: forbidden, not a hint.
        if (failure.status === 404) return forbidden
        return HttpServerResponse.text(failure.status >= 500 ? failure.error : failure.error, { status: failure.status, headers: noStore })
      }
      yield* logLaunch("link", launched.right, grant.right.shopId)
      return HttpServerResponse.empty({ status: 303, headers: { location: Redacted.value(launched.right.url), ...noStore } })
    }).pipe(Effect.withSpan("ConnectorRuntime.launchLink"))

    // GET {basePath}/parts?shop&ro (HTML) and /parts.csv — the kept part lines of one repair order,
    // with a vendor API key or a signed link of purpose `parts` (the grant is that repair order of that shop).
    const ledger = Context.get(context, PartsLedger)
    const partsPage = (format: "html" | "csv") =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const query = yield* HttpServerRequest.schemaSearchParams(
          Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Array(Schema.String)) })
        ).pipe(Effect.orElseSucceed((): Record<string, string | ReadonlyArray<string>> => ({})))
        let ref: { readonly shopId: string; readonly repairOrderId: string } | undefined
        if (request.headers["authorization"] !== undefined) {
          const verified = yield* Effect.either(apiKeys.verify(request.headers["authorization"]))
          if (Either.isLeft(verified)) {
            yield* Effect.logWarning("parts page refused").pipe(Effect.annotateLogs({ reason: verified.left.message }))
            return jsonError(401, "unauthorized", { "www-authenticate": "Bearer realm=\"shoplink\"" })
          }
          const shopId = query["shop"]
          const repairOrderId = query["ro"]
          if (typeof shopId !== "string" || shopId === "" || typeof repairOrderId !== "string" || repairOrderId === "") {
            return jsonError(400, "give the repair order as ?shop=<shop id>&ro=<repair order id>")
          }
          ref = { shopId, repairOrderId }
        } else {
          const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
          const grant = linkSecrets.length === 0
            ? undefined
            : LaunchLinks.verify(linkSecrets, query, { purpose: "parts", nowSeconds, maxLifetimeSeconds: maxLinkLifetime })
          if (grant === undefined || Either.isLeft(grant)) {
            if (grant !== undefined) yield* Effect.logWarning("parts link refused").pipe(Effect.annotateLogs({ reason: grant.left.reason }))
            return HttpServerResponse.text("Forbidden: this link is not valid (it may have expired). Open the repair order again.", {
              status: 403,
              headers: noStore
            })
          }
          ref = { shopId: grant.right.shopId, repairOrderId: grant.right.repairOrderId }
        }
        const lines = yield* Effect.either(ledger.list(ref))
        if (Either.isLeft(lines)) {
          yield* Effect.logError("parts page: the ledger failed", lines.left)
          return jsonError(503, "try again")
        }
        if (format === "csv") {
          return HttpServerResponse.text(PartsLedgerModule.toCsv(lines.right), {
            contentType: "text/csv; charset=utf-8",
            headers: {
              ...noStore,
              "content-disposition": `attachment; filename="parts-${ref.repairOrderId.replace(/[^A-Za-z0-9._-]/g, "_")}.csv"`
            }
          })
        }
        const csvHref = `${basePath}/parts.csv?${new URLSearchParams(
          Object.entries(query).flatMap(([k, v]): Array<[string, string]> => typeof v === "string" ? [[k, v]] : [])
        ).toString()}`
        return Html.page(renderPartsPage(ref, lines.right, csvHref))
      }).pipe(Effect.withSpan("ConnectorRuntime.parts", { attributes: { format } }))

    const publicRouter = WebhookReceiver.router({
      basePath,
      ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes })
    }).pipe(HttpRouter.provideServiceEffect(WebhookInbox, Effect.succeed(Context.get(context, WebhookInbox))),
      HttpRouter.provideServiceEffect(LaunchRegistry, Effect.succeed(Context.get(context, LaunchRegistry))),
      HttpRouter.provideServiceEffect(PartsLedger, Effect.succeed(ledger)),
      // Tells `serve` that the app it serves routes requests here: only then does it put the lean
      // webhook handler in front of the app on that listener.
      HttpRouter.use((route) =>
        Effect.zipRight(Effect.flatMap(FiberRef.get(publicRouteProbe), (probe) => Effect.sync(() => probe?.())), route)
      ))
    const apiRouter = HttpRouter.empty.pipe(
      HttpRouter.post(`${basePath}/launch` as HttpRouter.PathInput, launchByKey),
      HttpRouter.get(`${basePath}/launch/link` as HttpRouter.PathInput, launchByLink),
      HttpRouter.get(`${basePath}/parts` as HttpRouter.PathInput, partsPage("html")),
      HttpRouter.get(`${basePath}/parts.csv` as HttpRouter.PathInput, partsPage("csv"))
    )

    // Operations: health probes (public) and metrics (vendor API key).
    const maxBacklogAge = options.readiness?.maxBacklogAge
    const readiness = makeReadiness({
      sql,
      inbox: Context.get(context, WebhookInbox),
      worker,
      maxBacklogAge: maxBacklogAge === false ? undefined : Duration.decode(maxBacklogAge ?? "5 minutes"),
      databaseTimeout: Duration.decode(options.readiness?.databaseTimeout ?? "1 second")
    })
    const healthRouter = healthRoutes(readiness)
    const metrics = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const verified = yield* Effect.either(apiKeys.verify(request.headers["authorization"]))
      if (Either.isLeft(verified)) {
        if (verified.left._tag === "ApiKeyStoreError") {
          yield* Effect.logError("metrics: the API key store failed", verified.left)
          return jsonError(503, "try again")
        }
        yield* Effect.logWarning("metrics refused").pipe(Effect.annotateLogs({ reason: verified.left.message }))
        return jsonError(401, "unauthorized", { "www-authenticate": "Bearer realm=\"shoplink\"" })
      }
      return HttpServerResponse.text(yield* prometheus, { contentType: "text/plain; version=0.0.4; charset=utf-8", headers: noStore })
    })
    const adminRouter = HttpRouter.empty.pipe(HttpRouter.get("/metrics", metrics))
    // Probes and scrapes come every few seconds: they are not traced.
    const isProbePath = (url: string) => {
      const path = url.split("?")[0]
      return path === "/healthz" || path === "/readyz" || path === "/metrics"
    }

    // The platform's server span records url.full, url.query and headers, and a request that fails
    // (a route not found, a bad body) ends its fiber with an error whose message holds the URL, which
    // Effect logs at the debug level: so the platform's span is turned off and `serve` answers every
    // failure itself. Its own `http.server` span carries the method, the redacted path (`redactPath`:
    // no key, no query string) and the status; a failure is logged once (debug below 500, error from
    // 500), its rendering redacted. Probes and scrapes are not traced.
    //
    // On a `NodeHttpServer`, once the app has routed a request to `publicRouter`, the webhook routes
    // of this runtime are answered by a lean `node:http` handler in front of the app on that listener
    // (`WebhookReceiver.nodeHandler`: the same answers, inbox, metrics, span and log lines, without
    // the platform's per-request work); every other request still goes to the app.
    const webhookOptions = {
      base: basePath,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
    }
    const webhookServices = { inbox: Context.get(context, WebhookInbox), registry: Context.get(context, LaunchRegistry) }
    const serve: Runtime["serve"] = (server, app) =>
      Effect.gen(function*() {
        const front = frontOnFirstRequest(makeNodeHandler(webhookOptions, webhookServices, yield* Effect.runtime<never>()))
        yield* Effect.addFinalizer(() => Effect.sync(front.remove))
        const traced = HttpMiddleware.make((inner) =>
          Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
            const path = redactPath(request.url)
            const scrub = (text: string) => redactText(text.split(request.originalUrl).join(path).split(request.url).join(path))
            const answered = Effect.locally(inner, publicRouteProbe, () => front.install(request)).pipe(
              Effect.catchAllCause((cause) =>
                Effect.flatMap(HttpServerError.causeResponse(cause), ([response, rest]) =>
                  Cause.isEmpty(rest) || Cause.isInterruptedOnly(rest)
                    ? Effect.succeed(response)
                    : (response.status >= 500 ? Effect.logError : Effect.logDebug)("request failed", scrub(Cause.pretty(rest))).pipe(
                      Effect.annotateLogs({ method: request.method, path, status: response.status }),
                      Effect.as(response)
                    ))
              )
            )
            if (isProbePath(request.url)) return Effect.withTracerEnabled(answered, false)
            return Effect.useSpan(`http.server ${request.method}`, {
              kind: "server",
              captureStackTrace: false,
              attributes: { "http.request.method": request.method, "url.path": path },
              ...Option.match(HttpTraceContext.fromHeaders(request.headers), { onNone: () => ({}), onSome: (parent) => ({ parent }) })
            }, (span) =>
              Effect.tap(Effect.withParentSpan(answered, span), (response) => span.attribute("http.response.status_code", response.status)))
          }))
        return yield* server.serve(traced(app)).pipe(
          Effect.locally(HttpMiddleware.currentTracerDisabledWhen, () => true),
          Effect.locally(Headers.currentRedactedNames, ["authorization", "cookie", "set-cookie", "location", "x-api-key"])
        )
      }) as Effect.Effect<void, never, never>

    return {
      basePath,
      publicBaseUrl,
      publicRouter,
      apiRouter,
      healthRouter,
      adminRouter,
      readiness,
      serve,
      launch: launcher.launch,
      openOrder: launcher.openOrder,
      launchLink: ({ expiresIn, repairOrderId, shopId }) =>
        Effect.gen(function*() {
          const secret = linkSecrets[0]
          if (secret === undefined) return yield* new LaunchLinksDisabled()
          const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
          const expiresAt = now + Math.floor(Duration.toSeconds(Duration.decode(expiresIn ?? "15 minutes")))
          return LaunchLinks.url(publicBaseUrl, basePath, secret, { shopId, repairOrderId, expiresAt }, "launch")
        }),
      parts: ledger,
      partsLink: ({ expiresIn, repairOrderId, shopId }) =>
        Effect.gen(function*() {
          const secret = linkSecrets[0]
          if (secret === undefined) return yield* new LaunchLinksDisabled()
          const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
          const expiresAt = now + Math.floor(Duration.toSeconds(Duration.decode(expiresIn ?? "15 minutes")))
          return LaunchLinks.url(publicBaseUrl, basePath, secret, { shopId, repairOrderId, expiresAt }, "parts")
        }),
      shops,
      apiKeys,
      inbox: Context.get(context, WebhookInbox),
      // The stores' layers ran the migrations: `shoplink_sessions` exists.
      database: sql,
      shopSystem: Context.get(context, ShopSystem),
      drain: InboxWorker.processDue(options.worker === false ? {} : options.worker ?? {}).pipe(Effect.provide(context)),
      isKeyedPath,
      redactPath
    } satisfies Runtime
  })

/**
 * The runtime as a layer.
 *
 * @example
 * import { Layer, Redacted } from "effect"
 * import { type ShopSystem } from "@shoplink/connector"
 * import { ConnectorRuntime } from "@shoplink/connector-runtime"
 * declare const adapter: Layer.Layer<ShopSystem.ShopSystem>
 * const layer = ConnectorRuntime.layer(adapter, {
 *   publicBaseUrl: "http://127.0.0.1:3000", smsVendorName: "Acme SMS", storage: "memory",
 *   punchout: { baseUrl: "http://127.0.0.1:4000", vendorApiKey: Redacted.make("vendor-key") }
 * })
 *
 * @since 0.1.0
 */
export const layer = <E, R>(
  shopSystem: Layer.Layer<ShopSystem, E, R>,
  options: Options
): Layer.Layer<ConnectorRuntime, E | StartError, Exclude<R, ProvidedToAdapter> | HttpClient.HttpClient> =>
  Layer.scoped(ConnectorRuntime, make(shopSystem, options))

/**
 * The runtime from `Config`: the application names its variables, the runtime bakes none in.
 *
 * @example
 * import { Config, Layer } from "effect"
 * import { type ShopSystem } from "@shoplink/connector"
 * import { ConnectorRuntime, Storage } from "@shoplink/connector-runtime"
 * declare const adapter: Layer.Layer<ShopSystem.ShopSystem>
 * const layer = ConnectorRuntime.layerConfig(adapter, {
 *   publicBaseUrl: Config.string("SHOPLINK_PUBLIC_BASE_URL"),
 *   smsVendorName: Config.string("SHOPLINK_SMS_VENDOR_NAME"),
 *   storage: Storage.config("SHOPLINK_DATABASE_URL"),
 *   secretKeys: Config.redacted("SHOPLINK_SECRET_KEYS"),
 *   punchout: Config.all({ baseUrl: Config.string("SHOPLINK_PUNCHOUT_BASE_URL"), vendorApiKey: Config.redacted("SHOPLINK_VENDOR_API_KEY") })
 * })
 *
 * @since 0.1.0
 */
export const layerConfig = <E, R>(
  shopSystem: Layer.Layer<ShopSystem, E, R>,
  options: Config.Config.Wrap<Options>
): Layer.Layer<ConnectorRuntime, E | StartError | ConfigError.ConfigError, Exclude<R, ProvidedToAdapter> | HttpClient.HttpClient> =>
  Layer.unwrapEffect(Effect.map(Config.unwrap(options), (resolved) => layer(shopSystem, resolved)))

/** The `OrderVerifier` when Order Management credentials are configured (and a warning when not). */
const verification = (options: Options, stores: Context.Context<CredentialStore>) =>
  Effect.gen(function*() {
    if (options.orderManagement === undefined || options.orderVerification === false) {
      yield* Effect.logWarning(
        options.orderManagement === undefined
          ? "order webhooks are not verified with the distributor: configure Order Management (orderManagement) so a forged order is not applied"
          : "order webhooks are not verified with the distributor: orderVerification is off"
      )
      return Context.empty() as Context.Context<never>
    }
    const verifier = OrderVerifier.layerOrderManagementClient(options.orderManagement, options.orderVerification ?? {})
    return yield* Layer.build(Layer.provide(verifier, Layer.succeedContext(stores)))
  })

const keyring = (secretKeys: Redacted.Redacted<string> | undefined) =>
  Effect.gen(function*() {
    if (secretKeys === undefined) {
      return yield* new SecretBox.SecretKeysInvalid({
        problem: "no key configured: a database that holds shops' tokens needs one (generate it with `shoplink secrets generate-key`)"
      })
    }
    return SecretBox.layer(yield* SecretBox.parseKeyring(Redacted.value(secretKeys)))
  })

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
