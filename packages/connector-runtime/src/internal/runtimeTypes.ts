// The runtime's public shapes, its settings and the running runtime, re-exported by ConnectorRuntime
// (which keeps to the wiring).
import type * as HttpApp from "@effect/platform/HttpApp"
import type * as HttpRouter from "@effect/platform/HttpRouter"
import type * as HttpServer from "@effect/platform/HttpServer"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as SqlClient from "@effect/sql/SqlClient"
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import type { ShopSystem, ShopSystemError } from "@shoplink/connector/ShopSystem"
import type { OrderManagementClient } from "@shoplink/order-management"
import type { Punchout } from "@shoplink/protocol"
import type { PunchoutClient, SessionPool } from "@shoplink/punchout"
import type * as ApiKeysModule from "../ApiKeys.js"
import type { LaunchLinksDisabled } from "../ConnectorRuntime.js"
import type * as Health from "../Health.js"
import type * as InboxWorker from "../InboxWorker.js"
import type * as OrderVerifier from "../OrderVerifier.js"
import type * as PartsLedgerModule from "../PartsLedger.js"
import type * as PunchoutLauncherModule from "../PunchoutLauncher.js"
import type * as RepairOrderStatesModule from "../RepairOrderStates.js"
import type * as Retention from "../Retention.js"
import type * as ShopStoreModule from "../ShopStore.js"
import type * as SmsWebhooksModule from "../SmsWebhooks.js"
import type * as Storage from "../Storage.js"
import type { WebhookInbox } from "../WebhookInbox.js"

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
   * Secrets the shops' SMS webhook URLs are keyed with (first keys; see `SmsWebhooks`). Without
   * them, or with an adapter that does not receive repair-order events, the route answers 404.
   */
  readonly smsWebhookSecrets?: ReadonlyArray<Redacted.Redacted<string>> | undefined
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
  /** Refuse launches without a vehicle the catalog can find (see `PunchoutLauncher.Options`). */
  readonly requireVehicle?: boolean | undefined
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
  /** What the SMS's repair-order webhooks said of each repair order, read back (`RepairOrderStates`). */
  readonly repairOrderStates: RepairOrderStatesModule.Operations
  /** The URL the shop's SMS posts repair-order webhooks to (`{basePath}/sms-webhooks/{key}`). */
  readonly smsWebhookUrl: (shopId: string) => Effect.Effect<string, SmsWebhooksModule.SmsWebhooksDisabled>
  /**
   * Registers the shop's `smsWebhookUrl` with its SMS (the adapter's `repairOrderEvents.subscribe`,
   * idempotent). Call it when a shop is added and after rotating `smsWebhookSecrets`.
   */
  readonly subscribeRepairOrderEvents: (
    shopId: string
  ) => Effect.Effect<string, SmsWebhooksModule.SmsWebhooksDisabled | ShopSystemError>
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
