// The runtime end to end against the sandbox: launch → catalog → export → webhook → inbox →
// worker → shop system, over real HTTP on loopback.
import { HttpRouter } from "@effect/platform"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import {
  CredentialStore,
  InboxWorker,
  LaunchRegistry,
  OrderVerifier,
  PunchoutLauncher,
  WebhookInbox,
  WebhookReceiver
} from "@shoplink/connector-runtime"
import { OrderManagementClient } from "@shoplink/order-management"
import { PunchoutClient, SessionPool } from "@shoplink/punchout"
import { SANDBOX_FIXTURES, startSandbox } from "@shoplink/sandbox"
import { Effect, Exit, Layer, Redacted, TestClock } from "effect"
import { createServer } from "node:http"
import { makeMemorySms } from "./support/memorySms.js"

const [ford, camry, civic] = SANDBOX_FIXTURES.vehicles
const repairOrders = [
  {
    id: "ro_vin",
    number: "1042",
    url: "https://sms.example/ro/1042",
    vehicle: { vin: ford!.vin, year: 2019, make: "Ford", model: "F-150" }
  },
  {
    id: "ro_plate",
    number: "1043",
    vehicle: { licensePlate: camry!.licensePlate, licensePlateState: camry!.licensePlateState }
  },
  { id: "ro_aces", number: "1044", vehicle: { baseVehicleId: civic!.baseVehicleID } },
  { id: "ro_none", number: "1045", vehicle: {} }
]

const setup = Effect.gen(function*() {
  const sandbox = yield* startSandbox()
  const sms = makeMemorySms(repairOrders)
  const us = sandbox.credentials.customers.us
  const stores = Layer.mergeAll(
    WebhookInbox.layerMemory,
    LaunchRegistry.layerMemory,
    CredentialStore.layerMemory({ shop_1: { ...us, country: "US", apiToken: Redacted.make(us.apiToken) } }),
    sms.layer
  )
  const context = yield* Layer.build(stores)
  // The receiver, on its own loopback server.
  const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
  const address = server.address._tag === "TcpAddress" ? server.address : undefined
  const publicBaseUrl = `http://127.0.0.1:${address?.port}`
  yield* server.serve(HttpRouter.toHttpApp(WebhookReceiver.router({ maxBodyBytes: 64 * 1024 })).pipe(Effect.flatten))
    .pipe(
      Effect.provide(context)
    )
  const punchout = SessionPool.layer().pipe(
    Layer.provideMerge(
      PunchoutClient.layer({ baseUrl: sandbox.url, vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey) })
    ),
    Layer.provide(NodeHttpClient.layerUndici)
  )
  const launcher = yield* Layer.build(
    PunchoutLauncher.layer({ publicBaseUrl, smsVendorName: "Shoplink Tests" }).pipe(
      Layer.provide(punchout),
      Layer.provide(Layer.succeedContext(context))
    )
  )
  const openOrder = (repairOrderId: string, orderId: string) =>
    Effect.flatMap(PunchoutLauncher.PunchoutLauncher, (l) => l.openOrder({ shopId: "shop_1", repairOrderId, orderId }))
      .pipe(
        Effect.provide(launcher)
      )
  const launch = (repairOrderId: string, searchTerm?: string) =>
    Effect.flatMap(PunchoutLauncher.PunchoutLauncher, (l) => l.launch({ shopId: "shop_1", repairOrderId, searchTerm }))
      .pipe(
        Effect.provide(launcher)
      )
  // A launcher that refuses a repair order without a vehicle the catalog can find (`requireVehicle`).
  const strict = yield* Layer.build(
    PunchoutLauncher.layer({ publicBaseUrl, smsVendorName: "Shoplink Tests", requireVehicle: true }).pipe(
      Layer.provide(punchout),
      Layer.provide(Layer.succeedContext(context))
    )
  )
  const launchStrict = (repairOrderId: string) =>
    Effect.flatMap(PunchoutLauncher.PunchoutLauncher, (l) => l.launch({ shopId: "shop_1", repairOrderId })).pipe(
      Effect.provide(strict)
    )
  const drain = InboxWorker.processDue({ maxAttempts: 3 }).pipe(Effect.provide(context))
  const inbox = Effect.provide(WebhookInbox.WebhookInbox, context)
  // The same worker, checking orders against the sandbox's Order Management API first.
  const verifier = OrderVerifier.layerOrderManagement({ mode: "enforce" }).pipe(
    Layer.provide(OrderManagementClient.layer({
      environment: "US_QUA",
      testBaseUrl: sandbox.url,
      apiKey: Redacted.make(sandbox.credentials.oms.testApiKey)
    })),
    Layer.provide(NodeHttpClient.layerUndici),
    Layer.provide(Layer.succeedContext(context)),
    Layer.orDie
  )
  const drainVerified = InboxWorker.processDue({ maxAttempts: 3 }).pipe(
    Effect.provide(verifier),
    Effect.provide(context)
  )
  return { sandbox, sms, launch, launchStrict, openOrder, drain, drainVerified, inbox, publicBaseUrl }
})

const tokenOf = (url: Redacted.Redacted<string>) => new URL(Redacted.value(url)).searchParams.get("token")!
const fetchText = (url: string, init?: RequestInit) =>
  Effect.promise(async () => {
    const response = await fetch(url, init)
    return { status: response.status, text: await response.text() }
  })

describe("connector runtime against the sandbox", () => {
  it.scoped("launches for a VIN; Export puts quoted lines on the RO, Export and Submit ordered lines and the orderID", () =>
    Effect.gen(function*() {
      const { drain, launch, sandbox, sms } = yield* setup
      const launched = yield* launch("ro_vin", "oil filter")
      expect(launched.vehicle).toBe("vin")
      expect(String(launched.url)).not.toContain("token=")
      const page = yield* fetchText(Redacted.value(launched.url))
      expect(page.status).toBe(200)
      expect(page.text).toContain(ford!.vin)
      expect(page.text).toContain("<footer data-testid=\"footer\">Shoplink Tests · Reference 1042</footer>")

      const token = tokenOf(launched.url)
      const { oilFilter } = SANDBOX_FIXTURES.products
      yield* sandbox.admin.driver.addToCart(token, { ...oilFilter, quantity: 2 })
      const exported = yield* sandbox.admin.driver.press(token, "export")
      yield* sandbox.admin.awaitDeliveries(1)
      expect(yield* drain).toMatchObject({ applied: 1, dead: 0 })
      const quoted = sms.read.lines("ro_vin")
      expect(quoted).toHaveLength(1)
      expect(quoted[0]).toMatchObject({
        kind: "quoted",
        productID: oilFilter.productID,
        brandID: oilFilter.brandID,
        quantity: 2
      })
      expect(Number.isInteger(quoted[0]!.costCents) && quoted[0]!.costCents > 0).toBe(true)

      // The browser lands on the callback page, which says what happened.
      expect(exported.redirect).toBeDefined()
      const callback = yield* fetchText(exported.redirect!)
      expect(callback.text).toContain("1 part quoted and added to RO 1042.")
      expect(callback.text).toContain("https://sms.example/ro/1042")

      const submitted = yield* sandbox.admin.driver.press(token, "exportAndSubmit")
      yield* sandbox.admin.awaitDeliveries(2)
      expect(yield* drain).toMatchObject({ applied: 1 })
      expect(sms.read.order("ro_vin")).toEqual({ orderID: submitted.orderID, status: "3" })
      expect(sms.read.lines("ro_vin").filter((l) => l.kind === "ordered")).toHaveLength(1)
    }))

  it.scoped("uses the plate with its state, or the base vehicle ID, and refuses a search without a vehicle", () =>
    Effect.gen(function*() {
      const { launch } = yield* setup
      const byPlate = yield* launch("ro_plate")
      expect(byPlate.vehicle).toBe("licensePlate")
      const params = new URL(Redacted.value(byPlate.url)).searchParams
      expect([params.get("licensePlate"), params.get("licensePlateState")]).toEqual([
        camry!.licensePlate,
        camry!.licensePlateState
      ])
      const byAces = yield* launch("ro_aces", "brake pads")
      expect(new URL(Redacted.value(byAces.url)).searchParams.get("baseVehicleID")).toBe(civic!.baseVehicleID)
      expect((yield* launch("ro_none")).vehicle).toBe("none")
      const refused = yield* Effect.exit(launch("ro_none", "brake pads"))
      expect(Exit.isFailure(refused) && String(refused.cause)).toContain("a catalog search needs one")
      const missing = yield* Effect.exit(launch("ro_missing"))
      expect(Exit.isFailure(missing) && String(missing.cause)).toContain("RepairOrderNotFound")
    }))

  it.scoped("requireVehicle: a repair order without a vehicle is refused, where the default opens the catalog", () =>
    Effect.gen(function*() {
      const { launch, launchStrict } = yield* setup
      const refused = yield* Effect.flip(launchStrict("ro_none"))
      expect(refused).toBeInstanceOf(PunchoutLauncher.VehicleRequired)
      expect(refused.message).toBe(
        "repair order ro_none has no VIN, plate with state, or base vehicle ID: a catalog search needs one"
      )
      expect((yield* launch("ro_none")).vehicle).toBe("none")
      expect((yield* launchStrict("ro_vin")).vehicle).toBe("vin")
    }))

  it.scoped("a repeated delivery is acknowledged but stored and applied once", () =>
    Effect.gen(function*() {
      const { drain, inbox, launch, sandbox, sms } = yield* setup
      const token = tokenOf((yield* launch("ro_vin")).url)
      yield* sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 })
      yield* sandbox.admin.driver.press(token, "exportAndSubmit")
      const [delivery] = yield* sandbox.admin.awaitDeliveries(1)
      const again = yield* fetchText(delivery!.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(delivery!.body)
      })
      expect(again.status).toBe(200)
      expect(JSON.parse(again.text)).toEqual({ received: true, duplicate: true })
      yield* drain
      yield* drain
      expect(yield* Effect.flatMap(inbox, (i) => i.list())).toHaveLength(1)
      expect(sms.read.lines("ro_vin")).toHaveLength(1)
    }))

  it.scoped("refuses unknown keys (404), bad bodies (400), oversized bodies (413) and expired keys (410), writing nothing", () =>
    Effect.gen(function*() {
      const { inbox, launch, publicBaseUrl, sandbox } = yield* setup
      const post = (url: string, body: string, contentType = "application/json") =>
        fetchText(url, { method: "POST", headers: { "content-type": contentType }, body })
      const unknown = yield* post(`${publicBaseUrl}/shoplink/webhooks/${LaunchRegistry.newKey()}/order`, "{}")
      expect(unknown).toEqual({ status: 404, text: "{}" })

      const token = tokenOf((yield* launch("ro_vin")).url)
      yield* sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 })
      const exported = yield* sandbox.admin.driver.press(token, "export")
      const [delivery] = yield* sandbox.admin.awaitDeliveries(1)
      const quoteUrl = delivery!.url
      const malformed = yield* post(quoteUrl, "{\"quotes\":[{\"productID\":7}]}")
      expect(malformed.status).toBe(400)
      expect((yield* post(quoteUrl, "quotes=1", "application/x-www-form-urlencoded")).status).toBe(400)
      expect((yield* post(quoteUrl, JSON.stringify({ quotes: [], pad: "x".repeat(70 * 1024) }))).status).toBe(413)
      expect(yield* Effect.flatMap(inbox, (i) => i.list())).toHaveLength(1)

      // Keys live as long as the session (12 h) plus the grace period (1 h).
      yield* TestClock.adjust("13 hours")
      // The browser's callback URL (its own key, not the webhook key).
      const callbackUrl = exported.redirect!
      expect((yield* fetchText(callbackUrl)).status).toBe(200)
      yield* TestClock.adjust("2 minutes")
      expect((yield* post(quoteUrl, JSON.stringify(delivery!.body))).status).toBe(410)
      expect((yield* fetchText(callbackUrl)).status).toBe(410)
    }))

  it.scoped("with an OrderVerifier, a submitted order is applied and a forged order webhook is dead-lettered", () =>
    Effect.gen(function*() {
      const { drainVerified, inbox, launch, sandbox, sms } = yield* setup
      const token = tokenOf((yield* launch("ro_vin")).url)
      yield* sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 })
      const submitted = yield* sandbox.admin.driver.press(token, "exportAndSubmit")
      const [delivery] = yield* sandbox.admin.awaitDeliveries(1)
      expect(yield* drainVerified).toMatchObject({ applied: 1, dead: 0 })
      expect(sms.read.order("ro_vin")?.orderID).toBe(submitted.orderID)

      // Same launch URL, but orders the distributor does not confirm: unknown, and still in a cart.
      const inCart = yield* sandbox.admin.driver.addToCart(token, {
        ...SANDBOX_FIXTURES.products.oilFilter,
        quantity: 1
      })
      const forge = (orderID: string) => {
        const body = delivery!.body as { order: Record<string, unknown> }
        return fetchText(delivery!.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ ...body, order: { ...body.order, orderID } })
        })
      }
      expect((yield* forge("99999999")).status).toBe(200)
      expect((yield* forge(inCart.orderID)).status).toBe(200)
      expect(yield* drainVerified).toMatchObject({ applied: 0, dead: 2 })
      const dead = yield* Effect.flatMap(inbox, (i) => i.list({ status: "dead" }))
      expect(dead.map((e) => e.lastError)).toEqual([
        expect.stringContaining("order 99999999 is unknown to the distributor"),
        expect.stringContaining(`order ${inCart.orderID} is not submitted at the distributor`)
      ])
      expect(sms.read.lines("ro_vin")).toHaveLength(1)
    }))

  it.scoped("openOrder returns the ShowOrder URL of a distributor order in the repair order's session", () =>
    Effect.gen(function*() {
      const { launch, openOrder, sandbox } = yield* setup
      const launched = yield* launch("ro_vin")
      const token = tokenOf(launched.url)
      yield* sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 })
      const submitted = yield* sandbox.admin.driver.press(token, "exportAndSubmit")
      const opened = yield* openOrder("ro_vin", submitted.orderID!)
      const url = new URL(Redacted.value(opened.url))
      expect(url.pathname).toBe("/punchout/v1/ShowOrder")
      expect(url.searchParams.get("orderId")).toBe(submitted.orderID)
      expect(url.searchParams.get("referenceID")).toBe("1042")
      // The same session (and so the same webhook URLs) as the launch: the pool reuses it.
      expect(url.searchParams.get("token")).toBe(token)
      const page = yield* fetchText(url.toString())
      expect(page.status).toBe(200)
      expect(page.text).toContain(`<span data-testid="order-id">${submitted.orderID}</span>`)
      expect(page.text).toContain("<span data-testid=\"order-status\">Order submitted</span>")
    }))
})
