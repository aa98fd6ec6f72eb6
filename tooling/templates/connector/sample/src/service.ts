// The __title__ integration service as one layer, on ConnectorRuntime: the public routes (the
// distributor's webhooks, the callback page), the authenticated launch API, the probes (/healthz,
// /readyz) and /metrics on one listener; the shops with their secrets sealed in the database (a
// SQLite file or PostgreSQL), the durable inbox, and the worker applying deliveries to __title__.
// Every setting is read through Config: main.ts runs it on the environment, embedded.ts on an
// in-process sandbox and fake __title__.
import { HttpRouter, HttpServer } from "@effect/platform"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { __Name__Connector } from "@shoplink/adapter-__name__"
import { ConnectorRuntime, Health, Settings, type Storage } from "@shoplink/connector-runtime"
import { Config, Effect, Layer, Option } from "effect"

/** This service's own variable: __title__'s API base URL (Shoplink's are named in SettingsTable). */
export const BASE_URL = "__NAME___BASE_URL"

// The adapter for every shop: __title__'s base URL here; each shop's API key comes from the
// runtime's shop store (SmsCredentials).
const shopSystem = __Name__Connector.layer.pipe(
  Layer.provide(Layer.effect(__Name__Connector.__Name__Config, Effect.all({ baseUrl: Config.string(BASE_URL) })))
)

// Shoplink's standard settings, named once in @shoplink/connector's SettingsTable and read (and
// checked) through its Settings Configs. Without SHOPLINK_PUBLIC_BASE_URL, the listener's own
// address is where webhooks and browsers come back to (one machine, as the embedded default).
const runtime = Layer.unwrapEffect(Effect.map(HttpServer.HttpServer, (server) =>
  ConnectorRuntime.layerConfig(shopSystem, {
    publicBaseUrl: Settings.publicBaseUrl.pipe(Config.withDefault(HttpServer.formatAddress(server.address))),
    smsVendorName: Settings.smsVendorName.pipe(Config.withDefault("__title__")),
    // A SQLite file (one process) or a postgres:// URL shared by several processes.
    storage: Settings.storage.pipe(Config.withDefault<Storage.Location>({ sqlite: "shoplink.db" })),
    secretKeys: Settings.secretBox.keys,
    punchout: Settings.punchoutClient,
    // Order webhooks are verified with the distributor whenever these are set (OrderVerifier).
    orderManagement: Config.option(Config.all(Settings.orderManagementClient)).pipe(Config.map(Option.getOrUndefined))
  })))

// The runtime's routes; `serve` keeps launch keys and tokens out of spans and logs.
const routes = Layer.scopedDiscard(Effect.gen(function*() {
  const { adminRouter, apiRouter, healthRouter, publicRouter, serve } = yield* ConnectorRuntime.ConnectorRuntime
  const app = HttpRouter.concatAll(publicRouter, apiRouter, healthRouter, adminRouter)
  yield* serve(yield* HttpServer.HttpServer, app.pipe(HttpRouter.toHttpApp, Effect.flatten))
}))

// The listener, with header, request and keep-alive timeouts (SHOPLINK_HEADERS_TIMEOUT,
// SHOPLINK_REQUEST_TIMEOUT, SHOPLINK_KEEP_ALIVE_TIMEOUT; default 10 s, 30 s, 5 s). Until the
// runtime serves, every request on it gets a 503 (Health.nodeServer), never a silent socket.
const listener = Layer.unwrapEffect(Effect.map(Settings.serverTimeouts, (timeouts) =>
  NodeHttpServer.layerConfig(() => Health.nodeServer(timeouts), {
    port: Config.integer("PORT").pipe(Config.withDefault(8080)),
    // Loopback unless told otherwise: put a reverse proxy in front (docs/deploying.md).
    host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
  })))

/** The service, serving until its scope closes; gives the runtime and the listener (its address). */
export const layer = routes.pipe(
  Layer.provideMerge(runtime),
  Layer.provideMerge(listener),
  // The distributor's API (and your __title__ client, if it uses HttpClient).
  Layer.provide(NodeHttpClient.layerUndici)
)
