import { expect, layer } from "@effect/vitest"
import { SandboxServer } from "@shoplink/sandbox"
import { Effect } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { parseJson, runCliInProcess, sandboxEnv, sandboxSecrets, scratchDir } from "./support/cli.js"

// Live clock: the CLI runs on the real date (its own runtime, in this process), so the sandbox must agree with it.
layer(SandboxServer.layer(), { excludeTestServices: true })("shoplink punchout", (it) => {
  it.effect("quotes: a table for people, the wire shape with --json", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const env = sandboxEnv(sandbox)
      const table = yield* runCliInProcess(["punchout", "quotes", "oil filter", "--qty", "2"], env)
      expect(table.code).toBe(0)
      const [header, rule, ...rows] = table.stdout.trimEnd().split("\n")
      expect(header).toMatch(/^PRODUCT\s+BRAND\s+DESCRIPTION\s+PRICE\s+LIST\s+CORE\s+AVAIL\s+ORDER BY$/)
      expect(rule).toMatch(/^-+( +-+)+$/)
      expect(rows.some((row) => /^51515\s+WIX\s+/.test(row))).toBe(true)

      const exact = yield* runCliInProcess(["punchout", "quotes", "51515", "--brand", "WIX", "--json"], env)
      expect(exact.code).toBe(0)
      const body = parseJson<
        { status: { code: number }; quotes: ReadonlyArray<{ productID: string; brandID: string; quantityReq: number }> }
      >(exact.stdout)
      expect(body.status.code).toBe(200)
      expect(body.quotes.map((q) => [q.productID, q.brandID])).toEqual([["51515", "WIX"]])
      for (const secret of sandboxSecrets(sandbox)) expect(table.stdout + exact.stdout).not.toContain(secret)
    }))

  it.effect("order create → reserve → submit across invocations; a second submit is a distributor error (exit 4, API0247)", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const env = sandboxEnv(sandbox)
      const created = yield* runCliInProcess([
        "punchout",
        "order",
        "create",
        "--product",
        "51515",
        "--brand",
        "WIX",
        "--qty",
        "2",
        "--json"
      ], env)
      expect(created.code).toBe(0)
      const order = parseJson<
        { order: { orderID: string; status: string | number; orderLines: ReadonlyArray<{ quantity: number }> } }
      >(created.stdout).order
      expect(String(order.status)).toBe("0")
      expect(order.orderLines[0]?.quantity).toBe(2)

      const reserved = yield* runCliInProcess(
        ["punchout", "order", "reserve", order.orderID, "--comment", "PO 77"],
        env
      )
      expect(reserved.code).toBe(0)
      expect(reserved.stdout).toMatch(new RegExp(`^order\\s+${order.orderID}$`, "m"))
      expect(reserved.stdout).toMatch(/^comment\s+PO 77$/m)

      const submitted = yield* runCliInProcess(["punchout", "order", "submit", order.orderID], env)
      expect(submitted.code).toBe(0)
      expect(submitted.stdout).toMatch(/^status\s+3 \(Order submitted\)$/m)

      const again = yield* runCliInProcess(["punchout", "order", "submit", order.orderID, "--json"], env)
      expect(again.code).toBe(4)
      expect(again.stdout).toBe("")
      expect(parseJson<{ error: unknown }>(again.stderr).error).toMatchObject({
        exitCode: 4,
        id: "API0247",
        tag: "OrderAlreadySubmitted"
      })
    }))

  it.effect("catalog: the URL with the token masked; --show-token and --open hand over the real one", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const dir = scratchDir()
      const opened = join(dir, "opened.txt")
      const opener = join(dir, "opener.mjs")
      writeFileSync(
        opener,
        `import { writeFileSync } from "node:fs"\nwriteFileSync(${JSON.stringify(opened)}, process.argv[2])\n`
      )
      const env = { ...sandboxEnv(sandbox), SHOPLINK_BROWSER: `${process.execPath} ${opener}` }

      const masked = yield* runCliInProcess([
        "punchout",
        "catalog",
        "--base-vehicle",
        "5678",
        "--search",
        "oil filter",
        "--open"
      ], env)
      expect(masked.code).toBe(0)
      expect(masked.stdout.trim()).toBe(
        `${sandbox.url}/punchout/v1/ShowCatalog?token=<redacted>&searchTerm=oil+filter&baseVehicleID=5678`
      )
      const real = readFileSync(opened, "utf8")
      expect(real).toMatch(/ShowCatalog\?token=[0-9a-f-]{36}&searchTerm=oil\+filter&baseVehicleID=5678$/)
      const page = yield* Effect.promise(() => fetch(real).then((r) => r.text()))
      expect(page).toContain("data-testid=\"vehicle\"")

      const shown = yield* runCliInProcess([
        "punchout",
        "catalog",
        "--plate",
        "8ABC123",
        "--state",
        "CA",
        "--show-token",
        "--json"
      ], env)
      expect(shown.code).toBe(0)
      expect(parseJson<{ url: string; opened: boolean }>(shown.stdout)).toMatchObject({ opened: false })
      expect(parseJson<{ url: string }>(shown.stdout).url).toMatch(
        /token=[0-9a-f-]{36}&licensePlate=8ABC123&licensePlateState=CA$/
      )
    }))

  it.effect("usage errors exit 2: a plate without its state, an unknown option, a malformed VIN", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const env = sandboxEnv(sandbox)
      const plate = yield* runCliInProcess(["punchout", "catalog", "--plate", "8ABC123"], env)
      expect(plate.code).toBe(2)
      expect(plate.stderr).toContain("--plate and --state go together")
      const unknown = yield* runCliInProcess(["punchout", "quotes", "oil", "--bogus"], env)
      expect(unknown.code).toBe(2)
      expect(unknown.stdout).toBe("")
      const vin = yield* runCliInProcess(["punchout", "catalog", "--vin", "ABC123"], env)
      expect(vin.code).toBe(2)
      expect(vin.stderr).toContain("error (InvalidInput): vin must be 17 characters, got 6")
    }))

  it.effect("auth errors exit 3 and transport errors exit 5, each with a fix", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const auth = yield* runCliInProcess(["punchout", "session", "create"], {
        ...sandboxEnv(sandbox),
        SHOPLINK_CUSTOMER_API_TOKEN: "revoked-token-0000"
      })
      expect(auth.code).toBe(3)
      expect(auth.stderr).toContain("error UNAUTHORIZED (Unauthorized): Unauthorized (HTTP 401)\n")
      // The fix names the credentials this call used, masked, and nothing it did not use (no OMS key).
      expect(auth.stderr).toContain(
        `  fix: the distributor refused the vendor API key <redacted>…${
          sandbox.credentials.vendorApiKey.slice(-4)
        } or the customer's credentials (account 100200`
      )
      expect(auth.stderr).toContain("API token <redacted>…0000)")
      expect(auth.stderr).not.toContain("OMS")
      expect(auth.stderr).not.toContain("revoked-token-0000")
      const oms = yield* runCliInProcess(["oms", "account"], {
        ...sandboxEnv(sandbox),
        SHOPLINK_OMS_API_KEY: "wrong-oms-key-9f8e"
      })
      expect(oms.code).toBe(3)
      expect(oms.stderr).toContain(
        "  fix: the distributor refused the Order Management API key <redacted>…9f8e (APIKey header) for US_QUA"
      )
      expect(oms.stderr).not.toContain("vendor API key")
      const transport = yield* runCliInProcess(["punchout", "quotes", "oil filter"], {
        ...sandboxEnv(sandbox),
        SHOPLINK_PUNCHOUT_BASE_URL: "http://127.0.0.1:9"
      })
      expect(transport.code).toBe(5)
      expect(transport.stderr).toContain("error (RequestFailed)")
    }))

  it.effect("session create masks the token unless --show-token; --help lists examples and points to the global help", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const created = yield* runCliInProcess(["punchout", "session", "create", "--json"], sandboxEnv(sandbox))
      expect(created.code).toBe(0)
      const view = parseJson<{ token: string; urlTemplate: string; expiresAt: string }>(created.stdout)
      expect(view.token).toMatch(/^<redacted>…[0-9a-f]{4}$/)
      expect(view.urlTemplate).toBe(`${sandbox.url}/punchout/v1/{command}?token=<redacted>`)
      expect(Date.parse(view.expiresAt)).toBeGreaterThan(Date.now())

      const help = yield* runCliInProcess(["punchout", "quotes", "--help"], {})
      expect(help.code).toBe(0)
      expect(help.stdout).toContain("EXAMPLES")
      expect(help.stdout).toContain("$ shoplink punchout quotes 51515 --brand WIX --qty 2 --json")
      expect(help.stdout).toContain(
        "Also takes the global options --json and --config <file>. `shoplink --help` lists them"
      )
      expect(help.stdout).not.toMatch(/\u001b\[/)
    }))
})
