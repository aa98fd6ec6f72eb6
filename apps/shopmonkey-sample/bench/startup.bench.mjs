// Time from starting the sample service on its embedded default (`node dist/main.js`, no settings:
// the sandbox and the fake Shopmonkey in-process) to its first answer on /healthz, against a bare
// `node -e` that starts a node:http server and answers once (the anchor: what Node itself costs).
// Interleaved rounds; prints the medians, the target (≤ 1.5 s) and whether it is met.
// Run with `pnpm --filter shopmonkey-sample bench` after a build. Informational: it never fails.
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const TARGET_MS = 1500
const main = fileURLToPath(new URL("../dist/main.js", import.meta.url))
const bare =
  `require("node:http").createServer((q, s) => s.end("ok")).listen(0, "127.0.0.1", function() { console.log("is running. Open http://127.0.0.1:" + this.address().port) })`

// Resolves with the milliseconds until the process's announced URL answered /healthz.
const timeToAnswer = (args, env) =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    const timer = setTimeout(
      () => (child.kill(), reject(new Error(`no answer within 20 s: ${out.slice(0, 300)}`))),
      20_000
    )
    const onData = (chunk) => {
      out += chunk
      const port = /is running\. Open https?:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]
      if (port === undefined) return
      child.stdout.off("data", onData)
      const poll = () =>
        fetch(`http://127.0.0.1:${port}/healthz`).then(
          () => (clearTimeout(timer), child.kill(), resolve(performance.now() - started)),
          () => setTimeout(poll, 2)
        )
      poll()
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", (chunk) => (out += chunk))
  })

const sample = []
const anchor = []
for (let round = 0; round < ROUNDS + 1; round++) {
  const s = await timeToAnswer([main], { PORT: "0", SHOPLINK_LOG_LEVEL: "warning" })
  const a = await timeToAnswer(["-e", bare], {})
  if (round > 0) {
    sample.push(s)
    anchor.push(a)
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]
const ms = median(sample)
console.log(
  `shopmonkey-sample listening on its embedded default: ${ms.toFixed(0)} ms vs a bare node:http server ${
    median(anchor).toFixed(0)
  } ms (target ≤ ${TARGET_MS} ms: ${ms <= TARGET_MS ? "met" : "NOT met"}), median of ${ROUNDS} interleaved starts`
)
