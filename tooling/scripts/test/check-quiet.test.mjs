import { execFileSync, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { checkLogs, findWarnings, MAX_SHOWN } from "../check-quiet.mjs"

const script = join(import.meta.dirname, "..", "check-quiet.mjs")
const esc = "\x1b"

// Tool warnings as the tools print them (copied from real runs, paths shortened).
const toolWarnings = {
  "pnpm deprecated": " WARN  deprecated inflight@1.0.6: This module is not supported, and leaks memory.",
  "pnpm deprecated subdependencies":
    " WARN  3 deprecated subdependencies found: glob@7.2.3, inflight@1.0.6, rimraf@3.0.2",
  "pnpm failed bin":
    " WARN  Failed to create bin at /work/main/packages/cli/node_modules/.bin/shoplink. ENOENT: no such file or directory, open '/work/main/packages/cli/dist/bin.js'",
  "pnpm recursive prefix":
    "packages/cli                             |  WARN  Failed to create bin at /work/main/node_modules/.bin/shoplink.",
  "pnpm peer header": " WARN  Issues with peer dependencies found",
  "pnpm unmet peer": "  └── ✕ unmet peer vitest@^3.2.0: found 4.0.0",
  "pnpm missing peer": "  └── ✕ missing peer typescript@\">=5\"",
  "npm 10": "npm warn exec The following package was not found and will be installed: pnpm@10.34.8",
  "npm older": "npm WARN deprecated har-validator@5.1.5: this library is no longer supported",
  "typedoc":
    `${esc}[93m[warning]${esc}[0m SettingKey, defined in @shoplink/cli/src/internal/settingsTable.ts, is referenced by ShoplinkConfig.SettingKey but not included in the documentation`,
  "node experimental":
    "(node:41237) ExperimentalWarning: CommonJS module /work/main/x.cjs is loading ES Module /work/main/y.js using require().",
  "node deprecation":
    "(node:4242) [DEP0040] DeprecationWarning: The `punycode` module is deprecated. Please use a userland alternative instead.",
  "node plain":
    "(node:977) Warning: Setting the NODE_TLS_REJECT_UNAUTHORIZED environment variable to '0' makes TLS connections and HTTPS requests insecure.",
  "node max listeners":
    "(node:977) MaxListenersExceededWarning: Possible EventEmitter memory leak detected. 11 exit listeners added to [process].",
  "node behind a turbo prefix":
    "@shoplink/cli:test: (node:26500) DeprecationWarning: Calling client.query() when the client is already executing a query is deprecated and will be removed in pg@9.0. Use async/await or an external async flow control mechanism instead.",
  "attw": "│ node10             │ 💀 Resolution failed │ 💀 Resolution failed    │",
  "publint": "publint warning: pkg.exports[\"./x\"].types should be the first in the object.",
  "turbo":
    ` WARNING  no output files found for task @shoplink/cli#build. Please check your \`outputs\` key in \`turbo.json\``
}

// Lines of the same runs that are not tool warnings: the services' own log lines (which may be
// at WARN and say "warning"), the demo's and the smoke tests' output, vitest and publint notes.
const quiet = {
  "logfmt at WARN":
    "timestamp=2026-11-26T15:54:54.544Z level=WARN fiber=#0 message=\"order verification failed; applying anyway (warn mode)\" reason=\"API0258: Order is locked\"",
  "logfmt quoting a tool's words":
    "timestamp=2026-11-26T15:54:54.544Z level=WARN fiber=#3 message=\"npm warn: WARNING  [warning] (node:1) Warning: x\"",
  "logfmt behind a turbo prefix":
    "@shoplink/connector:test: timestamp=2026-11-26T16:01:30.754Z level=WARN fiber=#1148 message=\"inbox entry failed; will retry\" attempt=1 shopId=shop_1 repairOrderId=ro_1 entryId=21f1c9e7-4de7-4891-b057-f4c02603e903 error=\"adapter defect: RuntimeException: adapter bug\"",
  "a test about warnings behind a turbo prefix":
    "@shoplink/sandbox:test:    ✓ shoplink-sandbox bin > --host 0.0.0.0 warns that the admin API has no authentication  4972ms",
  "JSON (Observability.jsonLogger)":
    "{\"time\":\"2026-11-26T15:55:09.603Z\",\"level\":\"warning\",\"message\":\"order verification failed; applying anyway (warn mode)\",\"reason\":\"API0258\"}",
  "JSON (Effect)":
    "{\"message\":\"order verification failed; applying anyway (warn mode)\",\"logLevel\":\"WARN\",\"timestamp\":\"2026-11-26T15:54:54.549Z\",\"annotations\":{},\"spans\":{},\"fiberId\":\"#1\"}",
  "pretty": "[15:54:54.550] WARN (#2): order verification failed; applying anyway (warn mode)",
  "a test named after warnings":
    " ✓ test/service.test.ts > generate-key prints a keyring entry on stdout, the warning on stderr 41ms",
  "a vitest summary": "      Tests  312 passed (312)",
  "the demo":
    "      sandbox clock advanced 3 days: the order is past its order-by time and has expired (and so has the 12-hour session)",
  "the deploy smoke": "[deploy] pnpm deploy: ok (1.9 s) into /tmp/shoplink-deploy-u7JLpd/shopmonkey-sample",
  "a publint suggestion": "publint suggestion: pkg.repository.url can be shortened.",
  "pnpm's summary": "Done in 3.2s using pnpm v10.34.8",
  "a build line": "[build   22 s] 6 built, 7 cached"
}

describe("check-quiet", () => {
  it.each(Object.entries(toolWarnings))("flags a tool warning: %s", (_, line) => {
    expect(findWarnings(line)).toHaveLength(1)
  })

  it.each(Object.entries(quiet))("leaves alone: %s", (_, line) => {
    expect(findWarnings(line)).toEqual([])
  })

  it("numbers the offending lines from 1 and names the tool, without colours", () => {
    const log = [quiet["logfmt at WARN"], toolWarnings.typedoc, quiet["the demo"], toolWarnings["npm 10"]].join("\n")
    expect(findWarnings(log).map(({ line, tool }) => ({ line, tool }))).toEqual([
      { line: 2, tool: "typedoc" },
      { line: 4, tool: "npm" }
    ])
    expect(findWarnings(log)[0].text).not.toContain(esc)
  })

  it("reports at most MAX_SHOWN lines, and how many more", () => {
    const text = Array.from({ length: MAX_SHOWN + 5 }, () => toolWarnings["pnpm deprecated"]).join("\n")
    const { ok, report } = checkLogs([{ name: "install.log", text }])
    expect(ok).toBe(false)
    expect(report.split("\n").filter((l) => l.startsWith("  install.log:"))).toHaveLength(MAX_SHOWN)
    expect(report).toContain("… and 5 more")
  })

  describe("as a command", () => {
    const dir = mkdtempSync(join(tmpdir(), "check-quiet-"))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it("exits 0 on a quiet log, 1 listing file:line on a noisy one", () => {
      const clean = join(dir, "demo.log")
      const noisy = join(dir, "docs.log")
      writeFileSync(clean, Object.values(quiet).join("\n"))
      writeFileSync(noisy, ["docs: building", toolWarnings.typedoc].join("\n"))
      expect(execFileSync("node", [script, clean], { encoding: "utf8" })).toContain("no tool warnings")
      const failed = spawnSync("node", [script, clean, noisy], { encoding: "utf8" })
      expect(failed.status).toBe(1)
      expect(failed.stderr).toContain(`${noisy}:2: [typedoc] [warning] SettingKey`)
    })

    it("reads standard input when given no file", () => {
      const failed = spawnSync("node", [script], { input: toolWarnings["node experimental"], encoding: "utf8" })
      expect(failed.status).toBe(1)
      expect(failed.stderr).toContain("stdin:1: [node]")
    })
  })
})
