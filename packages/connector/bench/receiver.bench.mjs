#!/usr/bin/env node
// Webhook receiver throughput: deliveries per second accepted into the SQLite inbox, against a
// bare node:http handler that only reads the body. Same load generator (undici, fixed number of
// connections, bounded request count), rounds interleaved in one run; prints both rates and the
// ratio (target ≥ 0.7×). Run after `pnpm build`: `pnpm --filter @shoplink/connector bench`.
import { HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Effect, Exit, Layer, Logger, LogLevel, Scope } from "effect"
import { createServer } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import { Pool } from "undici"
import { LaunchRegistry, WebhookInbox, WebhookReceiver } from "../dist/index.js"

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)

const body = (n) =>
  JSON.stringify({
    referenceID: "1042",
    order: {
      orderID: String(100000 + n),
      orderCreateTime: 1763769600000,
      comment: "",
      status: 3,
      statusDescription: "Order submitted",
      orderLines: [
        { acaPartTerminologyID: 5340, productID: "51515", brandID: "WIX", categoryID: "FLT", productDesc: "Oil Filter", dispatchTime: 1763773200000, quantity: 2, price: 6.49, listPrice: 9.99, corePrice: 0, weight: 0.8, quality: "", requestedProductId: "", status: "3", statusDescription: "Order submitted" }
      ]
    }
  })

const dir = mkdtempSync(join(tmpdir(), "shoplink-bench-"))
const scope = Effect.runSync(Scope.make())
// Info logs (one per delivery) go to a terminal in this run; production keeps them, the bench
// measures the receiver at warning level.
const run = (effect) => Effect.runPromise(Scope.extend(effect, scope).pipe(Logger.withMinimumLogLevel(LogLevel.Warning)))

// Our receiver on a SQLite inbox file, with one registered launch key.
const stores = Layer.mergeAll(WebhookInbox.layerSql, LaunchRegistry.layerMemory).pipe(
  Layer.provide(SqliteClient.layer({ filename: join(dir, "inbox.sqlite") }))
)
const { key, receiverUrl } = await run(Effect.gen(function*() {
  const context = yield* Layer.build(stores)
  const registry = yield* Effect.provide(LaunchRegistry.LaunchRegistry, context)
  const { key } = yield* registry.register({ shopId: "shop_1", repairOrderId: "ro_1", repairOrderNumber: "1042", repairOrderUrl: undefined, expiresAt: Date.now() + 3_600_000 })
  const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
  yield* server.serve(HttpRouter.toHttpApp(WebhookReceiver.router()).pipe(Effect.flatten)).pipe(
    Effect.provide(context),
    Logger.withMinimumLogLevel(LogLevel.Warning)
  )
  return { key, receiverUrl: `http://127.0.0.1:${server.address.port}` }
}))

// The baseline: read the body, answer 200.
const bare = createServer((req, res) => {
  const chunks = []
  req.on("data", (c) => chunks.push(c))
  req.on("end", () => {
    Buffer.concat(chunks)
    res.writeHead(200, { "content-type": "application/json" }).end("{\"received\":true}")
  })
})
await new Promise((resolve) => bare.listen(0, "127.0.0.1", resolve))
const bareUrl = `http://127.0.0.1:${bare.address().port}`

let sequence = 0
const load = async (origin, path) => {
  const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1 })
  let next = 0
  let failures = 0
  const started = performance.now()
  const cpuStart = process.cpuUsage()
  const worker = async () => {
    while (next < REQUESTS) {
      next++
      const response = await pool.request({ path, method: "POST", headers: { "content-type": "application/json" }, body: body(sequence++) })
      await response.body.text()
      if (response.statusCode !== 200) failures++
    }
  }
  await Promise.all(Array.from({ length: CONNECTIONS }, worker))
  const seconds = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuStart)
  await pool.close()
  if (failures > 0) throw new Error(`${failures} requests failed against ${origin}${path}`)
  return { rate: REQUESTS / seconds, cpuMicros: (cpu.user + cpu.system) / REQUESTS }
}

const receiverRuns = []
const bareRuns = []
await load(receiverUrl, `/shoplink/webhooks/${key}/order`) // warm-up
await load(bareUrl, "/")
for (let round = 0; round < ROUNDS; round++) {
  receiverRuns.push(await load(receiverUrl, `/shoplink/webhooks/${key}/order`))
  bareRuns.push(await load(bareUrl, "/"))
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const receiver = median(receiverRuns.map((r) => r.rate))
const baseline = median(bareRuns.map((r) => r.rate))
// Process CPU per request, load generator included (it shares the event loop with both servers).
const receiverCpu = median(receiverRuns.map((r) => r.cpuMicros))
const bareCpu = median(bareRuns.map((r) => r.cpuMicros))
console.log(`webhook receiver → SQLite inbox: ${receiver.toFixed(0)} deliveries/s (median of ${ROUNDS} rounds × ${REQUESTS})`)
console.log(`bare node:http body reader:     ${baseline.toFixed(0)} requests/s`)
console.log(`CPU per request (load generator included): receiver ${receiverCpu.toFixed(0)} µs, bare ${bareCpu.toFixed(0)} µs`)
console.log(`ratio receiver / bare: ${(receiver / baseline).toFixed(2)}× (target ≥ 0.70×) on ${availableParallelism()} cores, ${CONNECTIONS} connections`)

bare.close()
await Effect.runPromise(Scope.close(scope, Exit.void))
rmSync(dir, { recursive: true, force: true })
