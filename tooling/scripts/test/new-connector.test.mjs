// The generator's own checks (the compile check of its output lives in
// packages/connector-testkit/test/generator.test.ts, next to the packages it compiles against).
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { generate, placeholders } from "../new-connector.mjs"

const scratch = []
const newRoot = () => {
  const root = mkdtempSync(join(tmpdir(), "shoplink-gen-"))
  scratch.push(root)
  return root
}
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe("new-connector.mjs", () => {
  it("derives every placeholder from the name", () => {
    expect(placeholders("acme-shop-pro")).toEqual({
      __name__: "acme-shop-pro",
      __Name__: "AcmeShopPro",
      __NAME__: "ACME_SHOP_PRO",
      __title__: "Acme Shop Pro"
    })
    expect(placeholders("tekmetric", "Tekmetric").__title__).toBe("Tekmetric")
  })

  it("writes a package the repository's package check accepts, a private app and a changeset", () => {
    const root = newRoot()
    const result = generate({ name: "acme", root })
    expect(result.files.some((f) => f.endsWith(join("adapter-acme", "src", "AcmeConnector.ts")))).toBe(true)
    const check = spawnSync(process.execPath, [join(import.meta.dirname, "../check-packages.mjs")], {
      env: { ...process.env, SHOPLINK_ROOT: root },
      encoding: "utf8"
    })
    expect(check.stderr + check.stdout).toContain("1 publishable package(s) complete")
    expect(check.status).toBe(0)
    expect(readFileSync(join(root, ".changeset/first-release-adapter-acme.md"), "utf8")).toContain(
      "\"@shoplink/adapter-acme\": minor"
    )
  })

  it("generates a sample app on ServiceApp and an adapter reading each shop's key through SmsCredentials.perShop", () => {
    const root = newRoot()
    generate({ name: "acme", root })
    const app = readFileSync(join(root, "apps/acme-sample/src/app.ts"), "utf8")
    expect(app).toContain("ServiceApp.make(connector({ baseUrl }), settings)")
    expect(app).toContain("AcmeConnector.layer.pipe(")
    // No hand wiring of the runtime's pieces.
    for (const file of ["app.ts", "main.ts", "embedded.ts"]) {
      const source = readFileSync(join(root, "apps/acme-sample/src", file), "utf8")
      expect(source).not.toMatch(/WebhookReceiver|InboxWorker|LaunchRegistry|WebhookInbox|PunchoutLauncher/)
      // Shoplink's standard settings are read by ServiceMain from SettingsTable: no variable name in code.
      expect(source).not.toMatch(/Config\.(string|redacted)\("SHOPLINK_|Storage\.config\("/)
    }
    expect(readFileSync(join(root, "apps/acme-sample/src/main.ts"), "utf8")).toContain("ServiceMain.run({")
    const adapter = readFileSync(join(root, "packages/adapter-acme/src/AcmeConnector.ts"), "utf8")
    // One client per shop from its secrets (SmsCredentials.perShop), not the secret read by hand.
    expect(adapter).toMatch(/yield\* SmsCredentials\.perShop\(\{\s*required: \[API_KEY_SECRET\],/)
    expect(adapter).not.toContain(".secret(")
    // Capabilities named, not ALL_CAPABILITIES filtered: one added to the contract is not declared unwritten.
    expect(adapter).not.toMatch(/=\s*ShopSystem\.ALL_CAPABILITIES/)
    expect(adapter).toMatch(/const CAPABILITIES: ReadonlyArray<ShopSystem\.Capability> = \[\s*"readRepairOrder",/)
    expect(readFileSync(join(root, "packages/adapter-acme/src/testing.ts"), "utf8")).toContain(
      "smsSecrets: { [API_KEY_SECRET]: Redacted.make(fake.apiKey) }"
    )
    // The adapter depends on the contract and the transport only.
    const manifest = JSON.parse(readFileSync(join(root, "packages/adapter-acme/package.json"), "utf8"))
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["@shoplink/connector", "@shoplink/http"])
  })

  it("generates a fake of the SMS under ./testing, used by the harness and by the sample's embedded default and demo", () => {
    const root = newRoot()
    generate({ name: "acme", root })
    const manifest = JSON.parse(readFileSync(join(root, "packages/adapter-acme/package.json"), "utf8"))
    expect(manifest.exports["./testing"]).toEqual({ types: "./dist/testing.d.ts", default: "./dist/testing.js" })
    const testing = readFileSync(join(root, "packages/adapter-acme/src/testing.ts"), "utf8")
    expect(testing).toContain("export const startFakeAcme = ")
    expect(testing).toContain("TODO: Acme's routes")
    // The conformance harness is published with the fake; the adapter's test re-exports it.
    expect(testing).toContain("export const conformanceHarness: ConformanceHarness.ConformanceSms<")
    expect(testing).toMatch(/export const conformanceHarness[\s\S]*yield\* startFakeAcme\(\)/)
    expect(readFileSync(join(root, "packages/adapter-acme/test/harness.ts"), "utf8")).toContain(
      "export { conformanceHarness as harness } from \"../src/testing.js\""
    )
    const embedded = readFileSync(join(root, "apps/acme-sample/src/embedded.ts"), "utf8")
    expect(embedded).toContain("from \"@shoplink/adapter-acme/testing\"")
    expect(embedded).toContain("startSandbox()")
    // Without the distributor's or Acme's base URL, main starts the embedded default.
    const main = readFileSync(join(root, "apps/acme-sample/src/main.ts"), "utf8")
    expect(main).toContain("embedded: Effect.map(startEmbedded()")
    expect(readFileSync(join(root, "apps/acme-sample/src/app.ts"), "utf8")).toContain("env: \"ACME_BASE_URL\"")
    const sample = JSON.parse(readFileSync(join(root, "apps/acme-sample/package.json"), "utf8"))
    expect(sample.scripts.demo).toBe("node dist/demo.js")
    expect(sample.scripts.test).toBe("vitest run")
    expect(sample.dependencies).toMatchObject({
      "@shoplink/sandbox": "workspace:*",
      "@shoplink/connector-testkit": "workspace:*",
      "@shoplink/service-pages": "workspace:*"
    })
  })

  it("generates the sample's tests (the service, sign-in, the suite) and a demo for an SMS without part writes", () => {
    const root = newRoot()
    generate({ name: "acme", root })
    const sample = join(root, "apps/acme-sample")
    expect(JSON.parse(readFileSync(join(sample, "package.json"), "utf8")).devDependencies).toMatchObject({
      vitest: "catalog:",
      "@effect/vitest": "catalog:",
      "@shoplink/vitest-config": "workspace:*"
    })
    // Tests are typechecked (tsconfig.json, against the sample's own build project) but not built
    // (tsconfig.build.json); both reference the workspace packages the sample depends on (tsc -b).
    const checked = JSON.parse(readFileSync(join(sample, "tsconfig.json"), "utf8"))
    expect(checked.include).toEqual(["test"])
    expect(checked.references).toContainEqual({ path: "./tsconfig.build.json" })
    expect(checked.references).toContainEqual({ path: "../../packages/adapter-acme/tsconfig.build.json" })
    expect(JSON.parse(readFileSync(join(sample, "tsconfig.build.json"), "utf8")).include).toEqual(["src"])
    expect(existsSync(join(sample, "vitest.config.ts"))).toBe(true)
    const app = readFileSync(join(sample, "test/app.test.ts"), "utf8")
    expect(app).toContain("fetch(`${app.url}/readyz`)")
    expect(app).toContain("expect(list.location).toBe(\"/sign-in?next=%2F\")")
    expect(app).toContain("Effect.dieMessage(`the Acme sample does not start: ${error.message}`)")
    expect(readFileSync(join(sample, "test/conformance.test.ts"), "utf8")).toContain(
      "runConnectorConformance({ connector: AcmeConnector.connector, sms: conformanceHarness })"
    )
    const demo = readFileSync(join(sample, "src/demo.ts"), "utf8")
    expect(demo).toContain("runtime.shopSystem.capabilities.has(\"writeQuotedParts\")")
    expect(demo).toContain("runtime.parts.list({ shopId: shop.id, repairOrderId: ro.id })")
  })

  it("refuses a bad name or an existing target before writing anything", () => {
    const root = newRoot()
    expect(() => generate({ name: "Acme", root })).toThrow(/kebab-case/)
    expect(() => generate({ name: "adapter-acme", root })).toThrow(/without "adapter-"/)
    expect(existsSync(join(root, "packages"))).toBe(false)
    generate({ name: "acme", root })
    expect(() => generate({ name: "acme", root })).toThrow(/already exists/)
  })

  it("runs as a command and exits non-zero with the reason", () => {
    const root = newRoot()
    const script = join(import.meta.dirname, "../new-connector.mjs")
    const ok = spawnSync(process.execPath, [script, "acme", "--root", root], { encoding: "utf8" })
    expect(ok.status).toBe(0)
    expect(ok.stdout).toContain("pnpm --filter @shoplink/adapter-acme test")
    // The sample is named like apps/shopmonkey-sample: `pnpm --filter acme-sample …`.
    expect(ok.stdout).toContain("pnpm --filter acme-sample start")
    expect(JSON.parse(readFileSync(join(root, "apps/acme-sample/package.json"), "utf8")).name).toBe("acme-sample")
    const bad = spawnSync(process.execPath, [script, "Bad_Name", "--root", root], { encoding: "utf8" })
    expect(bad.status).toBe(1)
    expect(bad.stderr).toContain("kebab-case")
  })
})
