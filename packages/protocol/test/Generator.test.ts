// scripts/generate-errors.mjs: the committed src/MessageErrors.ts is what the catalogue renders to.
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { MessageCatalog } from "../src/index.js"

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const script = join(packageDir, "scripts", "generate-errors.mjs")

const runCheck = (scriptPath: string) =>
  spawnSync(process.execPath, [scriptPath, "--check"], { cwd: packageDir, encoding: "utf8", timeout: 60_000 })

interface Generator {
  readonly render: (catalog: typeof MessageCatalog.messages) => string
}

describe("generate-errors.mjs", () => {
  it("--check exits 0: src/MessageErrors.ts is up to date", () => {
    const result = runCheck(script)
    expect(result.stderr).toBe("")
    expect(result.status).toBe(0)
    expect(result.stdout).toContain("up to date")
  })

  it("rendering is deterministic and equals the committed file", async () => {
    const generator = (await import(pathToFileURL(script).href)) as Generator
    const first = generator.render(MessageCatalog.messages)
    const second = generator.render(structuredClone(MessageCatalog.messages))
    expect(second).toBe(first)
    expect(first).toBe(readFileSync(join(packageDir, "src", "MessageErrors.ts"), "utf8"))
  })

  it("--check exits 1 when the generated file is stale", () => {
    // A scratch copy inside the package, so the script still resolves `typescript`.
    const scratch = mkdtempSync(join(packageDir, ".tmp-generate-check-"))
    try {
      mkdirSync(join(scratch, "scripts"))
      mkdirSync(join(scratch, "src"))
      cpSync(script, join(scratch, "scripts", "generate-errors.mjs"))
      cpSync(join(packageDir, "src", "MessageCatalog.ts"), join(scratch, "src", "MessageCatalog.ts"))
      const current = readFileSync(join(packageDir, "src", "MessageErrors.ts"), "utf8")
      writeFileSync(join(scratch, "src", "MessageErrors.ts"), current.replace("\"Order is locked by another job\"", "\"Locked\""))
      const result = runCheck(join(scratch, "scripts", "generate-errors.mjs"))
      expect(result.status).toBe(1)
      expect(result.stderr).toContain("stale")
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  })
})
