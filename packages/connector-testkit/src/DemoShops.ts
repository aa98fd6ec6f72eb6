/**
 * Two demo shops on a running sandbox, for an integration service's embedded default, its demo and
 * its tests: Main Street Auto on the sandbox's US customer and Maple Garage on its Canadian one,
 * each with the SMS secrets you give, and one user each who signs in to the service's pages
 * (`ServicePages`), with a password made for the run (or given) and its scrypt hash. Also the
 * sandbox's distributor settings and a key ring made for the run. Import it as
 * `@shoplink/connector-testkit/DemoShops` outside a vitest run.
 *
 * @since 0.1.0
 */
import { SecretBox, type ShopStore } from "@shoplink/connector-runtime"
import { SignIn } from "@shoplink/service-pages"
import type { RunningSandbox } from "@shoplink/sandbox"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"

/**
 * The two shops' ids and names.
 *
 * @example
 * import * as DemoShops from "@shoplink/connector-testkit/DemoShops"
 * DemoShops.SHOP_A.id // "main-street"
 *
 * @since 0.1.0
 */
export const SHOP_A = { id: "main-street", name: "Main Street Auto" } as const

/**
 * The second shop.
 *
 * @example
 * import * as DemoShops from "@shoplink/connector-testkit/DemoShops"
 * DemoShops.SHOP_B.name // "Maple Garage"
 *
 * @since 0.1.0
 */
export const SHOP_B = { id: "maple-garage", name: "Maple Garage" } as const

/**
 * A demo user's sign-in, for a start-up banner, a demo and tests.
 *
 * @example
 * import type { DemoShops } from "@shoplink/connector-testkit"
 * const line = (user: DemoShops.DemoUser) => `${user.email} password ${user.password} (${user.shopName})`
 *
 * @since 0.1.0
 */
export interface DemoUser {
  readonly email: string
  readonly name: string
  readonly password: string
  readonly shopId: string
  readonly shopName: string
}

/**
 * What `make` answers.
 *
 * @example
 * import type { DemoShops } from "@shoplink/connector-testkit"
 * const firstShop = (demo: DemoShops.DemoShops) => demo.shops[0].id
 *
 * @since 0.1.0
 */
export interface DemoShops {
  /**
   * Shop A (Main Street Auto, US) and shop B (Maple Garage, CA), in that order: onboard them with
   * `runtime.shops.add`.
   */
  readonly shops: readonly [ShopStore.ShopInput, ShopStore.ShopInput]
  /** ava@mainstreet.example (shop A) and ben@maplegarage.example (shop B), with their passwords. */
  readonly users: readonly [DemoUser, DemoUser]
  /**
   * olga@operations.example, an operator (`role: "operator"`: the delivery console, every shop),
   * whose own pages are shop A's.
   */
  readonly operator: DemoUser
  /** The same users as `ServicePages` takes them (the two shops' users and the operator): the passwords' hashes. */
  readonly signInUsers: ReadonlyArray<SignIn.User>
  /** The sandbox's Punchout base URL and vendor API key. */
  readonly punchoutBaseUrl: string
  readonly vendorApiKey: Redacted.Redacted<string>
  /** A key ring made for this run: a database sealed with it is meant to be thrown away after. */
  readonly secretKeys: Redacted.Redacted<string>
}

/**
 * The two demo shops on `sandbox`, with `sms` as each shop's SMS secrets (what its adapter reads
 * through `SmsCredentials`). Passwords are random per run unless given.
 *
 * @example
 * import { Effect, Redacted } from "effect"
 * import { startSandbox } from "@shoplink/sandbox"
 * import * as DemoShops from "@shoplink/connector-testkit/DemoShops"
 * const demo = Effect.gen(function*() {
 *   const sandbox = yield* startSandbox()
 *   return yield* DemoShops.make(sandbox, {
 *     sms: [{ apiKey: Redacted.make("key-a") }, { apiKey: Redacted.make("key-b") }]
 *   })
 * })
 *
 * @since 0.1.0
 */
export const make = (
  sandbox: RunningSandbox,
  options: {
    readonly sms: readonly [Record<string, Redacted.Redacted<string>>, Record<string, Redacted.Redacted<string>>]
    readonly passwords?: readonly [string, string] | undefined
    /** The operator's password (random per run unless given). */
    readonly operatorPassword?: string | undefined
  }
): Effect.Effect<DemoShops> =>
  Effect.gen(function*() {
    const { ca, us } = sandbox.credentials.customers
    const shops = [
      {
        ...SHOP_A,
        distributor: {
          accountNo: us.accountNo,
          username: us.username,
          country: "US",
          apiToken: Redacted.make(us.apiToken)
        },
        sms: options.sms[0]
      },
      {
        ...SHOP_B,
        distributor: {
          accountNo: ca.accountNo,
          username: ca.username,
          country: "CA",
          apiToken: Redacted.make(ca.apiToken)
        },
        sms: options.sms[1]
      }
    ] as const satisfies readonly [ShopStore.ShopInput, ShopStore.ShopInput]
    const [passwordA, passwordB] = options.passwords ?? [SignIn.randomPassword(), SignIn.randomPassword()]
    const users = [
      {
        email: "ava@mainstreet.example",
        name: "Ava Martinez",
        password: passwordA,
        shopId: SHOP_A.id,
        shopName: SHOP_A.name
      },
      {
        email: "ben@maplegarage.example",
        name: "Ben Tremblay",
        password: passwordB,
        shopId: SHOP_B.id,
        shopName: SHOP_B.name
      }
    ] as const
    const operator = {
      email: "olga@operations.example",
      name: "Olga Operator",
      password: options.operatorPassword ?? SignIn.randomPassword(),
      shopId: SHOP_A.id,
      shopName: SHOP_A.name
    }
    const signInUsers: ReadonlyArray<SignIn.User> = yield* Effect.promise(() =>
      Promise.all([
        ...users.map(async (u) => ({
          email: u.email,
          name: u.name,
          shopId: u.shopId,
          passwordHash: await SignIn.hashPassword(u.password)
        })),
        SignIn.hashPassword(operator.password).then((passwordHash) => ({
          email: operator.email,
          name: operator.name,
          shopId: operator.shopId,
          passwordHash,
          role: "operator" as const
        }))
      ])
    )
    return {
      shops,
      users,
      operator,
      signInUsers,
      punchoutBaseUrl: sandbox.url,
      vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey),
      secretKeys: Redacted.make(SecretBox.generateKey("embedded"))
    }
  })
