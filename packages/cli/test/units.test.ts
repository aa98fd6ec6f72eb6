import { describe, expect, it } from "@effect/vitest"
import { PunchoutError } from "@shoplink/punchout"
import { OrderManagementError } from "@shoplink/order-management"
import { InvalidApiKey, OrderLocked, Unauthorized } from "@shoplink/protocol"
import { Effect, Exit } from "effect"
import { ExitCode, ShoplinkConfig } from "../src/index.js"

describe("ShoplinkConfig", () => {
  it("environment wins over the file; blank values count as unset", () => {
    const settings = ShoplinkConfig.fromSources(
      { SHOPLINK_VENDOR_API_KEY: "from-env-key-1234", SHOPLINK_PUNCHOUT_BASE_URL: "  " },
      { json: { punchout: { baseUrl: "http://file.example", vendorApiKey: "from-file" } }, path: "shoplink.config.json" }
    )
    expect(settings.values.vendorApiKey).toEqual({ value: "from-env-key-1234", source: "env SHOPLINK_VENDOR_API_KEY" })
    expect(settings.values.punchoutBaseUrl).toEqual({ value: "http://file.example", source: "shoplink.config.json punchout.baseUrl" })
    expect(settings.values.customerAccountNo).toBeUndefined()
  })

  it.effect("a missing setting names the variable and the file key", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(ShoplinkConfig.required(ShoplinkConfig.fromSources({}, undefined), "customerApiToken"))
      expect(exit).toStrictEqual(Exit.fail(new ShoplinkConfig.ConfigProblem({
        message: "SHOPLINK_CUSTOMER_API_TOKEN is not set (the customer's API token)",
        fix: "set SHOPLINK_CUSTOMER_API_TOKEN or customer.apiToken in shoplink.config.json"
      })))
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
    expect(ExitCode.exitCodeOf(new PunchoutError.InvalidInput({ command: "GetProductQuotes", message: "quantity" }))).toBe(2)
    expect(ExitCode.exitCodeOf(new ShoplinkConfig.ConfigProblem({ message: "m", fix: "f" }))).toBe(2)
    expect(ExitCode.exitCodeOf(new PunchoutError.PunchoutTransportError({
      command: "CreateSession",
      reason: "Timeout",
      requestSent: true,
      attempt: 1,
      detail: "timed out"
    }))).toBe(5)
    expect(ExitCode.exitCodeOf(new OrderManagementError.RequestFailed({ reason: "Connect", method: "GET", url: "http://x", detail: "refused" }))).toBe(5)
    expect(ExitCode.exitCodeOf(new Error("boom"))).toBe(1)
  })
})
