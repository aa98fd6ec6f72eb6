/**
 * The connector runtime in one piece, for all of a vendor's shops: stores, punchout client and
 * session pool, launcher, inbox worker, and the routers to mount (`publicRouter`, `apiRouter`,
 * `healthRouter`, `adminRouter`) with `serve`, which keeps secrets out of spans, logs and errors.
 * Handlers live in internal/http, routes in internal/routes; docs/architecture.md has the rest.
 *
 * @since 0.1.0
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type * as SmsCredentials from "@shoplink/connector/SmsCredentials"
import { ShopSystem } from "@shoplink/connector/ShopSystem"
import { PunchoutClient, type PunchoutError, SessionPool } from "@shoplink/punchout"
import * as ApiKeysModule from "./ApiKeys.js"
import type { CredentialStore } from "./CredentialStore.js"
import * as Health from "./Health.js"
import * as InboxWorker from "./InboxWorker.js"
import { launchHandlers } from "./internal/http/launch.js"
import { metricsHandler } from "./internal/http/metrics.js"
import { partsHandler } from "./internal/http/parts.js"
import { smsWebhooks } from "./internal/http/smsEvents.js"
import { mintLink } from "./internal/http/responses.js"
import { announcing, makeServe } from "./internal/http/serve.js"
import { DEFAULT_MAX_BODY_BYTES } from "./internal/nodeWebhooks.js"
import { instrumentShopSystem, makeReadiness, startWorker } from "./internal/operations.js"
import { redactUrl } from "./internal/redact.js"
import * as Routes from "./internal/routes.js"
import type { Options, Runtime } from "./internal/runtimeTypes.js"
import { buildStores, verification } from "./internal/stores.js"
import { LaunchRegistry, type layerSql as launchesInSql } from "./LaunchRegistry.js"
import * as PartsLedgerModule from "./PartsLedger.js"
import * as PunchoutLauncherModule from "./PunchoutLauncher.js"
import * as RepairOrderStatesModule from "./RepairOrderStates.js"
import * as Retention from "./Retention.js"
import type * as SecretBox from "./SecretBox.js"
import * as ShopStoreModule from "./ShopStore.js"
import type * as Storage from "./Storage.js"
import type * as WebhookInboxModule from "./WebhookInbox.js"
import { WebhookInbox } from "./WebhookInbox.js"
import * as WebhookReceiver from "./WebhookReceiver.js"

export type { Options, Runtime } from "./internal/runtimeTypes.js"

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
  | ShopStoreModule.ShopStore
  | CredentialStore
  | WebhookInbox
  | LaunchRegistry
  | ApiKeysModule.ApiKeys
  | PartsLedgerModule.PartsLedger
  | RepairOrderStatesModule.RepairOrderStates

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
  | Layer.Layer.Error<typeof WebhookInboxModule.layerSql>
  | Layer.Layer.Error<typeof launchesInSql>
  | PartsLedgerModule.PartsLedgerError
  | RepairOrderStatesModule.RepairOrderStatesError

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
export class ConnectorRuntime
  extends Context.Tag("@shoplink/connector-runtime/ConnectorRuntime")<ConnectorRuntime, Runtime>()
{}

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
): Effect.Effect<Runtime, E | StartError, Exclude<R, ProvidedToAdapter> | HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function*() {
    const basePath = Routes.basePathOf(options.basePath)
    const publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, "")
    const links = {
      secrets: options.launchLinkSecrets ?? [],
      maxLifetimeSeconds: Duration.toSeconds(Duration.decode(options.launchLinkMaxLifetime ?? "1 hour"))
    }

    const { context: storeContext, sql } = yield* buildStores(options)
    // Every shop-system call, from the launcher or the worker, gets a span and a latency sample.
    const adapterContext = yield* Layer.build(shopSystem.pipe(Layer.provide(Layer.succeedContext(storeContext))))
    const instrumented = instrumentShopSystem(Context.get(adapterContext, ShopSystem))
    const smsContext = Context.add(adapterContext, ShopSystem, instrumented)
    const context = Context.merge(Context.merge(storeContext, smsContext), yield* verification(options, storeContext))

    const punchout = SessionPool.layer(options.sessionPool).pipe(
      Layer.provideMerge(PunchoutClient.layer(options.punchout))
    )
    const launcher = Context.get(
      yield* Layer.build(
        PunchoutLauncherModule.layer({
          publicBaseUrl,
          basePath,
          smsVendorName: options.smsVendorName,
          ...(options.exportButtons === undefined ? {} : { exportButtons: options.exportButtons }),
          ...(options.keyGracePeriod === undefined ? {} : { keyGracePeriod: options.keyGracePeriod }),
          requireVehicle: options.requireVehicle
        }).pipe(Layer.provide(punchout), Layer.provide(Layer.succeedContext(context)))
      ),
      PunchoutLauncherModule.PunchoutLauncher
    )
    const worker = options.worker === false
      ? undefined
      : yield* startWorker(
        InboxWorker.run(options.worker ?? {}),
        context,
        Duration.decode(options.shutdownDeadline ?? "10 seconds")
      )
    if (options.retention !== false) {
      yield* Effect.forkScoped(Retention.run(options.retention ?? {}).pipe(Effect.provide(context)))
    }

    const shops = Context.get(context, ShopStoreModule.ShopStore)
    const apiKeys = Context.get(context, ApiKeysModule.ApiKeys)
    const inbox = Context.get(context, WebhookInbox)
    const registry = Context.get(context, LaunchRegistry)
    const ledger = Context.get(context, PartsLedgerModule.PartsLedger)

    const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
    const sms = smsWebhooks({
      secrets: options.smsWebhookSecrets ?? [],
      sms: instrumented,
      states: Context.get(context, RepairOrderStatesModule.RepairOrderStates),
      maxBodyBytes,
      urlOf: (key) => Routes.url(publicBaseUrl, "smsWebhook", basePath, key)
    })
    const publicRouter = WebhookReceiver.router({ basePath, maxBodyBytes }).pipe(
      HttpRouter.provideServiceEffect(WebhookInbox, Effect.succeed(inbox)),
      HttpRouter.provideServiceEffect(LaunchRegistry, Effect.succeed(registry)),
      HttpRouter.provideServiceEffect(PartsLedgerModule.PartsLedger, Effect.succeed(ledger)),
      Routes.mount("smsWebhook", basePath, sms.handler),
      announcing
    )
    const launch = launchHandlers({ launcher, apiKeys, links })
    const parts = partsHandler({ basePath, apiKeys, ledger, links })
    const apiRouter = HttpRouter.empty.pipe(
      Routes.mount("launch", basePath, launch.byKey),
      Routes.mount("launchLink", basePath, launch.byLink),
      Routes.mount("parts", basePath, parts("html")),
      Routes.mount("partsCsv", basePath, parts("csv"))
    )
    const maxBacklogAge = options.readiness?.maxBacklogAge
    const readiness = makeReadiness({
      sql,
      inbox,
      worker,
      maxBacklogAge: maxBacklogAge === false ? undefined : Duration.decode(maxBacklogAge ?? "5 minutes"),
      databaseTimeout: Duration.decode(options.readiness?.databaseTimeout ?? "1 second")
    })
    const adminRouter = HttpRouter.empty.pipe(Routes.mount("metrics", "", metricsHandler(apiKeys)))

    const link = mintLink({ ...links, publicBaseUrl, basePath, disabled: () => new LaunchLinksDisabled() })
    return {
      basePath,
      publicBaseUrl,
      publicRouter,
      apiRouter,
      healthRouter: Health.router(readiness),
      adminRouter,
      readiness,
      serve: makeServe({ base: basePath, maxBodyBytes }, { inbox, registry }),
      launch: launcher.launch,
      openOrder: launcher.openOrder,
      launchLink: link("launch"),
      parts: ledger,
      partsLink: link("parts"),
      shops,
      apiKeys,
      inbox,
      // The stores' layers ran the migrations: `shoplink_sessions` exists.
      database: sql,
      shopSystem: Context.get(context, ShopSystem),
      repairOrderStates: Context.get(context, RepairOrderStatesModule.RepairOrderStates),
      smsWebhookUrl: sms.url,
      subscribeRepairOrderEvents: sms.subscribe,
      drain: InboxWorker.processDue(options.worker === false ? {} : options.worker ?? {}).pipe(Effect.provide(context)),
      isKeyedPath: Routes.isKeyedPath(basePath),
      // Keys (after webhooks/ or callback/, wherever they are), random-looking segments and the query.
      redactPath: redactUrl
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
 *   punchout: Config.all({
 *     baseUrl: Config.string("SHOPLINK_PUNCHOUT_BASE_URL"),
 *     vendorApiKey: Config.redacted("SHOPLINK_VENDOR_API_KEY")
 *   })
 * })
 *
 * @since 0.1.0
 */
export const layerConfig = <E, R>(
  shopSystem: Layer.Layer<ShopSystem, E, R>,
  options: Config.Config.Wrap<Options>
): Layer.Layer<
  ConnectorRuntime,
  E | StartError | ConfigError.ConfigError,
  Exclude<R, ProvidedToAdapter> | HttpClient.HttpClient
> => Layer.unwrapEffect(Effect.map(Config.unwrap(options), (resolved) => layer(shopSystem, resolved)))
