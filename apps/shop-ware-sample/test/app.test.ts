// The sample on its embedded default (sandbox + fake Shop-Ware): the demo shop's open repair orders
// are listed, the one with a VIN launches the catalog, and the one with only a plate (Shop-Ware
// keeps no plate state) is refused in one line before any distributor call.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Logger, LogLevel } from "effect"
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
        expect(refused.left._tag).toBe("ShopSystemError")
        expect(refused.left.message).not.toContain("\n")
        expect(refused.left.message).toContain("VIN")
      }
    }).pipe(quiet), 30_000)
})
