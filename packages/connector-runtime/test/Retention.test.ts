// Retention on the Effect Clock (TestClock): what is purged and when, on the real SQLite stores,
// and the runtime's retention fiber with its options.
import type { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@shoplink/http-node"
import { ShopSystem } from "@shoplink/connector"
import {
  ConnectorRuntime,
  LaunchRegistry,
  RepairOrderStates,
  Retention,
  WebhookInbox
} from "@shoplink/connector-runtime"
import { Effect, Exit, Layer, Logger, LogLevel, Option, Redacted, TestClock } from "effect"
import { scratchDatabase, sqlite } from "./fixtures.js"

const HOUR = 3_600_000
const DAY = 24 * HOUR

const delivery = (name: string, repairOrderId = `ro_${name}`): WebhookInbox.Delivery => ({
  kind: "order",
  contentKey: `order:${name}:3`,
  shopId: "shop_1",
  repairOrderId,
  body: JSON.stringify({ referenceID: repairOrderId, name })
})

const launch = (expiresAt: number) => ({
  shopId: "shop_1",
  repairOrderId: "ro_1",
  repairOrderNumber: "1042",
  repairOrderUrl: undefined,
  expiresAt
})

const failureTag = <A, E extends { readonly _tag: string }>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error._tag : "no failure"

describe("Retention.run", () => {
  it.scoped("purges on the Effect Clock: old applied bodies, then old applied entries and long-expired launch keys; never pending or dead entries", () =>
    Effect.gen(function*() {
      const stores = Layer.mergeAll(WebhookInbox.layerSql, LaunchRegistry.layerSql).pipe(
        Layer.provide(sqlite(scratchDatabase()))
      )
      const context = yield* Layer.build(stores)
      const inbox = yield* Effect.provide(WebhookInbox.WebhookInbox, context)
      const registry = yield* Effect.provide(LaunchRegistry.LaunchRegistry, context)

      // Day 0: one entry applied, one dead, one pending; a launch that expires in an hour, one in 30 days.
      const applied = (yield* inbox.receive(delivery("applied"))).entry
      const dead = (yield* inbox.receive(delivery("dead"))).entry
      const pending = (yield* inbox.receive(delivery("pending"))).entry
      yield* inbox.markApplied(applied.id)
      yield* inbox.markFailed(dead.id, { error: "repair order closed", retryIn: undefined })
      yield* inbox.markFailed(pending.id, { error: "SMS answered 503", retryIn: 365 * DAY })
      const shortLaunch = yield* registry.register(launch(HOUR))
      const longLaunch = yield* registry.register(launch(30 * DAY))

      yield* Effect.forkScoped(
        Retention.run({ interval: "1 day", appliedBodies: "30 days", appliedEntries: "90 days", launchKeys: "7 days" })
          .pipe(
            Effect.provide(context),
            Logger.withMinimumLogLevel(LogLevel.None)
          )
      )
      const byId = () => Effect.map(inbox.list(), (entries) => new Map(entries.map((e) => [e.id, e])))

      // Day 29: nothing is old enough yet.
      yield* TestClock.adjust(`${29 * DAY} millis`)
      expect((yield* byId()).get(applied.id)?.body).toBe(applied.body)
      expect(failureTag(yield* Effect.exit(registry.resolve(shortLaunch.key)))).toBe("LaunchKeyUnknown")

      // Day 31: the applied body is gone, the entry stays; the launch that expired 1 day ago answers 410.
      yield* TestClock.adjust(`${2 * DAY} millis`)
      let entries = yield* byId()
      expect(entries.get(applied.id)).toMatchObject({ status: "applied", body: "" })
      expect(entries.get(dead.id)).toMatchObject({ status: "dead", body: dead.body })
      expect(entries.get(pending.id)).toMatchObject({ status: "pending", body: pending.body })
      expect(failureTag(yield* Effect.exit(registry.resolve(longLaunch.key)))).toBe("LaunchKeyExpired")

      // Day 38: 8 days after it expired, the second launch key is gone too (404 from then on).
      yield* TestClock.adjust(`${7 * DAY} millis`)
      expect(failureTag(yield* Effect.exit(registry.resolve(longLaunch.key)))).toBe("LaunchKeyUnknown")

      // Day 91: the applied entry is deleted; the dead letter and the pending entry are whole.
      yield* TestClock.adjust(`${53 * DAY} millis`)
      entries = yield* byId()
      expect(entries.has(applied.id)).toBe(false)
      expect(entries.get(dead.id)).toMatchObject({ status: "dead", body: dead.body, lastError: "repair order closed" })
      expect(entries.get(pending.id)).toMatchObject({ status: "pending", body: pending.body })
    }))

  it.effect("purge on its own says what it did", () =>
    Effect.gen(function*() {
      const inbox = yield* WebhookInbox.WebhookInbox
      const registry = yield* LaunchRegistry.LaunchRegistry
      const { entry } = yield* inbox.receive(delivery("a"))
      yield* inbox.markApplied(entry.id)
      yield* registry.register(launch(HOUR))
      yield* TestClock.adjust(`${10 * DAY} millis`)
      expect(yield* Retention.purge({ appliedBodies: "1 day", appliedEntries: "30 days", launchKeys: "1 day" }))
        .toEqual({
          bodiesCleared: 1,
          entriesDeleted: 0,
          launchKeysDeleted: 1,
          repairOrderStatesDeleted: 0
        })
    }).pipe(Effect.provide(Layer.merge(WebhookInbox.layerMemory, LaunchRegistry.layerMemory))))

  it.effect("repair-order states go after `repairOrderStates` since their last reading, on SQLite", () =>
    Effect.gen(function*() {
      const states = yield* RepairOrderStates.RepairOrderStates
      const at = (days: number) => days * DAY
      yield* states.record({
        shopId: "shop_1",
        repairOrderId: "ro_old",
        state: "closed",
        action: "updated",
        checkedAt: 0
      })
      yield* TestClock.adjust(`${50 * DAY} millis`)
      yield* states.record({
        shopId: "shop_1",
        repairOrderId: "ro_new",
        state: "deleted",
        action: "deleted",
        checkedAt: at(50)
      })
      // An older reading of ro_new (delivered late) does not replace the newer one.
      yield* states.record({
        shopId: "shop_1",
        repairOrderId: "ro_new",
        state: "open",
        action: "updated",
        checkedAt: 1
      })
      yield* TestClock.adjust(`${41 * DAY} millis`)
      const purged = yield* Retention.purge({ repairOrderStates: "90 days" })
      expect(purged.repairOrderStatesDeleted).toBe(1)
      expect(yield* states.get({ shopId: "shop_1", repairOrderId: "ro_old" })).toEqual(Option.none())
      expect(Option.map(yield* states.get({ shopId: "shop_1", repairOrderId: "ro_new" }), (r) => r.state)).toEqual(
        Option.some("deleted")
      )
    }).pipe(
      Effect.provide(
        Layer.mergeAll(WebhookInbox.layerSql, LaunchRegistry.layerSql, RepairOrderStates.layerSql).pipe(
          Layer.provide(sqlite(scratchDatabase()))
        )
      ),
      Effect.orDie
    ))
})

describe("ConnectorRuntime retention", () => {
  const runtime = (retention: ConnectorRuntime.Options["retention"], client: Layer.Layer<HttpClient.HttpClient>) =>
    ConnectorRuntime.make(
      Layer.succeed(ShopSystem.ShopSystem, {
        capabilities: new Set(ShopSystem.ALL_CAPABILITIES),
        loadRepairOrder: ({ repairOrderId }) => Effect.succeed({ id: repairOrderId, number: "1042", vehicle: {} }),
        applyQuote: ({ lines }) => Effect.succeed({ added: lines.length, alreadyPresent: 0 }),
        applyOrder: ({ lines }) => Effect.succeed({ added: lines.length, alreadyPresent: 0 })
      }),
      {
        publicBaseUrl: "http://127.0.0.1:1",
        smsVendorName: "Shoplink Tests",
        punchout: { baseUrl: "http://127.0.0.1:1", vendorApiKey: Redacted.make("vendor-key") },
        storage: "memory",
        worker: false,
        ...(retention === undefined ? {} : { retention })
      }
    ).pipe(Effect.provide(client), Logger.withMinimumLogLevel(LogLevel.None))

  it.scoped("runs the retention fiber with the runtime's retention options; `false` keeps everything", () =>
    Effect.gen(function*() {
      // The HttpClient lives as long as the runtimes: built in the test's scope.
      const client = Layer.succeedContext(yield* Layer.build(UndiciHttpClient.layer))
      const purging = yield* runtime({ interval: "1 hour", appliedBodies: "1 day", appliedEntries: "2 days" }, client)
      const keeping = yield* runtime(false, client)
      const ids = yield* Effect.forEach([purging, keeping], (r) =>
        Effect.gen(function*() {
          const { entry } = yield* r.inbox.receive(delivery("a"))
          yield* r.inbox.markApplied(entry.id)
          return entry.id
        }))
      yield* TestClock.adjust(`${DAY + 2 * HOUR} millis`)
      expect((yield* purging.inbox.get(ids[0]!)).body).toBe("")
      yield* TestClock.adjust(`${DAY} millis`)
      expect(yield* purging.inbox.list()).toEqual([])
      expect((yield* keeping.inbox.get(ids[1]!)).body).toContain("referenceID")
    }))
})
