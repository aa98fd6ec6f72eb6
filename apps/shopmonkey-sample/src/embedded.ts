// The embedded default: the distributor sandbox and a fake Shopmonkey, started in-process and
// seeded, so the sample runs with no accounts at all. Two shops, each on its own Shopmonkey company
// and its own distributor customer, each with one user who signs in to the sample's pages.
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
import {
  FAKE_SHOPMONKEY_SECOND_COMPANY,
  type FakeShopmonkey,
  startFakeShopmonkey
} from "@shoplink/adapter-shopmonkey/testing"
import * as DemoShops from "@shoplink/connector-testkit/DemoShops"
import { type RunningSandbox, startSandbox } from "@shoplink/sandbox"
import type { Settings } from "./app.js"

/** A demo user's sign-in, for the start-up banner, the demo and the tests. */
export type DemoUser = DemoShops.DemoUser

export interface Embedded {
  readonly sandbox: RunningSandbox
  readonly shopmonkey: FakeShopmonkey
  readonly settings: Pick<
    Settings,
    "punchoutBaseUrl" | "vendorApiKey" | "orderManagement" | "shopmonkeyBaseUrl" | "secretKeys" | "users" | "shops"
  >
  /** Shop A (Main Street Auto) and shop B (Maple Garage), in that order. */
  readonly shops: DemoShops.DemoShops["shops"]
  /** ava@mainstreet.example (shop A) and ben@maplegarage.example (shop B), in that order. */
  readonly users: DemoShops.DemoShops["users"]
  /** olga@operations.example: an operator, who also opens the delivery console (/console). */
  readonly operator: DemoShops.DemoShops["operator"]
}

export const { SHOP_A, SHOP_B } = DemoShops

/**
 * Starts the sandbox and the fake Shopmonkey (shop A on its first company, shop B on its second).
 * Passwords are random per run unless given (tests); the keyring is random per run too: the
 * embedded default's database is temporary.
 */
export const startEmbedded = (
  options: { readonly passwords?: readonly [string, string] } = {}
): Effect.Effect<Embedded, never, Scope.Scope> =>
  Effect.gen(function*() {
    const sandbox = yield* startSandbox()
    const shopmonkey = yield* startFakeShopmonkey()
    const apiKey = (key: string) => ({ [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(key) })
    const demo = yield* DemoShops.make(sandbox, {
      passwords: options.passwords,
      sms: [
        apiKey(shopmonkey.companies[0]!.apiKey),
        apiKey(shopmonkey.companies[1]?.apiKey ?? FAKE_SHOPMONKEY_SECOND_COMPANY.apiKey)
      ]
    })
    return {
      sandbox,
      shopmonkey,
      shops: demo.shops,
      users: demo.users,
      operator: demo.operator,
      settings: {
        punchoutBaseUrl: demo.punchoutBaseUrl,
        vendorApiKey: demo.vendorApiKey,
        // The sandbox's Order Management API: order webhooks are verified with it.
        orderManagement: {
          environment: "US_QUA",
          testBaseUrl: sandbox.url,
          apiKey: Redacted.make(sandbox.credentials.oms.testApiKey)
        },
        shopmonkeyBaseUrl: shopmonkey.url,
        secretKeys: demo.secretKeys,
        users: demo.signInUsers,
        shops: demo.shops
      }
    }
  })

/**
 * The settings of a sample service on loopback (a free port on 127.0.0.1, one listener) over the
 * embedded default, storing in `database`: what the demo, the tests and the browser tests start.
 */
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
