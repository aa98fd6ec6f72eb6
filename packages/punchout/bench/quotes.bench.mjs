// GetProductQuotes through PunchoutClient vs the same request with raw undici, against the sandbox
// on loopback. The sandbox runs in a child process so its CPU does not compete with the client's
// event loop. Rounds interleave the two clients so both see the same machine state; prints the
// ratio of medians (target ≤ 1.15×). Run with `pnpm --filter @shoplink/punchout bench` after a build.
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { SANDBOX_CREDENTIALS, SANDBOX_FIXTURES } from "@shoplink/sandbox"
import { spawn } from "node:child_process"
import { once } from "node:events"
import { Agent, request } from "undici"
import { PunchoutClient } from "../dist/index.js"

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 50)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000)

const child = spawn(process.execPath, [
  "--input-type=module",
  "-e",
  `import { startSandboxServer } from "@shoplink/sandbox"
   const handle = await startSandboxServer({ port: 0 })
   process.stdout.write(handle.url + "\\n")
   process.stdin.on("end", () => handle.close().then(() => process.exit(0)))
   process.stdin.resume()`
], { cwd: import.meta.dirname, stdio: ["pipe", "pipe", "inherit"] })
const [firstLine] = await once(child.stdout, "data")
const sandbox = { url: String(firstLine).trim() }
const us = SANDBOX_CREDENTIALS.customers.us
const runtime = ManagedRuntime.make(
  PunchoutClient.layer({ baseUrl: sandbox.url, vendorApiKey: Redacted.make(SANDBOX_CREDENTIALS.vendorApiKey) }).pipe(
    Layer.provide(NodeHttpClient.layerUndici)
  )
)
const client = await runtime.runPromise(PunchoutClient.PunchoutClient)
const session = await runtime.runPromise(client.createSession(
  { accountNo: us.accountNo, username: us.username, country: "US", apiToken: Redacted.make(us.apiToken) },
  { smsVendorName: "bench", webhooks: { order: "http://127.0.0.1:9/o", quote: "http://127.0.0.1:9/q" } }
))
const input = { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 }
const viaClient = () => runtime.runPromise(client.getProductQuotes(session, input))

const dispatcher = new Agent({ keepAliveTimeout: 10_000 })
const rawUrl = Redacted.value(session.urlTemplate).replace("{command}", "GetProductQuotes")
const rawBody = JSON.stringify({ productID: input.productID, brandID: input.brandID, quantity: "1" })
const viaUndici = async () => {
  const response = await request(rawUrl, {
    method: "POST",
    dispatcher,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: rawBody
  })
  const json = await response.body.json()
  if (json.status.code !== 200) throw new Error("raw request failed")
  return json
}

const cpu = { client: 0, undici: 0 }
const time = async (f, key) => {
  const startCpu = process.cpuUsage()
  const start = process.hrtime.bigint()
  for (let i = 0; i < PER_ROUND; i++) await f()
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6 / PER_ROUND
  const used = process.cpuUsage(startCpu)
  cpu[key] += (used.user + used.system) / 1000
  return elapsed
}
const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

for (let i = 0; i < WARMUP; i++) {
  await viaClient()
  await viaUndici()
}
const clientMs = []
const undiciMs = []
for (let round = 0; round < ROUNDS; round++) {
  // alternate which goes first so neither always runs on a warmer machine
  if (round % 2 === 0) {
    clientMs.push(await time(viaClient, "client"))
    undiciMs.push(await time(viaUndici, "undici"))
  } else {
    undiciMs.push(await time(viaUndici, "undici"))
    clientMs.push(await time(viaClient, "client"))
  }
}
const ratio = median(clientMs) / median(undiciMs)
console.log(`GetProductQuotes, ${ROUNDS} interleaved rounds of ${PER_ROUND} requests each`)
console.log(`  PunchoutClient  median ${median(clientMs).toFixed(3)} ms/request`)
console.log(`  raw undici      median ${median(undiciMs).toFixed(3)} ms/request`)
const perRequest = (total) => (total / (ROUNDS * PER_ROUND)).toFixed(3)
console.log(`  client-side CPU  PunchoutClient ${perRequest(cpu.client)} ms/request, raw undici ${perRequest(cpu.undici)} ms/request`)
console.log(`  ratio ${ratio.toFixed(3)}× (target ≤ 1.15×) ${ratio <= 1.15 ? "OK" : "ABOVE TARGET"}`)

await runtime.dispose()
await dispatcher.close()
child.stdin.end()
await once(child, "exit")
