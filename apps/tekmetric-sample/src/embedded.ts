// The embedded default: the distributor sandbox and a fake Tekmetric, started in-process and
// seeded, so the sample runs with no accounts at all. Two shops, each with its own Tekmetric OAuth
// client and its own distributor customer, each with one user who signs in to the sample's pages.
// Main Street Auto's Tekmetric credentials reach two Tekmetric shops (1 and 2): its onboarding
// names shop 1 (secret tekmetricShopId). Maple Garage's reach only shop 3.
import { Effect, Redacted, type Scope } from "effect"
import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
import { FAKE_TEKMETRIC_FIXTURES, type FakeTekmetric, startFakeTekmetric } from "@shoplink/adapter-tekmetric/testing"
import { SecretBox, type ShopStore, SignIn } from "@shoplink/connector"
import { type RunningSandbox, startSandbox } from "@shoplink/sandbox"
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
  readonly tekmetric: FakeTekmetric
  readonly settings: Pick<Settings, "punchoutBaseUrl" | "vendorApiKey" | "tekmetricBaseUrl" | "secretKeys" | "linkSecret" | "users" | "shops">
  readonly shops: readonly [ShopStore.ShopInput, ShopStore.ShopInput]
  readonly users: readonly [DemoUser, DemoUser]
}

export const SHOP_A = { id: "main-street", name: "Main Street Auto" } as const
export const SHOP_B = { id: "maple-garage", name: "Maple Garage" } as const

const { demo, maple } = FAKE_TEKMETRIC_FIXTURES.clients

export const startEmbedded = (options: { readonly passwords?: readonly [string, string] } = {}): Effect.Effect<Embedded, never, Scope.Scope> =>
  Effect.gen(function*() {
    const sandbox = yield* startSandbox()
    const tekmetric = yield* startFakeTekmetric()
    const { ca, us } = sandbox.credentials.customers
    const shopA: ShopStore.ShopInput = {
      ...SHOP_A,
      distributor: { accountNo: us.accountNo, username: us.username, country: "US", apiToken: Redacted.make(us.apiToken) },
      sms: {
        [TekmetricConnector.CLIENT_ID_SECRET]: Redacted.make(demo.clientId),
        [TekmetricConnector.CLIENT_SECRET_SECRET]: Redacted.make(demo.clientSecret),
        [TekmetricConnector.SHOP_ID_SECRET]: Redacted.make("1")
      }
    }
    const shopB: ShopStore.ShopInput = {
      ...SHOP_B,
      distributor: { accountNo: ca.accountNo, username: ca.username, country: "CA", apiToken: Redacted.make(ca.apiToken) },
      sms: {
        [TekmetricConnector.CLIENT_ID_SECRET]: Redacted.make(maple.clientId),
        [TekmetricConnector.CLIENT_SECRET_SECRET]: Redacted.make(maple.clientSecret)
      }
    }
    const [passwordA, passwordB] = options.passwords ?? [SignIn.randomPassword(), SignIn.randomPassword()]
    const users = [
      { email: "ava@mainstreet.example", name: "Ava Martinez", password: passwordA, shopId: SHOP_A.id, shopName: SHOP_A.name },
      { email: "ben@maplegarage.example", name: "Ben Tremblay", password: passwordB, shopId: SHOP_B.id, shopName: SHOP_B.name }
    ] as const
    const hashed = yield* Effect.promise(() =>
      Promise.all(users.map(async (u) => ({ email: u.email, name: u.name, shopId: u.shopId, passwordHash: await SignIn.hashPassword(u.password) })))
    )
    return {
      sandbox,
      tekmetric,
      shops: [shopA, shopB],
      users,
      settings: {
        punchoutBaseUrl: sandbox.url,
        vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey),
        tekmetricBaseUrl: tekmetric.url,
        secretKeys: Redacted.make(SecretBox.generateKey("embedded")),
        linkSecret: Redacted.make(SignIn.randomToken()),
        users: hashed,
        shops: [shopA, shopB]
      }
    }
  })

/** A sample service on loopback (a free port on 127.0.0.1) over the embedded default, storing in `database`. */
export const loopbackSettings = (embedded: Embedded, options: Pick<Settings, "smsVendorName" | "database"> & Partial<Settings>): Settings => ({
  ...embedded.settings,
  port: 0,
  host: "127.0.0.1",
  publicBaseUrl: undefined,
  ...options
})
