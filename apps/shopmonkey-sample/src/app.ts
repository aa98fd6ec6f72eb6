// The integration service: the repair order pages, "Order parts" (launch → the distributor's
// catalog), and the connector's webhook receiver and worker, on one @effect/platform server.
import { HttpRouter, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { UndiciHttpClient } from "@shoplink/http-node"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Context, Effect, Layer, Redacted, type Scope } from "effect"
import { createServer } from "node:http"
import { ShopmonkeyClient, ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
import {
  CredentialStore,
  InboxWorker,
  LaunchRegistry,
  PunchoutLauncher,
  ShopSystem,
  WebhookInbox,
  WebhookReceiver
} from "@shoplink/connector"
import { PunchoutClient, SessionPool } from "@shoplink/punchout"
import type { Settings } from "./settings.js"
import { errorPage, type PartRow, repairOrderPage, repairOrdersPage, type RepairOrderView } from "./views.js"

export interface RunningApp {
  /** Where this service listens. */
  readonly url: string
  /** The services the demo and tests look into. */
  readonly context: Context.Context<WebhookInbox.WebhookInbox | ShopSystem.ShopSystem | PunchoutLauncher.PunchoutLauncher>
}

// Shopmonkey's public API gives no web link for an order, so this service links the callback page
// back to its own RO page.
const withRepairOrderLinks = (publicBaseUrl: string) =>
  Layer.effect(
    ShopSystem.ShopSystem,
    Effect.map(ShopSystem.ShopSystem, (inner) => ({
      ...inner,
      capabilities: new Set([...inner.capabilities, "linkToRepairOrder" as const]),
      loadRepairOrder: (ref: { readonly shopId: string; readonly repairOrderId: string }) =>
        Effect.map(inner.loadRepairOrder(ref), (ro) => ({ ...ro, url: `${publicBaseUrl}/ro/${encodeURIComponent(ro.id)}` }))
    }))
  )

const vehicleName = (vehicle: ShopSystem.Vehicle) => {
  const name = [vehicle.year, vehicle.make, vehicle.model].filter((x) => x !== undefined).join(" ")
  const id = vehicle.vin ?? (vehicle.licensePlate ? `${vehicle.licensePlate} (${vehicle.licensePlateState ?? "?"})` : undefined)
  return [name || "Unknown vehicle", id].filter((x) => x !== undefined).join(" · ")
}

const html = (body: string, status = 200) => HttpServerResponse.text(body, { status, contentType: "text/html; charset=utf-8" })

export const startApp = (settings: Settings): Effect.Effect<RunningApp, never, Scope.Scope> =>
  Effect.gen(function*() {
    const server = yield* NodeHttpServer.make(() => createServer(), { port: settings.port, host: settings.host }).pipe(Effect.orDie)
    const port = server.address._tag === "TcpAddress" ? server.address.port : settings.port
    const url = `http://${settings.host}:${port}`
    const publicBaseUrl = settings.publicBaseUrl ?? url

    // One lean HttpClient for the distributor and Shopmonkey: see @shoplink/http-node.
    const http = UndiciHttpClient.layer
    const stores = Layer.mergeAll(WebhookInbox.layerSql, LaunchRegistry.layerSql, CredentialStore.layerSql).pipe(
      Layer.provide(SqliteClient.layer({ filename: settings.databaseFile }))
    )
    const shopmonkey = ShopmonkeyClient.layer({ baseUrl: settings.shopmonkeyBaseUrl, apiKey: settings.shopmonkeyApiKey }).pipe(
      Layer.provide(http)
    )
    const shopSystem = withRepairOrderLinks(publicBaseUrl).pipe(Layer.provide(ShopmonkeyShopSystem.layer()), Layer.provide(shopmonkey))
    const punchout = SessionPool.layer().pipe(
      Layer.provideMerge(PunchoutClient.layer({ baseUrl: settings.punchoutBaseUrl, vendorApiKey: settings.vendorApiKey })),
      Layer.provide(http)
    )
    const runtime = Layer.mergeAll(
      PunchoutLauncher.layer({ publicBaseUrl, smsVendorName: settings.smsVendorName }).pipe(Layer.provide(punchout)),
      InboxWorker.layer({ pollInterval: "100 millis", baseDelay: "1 second", maxAttempts: 8 })
    ).pipe(Layer.provideMerge(Layer.mergeAll(stores, shopSystem, shopmonkey)))
    const context = yield* Layer.build(runtime).pipe(Effect.orDie)
    yield* Effect.flatMap(CredentialStore.CredentialStore, (store) => store.put(settings.shopId, settings.customer)).pipe(
      Effect.provide(context),
      Effect.orDie
    )

    const list = Effect.gen(function*() {
      const client = yield* ShopmonkeyClient.ShopmonkeyClient
      const sms = yield* ShopSystem.ShopSystem
      const orders = yield* client.listOrders()
      const rows = yield* Effect.forEach(orders, (order) =>
        sms.loadRepairOrder({ shopId: settings.shopId, repairOrderId: order.id }).pipe(
          Effect.map((ro) => ({ id: ro.id, number: ro.number, vehicle: vehicleName(ro.vehicle), customer: ro.customer?.name ?? "" }))
        ), { concurrency: 4 })
      return html(repairOrdersPage(rows))
    })

    const view = (repairOrderId: string) =>
      Effect.gen(function*() {
        const client = yield* ShopmonkeyClient.ShopmonkeyClient
        const sms = yield* ShopSystem.ShopSystem
        const inbox = yield* WebhookInbox.WebhookInbox
        const ro = yield* sms.loadRepairOrder({ shopId: settings.shopId, repairOrderId })
        const services = yield* client.listServices(repairOrderId)
        const entries = yield* inbox.list({ shopId: settings.shopId, repairOrderId })
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
            return latest === undefined ? "Ordered" : String(JSON.parse(latest.body).order.statusDescription)
          } catch {
            return "Ordered"
          }
        }
        const page: RepairOrderView = {
          id: ro.id,
          number: ro.number,
          vehicle: vehicleName(ro.vehicle),
          customer: ro.customer?.name ?? "",
          quoted: services.filter((s) => key(s) === "quote").flatMap((s) => s.parts.map(row)),
          orders: services.filter((s) => key(s).startsWith("order:")).map((s) => {
            const orderID = key(s).slice("order:".length)
            return { orderID, statusDescription: statusOf(orderID), lines: s.parts.map(row) }
          }),
          pending: entries.filter((e) => e.status === "pending").length,
          failed: entries.filter((e) => e.status === "dead").map((e) => e.lastError ?? "unknown error")
        }
        return html(repairOrderPage(page))
      })

    const launch = (repairOrderId: string) =>
      Effect.gen(function*() {
        const launcher = yield* PunchoutLauncher.PunchoutLauncher
        const launched = yield* launcher.launch({ shopId: settings.shopId, repairOrderId })
        yield* Effect.logInfo("punchout launched").pipe(Effect.annotateLogs({ repairOrder: launched.repairOrder.number, vehicle: launched.vehicle }))
        return HttpServerResponse.empty({ status: 303, headers: { location: Redacted.value(launched.url) } })
      })

    const idParam = Effect.map(HttpRouter.params, (p) => p["id"] ?? "")
    const failed = (error: { readonly _tag: string; readonly message: string }) => {
      const status = error._tag === "RepairOrderNotFound" ? 404 : error._tag === "VehicleRequired" ? 422 : 502
      return Effect.logWarning("request failed", error.message).pipe(Effect.as(html(errorPage(status, error.message), status)))
    }
    const router = HttpRouter.empty.pipe(
      HttpRouter.get("/", list.pipe(Effect.catchAll(failed))),
      HttpRouter.get("/ro/:id", Effect.flatMap(idParam, view).pipe(Effect.catchAll(failed))),
      HttpRouter.post("/ro/:id/order-parts", Effect.flatMap(idParam, launch).pipe(Effect.catchAll(failed))),
      HttpRouter.get("/healthz", Effect.succeed(HttpServerResponse.unsafeJson({ ok: true }))),
      HttpRouter.concat(WebhookReceiver.router())
    )
    yield* server.serve(router).pipe(
      Effect.provide(context)
    )
    return { url, context: Context.pick(WebhookInbox.WebhookInbox, ShopSystem.ShopSystem, PunchoutLauncher.PunchoutLauncher)(context) }
  })
