// Import time of a package against `import("effect")`, each in a fresh Node process (what an
// application pays once at start-up), interleaved round by round so both see the same machine
// state. Prints the medians, the ratio, the target (≤ 1.25×, issue #25's figure for an adapter)
// and whether it is met. Each adapter's `bench` script runs it from its own folder, so the package
// resolves as an application would install it:
//   node ../../tooling/scripts/import-bench.mjs @shoplink/adapter-shopmonkey
// Informational: it never fails, so a loaded machine cannot break the bench run.
import { spawnSync } from "node:child_process"

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2)
const TARGET = 1.25

// Each child times its own dynamic import, so process start-up is not counted.
const timed = (specifier) =>
  `const t = performance.now(); await import(${
    JSON.stringify(specifier)
  }); process.stdout.write(String(performance.now() - t))`

const measured = process.argv[2]
if (measured === undefined) throw new Error("usage: import-bench.mjs <package>")
const candidates = { effect: "effect", [measured]: measured }
const samples = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]))
for (let round = 0; round < WARMUP + ROUNDS; round++) {
  for (const [name, specifier] of Object.entries(candidates)) {
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", timed(specifier)], {
      cwd: process.cwd(),
      encoding: "utf8"
    })
    if (result.status !== 0) throw new Error(`import(${specifier}) failed: ${result.stderr}`)
    if (round >= WARMUP) samples[name].push(Number(result.stdout))
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const anchor = median(samples.effect)
const adapter = median(samples[measured])
const ratio = adapter / anchor
console.log(
  `import of ${measured}: ${adapter.toFixed(0)} ms vs import("effect") ${anchor.toFixed(0)} ms = ${
    ratio.toFixed(2)
  }× (target ≤ ${TARGET}×: ${ratio <= TARGET ? "met" : "NOT met"}), median of ${ROUNDS} interleaved fresh processes`
)
