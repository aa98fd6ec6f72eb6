// One small JSON exchange (POST, 416-byte answer) through raw undici, through this package's
// UndiciHttpClient and through @effect/platform-node's NodeHttpClient.layerUndici (with its
// per-request span, and with it disabled as @shoplink/punchout does), against a
// node:http server on loopback in a child process (so its CPU does not compete with the client's).
// Rounds interleave them; prints median ms/request, client-side CPU ms/request and the ratio
// to raw undici. Run with `pnpm --filter @shoplink/http-node bench` after a build.
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, ManagedRuntime } from "effect"
import { spawn } from "node:child_process"
import { once } from "node:events"
import { Agent, request } from "undici"
import { UndiciHttpClient } from "../dist/index.js"

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 100)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000)

const child = spawn(process.execPath, [
  "--input-type=module",
  "-e",
  `import { createServer } from "node:http"
   const body = JSON.stringify({ serverVersion: "bench-1", status: { code: 200, message: { text: "Success" } }, quotes: [{ acaPartTerminologyID: 1684, productID: "51515", brandID: "WIX", categoryID: "FLT", productDesc: "WIX Filters Oil Filter", orderByTime: 1795471200000, dispatchTime: 1795474800000, quantityAvail: 150, quantityReq: 1, price: 6.49, listPrice: 9.99, corePrice: 0, weight: 0.8, quality: "Premium", makeId: 0, subtotal: 6.49 }] })
   const server = createServer((req, res) => {
     req.resume()
     req.on("end", () => { res.writeHead(200, { "content-type": "application/json" }); res.end(body) })
   })
   server.listen(0, "127.0.0.1", () => process.stdout.write("http://127.0.0.1:" + server.address().port + "\\n"))
   process.stdin.on("end", () => process.exit(0))
   process.stdin.resume()`
], { stdio: ["pipe", "pipe", "inherit"] })
const [firstLine] = await once(child.stdout, "data")
const url = `${String(firstLine).trim()}/punchout/v1/GetProductQuotes?token=bench`
const payload = { productID: "51515", brandID: "WIX", quantity: "1" }

const viaEffect = async (layer, withoutSpan = false) => {
  const runtime = ManagedRuntime.make(layer)
  const base = await runtime.runPromise(HttpClient.HttpClient)
  const client = withoutSpan ? HttpClient.withTracerDisabledWhen(base, () => true) : base
  const req = HttpClientRequest.post(url).pipe(HttpClientRequest.acceptJson, HttpClientRequest.bodyUnsafeJson(payload))
  const run = () => runtime.runPromise(Effect.flatMap(client.execute(req), (response) => response.text))
  return { runtime, run }
}
const lean = await viaEffect(UndiciHttpClient.layer)
const platform = await viaEffect(NodeHttpClient.layerUndici)
const platformNoSpan = await viaEffect(NodeHttpClient.layerUndici, true)
const dispatcher = new Agent()
const rawBody = JSON.stringify(payload)
const raw = async () => {
  const response = await request(url, {
    method: "POST",
    dispatcher,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: rawBody
  })
  return response.body.text()
}

const contenders = [
  ["UndiciHttpClient.layer", lean.run],
  ["NodeHttpClient.layerUndici", platform.run],
  ["  same, span disabled", platformNoSpan.run],
  ["raw undici", raw]
]
const wall = Object.fromEntries(contenders.map(([name]) => [name, []]))
const cpu = Object.fromEntries(contenders.map(([name]) => [name, 0]))
for (let i = 0; i < WARMUP; i++) for (const [, f] of contenders) await f()
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < contenders.length; i++) {
    const [name, f] = contenders[(round + i) % contenders.length]
    const startCpu = process.cpuUsage()
    const start = process.hrtime.bigint()
    for (let n = 0; n < PER_ROUND; n++) await f()
    wall[name].push(Number(process.hrtime.bigint() - start) / 1e6 / PER_ROUND)
    const used = process.cpuUsage(startCpu)
    cpu[name] += (used.user + used.system) / 1000
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const rawMs = median(wall["raw undici"])
console.log(
  `POST + 416-byte JSON answer, ${ROUNDS} interleaved rounds of ${PER_ROUND} requests (median wall, client CPU per request)`
)
for (const [name] of contenders) {
  const ms = median(wall[name])
  console.log(
    `  ${name.padEnd(28)} ${ms.toFixed(3)} ms  CPU ${(cpu[name] / (ROUNDS * PER_ROUND)).toFixed(3)} ms  ${
      (ms / rawMs).toFixed(2)
    }× raw`
  )
}

await lean.runtime.dispose()
await platform.runtime.dispose()
await platformNoSpan.runtime.dispose()
await dispatcher.close()
child.stdin.end()
await once(child, "exit")
