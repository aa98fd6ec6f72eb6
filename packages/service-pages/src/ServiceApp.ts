/**
 * A whole integration service for any adapter that lists repair orders: `make(connector, settings)`
 * starts the runtime on the connector and serves sign-in, the repair-order list (the adapter's
 * `listRepairOrders`), the repair-order page with its parts, Order parts, the delivery console and
 * the runtime's routes. Listening starts first (503 until the runtime serves); with `publicPort`,
 * the webhooks, callback, launch API and parts page get a listener of their own. The settings
 * from the environment (`serviceConfig`, `distributorConfig`, `readOrExplain`) and a `main` for
 * `pnpm start` are here too; an app adds its SMS's settings and its embedded default.
 *
 * What is public: the runtime's webhook and callback routes (keyed by launch keys), /healthz,
 * /readyz and /sign-in. The launch API and parts page need a vendor API key or a signed link,
 * /metrics a vendor API key, everything else a session (POSTs its CSRF token and Origin).
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpRouter from "@effect/platform/HttpRouter"
import type * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type { Connector } from "@shoplink/connector"
import { ShopSystem } from "@shoplink/connector"
import {
  ConnectorRuntime,
  Health,
  Settings as Standard,
  type ShopStore,
  type Storage
} from "@shoplink/connector-runtime"
import { UndiciHttpClient } from "@shoplink/http-node"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import * as DeliveryConsole from "./DeliveryConsole.js"
import { partsOf, partsSection } from "./internal/partsView.js"
import * as ServicePages from "./ServicePages.js"
import * as SessionStore from "./SessionStore.js"
import type * as SignIn from "./SignIn.js"

/**
 * What the service runs with: where it listens and is reached, the distributor, the database and
 * its keyring, who signs in, and the shops onboarded at start-up.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { ServiceApp } from "@shoplink/service-pages"
 * const settings: ServiceApp.Settings = {
 *   port: 3000, host: "127.0.0.1", publicPort: undefined, publicBaseUrl: undefined, appBaseUrl: undefined,
 *   smsVendorName: "Acme SMS", database: { sqlite: "shoplink.sqlite" },
 *   punchoutBaseUrl: "https://punchout.distributor.example", vendorApiKey: Redacted.make("vendor-key"),
 *   orderManagement: undefined, secretKeys: Redacted.make("k1:…"), users: [], shops: []
 * }
 *
 * @since 0.1.0
 */
export interface Settings {
  readonly port: number
  readonly host: string
  /** A listener of its own for the public routes (webhooks, callback, launch API, parts page). */
  readonly publicPort: number | undefined
  /** Where the distributor (webhooks) and browsers (callback, signed links) reach the public routes. */
  readonly publicBaseUrl: string | undefined
  /** Where users' browsers reach the pages (default: the public base URL on one listener). */
  readonly appBaseUrl: string | undefined
  /** Shown in the distributor's footer. */
  readonly smsVendorName: string
  readonly database: Storage.Location
  readonly punchoutBaseUrl: string
  readonly vendorApiKey: Redacted.Redacted<string>
  /** With it, every order webhook is verified with the distributor before it is applied. */
  readonly orderManagement: ConnectorRuntime.Options["orderManagement"]
  /** The keyring sealing the shops' secrets in the database (`id:base64key[,…]`). */
  readonly secretKeys: Redacted.Redacted<string>
  /** Signs links to the runtime's parts page (and launch links); without it, no such link. */
  readonly linkSecret?: Redacted.Redacted<string> | undefined
  /**
   * Keys the shops' SMS webhook URLs; with it and an adapter that receives repair-order events,
   * every shop is subscribed at start-up (`runtime.subscribeRepairOrderEvents`).
   */
  readonly smsWebhookSecret?: Redacted.Redacted<string> | undefined
  readonly users: ReadonlyArray<SignIn.User>
  /** Shops onboarded (or replaced) at start-up. */
  readonly shops: ReadonlyArray<ShopStore.ShopInput>
}

/**
 * How the pages treat the SMS: a vehicle the catalog cannot find (`"button-and-hint"`: Order parts
 * opens the catalog without it; `"hint"`: the hint alone, and the runtime refuses such a launch), whether an SMS error
 * retrying cannot cure is shown (422) for the user to fix, and how many repair orders the list shows.
 *
 * @example
 * import type { ServiceApp } from "@shoplink/service-pages"
 * const options: ServiceApp.Options = { withoutVehicle: "hint", showPermanentSmsErrors: true }
 *
 * @since 0.1.0
 */
export interface Options {
  readonly withoutVehicle?: ServicePages.WithoutVehicle
  readonly showPermanentSmsErrors?: boolean
  /** The newest open repair orders the list shows (default 50), in RO number order. */
  readonly listLimit?: number
}

/**
 * A started service.
 *
 * @example
 * import type { ServiceApp } from "@shoplink/service-pages"
 * const where = (app: ServiceApp.RunningApp) => `${app.appBaseUrl} (public routes at ${app.publicBaseUrl})`
 *
 * @since 0.1.0
 */
export interface RunningApp {
  /** Where the pages are served (the main listener). */
  readonly url: string
  /** Where the public routes are served: `url`, unless `publicPort` gave them a listener. */
  readonly publicUrl: string
  readonly appBaseUrl: string
  readonly publicBaseUrl: string
  /** The session cookie's name (`__Host-` prefixed when the pages are on https). */
  readonly sessionCookie: string
  readonly runtime: ConnectorRuntime.Runtime
}

/**
 * The service could not start: one line saying why.
 *
 * @example
 * import { ServiceApp } from "@shoplink/service-pages"
 * new ServiceApp.StartFailed({ message: "cannot listen on 127.0.0.1:3000: address in use" }).message
 *
 * @since 0.1.0
 */
export class StartFailed extends Data.TaggedError("StartFailed")<{ readonly message: string }> {}

/**
 * What a connector's layer may need that the service gives it: the runtime's stores and
 * `SmsCredentials`, and an `HttpClient`.
 *
 * @example
 * import type { Connector } from "@shoplink/connector"
 * import type { ServiceApp } from "@shoplink/service-pages"
 * type Servable = Connector.Connector<unknown, ServiceApp.Provided>
 *
 * @since 0.1.0
 */
export type Provided = ConnectorRuntime.ProvidedToAdapter | HttpClient.HttpClient

const messageOf = (error: unknown) =>
  typeof error === "object" && error !== null && "message" in error ? String(error.message) : String(error)

// The callback page links back to this service's RO page when the SMS gives no link of its own.
const withRepairOrderLinks = (operations: ShopSystem.Operations, appBaseUrl: string): ShopSystem.Operations =>
  operations.capabilities.has("linkToRepairOrder") ? operations : {
    ...operations,
    capabilities: new Set([...operations.capabilities, "linkToRepairOrder"]),
    loadRepairOrder: (ref) =>
      Effect.map(
        operations.loadRepairOrder(ref),
        (ro) => ({ ...ro, url: `${appBaseUrl}/ro/${encodeURIComponent(ro.id)}` })
      )
  }

const byNumber = (a: ShopSystem.RepairOrder, b: ShopSystem.RepairOrder) =>
  a.number.localeCompare(b.number, "en", { numeric: true })

/**
 * Starts the service in the current Scope. The connector must declare `listRepairOrders`; what its
 * layer needs beyond what the runtime provides (`SmsCredentials`) and an `HttpClient` (the service
 * makes one) is left to the caller.
 *
 * @example
 * import { Effect } from "effect"
 * import type { Connector } from "@shoplink/connector"
 * import { ServiceApp } from "@shoplink/service-pages"
 * declare const connector: Connector.Connector
 * declare const settings: ServiceApp.Settings
 * const program = Effect.scoped(Effect.flatMap(ServiceApp.make(connector, settings), () => Effect.never))
 *
 * @since 0.1.0
 */
export const make = <E, R>(
  connector: Connector.Connector<E, R>,
  settings: Settings,
  options: Options = {}
): Effect.Effect<
  RunningApp,
  StartFailed,
  Scope.Scope | Exclude<Exclude<R, ConnectorRuntime.ProvidedToAdapter>, HttpClient.HttpClient>
> =>
  Effect.gen(function*() {
    if (!connector.capabilities.has("listRepairOrders")) {
      return yield* new StartFailed({
        message: `the ${connector.name} connector cannot list repair orders (capability listRepairOrders)`
      })
    }
    const timeouts = yield* Effect.mapError(Standard.serverTimeouts, (error) =>
      new StartFailed({ message: `server timeouts: ${error}` }))
    // Listening before the runtime serves: until it does, every request is answered 503.
    const listen = (port: number) =>
      NodeHttpServer.make(() =>
        Health.nodeServer(timeouts), { port, host: settings.host }).pipe(
          Effect.mapError((error) =>
            new StartFailed({ message: `cannot listen on ${settings.host}:${port}: ${error.message}` })
          )
        )
    const addressOf = (server: HttpServer.HttpServer, port: number) =>
      `http://${settings.host}:${server.address._tag === "TcpAddress" ? server.address.port : port}`
    const server = yield* listen(settings.port)
    const url = addressOf(server, settings.port)
    const publicServer = settings.publicPort === undefined ? undefined : yield* listen(settings.publicPort)
    const publicUrl = publicServer === undefined ? url : addressOf(publicServer, settings.publicPort!)
    const publicBaseUrl = (settings.publicBaseUrl ?? publicUrl).replace(/\/+$/, "")
    const appBaseUrl = (settings.appBaseUrl ?? (publicServer === undefined ? publicBaseUrl : url)).replace(/\/+$/, "")

    // One HttpClient for the distributor and the SMS, living as long as the service.
    const http = yield* Layer.build(UndiciHttpClient.layer)
    const shopSystem = Layer.effect(
      ShopSystem.ShopSystem,
      Effect.map(ShopSystem.ShopSystem, (sms) => withRepairOrderLinks(sms, appBaseUrl))
    ).pipe(
      Layer.provide(connector.layer)
    )
    const runtime = yield* ConnectorRuntime.make(shopSystem, {
      publicBaseUrl,
      smsVendorName: settings.smsVendorName,
      punchout: { baseUrl: settings.punchoutBaseUrl, vendorApiKey: settings.vendorApiKey },
      orderManagement: settings.orderManagement,
      storage: settings.database,
      secretKeys: settings.secretKeys,
      ...(settings.linkSecret === undefined ? {} : { launchLinkSecrets: [settings.linkSecret] }),
      ...(settings.smsWebhookSecret === undefined ? {} : { smsWebhookSecrets: [settings.smsWebhookSecret] }),
      // "hint": no Order parts without a vehicle, and the runtime refuses such a launch too.
      requireVehicle: options.withoutVehicle === "hint",
      worker: { pollInterval: "100 millis", baseDelay: "1 second", maxAttempts: 8 }
    }).pipe(Effect.provide(http), Effect.mapError((error) => new StartFailed({ message: messageOf(error) })))
    const listRepairOrders = runtime.shopSystem.listRepairOrders
    if (listRepairOrders === undefined) {
      return yield* new StartFailed({
        message: `the ${connector.name} connector declares listRepairOrders but its ShopSystem has no listRepairOrders`
      })
    }
    for (const shop of settings.shops) {
      yield* runtime.shops.add(shop, { replace: true }).pipe(
        Effect.mapError((error) => new StartFailed({ message: `onboarding shop ${shop.id}: ${error.message}` }))
      )
    }
    const known = new Set((yield* runtime.shops.list().pipe(Effect.orElseSucceed(() => []))).map((shop) => shop.id))
    // A key ring that cannot open what the database holds is said at start-up, not at the first launch.
    for (const shopId of known) {
      yield* runtime.shops.smsCredentials(shopId).pipe(Effect.catchAll((error) =>
        Effect.logWarning(`shop ${shopId}: ${error.message}`)
      ))
    }
    // The SMS posts each shop's repair-order changes here; a failure is said, and the service runs on.
    // A few shops at a time: each is a call or two to the SMS before the service is ready.
    if (settings.smsWebhookSecret !== undefined && connector.capabilities.has("receiveRepairOrderEvents")) {
      yield* Effect.forEach(known, (shopId) =>
        runtime.subscribeRepairOrderEvents(shopId).pipe(
          Effect.flatMap((address) =>
            Effect.logInfo("subscribed to repair-order events").pipe(
              Effect.annotateLogs({ shopId, url: runtime.redactPath(address) })
            )
          ),
          Effect.catchAll((error) =>
            Effect.logWarning(`shop ${shopId}: repair-order events not subscribed: ${error.message}`)
          )
        ), { concurrency: 4, discard: true })
    }
    for (const user of settings.users.filter((u) => !known.has(u.shopId))) {
      yield* Effect.logWarning(
        `user ${user.email} belongs to shop ${user.shopId}, which is not onboarded: onboard it with \`shoplink shops add ${user.shopId} …\``
      )
    }

    const pages = yield* ServicePages.make({
      users: settings.users,
      shopName: (shopId) =>
        runtime.shops.get(shopId).pipe(Effect.option, Effect.map((shop) => Option.getOrUndefined(shop)?.name)),
      appBaseUrl,
      otherOrigins: [url],
      // The Order parts form posts here and is redirected to the distributor's catalog.
      formActions: [settings.punchoutBaseUrl],
      // Sessions in the runtime's database: any instance serves any signed-in user.
      sessionStore: SessionStore.forDatabase(runtime.database),
      smsName: connector.name,
      ...(options.showPermanentSmsErrors === undefined
        ? {}
        : { showPermanentSmsErrors: options.showPermanentSmsErrors })
    })
    const withoutVehicle = options.withoutVehicle ?? "button-and-hint"
    const hint = withoutVehicle === "hint"
      ? `No VIN or license plate with its state: add one to the vehicle in ${connector.name} to order parts.`
      : `No VIN or license plate with its state: the catalog will open without this vehicle. Add one to the vehicle in ${connector.name} first.`
    const rowOf = (ro: ShopSystem.RepairOrder): ServicePages.RepairOrderRow => ({
      id: ro.id,
      number: ro.number,
      vehicle: ServicePages.vehicleName(ro.vehicle),
      customer: ro.customer?.name ?? "",
      vehicleHint: ServicePages.vehicleHint(ro.vehicle, hint),
      closedNote: ro.closed === true
        ? `Closed in ${connector.name}: parts are no longer ordered for this repair order.`
        : undefined
    })
    const list = (session: SignIn.Session) =>
      Effect.map(
        listRepairOrders({ shopId: session.shopId, limit: options.listLimit ?? 50 }),
        (ros) =>
          ServicePages.repairOrdersPage(
            ServicePages.viewerOf(session),
            [...ros].sort(byNumber).map(rowOf),
            withoutVehicle
          )
      )

    // The kinds of lines the adapter cannot write are kept by the runtime (its parts ledger).
    const caps = connector.capabilities
    const fromLedger = new Set([
      ...(caps.has("writeQuotedParts") ? [] : ["quote" as const]),
      ...(caps.has("writeOrderedParts") ? [] : ["order" as const])
    ])
    const note = fromLedger.size === 0
      ? `These parts are on the repair order in ${connector.name}.`
      : `${connector.name} takes no part lines from other systems: the integration keeps the quoted and ordered parts of this repair order.`
    const repairOrder = (session: SignIn.Session, repairOrderId: string) =>
      Effect.gen(function*() {
        // Every read is the signed-in user's shop's: its SMS account, its inbox entries, its ledger.
        const ro = yield* runtime.shopSystem.loadRepairOrder({ shopId: session.shopId, repairOrderId })
        const ref = { shopId: session.shopId, repairOrderId: ro.id }
        const entries = yield* runtime.inbox.list(ref)
        const kept = fromLedger.size === 0 ? [] : yield* runtime.parts.list(ref)
        const partsPage = fromLedger.size === 0
          ? Option.none()
          : yield* Effect.option(runtime.partsLink({ ...ref, expiresIn: "30 minutes" }))
        const body = partsSection(partsOf(kept, entries, fromLedger), note, Option.getOrUndefined(partsPage))
        return ServicePages.repairOrderPage(
          ServicePages.viewerOf(session),
          { ...rowOf(ro), ...ServicePages.deliveries(entries) },
          body,
          {
            withoutVehicle,
            ...(fromLedger.size === 0 ? {} : { applied: { being: "recorded", couldNot: "record" } })
          }
        )
      })

    const routes = pages.routes({ list, repairOrder, launch: runtime.launch })
    // The probes answer on every listener; /metrics and the pages only on the main one.
    const internal = HttpRouter.concatAll(
      routes,
      DeliveryConsole.router(runtime, pages),
      runtime.healthRouter,
      runtime.adminRouter
    )
    const publicRoutes = HttpRouter.concat(runtime.apiRouter, runtime.publicRouter)
    if (publicServer === undefined) {
      yield* runtime.serve(server, HttpRouter.concat(internal, publicRoutes))
    } else {
      yield* runtime.serve(server, internal)
      yield* runtime.serve(publicServer, HttpRouter.concat(runtime.healthRouter, publicRoutes))
    }
    return {
      url,
      publicUrl,
      appBaseUrl,
      publicBaseUrl,
      sessionCookie: pages.sessionCookie,
      runtime
    } satisfies RunningApp
  })
