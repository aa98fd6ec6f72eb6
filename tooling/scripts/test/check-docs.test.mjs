// The documentation check must pass on this repository and fail on each way a copied line or a
// link can mislead: run against scratch repositories through SHOPLINK_ROOT.
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { anchorsOf, checkInstallLine, installLines, linksOf, repositoryWeb } from "../check-docs.mjs"

const script = join(import.meta.dirname, "..", "check-docs.mjs")
const scratch = []

const write = (root, path, content) => {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`)
}

/** A scratch repository that passes the check; `change` breaks one thing. */
const repo = (change = () => {}) => {
  const root = mkdtempSync(join(tmpdir(), "shoplink-docs-"))
  scratch.push(root)
  write(
    root,
    "pnpm-workspace.yaml",
    "packages:\n  - packages/*\ncatalog:\n  effect: 3.22.4\n  \"@effect/platform\": 0.97.2\n"
  )
  write(root, "package.json", {
    name: "x",
    private: true,
    scripts: { build: "TURBO_TELEMETRY_DISABLED=1 turbo run build" }
  })
  write(root, "packages/alpha/package.json", { name: "@shoplink/alpha", version: "0.0.0" })
  write(
    root,
    "packages/alpha/README.md",
    [
      "# alpha",
      "```sh",
      "npm install @shoplink/alpha effect@^3.22.4 @effect/platform@^0.97.2",
      "```",
      "Shoplink supports the **Effect 3** line only.",
      `See [the guide](${repositoryWeb}/blob/main/docs/guide.md#setting-up).`
    ].join("\n")
  )
  write(root, "docs/guide.md", "# Guide\n\n## Setting up\n\nBack to [alpha](../packages/alpha/README.md).\n")
  write(root, "README.md", "# x\n\n[Guide](docs/guide.md#setting-up)\n")
  change(root)
  return root
}

const check = (root) => {
  const result = spawnSync(process.execPath, [script], {
    env: { ...process.env, SHOPLINK_ROOT: root },
    encoding: "utf8"
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe("check-docs", () => {
  it("passes on this repository", () => {
    const result = spawnSync(process.execPath, [script], { encoding: "utf8" })
    expect(`${result.stdout}${result.stderr}`).toContain("install lines pinned")
    expect(result.status).toBe(0)
  })

  it("passes on a clean scratch repository", () => {
    expect(check(repo())).toMatchObject({ status: 0 })
  })

  it.each([
    [
      "an unpinned effect",
      (root) =>
        write(
          root,
          "packages/alpha/README.md",
          "```sh\nnpm install @shoplink/alpha effect @effect/platform@^0.97.2\n```\n"
        ),
      /effect must be pinned as effect@\^3\.22\.4/
    ],
    [
      "a published README that pins effect without saying which line is supported",
      (root) => write(root, "packages/alpha/README.md", "```sh\nnpm install @shoplink/alpha effect@^3.22.4\n```\n"),
      /pins effect but does not say "Shoplink supports the \*\*Effect 3\*\* line only"/
    ],
    [
      "a pin outside the peer range",
      (root) => write(root, "packages/alpha/README.md", "```sh\npnpm add effect@^4.0.0\n```\n"),
      /found effect@\^4\.0\.0/
    ],
    [
      "a relative link in a published README",
      (root) => write(root, "packages/alpha/README.md", "[guide](../../docs/guide.md)\n"),
      /relative link \.\.\/\.\.\/docs\/guide\.md breaks on npm/
    ],
    [
      "a repository URL to a missing file",
      (root) => write(root, "packages/alpha/README.md", `[x](${repositoryWeb}/blob/main/docs/nope.md)\n`),
      /docs\/nope\.md, which does not exist/
    ],
    [
      "a missing anchor",
      (root) => write(root, "README.md", "[Guide](docs/guide.md#tearing-down)\n"),
      /no heading for #tearing-down/
    ],
    [
      "a broken relative link in docs",
      (root) => write(root, "docs/other.md", "[x](./missing.md)\n"),
      /missing\.md, which does not exist/
    ],
    [
      "a ../shared/ citation",
      (root) => write(root, "packages/alpha/src/a.ts", "// see ../shared/spec/punchout-api.md\n"),
      /cites \.\.\/shared\//
    ],
    [
      "pnpm settings in .npmrc",
      (root) => write(root, ".npmrc", "auto-install-peers=true\n"),
      /auto-install-peers is a pnpm setting/
    ],
    [
      "turbo without the telemetry switch",
      (root) => write(root, "package.json", { scripts: { demo: "turbo run build && node x.js" } }),
      /script "demo" runs turbo without TURBO_TELEMETRY_DISABLED=1/
    ]
  ])("fails on %s", (_name, change, message) => {
    const result = check(repo(change))
    expect(result.output).toMatch(message)
    expect(result.status).toBe(1)
  })

  it("reads install lines across continuations and ignores flags and comments", () => {
    const lines = installLines("```sh\nnpm install --save-dev a \\\n  effect@^3.22.4  # the peer\n```\n")
    expect(lines).toEqual([{ line: 2, command: "npm install --save-dev a    effect@^3.22.4" }])
    expect(checkInstallLine(lines[0].command, { effect: "3.22.4" })).toEqual([])
  })

  it("numbers repeated headings the way GitHub does and skips links in code", () => {
    expect([...anchorsOf("# A b\n## A b\n```\n# not a heading\n```\n### `Code` & more!\n")]).toEqual([
      "a-b",
      "a-b-1",
      "code--more"
    ])
    expect(linksOf("[a](x.md) `[b](y.md)`\n```\n[c](z.md)\n```\n")).toEqual([{ line: 1, target: "x.md" }])
  })
})
