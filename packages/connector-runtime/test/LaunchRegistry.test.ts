import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { LaunchRegistry } from "@shoplink/connector-runtime"
import { Effect, Exit, Layer, TestClock } from "effect"
import { createHash } from "node:crypto"
import { pgOn, postgres, scratchDatabase, sqlite, TestDatabaseUrl } from "./fixtures.js"

const launch = (expiresAt: number) => ({
  shopId: "shop_1",
  repairOrderId: "ro_1042",
  repairOrderNumber: "1042",
  repairOrderUrl: undefined,
  expiresAt
})

const failureTag = <A, E extends { readonly _tag: string }>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error._tag : "no failure"

const suite = (name: string, layer: () => Layer.Layer<LaunchRegistry.LaunchRegistry, unknown>) =>
  describe(name, () => {
    it.effect("resolves a registered key until it expires, then answers expired; unknown keys are unknown", () =>
      Effect.gen(function*() {
        const registry = yield* LaunchRegistry.LaunchRegistry
        const { key } = yield* registry.register(launch(60_000))
        expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/) // 24 bytes = 192 bits
        expect((yield* registry.resolve(key)).repairOrderNumber).toBe("1042")
        expect(failureTag(yield* Effect.exit(registry.resolve(LaunchRegistry.newKey())))).toBe("LaunchKeyUnknown")
        yield* TestClock.adjust("61 seconds")
        expect(failureTag(yield* Effect.exit(registry.resolve(key)))).toBe("LaunchKeyExpired")
      }).pipe(Effect.provide(layer())))

    it.effect("a launch's callback key is a separate secret: each key resolves only on its own side", () =>
      Effect.gen(function*() {
        const registry = yield* LaunchRegistry.LaunchRegistry
        const { callbackKey, key, launch: registered } = yield* registry.register(launch(60_000))
        expect(callbackKey).toMatch(/^[A-Za-z0-9_-]{32}$/)
        expect(callbackKey).not.toBe(key)
        const byCallback = yield* registry.resolveCallback(callbackKey)
        expect(byCallback).toEqual(yield* registry.resolve(key))
        expect(byCallback.id).toBe(registered.id)
        expect(registered.id).toMatch(/^[0-9a-f]{16}$/)
        expect(failureTag(yield* Effect.exit(registry.resolve(callbackKey)))).toBe("LaunchKeyUnknown")
        expect(failureTag(yield* Effect.exit(registry.resolveCallback(key)))).toBe("LaunchKeyUnknown")
        yield* TestClock.adjust("61 seconds")
        expect(failureTag(yield* Effect.exit(registry.resolveCallback(callbackKey)))).toBe("LaunchKeyExpired")
        yield* registry.purgeExpired(61_000)
        expect(failureTag(yield* Effect.exit(registry.resolveCallback(callbackKey)))).toBe("LaunchKeyUnknown")
      }).pipe(Effect.provide(layer())))

    it.effect("gives every launch its own key", () =>
      Effect.gen(function*() {
        const registry = yield* LaunchRegistry.LaunchRegistry
        const keys = yield* Effect.forEach(Array.from({ length: 50 }), () => registry.register(launch(60_000)))
        expect(new Set(keys.map((k) => k.key)).size).toBe(50)
      }).pipe(Effect.provide(layer())))
  })

suite("LaunchRegistry.layerMemory", () => LaunchRegistry.layerMemory)
suite("LaunchRegistry.layerSql", () => LaunchRegistry.layerSql.pipe(Layer.provide(sqlite(scratchDatabase()))))
suite("LaunchRegistry.layerSql on PostgreSQL", () => LaunchRegistry.layerSql.pipe(Layer.provide(postgres())))

describe("LaunchRegistry.layerSql storage", () => {
  it.effect("keeps keys across a restart but stores only their digest", () =>
    Effect.gen(function*() {
      const file = scratchDatabase()
      const open = () => LaunchRegistry.layerSql.pipe(Layer.provide(sqlite(file)))
      const { callbackKey, key } = yield* Effect.flatMap(
        LaunchRegistry.LaunchRegistry,
        (r) => r.register(launch(60_000))
      ).pipe(
        Effect.provide(open())
      )
      const resolved = yield* Effect.flatMap(LaunchRegistry.LaunchRegistry, (r) => r.resolve(key)).pipe(
        Effect.provide(open())
      )
      expect(resolved.shopId).toBe("shop_1")
      const byCallback = yield* Effect.flatMap(LaunchRegistry.LaunchRegistry, (r) => r.resolveCallback(callbackKey))
        .pipe(Effect.provide(open()))
      expect(byCallback).toEqual(resolved)
      const { readFileSync } = yield* Effect.promise(() => import("node:fs"))
      expect(readFileSync(file).includes(Buffer.from(key))).toBe(false)
      expect(readFileSync(file).includes(Buffer.from(callbackKey))).toBe(false)
    }))
})

describe("LaunchRegistry.layerSql resolves a known key from memory", () => {
  it.effect("a key resolved once needs no database round trip again; an unknown key still asks the database", () =>
    Effect.gen(function*() {
      const registry = yield* LaunchRegistry.LaunchRegistry
      const { key } = yield* registry.register(launch(60_000))
      expect((yield* registry.resolve(key)).repairOrderNumber).toBe("1042")
      // The table gone: what is remembered still resolves (expiry checked on the hit), the rest fails.
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DROP TABLE shoplink_launches`)
      expect((yield* registry.resolve(key)).repairOrderNumber).toBe("1042")
      expect(failureTag(yield* Effect.exit(registry.resolve(LaunchRegistry.newKey())))).toBe("LaunchRegistryError")
      yield* TestClock.adjust("61 seconds")
      expect(failureTag(yield* Effect.exit(registry.resolve(key)))).toBe("LaunchKeyExpired")
    }).pipe(Effect.provide(LaunchRegistry.layerSql.pipe(Layer.provideMerge(sqlite(scratchDatabase()))))))
})

describe("LaunchRegistry.purgeExpired", () => {
  for (
    const [name, layer] of [
      ["layerMemory", () => LaunchRegistry.layerMemory],
      ["layerSql", () => LaunchRegistry.layerSql.pipe(Layer.provide(sqlite(scratchDatabase())))],
      ["layerSql on PostgreSQL", () => LaunchRegistry.layerSql.pipe(Layer.provide(postgres()))]
    ] as const
  ) {
    it.effect(`${name}: deletes launches expired before the cutoff, keeps the others`, () =>
      Effect.gen(function*() {
        const registry = yield* LaunchRegistry.LaunchRegistry
        const long = yield* registry.register(launch(1_000))
        const recent = yield* registry.register(launch(50_000))
        const live = yield* registry.register(launch(200_000))
        yield* TestClock.adjust("100 seconds")
        expect(yield* registry.purgeExpired(10_000)).toBe(1)
        expect(yield* registry.purgeExpired(10_000)).toBe(0)
        expect(failureTag(yield* Effect.exit(registry.resolve(long.key)))).toBe("LaunchKeyUnknown")
        expect(failureTag(yield* Effect.exit(registry.resolve(recent.key)))).toBe("LaunchKeyExpired")
        expect((yield* registry.resolve(live.key)).expiresAt).toBe(200_000)
      }).pipe(Effect.provide(layer())))
  }
})

describe("LaunchRegistry.layerSql on PostgreSQL, shared by two processes", () => {
  const registryOn = (url: string) => LaunchRegistry.layerSql.pipe(Layer.provide(pgOn(url)))

  it.effect("a key registered through one client resolves through the other; only its digest is stored", () =>
    Effect.gen(function*() {
      const url = yield* TestDatabaseUrl
      // Both start at once: their CREATE TABLE IF NOT EXISTS must not collide.
      const [one, two] = yield* Effect.all([Layer.build(registryOn(url)), Layer.build(registryOn(url))], {
        concurrency: 2
      })
      const registered = yield* LaunchRegistry.LaunchRegistry.pipe(
        Effect.flatMap((r) => r.register(launch(60_000))),
        Effect.provide(one)
      )
      const resolved = yield* LaunchRegistry.LaunchRegistry.pipe(
        Effect.flatMap((r) => r.resolve(registered.key)),
        Effect.provide(two)
      )
      expect(resolved).toEqual(registered.launch)
      expect(resolved.createdAt).toBeTypeOf("number")

      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM shoplink_launches`
      expect(rows.map((row) => row["key_digest"])).toEqual([createHash("sha256").update(registered.key).digest("hex")])
      expect(JSON.stringify(rows)).not.toContain(registered.key)
    }).pipe(Effect.scoped, Effect.provide(postgres())))

  it.effect("purgeExpired deletes only expired launches, in chunks, whichever client registered them", () =>
    Effect.gen(function*() {
      const url = yield* TestDatabaseUrl
      const [one, two] = yield* Effect.all([Layer.build(registryOn(url)), Layer.build(registryOn(url))])
      const registerOn = (context: typeof one, expiresAt: number) =>
        LaunchRegistry.LaunchRegistry.pipe(
          Effect.flatMap((r) => r.register(launch(expiresAt))),
          Effect.provide(context)
        )
      // More than one chunk of 500 expired launches, from both clients.
      yield* Effect.forEach(
        Array.from({ length: 1_100 }, (_, i) => i),
        (i) => registerOn(i % 2 === 0 ? one : two, 1_000 + i),
        {
          concurrency: 4,
          discard: true
        }
      )
      const edge = yield* registerOn(one, 9_999)
      const atCutoff = yield* registerOn(two, 10_000)
      const live = yield* registerOn(two, 200_000)
      yield* TestClock.adjust("100 seconds")
      const purge = LaunchRegistry.LaunchRegistry.pipe(Effect.flatMap((r) => r.purgeExpired(10_000)))
      expect(yield* purge.pipe(Effect.provide(one))).toBe(1_101)
      expect(yield* purge.pipe(Effect.provide(two))).toBe(0)
      const resolveOn = (context: typeof one, key: string) =>
        LaunchRegistry.LaunchRegistry.pipe(Effect.flatMap((r) => r.resolve(key)), Effect.provide(context), Effect.exit)
      expect(failureTag(yield* resolveOn(two, edge.key))).toBe("LaunchKeyUnknown")
      expect(failureTag(yield* resolveOn(two, atCutoff.key))).toBe("LaunchKeyExpired")
      expect(failureTag(yield* resolveOn(one, live.key))).toBe("no failure")
      const sql = yield* SqlClient.SqlClient
      expect(yield* sql`SELECT key_digest FROM shoplink_launches`).toHaveLength(2)
    }).pipe(Effect.scoped, Effect.provide(postgres())))
})
