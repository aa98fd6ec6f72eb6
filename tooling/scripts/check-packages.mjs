#!/usr/bin/env node
// Fails when a publishable package lacks what a vendor needs from npm: README, exports with
// `types` first and `./package.json`, `files`, `engines`, `sideEffects`, `license`, `repository`,
// `keywords`, ESM `type`, and a CHANGELOG once it has been released. apps/* must stay private
// at version 0.0.0 so changesets never versions them. Issue #25's shape is held here too: an
// adapter depends on the contract and the transport only (no server code, no database driver), and
// a sample app is its settings and main, at most 200 lines of src/ besides its demo script.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { publishablePackages, workspacePackages } from "./workspace.mjs"

const problems = []
const need = (ok, pkg, what) => ok || problems.push(`${pkg.rel} (${pkg.json.name}): ${what}`)

for (const pkg of publishablePackages()) {
  const { json } = pkg
  need(typeof json.name === "string" && json.name.startsWith("@shoplink/"), pkg, "name must be @shoplink/<name>")
  need(json.type === "module", pkg, "needs \"type\": \"module\" (ESM only)")
  need(json.sideEffects === false, pkg, "needs \"sideEffects\": false")
  need(typeof json.engines?.node === "string", pkg, "needs \"engines.node\"")
  need(typeof json.license === "string", pkg, "needs \"license\"")
  need(
    typeof json.repository?.url === "string" && json.repository?.directory === pkg.rel,
    pkg,
    `needs "repository" with directory "${pkg.rel}"`
  )
  need(Array.isArray(json.keywords) && json.keywords.length > 0, pkg, "needs \"keywords\"")
  need(typeof json.description === "string" && json.description.length > 0, pkg, "needs \"description\"")
  need(Array.isArray(json.files) && json.files.includes("dist"), pkg, "\"files\" must list dist")
  need(json.publishConfig?.access === "public", pkg, "\"publishConfig.access\" must be public")
  const exports = json.exports
  need(
    exports && typeof exports === "object" && exports["./package.json"] === "./package.json",
    pkg,
    "exports must include \"./package.json\""
  )
  for (const [entry, target] of Object.entries(exports ?? {})) {
    if (entry === "./package.json") continue
    const keys = typeof target === "object" && target !== null ? Object.keys(target) : []
    need(keys[0] === "types", pkg, `exports["${entry}"] must list "types" first`)
  }
  need(existsSync(join(pkg.dir, "README.md")), pkg, "needs a README.md")
  const released = json.version !== "0.0.0"
  need(
    !released || existsSync(join(pkg.dir, "CHANGELOG.md")),
    pkg,
    "released packages need the CHANGELOG.md changesets writes"
  )
  for (const field of ["dependencies", "peerDependencies"]) {
    for (const [dep, range] of Object.entries(json[field] ?? {})) {
      need(
        !(field === "peerDependencies" && String(range).startsWith("workspace:")),
        pkg,
        `peer ${dep} must not use a workspace: range`
      )
    }
  }
}

const ADAPTER_DEPENDENCIES = ["@shoplink/connector", "@shoplink/http"]
for (const pkg of publishablePackages().filter((p) => p.json.name.startsWith("@shoplink/adapter-"))) {
  for (const dep of Object.keys(pkg.json.dependencies ?? {})) {
    need(
      !dep.startsWith("@shoplink/") || ADAPTER_DEPENDENCIES.includes(dep),
      pkg,
      `an adapter depends on ${ADAPTER_DEPENDENCIES.join(" and ")} only, not ${dep}`
    )
  }
  for (const field of ["dependencies", "peerDependencies"]) {
    need(!("@effect/sql" in (pkg.json[field] ?? {})), pkg, `an adapter needs no database: @effect/sql in ${field}`)
  }
}

const SAMPLE_LINES = 200
for (const pkg of workspacePackages().filter((p) => p.group === "apps")) {
  need(
    pkg.json.private === true && pkg.json.version === "0.0.0",
    pkg,
    "apps must be \"private\": true at version 0.0.0"
  )
  const src = join(pkg.dir, "src")
  const lines = existsSync(src)
    ? readdirSync(src)
      .filter((f) => f.endsWith(".ts") && f !== "demo.ts")
      .reduce((sum, f) => sum + readFileSync(join(src, f), "utf8").split("\n").length - 1, 0)
    : 0
  need(lines <= SAMPLE_LINES, pkg, `src/ (demo.ts aside) is ${lines} lines; a sample is at most ${SAMPLE_LINES}`)
}

if (problems.length > 0) {
  console.error(`check:packages found ${problems.length} problem(s):\n- ${problems.join("\n- ")}`)
  process.exit(1)
}
console.log(`check:packages: ${publishablePackages().length} publishable package(s) complete`)
