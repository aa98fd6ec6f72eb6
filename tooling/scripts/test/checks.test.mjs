// The release gates run against scratch git repositories: they must fail when they should.
import { execFileSync, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"

const scripts = join(import.meta.dirname, "..")
const scratch = []

const write = (root, path, content) => {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`)
}

const manifest = (name, extra = {}) => ({
  name,
  version: "0.0.0",
  description: "test package",
  license: "MIT",
  type: "module",
  sideEffects: false,
  engines: { node: ">=20.19" },
  repository: { type: "git", url: "git+https://example.invalid/x.git", directory: `packages/${name.split("/")[1]}` },
  keywords: ["shoplink"],
  exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" }, "./package.json": "./package.json" },
  files: ["dist"],
  publishConfig: { access: "public" },
  ...extra
})

const repo = () => {
  const root = mkdtempSync(join(tmpdir(), "shoplink-checks-"))
  scratch.push(root)
  const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" })
  git("init", "-q", "-b", "main")
  git("config", "user.email", "ci@example.invalid")
  git("config", "user.name", "CI")
  write(root, "packages/alpha/package.json", manifest("@shoplink/alpha"))
  write(root, "packages/alpha/README.md", "# alpha\n")
  write(root, "packages/alpha/src/index.ts", "export const a = 1\n")
  return { root, git }
}

const run = (script, root) =>
  spawnSync(process.execPath, [join(scripts, script)], {
    env: { ...process.env, SHOPLINK_ROOT: root },
    encoding: "utf8"
  })

afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe("check-changesets", () => {
  it("fails for a never-released package without a changeset, passes with one", () => {
    const { root, git } = repo()
    git("add", "-A")
    git("commit", "-qm", "init")
    const without = run("check-changesets.mjs", root)
    expect(without.status).toBe(1)
    expect(without.stderr).toContain("@shoplink/alpha (never released)")

    write(root, ".changeset/alpha.md", "---\n\"@shoplink/alpha\": minor\n---\n\nFirst release.\n")
    const withOne = run("check-changesets.mjs", root)
    expect(withOne.status).toBe(0)
  })

  it("after a release, only packages changed since its tag need one", () => {
    const { root, git } = repo()
    write(root, "packages/beta/package.json", manifest("@shoplink/beta"))
    git("add", "-A")
    git("commit", "-qm", "release")
    git("tag", "release/2026-11-01")
    expect(run("check-changesets.mjs", root).status).toBe(0)

    write(root, "packages/beta/src/index.ts", "export const b = 2\n")
    const changed = run("check-changesets.mjs", root)
    expect(changed.status).toBe(1)
    expect(changed.stderr).toContain("@shoplink/beta (changed since release/2026-11-01)")
    expect(changed.stderr).not.toContain("@shoplink/alpha")

    // `changeset version` consumed the changeset into a version bump: covered.
    write(root, "packages/beta/package.json", manifest("@shoplink/beta", { version: "0.1.0" }))
    expect(run("check-changesets.mjs", root).status).toBe(0)
  })
})

describe("check-packages", () => {
  it("passes a complete package and names each missing field", () => {
    const { root } = repo()
    expect(run("check-packages.mjs", root).status).toBe(0)

    const { sideEffects: _s, engines: _e, ...incomplete } = manifest("@shoplink/alpha")
    write(root, "packages/alpha/package.json", {
      ...incomplete,
      exports: { ".": { default: "./dist/index.js", types: "./dist/index.d.ts" } }
    })
    const result = run("check-packages.mjs", root)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("needs \"sideEffects\": false")
    expect(result.stderr).toContain("needs \"engines.node\"")
    expect(result.stderr).toContain("must list \"types\" first")
    expect(result.stderr).toContain("exports must include \"./package.json\"")
  })

  it("requires a CHANGELOG once released and keeps apps private", () => {
    const { root } = repo()
    write(root, "packages/alpha/package.json", manifest("@shoplink/alpha", { version: "1.0.0" }))
    write(root, "apps/demo-sample/package.json", { name: "demo-sample", version: "0.1.0" })
    const result = run("check-packages.mjs", root)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("CHANGELOG.md")
    expect(result.stderr).toContain("apps must be \"private\": true at version 0.0.0")
  })
})
