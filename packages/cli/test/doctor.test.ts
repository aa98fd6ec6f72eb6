import { expect, layer } from "@effect/vitest"
import { SandboxServer } from "@shoplink/sandbox"
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { parseJson, runCliInProcess, sandboxEnv, sandboxSecrets, scratchDir } from "./support/cli.js"
import { closedPort as refusedPort } from "@shoplink/vitest-config/net"

interface DoctorJson {
  readonly ok: boolean
  readonly checks: ReadonlyArray<
    { name: string; status: "pass" | "fail" | "skip"; detail: string; fix?: string; exitCode?: number }
  >
}

/** A port that refuses connections: bound, then closed. */
const closedPort = Effect.promise(refusedPort)

// Live clock: the CLI runs on the real date (its own runtime, in this process), so the sandbox must agree with it.
layer(SandboxServer.layer(), { excludeTestServices: true })("shoplink doctor", (it) => {
  it.effect("passes every check against the sandbox and prints no secret", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const result = yield* runCliInProcess(["doctor"], sandboxEnv(sandbox))
      expect(result.stderr).toBe("")
      expect(result.code).toBe(0)
      expect(result.stdout).toContain(
        "PASS  Punchout vendor key + customer credentials: session created for account 100200"
      )
      expect(result.stdout).toContain("PASS  customer token (accountDetails): account 100200")
      expect(result.stdout).toContain("PASS  SHOPLINK_VENDOR_API_KEY: <redacted>…0001 (env SHOPLINK_VENDOR_API_KEY)")
      expect(result.stdout).toContain("All checks passed.")
      expect(result.stdout).not.toContain("FAIL")
      for (const secret of sandboxSecrets(sandbox)) expect(result.stdout + result.stderr).not.toContain(secret)
    }))

  it.effect("a refused vendor key fails the Punchout check with exit code 3 and a fix (--json)", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const result = yield* runCliInProcess(["doctor", "--json"], {
        ...sandboxEnv(sandbox),
        SHOPLINK_VENDOR_API_KEY: "not-the-vendor-key-9876"
      })
      expect(result.code).toBe(3)
      const report = parseJson<DoctorJson>(result.stdout)
      expect(report.ok).toBe(false)
      const byName = new Map(report.checks.map((c) => [c.name, c]))
      expect(byName.get("Punchout API reachable")?.status).toBe("pass")
      const auth = byName.get("Punchout vendor key + customer credentials")
      expect(auth?.status).toBe("fail")
      expect(auth?.detail).toContain("UNAUTHORIZED")
      expect(auth?.fix).toContain("SHOPLINK_VENDOR_API_KEY")
      expect(auth?.exitCode).toBe(3)
      // Order Management uses its own key: still fine.
      expect(byName.get("customer token (accountDetails)")?.status).toBe("pass")
      expect(result.stdout).not.toContain("not-the-vendor-key-9876")
    }))

  it.effect("an unknown OMS key fails the key check and skips the token check", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const result = yield* runCliInProcess(["doctor"], {
        ...sandboxEnv(sandbox),
        SHOPLINK_OMS_API_KEY: "sbx-oms-test-key-unknown"
      })
      expect(result.code).toBe(3)
      expect(result.stdout).toMatch(/FAIL {2}Order Management API key: API0206/)
      expect(result.stdout).toContain("fix: check SHOPLINK_OMS_API_KEY")
      expect(result.stdout).toContain("SKIP  customer token (accountDetails): API key refused")
      expect(result.stdout).not.toContain("sbx-oms-test-key-unknown")
    }))

  it.effect("missing settings are usage errors (exit 2) naming the variable to set", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const { SHOPLINK_CUSTOMER_API_TOKEN: _, ...env } = sandboxEnv(sandbox)
      const result = yield* runCliInProcess(["doctor"], env)
      expect(result.code).toBe(2)
      expect(result.stdout).toContain("FAIL  SHOPLINK_CUSTOMER_API_TOKEN: is missing")
      expect(result.stdout).toContain(
        "fix: set SHOPLINK_CUSTOMER_API_TOKEN or customer.apiToken in shoplink.config.json"
      )
      expect(result.stdout).toContain("SKIP  Punchout API reachable: needs configuration")
      expect(result.stderr).toContain("first: SHOPLINK_CUSTOMER_API_TOKEN")
    }))

  it.effect("an unreachable Punchout host is a transport error (exit 5)", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const port = yield* closedPort
      const result = yield* runCliInProcess(["doctor"], {
        ...sandboxEnv(sandbox),
        SHOPLINK_PUNCHOUT_BASE_URL: `http://127.0.0.1:${port}`
      })
      expect(result.code).toBe(5)
      expect(result.stdout).toMatch(/FAIL {2}Punchout API reachable: http:\/\/127\.0\.0\.1:\d+: .*ConnectionRefused/)
      expect(result.stdout).toContain("fix: check SHOPLINK_PUNCHOUT_BASE_URL and your network")
      expect(result.stdout).toContain("PASS  customer token (accountDetails)")
    }))

  it.effect("reads ./shoplink.config.json, and environment variables win over it", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const env = sandboxEnv(sandbox)
      const cwd = scratchDir()
      writeFileSync(
        join(cwd, "shoplink.config.json"),
        JSON.stringify({
          punchout: { baseUrl: sandbox.url, vendorApiKey: "stale-key-in-the-file" },
          oms: { environment: "US_QUA", apiKey: env.SHOPLINK_OMS_API_KEY, testBaseUrl: sandbox.url },
          customer: {
            accountNo: "100200",
            username: "parts@mainstreet-auto.example",
            country: "US",
            apiToken: env.SHOPLINK_CUSTOMER_API_TOKEN
          }
        })
      )
      const result = yield* runCliInProcess(["doctor"], { SHOPLINK_VENDOR_API_KEY: env.SHOPLINK_VENDOR_API_KEY! }, {
        cwd
      })
      expect(result.code).toBe(0)
      expect(result.stdout).toContain("PASS  config file: shoplink.config.json")
      expect(result.stdout).toContain(
        "PASS  SHOPLINK_PUNCHOUT_BASE_URL: " + sandbox.url + " (shoplink.config.json punchout.baseUrl)"
      )
      expect(result.stdout).toContain("(env SHOPLINK_VENDOR_API_KEY)")
      expect(result.stdout).not.toContain("stale-key-in-the-file")
      expect(result.stdout).not.toContain(env.SHOPLINK_CUSTOMER_API_TOKEN)
    }))

  it.effect("--config must name an existing JSON file", () =>
    Effect.gen(function*() {
      const cwd = scratchDir()
      writeFileSync(join(cwd, "broken.json"), "{ not json")
      const missing = yield* runCliInProcess(["punchout", "quotes", "oil filter", "--config", "nope.json"], {}, { cwd })
      expect(missing.code).toBe(2)
      expect(missing.stderr).toContain("config file not found: nope.json")
      const broken = yield* runCliInProcess(["doctor", "--config", "broken.json", "--json"], {}, { cwd })
      expect(broken.code).toBe(2)
      const report = parseJson<DoctorJson>(broken.stdout)
      expect(report.checks[0]).toMatchObject({ name: "config file", status: "fail" })
      expect(report.checks[0]?.detail).toContain("not valid JSON")
    }))
})
