// examples/demo.mjs (the repository's `pnpm demo`) runs against the built package and prints a
// readable transcript. It imports dist/, so the package must be built first (turbo does that).
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const demo = fileURLToPath(new URL("../examples/demo.mjs", import.meta.url))

describe("examples/demo.mjs", () => {
  const run = spawnSync(process.execPath, [demo], { encoding: "utf8", timeout: 60_000 })

  it("exits 0 without errors", () => {
    expect(run.stderr).toBe("")
    expect(run.status).toBe(0)
  })

  it("prints the session without its token", () => {
    expect(run.stdout).toContain("== Punchout session")
    expect(run.stdout).toContain("granted; expires 2025-11-22T12:00:00.000Z")
    expect(run.stdout).toContain("token is Redacted: true (prints as <redacted>)")
    expect(run.stdout).toContain("ShowCatalog URL: https://dist.example/punchout/v1/ShowCatalog?token=<redacted>")
    expect(run.stdout).not.toContain("3b0e6c1a-demo-token")
  })

  it("prints the quote webhook lines", () => {
    expect(run.stdout).toContain("== Quote webhook for RO-1042: 2 lines")
    expect(run.stdout).toContain(
      "WIX 51515 Engine Oil Filter x2 @ 6.49 = 12.98; (no quality); order by 2025-11-22T00:00:00.000Z"
    )
    expect(run.stdout).toContain(
      "WAG MGD1234 Disc Brake Pad Set x1 @ 41.50 = 41.50; Premium; order by 2025-11-22T00:00:00.000Z"
    )
  })

  it("prints the error envelope as a typed, retryable error", () => {
    expect(run.stdout).toContain("== Error envelope")
    expect(run.stdout).toContain("OrderLocked: API0258: Order is locked by another job (HTTP 200, referenceID RO-1042)")
    expect(run.stdout).toContain("retry class: retryable")
  })
})
