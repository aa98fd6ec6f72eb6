import { describe, expect, it } from "@effect/vitest"
import { SecretBox, Settings, SettingsTable } from "@shoplink/connector-runtime"
import * as Table from "@shoplink/connector-runtime/SettingsTable"
import * as SettingsSubpath from "@shoplink/connector-runtime/Settings"
import { Config, ConfigProvider, Effect, Either, Exit, Layer, Redacted } from "effect"

const read = <A>(config: Config.Config<A>, env: Record<string, string>) =>
  Effect.either(Effect.withConfigProvider(config, ConfigProvider.fromMap(new Map(Object.entries(env)))))

const key = (byte: number, bytes = 32) => Buffer.alloc(bytes, byte).toString("base64")

describe("SettingsTable", () => {
  it("is the import-free subpath (and Settings a light one) and the main index's namespace, one table", () => {
    expect(Table.SETTINGS).toBe(SettingsTable.SETTINGS)
    expect(SettingsSubpath.secretBox).toBe(Settings.secretBox)
    const names = Object.values(SettingsTable.SETTINGS).map((d) => d.env)
    expect(new Set(names).size).toBe(names.length)
    const files = Object.values(SettingsTable.SETTINGS).map((d) => d.file.join("."))
    expect(new Set(files).size).toBe(files.length)
  })

  it("problemOf: URLs, fixed sets and keyrings, never quoting a secret", () => {
    const { SETTINGS, problemOf } = SettingsTable
    expect(problemOf(SETTINGS.punchoutBaseUrl, "http://127.0.0.1:4010")).toBeUndefined()
    expect(problemOf(SETTINGS.punchoutBaseUrl, "htp//typo")).toBe("is not a URL: \"htp//typo\"")
    expect(problemOf(SETTINGS.omsTestBaseUrl, "ftp://files.example")).toBe(
      "is not an http(s) URL: \"ftp://files.example\""
    )
    expect(problemOf(SETTINGS.omsProdBaseUrl, "https://oms.example/?a=1")).toMatch(/^must not have a query or fragment/)
    expect(problemOf(SETTINGS.punchoutBaseUrl, "https://me:pw@x.example")).toBe(
      "must not carry credentials (user:password@)"
    )
    expect(problemOf(SETTINGS.omsEnvironment, "US_QA")).toBe("is \"US_QA\"; expected US_QUA, CA_QUA, US_PRD or CA_PRD")
    expect(problemOf(SETTINGS.secretKeys, `k1:${key(1)}`)).toBeUndefined()
    expect(problemOf(SETTINGS.secretKeys, `k1:${key(1, 16)}`)).toBe(
      "is invalid: key k1 is 16 bytes; AES-256 needs 32 (base64 of 32 random bytes)"
    )
    expect(problemOf(SETTINGS.secretKeys, "no-colon-here")).toMatch(/^is invalid: entry 1 must read id:base64key/)
    expect(problemOf(SETTINGS.secretKeys, `k1:${key(1)},k1:${key(2)}`)).toBe("is invalid: key id k1 appears twice")
    expect(SettingsTable.keyringIds(`k2:${key(2)}, k1:${key(1)}`)).toEqual(["k2", "k1"])
  })

  it("SecretBox.parseKeyring reads keyrings with the table's rules", () => {
    for (const text of ["", "k1", `k1:${key(1, 16)}`, `k1:${key(1)},k1:${key(1)}`, `k2:${key(2)},k1:${key(1)}`]) {
      const table = SettingsTable.readKeyring(text)
      const parsed = SecretBox.parseKeyring(text)
      if ("problem" in table) expect(Either.isLeft(parsed) && parsed.left.problem).toBe(table.problem)
      else expect(Either.isRight(parsed) && [...parsed.right.keys.keys()]).toEqual(table.entries.map((e) => e.id))
    }
  })
})

describe("Settings", () => {
  it.effect("punchoutClient and orderManagementClient read the table's names; blank is unset; wrong values name the variable", () =>
    Effect.gen(function*() {
      const punchout = yield* read(Config.unwrap(Settings.punchoutClient), {
        SHOPLINK_PUNCHOUT_BASE_URL: " http://127.0.0.1:4010 ",
        SHOPLINK_VENDOR_API_KEY: "vendor-key"
      })
      expect(Either.isRight(punchout) && punchout.right.baseUrl).toBe("http://127.0.0.1:4010")
      expect(Either.isRight(punchout) && Redacted.value(punchout.right.vendorApiKey)).toBe("vendor-key")

      const blank = yield* read(Config.unwrap(Settings.punchoutClient), {
        SHOPLINK_PUNCHOUT_BASE_URL: "http://x.example",
        SHOPLINK_VENDOR_API_KEY: " "
      })
      expect(Either.isLeft(blank) && String(blank.left)).toContain("SHOPLINK_VENDOR_API_KEY")

      const wrong = yield* read(Config.unwrap(Settings.punchoutClient), {
        SHOPLINK_PUNCHOUT_BASE_URL: "localhost:4010",
        SHOPLINK_VENDOR_API_KEY: "k"
      })
      expect(Either.isLeft(wrong) && String(wrong.left)).toContain("SHOPLINK_PUNCHOUT_BASE_URL")
      expect(Either.isLeft(wrong) && String(wrong.left)).toContain("is not an http(s) URL")

      const oms = yield* read(Config.unwrap(Settings.orderManagementClient), {
        SHOPLINK_OMS_ENVIRONMENT: "US_QUA",
        SHOPLINK_OMS_API_KEY: "oms-key",
        SHOPLINK_OMS_TEST_BASE_URL: "http://127.0.0.1:4010"
      })
      expect(Either.isRight(oms) && { ...oms.right, apiKey: undefined }).toEqual({
        environment: "US_QUA",
        apiKey: undefined,
        testBaseUrl: "http://127.0.0.1:4010",
        prodBaseUrl: undefined
      })
      const env = yield* read(Config.unwrap(Settings.orderManagementClient), {
        SHOPLINK_OMS_ENVIRONMENT: "US_QA",
        SHOPLINK_OMS_API_KEY: "k"
      })
      expect(Either.isLeft(env) && String(env.left)).toContain("expected US_QUA, CA_QUA, US_PRD or CA_PRD")
    }))

  it.effect("secretBox: SecretBox.layerConfig over the standard keyring; its problem, never a key", () =>
    Effect.gen(function*() {
      const build = (env: Record<string, string>) =>
        Effect.exit(
          Layer.build(SecretBox.layerConfig(Settings.secretBox)).pipe(
            Effect.scoped,
            Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
          )
        )
      const ok = yield* build({ SHOPLINK_SECRET_KEYS: `k1:${key(7)}` })
      expect(Exit.isSuccess(ok)).toBe(true)
      const missing = yield* build({})
      expect(Exit.isFailure(missing) && String(missing.cause)).toContain("SHOPLINK_SECRET_KEYS")
      const short = yield* build({ SHOPLINK_SECRET_KEYS: `k1:${key(7, 16)}` })
      expect(Exit.isFailure(short) && String(short.cause)).toContain("AES-256 needs 32")
      expect(Exit.isFailure(short) && String(short.cause)).not.toContain(key(7, 16))
      // An application's own name works the same way.
      const own = yield* Effect.exit(
        Layer.build(SecretBox.layerConfig({ keys: Config.redacted("ACME_KEYS") })).pipe(
          Effect.scoped,
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["ACME_KEYS", `k1:${key(3)}`]])))
        )
      )
      expect(Exit.isSuccess(own)).toBe(true)
    }))

  it.effect("storage, smsVendorName, publicBaseUrl", () =>
    Effect.gen(function*() {
      expect(yield* read(Settings.storage, { SHOPLINK_DATABASE_URL: "shoplink.db" })).toEqual(
        Either.right({ sqlite: "shoplink.db" })
      )
      const refused = yield* read(Settings.storage, { SHOPLINK_DATABASE_URL: "mysql://u:secret@db/x" })
      expect(Either.isLeft(refused) && String(refused.left)).toContain("unsupported scheme")
      expect(Either.isLeft(refused) && String(refused.left)).not.toContain("secret")
      expect(yield* read(Settings.smsVendorName.pipe(Config.withDefault("Acme")), { SHOPLINK_SMS_VENDOR_NAME: "" }))
        .toEqual(Either.right("Acme"))
      expect(yield* read(Settings.publicBaseUrl, { SHOPLINK_PUBLIC_BASE_URL: "https://parts.example/" })).toEqual(
        Either.right("https://parts.example")
      )
    }))
})
