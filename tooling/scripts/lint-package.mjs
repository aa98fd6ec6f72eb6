#!/usr/bin/env node
// Package hygiene for one publishable package (run from its folder by `pnpm lint`):
//   1. publint on the package folder (exports, files, types-first conditions);
//   2. every public export has a JSDoc @example (check-jsdoc.mjs);
//   3. @arethetypeswrong/cli on the tarball `pnpm pack` makes, so what is checked is what
//      npm would publish (`workspace:` and `catalog:` ranges rewritten), with the ESM-only profile.
// Exits non-zero on any error-level finding.
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { publint } from "publint"
import { formatMessage } from "publint/utils"

const dir = resolve(process.argv[2] ?? process.cwd())
const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
if (pkg.private) {
  console.log(`${pkg.name}: private, not linted`)
  process.exit(0)
}

let failed = false
const { messages } = await publint({ pkgDir: dir, level: "suggestion", strict: true })
for (const message of messages) {
  const text = formatMessage(message, pkg) ?? message.code
  console.log(`publint ${message.type}: ${text}`)
  if (message.type === "error" || message.type === "warning") failed = true
}

try {
  execFileSync(process.execPath, [join(import.meta.dirname, "check-jsdoc.mjs"), dir], { stdio: "inherit" })
} catch {
  failed = true
}

const out = mkdtempSync(join(tmpdir(), "shoplink-attw-"))
try {
  execFileSync("pnpm", ["pack", "--pack-destination", out], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] })
  const tarball = readdirSync(out).find((f) => f.endsWith(".tgz"))
  if (!tarball) throw new Error("pnpm pack produced no tarball")
  const attw = resolve(import.meta.dirname, "../../node_modules/.bin/attw")
  const args = [join(out, tarball), "--profile", "esm-only", "--no-color"]
  // Quiet when clean (its table is mostly "ignored" CommonJS columns); the table only on a finding.
  try {
    execFileSync(attw, [...args, "--quiet"], { stdio: "ignore" })
  } catch {
    execFileSync(attw, [...args, "--format", "table-flipped"], { stdio: "inherit" })
    throw new Error("attw found a problem (table above)")
  }
} catch (error) {
  failed = true
  console.error(`attw: ${error.message.split("\n")[0]}`)
} finally {
  rmSync(out, { recursive: true, force: true })
}

if (failed) {
  console.error(`${pkg.name}: package lint failed`)
  process.exit(1)
}
console.log(`${pkg.name}: publint and attw clean`)
