#!/usr/bin/env node
// Fails when a publishable package changed since main's last release without a changeset naming it.
//
// "Last release" is the newest tag `release/<date>` (or any `@shoplink/<pkg>@<version>` tag
// changesets made); with no release yet, every package is unreleased and needs a changeset.
// A package whose version was already bumped by `changeset version` since that release counts
// as covered (its changesets were consumed into the bump).
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { publishablePackages, root } from "./workspace.mjs"

const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim()

const lastRelease = (() => {
  try {
    const tags = git("tag", "--list", "release/*", "@shoplink/*@*", "--sort=-creatordate").split("\n").filter(Boolean)
    return tags[0]
  } catch {
    return undefined
  }
})()

const changedSince = (ref, rel) => {
  const tracked = git("diff", "--name-only", ref, "--", rel)
  const untracked = git("ls-files", "--others", "--exclude-standard", "--", rel)
  return `${tracked}\n${untracked}`.trim().length > 0
}

const versionAt = (ref, rel) => {
  try {
    return JSON.parse(git("show", `${ref}:${rel}/package.json`)).version
  } catch {
    return undefined
  }
}

// Package names that pending changesets mention in their frontmatter.
const pending = new Set()
const dir = join(root, ".changeset")
for (const file of existsSync(dir) ? readdirSync(dir) : []) {
  if (!file.endsWith(".md") || file === "README.md") continue
  const text = readFileSync(join(dir, file), "utf8")
  const front = /^---\n([\s\S]*?)\n---/.exec(text)
  for (const line of front?.[1].split("\n") ?? []) {
    const name = /^\s*["']?([^"':]+)["']?\s*:/.exec(line)?.[1]
    if (name) pending.add(name.trim())
  }
}

const missing = []
for (const pkg of publishablePackages()) {
  const covered = pending.has(pkg.json.name)
  if (lastRelease === undefined) {
    if (!covered) missing.push(`${pkg.json.name} (never released)`)
    continue
  }
  if (!changedSince(lastRelease, pkg.rel)) continue
  const bumped = versionAt(lastRelease, pkg.rel) !== pkg.json.version
  if (!covered && !bumped) missing.push(`${pkg.json.name} (changed since ${lastRelease})`)
}

if (missing.length > 0) {
  console.error(
    `check:changesets: these packages changed without a changeset:\n- ${
      missing.join("\n- ")
    }\nRun \`pnpm changeset\` and commit the file it writes.`
  )
  process.exit(1)
}
console.log(`check:changesets: every changed package has a changeset (last release: ${lastRelease ?? "none yet"})`)
