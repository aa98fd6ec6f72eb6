#!/usr/bin/env node
// `pnpm build`, and the build before `pnpm demo`, `start`, `docs`, …: ONE `tsc -b` over the build
// projects of the packages asked for and their workspace dependencies (each tsconfig.build.json
// references those it needs), which parses the declarations they share (Effect's above all) once
// instead of once per package, with a progress line per package built (which one, seconds since
// the build began) instead of minutes of silence on a fresh clone. tsc -b skips the projects that
// are up to date. Packages whose build refreshes src/internal/version.ts (write-version.mjs) get
// that first, as their own `build` script does.
// Usage: node tooling/scripts/build.mjs [--filter=<package>...]   (every package when no filter)
import { spawn } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { basename, dirname, join, relative } from "node:path"
import { createInterface } from "node:readline"
import { refreshVersions, root, workspacePackages } from "./workspace.mjs"

const started = Date.now()
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s`

// The workspace's packages, tooling's included (`@shoplink/chaos` builds nothing itself).
const tooling = readdirSync(join(root, "tooling"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(root, "tooling", entry.name, "package.json")))
  .map((entry) => {
    const dir = join(root, "tooling", entry.name)
    return { dir, json: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }
  })
const packages = [...workspacePackages(), ...tooling]
const byName = new Map(packages.map((p) => [p.json.name, p]))

const filters = process.argv.slice(2).map((arg) => {
  const match = /^--filter=(.+)\.\.\.$/.exec(arg)
  if (match === null || !byName.has(match[1])) {
    console.error(`build: expected --filter=<workspace package>... (a package and its dependencies), got ${arg}`)
    process.exit(2)
  }
  return match[1]
})

// The packages asked for and, transitively, their workspace dependencies of every kind.
const closure = new Set()
const visit = (name) => {
  if (closure.has(name) || !byName.has(name)) return
  closure.add(name)
  const { json } = byName.get(name)
  for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
    for (const dep of Object.keys(json[field] ?? {})) visit(dep)
  }
}
for (const name of filters.length === 0 ? byName.keys() : filters) visit(name)
const selected = [...closure].map((name) => byName.get(name))

refreshVersions(selected)

const projects = selected.map((p) => join(p.dir, "tsconfig.build.json")).filter((p) => existsSync(p))
const nameOf = new Map(selected.map((p) => [join(p.dir, "tsconfig.build.json"), p.json.name]))
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")
const build = spawn(process.execPath, [tsc, "-b", "--verbose", ...projects.map((p) => relative(root, p))], {
  cwd: root,
  stdio: ["ignore", "pipe", "pipe"]
})

let built = 0
let upToDate = 0
const project = (line) => {
  const path = /'([^']+\.json)'/.exec(line)?.[1]
  if (path === undefined) return "?"
  const full = path.startsWith("/") ? path : join(root, path)
  return nameOf.get(full) ?? basename(dirname(full))
}
// tsc -b --verbose: a timestamped line per project (out of date / up to date / building) and the
// list of projects; the compiler's errors are printed as they come.
const onLine = (line) => {
  // Its status lines start with the time ("10:36:04 PM - ", or "[10:36:04 PM] " on a terminal).
  const text = line.replace(/^(?:\[[^\]]*\]\s*|[\d:.]+(?:\s?[AP]M)?\s+-\s+)/, "")
  if (/^Building project /.test(text)) {
    built++
    console.log(`[build ${elapsed()}] building ${project(text)}`)
  } else if (/^Project .* is up to date/.test(text)) {
    upToDate++
  } else if (line !== text || /^Projects in this build:|^\s+\* |^\s*$/.test(line)) {
    // tsc's own status lines: the progress line above says what matters.
  } else {
    console.log(line)
  }
}
createInterface({ input: build.stdout }).on("line", onLine)
createInterface({ input: build.stderr }).on("line", onLine)
// "close": after the output has been read to its end, so the last lines come before the summary.
build.on("close", (code) => {
  if (code === 0) console.log(`[build ${elapsed()}] ${built} built, ${upToDate} up to date`)
  else console.error(`[build ${elapsed()}] failed (tsc -b exit ${code}): the errors are above`)
  process.exitCode = code ?? 1
})
