#!/usr/bin/env node
// `turbo run build` with a progress line per package (which one, seconds since the build began)
// instead of minutes of silence on a fresh clone; a failing package's output is printed in full.
// Usage: node tooling/scripts/build.mjs [--filter=<pkg>...]   (extra arguments go to turbo)
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"

const started = Date.now()
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s`
const turbo = spawn("turbo", ["run", "build", "--output-logs=full", ...process.argv.slice(2)], {
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", FORCE_COLOR: "0" },
  stdio: ["ignore", "pipe", "pipe"]
})
let built = 0
let cached = 0
// What a successful task prints besides its start: the pnpm script header and blank lines.
const quiet = /^\S+:build: (?:> .*)?$/
const onLine = (line) => {
  const start = /^(\S+):build: cache (miss|hit|bypass)/.exec(line)
  if (start !== null) {
    if (start[2] === "hit") cached++
    else {
      built++
      console.log(`[build ${elapsed()}] building ${start[1]}`)
    }
    return
  }
  // turbo's own banner and summary: only the summary's task count is kept.
  if (/^\s*(?:•|Tasks:|Cached:|Time:|$)/.test(line) || quiet.test(line)) return
  console.log(line)
}
createInterface({ input: turbo.stdout }).on("line", onLine)
createInterface({ input: turbo.stderr }).on("line", onLine)
turbo.on("exit", (code) => {
  if (code === 0) console.log(`[build ${elapsed()}] ${built} built, ${cached} cached`)
  process.exit(code ?? 1)
})
