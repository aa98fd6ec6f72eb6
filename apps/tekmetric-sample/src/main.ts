#!/usr/bin/env node
// `pnpm start`: the sample service. With the distributor's or Tekmetric's base URL set (and the other
// variables in the README) it talks to the real distributor and Tekmetric, for the shops
// onboarded in its database (`shoplink shops add … --sms-secret clientId --sms-secret clientSecret`);
// without them, it starts the embedded default (sandbox + fake Tekmetric, two demo shops and their
// users) in-process.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Observability, Settings as Standard } from "@shoplink/connector"
import { UndiciHttpClient } from "@shoplink/http-node"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startApp } from "./app.js"
import { startEmbedded } from "./embedded.js"
import { externalConfig, externalRequested, names, readOrExplain, serviceConfig, type Settings } from "./settings.js"

const scratchDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "shoplink-tekmetric-sample-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

const failStart = (message: string) =>
  Effect.sync(() => {
    process.stderr.write(`Could not start: ${message}\n`)
    process.exitCode = 1
  })

const program = Effect.gen(function*() {
  const service = yield* readOrExplain(serviceConfig)
  let settings: Settings
  let banner: ReadonlyArray<string>
  if (yield* readOrExplain(externalRequested)) {
    settings = { ...service, ...(yield* readOrExplain(externalConfig)), database: service.database ?? { sqlite: "shoplink-tekmetric-sample.sqlite" } }
    banner = [`Distributor: ${settings.punchoutBaseUrl}`, `Tekmetric:   ${settings.tekmetricBaseUrl}`]
  } else {
    const embedded = yield* startEmbedded()
    settings = { ...service, ...embedded.settings, database: service.database ?? { sqlite: join(yield* scratchDirectory, "sample.sqlite") } }
    banner = [
      `Embedded default (no ${names.punchoutBaseUrl} or ${names.tekmetricBaseUrl} set):`,
      `  distributor sandbox  ${embedded.sandbox.url}`,
      `  fake Tekmetric       ${embedded.tekmetric.url}`,
      ...embedded.shops.map((shop) => `  shop ${shop.id.padEnd(13)}${shop.name}: distributor account ${shop.distributor.accountNo} (${shop.distributor.country})`),
      "Sign in as (passwords are new each run):",
      ...embedded.users.map((user) => `  ${user.email.padEnd(26)}password ${user.password}   (${user.shopName})`)
    ]
  }
  const app = yield* startApp(settings).pipe(
    Effect.catchTag("StartFailed", (error) => Effect.zipRight(failStart(error.message), Effect.interrupt))
  )
  yield* Console.log([...banner, "", `Tekmetric sample is running. Open ${app.url}`, "Press Ctrl+C to stop."].join("\n"))
  return yield* Effect.never
})

// Logs and telemetry from Shoplink's standard settings (log format and level; OTLP export when its
// endpoint is set).
const observability = Observability.layerConfig(Standard.observability).pipe(Layer.provide(UndiciHttpClient.layer))

NodeRuntime.runMain(Effect.scoped(program).pipe(
  Effect.provide(observability),
  Effect.catchTags({
    ConfigError: (error) => failStart(`configuration error: ${String(error).replace(/\s+/g, " ")}`),
    TelemetryUnavailable: (error) => failStart(error.message)
  })
))
