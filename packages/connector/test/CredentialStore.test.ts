import { describe, expect, it } from "@effect/vitest"
import { CredentialStore } from "@shoplink/connector"
import { Effect, Exit, Layer, Redacted } from "effect"
import { scratchDatabase, sqlite } from "./fixtures.js"

const credentials: CredentialStore.CustomerCredentials = {
  accountNo: "100200",
  username: "parts@mainstreet-auto.example",
  country: "US",
  apiToken: Redacted.make("sbx-token-us-100200")
}

const roundTrip = Effect.gen(function*() {
  const store = yield* CredentialStore.CredentialStore
  const missing = yield* Effect.exit(store.get("shop_1"))
  expect(Exit.isFailure(missing) && String(missing.cause)).toContain("no distributor credentials stored for shop shop_1")
  yield* store.put("shop_1", credentials)
  const read = yield* store.get("shop_1")
  expect(read.accountNo).toBe("100200")
  expect(read.country).toBe("US")
  expect(Redacted.value(read.apiToken)).toBe("sbx-token-us-100200")
  expect(String(read.apiToken)).not.toContain("sbx-token")
  yield* store.put("shop_1", { ...credentials, accountNo: "100201" })
  expect((yield* store.get("shop_1")).accountNo).toBe("100201")
  yield* store.remove("shop_1")
  expect(Exit.isFailure(yield* Effect.exit(store.get("shop_1")))).toBe(true)
})

describe("CredentialStore", () => {
  it.effect("memory: put, get, overwrite, remove", () => roundTrip.pipe(Effect.provide(CredentialStore.layerMemory())))

  it.effect("sqlite: put, get, overwrite, remove", () =>
    roundTrip.pipe(Effect.provide(CredentialStore.layerSql.pipe(Layer.provide(sqlite(scratchDatabase()))))))

  it.effect("sqlite: credentials survive reopening the database", () =>
    Effect.gen(function*() {
      const file = scratchDatabase()
      const layer = () => CredentialStore.layerSql.pipe(Layer.provide(sqlite(file)))
      yield* Effect.flatMap(CredentialStore.CredentialStore, (s) => s.put("shop_9", credentials)).pipe(Effect.provide(layer()))
      const read = yield* Effect.flatMap(CredentialStore.CredentialStore, (s) => s.get("shop_9")).pipe(Effect.provide(layer()))
      expect(read.username).toBe("parts@mainstreet-auto.example")
    }))
})
