// ServiceApp over real HTTP on loopback: the distributor sandbox, a memory SMS (per shop), a
// runtime on a SQLite file. Each shop lists and opens only its own repair orders; Order parts →
// Export → Export and Submit puts the parts on the RO page, from the SMS's deliveries when the
// adapter writes lines, from the runtime's ledger (with a signed parts-page link) when it cannot.
import { describe, expect, it } from "@effect/vitest"
import { Connector, ShopSystem } from "@shoplink/connector"
import { startSandbox } from "@shoplink/sandbox"
import { ServiceApp, SignIn } from "@shoplink/service-pages"
import { Effect, Layer, Redacted, Schedule } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeMemorySms } from "../../connector-runtime/test/support/memorySms.js"
import { client, secretKeys } from "./support/consoleApp.js"

const PASSWORD = "a password for the tests"
const ROS: Record<string, ReadonlyArray<ShopSystem.RepairOrder>> = {
  "shop-a": [
    { id: "ro_1043", number: "1043", vehicle: { year: 2016, make: "Nissan", model: "Altima" } },
    {
      id: "ro_1042",
      number: "1042",
      vehicle: { vin: "1FTEW1E56KFA12345", year: 2019, make: "Ford", model: "F-150" },
      customer: { id: "c1", name: "Dana Reyes" }
    }
  ],
  "shop-b": [{ id: "ro_5201", number: "5201", vehicle: { vin: "1N4AL3APXGC123456" } }]
}

/** The memory SMS as an adapter that lists each shop's repair orders and sees no other shop's. */
const memoryConnector = (capabilities: ReadonlyArray<ShopSystem.Capability>) => {
  const sms = makeMemorySms(Object.values(ROS).flat())
  const layer = Layer.effect(
    ShopSystem.ShopSystem,
    Effect.map(ShopSystem.ShopSystem, (inner): ShopSystem.Operations => ({
      ...inner,
      capabilities: new Set(capabilities),
      loadRepairOrder: (ref) =>
        (ROS[ref.shopId] ?? []).some((ro) => ro.id === ref.repairOrderId)
          ? inner.loadRepairOrder(ref)
          : Effect.fail(new ShopSystem.RepairOrderNotFound(ref)),
      listRepairOrders: ({ limit, shopId }) => Effect.succeed((ROS[shopId] ?? []).slice(0, limit))
    }))
  ).pipe(Layer.provide(sms.layer))
  return { sms, connector: Connector.defineConnector({ id: "memory-sms", name: "Acme SMS", capabilities, layer }) }
}

const start = (capabilities: ReadonlyArray<ShopSystem.Capability>) =>
  Effect.gen(function*() {
    const sandbox = yield* startSandbox()
    const dir = yield* Effect.acquireRelease(Effect.sync(() => mkdtempSync(join(tmpdir(), "service-app-"))), (d) =>
      Effect.sync(() => rmSync(d, { recursive: true, force: true })))
    const { us, ca } = sandbox.credentials.customers
    const { connector, sms } = memoryConnector(capabilities)
    const hash = yield* Effect.promise(() =>
      SignIn.hashPassword(PASSWORD, { cost: { N: 1024, r: 8, p: 1 } })
    )
    const app = yield* ServiceApp.make(connector, {
      port: 0,
      host: "127.0.0.1",
      publicPort: undefined,
      publicBaseUrl: undefined,
      appBaseUrl: undefined,
      smsVendorName: "Acme SMS (tests)",
      database: { sqlite: join(dir, "db.sqlite") },
      punchoutBaseUrl: sandbox.url,
      vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey),
      orderManagement: undefined,
      secretKeys,
      linkSecret: Redacted.make(SignIn.randomToken()),
      users: [
        { email: "ava@example.com", name: "Ava", shopId: "shop-a", passwordHash: hash },
        { email: "ben@example.com", name: "Ben", shopId: "shop-b", passwordHash: hash }
      ],
      shops: [
        {
          id: "shop-a",
          name: "Main Street Auto",
          distributor: { ...us, country: "US", apiToken: Redacted.make(us.apiToken) },
          sms: {}
        },
        {
          id: "shop-b",
          name: "Maple Garage",
          distributor: { ...ca, country: "CA", apiToken: Redacted.make(ca.apiToken) },
          sms: {}
        }
      ]
    })
    const signedIn = (email: string) =>
      Effect.gen(function*() {
        const browser = client(app.url)
        yield* browser.send("/sign-in")
        expect((yield* browser.post("/sign-in", { email, password: PASSWORD, next: "/" })).status).toBe(303)
        return browser
      })
    return { app, sandbox, sms, ava: yield* signedIn("ava@example.com"), ben: yield* signedIn("ben@example.com") }
  })

const rows = (html: string, testId: string) => [...html.matchAll(new RegExp(`<tr data-testid="${testId}"`, "g"))].length
const until = <A>(read: Effect.Effect<A>, done: (a: A) => boolean) =>
  read.pipe(
    Effect.filterOrFail(done),
    Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 150 }),
    Effect.orDie
  )

describe("ServiceApp", () => {
  it.live("lists each shop's repair orders by number and opens only its own; pages need a session", () =>
    Effect.scoped(Effect.gen(function*() {
      const { app, ava, ben } = yield* start([
        "readRepairOrder",
        "listRepairOrders",
        "writeQuotedParts",
        "writeOrderedParts"
      ])
      const list = yield* ava.send("/")
      expect([...list.text.matchAll(/data-testid="repair-order" data-ro="(\d+)"/g)].map((m) => m[1])).toEqual([
        "1042",
        "1043"
      ])
      // No VIN or plate: the button and what to add.
      expect(list.text).toContain(
        "the catalog will open without this vehicle. Add one to the vehicle in Acme SMS first."
      )
      expect((yield* ben.send("/ro/ro_1042")).status).toBe(404)
      expect((yield* ben.post("/ro/ro_1042/order-parts")).status).toBe(404)
      expect((yield* client(app.url).send("/")).location).toBe("/sign-in?next=%2F")
      expect((yield* client(app.url).send("/shoplink/parts?shop=shop-a&ro=ro_1042")).status).toBe(403)
    })))

  it.live("an adapter that writes lines: Export and Export and Submit put the parts on the SMS's RO and on the page", () =>
    Effect.scoped(Effect.gen(function*() {
      const { ava, sandbox, sms } = yield* start([
        "readRepairOrder",
        "listRepairOrders",
        "writeQuotedParts",
        "writeOrderedParts"
      ])
      yield* ava.send("/")
      const launched = yield* ava.post("/ro/ro_1042/order-parts")
      expect(launched.status).toBe(303)
      const token = new URL(launched.location!).searchParams.get("token")!
      yield* sandbox.admin.driver.addToCart(token, { productID: "51515", brandID: "WIX", quantity: 2 })
      yield* sandbox.admin.driver.press(token, "export")
      const quoted = yield* until(ava.send("/ro/ro_1042"), (page) => rows(page.text, "quoted-line") === 1)
      expect(quoted.text).toContain("These parts are on the repair order in Acme SMS.")
      expect(quoted.text).not.toContain("parts-page-link")
      const submitted = yield* sandbox.admin.driver.press(token, "exportAndSubmit")
      const page = yield* until(
        ava.send("/ro/ro_1042"),
        (p) => rows(p.text, "ordered-line") === 1 && !p.text.includes("data-testid=\"pending\"")
      )
      expect(page.text).toContain(
        `data-order-id="${submitted.orderID}">\nOrder ${submitted.orderID} <span class="badge" data-testid="order-status">Order submitted</span>`
      )
      expect(sms.read.lines("ro_1042").map((l) => [l.kind, l.productID, l.quantity])).toEqual([["quoted", "51515", 2], [
        "ordered",
        "51515",
        2
      ]])
    })))

  it.live("an adapter that cannot write lines: the runtime keeps them, the page shows them and links to the parts page", () =>
    Effect.scoped(Effect.gen(function*() {
      const { ava, sandbox, sms } = yield* start(["readRepairOrder", "listRepairOrders"])
      yield* ava.send("/")
      const token = new URL((yield* ava.post("/ro/ro_1042/order-parts")).location!).searchParams.get("token")!
      yield* sandbox.admin.driver.addToCart(token, { productID: "51515", brandID: "WIX", quantity: 1 })
      const submitted = yield* sandbox.admin.driver.press(token, "exportAndSubmit")
      const page = yield* until(
        ava.send("/ro/ro_1042"),
        (p) => rows(p.text, "ordered-line") === 1 && !p.text.includes("data-testid=\"pending\"")
      )
      expect(page.text).toContain("Acme SMS takes no part lines from other systems")
      expect(page.text).toContain(`data-order-id="${submitted.orderID}"`)
      expect(sms.read.lines("ro_1042")).toEqual([])
      const link = /data-testid="parts-page-link" href="([^"]+)"/.exec(page.text)![1]!.replaceAll("&amp;", "&")
      const parts = yield* Effect.promise(() =>
        fetch(link).then(async (r) => ({ status: r.status, text: await r.text() }))
      )
      expect(parts.status).toBe(200)
      expect(parts.text).toContain("51515")
    })))

  it.scoped("a connector that cannot list repair orders does not start", () =>
    Effect.gen(function*() {
      const { connector } = memoryConnector(["readRepairOrder"])
      const failed = yield* Effect.flip(ServiceApp.make(connector, {} as ServiceApp.Settings))
      expect(failed.message).toBe("the Acme SMS connector cannot list repair orders (capability listRepairOrders)")
    }))
})
