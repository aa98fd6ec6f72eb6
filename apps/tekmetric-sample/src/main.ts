#!/usr/bin/env node
// `pnpm start`: the sample service. With SHOPLINK_PUNCHOUT_BASE_URL or TEKMETRIC_BASE_URL (and the
// other variables in the README) it talks to the real distributor and Tekmetric, for the shops
// onboarded in its database (`shoplink shops add … --sms-secret clientId --sms-secret clientSecret`);
// without them, it starts the embedded default (sandbox + fake Tekmetric, two demo shops and their
// users) in-process.
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startApp } from "./app.js"
import { startEmbedded } from "./embedded.js"
import { externalConfig, externalRequested, readOrExplain, serviceConfig, type Settings } from "./settings.js"

const scratchDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "shoplink-tekmetric-sample-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

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
      "Embedded default (no SHOPLINK_PUNCHOUT_BASE_URL or TEKMETRIC_BASE_URL set):",
      `  distributor sandbox  ${embedded.sandbox.url}`,
      `  fake Tekmetric       ${embedded.tekmetric.url}`,
      ...embedded.shops.map((shop) => `  shop ${shop.id.padEnd(13)}${shop.name}: distributor account ${shop.distributor.accountNo} (${shop.distributor.country})`),
      "Sign in as (passwords are new each run):",
      ...embedded.users.map((user) => `  ${user.email.padEnd(26)}password ${user.password}   (${user.shopName})`)
    ]
  }
  const app = yield* startApp(settings).pipe(
    Effect.catchTag("StartFailed", (error) =>
      Effect.zipRight(Effect.sync(() => {
        process.stderr.write(`Could not start: ${error.message}\n`)
        process.exitCode = 1
      }), Effect.interrupt))
  )
  yield* Console.log([...banner, "", `Tekmetric sample is running. Open ${app.url}`, "Press Ctrl+C to stop."].join("\n"))
  return yield* Effect.never
})

NodeRuntime.runMain(Effect.scoped(program))
