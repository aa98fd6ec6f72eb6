// check:api / api:update against scratch workspaces with hand-written dist/*.d.ts.
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { diffLines } from "../api-report.mjs"

const script = join(import.meta.dirname, "..", "api-report.mjs")
const scratch = []
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const manifest = (name, exports, extra = {}) =>
  JSON.stringify({ name, version: "0.0.0", type: "module", exports, ...extra })

const entry = (file) => ({ types: `./dist/${file}.d.ts`, default: `./dist/${file}.js` })

/** A workspace with a contract-like package: an index of namespaces, one of them also a subpath. */
const contract = {
  "packages/alpha/package.json": manifest("@shoplink/alpha", {
    ".": entry("index"),
    "./Money": entry("Money"),
    "./package.json": "./package.json"
  }),
  "packages/alpha/dist/index.d.ts": [
    "/** The index. */",
    "export * as Money from \"./Money.js\";",
    "export * as Shop from \"./Shop.js\";",
    "export { makeShop as make } from \"./Shop.js\";"
  ].join("\n"),
  "packages/alpha/dist/Money.d.ts": [
    "/** Cents from an amount. */",
    "export declare const toCents: (amount: number) => number;",
    "export type Cents = number;"
  ].join("\n"),
  "packages/alpha/dist/Shop.d.ts": [
    "declare const Shop_base: new (args: { readonly id: string }) => { readonly id: string };",
    "export declare class Shop extends Shop_base {",
    "    get label(): string;",
    "}",
    "export declare namespace Shop {",
    "    interface Options {",
    "        readonly pair: readonly [string, number];",
    "    }",
    "    type Id = string;",
    "}",
    "export declare function makeShop(id: string): Shop;",
    "export declare function makeShop(id: string, options: Shop.Options): Shop;",
    "export {};"
  ].join("\n"),
  "packages/private-one/package.json": manifest("@shoplink/private-one", { ".": entry("index") }, { private: true })
}

const workspace = (files) => {
  const root = mkdtempSync(join(tmpdir(), "shoplink-api-"))
  scratch.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  const run = (...args) =>
    spawnSync(process.execPath, [script, ...args], { env: { ...process.env, SHOPLINK_ROOT: root }, encoding: "utf8" })
  return { root, run, report: () => readFileSync(join(root, "packages/alpha/api-report.md"), "utf8") }
}

describe("api-report", () => {
  it("writes each entry point's names with their kind and declaration, counting namespaces' members", () => {
    const ws = workspace(contract)
    const update = ws.run("--update")
    expect(update.stderr).toBe("")
    expect(update.status).toBe(0)
    expect(update.stdout).toContain("packages/alpha/api-report.md: updated")
    expect(existsSync(join(ws.root, "packages/private-one/api-report.md"))).toBe(false)
    const report = ws.report()
    // Money, Shop, make from "."; Money.toCents, Money.Cents; Shop.Shop, Shop.makeShop, Shop.Shop.Options,
    // Shop.Shop.Id: the subpath ./Money is the module Money of "." and counts once.
    expect(report).toContain("Names exported: 9.")
    expect(report).toContain("| `./Money` | `dist/Money.d.ts` |")
    expect(report).toContain("Reached as: entry `./Money`; `Money` of `dist/index.d.ts`.")
    expect(report).toContain("// Money: module namespace, see dist/Money.d.ts")
    expect(report).toContain("// make: function (declared as makeShop)\nfunction makeShop(id: string): Shop\n")
    expect(report).toContain("// Cents: type\ntype Cents = number\n")
    expect(report).toContain("// toCents: const\nconst toCents: (amount: number) => number\n")
    expect(report).toContain(
      "// Shop: class + namespace\n// not exported, named here: Shop_base\nconst Shop_base: new (args: {"
    )
    expect(report).toContain(
      "// Shop.Options: interface\ninterface Options {\n    readonly pair: readonly [string, number];"
    )
    expect(report).not.toContain("The index")
    expect(report).not.toContain("prototype")
    expect(ws.run().status).toBe(0)
  })

  it("fails with a diff when a report is stale, and when one belongs to no published package", () => {
    const ws = workspace(contract)
    ws.run("--update")
    writeFileSync(
      join(ws.root, "packages/alpha/dist/Money.d.ts"),
      "export declare const toCents: (amount: string) => number;\nexport type Cents = number;\n"
    )
    writeFileSync(join(ws.root, "packages/private-one/api-report.md"), "old\n")
    const check = ws.run()
    expect(check.status).toBe(1)
    expect(check.stderr).toContain("packages/alpha/api-report.md is stale: run `pnpm api:update`")
    expect(check.stderr).toContain(
      "-const toCents: (amount: number) => number\n+const toCents: (amount: string) => number"
    )
    expect(check.stderr).toContain("packages/private-one/api-report.md belongs to no published package")
    expect(ws.run("--update").status).toBe(0)
    expect(existsSync(join(ws.root, "packages/private-one/api-report.md"))).toBe(false)
    expect(ws.run().status).toBe(0)
  })

  it("fails when the contract package exports more than 40 names, and when dist is not built", () => {
    const many = Array.from({ length: 41 }, (_, i) => `export declare const name${i}: ${i};`).join("\n")
    const ws = workspace({
      "packages/connector/package.json": manifest("@shoplink/connector", { ".": entry("index") }),
      "packages/connector/dist/index.d.ts": many,
      "packages/beta/package.json": manifest("@shoplink/beta", { ".": entry("index") })
    })
    const result = ws.run("--update")
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("@shoplink/connector exports 41 names, more than its limit of 40")
    expect(result.stderr).toContain("@shoplink/beta: packages/beta/dist/index.d.ts not built: run `pnpm build` first")
  })

  it("writes an inferred type the same whatever order tsc met its members and union members in", () => {
    const reportOf = (dts) => {
      const ws = workspace({ ...contract, "packages/alpha/dist/Money.d.ts": dts })
      expect(ws.run("--update").status).toBe(0)
      return ws.report()
    }
    const clean = reportOf("export declare const rates: { readonly b: 1 | \"x\"; readonly a: string | number };\n")
    const incremental = reportOf(
      "export declare const rates: { readonly a: number | string; readonly b: \"x\" | 1 };\n"
    )
    expect(incremental).toBe(clean)
    expect(clean).toContain("readonly a: number | string;")
  })

  it("diffs lines with context", () => {
    expect(diffLines("a\nb\nc", "a\nb\nc")).toBe("")
    expect(diffLines("1\n2\n3\n4\n5\n6\n7\n8", "1\n2\n3\n4\nfive\n6\n7\n8", "old", "new")).toBe(
      ["--- old", "+++ new", "@@ -2,7 +2,7 @@", " 2", " 3", " 4", "-5", "+five", " 6", " 7", " 8"].join("\n")
    )
  })
})
