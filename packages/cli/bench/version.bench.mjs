// Wall time of `shoplink --version` (and `--help`) against a bare `node -e 0`: what a user waits for
// before the CLI answers. Each round spawns one of each, interleaved so all see the same machine
// state; prints the medians, the ratio of `--version` to bare Node, the target (≤ 3×) and whether
// it is met. Run with `pnpm --filter @shoplink/cli bench` after a build. Informational: it never
// fails, so a loaded machine cannot break the bench run.
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3)
const TARGET = 3
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))

const commands = {
  "node -e 0": ["-e", "0"],
  "shoplink --version": [bin, "--version"],
  "shoplink --help": [bin, "--help"]
}

const time = (args) => {
  const start = process.hrtime.bigint()
  const result = spawnSync(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}`)
  return ms
}

const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, []]))
for (let round = 0; round < WARMUP + ROUNDS; round++) {
  for (const [name, args] of Object.entries(commands)) {
    const ms = time(args)
    if (round >= WARMUP) samples[name].push(ms)
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

const node = median(samples["node -e 0"])
console.log(`shoplink startup, ${ROUNDS} interleaved rounds (median wall time per spawn)`)
for (const [name, values] of Object.entries(samples)) {
  console.log(
    `  ${name.padEnd(20)} ${median(values).toFixed(1).padStart(7)} ms  ${(median(values) / node).toFixed(2)}×`
  )
}
const ratio = median(samples["shoplink --version"]) / node
console.log(
  `shoplink --version / node -e 0 = ${ratio.toFixed(2)}× (target ≤ ${TARGET}×): ${ratio <= TARGET ? "met" : "NOT met"}`
)
