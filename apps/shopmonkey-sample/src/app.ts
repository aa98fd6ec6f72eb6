// The integration service: sign-in, the repair order pages and "Order parts" (launch → the
// distributor's catalog) for the signed-in user's shop, on the connector's runtime (shops with
// sealed secrets, launch keys, the webhook inbox and worker, the public webhook and callback routes).
//
// What is public: the runtime's webhook and callback routes (each keyed by an unguessable launch
// key), /healthz, /readyz and /sign-in. /metrics needs a vendor API key. Everything else needs a
// session; every POST needs the session's CSRF token and a same-origin Origin (or Referer).
import * as HttpRouter from "@effect/platform/HttpRouter"
import type * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { ShopmonkeyClient, ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
import { ShopSystem } from "@shoplink/connector"
import { ConnectorRuntime, Health, Settings as Standard } from "@shoplink/connector-runtime"
import { DeliveryConsole, ServicePages, SessionStore, type SignIn } from "@shoplink/service-pages"
import { UndiciHttpClient } from "@shoplink/http-node"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { createHash } from "node:crypto"
import type { Settings } from "./settings.js"
import { type PartRow, repairOrderPage, type RepairOrderView } from "./views.js"

export interface RunningApp {
  /** Where the pages are served (the main listener). */
  readonly url: string
  /** Where the public routes are served: `url`, unless `publicPort` gave them a listener of their own. */
  readonly publicUrl: string
  /** Where users' browsers reach the pages (links, the Origin check, the Secure cookie). */
  readonly appBaseUrl: string
  /** Where the distributor and browsers reach the public routes (webhook and callback URLs). */
  readonly publicBaseUrl: string
  /** The session cookie's name (`__Host-` prefixed when the pages are on https). */
  readonly sessionCookie: string
  /** The connector runtime: shops, inbox, launches (the demo and tests look into it). */
  readonly runtime: ConnectorRuntime.Runtime
}

/** The service could not start: one line saying why. */
export class StartFailed extends Data.TaggedError("StartFailed")<{ readonly message: string }> {}

// Shopmonkey's public API gives no web link for an order, so this service links the callback page
// back to its own RO page.
const withRepairOrderLinks = (appBaseUrl: string) =>
  Layer.effect(
    ShopSystem.ShopSystem,
    Effect.map(ShopSystem.ShopSystem, (inner) => ({
      ...inner,
      capabilities: new Set([...inner.capabilities, "linkToRepairOrder" as const]),
      loadRepairOrder: (ref: { readonly shopId: string; readonly repairOrderId: string }) =>
        Effect.map(inner.loadRepairOrder(ref), (ro) => ({ ...ro, url: `${appBaseUrl}/ro/${encodeURIComponent(ro.id)}` }))
    }))
  )

// Shopmonkey keeps a VIN and a plate with its state; the distributor finds a vehicle by either. Said
// before launching, since without one the catalog opens on no vehicle at all.
const hint = "No VIN or license plate with its state: the catalog will open without this vehicle. Add one to the vehicle in Shopmonkey first."

export const startApp = (settings: Settings): Effect.Effect<RunningApp, StartFailed, Scope.Scope> =>
  Effect.gen(function*() {
    // Header, request and keep-alive timeouts (SHOPLINK_HEADERS_TIMEOUT, SHOPLINK_REQUEST_TIMEOUT,
    // SHOPLINK_KEEP_ALIVE_TIMEOUT; default 10 s, 30 s, 5 s): a slow client gets a 408, not a socket.
    const timeouts = yield* Effect.mapError(Standard.serverTimeouts, (error) => new StartFailed({ message: `server timeouts: ${error}` }))
    // Listening before the runtime serves: until it does, every request is answered 503
    // (Health.nodeServer), never left hanging.
    const listen = (port: number) =>
      NodeHttpServer.make(() => Health.nodeServer(timeouts), { port, host: settings.host }).pipe(
        Effect.mapError((error) => new StartFailed({ message: `cannot listen on ${settings.host}:${port}: ${error.message}` }))
      )
    const addressOf = (server: HttpServer.HttpServer, port: number) =>
      `http://${settings.host}:${server.address._tag === "TcpAddress" ? server.address.port : port}`
    const server = yield* listen(settings.port)
    const url = addressOf(server, settings.port)
    const publicServer = settings.publicPort === undefined ? undefined : yield* listen(settings.publicPort)
    const publicUrl = publicServer === undefined ? url : addressOf(publicServer, settings.publicPort!)
    const publicBaseUrl = (settings.publicBaseUrl ?? publicUrl).replace(/\/+$/, "")
    const appBaseUrl = (settings.appBaseUrl ?? (publicServer === undefined ? publicBaseUrl : url)).replace(/\/+$/, "")

    // One lean HttpClient for the distributor and Shopmonkey (see @shoplink/http-node), living as
    // long as the service.
    const http = yield* Layer.build(UndiciHttpClient.layer)
    const shopSystem = withRepairOrderLinks(appBaseUrl).pipe(
      Layer.provide(ShopmonkeyShopSystem.layerPerShop({ baseUrl: settings.shopmonkeyBaseUrl }))
    )
    const runtime = yield* ConnectorRuntime.make(shopSystem, {
      publicBaseUrl,
      smsVendorName: settings.smsVendorName,
      punchout: { baseUrl: settings.punchoutBaseUrl, vendorApiKey: settings.vendorApiKey },
      // Order webhooks are verified with the distributor (OrderVerifier) whenever this is set.
      orderManagement: settings.orderManagement,
      storage: settings.database,
      secretKeys: settings.secretKeys,
      worker: { pollInterval: "100 millis", baseDelay: "1 second", maxAttempts: 8 }
    }).pipe(
      Effect.provide(http),
      Effect.mapError((error) => new StartFailed({ message: error.message }))
    )
    for (const shop of settings.shops) {
      yield* runtime.shops.add(shop, { replace: true }).pipe(
        Effect.mapError((error) => new StartFailed({ message: `onboarding shop ${shop.id}: ${error.message}` }))
      )
    }
    const shops = yield* runtime.shops.list().pipe(Effect.orElseSucceed(() => []))
    const known = new Set(shops.map((shop) => shop.id))
    // A key ring that cannot open what the database holds is said at start-up, not at the first launch.
    for (const shop of shops) {
      yield* runtime.shops.smsCredentials(shop.id).pipe(
        Effect.catchAll((error) => Effect.logWarning(`shop ${shop.id}: ${error.message}`))
      )
    }
    for (const user of settings.users) {
      if (!known.has(user.shopId)) {
        yield* Effect.logWarning(`user ${user.email} belongs to shop ${user.shopId}, which is not onboarded: onboard it with \`shoplink shops add ${user.shopId} …\``)
      }
    }

    // Sign-in, the session and CSRF guards and the page responses (ServicePages of @shoplink/connector).
    const pages = yield* ServicePages.make({
      users: settings.users,
      shopName: (shopId) => runtime.shops.get(shopId).pipe(Effect.option, Effect.map((shop) => Option.getOrUndefined(shop)?.name)),
      appBaseUrl,
      otherOrigins: [url],
      // The Order parts form posts here and is redirected to the distributor's catalog.
      formActions: [settings.punchoutBaseUrl],
      // Sessions in the runtime's database: any instance serves any signed-in user, a restart signs nobody out.
      sessionStore: SessionStore.forDatabase(runtime.database),
      smsName: "Shopmonkey"
    })
    // Per shop, the Shopmonkey client the pages list orders and services with (the shop's own key:
    // a shop's pages read nothing but its own Shopmonkey account).
    const clients = new Map<string, { readonly keyDigest: string; readonly client: ShopmonkeyClient.Service }>()
    const clientFor = (shopId: string) =>
      Effect.gen(function*() {
        const secrets = yield* runtime.shops.smsCredentials(shopId)
        const apiKey = secrets[ShopmonkeyShopSystem.API_KEY_SECRET]
        if (apiKey === undefined) {
          return yield* new ShopSystem.ShopSystemError({ operation: "listOrders", reason: `no Shopmonkey API key for shop ${shopId}`, retryable: false })
        }
        const keyDigest = createHash("sha256").update(Redacted.value(apiKey)).digest("base64url")
        const cached = clients.get(shopId)
        if (cached !== undefined && cached.keyDigest === keyDigest) return cached.client
        const client = yield* ShopmonkeyClient.make({ baseUrl: settings.shopmonkeyBaseUrl, apiKey }).pipe(Effect.provide(http))
        clients.set(shopId, { keyDigest, client })
        return client
      })

    // A repair order as the list shows it, read through the adapter (the shop's own Shopmonkey key).
    const rowOf = (ro: ShopSystem.RepairOrder): ServicePages.RepairOrderRow => ({
      id: ro.id,
      number: ro.number,
      vehicle: ServicePages.vehicleName(ro.vehicle),
      customer: ro.customer?.name ?? "",
      vehicleHint: ServicePages.vehicleHint(ro.vehicle, hint)
    })

    const list = (session: SignIn.Session) =>
      Effect.gen(function*() {
        const client = yield* clientFor(session.shopId)
        const orders = yield* client.listOrders()
        const rows = yield* Effect.forEach(orders, (order) =>
          runtime.shopSystem.loadRepairOrder({ shopId: session.shopId, repairOrderId: order.id }).pipe(Effect.map(rowOf)), { concurrency: 4 })
        return ServicePages.repairOrdersPage(ServicePages.viewerOf(session), rows)
      })

    const repairOrder = (session: SignIn.Session, repairOrderId: string) =>
      Effect.gen(function*() {
        // Every read is the signed-in user's shop's: its Shopmonkey account, its inbox entries.
        const ro = yield* runtime.shopSystem.loadRepairOrder({ shopId: session.shopId, repairOrderId })
        const client = yield* clientFor(session.shopId)
        const services = yield* client.listServices(ro.id)
        const entries = yield* runtime.inbox.list({ shopId: session.shopId, repairOrderId: ro.id })
        const row = (part: (typeof services)[number]["parts"][number]): PartRow => ({
          partNumber: part.partNumber ?? "",
          brand: String(part.metadata?.["shoplinkBrandId"] ?? ""),
          name: part.name,
          quantity: part.quantity,
          costCents: part.wholesaleCostCents ?? 0,
          retailCents: part.retailCostCents ?? 0,
          coreCents: part.coreChargeCents ?? 0
        })
        const key = (s: (typeof services)[number]) => String(s.metadata?.[ShopmonkeyShopSystem.SERVICE_KEY_FIELD] ?? "")
        // The order's status as the distributor last reported it (the newest applied order delivery).
        const statusOf = (orderID: string) => {
          const latest = entries.filter((e) => e.kind === "order" && e.status === "applied" && e.contentKey.includes(`:${orderID}:`)).at(-1)
          try {
            const order = latest === undefined ? undefined : JSON.parse(latest.body).order
            return order === undefined ? "Ordered" : ServicePages.orderStatusText(order.status, order.statusDescription)
          } catch {
            return "Ordered"
          }
        }
        const view: RepairOrderView = {
          ...rowOf(ro),
          ...ServicePages.deliveries(entries),
          quoted: services.filter((s) => key(s) === "quote").flatMap((s) => s.parts.map(row)),
          orders: services.filter((s) => key(s).startsWith("order:")).map((s) => {
            const orderID = key(s).slice("order:".length)
            return { orderID, statusDescription: statusOf(orderID), lines: s.parts.map(row) }
          })
        }
        return repairOrderPage(ServicePages.viewerOf(session), view)
      })

    const routes = pages.routes({ list, repairOrder, launch: runtime.launch })
    // The runtime's probes (/healthz, /readyz) answer on every listener; /metrics (vendor API key)
    // only beside the pages, never on the public listener.
    // The delivery console (/console): operators (users with role "operator") or a vendor API key.
    const internal = HttpRouter.concatAll(routes, DeliveryConsole.router(runtime, pages), runtime.healthRouter, runtime.adminRouter)
    if (publicServer === undefined) {
      yield* runtime.serve(server, HttpRouter.concat(internal, runtime.publicRouter))
    } else {
      yield* runtime.serve(server, internal)
      yield* runtime.serve(publicServer, HttpRouter.concat(runtime.healthRouter, runtime.publicRouter))
    }
    return { url, publicUrl, appBaseUrl, publicBaseUrl, sessionCookie: pages.sessionCookie, runtime } satisfies RunningApp
  })
