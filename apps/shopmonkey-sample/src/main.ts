#!/usr/bin/env node
// `pnpm start`: the sample service. With SHOPLINK_PUNCHOUT_BASE_URL (and the other variables in the
// README) it talks to the real distributor and Shopmonkey, for the shops onboarded in its database
// (`shoplink shops add`); without it, it starts the embedded default (sandbox + fake Shopmonkey,
// two demo shops and their users) in-process.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Observability, Settings as Standard, Storage } from "@shoplink/connector-runtime"
import { UndiciHttpClient } from "@shoplink/http-node"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startApp } from "./app.js"
import { startEmbedded } from "./embedded.js"
import {
  externalRequested,
  loadExternalSettings,
  loadServiceSettings,
  names,
  type Settings
} from "./settings.js"

// The embedded default's database folder lives as long as the program's Scope: NodeRuntime.runMain
// interrupts the program on SIGINT and SIGTERM, so the folder goes on Ctrl+C and on `kill` too
// (after the app, and with it the SQLite connection, has closed).
const scratchDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "shoplink-sample-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

const databaseName = (settings: Settings) =>
  "postgres" in settings.database ? Storage.maskUrl(Redacted.value(settings.database.postgres)) : settings.database.sqlite

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
      ? Effect.logInfo("Shopmonkey sample stopped").pipe(
        Effect.annotateLogs({ reason: Exit.isInterrupted(exit) ? "signal (SIGTERM or SIGINT)" : Exit.isSuccess(exit) ? "done" : "failure" })
      )
      : Effect.void
  )
  const say = bannerTo(yield* Standard.observability.logFormat)
  const service = yield* loadServiceSettings
  let settings: Settings
  let banner: ReadonlyArray<string>
  const mode = (yield* externalRequested) ? "external" : "embedded"
  if (mode === "external") {
    settings = { ...service, ...(yield* loadExternalSettings), database: service.database ?? { sqlite: "shoplink-sample.sqlite" } }
    banner = [
      `Distributor: ${settings.punchoutBaseUrl}`,
      `Shopmonkey:  ${settings.shopmonkeyBaseUrl}`,
      `Database:    ${databaseName(settings)} (shops: \`shoplink shops add\`; sign-in users: ${names.usersFile}, ${settings.users.length})`
    ]
  } else {
    const embedded = yield* startEmbedded()
    // A fresh database per run, sealed with a key made for this run: the embedded sandbox and fake
    // Shopmonkey start fresh too.
    settings = { ...service, ...embedded.settings, database: service.database ?? { sqlite: join(yield* scratchDirectory, "sample.sqlite") } }
    banner = [
      `Embedded default (no ${names.punchoutBaseUrl} set):`,
      `  distributor sandbox  ${embedded.sandbox.url}  (docs: ${embedded.sandbox.openApi.docs})`,
      `  fake Shopmonkey      ${embedded.shopmonkey.url}  (two companies)`,
      ...embedded.shops.map((shop, i) =>
        `  shop ${shop.id.padEnd(13)}${shop.name}: Shopmonkey company ${i + 1}, distributor account ${shop.distributor.accountNo} (${shop.distributor.country})`
      ),
      "Sign in as (passwords are new each run):",
      ...embedded.users.map((user) => `  ${user.email.padEnd(26)}password ${user.password}   (${user.shopName})`),
      `  ${embedded.operator.email.padEnd(26)}password ${embedded.operator.password}   (operator: the delivery console at /console)`
    ]
  }
  const app = yield* startApp(settings).pipe(
    Effect.catchTag("StartFailed", (error) =>
      Effect.zipRight(
        Effect.sync(() => {
          process.stderr.write(`Could not start: ${error.message}\n`)
          process.exitCode = 1
        }),
        Effect.interrupt
      ))
  )
  const shops = yield* app.runtime.shops.list().pipe(Effect.orElseSucceed(() => []))
  // Start-up in one log line: what listens where, and what it talks to.
  started = true
  yield* Effect.logInfo("Shopmonkey sample listening").pipe(Effect.annotateLogs({
    url: app.url,
    ...(app.publicUrl === app.url ? {} : { publicUrl: app.publicUrl }),
    appBaseUrl: app.appBaseUrl,
    mode,
    distributor: settings.punchoutBaseUrl,
    shopmonkey: settings.shopmonkeyBaseUrl,
    database: databaseName(settings),
    shops: shops.length
  }))
  yield* say([
    ...banner,
    ...(shops.length === 0 ? ["No shops in the database yet: onboard one with `shoplink shops add` (see the README)."] : []),
    ...(app.publicUrl === app.url ? [] : [`Public routes (webhooks, callback): ${app.publicUrl}`]),
    "",
    `Shopmonkey sample is running. Open ${app.appBaseUrl}${app.appBaseUrl === app.url ? "" : ` (listening on ${app.url})`}`,
    "Press Ctrl+C to stop."
  ].join("\n"))
  return yield* Effect.never
})

// Logs and telemetry as docs/deploying.md says: SHOPLINK_LOG_FORMAT, SHOPLINK_LOG_LEVEL and, when
// set, OTEL_EXPORTER_OTLP_ENDPOINT (traces and metrics over OTLP/HTTP).
const observability = Observability.layerConfig(Standard.observability).pipe(Layer.provide(UndiciHttpClient.layer))

// The logger above is the only one: runMain's own pretty logger would write every event again.
NodeRuntime.runMain(
  Effect.scoped(program).pipe(
    Effect.provide(observability),
    Effect.catchTags({
      ConfigError: (error) => failStart(String(error)),
      TelemetryUnavailable: (error) => failStart(error.message)
    })
  ),
  { disablePrettyLogger: true }
)
