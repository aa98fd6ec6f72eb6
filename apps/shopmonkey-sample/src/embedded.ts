// The embedded default: the distributor sandbox and a fake Shopmonkey, started in-process and
// seeded, so the sample runs with no accounts at all.
import { Effect, Redacted, type Scope } from "effect"
import { startFakeShopmonkey } from "@shoplink/adapter-shopmonkey/testing"
import { type RunningSandbox, startSandbox } from "@shoplink/sandbox"
import type { FakeShopmonkey } from "@shoplink/adapter-shopmonkey/testing"
import type { Settings } from "./settings.js"

export interface Embedded {
  readonly sandbox: RunningSandbox
  readonly shopmonkey: FakeShopmonkey
  readonly settings: Omit<Settings, "port" | "host" | "publicBaseUrl" | "smsVendorName" | "databaseFile" | "shopId">
}

export const startEmbedded: Effect.Effect<Embedded, never, Scope.Scope> = Effect.gen(function*() {
  const sandbox = yield* startSandbox()
  const shopmonkey = yield* startFakeShopmonkey()
  const us = sandbox.credentials.customers.us
  return {
    sandbox,
    shopmonkey,
    settings: {
      punchoutBaseUrl: sandbox.url,
      vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey),
      shopmonkeyBaseUrl: shopmonkey.url,
      shopmonkeyApiKey: Redacted.make(shopmonkey.apiKey),
      customer: { accountNo: us.accountNo, username: us.username, country: "US", apiToken: Redacted.make(us.apiToken) }
    }
  }
})
