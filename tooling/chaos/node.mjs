// One process of `pnpm chaos`: `node node.mjs receiver` serves the runtime's public routes (the
// webhooks) and runs no worker; `node node.mjs worker` runs only the inbox worker. Both are
// ConnectorRuntime on the same PostgreSQL database, as a scaled-out deployment runs them.
// Environment: CHAOS_DATABASE_URL, CHAOS_SMS_URL, CHAOS_SECRET_KEYS, CHAOS_LEASE_MS, PORT,
// CHAOS_BLIND_WRITES (see the adapter below); and
// for bench.mjs, CHAOS_SQLITE_FILE (a SQLite file instead of PostgreSQL, for one process) and
// CHAOS_POLL_INTERVAL_MS (the worker's poll interval, default 1000).
import { HttpRouter } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { ShopSystem } from "@shoplink/connector"
import { ConnectorRuntime } from "@shoplink/connector-runtime"
import { UndiciHttpClient } from "@shoplink/http-node"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { createServer } from "node:http"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

const role = process.argv[2]
const sms = process.env.CHAOS_SMS_URL
const lease = Number(process.env.CHAOS_LEASE_MS ?? 3000)

const smsCall = (operation, path, body) =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(`${sms}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal
      })
      if (response.status === 599) return { defect: true }
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      return response.json()
    },
    catch: (error) => new ShopSystem.ShopSystemError({ operation, reason: String(error), retryable: true })
  })

// An adapter as the real ones are: read the repair order's lines, write only the keys not there.
// With CHAOS_BLIND_WRITES=1 (`pnpm chaos`) it writes without reading first, so an entry applied
// twice is a line stored twice at the fake SMS (which does not deduplicate). Each write names its
// process (x-writer), and a 599 from the fake SMS (a repair order it is told to break) becomes a
// defect here: a throw inside the adapter call, not a typed failure.
const blind = process.env.CHAOS_BLIND_WRITES === "1"
const writer = String(process.pid)
const write = (operation) => (w) =>
  Effect.gen(function*() {
    const path = `/ro/${encodeURIComponent(w.repairOrderId)}/lines`
    const keys = blind ? [] : (yield* smsCall(operation, path)).keys
    const fresh = w.lines.map((l) => l.idempotencyKey).filter((key) => !keys.includes(key))
    // The delivery's number rides in its product id (`ro#n`); the report checks the order with it.
    const seq = Number(w.lines[0]?.productID.split("#")[1] ?? -1)
    if (fresh.length > 0) {
      const answer = yield* smsCall(operation, path, { keys: fresh, seq, writer })
      if (answer.defect === true) {
        yield* Effect.sync(() => {
          throw new Error(`adapter defect for ${w.repairOrderId}`)
        })
      }
    }
    return { added: fresh.length, alreadyPresent: w.lines.length - fresh.length }
  })

const adapter = Layer.succeed(ShopSystem.ShopSystem, {
  capabilities: new Set(["readRepairOrder", "writeQuotedParts", "writeOrderedParts"]),
  loadRepairOrder: ({ repairOrderId }) => Effect.succeed({ id: repairOrderId, number: repairOrderId, vehicle: {} }),
  applyQuote: write("applyQuote"),
  applyOrder: write("applyOrder")
})

const program = Effect.gen(function*() {
  const runtime = yield* ConnectorRuntime.make(adapter, {
    publicBaseUrl: `http://127.0.0.1:${process.env.PORT ?? 0}`,
    smsVendorName: "Shoplink chaos",
    // The sandbox when run.mjs launches through it; the bench makes no launch.
    punchout: {
      baseUrl: process.env.CHAOS_PUNCHOUT_URL ?? "http://127.0.0.1:9",
      vendorApiKey: Redacted.make(process.env.CHAOS_VENDOR_API_KEY ?? "unused: no launches here")
    },
    storage: process.env.CHAOS_SQLITE_FILE
      ? { sqlite: process.env.CHAOS_SQLITE_FILE }
      : { postgres: Redacted.make(process.env.CHAOS_DATABASE_URL) },
    secretKeys: Redacted.make(process.env.CHAOS_SECRET_KEYS),
    inboxLease: `${lease} millis`,
    worker: role === "worker"
      ? {
        concurrency: 8,
        pollInterval: `${Number(process.env.CHAOS_POLL_INTERVAL_MS ?? 1000)} millis`,
        baseDelay: "200 millis",
        maxDelay: "2 seconds",
        maxAttempts: 50,
        operationTimeout: `${Math.floor(lease / 2)} millis`
      }
      : false,
    retention: false
  })
  if (role === "receiver") {
    const server = yield* NodeHttpServer.make(() => createServer(), {
      port: Number(process.env.PORT),
      host: "127.0.0.1"
    })
    yield* runtime.serve(server, HttpRouter.concatAll(runtime.publicRouter, runtime.apiRouter, runtime.healthRouter))
  }
  // The pid (what the harness signals) and this process's clock (a faketime'd worker's is off).
  process.stdout.write(`ready ${role} pid=${process.pid} now=${Date.now()}\n`)
  return yield* Effect.never
})

// SIGUSR2 (bench.mjs's soak, once it has read the RSS): what the process holds, as it is and after
// a full collection, so the RSS row can say whether it is live objects or heap V8 kept.
process.on("SIGUSR2", () => {
  const mib = (bytes) => (bytes / 1048576).toFixed(0)
  const line = (m) =>
    `rss=${mib(m.rss)} heapTotal=${mib(m.heapTotal)} heapUsed=${mib(m.heapUsed)} external=${
      mib(m.external)
    } arrayBuffers=${mib(m.arrayBuffers)}`
  const before = process.memoryUsage()
  setFlagsFromString("--expose-gc")
  runInNewContext("gc")()
  process.stdout.write(`memory before-gc ${line(before)} after-gc ${line(process.memoryUsage())}\n`)
})

NodeRuntime.runMain(
  Effect.scoped(program).pipe(
    Effect.provide(UndiciHttpClient.layer),
    Logger.withMinimumLogLevel(LogLevel.Warning)
  )
)
