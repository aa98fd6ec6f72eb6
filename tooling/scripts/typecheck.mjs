#!/usr/bin/env node
// `pnpm typecheck` (the first step of `pnpm test`): every package's build and every package's tests in
// ONE `tsc -b`, which parses the declarations they share (Effect's above all) once instead of once per
// package and per step: about a fifth of the CPU of a `tsc` per package for the build plus another
// for the tests, on a clean clone.
//   - tsconfig.build.json (src/ → dist/) is a composite project (tooling/tsconfig/build.json) that
//     references the build projects of the package's workspace dependencies;
//   - tsconfig.json (test/, examples/, bench/, … never src/) references the package's own build
//     project and those of all its workspace dependencies, devDependencies included: the tests are
//     checked against the built .d.ts, so src/ is checked once, by the build.
// tsc -b rebuilds a project when its inputs or a referenced project changed (buildinfo files:
// dist/.tsbuildinfo, node_modules/.cache/tsconfig.tsbuildinfo), so a second run checks only what
// changed. That is only right when the references are complete: this script first fails, saying
// what to add, when a workspace dependency is missing from them.
// Like each package's `build` script, it first refreshes src/internal/version.ts (write-version.mjs)
// of the packages whose build does.
// Usage: node tooling/scripts/typecheck.mjs [--build]
//   --build: the build projects only (`pnpm build:ts`, what `pnpm test` runs before the tests)
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, relative, resolve } from "node:path"
import ts from "typescript"
import { refreshVersions, root, workspacePackages } from "./workspace.mjs"

const packages = workspacePackages().filter((p) => existsSync(join(p.dir, "tsconfig.json")))
const byName = new Map(packages.map((p) => [p.json.name, p]))
const buildProject = (p) => join(p.dir, "tsconfig.build.json")

/** The build projects of the workspace packages named in `fields` of a package.json. */
const workspaceBuilds = (pkg, fields) =>
  [...new Set(fields.flatMap((field) => Object.keys(pkg.json[field] ?? {})))]
    .filter((name) => name !== pkg.json.name)
    .map((name) => byName.get(name))
    .filter((dep) => dep !== undefined && existsSync(buildProject(dep)))
    .map(buildProject)

const references = (project) => {
  const { config, error } = ts.readConfigFile(project, ts.sys.readFile)
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, "\n"))
  return (config.references ?? []).map((r) => {
    const target = resolve(dirname(project), r.path)
    return target.endsWith(".json") ? target : join(target, "tsconfig.json")
  })
}

const problems = []
const needs = (project, expected) => {
  const actual = new Set(references(project))
  const missing = expected.filter((p) => !actual.has(p))
  if (missing.length > 0) {
    const from = dirname(project)
    problems.push(
      `${relative(root, project)}: "references" lacks ${
        missing.map((p) => `{ "path": "${relative(from, p).replace(/^(?!\.)/, "./")}" }`).join(", ")
      }`
    )
  }
}
const runtime = ["dependencies", "peerDependencies", "optionalDependencies"]
for (const pkg of packages) {
  if (existsSync(buildProject(pkg))) needs(buildProject(pkg), workspaceBuilds(pkg, runtime))
  needs(join(pkg.dir, "tsconfig.json"), [
    ...(existsSync(buildProject(pkg)) ? [buildProject(pkg)] : []),
    ...workspaceBuilds(pkg, [...runtime, "devDependencies"])
  ])
}
if (problems.length > 0) {
  console.error(
    `typecheck: tsc -b only rebuilds a package after its dependencies when its tsconfig references them:\n- ${
      problems.join("\n- ")
    }`
  )
  process.exit(1)
}

const started = Date.now()
const buildOnly = process.argv.includes("--build")
refreshVersions(packages)
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")
const projects = packages
  .map((p) => join(p.dir, buildOnly ? "tsconfig.build.json" : "tsconfig.json"))
  .filter((project) => existsSync(project))
  .map((project) => relative(root, project))
const result = spawnSync(process.execPath, [tsc, "-b", ...projects], { cwd: root, stdio: "inherit" })
if (result.status !== 0) process.exit(result.status ?? 1)
console.log(
  `typecheck: ${projects.length} packages ${buildOnly ? "built" : "built and their tests checked"} (tsc -b) in ${
    ((Date.now() - started) / 1000).toFixed(1)
  } s`
)
