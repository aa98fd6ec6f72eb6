// The embedded default: the distributor sandbox and a fake __title__ started in-process, the
// service (service.ts) on them with a scratch database and a key ring made for the run, and one
// demo shop onboarded, so the sample runs with no accounts at all.
import { HttpServer } from "@effect/platform"
import { __Name__Connector } from "@shoplink/adapter-__name__"
import { startFake__Name__ } from "@shoplink/adapter-__name__/testing"
import { ConnectorRuntime, SecretBox, SettingsTable } from "@shoplink/connector-runtime"
import { SANDBOX_FIXTURES, startSandbox } from "@shoplink/sandbox"
import { ConfigProvider, Context, Effect, Layer, Redacted } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Service from "./service.js"

/** The demo shop: the sandbox's US customer, and its __title__ API key in the fake. */
export const SHOP = { id: "demo-shop", name: "Demo Auto" } as const

/** Starts everything in the current scope; `port` overrides PORT (0: any free port). */
export const startEmbedded = (options: { readonly port?: number } = {}) =>
  Effect.gen(function*() {
    const sandbox = yield* startSandbox()
    const fake = yield* startFake__Name__()
    // Repair orders on vehicles the sandbox's catalog knows: one found by VIN, one by plate.
    const [ford, camry] = SANDBOX_FIXTURES.vehicles
    const repairOrders = [
      { number: "1042", customerName: "Dana Reyes", vehicle: { vin: ford?.vin, year: ford?.year, make: ford?.make, model: ford?.model } },
      {
        number: "1043",
        customerName: "Sam Okafor",
        vehicle: { licensePlate: camry?.licensePlate, licensePlateState: camry?.licensePlateState, year: camry?.year, make: camry?.make, model: camry?.model }
      }
    ].map((ro) => ({ ...ro, id: fake.addRepairOrder(ro) }))

    const dir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "__name__-sample-"))),
      (path) => Effect.sync(() => rmSync(path, { recursive: true, force: true }))
    )
    // The settings a deployment reads from its environment, pointed at what was just started; the
    // environment still gives the rest (PORT, HOST, SHOPLINK_PUBLIC_BASE_URL, logging).
    const { SETTINGS } = SettingsTable
    const config = ConfigProvider.fromMap(
      new Map([
        [SETTINGS.punchoutBaseUrl.env, sandbox.url],
        [SETTINGS.vendorApiKey.env, sandbox.credentials.vendorApiKey],
        [SETTINGS.omsEnvironment.env, "US_QUA"],
        [SETTINGS.omsTestBaseUrl.env, sandbox.url],
        [SETTINGS.omsApiKey.env, sandbox.credentials.oms.testApiKey],
        [SETTINGS.secretKeys.env, SecretBox.generateKey("embedded")],
        [SETTINGS.database.env, join(dir, "embedded.sqlite")],
        [Service.BASE_URL, fake.url],
        ...(options.port === undefined ? [] : [["PORT", String(options.port)] as const])
      ])
    ).pipe(ConfigProvider.orElse(() => ConfigProvider.fromEnv()))
    const service = yield* Layer.build(Service.layer).pipe(Effect.withConfigProvider(config))
    const runtime = Context.get(service, ConnectorRuntime.ConnectorRuntime)

    const { us } = sandbox.credentials.customers
    yield* runtime.shops.add({
      ...SHOP,
      distributor: { accountNo: us.accountNo, username: us.username, country: "US", apiToken: Redacted.make(us.apiToken) },
      sms: { [__Name__Connector.API_KEY_SECRET]: Redacted.make(fake.apiKey) }
    }, { replace: true })
    // A key for POST /shoplink/launch, as `shoplink keys create` makes for your __title__ backend.
    const { key } = yield* runtime.apiKeys.create("embedded default")
    const url = HttpServer.formatAddress(Context.get(service, HttpServer.HttpServer).address)
    return { sandbox, fake, runtime, url, launchKey: Redacted.value(key), shop: SHOP, repairOrders }
  })
