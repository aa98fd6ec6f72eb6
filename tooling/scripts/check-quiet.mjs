#!/usr/bin/env node
// Fails when the output of `pnpm install`, `pnpm test`, `pnpm demo`, `pnpm test:deploy` or
// `pnpm run docs` contains a warning from one of the tools (issue #27: a fresh clone's commands
// print no warnings; .ci/run runs this over their logs).
// Usage: node check-quiet.mjs [log ...]   (no file, or `-`: standard input)
// Exit 0 when quiet; 1 with each offending line (`file:line: text`, at most 20) otherwise.
//
// What counts is a tool's own warning, matched by its format (ANSI colours removed first):
// pnpm's ` WARN  ` lines (deprecated packages, failed bins, peer issues) and their `✕ unmet peer`
// / `✕ missing peer` tree lines, npm's `npm warn`, typedoc's `[warning]`, Node's process warnings
// (`(node:1234) ExperimentalWarning: …`), attw's "Resolution failed" table cells, publint's
// warnings and turbo's ` WARNING ` lines. Not a warning: the services' own structured log lines,
// which say `level=WARN` (logfmt) or `"level":"WARN"` (JSON) and may quote messages with any
// words in them: those lines are recognised and skipped, text in double quotes is not matched
// anywhere, and `level=WARN` is not pnpm's format.
import { readFileSync } from "node:fs"
import { pathToFileURL } from "node:url"

/** How many offending lines are printed (all are counted). */
export const MAX_SHOWN = 20

/** The tools' warning formats: a name for the report and a pattern over one unquoted line. */
export const RULES = [
  // pnpm: " WARN  deprecated x@1", " WARN  Failed to create bin at …", "pkg | WARN  …" (two spaces
  // after WARN, the word on its own; logfmt's `level=WARN ` is neither).
  { tool: "pnpm", pattern: /(?:^|[\s|│])WARN {2}/ },
  { tool: "pnpm", pattern: /✕ (?:unmet|missing) peer\b/ },
  { tool: "pnpm", pattern: /\bIssues with peer dependencies found\b/ },
  // npm 7+ prints `npm warn` (npm 10) or `npm WARN` (older).
  { tool: "npm", pattern: /(?:^|\s)npm warn\b/i },
  // typedoc's logger: "[warning] X, defined in …, is referenced by … but not included".
  { tool: "typedoc", pattern: /\[warning\]/i },
  // Node: "(node:1234) ExperimentalWarning: …", "(node:1234) [DEP0040] DeprecationWarning: …",
  // "(node:1234) Warning: …", and the name when it is printed on its own.
  { tool: "node", pattern: /\(node:\d+\)\s+(?:\[[A-Z0-9_]+\]\s+)?[A-Za-z]*Warning\b/ },
  { tool: "node", pattern: /\bExperimentalWarning\b/ },
  // attw's table (TypeScript's module resolution per entry point and resolution mode).
  { tool: "attw", pattern: /Resolution failed/ },
  // publint, as tooling/scripts/lint-package.mjs prints its messages.
  { tool: "publint", pattern: /\bpublint warning:/ },
  // turbo: " WARNING  no output files found for task …", "WARNING  Unable to calculate …".
  { tool: "turbo", pattern: /(?:^|\s)WARNING {1,2}\S/ }
]

// The services' own log lines (the connector's Observability formats, Effect's loggers), possibly
// behind turbo's `pkg:task: ` prefix: never a tool's warning, whatever their message says.
export const APP_LOG_LINES = [
  // logfmt: timestamp=2026-01-01T00:00:00.000Z level=WARN fiber=#12 message="…" reason="…"
  /^(?:\S+:\s)?\s*timestamp=\S+ level=[A-Z]+\b/,
  // JSON: {"time":"…","level":"warning","message":"…"} (Observability.jsonLogger), Effect's
  // {"message":"…","logLevel":"WARN",…}
  /^(?:\S+:\s)?\s*\{".*"(?:level|logLevel)":"[A-Za-z]+"/,
  // pretty: [15:54:54.550] WARN (#2): order verification failed; applying anyway (warn mode)
  /^(?:\S+:\s)?\s*\[\d\d:\d\d:\d\d\.\d{3}\] [A-Z]+ \(#\d+\):/
]

const ansi = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g
const quoted = /"(?:[^"\\\n]|\\.)*"/g

/**
 * The warnings in a log: one entry per offending line, `line` numbered from 1.
 * @param {string} text
 * @returns {Array<{ line: number, text: string, tool: string }>}
 */
export const findWarnings = (text) => {
  const found = []
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    // A progress line rewritten in place (`\r`) counts by its last state.
    const shown = lines[i].replace(ansi, "").split("\r").at(-1)
    if (APP_LOG_LINES.some((app) => app.test(shown))) continue
    const unquoted = shown.replace(quoted, "\"\"")
    const rule = RULES.find((r) => r.pattern.test(unquoted))
    if (rule !== undefined) found.push({ line: i + 1, text: shown.trimEnd(), tool: rule.tool })
  }
  return found
}

/**
 * The report of check-quiet for some logs: `ok` when none has a warning.
 * @param {Array<{ name: string, text: string }>} logs
 * @returns {{ ok: boolean, report: string }}
 */
export const checkLogs = (logs) => {
  const all = logs.flatMap(({ name, text }) => findWarnings(text).map((w) => ({ ...w, name })))
  if (all.length === 0) {
    return { ok: true, report: `check-quiet: no tool warnings in ${logs.map((l) => l.name).join(", ")}` }
  }
  const shown = all.slice(0, MAX_SHOWN).map((w) => `  ${w.name}:${w.line}: [${w.tool}] ${w.text.trim().slice(0, 300)}`)
  const more = all.length > MAX_SHOWN ? [`  … and ${all.length - MAX_SHOWN} more`] : []
  return {
    ok: false,
    report: [
      `check-quiet: ${all.length} tool warning line(s); the commands must print none (issue #27).`,
      ...shown,
      ...more,
      "Fix the cause (see the line above); do not hide it in tooling/scripts/check-quiet.mjs."
    ].join("\n")
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const files = process.argv.slice(2)
  const logs = (files.length === 0 ? ["-"] : files).map((file) =>
    file === "-" ? { name: "stdin", text: readFileSync(0, "utf8") } : { name: file, text: readFileSync(file, "utf8") }
  )
  const { ok, report } = checkLogs(logs)
  if (ok) console.log(report)
  else console.error(report)
  process.exit(ok ? 0 : 1)
}
