// The embedded default: the distributor sandbox and a fake Shop-Ware started in-process, one demo
// shop on them (the sandbox's US customer; the fake's partner credentials and tenant 1) with two
// repair orders, and one user who signs in to it, so the sample runs with no accounts at all.
import { FAKE_SHOP_WARE_FIXTURES, smsSecretsFor, startFakeShopWare } from "@shoplink/adapter-shop-ware/testing"
import { SecretBox } from "@shoplink/connector-runtime"
import { startSandbox } from "@shoplink/sandbox"
import { type ServiceApp, type ServiceMain, SignIn } from "@shoplink/service-pages"
import { Effect, Redacted } from "effect"

/** The demo shop and its user. */
export const SHOP = { id: "demo-shop", name: "Demo Auto" } as const

/** Starts the sandbox and the fake in the current scope, with the settings of a service on them. */
export const startEmbedded = () =>
  Effect.gen(function*() {
    const sandbox = yield* startSandbox()
    const fake = yield* startFakeShopWare()
    // The fake's tenant 1 (writable): #1042 found by VIN; #1043 has only a plate, which Shop-Ware
    // keeps without its state, so Order parts is refused with a one-line reason.
    const repairOrders = FAKE_SHOP_WARE_FIXTURES.repairOrders
      .filter((ro) => ro.tenantId === 1)
      .map((ro) => ({ id: String(ro.id), number: String(ro.number) }))
    const { us } = sandbox.credentials.customers
    const user = { email: "ava@demo-auto.example", name: "Ava", password: SignIn.randomPassword() }
    const settings = {
      punchoutBaseUrl: sandbox.url,
      vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey),
      // The sandbox's Order Management API: order webhooks are verified with it.
      orderManagement: {
        environment: "US_QUA",
        testBaseUrl: sandbox.url,
        apiKey: Redacted.make(sandbox.credentials.oms.testApiKey)
      },
      // A key ring made for the run: the embedded default's database is thrown away at exit.
      secretKeys: Redacted.make(SecretBox.generateKey("embedded")),
      // Made for the run too: the parts page's links, and the shop's URL for Shop-Ware's webhooks
      // (the service subscribes it at start-up; the fake posts repair_order.* there).
      linkSecret: Redacted.make(SignIn.randomToken()),
      smsWebhookSecret: Redacted.make(SignIn.randomToken()),
      users: [{
        email: user.email,
        name: user.name,
        shopId: SHOP.id,
        passwordHash: yield* Effect.promise(() => SignIn.hashPassword(user.password))
      }],
      shops: [{
        ...SHOP,
        distributor: {
          accountNo: us.accountNo,
          username: us.username,
          country: "US",
          apiToken: Redacted.make(us.apiToken)
        },
        sms: smsSecretsFor(FAKE_SHOP_WARE_FIXTURES.partner, 1)
      }]
    } satisfies ServiceMain.Embedded<unknown>["settings"]
    return { sandbox, fake, repairOrders, shop: SHOP, user, settings }
  })

/** A service on loopback (a free port) over the embedded default, storing in the SQLite file `database`. */
export const loopbackSettings = (
  settings: Effect.Effect.Success<ReturnType<typeof startEmbedded>>["settings"],
  database: string
): ServiceApp.Settings => ({
  ...settings,
  port: 0,
  host: "127.0.0.1",
  publicPort: undefined,
  publicBaseUrl: undefined,
  appBaseUrl: undefined,
  smsVendorName: "Shop-Ware (Shoplink demo)",
  database: { sqlite: database }
})
