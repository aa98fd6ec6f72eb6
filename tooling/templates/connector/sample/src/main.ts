// A minimal __title__ integration service: the Shoplink webhook receiver on HTTP, a durable SQLite
// inbox, and the worker applying deliveries to __title__. Stops cleanly on SIGINT / SIGTERM.
//   PORT=8080 DATABASE=shoplink.db __NAME___BASE_URL=… __NAME___API_KEY=… node dist/main.js
// Add the PunchoutLauncher (with @shoplink/punchout's client) where your SMS opens the catalog.
import { HttpRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { __Name__Connector } from "@shoplink/adapter-__name__"
import { InboxWorker, LaunchRegistry, WebhookInbox, WebhookReceiver } from "@shoplink/connector"
import { Cause, Config, Effect, Exit, Layer } from "effect"
import { createServer } from "node:http"

const config = Layer.effect(
  __Name__Connector.__Name__Config,
  Effect.all({
    baseUrl: Config.string("__NAME___BASE_URL").pipe(Config.withDefault("http://127.0.0.1:4020")),
    apiKey: Config.redacted("__NAME___API_KEY")
  })
)

const stores = Layer.mergeAll(WebhookInbox.layerSql, LaunchRegistry.layerSql).pipe(
  Layer.provide(SqliteClient.layerConfig({ filename: Config.string("DATABASE").pipe(Config.withDefault("shoplink.db")) }))
)

const server = HttpRouter.empty.pipe(
  HttpRouter.concat(WebhookReceiver.router()),
  HttpServer.serve(),
  HttpServer.withLogAddress,
  Layer.provide(NodeHttpServer.layerConfig(createServer, { port: Config.integer("PORT").pipe(Config.withDefault(8080)) }))
)

const worker = InboxWorker.layer().pipe(Layer.provide(__Name__Connector.connector.layer), Layer.provide(config))

const main = Layer.mergeAll(server, worker).pipe(Layer.provide(stores))

// Ctrl-C / SIGTERM interrupt the layers (servers close, SQLite flushes) and exit 0.
NodeRuntime.runMain(Layer.launch(main), {
  teardown: (exit, onExit) => onExit(Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause) ? 1 : 0)
})
