// The scratch folder of the current test file's SQLite databases (fixtures.ts), removed once the file
// is done by test/setup.ts, a setup file of this package's and service-pages' vitest configs. Not a
// module-level afterAll: test files may share a process, and this module, when the test pool does
// not isolate them (tooling/vitest); a setup file runs for every test file.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

let dir: string | undefined
let counter = 0

/** A new path `<prefix>-<n><suffix>` in the current test file's scratch folder (not created). */
export const scratchFile = (prefix: string, suffix: string) => {
  dir ??= mkdtempSync(join(tmpdir(), "shoplink-connector-"))
  return join(dir, `${prefix}-${++counter}${suffix}`)
}

/** Removes the scratch folder of the test file that just finished. */
export const removeScratchFolder = () => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  dir = undefined
}
