// The embedded default: the distributor sandbox and a fake __title__ started in-process, one demo
// shop on them (the sandbox's US customer, its API key in the fake) with two repair orders, and
// one user who signs in to it, so the sample runs with no accounts at all.
import { __Name__Connector } from "@shoplink/adapter-__name__"
import { startFake__Name__ } from "@shoplink/adapter-__name__/testing"
import { SecretBox } from "@shoplink/connector-runtime"
import { SANDBOX_FIXTURES, startSandbox } from "@shoplink/sandbox"
import { type ServiceApp, type ServiceMain, SignIn } from "@shoplink/service-pages"
import { Effect, Redacted } from "effect"

/** The demo shop and its user. */
export const SHOP = { id: "demo-shop", name: "Demo Auto" } as const

/** Starts the sandbox and the fake in the current scope, with the settings of a service on them. */
export const startEmbedded = () =>
  Effect.gen(function*() {
    const sandbox = yield* startSandbox()
    const fake = yield* startFake__Name__()
    // Repair orders on vehicles the sandbox's catalog knows: one found by VIN, one by plate.
    const [ford, camry] = SANDBOX_FIXTURES.vehicles
    const repairOrders = [
      {
        number: "1042",
        customerName: "Dana Reyes",
        vehicle: { vin: ford?.vin, year: ford?.year, make: ford?.make, model: ford?.model }
      },
      {
        number: "1043",
        customerName: "Sam Okafor",
        vehicle: {
          licensePlate: camry?.licensePlate,
          licensePlateState: camry?.licensePlateState,
          year: camry?.year,
          make: camry?.make,
          model: camry?.model
        }
      }
    ].map((ro) => ({ ...ro, id: fake.addRepairOrder(ro) }))
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
        sms: { [__Name__Connector.API_KEY_SECRET]: Redacted.make(fake.apiKey) }
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
  smsVendorName: "__title__ (Shoplink demo)",
  database: { sqlite: database }
})
