// The integration service: sign-in, the repair order pages and "Order parts" (launch → the
// distributor's catalog) for the signed-in user's shop, on the connector's runtime. Tekmetric takes
// no part lines, so the runtime keeps the quoted and ordered parts (its parts ledger) and the RO
// page shows them, with a signed link to the runtime's parts page and its CSV; the adapter records
// each distributor order on the repair order's job note in Tekmetric.
//
// What is public: the runtime's webhook and callback routes (each keyed by an unguessable launch
// key), /healthz, /readyz and /sign-in. The runtime's parts page needs a vendor API key or a signed
// link; everything else needs a session, and every POST the session's CSRF token and a same-origin
// Origin (or Referer).
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { TekmetricClient, TekmetricConnector } from "@shoplink/adapter-tekmetric"
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
import { repairOrderPage } from "./views.js"

export interface RunningApp {
  readonly url: string
  readonly publicBaseUrl: string
  readonly sessionCookie: string
  readonly runtime: ConnectorRuntime.Runtime
}

/** The service could not start: one line saying why. */
export class StartFailed extends Data.TaggedError("StartFailed")<{ readonly message: string }> {}

const hint = "No VIN or license plate with its state: add one to the vehicle in Tekmetric to order parts."

export const startApp = (settings: Settings): Effect.Effect<RunningApp, StartFailed, Scope.Scope> =>
  Effect.gen(function*() {
    // Header, request and keep-alive timeouts (SHOPLINK_HEADERS_TIMEOUT, SHOPLINK_REQUEST_TIMEOUT,
    // SHOPLINK_KEEP_ALIVE_TIMEOUT; default 10 s, 30 s, 5 s): a slow client gets a 408, not a socket.
    const timeouts = yield* Effect.mapError(Standard.serverTimeouts, (error) => new StartFailed({ message: `server timeouts: ${error}` }))
    const server = yield* NodeHttpServer.make(() => Health.nodeServer(timeouts), { port: settings.port, host: settings.host }).pipe(
      Effect.mapError((error) => new StartFailed({ message: `cannot listen on ${settings.host}:${settings.port}: ${error.message}` }))
    )
    const url = `http://${settings.host}:${server.address._tag === "TcpAddress" ? server.address.port : settings.port}`
    const publicBaseUrl = (settings.publicBaseUrl ?? url).replace(/\/+$/, "")

    // One HttpClient for the distributor and Tekmetric, living as long as the service.
    const http = yield* Layer.build(UndiciHttpClient.layer)
    const shopSystem = TekmetricConnector.layer.pipe(
      Layer.provide(Layer.succeed(TekmetricConnector.TekmetricConfig, { baseUrl: settings.tekmetricBaseUrl })),
      Layer.provide(Layer.succeedContext(http))
    )
    const runtime = yield* ConnectorRuntime.make(shopSystem, {
      publicBaseUrl,
      smsVendorName: settings.smsVendorName,
      punchout: { baseUrl: settings.punchoutBaseUrl, vendorApiKey: settings.vendorApiKey },
      // Order webhooks are verified with the distributor (OrderVerifier) whenever this is set.
      orderManagement: settings.orderManagement,
      storage: settings.database,
      secretKeys: settings.secretKeys,
      launchLinkSecrets: [settings.linkSecret],
      worker: { pollInterval: "100 millis", baseDelay: "1 second", maxAttempts: 8 }
    }).pipe(Effect.provide(http), Effect.mapError((error) => new StartFailed({ message: error.message })))
    for (const shop of settings.shops) {
      yield* runtime.shops.add(shop, { replace: true }).pipe(Effect.mapError((error) => new StartFailed({ message: `onboarding shop ${shop.id}: ${error.message}` })))
    }

    // Sign-in, the session and CSRF guards and the page responses (ServicePages of @shoplink/connector).
    const pages = yield* ServicePages.make({
      users: settings.users,
      shopName: (shopId) => runtime.shops.get(shopId).pipe(Effect.option, Effect.map((shop) => Option.getOrUndefined(shop)?.name)),
      appBaseUrl: publicBaseUrl,
      otherOrigins: [url],
      // The Order parts form posts here and is redirected to the distributor's catalog.
      formActions: [settings.punchoutBaseUrl],
      // Sessions in the runtime's database: any instance serves any signed-in user, a restart signs nobody out.
      sessionStore: SessionStore.forDatabase(runtime.database),
      smsName: "Tekmetric",
      // A Tekmetric refusal (a shop outside the token's scope, an RO without a vehicle) is for the user to fix.
      showPermanentSmsErrors: true
    })
    // Per shop, the Tekmetric client the pages list repair orders and jobs with (the shop's own
    // credentials and Tekmetric shop: a shop's pages read nothing but its own Tekmetric shop).
    const clients = new Map<string, { readonly digest: string; readonly client: TekmetricClient.Client; readonly shop: string }>()
    const clientFor = (shopId: string) =>
      Effect.gen(function*() {
        const secrets = yield* runtime.shops.smsCredentials(shopId)
        const clientId = secrets[TekmetricConnector.CLIENT_ID_SECRET]
        const clientSecret = secrets[TekmetricConnector.CLIENT_SECRET_SECRET]
        if (clientId === undefined || clientSecret === undefined) {
          return yield* new ShopSystem.ShopSystemError({ operation: "listRepairOrders", reason: `no Tekmetric credentials for shop ${shopId}`, retryable: false })
        }
        const chosen = secrets[TekmetricConnector.SHOP_ID_SECRET]
        const digest = createHash("sha256").update(`${Redacted.value(clientId)}\u0000${Redacted.value(clientSecret)}\u0000${chosen === undefined ? "" : Redacted.value(chosen)}`).digest("base64url")
        const cached = clients.get(shopId)
        if (cached !== undefined && cached.digest === digest) return cached
        const client = yield* TekmetricClient.make({ baseUrl: settings.tekmetricBaseUrl, clientId: Redacted.value(clientId), clientSecret }).pipe(Effect.provide(http))
        const scope = yield* client.shops
        const shop = chosen === undefined ? scope[0] ?? "" : Redacted.value(chosen)
        const entry = { digest, client, shop }
        clients.set(shopId, entry)
        return entry
      })

    /** A repair order as the list shows it, read through the shop's own Tekmetric client. */
    const rowOf = (client: TekmetricClient.Client, ro: { readonly id: number; readonly repairOrderNumber?: number | string | null | undefined; readonly vehicleId?: number | null | undefined; readonly customerId?: number | null | undefined }) =>
      Effect.gen(function*() {
        const vehicle = ro.vehicleId == null ? undefined : yield* client.vehicle(String(ro.vehicleId))
        const customer = ro.customerId == null ? undefined : yield* client.customer(String(ro.customerId))
        const v: ShopSystem.Vehicle = {
          vin: vehicle?.vin ?? undefined,
          licensePlate: vehicle?.licensePlate ?? undefined,
          licensePlateState: vehicle?.state ?? undefined,
          year: vehicle?.year ?? undefined,
          make: vehicle?.make ?? undefined,
          model: vehicle?.model ?? undefined
        }
        return {
          id: String(ro.id),
          number: String(ro.repairOrderNumber ?? ro.id),
          vehicle: ServicePages.vehicleName(v),
          customer: [customer?.firstName, customer?.lastName].filter((s) => s).join(" "),
          vehicleHint: ServicePages.vehicleHint(v, hint)
        } satisfies ServicePages.RepairOrderRow
      })

    const list = (session: SignIn.Session) =>
      Effect.gen(function*() {
        const { client, shop } = yield* clientFor(session.shopId)
        const orders = yield* client.allRepairOrders(shop)
        const rows = yield* Effect.forEach(orders, (ro) => rowOf(client, ro), { concurrency: 4 })
        // Without a VIN or a plate the catalog cannot find the vehicle: the hint instead of the button.
        return ServicePages.repairOrdersPage(ServicePages.viewerOf(session), rows, "hint")
      })

    const repairOrder = (session: SignIn.Session, repairOrderId: string) =>
      Effect.gen(function*() {
        const { client, shop } = yield* clientFor(session.shopId)
        const notFound = new ShopSystem.RepairOrderNotFound({ shopId: session.shopId, repairOrderId })
        if (!/^\d{1,18}$/.test(repairOrderId)) return yield* notFound
        const ro = yield* client.repairOrder(repairOrderId).pipe(
          Effect.catchIf((e) => e._tag === "TekmetricError" && (e.notFound || e.status === 403), () => Effect.fail(notFound))
        )
        if (String(ro.shopId) !== shop) return yield* notFound
        const row = yield* rowOf(client, ro)
        const jobs = yield* client.jobs(shop, row.id)
        const first = [...jobs].sort((a, b) => a.id - b.id)[0]
        const ref = { shopId: session.shopId, repairOrderId: row.id }
        const partsPageUrl = yield* runtime.partsLink({ ...ref, expiresIn: "30 minutes" }).pipe(Effect.option)
        return repairOrderPage(ServicePages.viewerOf(session), {
          ...row,
          ...ServicePages.deliveries(yield* runtime.inbox.list(ref)),
          parts: yield* runtime.parts.list(ref),
          recorded: TekmetricConnector.recordedOrders(first?.note),
          partsPageUrl: Option.getOrUndefined(partsPageUrl)
        })
      })

    const routes = pages.routes({ list, repairOrder, launch: runtime.launch })
    // The delivery console (/console): operators (users with role "operator") or a vendor API key.
    const deliveryConsole = DeliveryConsole.router(runtime, pages)
    yield* runtime.serve(server, HttpRouter.concatAll(routes, deliveryConsole, runtime.healthRouter, runtime.adminRouter, runtime.apiRouter, runtime.publicRouter))
    return { url, publicBaseUrl, sessionCookie: pages.sessionCookie, runtime } satisfies RunningApp
  })
