// Vendor API keys (hashed, constant-time). Signed links: LaunchLinks.test.ts.
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { ApiKeys, Storage } from "@shoplink/connector-runtime"
import { Effect, Layer, Redacted } from "effect"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { pgOn, postgres, scratchDatabase, TestDatabaseUrl } from "./fixtures.js"

const keysContract = (name: string, layer: () => Layer.Layer<ApiKeys.ApiKeys, unknown>) =>
  it.effect(`${name}: create, verify, refuse, revoke`, () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys.ApiKeys
      const { apiKey, key } = yield* keys.create("sms-backend")
      const secret = Redacted.value(key)
      expect(secret).toMatch(/^slk_[a-z0-9]{10}_[A-Za-z0-9_-]{43}$/)
      expect(String(key)).not.toContain(secret)
      expect(yield* keys.verify(secret)).toEqual(apiKey)
      expect(yield* keys.verify(`Bearer ${secret}`)).toEqual(apiKey)
      const refused = (presented: string | undefined) =>
        Effect.map(Effect.flip(keys.verify(presented)), (e) => e.message)
      expect(yield* refused(undefined)).toBe("API key refused: missing")
      expect(yield* refused("letmein")).toBe("API key refused: malformed")
      // Right id, wrong secret; and a well-formed key nobody created.
      expect(yield* refused(secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A"))).toBe(
        "API key refused: unknown key"
      )
      expect(yield* refused(`slk_0000000000_${"A".repeat(43)}`)).toBe("API key refused: unknown key")
      yield* keys.revoke(apiKey.id)
      expect(yield* refused(secret)).toBe("API key refused: revoked")
      expect((yield* keys.list())[0]?.revokedAt).toBeTypeOf("number")
      expect((yield* Effect.flip(keys.revoke("nope")))._tag).toBe("ApiKeyNotFound")
    }).pipe(Effect.provide(layer()), Effect.orDie))

describe("ApiKeys", () => {
  keysContract("memory", () => ApiKeys.layerMemory)
  keysContract("sqlite", () => ApiKeys.layerSql.pipe(Layer.provide(Storage.sqlite(scratchDatabase()))))
  keysContract("postgres", () => ApiKeys.layerSql.pipe(Layer.provide(postgres())))

  it.effect("postgres: a key created through one client verifies through another; only its digest is stored", () =>
    Effect.gen(function*() {
      const url = yield* TestDatabaseUrl
      const open = () => ApiKeys.layerSql.pipe(Layer.provide(pgOn(url)))
      // Two processes starting at once on an empty database.
      const [one, two] = yield* Effect.all([Layer.build(open()), Layer.build(open())], { concurrency: 2 })
      const on = <A, E>(context: typeof one, f: (keys: ApiKeys.Operations) => Effect.Effect<A, E>) =>
        Effect.flatMap(ApiKeys.ApiKeys, f).pipe(Effect.provide(context))

      const { apiKey, key } = yield* on(one, (keys) => keys.create("sms-backend"))
      expect(yield* on(two, (keys) => keys.verify(Redacted.value(key)))).toEqual(apiKey)
      expect(yield* on(two, (keys) => keys.list())).toEqual([apiKey])

      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<
        { readonly key_id: string; readonly name: string; readonly digest: string }
      >`SELECT key_id, name, digest FROM shoplink_api_keys`
      expect(rows).toEqual([{
        key_id: apiKey.id,
        name: "sms-backend",
        digest: createHash("sha256").update(Redacted.value(key)).digest("hex")
      }])
      expect(JSON.stringify(rows)).not.toContain(Redacted.value(key).slice("slk_".length + 10 + 1))

      // Revoked through one: refused by the other on its next request.
      yield* on(two, (keys) => keys.revoke(apiKey.id))
      expect((yield* on(one, (keys) => Effect.flip(keys.verify(Redacted.value(key))))).message).toBe(
        "API key refused: revoked"
      )
      expect((yield* on(one, (keys) => keys.list()))[0]?.revokedAt).toBeTypeOf("number")
    }).pipe(Effect.scoped, Effect.provide(postgres()), Effect.orDie))

  it.effect("sqlite stores only a digest of the key", () =>
    Effect.gen(function*() {
      const file = scratchDatabase()
      const { key } = yield* Effect.flatMap(ApiKeys.ApiKeys, (k) => k.create("sms")).pipe(
        Effect.provide(ApiKeys.layerSql.pipe(Layer.provide(Storage.sqlite(file)))),
        Effect.orDie
      )
      const secretPart = Redacted.value(key).slice("slk_".length + 10 + 1)
      const bytes = [file, `${file}-wal`].map((f) => {
        try {
          return readFileSync(f, "latin1")
        } catch {
          return ""
        }
      }).join("")
      expect(bytes).toContain("shoplink_api_keys")
      expect(bytes).not.toContain(secretPart)
    }))
})
