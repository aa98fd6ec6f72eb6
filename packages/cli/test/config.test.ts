import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { parseJson, runCliInProcess, scratchDir } from "./support/cli.js"

// Settings that look right; nothing listens on port 9, and none of these tests gets that far.
const vendorKey = "vendor-key-that-must-not-print-7311"
const token = "customer-token-that-must-not-print-4408"
const env = {
  SHOPLINK_PUNCHOUT_BASE_URL: "http://127.0.0.1:9",
  SHOPLINK_VENDOR_API_KEY: vendorKey,
  SHOPLINK_OMS_ENVIRONMENT: "US_QUA",
  SHOPLINK_OMS_TEST_BASE_URL: "http://127.0.0.1:9",
  SHOPLINK_OMS_API_KEY: "oms-key-that-must-not-print-5521",
  SHOPLINK_CUSTOMER_ACCOUNT_NO: "100200",
  SHOPLINK_CUSTOMER_USERNAME: "parts@example.com",
  SHOPLINK_CUSTOMER_COUNTRY: "US",
  SHOPLINK_CUSTOMER_API_TOKEN: token
}

const noSecrets = (text: string) => {
  for (const secret of [vendorKey, token, env.SHOPLINK_OMS_API_KEY]) expect(text).not.toContain(secret)
}

describe("shoplink configuration errors", () => {
  it.effect("a base URL that does not parse is a configuration error (exit 2) naming the variable, not a transport error", () =>
    Effect.gen(function*() {
      const punchout = yield* runCliInProcess(["punchout", "quotes", "oil filter"], {
        ...env,
        SHOPLINK_PUNCHOUT_BASE_URL: "not-a-url"
      })
      expect(punchout.code).toBe(2)
      expect(punchout.stderr).toContain(
        "error (ConfigProblem): SHOPLINK_PUNCHOUT_BASE_URL (the Punchout API base URL, {base_url}) is not a URL: \"not-a-url\""
      )
      expect(punchout.stderr).toContain(
        "fix: set SHOPLINK_PUNCHOUT_BASE_URL or punchout.baseUrl in shoplink.config.json"
      )
      expect(punchout.stderr.split("\n").filter((l) => l !== "")).toHaveLength(2)
      noSecrets(punchout.stderr)

      const oms = yield* runCliInProcess(["oms", "account"], { ...env, SHOPLINK_OMS_TEST_BASE_URL: "localhost:4010" })
      expect(oms.code).toBe(2)
      expect(oms.stderr).toContain("SHOPLINK_OMS_TEST_BASE_URL (the Order Management test host")
      expect(oms.stderr).toContain("is not an http(s) URL: \"localhost:4010\"")

      const query = yield* runCliInProcess(["punchout", "session", "create"], {
        ...env,
        SHOPLINK_PUNCHOUT_BASE_URL: "http://127.0.0.1:9/?x=1"
      })
      expect(query.code).toBe(2)
      expect(query.stderr).toContain(
        "SHOPLINK_PUNCHOUT_BASE_URL (the Punchout API base URL, {base_url}) must not have a query"
      )
    }))

  it.effect("a setting wrong on its face fails up front even when the command does not use it", () =>
    Effect.gen(function*() {
      const result = yield* runCliInProcess(["oms", "account", "--json"], {
        ...env,
        SHOPLINK_WEBHOOK_ORDER_URL: "127.0.0.1:8787/order"
      })
      expect(result.code).toBe(2)
      expect(result.stdout).toBe("")
      expect(parseJson<{ error: unknown }>(result.stderr).error).toMatchObject({
        exitCode: 2,
        tag: "ConfigProblem",
        message:
          "SHOPLINK_WEBHOOK_ORDER_URL (the order webhook URL for new sessions; default http://127.0.0.1:8787/order) is not a URL: \"127.0.0.1:8787/order\""
      })
    }))

  it.effect("an empty secret is named as empty, and a file value that does not parse names where it came from", () =>
    Effect.gen(function*() {
      const empty = yield* runCliInProcess(["punchout", "quotes", "oil filter"], {
        ...env,
        SHOPLINK_VENDOR_API_KEY: ""
      })
      expect(empty.code).toBe(2)
      expect(empty.stderr).toContain(
        "SHOPLINK_VENDOR_API_KEY (the distributor's vendor API key, for Punchout) is set but empty (env SHOPLINK_VENDOR_API_KEY)"
      )
      const cwd = scratchDir()
      writeFileSync(
        join(cwd, "shoplink.config.json"),
        JSON.stringify({ punchout: { baseUrl: "http//typo", vendorApiKey: "" } })
      )
      const { SHOPLINK_PUNCHOUT_BASE_URL: _, SHOPLINK_VENDOR_API_KEY: __, ...rest } = env
      const file = yield* runCliInProcess(["punchout", "quotes", "oil filter"], rest, { cwd })
      expect(file.code).toBe(2)
      expect(file.stderr).toContain(
        "SHOPLINK_PUNCHOUT_BASE_URL (the Punchout API base URL, {base_url}) is not a URL: \"http//typo\" (shoplink.config.json punchout.baseUrl)"
      )
    }))

  it.effect("every missing setting is listed, one line each, naming the variable and what it is for", () =>
    Effect.gen(function*() {
      const { SHOPLINK_VENDOR_API_KEY: _, SHOPLINK_CUSTOMER_API_TOKEN: __, SHOPLINK_CUSTOMER_USERNAME: ___, ...rest } =
        env
      const result = yield* runCliInProcess(["punchout", "quotes", "oil filter"], rest)
      expect(result.code).toBe(2)
      expect(result.stderr.trimEnd().split("\n")).toEqual([
        "error (ConfigProblem): 3 settings are missing or invalid",
        "  SHOPLINK_VENDOR_API_KEY (the distributor's vendor API key, for Punchout) is missing",
        "  SHOPLINK_CUSTOMER_USERNAME (the customer's username, for Punchout) is missing",
        "  SHOPLINK_CUSTOMER_API_TOKEN (the customer's API token) is missing",
        "  fix: set each in the environment or in shoplink.config.json (`shoplink doctor` checks them all)"
      ])

      const json = yield* runCliInProcess(["oms", "price", "51515", "--brand", "WIX", "--json"], {})
      expect(json.code).toBe(2)
      const error = parseJson<{ error: { problems: ReadonlyArray<string> } }>(json.stderr).error
      expect(error.problems).toEqual([
        "SHOPLINK_OMS_ENVIRONMENT (the Order Management environment: US_QUA, CA_QUA, US_PRD or CA_PRD) is missing",
        "SHOPLINK_OMS_API_KEY (the Order Management APIKey of the environment's tier) is missing",
        "SHOPLINK_CUSTOMER_ACCOUNT_NO (the customer's account number) is missing",
        "SHOPLINK_CUSTOMER_API_TOKEN (the customer's API token) is missing"
      ])
    }))

  it.effect("doctor fails the setting's own check for a value wrong on its face (exit 2)", () =>
    Effect.gen(function*() {
      const result = yield* runCliInProcess(["doctor"], {
        ...env,
        SHOPLINK_PUNCHOUT_BASE_URL: "not-a-url",
        SHOPLINK_CUSTOMER_COUNTRY: "USA"
      })
      expect(result.code).toBe(2)
      expect(result.stdout).toContain("FAIL  SHOPLINK_PUNCHOUT_BASE_URL: is not a URL: \"not-a-url\"")
      expect(result.stdout).toContain("FAIL  SHOPLINK_CUSTOMER_COUNTRY: is \"USA\"; expected US, US QA, CA or CA QA")
      expect(result.stdout).toContain("SKIP  Punchout API reachable: needs configuration")
      expect(result.stderr).toContain("first: SHOPLINK_PUNCHOUT_BASE_URL")
      noSecrets(result.stdout + result.stderr)
    }))
})
