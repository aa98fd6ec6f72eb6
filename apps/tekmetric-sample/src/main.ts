#!/usr/bin/env node
// `pnpm start`: the sample service. With the distributor's or Tekmetric's base URL set (and the other
// variables in the README) it talks to the real distributor and Tekmetric, for the shops
// onboarded in its database (`shoplink shops add … --sms-secret clientId --sms-secret clientSecret`);
// without them, it starts the embedded default (sandbox + fake Tekmetric, two demo shops and their
// users) in-process.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Observability, Settings as Standard } from "@shoplink/connector-runtime"
import { UndiciHttpClient } from "@shoplink/http-node"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
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

// Where the human banner goes: beside the log lines, except when they are JSON (stdout is then one
// JSON object a line, nothing else, for a log shipper).
const bannerTo = (format: Observability.LogFormat | "auto") => (text: string) =>
  format === "json" ? Console.error(text) : Console.log(text)

const program = Effect.gen(function*() {
  // Runs last, after the app and its database have closed: one line when a started service stops
  // (a failure to start is one line on stderr instead).
  let started = false
  yield* Effect.addFinalizer((exit) =>
    started
      ? Effect.logInfo("Tekmetric sample stopped").pipe(
        Effect.annotateLogs({ reason: Exit.isInterrupted(exit) ? "signal (SIGTERM or SIGINT)" : Exit.isSuccess(exit) ? "done" : "failure" })
      )
      : Effect.void
  )
  const say = bannerTo(yield* Standard.observability.logFormat)
  const service = yield* readOrExplain(serviceConfig)
  let settings: Settings
  let banner: ReadonlyArray<string>
  const mode = (yield* readOrExplain(externalRequested)) ? "external" : "embedded"
  if (mode === "external") {
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
      ...embedded.users.map((user) => `  ${user.email.padEnd(26)}password ${user.password}   (${user.shopName})`),
      `  ${embedded.operator.email.padEnd(26)}password ${embedded.operator.password}   (operator: the delivery console at /console)`
    ]
  }
  const app = yield* startApp(settings).pipe(
    Effect.catchTag("StartFailed", (error) => Effect.zipRight(failStart(error.message), Effect.interrupt))
  )
  // Start-up in one log line: what listens where, and what it talks to.
  started = true
  yield* Effect.logInfo("Tekmetric sample listening").pipe(Effect.annotateLogs({
    url: app.url,
    publicBaseUrl: app.publicBaseUrl,
    mode,
    distributor: settings.punchoutBaseUrl,
    tekmetric: settings.tekmetricBaseUrl
  }))
  yield* say([...banner, "", `Tekmetric sample is running. Open ${app.url}`, "Press Ctrl+C to stop."].join("\n"))
  return yield* Effect.never
})

// Logs and telemetry from Shoplink's standard settings (log format and level; OTLP export when its
// endpoint is set).
const observability = Observability.layerConfig(Standard.observability).pipe(Layer.provide(UndiciHttpClient.layer))

// The logger above is the only one: runMain's own pretty logger would write every event again.
NodeRuntime.runMain(
  Effect.scoped(program).pipe(
    Effect.provide(observability),
    Effect.catchTags({
      ConfigError: (error) => failStart(`configuration error: ${String(error).replace(/\s+/g, " ")}`),
      TelemetryUnavailable: (error) => failStart(error.message)
    })
  ),
  { disablePrettyLogger: true }
)
