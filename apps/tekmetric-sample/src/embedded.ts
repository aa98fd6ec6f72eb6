// The embedded default: the distributor sandbox and a fake Tekmetric, started in-process and
// seeded, so the sample runs with no accounts at all. Two shops, each with its own Tekmetric OAuth
// client and its own distributor customer, each with one user who signs in to the sample's pages.
// Main Street Auto's Tekmetric credentials reach two Tekmetric shops (1 and 2): its onboarding
// names shop 1 (secret tekmetricShopId). Maple Garage's reach only shop 3.
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
import { FAKE_TEKMETRIC_FIXTURES, type FakeTekmetric, startFakeTekmetric } from "@shoplink/adapter-tekmetric/testing"
import { SignIn } from "@shoplink/service-pages"
import * as DemoShops from "@shoplink/connector-testkit/DemoShops"
import { type RunningSandbox, startSandbox } from "@shoplink/sandbox"
import type { Settings } from "./app.js"

/** A demo user's sign-in, for the start-up banner, the demo and the tests. */
export type DemoUser = DemoShops.DemoUser

export interface Embedded {
  readonly sandbox: RunningSandbox
  readonly tekmetric: FakeTekmetric
  readonly settings: Pick<
    Settings,
    | "punchoutBaseUrl"
    | "vendorApiKey"
    | "orderManagement"
    | "tekmetricBaseUrl"
    | "secretKeys"
    | "linkSecret"
    | "users"
    | "shops"
  >
  readonly shops: DemoShops.DemoShops["shops"]
  readonly users: DemoShops.DemoShops["users"]
  /** olga@operations.example: an operator, who also opens the delivery console (/console). */
  readonly operator: DemoShops.DemoShops["operator"]
}

const { demo, maple } = FAKE_TEKMETRIC_FIXTURES.clients

export const startEmbedded = (
  options: { readonly passwords?: readonly [string, string] } = {}
): Effect.Effect<Embedded, never, Scope.Scope> =>
  Effect.gen(function*() {
    const sandbox = yield* startSandbox()
    const tekmetric = yield* startFakeTekmetric()
    const { operator, punchoutBaseUrl, secretKeys, shops, signInUsers, users, vendorApiKey } = yield* DemoShops.make(
      sandbox,
      {
        passwords: options.passwords,
        sms: [{
          [TekmetricConnector.CLIENT_ID_SECRET]: Redacted.make(demo.clientId),
          [TekmetricConnector.CLIENT_SECRET_SECRET]: Redacted.make(demo.clientSecret),
          [TekmetricConnector.SHOP_ID_SECRET]: Redacted.make("1")
        }, {
          [TekmetricConnector.CLIENT_ID_SECRET]: Redacted.make(maple.clientId),
          [TekmetricConnector.CLIENT_SECRET_SECRET]: Redacted.make(maple.clientSecret)
        }]
      }
    )
    return {
      sandbox,
      tekmetric,
      shops,
      users,
      operator,
      settings: {
        punchoutBaseUrl,
        vendorApiKey,
        // The sandbox's Order Management API: order webhooks are verified with it.
        orderManagement: {
          environment: "US_QUA",
          testBaseUrl: sandbox.url,
          apiKey: Redacted.make(sandbox.credentials.oms.testApiKey)
        },
        tekmetricBaseUrl: tekmetric.url,
        secretKeys,
        linkSecret: Redacted.make(SignIn.randomToken()),
        users: signInUsers,
        shops
      }
    }
  })

/** A sample service on loopback (a free port on 127.0.0.1) over the embedded default, storing in `database`. */
export const loopbackSettings = (
  embedded: Embedded,
  options: Pick<Settings, "smsVendorName" | "database"> & Partial<Settings>
): Settings => ({
  ...embedded.settings,
  port: 0,
  host: "127.0.0.1",
  publicPort: undefined,
  publicBaseUrl: undefined,
  appBaseUrl: undefined,
  ...options
})
