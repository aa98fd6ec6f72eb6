// GetProductQuotes through PunchoutClient vs the same request with raw undici, against the sandbox
// on loopback. The sandbox runs in a child process so its CPU does not compete with the client's
// event loop. Rounds interleave the clients so all see the same machine state; prints the medians
// and the row `<what>: <figure> vs <anchor> = <ratio>× (target ≤ 1.15×: met|NOT met)`. The target
// is for PunchoutClient over @shoplink/http-node's UndiciHttpClient, the recommended Node transport;
// PunchoutClient over @effect/platform-node's NodeHttpClient.layerUndici is printed for information.
// Run with `pnpm --filter @shoplink/punchout bench` after a build.
import { NodeHttpClient } from "@effect/platform-node"
import { UndiciHttpClient } from "@shoplink/http-node"
import { Layer, ManagedRuntime, Redacted } from "effect"
import { SANDBOX_CREDENTIALS, SANDBOX_FIXTURES } from "@shoplink/sandbox"
import { spawn } from "node:child_process"
import { once } from "node:events"
import { PerformanceObserver } from "node:perf_hooks"
import v8 from "node:v8"
import vm from "node:vm"
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
const clientOver = async (transport) => {
  const runtime = ManagedRuntime.make(
    PunchoutClient.layer({ baseUrl: sandbox.url, vendorApiKey: Redacted.make(SANDBOX_CREDENTIALS.vendorApiKey) }).pipe(
      Layer.provide(transport)
    )
  )
  const client = await runtime.runPromise(PunchoutClient.PunchoutClient)
  return { runtime, client }
}
const lean = await clientOver(UndiciHttpClient.layer)
const platform = await clientOver(NodeHttpClient.layerUndici)
const session = await lean.runtime.runPromise(lean.client.createSession(
  { accountNo: us.accountNo, username: us.username, country: "US", apiToken: Redacted.make(us.apiToken) },
  { smsVendorName: "bench", webhooks: { order: "http://127.0.0.1:9/o", quote: "http://127.0.0.1:9/q" } }
))
const input = { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 }
const viaClient = () => lean.runtime.runPromise(lean.client.getProductQuotes(session, input))
const viaPlatform = () => platform.runtime.runPromise(platform.client.getProductQuotes(session, input))

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

const cpu = { client: 0, platform: 0, undici: 0 }
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
  await viaPlatform()
  await viaUndici()
}
const runs = { client: [], platform: [], undici: [] }
const contenders = [["client", viaClient], ["platform", viaPlatform], ["undici", viaUndici]]
for (let round = 0; round < ROUNDS; round++) {
  // rotate the order so no contender always runs first (on a warmer or colder machine)
  for (let i = 0; i < contenders.length; i++) {
    const [key, f] = contenders[(round + i) % contenders.length]
    runs[key].push(await time(f, key))
  }
}
// Bytes allocated per call: the heap grows by what a batch allocates when no collection runs in
// between, so batches during which the GC ran are dropped; the median of the rest, per call.
v8.setFlagsFromString("--expose-gc")
const gc = vm.runInNewContext("gc")
let collections = 0
const gcObserver = new PerformanceObserver((list) => {
  collections += list.getEntries().length
})
gcObserver.observe({ entryTypes: ["gc"] })
const settle = () => new Promise((resolve) => setImmediate(resolve))
const bytesPerCall = async (f, batch = 10, batches = 40) => {
  const samples = []
  for (let i = 0; i < batches * 3 && samples.length < batches; i++) {
    gc()
    await settle()
    await settle()
    const seen = collections
    const before = process.memoryUsage().heapUsed
    for (let j = 0; j < batch; j++) await f()
    const after = process.memoryUsage().heapUsed
    await settle()
    if (collections === seen) samples.push((after - before) / batch)
  }
  return samples.length === 0 ? NaN : median(samples)
}
const allocated = {}
for (const [key, f] of contenders) allocated[key] = await bytesPerCall(f)
gcObserver.disconnect()

const TARGET = 1.15
const ALLOCATION_TARGET = 2
const ms = (key) => median(runs[key])
const ratio = ms("client") / ms("undici")
const perRequest = (key) => (cpu[key] / (ROUNDS * PER_ROUND)).toFixed(3)
console.log(
  `GetProductQuotes, ${ROUNDS} interleaved rounds of ${PER_ROUND} requests each (median ms/request, client-side CPU ms/request)`
)
console.log(
  `  PunchoutClient over UndiciHttpClient.layer      ${ms("client").toFixed(3)} ms  CPU ${perRequest("client")} ms  ${
    ratio.toFixed(3)
  }×`
)
console.log(
  `  PunchoutClient over NodeHttpClient.layerUndici  ${ms("platform").toFixed(3)} ms  CPU ${
    perRequest("platform")
  } ms  ${(ms("platform") / ms("undici")).toFixed(3)}× (for information)`
)
console.log(
  `  raw undici                                      ${ms("undici").toFixed(3)} ms  CPU ${perRequest("undici")} ms`
)
console.log(
  `PunchoutClient GetProductQuotes: ${ms("client").toFixed(3)} ms vs raw undici ${ms("undici").toFixed(3)} ms = ${
    ratio.toFixed(3)
  }× (target ≤ ${TARGET}×: ${ratio <= TARGET ? "met" : "NOT met"})`
)

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
const allocationRatio = allocated.client / allocated.undici
console.log(
  `  bytes allocated per call: PunchoutClient ${kb(allocated.client)}, over NodeHttpClient.layerUndici ${
    kb(allocated.platform)
  }, raw undici ${kb(allocated.undici)}`
)
console.log(
  `PunchoutClient bytes allocated per call: ${kb(allocated.client)} vs raw undici ${kb(allocated.undici)} = ${
    allocationRatio.toFixed(2)
  }× (target ≤ ${ALLOCATION_TARGET}×: ${allocationRatio <= ALLOCATION_TARGET ? "met" : "NOT met"})`
)

await lean.runtime.dispose()
await platform.runtime.dispose()
await dispatcher.close()
child.stdin.end()
await once(child, "exit")
