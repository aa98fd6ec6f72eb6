// `shoplink sandbox start`: runs @shoplink/sandbox in this process and prints the settings that
// point the other commands at it.
import * as Effect from "effect/Effect"
import { err, json, out } from "./output.js"
import { SETTINGS } from "./settingsTable.js"
import type * as Spec from "./spec.js"

export const start = (args: Spec.ArgsOf<typeof Spec.sandboxStart>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    // Loaded on demand: the sandbox (catalog, pages, OpenAPI) is most of the CLI's start-up cost.
    const { startSandbox } = yield* Effect.promise(() => import("@shoplink/sandbox"))
    const sandbox = yield* startSandbox({ port: args.port, host: args.host, seed: args.seed })
    const c = sandbox.credentials
    const us = c.customers.us
    // Public test fixtures, printed on purpose so they can be pasted into a shell.
    const env: Record<string, string> = {
      [SETTINGS.punchoutBaseUrl.env]: sandbox.url,
      [SETTINGS.vendorApiKey.env]: c.vendorApiKey,
      [SETTINGS.omsEnvironment.env]: "US_QUA",
      [SETTINGS.omsTestBaseUrl.env]: sandbox.url,
      [SETTINGS.omsProdBaseUrl.env]: sandbox.url,
      [SETTINGS.omsApiKey.env]: c.oms.testApiKey,
      [SETTINGS.customerAccountNo.env]: us.accountNo,
      [SETTINGS.customerUsername.env]: us.username,
      [SETTINGS.customerCountry.env]: us.country,
      [SETTINGS.customerApiToken.env]: us.apiToken
    }
    if (args.json) {
      yield* json({ url: sandbox.url, docs: sandbox.openApi.docs, admin: sandbox.adminUrl, env })
    } else {
      yield* out(`Shoplink sandbox listening on ${sandbox.url} (seed ${sandbox.seed})`)
      yield* out(`  API docs  ${sandbox.openApi.docs}`)
      yield* out(`  Admin     ${sandbox.adminUrl}`)
      yield* out("")
      yield* out("Point shoplink at it (sandbox test credentials, US customer):")
      for (const [name, value] of Object.entries(env)) yield* out(`export ${name}='${value}'`)
      yield* out("")
    }
    yield* err("sandbox running; Ctrl-C stops it")
    return yield* Effect.never
  }).pipe(Effect.scoped)
