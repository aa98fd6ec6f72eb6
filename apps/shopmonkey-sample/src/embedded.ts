// The embedded default: the distributor sandbox and a fake Shopmonkey, started in-process and
// seeded, so the sample runs with no accounts at all. Two shops, each on its own Shopmonkey company
// and its own distributor customer, each with one user who signs in to the sample's pages.
import { Effect, Redacted, type Scope } from "effect"
import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
import { FAKE_SHOPMONKEY_SECOND_COMPANY, type FakeShopmonkey, startFakeShopmonkey } from "@shoplink/adapter-shopmonkey/testing"
import { SecretBox, type ShopStore } from "@shoplink/connector"
import { type RunningSandbox, startSandbox } from "@shoplink/sandbox"
import { hashPassword, randomPassword } from "./auth.js"
import type { Settings } from "./settings.js"

/** A demo user's sign-in, for the start-up banner, the demo and the tests. */
export interface DemoUser {
  readonly email: string
  readonly name: string
  readonly password: string
  readonly shopId: string
  readonly shopName: string
}

export interface Embedded {
  readonly sandbox: RunningSandbox
  readonly shopmonkey: FakeShopmonkey
  readonly settings: Pick<Settings, "punchoutBaseUrl" | "vendorApiKey" | "shopmonkeyBaseUrl" | "secretKeys" | "users" | "shops">
  /** Shop A (Main Street Auto) and shop B (Maple Garage), in that order. */
  readonly shops: readonly [ShopStore.ShopInput, ShopStore.ShopInput]
  /** ava@mainstreet.example (shop A) and ben@maplegarage.example (shop B), in that order. */
  readonly users: readonly [DemoUser, DemoUser]
}

export const SHOP_A = { id: "main-street", name: "Main Street Auto" } as const
export const SHOP_B = { id: "maple-garage", name: "Maple Garage" } as const

/**
 * Starts the sandbox and the fake Shopmonkey. Passwords are random per run unless given (tests);
 * the keyring is random per run too: the embedded default's database is temporary.
 */
export const startEmbedded = (options: { readonly passwords?: readonly [string, string] } = {}): Effect.Effect<Embedded, never, Scope.Scope> =>
  Effect.gen(function*() {
    const sandbox = yield* startSandbox()
    const shopmonkey = yield* startFakeShopmonkey()
    const { ca, us } = sandbox.credentials.customers
    const shopA: ShopStore.ShopInput = {
      ...SHOP_A,
      distributor: { accountNo: us.accountNo, username: us.username, country: "US", apiToken: Redacted.make(us.apiToken) },
      sms: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(shopmonkey.companies[0]!.apiKey) }
    }
    const shopB: ShopStore.ShopInput = {
      ...SHOP_B,
      distributor: { accountNo: ca.accountNo, username: ca.username, country: "CA", apiToken: Redacted.make(ca.apiToken) },
      sms: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(shopmonkey.companies[1]?.apiKey ?? FAKE_SHOPMONKEY_SECOND_COMPANY.apiKey) }
    }
    const [passwordA, passwordB] = options.passwords ?? [randomPassword(), randomPassword()]
    const users = [
      { email: "ava@mainstreet.example", name: "Ava Martinez", password: passwordA, shopId: SHOP_A.id, shopName: SHOP_A.name },
      { email: "ben@maplegarage.example", name: "Ben Tremblay", password: passwordB, shopId: SHOP_B.id, shopName: SHOP_B.name }
    ] as const
    const hashed = yield* Effect.promise(() =>
      Promise.all(users.map(async (u) => ({ email: u.email, name: u.name, shopId: u.shopId, passwordHash: await hashPassword(u.password) })))
    )
    return {
      sandbox,
      shopmonkey,
      shops: [shopA, shopB],
      users,
      settings: {
        punchoutBaseUrl: sandbox.url,
        vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey),
        shopmonkeyBaseUrl: shopmonkey.url,
        secretKeys: Redacted.make(SecretBox.generateKey("embedded")),
        users: hashed,
        shops: [shopA, shopB]
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
