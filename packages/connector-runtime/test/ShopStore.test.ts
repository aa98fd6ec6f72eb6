// Shops and their secrets: sealed at rest, rotated, validated before anything is written.
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { ApiKeys, LaunchRegistry, SecretBox, ShopStore, Storage } from "@shoplink/connector-runtime"
import { Config, ConfigProvider, Effect, Either, Exit, Layer, Redacted } from "effect"
import { readFileSync, statSync } from "node:fs"
import { pgOn, postgres, scratchDatabase, TestDatabaseUrl } from "./fixtures.js"

const TOKEN = "sbx-token-us-100200-very-secret"
const SMS_KEY = "shopmonkey-key-7f3a9c-very-secret"

const input = (id = "shop_1", token = TOKEN): ShopStore.ShopInput => ({
  id,
  name: "Main Street Auto",
  distributor: {
    accountNo: "100200",
    username: "parts@mainstreet.example",
    country: "US",
    apiToken: Redacted.make(token)
  },
  sms: { apiKey: Redacted.make(SMS_KEY) }
})

const ring = (...keys: Array<string>) => Either.getOrThrow(SecretBox.parseKeyring(keys.join(",")))
const k1 = SecretBox.generateKey("k1")
const k2 = SecretBox.generateKey("k2")

const sqlStore = (file: string, keys: SecretBox.Keyring) =>
  ShopStore.layerSql.pipe(Layer.provideMerge(Storage.sqlite(file)), Layer.provide(SecretBox.layer(keys)))

const storeOn = (database: Layer.Layer<SqlClient.SqlClient>, keys: SecretBox.Keyring) =>
  ShopStore.layerSql.pipe(Layer.provide(database), Layer.provide(SecretBox.layer(keys)))

const withStore = <A, E, R>(
  layer: Layer.Layer<ShopStore.ShopStore, unknown, R>,
  f: (store: ShopStore.Operations) => Effect.Effect<A, E>
) => Effect.flatMap(ShopStore.ShopStore, f).pipe(Effect.provide(layer), Effect.orDie)

type Open = () => Layer.Layer<SqlClient.SqlClient>

/**
 * Each SQL backend: `run(f)` makes a fresh database for one test and hands `f` a way to open it,
 * as often as it likes (a restart, or another process on the same database).
 */
const backends: ReadonlyArray<
  { readonly name: string; readonly run: <A, E>(f: (open: Open) => Effect.Effect<A, E>) => Effect.Effect<A, E> }
> = [
  {
    name: "sqlite",
    run: (f) =>
      Effect.suspend(() => {
        const file = scratchDatabase()
        return f(() => Storage.sqlite(file))
      })
  },
  {
    name: "postgres",
    run: (f) => Effect.flatMap(TestDatabaseUrl, (url) => f(() => pgOn(url))).pipe(Effect.provide(postgres()))
  }
]

/** Every value of every text column of every shoplink_* table (PostgreSQL), and how many columns. */
const pgTextColumns = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = yield* sql<{ readonly table_name: string; readonly column_name: string }>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name LIKE 'shoplink%' AND data_type IN ('text', 'character varying')`
  const values = yield* Effect.forEach(
    columns,
    (c) => sql<{ readonly v: string | null }>`SELECT ${sql(c.column_name)} AS v FROM ${sql(c.table_name)}`
  )
  return { columns: columns.length, text: values.flat().map((row) => row.v ?? "").join("\n") }
}).pipe(Effect.orDie)

/** Every byte SQLite has written for the database, checkpointed or not. */
const rawBytes = (file: string) =>
  [file, `${file}-wal`].map((f) => {
    try {
      return readFileSync(f).toString("latin1")
    } catch {
      return ""
    }
  }).join("")

describe("SecretBox", () => {
  it.effect("seals and opens; a value moved to another record or altered does not open", () =>
    Effect.gen(function*() {
      const box = SecretBox.make(ring(k1))
      const sealed = yield* box.seal(Redacted.make(TOKEN), "shop_1/distributor.apiToken")
      expect(sealed.keyId).toBe("k1")
      expect(sealed.ciphertext).not.toContain(TOKEN)
      expect(Redacted.value(yield* box.open(sealed, "shop_1/distributor.apiToken"))).toBe(TOKEN)
      const moved = yield* Effect.flip(box.open(sealed, "shop_2/distributor.apiToken"))
      expect(moved.message).toContain("authentication failed")
      const altered = {
        ...sealed,
        ciphertext: sealed.ciphertext.replace(/\.(.)/, (_, c) => `.${c === "A" ? "B" : "A"}`)
      }
      expect((yield* Effect.flip(box.open(altered, "shop_1/distributor.apiToken")))._tag).toBe("SecretUnreadable")
      const unknownKey = yield* Effect.flip(SecretBox.make(ring(k2)).open(sealed, "shop_1/distributor.apiToken"))
      expect(unknownKey.message).toContain("no key k1 in the keyring")
    }))

  it("refuses malformed keyrings with a message that quotes no key", () => {
    for (
      const [text, problem] of [
        ["", "no key given"],
        ["k1:c2hvcnQ=", "key k1 is 5 bytes"],
        ["nokey", "entry 1 must read id:base64key"],
        [`${k1},${k1}`, "key id k1 appears twice"]
      ] as const
    ) {
      const parsed = SecretBox.parseKeyring(text)
      expect(Either.isLeft(parsed) && parsed.left.message).toContain(problem)
      if (Either.isLeft(parsed)) expect(parsed.left.message).not.toContain("c2hvcnQ")
    }
  })

  it.effect("layerConfig: a missing setting fails the layer naming it", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(Layer.build(SecretBox.layerConfig(ConfigProviderKeys)).pipe(Effect.scoped))
      expect(Exit.isFailure(exit) && String(exit.cause)).toContain("SHOPLINK_SECRET_KEYS")
      const bad = yield* Effect.exit(
        Layer.build(SecretBox.layerConfig(ConfigProviderKeys)).pipe(
          Effect.scoped,
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["SHOPLINK_SECRET_KEYS", "k1:c2hvcnQ="]])))
        )
      )
      expect(Exit.isFailure(bad) && String(bad.cause)).toContain("AES-256 needs 32")
      expect(Exit.isFailure(bad) && String(bad.cause)).not.toContain("c2hvcnQ")
    }).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map()))))
})

const ConfigProviderKeys = { keys: Config.redacted("SHOPLINK_SECRET_KEYS") }

describe("ShopStore", () => {
  it("validateAll names every wrong field in form order; validate the first of them", () => {
    const input = {
      id: "shop 1",
      name: " ",
      sms: { "bad name": Redacted.make("x"), apiKey: Redacted.make("") },
      distributor: { accountNo: "", username: "u", country: "MX" as never, apiToken: Redacted.make("t") }
    }
    expect(ShopStore.validateAll(input).map((problem) => problem.field)).toEqual([
      "id",
      "name",
      "distributor.accountNo",
      "distributor.country",
      "sms.bad name",
      "sms.apiKey"
    ])
    expect(ShopStore.validate(input)?.field).toBe("id")
    expect(
      ShopStore.validateAll({
        ...input,
        id: "shop_1",
        name: "Main",
        sms: {},
        distributor: { ...input.distributor, accountNo: "1", country: "US" }
      })
    ).toEqual([])
  })

  const contract = (name: string, layer: () => Layer.Layer<ShopStore.ShopStore, unknown>) =>
    it.effect(`${name}: add, get, list, credentials, revoke, replace, remove`, () =>
      withStore(layer(), (store) =>
        Effect.gen(function*() {
          const shop = yield* store.add(input())
          expect(shop).toMatchObject({
            id: "shop_1",
            status: "active",
            smsSecrets: ["apiKey"],
            distributor: { accountNo: "100200" }
          })
          expect(JSON.stringify(shop)).not.toContain(TOKEN)
          expect((yield* Effect.flip(store.add(input())))._tag).toBe("ShopExists")
          yield* store.add(input("shop_2", "other-token"))
          expect((yield* store.list()).map((s) => s.id)).toEqual(["shop_1", "shop_2"])
          expect(Redacted.value((yield* store.customerCredentials("shop_1")).apiToken)).toBe(TOKEN)
          expect(Redacted.value((yield* store.customerCredentials("shop_2")).apiToken)).toBe("other-token")
          expect(Redacted.value((yield* store.smsCredentials("shop_1"))["apiKey"]!)).toBe(SMS_KEY)

          yield* store.markRevoked("shop_1", "API token refused (401 UNAUTHORIZED)")
          expect(yield* store.get("shop_1")).toMatchObject({
            status: "revoked",
            revoked: { reason: "API token refused (401 UNAUTHORIZED)" }
          })
          const revoked = yield* Effect.flip(store.customerCredentials("shop_1"))
          expect(revoked._tag).toBe("ShopRevoked")
          yield* store.add(input("shop_1", "new-token"), { replace: true })
          expect(Redacted.value((yield* store.customerCredentials("shop_1")).apiToken)).toBe("new-token")
          // Replacing keeps when the shop was first onboarded.
          expect((yield* store.get("shop_1")).createdAt).toBe(shop.createdAt)

          yield* store.remove("shop_2")
          expect((yield* Effect.flip(store.get("shop_2")))._tag).toBe("ShopNotFound")
          expect((yield* Effect.flip(store.remove("shop_2")))._tag).toBe("ShopNotFound")
        })))

  contract("memory", () => ShopStore.layerMemory)
  contract("sqlite", () => sqlStore(scratchDatabase(), ring(k1)))
  contract("postgres", () => storeOn(postgres(), ring(k1)))

  for (const { name, run } of backends) {
    it.effect(`${name}: bad onboarding input: one-line typed error, nothing stored`, () =>
      run((open) =>
        withStore(storeOn(open(), ring(k1)), (store) =>
          Effect.gen(function*() {
            const cases: Array<[ShopStore.ShopInput, string]> = [
              [input("shop_1", ""), "distributor.apiToken must not be empty"],
              [input("shop_1", "   "), "distributor.apiToken must not be empty"],
              [{ ...input(), id: "bad id!" }, "id must be 1 to 64"],
              [{ ...input(), sms: { apiKey: Redacted.make("") } }, "sms.apiKey must not be empty"],
              [
                { ...input(), distributor: { ...input().distributor, country: "MX" as never } },
                "distributor.country must be one of"
              ]
            ]
            for (const [bad, message] of cases) {
              const error = yield* Effect.flip(store.add(bad))
              expect(error._tag).toBe("InvalidShop")
              expect(error.message).toContain(message)
              expect(error.message.split("\n")).toHaveLength(1)
            }
            expect(yield* store.list()).toEqual([])
          }))
      ))

    it.effect(`${name}: rotation: old values open while both keys are in the ring, rotate re-seals all, then the old key can go`, () =>
      run((open) =>
        Effect.gen(function*() {
          yield* withStore(storeOn(open(), ring(k1)), (store) =>
            Effect.zipRight(store.add(input()), store.add(input("shop_2", "t2"))))
          // The new key first; the old one still opens what it sealed.
          const report = yield* withStore(storeOn(open(), ring(k2, k1)), (store) =>
            Effect.gen(function*() {
              expect(Redacted.value((yield* store.customerCredentials("shop_1")).apiToken)).toBe(TOKEN)
              yield* store.add(input("shop_3", "t3"))
              return yield* store.rotate()
            }))
          expect(report).toEqual({ resealed: 4, keyUsage: { k2: 6 } })
          // Rotation done: the ring without k1 opens everything.
          const opened = yield* withStore(storeOn(open(), ring(k2)), (store) =>
            Effect.all([store.customerCredentials("shop_1"), store.smsCredentials("shop_2")]))
          expect(Redacted.value(opened[0].apiToken)).toBe(TOKEN)
          expect(Redacted.value(opened[1]["apiKey"]!)).toBe(SMS_KEY)
          expect(
            yield* withStore(storeOn(open(), ring(k2)), (store) =>
              store.rotate())
          ).toEqual({ resealed: 0, keyUsage: { k2: 6 } })
        })
      ))

    it.effect(`${name}: before rotation, a ring without the old key says which key is missing`, () =>
      run((open) =>
        Effect.gen(function*() {
          yield* withStore(storeOn(open(), ring(k1)), (store) => store.add(input()))
          const error = yield* withStore(storeOn(open(), ring(k2)), (store) =>
            Effect.flip(store.customerCredentials("shop_1")))
          expect(error.message).toContain("no key k1 in the keyring")
        })
      ))
  }

  it.effect("postgres: no text column of any shoplink table holds a token, SMS key, API key or launch key", () =>
    Effect.gen(function*() {
      yield* withStore(
        ShopStore.layerSql.pipe(Layer.provide(SecretBox.layer(ring(k1)))),
        (store) => Effect.zipRight(store.add(input()), store.add(input("shop_2", "other-token")))
      )
      const { key: apiKey } = yield* Effect.flatMap(ApiKeys.ApiKeys, (keys) => keys.create("sms-backend")).pipe(
        Effect.provide(ApiKeys.layerSql),
        Effect.orDie
      )
      const { key: launchKey } = yield* Effect.flatMap(
        LaunchRegistry.LaunchRegistry,
        (launches) =>
          launches.register({
            shopId: "shop_1",
            repairOrderId: "ro_1",
            repairOrderNumber: "1",
            repairOrderUrl: undefined,
            expiresAt: 60_000
          })
      ).pipe(
        Effect.provide(LaunchRegistry.layerSql),
        Effect.orDie
      )
      const { columns, text } = yield* pgTextColumns
      expect(columns).toBeGreaterThanOrEqual(17) // shops, shop secrets, API keys, launches
      expect(text).toContain("shop_1")
      expect(text).toContain("distributor.apiToken") // the secrets' rows are there, sealed
      for (
        const secret of [TOKEN, SMS_KEY, "other-token", Redacted.value(apiKey).slice("slk_".length + 10 + 1), launchKey]
      ) {
        expect(text).not.toContain(secret)
      }
    }).pipe(Effect.provide(postgres())))

  it.effect("postgres: a shop onboarded through one client is read through another; concurrent adds are decided once", () =>
    Effect.gen(function*() {
      const url = yield* TestDatabaseUrl
      // Two processes starting at once on an empty database.
      const [one, two] = yield* Effect.all([
        Layer.build(storeOn(pgOn(url), ring(k1))),
        Layer.build(storeOn(pgOn(url), ring(k1)))
      ], {
        concurrency: 2
      })
      const on = <A, E>(context: typeof one, f: (store: ShopStore.Operations) => Effect.Effect<A, E>) =>
        Effect.flatMap(ShopStore.ShopStore, f).pipe(Effect.provide(context))

      const added = yield* on(one, (store) => store.add(input()))
      expect(yield* on(two, (store) => store.get("shop_1"))).toEqual(added)
      expect(Redacted.value((yield* on(two, (store) => store.customerCredentials("shop_1"))).apiToken)).toBe(TOKEN)
      yield* on(two, (store) => store.markRevoked("shop_1", "refused"))
      expect((yield* on(one, (store) => Effect.flip(store.customerCredentials("shop_1"))))._tag).toBe("ShopRevoked")

      // The same new shop from both at once: one wins, the other is told it exists.
      const outcomes = yield* Effect.all(
        [one, two, one, two].map((context, i) =>
          on(context, (store) => store.add(input("shop_9", `token-${i}`))).pipe(Effect.either)
        ),
        { concurrency: "unbounded" }
      )
      expect(outcomes.filter(Either.isRight)).toHaveLength(1)
      expect(outcomes.filter(Either.isLeft).map((e) => e.left._tag)).toEqual(["ShopExists", "ShopExists", "ShopExists"])
      const winner = outcomes.findIndex(Either.isRight)
      expect(Redacted.value((yield* on(two, (store) => store.customerCredentials("shop_9"))).apiToken)).toBe(
        `token-${winner}`
      )

      // Concurrent replaces take turns: the shop ends with one complete set of secrets.
      yield* Effect.all(
        [one, two, one, two].map((context, i) =>
          on(context, (store) => store.add(input("shop_9", `again-${i}`), { replace: true }))
        ),
        { concurrency: "unbounded", discard: true }
      )
      const sql = yield* SqlClient.SqlClient
      const names = yield* sql<
        { readonly name: string }
      >`SELECT name FROM shoplink_shop_secrets WHERE shop_id = 'shop_9' ORDER BY name`
      expect(names.map((row) => row.name)).toEqual(["distributor.apiToken", "sms.apiKey"])
      expect(Redacted.value((yield* on(one, (store) => store.customerCredentials("shop_9"))).apiToken)).toMatch(
        /^again-[0-3]$/
      )

      yield* on(one, (store) => store.remove("shop_9"))
      expect((yield* on(two, (store) => Effect.flip(store.get("shop_9"))))._tag).toBe("ShopNotFound")
      expect(yield* sql`SELECT name FROM shoplink_shop_secrets WHERE shop_id = 'shop_9'`).toEqual([])
    }).pipe(Effect.scoped, Effect.provide(postgres()), Effect.orDie))

  it.effect("sqlite: the file is 0600 and its raw bytes hold no token or SMS key", () =>
    Effect.gen(function*() {
      const file = scratchDatabase()
      yield* withStore(sqlStore(file, ring(k1)), (store) => store.add(input()))
      for (const f of [file, `${file}-wal`]) {
        try {
          expect(statSync(f).mode & 0o777).toBe(0o600)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
        }
      }
      const bytes = rawBytes(file)
      expect(bytes).toContain("shop_1")
      expect(bytes).not.toContain(TOKEN)
      expect(bytes).not.toContain(SMS_KEY)
    }))
})
