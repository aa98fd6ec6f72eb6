// The sample on its embedded default (sandbox + fake Shop-Ware): the demo shop's open repair orders
// are listed, the one with a VIN launches the catalog, and the one with only a plate (Shop-Ware
// keeps no plate state) is refused in one line before any distributor call. Shop-Ware's webhooks:
// the service subscribes the shop at start-up, an invoiced repair order is closed to ordering (an
// order from a catalog opened before is kept, not written), a deleted one is recorded deleted.
import { describe, expect, it } from "@effect/vitest"
import { SANDBOX_FIXTURES } from "@shoplink/sandbox"
import { Effect, Either, Logger, LogLevel, Redacted, Schedule } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startApp } from "../src/app.js"
import { loopbackSettings, startEmbedded } from "../src/embedded.js"

const quiet = Logger.withMinimumLogLevel(LogLevel.Error)

const setup = Effect.gen(function*() {
  const embedded = yield* startEmbedded()
  const dir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "shop-ware-sample-"))),
    (d) => Effect.sync(() => rmSync(d, { recursive: true, force: true }))
  )
  const app = yield* startApp(loopbackSettings(embedded.settings, join(dir, "db.sqlite")), embedded.fake.url).pipe(
    Effect.orDie
  )
  return { ...embedded, app }
})

describe("shop-ware-sample", () => {
  it.scoped("lists the demo shop's repair orders and launches the one with a VIN", () =>
    Effect.gen(function*() {
      const { app, repairOrders, shop } = yield* setup
      const listed = yield* app.runtime.shopSystem.listRepairOrders!({ shopId: shop.id, limit: 10 })
      expect(listed.map((ro) => ro.number).sort()).toEqual(repairOrders.map((ro) => ro.number).sort())
      const [vin, plate] = repairOrders
      const launched = yield* app.runtime.launch({ shopId: shop.id, repairOrderId: vin!.id })
      expect(launched.vehicle).toBe("vin")
      const refused = yield* Effect.either(app.runtime.launch({ shopId: shop.id, repairOrderId: plate!.id }))
      expect(Either.isLeft(refused)).toBe(true)
      if (Either.isLeft(refused)) {
        expect(refused.left._tag).toBe("VehicleRequired")
        expect(refused.left.message).not.toContain("\n")
        expect(refused.left.message).toContain("VIN")
      }
    }).pipe(quiet), 30_000)

  it.scopedLive(
    "Shop-Ware's webhooks close an invoiced repair order to ordering and record a deleted one",
    () =>
      Effect.gen(function*() {
        const { app, fake, repairOrders: [vin, plate], sandbox, shop } = yield* setup
        // Subscribed at start-up: one webhook, to the shop's keyed URL on this service.
        const hooks = fake.webhooks()
        expect(hooks).toHaveLength(1)
        expect(hooks[0]!.url).toBe(yield* app.runtime.smsWebhookUrl(shop.id))
        expect(hooks[0]!.events).toEqual(
          expect.arrayContaining(["repair_order.created", "repair_order.updated", "repair_order.deleted"])
        )
        const stateOf = (repairOrderId: string) =>
          Effect.map(
            app.runtime.repairOrderStates.get({ shopId: shop.id, repairOrderId }),
            (state) => state._tag === "Some" ? state.value.state : undefined
          )

        // A catalog opened while the repair order is open; then Shop-Ware invoices it.
        const launched = yield* app.runtime.launch({ shopId: shop.id, repairOrderId: vin!.id })
        const token = new URL(Redacted.value(launched.url)).searchParams.get("token")!
        fake.setState(Number(vin!.id), "invoice")
        yield* Effect.promise(() => fake.settle())
        expect(fake.deliveries().map((d) => d.status)).toEqual([204])
        expect(yield* stateOf(vin!.id)).toBe("closed")
        const refused = yield* Effect.flip(app.runtime.launch({ shopId: shop.id, repairOrderId: vin!.id }))
        expect(refused._tag).toBe("RepairOrderClosed")

        // The catalog opened before submits an order: kept in the ledger, nothing written on the RO.
        yield* sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 })
        const pressed = yield* sandbox.admin.driver.press(token, "exportAndSubmit")
        const kept = yield* app.runtime.parts.list({ shopId: shop.id, repairOrderId: vin!.id }).pipe(
          Effect.filterOrFail((lines) => lines.length > 0, () => new Error("no parts kept")),
          Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.upTo("30 seconds")))
        )
        expect(kept.map((l) => [l.kind, l.orderID])).toEqual([["order", pressed.orderID]])
        expect(fake.notes(Number(vin!.id))).toEqual([])
        expect(fake.tags(Number(vin!.id))).toEqual([])

        // Deleted in Shop-Ware: recorded deleted, read back (the fake answers 404 for it).
        fake.deleteRepairOrder(Number(plate!.id))
        yield* Effect.promise(() => fake.settle())
        expect(yield* stateOf(plate!.id)).toBe("deleted")
        // A forged "deleted" for the invoiced one: read back from Shop-Ware, it stays closed.
        const forged = yield* Effect.promise(() =>
          fake.postWebhook(hooks[0]!.url, { event: "repair_order.deleted", object_type: "repair_order", id: vin!.id })
        )
        expect(forged.status).toBe(204)
        expect(yield* stateOf(vin!.id)).toBe("closed")
      }).pipe(quiet),
    60_000
  )
})
