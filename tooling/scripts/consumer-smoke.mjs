#!/usr/bin/env node
// Consumer smoke test (`pnpm test:consumer`): what we publish must work outside this workspace.
//   1. `pnpm pack` every publishable package (packages/*, not private) — the tarballs npm would get;
//   2. the packed manifests carry no `workspace:`/`catalog:` range; a fresh project in the OS temp
//      dir runs the packages' README install lines with plain `npm install` (the tarballs in place
//      of the `@shoplink/*` names, the Effect ranges exactly as the READMEs pin them);
//   3. every import in the installed dist (.js and .d.ts) must be a builtin, the package itself, or
//      listed in its dependencies/peerDependencies (a dependency left in devDependencies fails here,
//      even though npm's flat tree would hide it at run time);
//   4. a strict TypeScript consumer importing every public entry point (from each `exports`) is
//      type-checked with module/moduleResolution nodenext, then with esnext/bundler;
//   5. plain node imports every entry point (inside vitest for a package that peer-depends on it:
//      a conformance testkit cannot load elsewhere), then runs tooling/consumer/run.mjs: the installed
//      `shoplink-sandbox` bin, a punchout session, quotes, and a decoded quote webhook.
// Any failure exits non-zero naming the stage. `--self-test` instead breaks packed copies in the
// ways this test exists to catch (wrong exports path, missing file, dependency in
// devDependencies, leaked `workspace:` range) and fails unless each breakage is caught.
// `--keep` keeps the temp project for inspection; `--only=@shoplink/a,@shoplink/b` limits the
// packages (a debugging aid: CI runs them all).
import { execFileSync, spawnSync } from "node:child_process"
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from "node:fs"
import { builtinModules } from "node:module"
import { tmpdir } from "node:os"
import { join, relative, resolve } from "node:path"
import ts from "typescript"
import { installLines, readCatalog } from "./check-docs.mjs"
import { publishablePackages, root } from "./workspace.mjs"

const args = new Set(process.argv.slice(2))
const keep = args.has("--keep")
const selfTest = args.has("--self-test")
const consumerDir = resolve(root, "tooling/consumer")

class StageError extends Error {
  constructor(stage, message) {
    super(message)
    this.stage = stage
  }
}

const log = (message) => console.log(`[consumer] ${message}`)

/** Runs a command; on failure throws a StageError carrying the tail of its output. */
const run = (stage, command, argv, options) => {
  const result = spawnSync(command, argv, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options })
  if (result.error) throw new StageError(stage, `${command} ${argv.join(" ")}: ${result.error.message}`)
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim().split("\n").slice(-40).join("\n")
    throw new StageError(stage, `${command} ${argv.join(" ")} exited with ${result.status ?? result.signal}\n${output}`)
  }
  return result.stdout
}

const timed = (stage, f) => {
  const started = Date.now()
  const value = f()
  log(`${stage}: ok (${((Date.now() - started) / 1000).toFixed(1)} s)`)
  return value
}

/** The public entry points of a package: its name plus each `exports` subpath but ./package.json. */
const entryPoints = (json) => {
  const keys = typeof json.exports === "object" && json.exports !== null && !Array.isArray(json.exports) &&
      Object.keys(json.exports).some((k) => k.startsWith("."))
    ? Object.keys(json.exports)
    : ["."]
  return keys.filter((key) => key !== "./package.json" && !key.includes("*"))
    .map((key) => key === "." ? json.name : `${json.name}/${key.slice(2)}`)
}

// ---------------------------------------------------------------------------------------------
// Stages

const packAll = (packages, destination) =>
  Object.fromEntries(packages.map((pkg) => {
    const before = new Set(readdirSync(destination))
    run("pack", "pnpm", ["pack", "--pack-destination", destination], { cwd: pkg.dir })
    const made = readdirSync(destination).filter((f) => f.endsWith(".tgz") && !before.has(f))
    if (made.length !== 1) {
      throw new StageError("pack", `${pkg.json.name}: expected one tarball, found ${made.join(", ") || "none"}`)
    }
    return [pkg.json.name, join(destination, made[0])]
  }))

/** The packed manifests must carry only ranges npm understands (pnpm rewrites workspace:/catalog:). */
const checkPackedManifests = (tarballs) => {
  const problems = []
  for (const [name, tarball] of Object.entries(tarballs)) {
    const json = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }))
    for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
      for (const [dep, range] of Object.entries(json[field] ?? {})) {
        if (/^(workspace|catalog|link):/.test(range)) {
          problems.push(`${name}: ${field}.${dep} is "${range}", which npm cannot install`)
        }
      }
    }
  }
  if (problems.length > 0) throw new StageError("packed manifest", problems.join("\n"))
}

/**
 * The packages' README install lines, as npm arguments: the exact words a vendor copies, merged
 * into one command (check-docs keeps every line's Effect ranges equal to the catalog's, so they
 * agree), with each `@shoplink/*` name pointed at its tarball.
 */
const readmeInstallArgs = (packages, tarballs) => {
  const args = new Set()
  for (const pkg of packages) {
    const readme = join(pkg.dir, "README.md")
    const lines = existsSync(readme) ? installLines(readFileSync(readme, "utf8")) : []
    if (lines.length === 0) {
      throw new StageError("README install line", `${pkg.json.name}: README.md has no \`npm install\` line`)
    }
    for (const { command } of lines) {
      if (!/^(?:\$\s*)?npm (?:install|i)\s/.test(command)) {
        throw new StageError("README install line", `${pkg.json.name}: "${command}" is not a plain npm install line`)
      }
      for (const word of command.split(/\s+/).slice(2)) {
        if (word.startsWith("-") || word === "") continue
        if (word.startsWith("@shoplink/")) {
          if (tarballs[word] !== undefined) args.add(tarballs[word])
          else {throw new StageError(
              "README install line",
              `${pkg.json.name}: README installs ${word}, which was not packed`
            )}
        } else args.add(word)
      }
    }
  }
  for (const file of Object.values(tarballs)) args.add(file)
  return [...args]
}

/** A fresh npm project outside the workspace, with only TypeScript and Node's types to start with. */
const createProject = () => {
  const dir = mkdtempSync(join(tmpdir(), "shoplink-consumer-"))
  if (!relative(root, dir).startsWith("..")) throw new StageError("project", `${dir} is inside the workspace`)
  const catalog = readCatalog()
  const dependencies = { typescript: catalog.typescript ?? "5.9.3", "@types/node": catalog["@types/node"] ?? "20" }
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "shoplink-consumer-smoke", private: true, type: "module", dependencies }, null, 2)
  )
  return dir
}

/** `npm install` of the README lines' arguments: peers resolve from the registry as a vendor's would. */
const install = (dir, args) =>
  run("npm install", "npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...args], {
    cwd: dir,
    timeout: 10 * 60_000
  })

const packageNameOf = (specifier) => {
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]
}

const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : filesUnder(path)
    return [path]
  })

/** Every bare import in an installed package's .js/.d.ts must be declared (not a devDependency). */
const checkDeclaredDependencies = (dir, names) => {
  const builtins = new Set(builtinModules)
  const problems = []
  for (const name of names) {
    const installed = join(dir, "node_modules", name)
    const json = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"))
    const declared = new Set([
      json.name,
      ...Object.keys(json.dependencies ?? {}),
      ...Object.keys(json.peerDependencies ?? {}),
      ...Object.keys(json.optionalDependencies ?? {})
    ])
    for (const [dep, range] of Object.entries({ ...json.dependencies, ...json.peerDependencies })) {
      if (/^(workspace|catalog|link):/.test(range)) {
        problems.push(`${name}: ${dep} has an unpublishable range "${range}"`)
      }
    }
    const distDir = join(installed, "dist")
    if (!existsSync(distDir)) {
      problems.push(`${name}: no dist/ folder in the tarball`)
      continue
    }
    for (const file of filesUnder(distDir).filter((f) => /\.(m?js|d\.m?ts)$/.test(f))) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true)
      for (const { fileName: specifier } of importedFiles) {
        if (/^(\.|\/|#|node:|data:)/.test(specifier)) continue
        const dep = packageNameOf(specifier)
        if (builtins.has(dep) || declared.has(dep)) continue
        problems.push(
          `${name}: ${
            relative(installed, file)
          } imports "${specifier}", which is not in dependencies or peerDependencies`
        )
      }
    }
  }
  if (problems.length > 0) throw new StageError("dependencies", [...new Set(problems)].join("\n"))
}

/** index.ts importing every public entry point; each must resolve to real types (not `any`). */
const writeTypeConsumer = (dir, specifiers) => {
  const lines = [
    "// Generated by tooling/scripts/consumer-smoke.mjs: every public entry point of every package.",
    "type IsAny<T> = 0 extends 1 & T ? true : false",
    ...specifiers.flatMap((specifier, i) => [
      `import * as entry${i} from ${JSON.stringify(specifier)}`,
      `export const typed${i}: IsAny<typeof entry${i}> = false // ${specifier}`
    ])
  ]
  writeFileSync(join(dir, "index.ts"), `${lines.join("\n")}\n`)
  const base = {
    strict: true,
    target: "ES2022",
    lib: ["ES2023", "DOM"],
    types: ["node"],
    noEmit: true,
    // Third-party .d.ts are not ours to check (and double the time); imports in ours are checked above.
    skipLibCheck: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true
  }
  const configs = {
    "tsconfig.nodenext.json": { ...base, module: "NodeNext", moduleResolution: "NodeNext" },
    "tsconfig.bundler.json": { ...base, module: "ESNext", moduleResolution: "Bundler" }
  }
  for (const [file, compilerOptions] of Object.entries(configs)) {
    writeFileSync(join(dir, file), JSON.stringify({ compilerOptions, files: ["index.ts"] }, null, 2))
  }
}

const typecheck = (dir, config) =>
  run(`typecheck (${config})`, process.execPath, [
    join(dir, "node_modules/typescript/bin/tsc"),
    "-p",
    config,
    "--pretty",
    "false"
  ], {
    cwd: dir,
    timeout: 5 * 60_000
  })

/**
 * Loads every entry point (the `default` targets exist and load): with plain node, except the
 * packages that peer-depend on vitest (a conformance testkit), which only load inside vitest and
 * are imported from a vitest test. Then runs run.mjs.
 */
const runConsumer = (dir, plain, underVitest) => {
  const imports = [
    "// Generated by tooling/scripts/consumer-smoke.mjs: loads every public entry point.",
    `for (const specifier of ${JSON.stringify(plain)}) {`,
    "  const module = await import(specifier)",
    "  if (Object.keys(module).length === 0) throw new Error(`${specifier} exports nothing`)",
    "}",
    `console.log("node imported ${plain.length} entry point(s)")`
  ]
  writeFileSync(join(dir, "imports.mjs"), `${imports.join("\n")}\n`)
  cpSync(join(consumerDir, "run.mjs"), join(dir, "run.mjs"))
  let out = run("node import", process.execPath, ["imports.mjs"], { cwd: dir, timeout: 60_000 })
  if (underVitest.length > 0) {
    const test = [
      "// Generated by tooling/scripts/consumer-smoke.mjs: entry points that only load inside vitest.",
      `import { expect, test } from "vitest"`,
      `test.each(${JSON.stringify(underVitest)})("%s loads", async (specifier) => {`,
      "  expect(Object.keys(await import(specifier)).length).toBeGreaterThan(0)",
      "})"
    ]
    writeFileSync(join(dir, "imports.test.mjs"), `${test.join("\n")}\n`)
    run("vitest import", process.execPath, [join(dir, "node_modules/vitest/vitest.mjs"), "run", "imports.test.mjs"], {
      cwd: dir,
      timeout: 2 * 60_000,
      env: { ...process.env, CI: "true", NO_COLOR: "1" }
    })
    out += `vitest imported ${underVitest.length} entry point(s)\n`
  }
  return out + run("node run.mjs", process.execPath, ["run.mjs"], { cwd: dir, timeout: 2 * 60_000 })
}

/** The whole pipeline on a set of tarballs; returns normally only if every stage passes. */
const smoke = (tarballs, packages, label) => {
  checkPackedManifests(tarballs)
  const args = readmeInstallArgs(packages, tarballs)
  const dir = createProject()
  log(`${label}: project ${dir}`)
  let passed = false
  try {
    timed("npm install", () => install(dir, args))
    const names = Object.keys(tarballs)
    timed("dependencies declared", () => checkDeclaredDependencies(dir, names))
    const specifiers = packages.flatMap((pkg) => entryPoints(pkg.json))
    writeTypeConsumer(dir, specifiers)
    timed("typecheck nodenext", () => typecheck(dir, "tsconfig.nodenext.json"))
    timed("typecheck bundler", () => typecheck(dir, "tsconfig.bundler.json"))
    const needsVitest = (pkg) => Object.hasOwn(pkg.json.peerDependencies ?? {}, "vitest")
    const output = timed("node consumer", () =>
      runConsumer(
        dir,
        packages.filter((p) => !needsVitest(p)).flatMap((p) => entryPoints(p.json)),
        packages.filter(needsVitest).flatMap((p) => entryPoints(p.json))
      ))
    for (const line of output.trim().split("\n")) log(`  ${line}`)
    passed = true
  } finally {
    // A failed project is kept for inspection, except in the self-test where failing is the point.
    if (keep || (!passed && !selfTest)) log(`${label}: kept ${dir}`)
    else rmSync(dir, { recursive: true, force: true })
  }
}

// ---------------------------------------------------------------------------------------------
// Self-test: break packed copies and require each breakage to be caught at the expected stage.

const mutateTarball = (tarball, into, mutate) => {
  const work = mkdtempSync(join(tmpdir(), "shoplink-mutate-"))
  try {
    execFileSync("tar", ["-xzf", tarball, "-C", work])
    const pkgDir = join(work, "package")
    const jsonPath = join(pkgDir, "package.json")
    const json = JSON.parse(readFileSync(jsonPath, "utf8"))
    mutate(pkgDir, json)
    writeFileSync(jsonPath, JSON.stringify(json, null, 2))
    mkdirSync(into, { recursive: true })
    const out = join(into, tarball.split("/").pop())
    execFileSync("tar", ["-czf", out, "-C", work, "package"])
    return out
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

const breakages = [
  {
    name: "an exports target renamed",
    target: "@shoplink/punchout",
    expect: /^typecheck/,
    mutate: (_dir, json) => {
      json.exports["."] = { types: "./dist/main.d.ts", default: "./dist/main.js" }
    }
  },
  {
    name: "a file missing from the tarball",
    target: "@shoplink/protocol",
    expect: /^typecheck|^node/,
    mutate: (dir) => {
      for (const file of ["Vin.js", "Vin.d.ts"]) rmSync(join(dir, "dist", file))
    }
  },
  {
    name: "a dependency left in devDependencies",
    target: "@shoplink/punchout",
    expect: /^dependencies$/,
    mutate: (_dir, json) => {
      json.devDependencies = { ...json.devDependencies, "@shoplink/protocol": json.dependencies["@shoplink/protocol"] }
      delete json.dependencies["@shoplink/protocol"]
    }
  },
  {
    name: "a workspace: range leaked",
    target: "@shoplink/punchout",
    expect: /^packed manifest$/,
    mutate: (_dir, json) => {
      json.dependencies["@shoplink/protocol"] = "workspace:^"
    }
  }
]

const runSelfTest = (tarballs, packages, scratch) => {
  // Protocol, http, punchout (with the http-node its README installs) and sandbox are what run.mjs needs.
  const subset = packages.filter((p) =>
    ["@shoplink/protocol", "@shoplink/http", "@shoplink/punchout", "@shoplink/http-node", "@shoplink/sandbox"].includes(
      p.json.name
    )
  )
  const subsetTarballs = Object.fromEntries(subset.map((p) => [p.json.name, tarballs[p.json.name]]))
  let failures = 0
  for (const [i, breakage] of breakages.entries()) {
    const broken = mutateTarball(tarballs[breakage.target], join(scratch, `broken-${i}`), breakage.mutate)
    try {
      smoke({ ...subsetTarballs, [breakage.target]: broken }, subset, `self-test "${breakage.name}"`)
      failures++
      console.error(`[consumer] self-test: "${breakage.name}" (${breakage.target}) was NOT caught`)
    } catch (error) {
      if (!(error instanceof StageError)) throw error
      const ok = breakage.expect.test(error.stage)
      if (!ok) failures++
      const lines = error.message.split("\n").filter((l) => l.trim() !== "" && !l.includes(" exited with "))
      const why = (lines.find((l) =>
        /error|Error|not in dependencies|Unsupported|EUNSUPPORTED/.test(l)
      ) ?? lines[0] ?? "").trim()
      log(
        `self-test: "${breakage.name}" ${ok ? "caught" : "caught at an UNEXPECTED stage"} at "${error.stage}": ${why}`
      )
    }
  }
  if (failures > 0) throw new StageError("self-test", `${failures} breakage(s) not caught as expected`)
}

// ---------------------------------------------------------------------------------------------

const started = Date.now()
const scratch = mkdtempSync(join(tmpdir(), "shoplink-pack-"))
try {
  const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",")
  const packages = publishablePackages().filter((p) => only === undefined || only.includes(p.json.name))
  if (packages.length === 0) throw new StageError("discover", "no publishable package under packages/")
  for (const pkg of packages) {
    const dist = join(pkg.dir, "dist")
    if (!existsSync(dist) || !statSync(dist).isDirectory()) {
      throw new StageError("discover", `${pkg.json.name} is not built (no dist/): run \`pnpm build\` first`)
    }
  }
  log(`packages: ${packages.map((p) => p.json.name).join(", ")}`)
  const tarballDir = join(scratch, "tarballs")
  mkdirSync(tarballDir)
  const tarballs = timed("pnpm pack", () => packAll(packages, tarballDir))
  if (selfTest) runSelfTest(tarballs, packages, scratch)
  else smoke(tarballs, packages, "consumer")
  log(
    `${selfTest ? "self-test passed: every breakage was caught" : "passed"} in ${
      ((Date.now() - started) / 1000).toFixed(0)
    } s`
  )
} catch (error) {
  if (error instanceof StageError) {
    console.error(`\n[consumer] FAILED at "${error.stage}":\n${error.message}`)
  } else {
    console.error(`\n[consumer] FAILED: ${error?.stack ?? error}`)
  }
  process.exitCode = 1
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
