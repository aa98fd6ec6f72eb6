import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { CredentialStore, SecretBox, ShopStore } from "@shoplink/connector-runtime"
import { Effect, Either, Exit, Layer, Redacted } from "effect"
import { readFileSync } from "node:fs"
import { pgOn, postgres, scratchDatabase, sqlite, TestDatabaseUrl } from "./fixtures.js"

const box = SecretBox.layer(Either.getOrThrow(SecretBox.parseKeyring(SecretBox.generateKey("k1"))))
const sqlStore = (file: string) => CredentialStore.layerSql.pipe(Layer.provide(sqlite(file)), Layer.provide(box))
const pgStore = (url: string) => CredentialStore.layerSql.pipe(Layer.provide(pgOn(url)), Layer.provide(box))

const credentials: CredentialStore.CustomerCredentials = {
  accountNo: "100200",
  username: "parts@mainstreet-auto.example",
  country: "US",
  apiToken: Redacted.make("sbx-token-us-100200")
}

const roundTrip = Effect.gen(function*() {
  const store = yield* CredentialStore.CredentialStore
  const missing = yield* Effect.exit(store.get("shop_1"))
  expect(Exit.isFailure(missing) && String(missing.cause)).toContain(
    "no distributor credentials stored for shop shop_1"
  )
  yield* store.put("shop_1", credentials)
  const read = yield* store.get("shop_1")
  expect(read.accountNo).toBe("100200")
  expect(read.country).toBe("US")
  expect(Redacted.value(read.apiToken)).toBe("sbx-token-us-100200")
  expect(String(read.apiToken)).not.toContain("sbx-token")
  yield* store.put("shop_1", { ...credentials, accountNo: "100201" })
  expect((yield* store.get("shop_1")).accountNo).toBe("100201")
  yield* store.markRevoked("shop_1", "401 UNAUTHORIZED at session creation")
  const revoked = yield* Effect.flip(store.get("shop_1"))
  expect(revoked._tag).toBe("CredentialsRevoked")
  expect(revoked.message).toContain("onboard the shop again")
  // Onboarding again (a new token) clears the revocation.
  yield* store.put("shop_1", { ...credentials, apiToken: Redacted.make("new-token") })
  expect(Redacted.value((yield* store.get("shop_1")).apiToken)).toBe("new-token")
  yield* store.remove("shop_1")
  expect(Exit.isFailure(yield* Effect.exit(store.get("shop_1")))).toBe(true)
})

describe("CredentialStore", () => {
  it.effect("memory: put, get, overwrite, remove", () => roundTrip.pipe(Effect.provide(CredentialStore.layerMemory())))

  it.effect("sqlite: put, get, overwrite, remove", () => roundTrip.pipe(Effect.provide(sqlStore(scratchDatabase()))))

  it.effect("postgres: put, get, overwrite, remove", () =>
    roundTrip.pipe(Effect.provide(CredentialStore.layerSql.pipe(Layer.provide(postgres()), Layer.provide(box)))))

  it.effect("through the ShopStore: put keeps the shop's name and SMS secrets", () =>
    Effect.gen(function*() {
      const shops = yield* ShopStore.ShopStore
      yield* shops.add({
        id: "shop_1",
        name: "Main Street Auto",
        distributor: credentials,
        sms: { apiKey: Redacted.make("k") }
      })
      const store = yield* CredentialStore.CredentialStore
      yield* store.put("shop_1", { ...credentials, accountNo: "100201" })
      expect(yield* shops.get("shop_1")).toMatchObject({
        name: "Main Street Auto",
        smsSecrets: ["apiKey"],
        distributor: { accountNo: "100201" }
      })
    }).pipe(Effect.provide(CredentialStore.layerShopStore.pipe(Layer.provideMerge(ShopStore.layerMemory)))))

  it.effect("sqlite: credentials survive reopening the database", () =>
    Effect.gen(function*() {
      const file = scratchDatabase()
      const layer = () => sqlStore(file)
      yield* Effect.flatMap(CredentialStore.CredentialStore, (s) => s.put("shop_9", credentials)).pipe(
        Effect.provide(layer())
      )
      const read = yield* Effect.flatMap(CredentialStore.CredentialStore, (s) => s.get("shop_9")).pipe(
        Effect.provide(layer())
      )
      expect(read.username).toBe("parts@mainstreet-auto.example")
      expect(readFileSync(file, "latin1")).not.toContain("sbx-token-us-100200")
    }))
})

describe("CredentialStore on PostgreSQL", () => {
  it.effect("credentials put through one client are read through another (or after a restart), sealed at rest", () =>
    Effect.gen(function*() {
      const url = yield* TestDatabaseUrl
      yield* Effect.flatMap(CredentialStore.CredentialStore, (s) => s.put("shop_9", credentials)).pipe(
        Effect.provide(pgStore(url))
      )
      const read = yield* Effect.flatMap(CredentialStore.CredentialStore, (s) => s.get("shop_9")).pipe(
        Effect.provide(pgStore(url))
      )
      expect(read.username).toBe("parts@mainstreet-auto.example")
      expect(Redacted.value(read.apiToken)).toBe("sbx-token-us-100200")
      const sql = yield* SqlClient.SqlClient
      const secrets = yield* sql`SELECT * FROM shoplink_shop_secrets`
      expect(secrets).toHaveLength(1)
      expect(JSON.stringify(secrets)).not.toContain("sbx-token")
    }).pipe(Effect.provide(postgres())))
})
