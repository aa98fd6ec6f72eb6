// check-jsdoc must name every public export that lacks an @example, through namespace re-exports.
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, expect, it } from "vitest"

const scratch = []
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const fixture = (files) => {
  const dir = mkdtempSync(join(tmpdir(), "shoplink-jsdoc-"))
  scratch.push(dir)
  mkdirSync(join(dir, "src"))
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name: "@shoplink/fixture",
      type: "module",
      exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } }
    })
  )
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, "src", name), text)
  return dir
}

const check = (dir) =>
  spawnSync(process.execPath, [join(import.meta.dirname, "..", "check-jsdoc.mjs"), dir], { encoding: "utf8" })

it("passes when every export, including merged type/value pairs, has an example", () => {
  const dir = fixture({
    "index.ts": "export * as Money from \"./Money.js\"\n",
    "Money.ts": [
      "/**\n * Cents.\n * @example\n * const c: Cents = 1\n */",
      "export const Cents = 1",
      "/** @since 0.1.0 */",
      "export type Cents = number",
      ""
    ].join("\n")
  })
  const result = check(dir)
  expect(result.stderr).toBe("")
  expect(result.status).toBe(0)
})

it("names each export without an example, with its namespace and location", () => {
  const dir = fixture({
    "index.ts": "export * as Money from \"./Money.js\"\nexport { toCents } from \"./Money.js\"\n",
    "Money.ts":
      "/** Converts. */\nexport const toCents = (n: number) => Math.round(n * 100)\nexport interface Price { readonly cents: number }\n"
  })
  const result = check(dir)
  expect(result.status).toBe(1)
  expect(result.stderr).toContain("Money.toCents (src/Money.ts:2)")
  expect(result.stderr).toContain("Money.Price (src/Money.ts:3)")
})
