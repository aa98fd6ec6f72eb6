// `pnpm new:connector` (tooling/scripts/new-connector.mjs): generates into a scratch repository,
// then checks the files and names, that the adapter and the sample app compile against the real
// workspace packages, and that the generated connector fails the suite saying what is left.
import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { afterAll, beforeAll } from "vitest"

const testkit = resolve(import.meta.dirname, "..")
const repo = resolve(testkit, "../..")
const script = join(repo, "tooling/scripts/new-connector.mjs")
const tsc = join(testkit, "node_modules/typescript/bin/tsc")

let root = ""
const generate = (...args: Array<string>) =>
  execFileSync(process.execPath, [script, ...args, "--root", root], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })

// What `pnpm install` would link: each dependency of a generated package, from the workspace.
const linkDependencies = (packageDir: string) => {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"))
  for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
    const source = dep === "@shoplink/connector-testkit"
      ? testkit
      : dep.startsWith("@shoplink/adapter-")
      ? join(root, "packages", dep.slice("@shoplink/".length))
      : [join(testkit, "node_modules", dep), join(repo, "node_modules", dep)].find((p) => existsSync(p))
    if (source === undefined) throw new Error(`cannot link ${dep} for ${packageDir}`)
    const target = join(packageDir, "node_modules", dep)
    mkdirSync(dirname(target), { recursive: true })
    symlinkSync(realpathSync(source), target, "dir")
  }
}

const compile = (project: string) => {
  try {
    execFileSync(process.execPath, [tsc, "-p", project], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
    return ""
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error)
  }
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "shoplink-new-connector-"))
  // The generated tsconfigs extend the repository's shared bases.
  mkdirSync(join(root, "tooling"))
  symlinkSync(join(repo, "tooling/tsconfig"), join(root, "tooling/tsconfig"), "dir")
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe("new:connector", () => {
  it("generates the adapter, the sample app and a changeset with the names filled in", () => {
    const output = generate("acme-shop", "--title", "Acme Shop Pro")
    expect(output).toContain("packages/adapter-acme-shop")

    const adapter = join(root, "packages/adapter-acme-shop")
    const manifest = JSON.parse(readFileSync(join(adapter, "package.json"), "utf8"))
    expect(manifest).toMatchObject({
      name: "@shoplink/adapter-acme-shop",
      version: "0.0.0",
      repository: { directory: "packages/adapter-acme-shop" },
      exports: { ".": { types: "./dist/index.d.ts" } }
    })
    expect(existsSync(join(adapter, "src/AcmeShopConnector.ts"))).toBe(true)
    const source = readFileSync(join(adapter, "src/AcmeShopConnector.ts"), "utf8")
    expect(source).toContain("id: \"acme-shop\"")
    expect(source).toContain("name: \"Acme Shop Pro\"")
    expect(source).toContain("class AcmeShopConfig")
    expect(readFileSync(join(adapter, "test/conformance.test.ts"), "utf8")).toContain("runConnectorConformance(")

    const sample = JSON.parse(readFileSync(join(root, "apps/acme-shop-sample/package.json"), "utf8"))
    expect(sample).toMatchObject({ name: "acme-shop-sample", private: true, version: "0.0.0" })
    // The sample app is ConnectorRuntime, not hand wiring; the adapter reads each shop's key through SmsCredentials.
    const main = readFileSync(join(root, "apps/acme-shop-sample/src/main.ts"), "utf8")
    expect(main).toContain("ConnectorRuntime.layerConfig(")
    expect(main).toContain("ACME_SHOP_BASE_URL")
    expect(main).not.toMatch(/WebhookReceiver|InboxWorker|LaunchRegistry/)
    expect(source).toContain("credentials.secret(shopId, API_KEY_SECRET)")
    expect(readFileSync(join(adapter, "test/harness.ts"), "utf8")).toContain("smsSecrets:")

    const changeset = readFileSync(join(root, ".changeset/adapter-acme-shop-initial.md"), "utf8")
    expect(changeset).toMatch(/^---\n"@shoplink\/adapter-acme-shop": minor\n---\n\n\S/)

    // No placeholder is left anywhere.
    const leftovers = [join(root, "packages"), join(root, "apps"), join(root, ".changeset")]
      .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: "utf8" }).map((f) => join(dir, f)))
      .filter((f) => statSync(f).isFile() && (/__[A-Za-z]+__/.test(f) || /__[A-Za-z]+__/.test(readFileSync(f, "utf8"))))
    expect(leftovers).toEqual([])
  })

  it("refuses bad names and existing targets, writing nothing", () => {
    for (const bad of ["AcmeShop", "acme_shop", "-acme", "adapter-acme"]) {
      expect(() => generate(bad)).toThrow()
    }
    expect(existsSync(join(root, "packages/adapter-AcmeShop"))).toBe(false)
    expect(() => generate("acme-shop")).toThrow(/already exists/)
  })

  it("generates TypeScript that compiles against the workspace packages (adapter, its tests, the sample)", () => {
    const adapter = join(root, "packages/adapter-acme-shop")
    linkDependencies(adapter)
    expect(compile(join(adapter, "tsconfig.json"))).toBe("")
    expect(compile(join(adapter, "tsconfig.build.json"))).toBe("")
    const sample = join(root, "apps/acme-shop-sample")
    linkDependencies(sample)
    expect(compile(join(sample, "tsconfig.json"))).toBe("")

    // Once every operation is written, nothing of the template is left unused (no local
    // `notImplemented` for noUnusedLocals to refuse).
    const source = join(adapter, "src/AcmeShopConnector.ts")
    const todo = readFileSync(source, "utf8")
    const done = todo.replace(/ShopSystem\.notImplemented\(\s*"(\w+)",\s*"[^"]*"\s*\)/g, (_, operation: string) =>
      operation === "loadRepairOrder"
        ? "Effect.succeed({ id: \"ro_1\", number: \"1042\", vehicle: {} })"
        : "Effect.succeed({ added: 0, alreadyPresent: 0 })")
    expect(done).not.toContain("notImplemented")
    writeFileSync(source, done)
    try {
      expect(compile(join(adapter, "tsconfig.json"))).toBe("")
    } finally {
      writeFileSync(source, todo)
    }
  }, 240_000)
})
