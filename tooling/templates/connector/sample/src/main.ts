// A minimal __title__ integration service on ConnectorRuntime: the public routes (the distributor's
// webhooks, the callback page) and the authenticated launch API on HTTP, the shops with their
// secrets sealed in the database (a SQLite file or PostgreSQL), the durable inbox, and the worker applying deliveries to
// __title__. Stops cleanly on SIGINT / SIGTERM.
//
//   SHOPLINK_SECRET_KEYS=$(shoplink secrets generate-key) SHOPLINK_DATABASE_URL=shoplink.db \
//   SHOPLINK_PUBLIC_BASE_URL=https://parts.example SHOPLINK_PUNCHOUT_BASE_URL=… SHOPLINK_VENDOR_API_KEY=… \
//   SHOPLINK_OMS_ENVIRONMENT=US_PRD SHOPLINK_OMS_API_KEY=… SHOPLINK_OMS_PROD_BASE_URL=… \
//   __NAME___BASE_URL=… PORT=8080 HOST=127.0.0.1 node dist/main.js
//
// With the Order Management settings (SHOPLINK_OMS_*), every order webhook is checked with the
// distributor before it is applied (a forged order is dead-lettered); without them the runtime
// warns at start-up.
//
// Onboard each shop (its distributor account and its __title__ API key, `apiKey`) with
// `shoplink shops add`, and give the __title__ backend a key for `POST /shoplink/launch` with
// `shoplink keys create`; both on the same database and keyring.
import { HttpRouter, HttpServer } from "@effect/platform"
import { NodeHttpClient, NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { __Name__Connector } from "@shoplink/adapter-__name__"
import { ConnectorRuntime, Health, Observability, Settings, type Storage } from "@shoplink/connector"
import { Cause, Config, Effect, Exit, Layer, Option } from "effect"

// The adapter for every shop: __title__'s base URL here; each shop's API key comes from the
// runtime's shop store (SmsCredentials).
const shopSystem = __Name__Connector.layer.pipe(
  Layer.provide(Layer.effect(
    __Name__Connector.__Name__Config,
    Effect.all({ baseUrl: Config.string("__NAME___BASE_URL").pipe(Config.withDefault("http://127.0.0.1:4020")) })
  ))
)

// Shoplink's standard settings, named once in @shoplink/connector's SettingsTable and read (and
// checked) through its Settings Configs.
const runtime = ConnectorRuntime.layerConfig(shopSystem, {
  publicBaseUrl: Settings.publicBaseUrl,
  smsVendorName: Settings.smsVendorName.pipe(Config.withDefault("__title__")),
  // A SQLite file (one process) or a postgres:// URL shared by several processes.
  storage: Settings.storage.pipe(Config.withDefault<Storage.Location>({ sqlite: "shoplink.db" })),
  secretKeys: Settings.secretBox.keys,
  punchout: Settings.punchoutClient,
  // Order webhooks are verified with the distributor whenever these are set (OrderVerifier).
  orderManagement: Config.option(Config.all(Settings.orderManagementClient)).pipe(Config.map(Option.getOrUndefined))
})

// The runtime's routes on one listener, with its probes (/healthz, /readyz) and /metrics (vendor
// API key); `serve` keeps launch keys and tokens out of spans and logs.
const server = Layer.scopedDiscard(Effect.gen(function*() {
  const { adminRouter, apiRouter, healthRouter, publicRouter, serve } = yield* ConnectorRuntime.ConnectorRuntime
  const routes = HttpRouter.concatAll(publicRouter, apiRouter, healthRouter, adminRouter)
  yield* serve(yield* HttpServer.HttpServer, routes.pipe(HttpRouter.toHttpApp, Effect.flatten))
  yield* HttpServer.logAddress
}))

const main = server.pipe(
  Layer.provide(runtime),
  // The listener, with header, request and keep-alive timeouts (SHOPLINK_HEADERS_TIMEOUT,
  // SHOPLINK_REQUEST_TIMEOUT, SHOPLINK_KEEP_ALIVE_TIMEOUT; default 10 s, 30 s, 5 s). Until the
  // runtime serves, every request on it gets a 503 (Health.nodeServer), never a silent socket.
  Layer.provide(Layer.unwrapEffect(Effect.map(Settings.serverTimeouts, (timeouts) =>
    NodeHttpServer.layerConfig(() => Health.nodeServer(timeouts), {
      port: Config.integer("PORT").pipe(Config.withDefault(8080)),
      // Loopback unless told otherwise, as the samples: put a reverse proxy in front (docs/deploying.md).
      host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
    })))),
  // The distributor's API (and your __title__ client, if it uses HttpClient).
  Layer.provide(NodeHttpClient.layerUndici)
)

// One log line per event (SHOPLINK_LOG_FORMAT json or logfmt, SHOPLINK_LOG_LEVEL) and, when
// OTEL_EXPORTER_OTLP_ENDPOINT is set, traces and metrics over OTLP.
const observability = Observability.layerConfig(Settings.observability).pipe(Layer.provide(NodeHttpClient.layerUndici))

// Ctrl-C / SIGTERM interrupt the layers (servers close, SQLite flushes) and exit 0. The logger
// above is the only one: runMain's own pretty logger would write every event again.
NodeRuntime.runMain(Layer.launch(main).pipe(Effect.provide(observability)), {
  disablePrettyLogger: true,
  teardown: (exit, onExit) => onExit(Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause) ? 1 : 0)
})
