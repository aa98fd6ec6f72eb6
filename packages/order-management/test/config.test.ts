// Environment selection and configuration errors, all before any request.
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Config, ConfigProvider, Effect, Either, Layer, Option, Redacted } from "effect"
import { KeyTier, OrderManagementClient, OrderManagementError } from "../src/index.js"
import { customer } from "./support/client.js"
import { ok, startFaultServer } from "./support/FaultServer.js"

const build = (options: OrderManagementClient.Options) =>
  OrderManagementClient.make(options).pipe(Effect.provide(FetchHttpClient.layer))

const hosts = { testBaseUrl: "http://127.0.0.1:1", prodBaseUrl: "http://127.0.0.1:2" }
const testKey = Redacted.make("sbx-oms-test-key-0001")
const prodKey = Redacted.make("sbx-oms-prod-key-0001")

describe("environment selection", () => {
  it.scopedLive("test environments use the test host, production ones the production host", () =>
    Effect.gen(function*() {
      const testHost = yield* startFaultServer(() => ({ json: ok({ customerAccountNo: "100200" }) }))
      const prodHost = yield* startFaultServer(() => ({ json: ok({ customerAccountNo: "100200" }) }))
      const urls = { testBaseUrl: testHost.url, prodBaseUrl: `${prodHost.url}/` }
      const ca = yield* build({ environment: "CA_QUA", apiKey: testKey, ...urls })
      const us = yield* build({ environment: "US_PRD", apiKey: prodKey, ...urls })
      expect(ca.baseUrl).toBe(`${testHost.url}/web/services/CA_QUA`)
      expect(us.baseUrl).toBe(`${prodHost.url}/web/services/US_PRD`)
      yield* ca.forCustomer(customer).accountDetails({ submitDate: new Date("2026-11-20") })
      yield* us.forCustomer(customer).accountDetails({ submitDate: new Date("2026-11-20") })
      expect(testHost.requests.map((r) => r.url.pathname)).toEqual(["/web/services/CA_QUA/accountDetails"])
      expect(prodHost.requests.map((r) => r.url.pathname)).toEqual(["/web/services/US_PRD/accountDetails"])
      expect(prodHost.requests[0]?.headers["apikey"]).toBe("sbx-oms-prod-key-0001")
    }))

  it.effect("a production environment with a test key (or the reverse) is a configuration error", () =>
    Effect.gen(function*() {
      const prodWithTest = yield* Effect.flip(build({ environment: "US_PRD", apiKey: testKey, ...hosts }))
      expect(prodWithTest._tag).toBe("ConfigurationError")
      expect(prodWithTest.setting).toBe("apiKey")
      expect(prodWithTest.message).not.toContain("sbx-oms-test-key-0001")
      const testWithProd = yield* Effect.flip(build({ environment: "CA_QUA", apiKey: prodKey, ...hosts }))
      expect(testWithProd.setting).toBe("apiKey")
    }))

  it.effect("keyTier overrides the classifier; a key of unknown tier is accepted", () =>
    Effect.gen(function*() {
      const opaque = Redacted.make("a1b2c3d4")
      const declared = yield* Effect.flip(
        build({ environment: "US_QUA", apiKey: opaque, keyTier: "production", ...hosts })
      )
      expect(declared.setting).toBe("apiKey")
      const accepted = yield* build({ environment: "US_PRD", apiKey: opaque, ...hosts })
      expect(accepted.environment).toBe("US_PRD")
      const custom = yield* Effect.flip(
        build({ environment: "US_PRD", apiKey: opaque, classifyKey: () => "test", ...hosts })
      )
      expect(custom.setting).toBe("apiKey")
    }))

  it.effect("the environment's host must be configured and be an http(s) URL", () =>
    Effect.gen(function*() {
      const missing = yield* Effect.flip(
        build({ environment: "CA_PRD", apiKey: prodKey, testBaseUrl: "http://127.0.0.1:1" })
      )
      expect(missing.setting).toBe("prodBaseUrl")
      const bad = yield* Effect.flip(build({ environment: "US_QUA", apiKey: testKey, testBaseUrl: "ftp://host" }))
      expect(bad.setting).toBe("testBaseUrl")
      const badEnv = yield* Effect.flip(build({ environment: "EU_PRD" as never, apiKey: testKey, ...hosts }))
      expect(badEnv.setting).toBe("environment")
    }))

  it.effect("an empty key, a bad timeout or retry setting is a configuration error, naming the setting", () =>
    Effect.gen(function*() {
      const cases: Array<[Partial<OrderManagementClient.Options>, string]> = [
        [{ apiKey: Redacted.make("") }, "apiKey"],
        [{ apiKey: Redacted.make("   ") }, "apiKey"],
        [{ testBaseUrl: "not a url" }, "testBaseUrl"],
        [{ timeout: "soon" as never }, "timeout"],
        [{ timeout: 0 }, "timeout"],
        [{ retry: { maxAttempts: Number.NaN } }, "retry.maxAttempts"],
        [{ retry: { retryAfterCap: "long" as never } }, "retry.retryAfterCap"]
      ]
      for (const [options, setting] of cases) {
        const error = yield* Effect.flip(build({ environment: "US_QUA", apiKey: testKey, ...hosts, ...options }))
        expect([error._tag, error.setting]).toEqual(["ConfigurationError", setting])
        expect(error.message).not.toContain("\n")
      }
    }))

  it("the default classifier recognises the sandbox keys and common words", () => {
    const tier = (key: string) => KeyTier.classifyByName(Redacted.make(key))
    expect(tier("sbx-oms-test-key-0001")).toBe("test")
    expect(tier("sbx-oms-prod-key-0001")).toBe("production")
    expect(tier("PRD_8f7a")).toBe("production")
    expect(tier("us_qua_123")).toBe("test")
    expect(tier("protest-key")).toBeUndefined()
    expect(tier("test-prod")).toBeUndefined()
    expect(tier("9f86d081884c7d65")).toBeUndefined()
  })
})

describe("layerConfig", () => {
  // The application names its variables once; the client reads only the Config it is given.
  const optional = <A>(config: Config.Config<A>) => Config.option(config).pipe(Config.map(Option.getOrUndefined))
  const settings: Config.Config.Wrap<OrderManagementClient.Options> = {
    environment: Config.literal("US_QUA", "CA_QUA", "US_PRD", "CA_PRD")("SHOPLINK_OMS_ENVIRONMENT"),
    apiKey: Config.redacted("SHOPLINK_OMS_API_KEY"),
    testBaseUrl: optional(Config.string("SHOPLINK_OMS_TEST_BASE_URL")),
    prodBaseUrl: optional(Config.string("SHOPLINK_OMS_PROD_BASE_URL")),
    keyTier: optional(Config.literal("test", "production")("SHOPLINK_OMS_KEY_TIER"))
  }
  const withEnv = (env: Record<string, string>) =>
    Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

  it.effect("reads SHOPLINK_OMS_* settings", () =>
    Effect.gen(function*() {
      const client = yield* OrderManagementClient.OrderManagementClient
      expect(client.environment).toBe("CA_PRD")
      expect(client.baseUrl).toBe("https://api.example/web/services/CA_PRD")
    }).pipe(
      Effect.provide(
        OrderManagementClient.layerConfig(settings).pipe(
          Layer.provide(FetchHttpClient.layer),
          Layer.provide(withEnv({
            SHOPLINK_OMS_ENVIRONMENT: "CA_PRD",
            SHOPLINK_OMS_TEST_BASE_URL: "https://test.example",
            SHOPLINK_OMS_PROD_BASE_URL: "https://api.example",
            SHOPLINK_OMS_API_KEY: "a1b2c3"
          }))
        )
      )
    ))

  it.effect("fails on a tier mismatch declared in SHOPLINK_OMS_KEY_TIER, and on a missing key", () =>
    Effect.gen(function*() {
      const layerWith = (env: Record<string, string>) =>
        OrderManagementClient.layerConfig(settings).pipe(
          Layer.provide(FetchHttpClient.layer),
          Layer.provide(withEnv(env))
        )
      const mismatch = yield* Effect.either(Layer.build(layerWith({
        SHOPLINK_OMS_ENVIRONMENT: "US_PRD",
        SHOPLINK_OMS_PROD_BASE_URL: "https://api.example",
        SHOPLINK_OMS_API_KEY: "a1b2c3",
        SHOPLINK_OMS_KEY_TIER: "test"
      })))
      expect(Either.isLeft(mismatch) && mismatch.left._tag).toBe("ConfigurationError")
      const missingKey = yield* Effect.either(Layer.build(layerWith({
        SHOPLINK_OMS_ENVIRONMENT: "US_QUA",
        SHOPLINK_OMS_TEST_BASE_URL: "https://test.example"
      })))
      expect(Either.isLeft(missingKey) && missingKey.left._tag).not.toBe("ConfigurationError")
      expect(Either.isLeft(missingKey)).toBe(true)
      const emptyKey = yield* Effect.either(Layer.build(layerWith({
        SHOPLINK_OMS_ENVIRONMENT: "US_QUA",
        SHOPLINK_OMS_TEST_BASE_URL: "https://test.example",
        SHOPLINK_OMS_API_KEY: ""
      })))
      expect(Either.isLeft(emptyKey) && emptyKey.left._tag === "ConfigurationError" && emptyKey.left.setting).toBe(
        "apiKey"
      )
      expect(Either.isLeft(emptyKey) && emptyKey.left.message).toBe(
        "Order Management client configuration: apiKey: must not be empty"
      )
      expect(Either.isLeft(emptyKey) && OrderManagementError.hasRetryClass("auth")(emptyKey.left)).toBe(true)
      const badUrl = yield* Effect.either(Layer.build(layerWith({
        SHOPLINK_OMS_ENVIRONMENT: "US_QUA",
        SHOPLINK_OMS_TEST_BASE_URL: "test.example",
        SHOPLINK_OMS_API_KEY: "a1b2c3"
      })))
      expect(Either.isLeft(badUrl) && badUrl.left._tag === "ConfigurationError" && badUrl.left.setting).toBe(
        "testBaseUrl"
      )
    }).pipe(Effect.scoped))
})
