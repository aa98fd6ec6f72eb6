#!/usr/bin/env node
// `pnpm start`: the sample service. With SHOPLINK_PUNCHOUT_BASE_URL / SHOPLINK_SHOPMONKEY_API_KEY
// (and the other variables in the README) it talks to the real distributor and Shopmonkey;
// without them it starts the embedded default (sandbox + fake Shopmonkey) in-process.
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startApp } from "./app.js"
import { startEmbedded } from "./embedded.js"
import { externalConfig, externalRequested, serviceConfig, type Settings } from "./settings.js"

const program = Effect.gen(function*() {
  const service = yield* serviceConfig
  let settings: Settings
  if (yield* externalRequested) {
    settings = { ...service, ...(yield* externalConfig) }
    yield* Console.log(`Distributor: ${settings.punchoutBaseUrl}\nShopmonkey:  ${settings.shopmonkeyBaseUrl}`)
  } else {
    const embedded = yield* startEmbedded
    // A fresh database per run: the embedded sandbox and fake Shopmonkey start fresh too.
    settings = { ...service, ...embedded.settings, databaseFile: join(mkdtempSync(join(tmpdir(), "shoplink-sample-")), "sample.sqlite") }
    yield* Console.log([
      "Embedded default (no SHOPLINK_PUNCHOUT_BASE_URL / SHOPLINK_SHOPMONKEY_API_KEY set):",
      `  distributor sandbox  ${embedded.sandbox.url}  (docs: ${embedded.sandbox.openApi.docs})`,
      `  fake Shopmonkey      ${embedded.shopmonkey.url}`,
      `  customer account     ${settings.customer.accountNo} (${settings.customer.username}), token ${String(settings.customer.apiToken)}`
    ].join("\n"))
  }
  const app = yield* startApp(settings)
  yield* Console.log(`\nShopmonkey sample is running. Open ${app.url}\nPress Ctrl+C to stop.`)
  return yield* Effect.never
})

NodeRuntime.runMain(Effect.scoped(program))
