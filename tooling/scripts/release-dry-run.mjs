#!/usr/bin/env node
// `pnpm release:dry-run`: what `pnpm release` would publish, without publishing.
// On a throwaway copy of the working tree: install (offline, from the pnpm store), apply the
// pending changesets (`changeset version`), build, and `pnpm pack` every publishable package, so
// `workspace:` and `catalog:` ranges become real versions. Prints each name@version and keeps the
// tarballs in the folder it prints (or in --out DIR).
import { execFileSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { publishablePackages, root } from "./workspace.mjs"

const outArg = process.argv.indexOf("--out")
const out = outArg > 0 ? resolve(process.argv[outArg + 1]) : mkdtempSync(join(tmpdir(), "shoplink-release-"))
mkdirSync(out, { recursive: true })
const copy = mkdtempSync(join(tmpdir(), "shoplink-release-tree-"))

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1" }
const run = (cmd, args, cwd = copy) =>
  execFileSync(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" })

try {
  // The working tree as git sees it (tracked + untracked, not ignored): uncommitted changesets count.
  const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], root).split("\0").filter(
    Boolean
  )
  for (const file of files) {
    try {
      mkdirSync(dirname(join(copy, file)), { recursive: true })
      copyFileSync(join(root, file), join(copy, file))
    } catch (error) {
      if (error.code !== "ENOENT") throw error // deleted in the working tree
    }
  }
  console.log("release:dry-run: installing the copy (offline)…")
  run("pnpm", ["install", "--offline", "--frozen-lockfile", "--reporter=silent"])
  console.log("release:dry-run: applying changesets…")
  run("pnpm", ["exec", "changeset", "version"])
  console.log("release:dry-run: building…")
  run("pnpm", ["exec", "turbo", "run", "build", "--filter=./packages/*", "--output-logs=errors-only"])

  const released = []
  for (const pkg of publishablePackages()) {
    const dir = join(copy, pkg.rel)
    const json = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
    run("pnpm", ["pack", "--pack-destination", out], dir)
    released.push({ name: json.name, from: pkg.json.version, to: json.version })
  }
  const width = Math.max(...released.map((r) => r.name.length))
  console.log("\nWould publish:")
  for (const r of released) {
    const note = r.from === r.to ? "(unchanged: no changeset)" : `(from ${r.from})`
    console.log(`  ${r.name.padEnd(width)}  ${r.to}  ${note}`)
  }
  console.log(`\nTarballs: ${out}`)
  for (const file of readdirSync(out).filter((f) => f.endsWith(".tgz")).sort()) console.log(`  ${file}`)
} finally {
  rmSync(copy, { recursive: true, force: true })
}
