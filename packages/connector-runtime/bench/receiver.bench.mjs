#!/usr/bin/env node
// Webhook receiver throughput: deliveries per second accepted into the SQLite inbox (served by
// `WebhookReceiver.serve`, the lean webhook handler in front of the platform app), against the
// durable floor — a minimal receiver written by hand here with node:http and better-sqlite3 that
// keeps the same guarantees (size limit, JSON parse plus a check of the required fields, the same
// content key, INSERT … ON CONFLICT DO NOTHING in one transaction per event-loop turn, WAL with
// synchronous = FULL, the 2xx only after the commit). A bare node:http handler that only reads the
// body is printed for information. Same load generator (undici, fixed number of connections,
// bounded request count), rounds interleaved in one run; prints the ratio to the floor (target
// ≥ 0.5×) and the p99 time to acknowledge at a fixed 500 deliveries/s for 30 s (target ≤ 50 ms).
// Run after `pnpm build`: `pnpm --filter @shoplink/connector bench`.
import { HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Effect, Exit, Layer, Logger, LogLevel, Scope } from "effect"
import { createServer } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import { Pool } from "undici"
import Database from "better-sqlite3"
import { LaunchRegistry, WebhookInbox, WebhookReceiver } from "../dist/index.js"
import { receiveFloor, sqliteFloorStore } from "../../../tooling/chaos/floor.mjs"
import { orderContentKey } from "../dist/internal/deliveries.js"

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
const FIXED_RATE = Number(process.env.BENCH_FIXED_RATE ?? 500)
const FIXED_SECONDS = Number(process.env.BENCH_FIXED_SECONDS ?? 30)

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
        {
          acaPartTerminologyID: 5340,
          productID: "51515",
          brandID: "WIX",
          categoryID: "FLT",
          productDesc: "Oil Filter",
          dispatchTime: 1763773200000,
          quantity: 2,
          price: 6.49,
          listPrice: 9.99,
          corePrice: 0,
          weight: 0.8,
          quality: "",
          requestedProductId: "",
          status: "3",
          statusDescription: "Order submitted"
        }
      ]
    }
  })

const dir = mkdtempSync(join(tmpdir(), "shoplink-bench-"))
const scope = Effect.runSync(Scope.make())
// Info logs (one per delivery) go to a terminal in this run; production keeps them, the bench
// measures the receiver at warning level.
const run = (effect) =>
  Effect.runPromise(Scope.extend(effect, scope).pipe(Logger.withMinimumLogLevel(LogLevel.Warning)))

// Our receiver on a SQLite inbox file, with one registered launch key.
const stores = Layer.mergeAll(WebhookInbox.layerSql, LaunchRegistry.layerMemory).pipe(
  Layer.provide(SqliteClient.layer({ filename: join(dir, "inbox.sqlite") }))
)
// The receiver as shipped: `WebhookReceiver.serve` (what `ConnectorRuntime.serve` does for its public
// router) puts the lean node:http webhook handler in front of the platform app. The same router
// mounted in a plain platform server (every request through the Effect HTTP stack) is printed for
// information. Both on the same inbox file.
const { key, receiverUrl, routerUrl } = await run(Effect.gen(function*() {
  const context = yield* Layer.build(stores)
  const registry = yield* Effect.provide(LaunchRegistry.LaunchRegistry, context)
  const { key } = yield* registry.register({
    shopId: "shop_1",
    repairOrderId: "ro_1",
    repairOrderNumber: "1042",
    repairOrderUrl: undefined,
    expiresAt: Date.now() + 3_600_000
  })
  const app = HttpRouter.toHttpApp(WebhookReceiver.router()).pipe(Effect.flatten)
  const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
  yield* WebhookReceiver.serve(server, app).pipe(Effect.provide(context), Logger.withMinimumLogLevel(LogLevel.Warning))
  const routerServer = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
  yield* routerServer.serve(app).pipe(Effect.provide(context), Logger.withMinimumLogLevel(LogLevel.Warning))
  return {
    key,
    receiverUrl: `http://127.0.0.1:${server.address.port}`,
    routerUrl: `http://127.0.0.1:${routerServer.address.port}`
  }
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

// The durable floor: what any receiver must at least do before its 2xx, with nothing else (the
// hand-written node:http + better-sqlite3 receiver of tooling/chaos/floor.mjs, for the order webhook).
const floorDb = new Database(join(dir, "floor.sqlite"))
const floorLaunches = new Map([["k".repeat(43), { shopId: "shop_1", repairOrderId: "ro_1" }]])
const isOrderWebhook = (value) =>
  typeof value === "object" && value !== null && typeof value.referenceID === "string" &&
  typeof value.order === "object" && value.order !== null && typeof value.order.orderID === "string" &&
  typeof value.order.status === "number" && Array.isArray(value.order.orderLines) &&
  value.order.orderLines.every((l) =>
    typeof l === "object" && l !== null && typeof l.productID === "string" && typeof l.brandID === "string" &&
    typeof l.quantity === "number"
  )
const floor = receiveFloor({
  kind: "order",
  launches: floorLaunches,
  isWebhook: isOrderWebhook,
  contentKey: (launch, webhook) => orderContentKey(launch.shopId, launch.repairOrderId, webhook),
  store: sqliteFloorStore(floorDb, { kind: "order", table: "inbox" })
})
await new Promise((resolve) => floor.listen(0, "127.0.0.1", resolve))
const floorUrl = `http://127.0.0.1:${floor.address().port}`
const floorPath = `/shoplink/webhooks/${"k".repeat(43)}/order`

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
      const response = await pool.request({
        path,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: body(sequence++)
      })
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

// Open loop: one delivery every 1/rate seconds whatever the answers do, each timed to its 2xx.
const fixedRate = async (origin, path) => {
  const pool = new Pool(origin, { connections: 64, pipelining: 1 })
  const latencies = []
  const inFlight = []
  const interval = 1000 / FIXED_RATE
  const total = FIXED_RATE * FIXED_SECONDS
  const started = performance.now()
  for (let i = 0; i < total; i++) {
    const due = started + i * interval
    const wait = due - performance.now()
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
    const sent = performance.now()
    inFlight.push(
      pool.request({ path, method: "POST", headers: { "content-type": "application/json" }, body: body(sequence++) })
        .then(async (response) => {
          await response.body.text()
          if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode} from ${origin}${path}`)
          latencies.push(performance.now() - sent)
        })
    )
  }
  await Promise.all(inFlight)
  await pool.close()
  latencies.sort((a, b) => a - b)
  return { p50: latencies[Math.floor(latencies.length * 0.5)], p99: latencies[Math.floor(latencies.length * 0.99)] }
}

const receiverPath = `/shoplink/webhooks/${key}/order`
if (process.env.BENCH_PROFILE === "receiver") {
  // `BENCH_PROFILE=receiver node --cpu-prof bench/receiver.bench.mjs`: the receiver alone in the profile.
  for (let round = 0; round <= ROUNDS; round++) await load(receiverUrl, receiverPath)
  bare.close()
  floor.close()
  floorDb.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dir, { recursive: true, force: true })
  process.exit(0)
}
const receiverRuns = []
const floorRuns = []
const bareRuns = []
const routerRuns = []
await load(receiverUrl, receiverPath) // warm-up (its first request also puts the lean handler in front)
await load(floorUrl, floorPath)
await load(bareUrl, "/")
await load(routerUrl, receiverPath)
for (let round = 0; round < ROUNDS; round++) {
  receiverRuns.push(await load(receiverUrl, receiverPath))
  floorRuns.push(await load(floorUrl, floorPath))
  bareRuns.push(await load(bareUrl, "/"))
  routerRuns.push(await load(routerUrl, receiverPath))
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const receiver = median(receiverRuns.map((r) => r.rate))
const durable = median(floorRuns.map((r) => r.rate))
const baseline = median(bareRuns.map((r) => r.rate))
const routerOnly = median(routerRuns.map((r) => r.rate))
// Process CPU per request, load generator included (it shares the event loop with both servers).
const receiverCpu = median(receiverRuns.map((r) => r.cpuMicros))
const floorCpu = median(floorRuns.map((r) => r.cpuMicros))
const bareCpu = median(bareRuns.map((r) => r.cpuMicros))
const routerCpu = median(routerRuns.map((r) => r.cpuMicros))
const ratio = receiver / durable
console.log(
  `webhook receiver → SQLite inbox: ${receiver.toFixed(0)} deliveries/s (median of ${ROUNDS} rounds × ${REQUESTS})`
)
console.log(`durable floor (node:http + better-sqlite3 by hand): ${durable.toFixed(0)} deliveries/s`)
console.log(`bare node:http body reader (information only): ${baseline.toFixed(0)} requests/s`)
console.log(
  `the router alone in a platform server, no lean handler (information only): ${routerOnly.toFixed(0)} deliveries/s (${
    (routerOnly / durable).toFixed(2)
  }× the floor)`
)
console.log(
  `CPU per request (load generator included): receiver ${receiverCpu.toFixed(0)} µs, floor ${
    floorCpu.toFixed(0)
  } µs, bare ${bareCpu.toFixed(0)} µs, router alone ${routerCpu.toFixed(0)} µs`
)
console.log(
  `ratio receiver / durable floor: ${ratio.toFixed(2)}× (target ≥ 0.50×: ${
    ratio >= 0.5 ? "met" : "NOT met"
  }) on ${availableParallelism()} cores, ${CONNECTIONS} connections`
)
// Where a busy disk makes each commit wait, the floor (small batches, one sync each) slows down more
// than the receiver (larger batches): the rate ratio then flatters the receiver. The CPU ratio does
// not depend on the disk; it understates the rate ratio a little (garbage collection runs on helper
// threads): 0.19× for a rate ratio of 0.27× in the quiet run of 2026-11-24 (README).
console.log(
  `CPU ratio floor / receiver: ${(floorCpu / receiverCpu).toFixed(2)}× (router alone ${
    (floorCpu / routerCpu).toFixed(2)
  }×): the disk-independent view`
)
const fixedReceiver = await fixedRate(receiverUrl, receiverPath)
const fixedFloor = await fixedRate(floorUrl, floorPath)
console.log(
  `time to acknowledge at ${FIXED_RATE} deliveries/s for ${FIXED_SECONDS} s: receiver p50 ${
    fixedReceiver.p50.toFixed(1)
  } ms, p99 ${fixedReceiver.p99.toFixed(1)} ms (target ≤ 50 ms: ${
    fixedReceiver.p99 <= 50 ? "met" : "NOT met"
  }); durable floor p99 ${fixedFloor.p99.toFixed(1)} ms`
)

bare.close()
floor.close()
floorDb.close()
await Effect.runPromise(Scope.close(scope, Exit.void))
rmSync(dir, { recursive: true, force: true })
