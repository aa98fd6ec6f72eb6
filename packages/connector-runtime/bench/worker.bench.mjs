#!/usr/bin/env node
// The inbox worker. Run after `pnpm build`: `pnpm --filter @shoplink/connector bench`.
//
// (a) Throughput: 20 repair orders × 25 deliveries in a SQLite inbox, applied through a fake shop
//     system that takes 100 ms per call, at the default concurrency (8), with each repair order's
//     order of application checked against the order of receipt. The anchor is the same run at
//     concurrency 1 (the old sequential worker), rounds interleaved; to keep the bench short the
//     anchor applies 20 × 5 deliveries (a sequential rate does not depend on the count). Target
//     ≥ 40 deliveries/s.
// (b) Soak: 100,000 deliveries received into the SQLite inbox (through `WebhookInbox.receive`, not
//     HTTP: the receiver has its own bench) and applied by the worker (fake shop system, no
//     latency) while retention runs with short periods (bodies cleared 2 s after apply, entries
//     deleted after 5 s, expired launch keys after 1 s; every second). Prints RSS and the database
//     size (file + WAL) after warm-up and at the end. Targets: RSS at the end within ±20% of the
//     warm-up figure, and the database no larger at the end than 1.25× its warm-up size.
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Deferred, Effect, Exit, Fiber, Layer, Logger, LogLevel, Scope } from "effect"
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import { InboxWorker, LaunchRegistry, Retention, ShopSystem, WebhookInbox } from "../dist/index.js"

const ROUNDS = Number(process.env.BENCH_WORKER_ROUNDS ?? 2)
const LATENCY_MS = Number(process.env.BENCH_SMS_LATENCY_MS ?? 100)
const SOAK = Number(process.env.BENCH_SOAK_DELIVERIES ?? 100_000)
const SOAK_WARMUP = Number(process.env.BENCH_SOAK_WARMUP ?? 20_000)

const dir = mkdtempSync(join(tmpdir(), "shoplink-worker-bench-"))
let files = 0
const quiet = Logger.withMinimumLogLevel(LogLevel.Warning)

const quote = (repairOrderId, n) =>
  JSON.stringify({
    referenceID: repairOrderId,
    quotes: [{
      acaPartTerminologyID: 5340,
      productID: `${repairOrderId}#${n}`,
      brandID: "WIX",
      categoryID: "FLT",
      productDesc: "Oil Filter",
      orderByTime: 1763769600000,
      dispatchTime: 1763773200000,
      quantityAvail: 12,
      quantityReq: 1,
      price: 6.49,
      listPrice: 9.99,
      corePrice: 0,
      weight: 0.8,
      quality: "",
      makeId: 0,
      subtotal: 6.49
    }]
  })
const order = (repairOrderId, n) =>
  JSON.stringify({
    referenceID: repairOrderId,
    order: {
      orderID: `${repairOrderId}-${n}`,
      orderCreateTime: 1763769600000,
      comment: "",
      status: 3,
      statusDescription: "Order submitted",
      orderLines: Array.from({ length: 4 }, (_, i) => ({
        acaPartTerminologyID: 5340 + i,
        productID: `P${n}-${i}`,
        brandID: "WIX",
        categoryID: "FLT",
        productDesc: "Oil Filter, spin-on, with anti-drainback valve",
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
      }))
    }
  })

/** A fake shop system: `latency` ms per call; records each repair order's writes in order. */
const fakeSms = (latency, onWrite) => {
  const write = (w) => {
    const done = Effect.sync(() => {
      onWrite(w)
      return { added: w.lines.length, alreadyPresent: 0 }
    })
    return latency > 0 ? Effect.zipRight(Effect.sleep(latency), done) : done
  }
  return Layer.succeed(ShopSystem.ShopSystem, {
    capabilities: new Set(ShopSystem.ALL_CAPABILITIES),
    loadRepairOrder: ({ repairOrderId }) => Effect.succeed({ id: repairOrderId, number: repairOrderId, vehicle: {} }),
    applyQuote: write,
    applyOrder: write
  })
}

const openStores = (scope) =>
  Effect.gen(function*() {
    const file = join(dir, `bench-${++files}.sqlite`)
    const context = yield* Layer.buildWithScope(
      Layer.mergeAll(WebhookInbox.layerSql, LaunchRegistry.layerSql).pipe(
        Layer.provideMerge(SqliteClient.layer({ filename: file }))
      ),
      scope
    )
    return { file, context, inbox: yield* Effect.provide(WebhookInbox.WebhookInbox, context) }
  })

// ---- (a) throughput ---------------------------------------------------------------------------

const throughput = (concurrency, repairOrders, perRepairOrder) =>
  Effect.scoped(Effect.gen(function*() {
    const scope = yield* Effect.scope
    const { context, inbox } = yield* openStores(scope)
    const total = repairOrders * perRepairOrder
    const expected = new Map()
    // Round-robin over the repair orders, as deliveries from many shops arrive.
    for (let n = 0; n < perRepairOrder; n++) {
      for (let r = 0; r < repairOrders; r++) {
        const ro = `ro_${r}`
        yield* inbox.receive({
          kind: "quote",
          contentKey: `quote:${ro}:${n}`,
          shopId: "shop_1",
          repairOrderId: ro,
          body: quote(ro, n)
        })
        expected.set(ro, [...(expected.get(ro) ?? []), `${ro}#${n}`])
      }
    }
    const seen = new Map()
    let writes = 0
    const done = yield* Deferred.make()
    const sms = fakeSms(LATENCY_MS, (w) => {
      seen.set(w.repairOrderId, [...(seen.get(w.repairOrderId) ?? []), w.lines[0].productID])
      if (++writes === total) Deferred.unsafeDone(done, Exit.void)
    })
    const started = performance.now()
    const worker = yield* Effect.fork(
      InboxWorker.run({ concurrency }).pipe(Effect.provide(Layer.merge(Layer.succeedContext(context), sms)))
    )
    yield* Deferred.await(done)
    // The last write is done; wait for its mark too.
    while ((yield* inbox.backlog).size > 0) yield* Effect.sleep("1 millis")
    const seconds = (performance.now() - started) / 1000
    yield* Fiber.interrupt(worker)
    let inOrder = true
    for (const [ro, list] of expected) if (JSON.stringify(seen.get(ro)) !== JSON.stringify(list)) inOrder = false
    return { rate: total / seconds, seconds, total, inOrder }
  }))

const runThroughput = Effect.gen(function*() {
  const concurrent = []
  const sequential = []
  for (let round = 0; round < ROUNDS; round++) {
    concurrent.push(yield* throughput(8, 20, 25))
    sequential.push(yield* throughput(1, 20, 5))
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const rate = median(concurrent.map((r) => r.rate))
  const anchor = median(sequential.map((r) => r.rate))
  const inOrder = [...concurrent, ...sequential].every((r) => r.inOrder)
  console.log(
    `(a) worker throughput, fake SMS ${LATENCY_MS} ms per call, SQLite inbox, ${ROUNDS} interleaved rounds each`
  )
  console.log(
    `    concurrency 8 (default), 20 ROs × 25: ${rate.toFixed(1)} applied/s (rounds: ${
      concurrent.map((r) => r.rate.toFixed(1)).join(", ")
    })`
  )
  console.log(
    `    anchor: concurrency 1 (the old sequential worker), 20 ROs × 5: ${anchor.toFixed(1)} applied/s (rounds: ${
      sequential.map((r) => r.rate.toFixed(1)).join(", ")
    })`
  )
  console.log(
    `    ratio: ${(rate / anchor).toFixed(1)}×; per-repair-order order held in every round: ${inOrder ? "yes" : "NO"}`
  )
  console.log(`    target ≥ 40 applied/s: ${rate >= 40 && inOrder ? "met" : "NOT met"}`)
})

// ---- (b) soak ----------------------------------------------------------------------------------

const fileSize = (f) => (existsSync(f) ? statSync(f).size : 0)
const dbSize = (file) => fileSize(file) + fileSize(`${file}-wal`)
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

const runSoak = Effect.scoped(Effect.gen(function*() {
  const scope = yield* Effect.scope
  const { context, file, inbox } = yield* openStores(scope)
  const registry = yield* Effect.provide(LaunchRegistry.LaunchRegistry, context)
  let applied = 0
  const sms = fakeSms(0, () => {
    applied++
  })
  const retention = {
    interval: "1 second",
    appliedBodies: "2 seconds",
    appliedEntries: "5 seconds",
    launchKeys: "1 second"
  }
  yield* Effect.forkScoped(Retention.run(retention).pipe(Effect.provide(context)))
  yield* Effect.forkScoped(
    InboxWorker.run({ concurrency: 8 }).pipe(Effect.provide(Layer.merge(Layer.succeedContext(context), sms)))
  )

  const BATCH = 200
  const MAX_BACKLOG = 2_000
  const REPAIR_ORDERS = 500
  const started = performance.now()
  let received = 0
  let warm
  let peakRss = 0
  let peakDb = 0
  const samples = []
  while (received < SOAK) {
    // Back-pressure: the producer keeps at most MAX_BACKLOG deliveries waiting.
    while (received - applied > MAX_BACKLOG) yield* Effect.sleep("5 millis")
    const batch = Array.from({ length: Math.min(BATCH, SOAK - received) }, (_, i) => {
      const n = received + i
      const ro = `ro_${n % REPAIR_ORDERS}`
      return { kind: "order", contentKey: `order:${n}`, shopId: `shop_${n % 7}`, repairOrderId: ro, body: order(ro, n) }
    })
    yield* Effect.forEach(batch, (d) => inbox.receive(d), { concurrency: "unbounded", discard: true })
    received += batch.length
    // A launch per 100 deliveries, expiring at once: retention deletes its key a second later.
    yield* registry.register({
      shopId: "shop_1",
      repairOrderId: "ro_0",
      repairOrderNumber: "1",
      repairOrderUrl: undefined,
      expiresAt: Date.now()
    })
    yield* registry.register({
      shopId: "shop_1",
      repairOrderId: "ro_1",
      repairOrderNumber: "2",
      repairOrderUrl: undefined,
      expiresAt: Date.now()
    })
    if (warm === undefined && applied >= SOAK_WARMUP) {
      // Measured in the state the end is measured in: the backlog drained, then a full GC. (Taken
      // mid-flight, the figure swings with how many bodies happen to be in the air.)
      while (applied < received) yield* Effect.sleep("10 millis")
      global.gc?.()
      warm = { rss: process.memoryUsage().rss, db: dbSize(file), at: performance.now() }
    }
    if (warm !== undefined && received % 10_000 === 0) {
      peakRss = Math.max(peakRss, process.memoryUsage().rss)
      peakDb = Math.max(peakDb, dbSize(file))
    }
    if (received % 20_000 === 0) {
      samples.push(
        `${received / 1000}k: RSS ${mb(process.memoryUsage().rss)}, db ${mb(fileSize(file))} + WAL ${
          mb(fileSize(`${file}-wal`))
        }`
      )
    }
  }
  while (applied < SOAK) yield* Effect.sleep("10 millis")
  const seconds = (performance.now() - started) / 1000
  // Let retention catch up with the last deliveries (5 s + an interval), as in steady state.
  yield* Effect.sleep("6500 millis")
  global.gc?.()
  const end = { rss: process.memoryUsage().rss, db: dbSize(file) }
  const left = yield* inbox.list()
  const rssRatio = end.rss / warm.rss
  const dbRatio = end.db / warm.db
  console.log(
    `(b) soak: ${
      SOAK.toLocaleString("en")
    } deliveries received (WebhookInbox.receive, batches of ${BATCH}) and applied (concurrency 8, fake SMS without latency), retention every 1 s (bodies 2 s, entries 5 s, launch keys 1 s after expiry)`
  )
  console.log(
    `    ${seconds.toFixed(1)} s: ${
      (SOAK / seconds).toFixed(0)
    } deliveries/s through receive → apply; ${left.length} entries left in the inbox after retention caught up`
  )
  console.log(
    `    RSS after warm-up (${SOAK_WARMUP.toLocaleString("en")} applied): ${mb(warm.rss)}; peak after: ${
      mb(peakRss)
    }; at the end: ${mb(end.rss)} (${rssRatio.toFixed(2)}×, target within 0.80–1.20×: ${
      rssRatio >= 0.8 && rssRatio <= 1.2 ? "met" : "NOT met"
    })`
  )
  console.log(`    samples while receiving: ${samples.join("; ")}`)
  console.log(
    `    database + WAL after warm-up: ${mb(warm.db)}; peak after: ${mb(peakDb)}; at the end: ${mb(end.db)} (${
      dbRatio.toFixed(2)
    }×, target ≤ 1.25×: ${dbRatio <= 1.25 ? "met" : "NOT met"})`
  )
}))

const scope = Effect.runSync(Scope.make())
try {
  console.log(`inbox worker bench on ${availableParallelism()} cores, Node ${process.versions.node}`)
  if (ROUNDS > 0) await Effect.runPromise(Scope.extend(runThroughput, scope).pipe(quiet))
  if (SOAK > 0) await Effect.runPromise(Scope.extend(runSoak, scope).pipe(quiet))
} finally {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dir, { recursive: true, force: true })
}
