// `pnpm new:connector` (tooling/scripts/new-connector.mjs): generates into a scratch repository,
// then checks the files and names, that the adapter, the sample app and their tests compile against
// the real workspace packages, and that the sample's tests, as generated, fail saying what is left.
// Then a connector generated and filled in from a fixture (Gearbox, a made-up SMS:
// test/fixtures/generated) is certified by its conformance suite, its sample's tests pass (the
// service on the embedded default, sign-in required, the suite against the fake), its sample starts
// with no configuration on the embedded default and answers /readyz, and its demo runs to the end,
// showing the quoted lines on the fake's repair order and, for an adapter without part-line
// writes, from the runtime's parts ledger.
import { describe, expect, it } from "@effect/vitest"
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process"
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { afterAll, beforeAll } from "vitest"

const testkit = resolve(import.meta.dirname, "..")
const repo = resolve(testkit, "../..")
const script = join(repo, "tooling/scripts/new-connector.mjs")
const tsc = join(testkit, "node_modules/typescript/bin/tsc")

let root = ""
const generate = (...args: Array<string>) =>
  execFileSync(process.execPath, [script, ...args, "--root", root], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"]
  })

// What `pnpm install` would link: each dependency of a generated package, from the workspace.
const linkDependencies = (packageDir: string) => {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"))
  for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
    const source = dep.startsWith("@shoplink/adapter-")
      ? join(root, "packages", dep.slice("@shoplink/".length))
      : [
        ...(dep.startsWith("@shoplink/") ? [join(repo, "packages", dep.slice("@shoplink/".length))] : []),
        join(testkit, "node_modules", dep),
        join(repo, "node_modules", dep)
      ].find((p) => existsSync(p))
    if (source === undefined) throw new Error(`cannot link ${dep} for ${packageDir}`)
    const target = join(packageDir, "node_modules", dep)
    mkdirSync(dirname(target), { recursive: true })
    symlinkSync(realpathSync(source), target, "dir")
  }
}

// `tsc -b`, as the generated scripts and `pnpm typecheck` do: a project with its references (the
// tests' tsconfig.json checks against its own build project's .d.ts, built first). Asynchronous: a
// synchronous tsc run blocks vitest's worker long enough, on a busy machine, for its report to the
// main process to time out.
const compile = (project: string): Promise<string> =>
  new Promise((resolve) => {
    execFile(process.execPath, [tsc, "-b", project], { encoding: "utf8" }, (error, stdout) => {
      resolve(error === null ? "" : String(stdout || error))
    })
  })

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "shoplink-new-connector-"))
  // The generated tsconfigs extend the repository's shared bases, and reference the workspace
  // packages' build projects (built by \`pnpm build:ts\`, so \`tsc -b\` finds them up to date): each
  // package of the repository beside the generated ones, as in the repository.
  mkdirSync(join(root, "tooling"))
  symlinkSync(join(repo, "tooling/tsconfig"), join(root, "tooling/tsconfig"), "dir")
  mkdirSync(join(root, "packages"))
  for (const name of readdirSync(join(repo, "packages"))) {
    symlinkSync(join(repo, "packages", name), join(root, "packages", name), "dir")
  }
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
    // The sample app is ServiceApp, not hand wiring; the adapter reads each shop's key through SmsCredentials.
    const service = readFileSync(join(root, "apps/acme-shop-sample/src/app.ts"), "utf8")
    expect(service).toContain("ServiceApp.make(")
    expect(service).toContain("ACME_SHOP_BASE_URL")
    expect(readFileSync(join(root, "apps/acme-shop-sample/src/main.ts"), "utf8")).toContain("ServiceMain.run(")
    expect(service).not.toMatch(/WebhookReceiver|InboxWorker|LaunchRegistry/)
    expect(sample.scripts).toMatchObject({ start: "node dist/main.js", demo: "node dist/demo.js" })
    // The fake is the adapter's `./testing` entry point, which the sample's embedded default imports.
    expect(manifest.exports["./testing"]).toEqual({ types: "./dist/testing.d.ts", default: "./dist/testing.js" })
    expect(readFileSync(join(root, "apps/acme-shop-sample/src/embedded.ts"), "utf8")).toContain("startFakeAcmeShop()")
    // Each shop's key through SmsCredentials.perShop (one client per shop, rebuilt when the key
    // changes), never read by hand on each call; the layer needs an HttpClient (ServiceApp gives one).
    expect(source).toMatch(/yield\* SmsCredentials\.perShop\(\{\s*required: \[API_KEY_SECRET\],/)
    expect(source).not.toMatch(/\.secret\(|yield\* SmsCredentials\.SmsCredentials/)
    expect(source).toContain("AcmeShopConfig | HttpClient.HttpClient | SmsCredentials.SmsCredentials")
    // The conformance harness is published with the fake (`/testing`): the sample's tests run it too.
    const testing = readFileSync(join(adapter, "src/testing.ts"), "utf8")
    expect(testing).toContain("export const conformanceHarness: ConformanceHarness.ConformanceSms<")
    expect(testing).toContain("smsSecrets: { [API_KEY_SECRET]: Redacted.make(fake.apiKey) }")
    expect(readFileSync(join(adapter, "test/harness.ts"), "utf8")).toContain(
      "export { conformanceHarness as harness } from \"../src/testing.js\""
    )

    // The sample has tests: the service on the embedded default (/readyz, sign-in required, the
    // list, Order parts) and the conformance suite against the fake.
    expect(sample.scripts).toMatchObject({ build: "tsc -b tsconfig.build.json", test: "vitest run" })
    expect(sample.devDependencies).toMatchObject({ vitest: "catalog:", "@effect/vitest": "catalog:" })
    const appTest = readFileSync(join(root, "apps/acme-shop-sample/test/app.test.ts"), "utf8")
    expect(appTest).toContain("fetch(`${app.url}/readyz`)")
    expect(appTest).toContain("expect(list.location).toBe(\"/sign-in?next=%2F\")")
    expect(readFileSync(join(root, "apps/acme-shop-sample/test/conformance.test.ts"), "utf8")).toContain(
      "runConnectorConformance({ connector: AcmeShopConnector.connector, sms: conformanceHarness })"
    )
    // The demo does not assume the SMS takes part lines: without writeQuotedParts, the runtime's ledger.
    const demo = readFileSync(join(root, "apps/acme-shop-sample/src/demo.ts"), "utf8")
    expect(demo).toContain("const writesLines = runtime.shopSystem.capabilities.has(\"writeQuotedParts\")")
    expect(demo).toContain("runtime.parts.list({ shopId: shop.id, repairOrderId: ro.id })")

    const changeset = readFileSync(join(root, ".changeset/first-release-adapter-acme-shop.md"), "utf8")
    expect(changeset).toMatch(/^---\n"@shoplink\/adapter-acme-shop": minor\n---\n\n\S/)

    // No placeholder is left anywhere.
    const leftovers = [join(root, "packages/adapter-acme-shop"), join(root, "apps"), join(root, ".changeset")]
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

  it("generates TypeScript that compiles against the workspace packages (adapter, its tests, the sample)", async () => {
    const adapter = join(root, "packages/adapter-acme-shop")
    linkDependencies(adapter)
    expect(await compile(join(adapter, "tsconfig.json"))).toBe("")
    expect(await compile(join(adapter, "tsconfig.build.json"))).toBe("")
    const sample = join(root, "apps/acme-shop-sample")
    linkDependencies(sample)
    // The sample's src and test.
    expect(await compile(join(sample, "tsconfig.json"))).toBe("")

    // Once every operation is written, nothing of the template is left unused (no local
    // `notImplemented` for noUnusedLocals to refuse).
    const source = join(adapter, "src/AcmeShopConnector.ts")
    const todo = readFileSync(source, "utf8")
    const done = todo.replace(
      /ShopSystem\.notImplemented\(\s*"(\w+)",\s*"[^"]*"\s*\)/g,
      (_, operation: string) =>
        operation === "loadRepairOrder"
          ? "Effect.succeed({ id: \"ro_1\", number: \"1042\", vehicle: {} })"
          : "Effect.succeed({ added: 0, alreadyPresent: 0 })"
    )
    expect(done).not.toContain("notImplemented")
    writeFileSync(source, done)
    try {
      expect(await compile(join(adapter, "tsconfig.json"))).toBe("")
    } finally {
      // tsc -b built dist/ from the finished source: back to the template's, which the next test runs.
      writeFileSync(source, todo)
      expect(await compile(join(adapter, "tsconfig.build.json"))).toBe("")
    }
  }, 240_000)

  it("as generated, the sample's tests fail saying what is left (listRepairOrders, not implemented)", async () => {
    // The adapter's dist/ (the sample imports it) is the unfinished template's, from the build above.
    const sample = join(root, "apps/acme-shop-sample")
    const tests = run([join(sample, "node_modules/vitest/vitest.mjs"), "run"], {
      cwd: sample,
      tmp: mkdtempSync(join(root, "tmp-")),
      timeoutMs: 200_000
    })
    const code = await tests.exited
    const output = tests.output()
    expect(code, output).toBe(1)
    expect(output).toContain(
      "the Acme Shop Pro sample does not start: the Acme Shop Pro connector cannot list repair orders (capability listRepairOrders)"
    )
    expect(output).toContain("Acme Shop Pro (acme-shop), contract v1: NOT certified")
    expect(output).toMatch(/loadRepairOrder failed: not implemented: fetch the repair order from Acme Shop Pro/)
  }, 240_000)
})

// A node process of the generated code, with Shoplink's and Gearbox's settings taken out of the
// environment (the sample must start without them) and its temporary files under `tmp`.
const children = new Set<ChildProcess>()
afterAll(() => {
  for (const child of children) child.kill("SIGKILL")
})
const run = (
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly tmp: string; readonly timeoutMs: number }
) => {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(SHOPLINK_|GEARBOX_|OTEL_|PORT$|HOST$)/.test(name))
  )
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...env, PORT: "0", TMPDIR: options.tmp, NO_COLOR: "1", FORCE_COLOR: "0" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.add(child)
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs)
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      clearTimeout(timer)
      children.delete(child)
      resolve(code)
    })
  )
  return { child, exited, output: () => output }
}

const waitFor = async <A>(what: string, timeoutMs: number, probe: () => Promise<A | undefined>): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

describe("a generated connector filled in from the fixture (Gearbox, a made-up SMS)", () => {
  const fixture = join(testkit, "test/fixtures/generated")
  let adapter = ""
  let sample = ""
  const scratchTmp = () => mkdtempSync(join(root, "tmp-"))

  it("builds with the fixture's adapter and fake written where the TODOs were", async () => {
    generate("gearbox")
    adapter = join(root, "packages/adapter-gearbox")
    sample = join(root, "apps/gearbox-sample")
    // The fixture's files end in .txt so that the testkit's own typecheck leaves them alone.
    const files = readdirSync(fixture, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts.txt"))
      .sort()
    // The generated harness (test/harness.ts, the `conformanceHarness` of src/testing.ts) fits as it is.
    expect(files).toEqual([join("src", "GearboxConnector.ts.txt"), join("src", "testing.ts.txt")])
    for (const file of files) copyFileSync(join(fixture, file), join(adapter, file.slice(0, -".txt".length)))
    // The worked example reads each shop's key the way the template does.
    const filled = readFileSync(join(adapter, "src/GearboxConnector.ts"), "utf8")
    expect(filled).toContain("yield* SmsCredentials.perShop({")
    expect(filled).not.toContain(".secret(")
    linkDependencies(adapter)
    linkDependencies(sample)
    // dist/ of the adapter (the sample imports it) and of the sample: one tsc run each, to keep
    // the cost down (the suite's run below would fail on a harness that does not fit).
    expect(await compile(join(adapter, "tsconfig.build.json"))).toBe("")
    expect(await compile(join(sample, "tsconfig.build.json"))).toBe("")
  }, 240_000)

  it("is certified by its conformance suite", async () => {
    const suite = run([join(adapter, "node_modules/vitest/vitest.mjs"), "run"], {
      cwd: adapter,
      tmp: scratchTmp(),
      timeoutMs: 200_000
    })
    const code = await suite.exited
    const output = suite.output()
    expect(output).toContain("Gearbox (gearbox), contract v1: certified")
    expect(output).toMatch(/ {2}(\d+) of \1 checks passed, 0 failed, 0 skipped/)
    expect(code, output).toBe(0)
  }, 240_000)

  it("passes its sample's tests: the service, sign-in required, the suite against the fake", async () => {
    const tests = run([join(sample, "node_modules/vitest/vitest.mjs"), "run"], {
      cwd: sample,
      tmp: scratchTmp(),
      timeoutMs: 200_000
    })
    const code = await tests.exited
    const output = tests.output()
    expect(code, output).toBe(0)
    expect(output).toMatch(/✓ test\/app\.test\.ts \(3 tests\)/)
    expect(output).toContain("Gearbox (gearbox), contract v1: certified")
  }, 240_000)

  it("starts its sample with no configuration on the embedded default: /readyz 200, then stops cleanly", async () => {
    const tmp = scratchTmp()
    const service = run([join(sample, "dist/main.js")], { cwd: sample, tmp, timeoutMs: 200_000 })
    const url = await waitFor("the sample's address", 120_000, async () => {
      if (service.child.exitCode !== null) {
        throw new Error(`the sample exited with ${service.child.exitCode}:\n${service.output()}`)
      }
      return /Gearbox sample is running\. Open (http:\/\/127\.0\.0\.1:\d+)/.exec(service.output())?.[1]
    })
    const output = service.output()
    expect(output).toContain("Embedded default (no SHOPLINK_PUNCHOUT_BASE_URL or GEARBOX_BASE_URL set)")
    expect(output).toMatch(/distributor sandbox\s+http:\/\/127\.0\.0\.1:\d+/)
    expect(output).toMatch(/fake Gearbox\s+http:\/\/127\.0\.0\.1:\d+/)
    expect(output).not.toMatch(/ConfigError|Missing data/)
    const ready = await fetch(`${url}/readyz`)
    expect(ready.status).toBe(200)

    // Sign in as the user the banner printed; Order parts on the first repair order: the catalog for its vehicle.
    const [, email, password] = /Sign in as (\S+), password (\S+) /.exec(output) ?? []
    const form = await fetch(`${url}/sign-in`)
    const cookie = (response: Response) => response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ")
    const csrfOf = async (response: Response) => /name="csrf" value="([^"]*)"/.exec(await response.text())?.[1] ?? ""
    const post = (path: string, cookies: string, fields: Record<string, string>) =>
      fetch(`${url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: cookies, origin: url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields)
      })
    const signedIn = await post("/sign-in", cookie(form), {
      csrf: await csrfOf(form),
      email: email ?? "",
      password: password ?? "",
      next: "/"
    })
    expect(signedIn.status).toBe(303)
    const list = await fetch(`${url}/`, { headers: { cookie: cookie(signedIn) } })
    const listed = await list.text()
    expect(listed).toContain("data-ro=\"1042\"")
    const launch = await post("/ro/1/order-parts", cookie(signedIn), {
      csrf: /name="csrf" value="([^"]*)"/.exec(listed)?.[1] ?? ""
    })
    expect(launch.status).toBe(303)
    expect(launch.headers.get("location")).toContain("vin=")

    service.child.kill("SIGTERM")
    expect(await service.exited, service.output()).toBe(0)
    // Its scratch database is gone with it.
    expect(readdirSync(tmp)).toEqual([])
  }, 240_000)

  it("runs its demo to the end: a launch, a quote from the sandbox, the lines on the fake's repair order", async () => {
    const tmp = scratchTmp()
    const demo = run([join(sample, "dist/demo.js")], { cwd: sample, tmp, timeoutMs: 200_000 })
    const code = await demo.exited
    const transcript = demo.output()
    expect(code, transcript).toBe(0)
    expect(transcript).toContain("the adapter declares: readRepairOrder, listRepairOrders, writeQuotedParts,")
    expect(transcript).toContain("[2/3] Launch: Demo Auto orders parts for repair order 1042")
    expect(transcript).toMatch(/the catalog opens at http:\/\/127\.0\.0\.1:\d+\/\S*token=<redacted>/)
    expect(transcript).toContain("on repair order 1042 in Gearbox:")
    expect(transcript).toMatch(/ {2}quoted: 2 × \S+ \S+ .+ {2}cost \$\d+\.\d\d {2}list \$\d+\.\d\d/)
    expect(transcript).toMatch(/\nDone in \d+\.\d s\./)
    expect(readdirSync(tmp)).toEqual([])
  }, 240_000)

  it("runs its demo for an adapter without part-line writes: the quote from the runtime's parts ledger", async () => {
    // The same adapter declaring no part-line write (what most SMS APIs allow), in its built code.
    const built = join(adapter, "dist/GearboxConnector.js")
    const original = readFileSync(built, "utf8")
    const declared = /const CAPABILITIES = (\[[^\]]*"writeQuotedParts"[^\]]*\]);/
    expect(original).toMatch(declared)
    writeFileSync(
      built,
      original.replace(
        declared,
        "const CAPABILITIES = $1.filter((c) => c !== \"writeQuotedParts\" && c !== \"writeOrderedParts\");"
      )
    )
    try {
      const tmp = scratchTmp()
      const demo = run([join(sample, "dist/demo.js")], { cwd: sample, tmp, timeoutMs: 200_000 })
      const code = await demo.exited
      const transcript = demo.output()
      expect(code, transcript).toBe(0)
      expect(transcript).toContain("(no part-line writes: the runtime's parts ledger keeps them)")
      expect(transcript).toContain("kept with repair order 1042 by the runtime")
      expect(transcript).not.toContain("in Gearbox:")
      expect(transcript).toMatch(/ {2}quoted: 2 × \S+ \S+ .+ {2}cost \$\d+\.\d\d {2}list \$\d+\.\d\d/)
      expect(transcript).toMatch(/\nDone in \d+\.\d s\./)
      expect(readdirSync(tmp)).toEqual([])
    } finally {
      writeFileSync(built, original)
    }
  }, 240_000)
})
