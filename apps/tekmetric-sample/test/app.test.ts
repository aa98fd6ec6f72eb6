// The sample over HTTP on loopback against the embedded default (sandbox + fake Tekmetric): sign-in,
// each shop's repair orders only, Order parts → Export → Export and Submit → the parts kept with
// the RO (RO page, callback page, the runtime's parts page and CSV) and the distributor order on the
// Tekmetric job note; a repair order without VIN or plate refused before the catalog.
import { describe, expect, it } from "@effect/vitest"
import { FAKE_TEKMETRIC_FIXTURES } from "@shoplink/adapter-tekmetric/testing"
import { Effect, Logger, LogLevel, Schedule } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startApp } from "../src/app.js"
import { loopbackSettings, startEmbedded } from "../src/embedded.js"
import * as WebClient from "@shoplink/connector-testkit/WebClient"

const call = <A>(f: () => Promise<A>) => Effect.promise(f)
const ros = FAKE_TEKMETRIC_FIXTURES.repairOrders

// The service's logs (the refusals these tests provoke are warnings) stay out of the test output.
const quiet = Logger.withMinimumLogLevel(LogLevel.Error)

const setup = Effect.gen(function*() {
  const embedded = yield* startEmbedded()
  const dir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "tekmetric-sample-"))),
    (d) => Effect.sync(() => rmSync(d, { recursive: true, force: true }))
  )
  const app = yield* startApp(
    loopbackSettings(embedded, { smsVendorName: "Tekmetric (tests)", database: { sqlite: join(dir, "db.sqlite") } })
  ).pipe(Effect.orDie)
  const [a, b] = embedded.users
  const ava = WebClient.make(app.url)
  const ben = WebClient.make(app.url)
  expect((yield* call(() => ava.signIn(a.email, a.password))).status).toBe(303)
  expect((yield* call(() => ben.signIn(b.email, b.password))).status).toBe(303)
  return { embedded, app, ava, ben }
})

const waitFor = (check: () => Promise<boolean>) =>
  call(check).pipe(
    Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail("not yet"))),
    Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 100 }),
    Effect.orDie
  )

describe("tekmetric-sample", () => {
  it.live("each user sees only their shop's repair orders; pages need a session, actions its CSRF token", () =>
    quiet(Effect.scoped(Effect.gen(function*() {
      const { app, ava, ben } = yield* setup
      const numbers = (html: string) =>
        [...html.matchAll(/data-testid="repair-order" data-ro="(\d+)"/g)].map((m) => m[1])
      expect(numbers((yield* call(() => ava.get("/"))).text)).toEqual(["1042", "1043", "1044", "1045"])
      expect(numbers((yield* call(() => ben.get("/"))).text)).toEqual(["3001", "3002"])
      expect((yield* call(() => ava.get(`/ro/${ros.maple.id}`))).status).toBe(404)
      expect((yield* call(() => ava.get(`/ro/${ros.secondShop.id}`))).status).toBe(404)
      const anonymous = WebClient.make(app.url)
      expect((yield* call(() => anonymous.get("/"))).location).toBe("/sign-in?next=%2F")
      yield* call(() => ava.get("/"))
      expect((yield* call(() => ava.post(`/ro/${ros.vin.id}/order-parts`, {}, { csrf: "wrong" }))).status).toBe(403)
      expect(
        (yield* call(() => ava.post(`/ro/${ros.vin.id}/order-parts`, {}, { origin: "https://evil.example" }))).status
      ).toBe(403)
      // Another shop's repair order through Order parts: not found, no catalog.
      expect((yield* call(() => ava.post(`/ro/${ros.maple.id}/order-parts`))).status).toBe(404)
    }))))

  it.live("Order parts → Export → Export and Submit: parts kept with the RO, shown on the parts page, order recorded in Tekmetric", () =>
    quiet(Effect.scoped(Effect.gen(function*() {
      const { app, ava, embedded } = yield* setup
      const { sandbox, tekmetric } = embedded
      yield* call(() => ava.get("/"))
      const launched = yield* call(() => ava.post(`/ro/${ros.vin.id}/order-parts`))
      expect(launched.status).toBe(303)
      const catalog = new URL(launched.location!)
      expect(catalog.searchParams.get("vin")).toBe(ros.vin.vehicle.vin)
      expect(catalog.searchParams.get("referenceID")).toBe("1042")
      const token = catalog.searchParams.get("token")!
      yield* sandbox.admin.driver.addToCart(token, { productID: "51515", brandID: "WIX", quantity: 2 })
      const exported = yield* sandbox.admin.driver.press(token, "export")
      yield* waitFor(async () => (await ava.get(`/ro/${ros.vin.id}`)).text.includes("data-testid=\"quoted-line\""))
      const landing = yield* call(() => fetch(exported.redirect!).then((r) => r.text()))
      expect(landing).toContain("1 part quoted and kept with RO 1042.")
      const submitted = yield* sandbox.admin.driver.press(token, "exportAndSubmit")
      yield* waitFor(async () => {
        const text = (await ava.get(`/ro/${ros.vin.id}`)).text
        return text.includes(`data-order-id="${submitted.orderID}"`) && !text.includes("data-testid=\"pending\"")
      })
      const page = (yield* call(() => ava.get(`/ro/${ros.vin.id}`))).text
      expect([...page.matchAll(/<tr data-testid="(quoted|ordered)-line"/g)].map((m) => m[1])).toEqual([
        "quoted",
        "ordered"
      ])
      expect(tekmetric.jobs(ros.vin.id)[0]!.note).toBe(
        `Parts order ${submitted.orderID}: Order submitted (status 3), via Shoplink [shoplink-order:${submitted.orderID}]`
      )
      // The page says the order's status in words, never the raw code.
      expect(page).toMatch(
        new RegExp(
          `data-order-id="${submitted.orderID}">\nOrder ${submitted.orderID} <span class="badge" data-testid="order-status">Order submitted</span>`
        )
      )
      expect(page).not.toMatch(/status \d/)
      // The parts page: the signed link from the RO page works; without it, 403.
      const link = /data-testid="parts-page-link" href="([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, "&")
      const parts = yield* call(() => fetch(link).then(async (r) => ({ status: r.status, text: await r.text() })))
      expect(parts.status).toBe(200)
      expect(parts.text.match(/data-testid="parts-row"/g)).toHaveLength(2)
      const csvHref = /data-testid="parts-csv" href="([^"]+)"/.exec(parts.text)![1]!.replace(/&amp;/g, "&")
      const csv = yield* call(() => fetch(new URL(csvHref, app.url)).then((r) => r.text()))
      expect(csv.trim().split("\r\n")).toHaveLength(3)
      expect((yield* call(() => fetch(`${app.url}/shoplink/parts?shop=main-street&ro=${ros.vin.id}`))).status).toBe(403)
      expect((yield* call(() => fetch(link.replace(`ro=${ros.vin.id}`, `ro=${ros.plate.id}`)))).status).toBe(403)
    }))))

  it.live("a repair order without VIN or plate says what to add, and Order parts on it is refused in one line", () =>
    quiet(Effect.scoped(Effect.gen(function*() {
      const { ava, embedded } = yield* setup
      const list = (yield* call(() => ava.get("/"))).text
      expect(list).toMatch(/data-ro="1044"[\s\S]*?data-testid="vehicle-hint">No VIN or license plate/)
      const before = (yield* embedded.sandbox.admin.deliveries()).length
      const refused = yield* call(() => ava.post(`/ro/${ros.noVehicle.id}/order-parts`))
      expect(refused.status).toBe(422)
      expect(refused.text).toContain(
        "Tekmetric repair order 1044 has no vehicle with a VIN or a license plate and state"
      )
      expect((yield* embedded.sandbox.admin.deliveries()).length).toBe(before)
    }))))
})
