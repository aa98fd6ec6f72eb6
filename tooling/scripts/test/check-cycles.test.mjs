// check:cycles against scratch workspaces: a load-time cycle fails, a type-only one does not.
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"

const script = join(import.meta.dirname, "..", "check-cycles.mjs")
const scratch = []
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const workspace = (files) => {
  const root = mkdtempSync(join(tmpdir(), "shoplink-cycles-"))
  scratch.push(root)
  const all = { "packages/alpha/package.json": "{\"name\":\"@shoplink/alpha\"}", ...files }
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return spawnSync(process.execPath, [script], { env: { ...process.env, SHOPLINK_ROOT: root }, encoding: "utf8" })
}

describe("check:cycles", () => {
  it("fails on modules that import each other at load time, naming the chain", () => {
    const result = workspace({
      "packages/alpha/src/a.ts": "import { b } from \"./b.js\"\nexport const a = () => b\n",
      "packages/alpha/src/b.ts": "import { c } from \"./internal/c.js\"\nexport const b = c\n",
      "packages/alpha/src/internal/c.ts": "export { a as c } from \"../a.js\"\n"
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("check:cycles found 1 import cycle(s)")
    expect(result.stderr).toContain(
      "packages/alpha/src/a.ts → packages/alpha/src/b.ts → packages/alpha/src/internal/c.ts"
    )
  })

  it("passes type-only cycles and dynamic imports, which do not run at load time", () => {
    const result = workspace({
      "packages/alpha/src/a.ts":
        "import type { B } from \"./b.js\"\nexport type A = { b?: B }\nexport const load = () => import(\"./b.js\")\n",
      "packages/alpha/src/b.ts": "import { type A } from \"./a.js\"\nexport type { A }\nexport type B = { a?: A }\n"
    })
    expect(result.stderr).toBe("")
    expect(result.status).toBe(0)
    expect(result.stdout).toContain("check:cycles: no import cycle in 2 modules")
  })
})
