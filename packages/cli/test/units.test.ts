import { describe, expect, it } from "@effect/vitest"
import { FetchHttpClient } from "@effect/platform"
import { PunchoutClient, PunchoutError } from "@shoplink/punchout"
import { OrderManagementClient, OrderManagementError } from "@shoplink/order-management"
import { InvalidApiKey, OrderLocked, Unauthorized } from "@shoplink/protocol"
import { Settings, SettingsTable } from "@shoplink/connector-runtime"
import { Config, ConfigError, Data, Effect, Exit, Layer, Option, Redacted } from "effect"
import { ExitCode, ShoplinkConfig } from "../src/index.js"
import { describeError } from "../src/internal/output.js"

describe("ShoplinkConfig", () => {
  it("environment wins over the file; blank values count as unset", () => {
    const settings = ShoplinkConfig.fromSources(
      { SHOPLINK_VENDOR_API_KEY: "from-env-key-1234", SHOPLINK_PUNCHOUT_BASE_URL: "  " },
      {
        json: { punchout: { baseUrl: "http://file.example", vendorApiKey: "from-file" } },
        path: "shoplink.config.json"
      }
    )
    expect(settings.values.vendorApiKey).toEqual({ value: "from-env-key-1234", source: "env SHOPLINK_VENDOR_API_KEY" })
    expect(settings.values.punchoutBaseUrl).toEqual({
      value: "http://file.example",
      source: "shoplink.config.json punchout.baseUrl"
    })
    expect(settings.values.customerAccountNo).toBeUndefined()
  })

  it.effect("the same sources as a ConfigProvider: the connector's Settings Configs read them, environment first", () =>
    Effect.gen(function*() {
      const settings = ShoplinkConfig.fromSources(
        { SHOPLINK_VENDOR_API_KEY: "from-env-key-1234", SHOPLINK_PUNCHOUT_BASE_URL: "  " },
        {
          json: { punchout: { baseUrl: "http://file.example", vendorApiKey: "from-file" } },
          path: "shoplink.config.json"
        }
      )
      const punchout = yield* Config.unwrap(Settings.punchoutClient).pipe(
        Effect.withConfigProvider(ShoplinkConfig.provider(settings))
      )
      expect(punchout.baseUrl).toBe("http://file.example")
      expect(Redacted.value(punchout.vendorApiKey)).toBe("from-env-key-1234")
      // The CLI's table shares the connector's entries: one name for each standard setting.
      expect(ShoplinkConfig.SETTINGS.secretKeys).toBe(SettingsTable.SETTINGS.secretKeys)
      expect(ShoplinkConfig.SETTINGS.punchoutBaseUrl).toBe(SettingsTable.SETTINGS.punchoutBaseUrl)
    }))

  it.effect("a missing setting names the variable and the file key", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(
        ShoplinkConfig.required(ShoplinkConfig.fromSources({}, undefined), "customerApiToken")
      )
      expect(exit).toStrictEqual(Exit.fail(
        new ShoplinkConfig.ConfigProblem({
          message: "SHOPLINK_CUSTOMER_API_TOKEN (the customer's API token) is missing",
          fix: "set SHOPLINK_CUSTOMER_API_TOKEN or customer.apiToken in shoplink.config.json",
          problems: ["SHOPLINK_CUSTOMER_API_TOKEN (the customer's API token) is missing"]
        })
      ))
    }))

  it("problem: missing, blank, an unparsable or non-http URL, a base URL with a query, a value outside its set", () => {
    const settings = ShoplinkConfig.fromSources({
      SHOPLINK_VENDOR_API_KEY: " ",
      SHOPLINK_PUNCHOUT_BASE_URL: "htp//typo",
      SHOPLINK_OMS_TEST_BASE_URL: "ftp://files.example",
      SHOPLINK_OMS_PROD_BASE_URL: "https://oms.example/api?key=1",
      SHOPLINK_WEBHOOK_ORDER_URL: "https://hooks.example/order?shop=1",
      SHOPLINK_OMS_ENVIRONMENT: "US_QA"
    }, undefined)
    const problem = (key: ShoplinkConfig.SettingKey) => Option.getOrUndefined(ShoplinkConfig.problem(settings, key))
    expect(problem("customerApiToken")).toBe("SHOPLINK_CUSTOMER_API_TOKEN (the customer's API token) is missing")
    expect(problem("vendorApiKey")).toBe(
      "SHOPLINK_VENDOR_API_KEY (the distributor's vendor API key, for Punchout) is set but empty (env SHOPLINK_VENDOR_API_KEY)"
    )
    expect(problem("punchoutBaseUrl")).toMatch(/^SHOPLINK_PUNCHOUT_BASE_URL \(.*\) is not a URL: "htp\/\/typo"$/)
    expect(problem("omsTestBaseUrl")).toMatch(/is not an http\(s\) URL: "ftp:\/\/files.example"$/)
    expect(problem("omsProdBaseUrl")).toMatch(/must not have a query or fragment/)
    // Webhook URLs may carry a query.
    expect(problem("webhookOrderUrl")).toBeUndefined()
    expect(problem("omsEnvironment")).toMatch(/is "US_QA"; expected US_QUA, CA_QUA, US_PRD or CA_PRD$/)
    const withPassword = ShoplinkConfig.fromSources({
      SHOPLINK_PUNCHOUT_BASE_URL: "https://me:s3cret-pw@punchout.example"
    }, undefined)
    const shown = Option.getOrThrow(ShoplinkConfig.problem(withPassword, "punchoutBaseUrl"))
    expect(shown).toMatch(/must not carry credentials/)
    expect(shown).not.toContain("s3cret-pw")
  })

  it.effect("requireAll reports every problem at once; validate checks every value given", () =>
    Effect.gen(function*() {
      const settings = ShoplinkConfig.fromSources({
        SHOPLINK_PUNCHOUT_BASE_URL: "http://127.0.0.1:4010",
        SHOPLINK_WEBHOOK_QUOTE_URL: "x"
      }, undefined)
      const all = yield* Effect.flip(
        ShoplinkConfig.requireAll(settings, ["punchoutBaseUrl", "vendorApiKey", "customerApiToken"])
      )
      expect(all.message).toBe("2 settings are missing or invalid")
      expect(all.problems).toEqual([
        "SHOPLINK_VENDOR_API_KEY (the distributor's vendor API key, for Punchout) is missing",
        "SHOPLINK_CUSTOMER_API_TOKEN (the customer's API token) is missing"
      ])
      expect(yield* ShoplinkConfig.requireAll(settings, ["punchoutBaseUrl"])).toEqual({
        punchoutBaseUrl: "http://127.0.0.1:4010"
      })
      const invalid = yield* Effect.flip(ShoplinkConfig.validate(settings))
      expect(invalid.message).toMatch(/^SHOPLINK_WEBHOOK_QUOTE_URL \(.*\) is not a URL: "x"$/)
      const fine = ShoplinkConfig.fromSources({ SHOPLINK_PUNCHOUT_BASE_URL: "http://127.0.0.1:4010" }, undefined)
      expect(yield* ShoplinkConfig.validate(fine)).toBe(fine)
    }))

  it("secrets show at most their last 4 characters, short ones none", () => {
    expect(ShoplinkConfig.display("vendorApiKey", "sbx-vendor-key-0001")).toBe("<redacted>…0001")
    expect(ShoplinkConfig.display("customerApiToken", "short-tok")).toBe("<redacted>")
    expect(ShoplinkConfig.display("customerAccountNo", "100200")).toBe("100200")
  })
})

describe("ExitCode.exitCodeOf", () => {
  it("maps each error family to its code", () => {
    expect(ExitCode.exitCodeOf(new Unauthorized({ httpStatus: 401 }))).toBe(3)
    expect(ExitCode.exitCodeOf(new InvalidApiKey({ httpStatus: 401 }))).toBe(3)
    expect(ExitCode.exitCodeOf(new OrderLocked({ httpStatus: 200 }))).toBe(4)
    expect(
      ExitCode.exitCodeOf(
        new PunchoutError.InvalidInput({
          operation: "GetProductQuotes",
          field: "quantity",
          rule: "must be a positive whole number"
        })
      )
    ).toBe(2)
    expect(ExitCode.exitCodeOf(new ShoplinkConfig.ConfigProblem({ message: "m", fix: "f" }))).toBe(2)
    expect(
      ExitCode.exitCodeOf(new PunchoutError.Timeout({ operation: "CreateSession", attempt: 1, detail: "timed out" }))
    ).toBe(5)
    expect(ExitCode.exitCodeOf(
      new OrderManagementError.RequestFailed({
        operation: "accountDetails",
        reason: "ConnectionRefused",
        requestSent: false,
        method: "GET",
        url: "http://x",
        detail: "refused"
      })
    )).toBe(5)
    expect(ExitCode.exitCodeOf(
      new PunchoutError.UnexpectedResponse({
        operation: "GetProductQuotes",
        reason: "InvalidJson",
        httpStatus: 502,
        detail: "Bad Gateway"
      })
    )).toBe(5)
    expect(ExitCode.exitCodeOf(new Error("boom"))).toBe(1)
  })

  it("configuration errors raised when a client layer is built are exit 2 (configuration), not 5 or 1", () => {
    expect(
      ExitCode.exitCodeOf(new OrderManagementError.ConfigurationError({ setting: "testBaseUrl", problem: "is empty" }))
    ).toBe(2)
    // Matched by tag, so a client's own configuration error class needs no CLI change.
    class PunchoutConfigurationError
      extends Data.TaggedError("PunchoutConfigurationError")<{ readonly message: string }>
    {}
    expect(ExitCode.exitCodeOf(new PunchoutConfigurationError({ message: "vendorApiKey is empty" }))).toBe(2)
    expect(ExitCode.exitCodeOf(ConfigError.MissingData(["SHOPLINK_VENDOR_API_KEY"], "Expected it to exist"))).toBe(2)
    expect(ExitCode.isConfigurationError(new ShoplinkConfig.ConfigProblem({ message: "m", fix: "f" }))).toBe(true)
    expect(
      ExitCode.isConfigurationError(
        new PunchoutError.InvalidInput({
          operation: "GetProductQuotes",
          field: "quantity",
          rule: "must be a positive whole number"
        })
      )
    ).toBe(false)
  })

  it.effect("the clients' own layer-construction errors are exit 2", () =>
    Effect.gen(function*() {
      const punchout = yield* Effect.flip(Effect.provide(
        PunchoutClient.PunchoutClient,
        PunchoutClient.layer({ baseUrl: "not a url", vendorApiKey: Redacted.make("key") }).pipe(
          Layer.provide(FetchHttpClient.layer)
        )
      ))
      expect(ExitCode.exitCodeOf(punchout)).toBe(2)
      const oms = yield* Effect.flip(Effect.provide(
        OrderManagementClient.OrderManagementClient,
        OrderManagementClient.layer({ environment: "US_QUA", apiKey: Redacted.make("key"), testBaseUrl: "not a url" })
          .pipe(
            Layer.provide(FetchHttpClient.layer)
          )
      ))
      expect(ExitCode.exitCodeOf(oms)).toBe(2)
    }))
})

describe("describeError", () => {
  it("an Effect ConfigError becomes one line per problem, naming the variable and what it is for, no secret", () => {
    const error = ConfigError.And(
      ConfigError.MissingData(["SHOPLINK_VENDOR_API_KEY"], "<redacted>"),
      ConfigError.Or(
        ConfigError.InvalidData(["SHOPLINK_CUSTOMER_API_TOKEN"], "Expected a token, got hunter2"),
        ConfigError.InvalidData(["SHOPLINK_CUSTOMER_COUNTRY"], "Expected one of US, US QA, CA, CA QA")
      )
    )
    const described = describeError(error)
    expect(described).toMatchObject({ exitCode: 2, tag: "ConfigError", message: "3 settings are missing or invalid" })
    expect(described.problems).toEqual([
      "SHOPLINK_VENDOR_API_KEY (the distributor's vendor API key, for Punchout) is missing",
      "SHOPLINK_CUSTOMER_API_TOKEN (the customer's API token) is invalid",
      "SHOPLINK_CUSTOMER_COUNTRY (the customer's country: US, US QA, CA or CA QA, for Punchout) is invalid: Expected one of US, US QA, CA, CA QA"
    ])
    expect(JSON.stringify(described)).not.toContain("hunter2")
  })
})
