#!/usr/bin/env node
// Package hygiene for the publishable packages (`pnpm lint:packages`, part of `pnpm test`), all in
// one process:
//   1. `pnpm pack` (one recursive run for all of them), so that what is checked is what npm would
//      publish (`workspace:` and `catalog:` ranges rewritten);
//   2. publint on each tarball (exports, files, types-first conditions);
//   3. every public export has a JSDoc @example (check-jsdoc.mjs, one program for all packages);
//   4. @arethetypeswrong/cli's analysis of each tarball with the ESM-only profile, in process
//      (the CLI's table is printed only on a finding).
// Exits non-zero on any error-level finding.
// Usage: node tooling/scripts/lint-package.mjs [packageDir ...]
//   (default: the package in the current folder, or every publishable package from the root)
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { publint } from "publint"
import { formatMessage } from "publint/utils"
import { examplesProgram, missingExamples } from "./check-jsdoc.mjs"
import { publishablePackages, root } from "./workspace.mjs"

const requested = process.argv.slice(2).map((dir) => resolve(dir))
const dirs = requested.length > 0
  ? requested
  : resolve(process.cwd()) !== root && existsSync(join(process.cwd(), "package.json"))
  ? [resolve(process.cwd())]
  : publishablePackages().map((p) => p.dir)
const packages = dirs
  .map((dir) => ({ dir, json: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
  .filter((pkg) => {
    if (pkg.json.private) console.log(`${pkg.json.name}: private, not linted`)
    return !pkg.json.private
  })
if (packages.length === 0) process.exit(0)

// attw's engine, as its CLI runs it (dist/index.js): checkPackage on the tarball's contents, and
// the CLI's own exit-code rule with the esm-only profile's ignored resolutions.
const requireFromRoot = createRequire(join(root, "package.json"))
const attwCli = requireFromRoot.resolve("@arethetypeswrong/cli/package.json")
const attwCore = await import(pathToFileURL(createRequire(attwCli).resolve("@arethetypeswrong/core")).href)
const { getExitCode } = await import("@arethetypeswrong/cli/internal/getExitCode")
const ESM_ONLY = { ignoreResolutions: ["node10", "node16-cjs"] }
const attwBin = resolve(root, "node_modules/.bin/attw")
const attwCliPasses = (dir, tarball) => {
  try {
    execFileSync(attwBin, [tarball, "--profile", "esm-only", "--no-color", "--quiet"], { cwd: dir, stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

const failed = new Set()
const fail = (pkg, message) => {
  if (message !== undefined) console.error(`${pkg.json.name}: ${message}`)
  failed.add(pkg.json.name)
}

const out = mkdtempSync(join(tmpdir(), "shoplink-pack-"))
try {
  // One `pnpm pack` for all; its JSON names each package's tarball.
  const packed = JSON.parse(
    execFileSync(
      "pnpm",
      [
        "--recursive",
        ...packages.flatMap((p) => ["--filter", p.json.name]),
        "pack",
        "--pack-destination",
        out,
        "--json"
      ],
      { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }
    )
  )
  const tarballs = new Map([packed].flat().map((entry) => [entry.name, entry.filename]))

  const program = examplesProgram(packages.map((p) => p.dir))

  for (const pkg of packages) {
    const tarball = tarballs.get(pkg.json.name)
    if (tarball === undefined || !existsSync(tarball)) {
      fail(pkg, "pnpm pack produced no tarball")
      continue
    }
    const data = new Uint8Array(readFileSync(tarball))

    const { messages, pkg: packedJson } = await publint({
      pack: { tarball: data.slice().buffer },
      level: "suggestion",
      strict: true
    })
    for (const message of messages) {
      console.log(`publint ${message.type}: ${formatMessage(message, packedJson) ?? message.code}`)
      if (message.type === "error" || message.type === "warning") fail(pkg)
    }

    const { checked, missing } = missingExamples(program, pkg.dir)
    if (missing.length > 0) {
      fail(pkg, `${missing.length} public export(s) without a JSDoc @example:\n- ${missing.join("\n- ")}`)
    } else {
      console.log(`${pkg.json.name}: every public export has a JSDoc @example (${checked} checked)`)
    }

    try {
      // A package's own .attw.json is read by the CLI only: such a package goes through the CLI.
      const clean = existsSync(join(pkg.dir, ".attw.json"))
        ? attwCliPasses(pkg.dir, tarball)
        : getExitCode(await attwCore.checkPackage(attwCore.createPackageFromTarballData(data)), ESM_ONLY) === 0
      if (!clean) {
        // Quiet when clean (its table is mostly "ignored" CommonJS columns); the table only on a finding.
        execFileSync(attwBin, [tarball, "--profile", "esm-only", "--no-color", "--format", "table-flipped"], {
          cwd: pkg.dir,
          stdio: "inherit"
        })
        throw new Error("attw found a problem (table above)")
      }
    } catch (error) {
      fail(pkg, `attw: ${error.message.split("\n")[0]}`)
    }

    if (failed.has(pkg.json.name)) console.error(`${pkg.json.name}: package lint failed`)
    else console.log(`${pkg.json.name}: publint and attw clean`)
  }
} finally {
  rmSync(out, { recursive: true, force: true })
}

if (failed.size > 0) {
  console.error(`package lint failed: ${[...failed].join(", ")}`)
  process.exit(1)
}
console.log(`${packages.length} package(s): publint, JSDoc examples and attw clean`)
