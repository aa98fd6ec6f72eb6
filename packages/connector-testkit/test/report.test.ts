// The summary printed after the suite must say what really happened. An adapter whose writes are
// not implemented (test/fixtures/unfinished.conformance.ts) runs in a vitest of its own, filtered to
// a few checks, and its output is read: passed, failed and skipped are counted, it is not
// certified, and each failure names the adapter operation and its error.
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { join } from "node:path"

const testkit = join(import.meta.dirname, "..")

describe("the conformance summary", () => {
  it("counts passed, failed and skipped checks, and names the failing operation and its error", () => {
    const run = spawnSync(
      process.execPath,
      [
        join(testkit, "node_modules/vitest/vitest.mjs"),
        "run",
        "--config",
        "test/fixtures/vitest.config.ts",
        "-t",
        "export|by vin|report"
      ],
      {
        cwd: testkit,
        encoding: "utf8",
        timeout: 120_000,
        env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", CI: "" }
      }
    )
    const output = `${run.stdout}\n${run.stderr}`
    expect(run.status, output).toBe(1)
    const summary = output.slice(output.indexOf("Unfinished (unfinished), contract v1:"))
    const lines = summary.split("\n")
    expect(lines[0]).toBe("Unfinished (unfinished), contract v1: NOT certified")
    // Run: the VIN launch, the three export checks, the callback check (its name says "export") and the report.
    expect(lines[1]).toBe("  3 of 19 checks passed, 3 failed, 13 skipped")
    expect(lines.slice(2, 5)).toEqual([
      "  ✗ export: quoted lines on the repair order (part, brand, description, quantity, cost, list, core): applyQuote failed: not implemented",
      "  ✗ export and submit: ordered lines on the repair order: applyOrder failed: not implemented",
      "  ✗ export and submit: the distributor orderID on the repair order: applyOrder failed: not implemented"
    ])
    expect(lines[5]).toBe("  - skipped: launch: the catalog opens for the vehicle by licensePlate")
    expect(summary).not.toContain("certified\n  19 of 19")
  }, 150_000)
})
