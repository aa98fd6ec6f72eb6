#!/usr/bin/env node
// `pnpm --filter __name__-sample start`: the __title__ integration service (service.ts). Stops
// cleanly on SIGINT / SIGTERM.
//
// With the distributor's or __title__'s base URL set, it runs on the environment, for the shops
// onboarded in its database (`shoplink shops add … --sms-secret apiKey`):
//
//   SHOPLINK_SECRET_KEYS=$(shoplink secrets generate-key) SHOPLINK_DATABASE_URL=shoplink.db \
//   SHOPLINK_PUBLIC_BASE_URL=https://parts.example SHOPLINK_PUNCHOUT_BASE_URL=… SHOPLINK_VENDOR_API_KEY=… \
//   SHOPLINK_OMS_ENVIRONMENT=US_PRD SHOPLINK_OMS_API_KEY=… SHOPLINK_OMS_PROD_BASE_URL=… \
//   __NAME___BASE_URL=… PORT=8080 HOST=127.0.0.1 node dist/main.js
//
// With neither, it starts the embedded default (embedded.ts): the distributor sandbox and a fake
// __title__ in-process, with a demo shop onboarded.
import { HttpServer } from "@effect/platform"
import { NodeHttpClient, NodeRuntime } from "@effect/platform-node"
import { Observability, Settings, SettingsTable } from "@shoplink/connector-runtime"
import { Config, Console, Context, Effect, Layer, Option } from "effect"
import { startEmbedded } from "./embedded.js"
import * as Service from "./service.js"

const configured = Config.all([SettingsTable.SETTINGS.punchoutBaseUrl.env, Service.BASE_URL].map((name) => Config.option(Config.string(name))))
  .pipe(Config.map((values) => values.some(Option.isSome)))

const program = Effect.gen(function*() {
  // The banner goes beside the log lines, except when they are JSON (stdout is then for a log shipper).
  const say = (yield* Settings.observability.logFormat) === "json" ? Console.error : Console.log
  if (yield* configured) {
    const service = yield* Layer.build(Service.layer)
    yield* say(`__title__ sample listening on ${HttpServer.formatAddress(Context.get(service, HttpServer.HttpServer).address)}`)
  } else {
    const { fake, launchKey, repairOrders, sandbox, shop, url } = yield* startEmbedded()
    yield* say([
      `Embedded default (no ${SettingsTable.SETTINGS.punchoutBaseUrl.env} or ${Service.BASE_URL} set):`,
      `  ${"distributor sandbox".padEnd(24)}${sandbox.url}`,
      `  ${"fake __title__".padEnd(24)}${fake.url}`,
      `  shop ${shop.id}: ${shop.name}, repair orders ${repairOrders.map((ro) => `${ro.number} (id ${ro.id})`).join(", ")}`,
      `__title__ sample listening on ${url}`,
      "Open the catalog for a repair order as your __title__ backend would (the answer holds the catalog URL):",
      `  curl -X POST ${url}/shoplink/launch -H "Authorization: Bearer ${launchKey}" -H "content-type: application/json" \\`,
      `    -d '{ "shopId": "${shop.id}", "repairOrderId": "${repairOrders[0]?.id}" }'`,
      "The whole flow, scripted: pnpm --filter __name__-sample demo. Press Ctrl+C to stop."
    ].join("\n"))
  }
  return yield* Effect.never
})

// One log line per event (SHOPLINK_LOG_FORMAT json or logfmt, SHOPLINK_LOG_LEVEL) and, when
// OTEL_EXPORTER_OTLP_ENDPOINT is set, traces and metrics over OTLP.
const observability = Observability.layerConfig(Settings.observability).pipe(Layer.provide(NodeHttpClient.layerUndici))

// A setting missing or wrong is one line and exit code 2, not a stack. Ctrl-C / SIGTERM close the
// scope (servers close, SQLite flushes) and exit 0. runMain's pretty logger is off: the logger
// above is the only one.
NodeRuntime.runMain(
  Effect.scoped(program).pipe(
    Effect.provide(observability),
    Effect.catchAll((error) =>
      Effect.sync(() => {
        process.stderr.write(`Could not start: ${String(error).replace(/\s+/g, " ")}\n`)
        process.exitCode = 2
      })
    )
  ),
  { disablePrettyLogger: true }
)
