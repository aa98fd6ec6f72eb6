#!/usr/bin/env node
// `pnpm --filter @shoplink/chaos bench` (part of `pnpm bench`): the inbox engine on PostgreSQL
// against graphile-worker 0.17 (the queue a vendor would otherwise pick), on the same PostgreSQL
// (a cluster of this run's own, a fresh database per run, dropped afterwards), at the same
// concurrency, runs interleaved, BENCH_QUEUE_ROUNDS (3) rounds, medians.
//
// The inbox runs as the library ships it: WebhookInbox.layerSql on Storage.postgres and
// InboxWorker.run with a no-op (or sleeping) ShopSystem, in this process; graphile-worker's
// `run()` with a task list in this process, pool as large as the concurrency.
//
// (1) no-op jobs/s: 10,000 entries over 1,000 repair orders (each repair order's in order) drained
//     at concurrency 10 and 50. Anchors: graphile-worker with a queue_name per repair order (the
//     same ordering guarantee; target ≥ 1.0×) and without queues (information).
// (2) jobs/s with 100 ms of I/O per job at concurrency 50 (3,000 over 1,000 repair orders): the
//     limit is 500/s, target ≥ 90 % of it; graphile-worker (without queues) beside it.
// (3) commit → applied at 50/s for BENCH_LATENCY_SECONDS (10 s): an entry received (committed)
//     every 20 ms, each timed to its apply's start; p50/p99, target p99 ≤ 2× graphile-worker's
//     (addJob committed → task start).
// (4) rows read per claimed job at 10,000 and 100,000 backlog (1,000 repair orders): auto_explain
//     (log_analyze, log_buffers: what EXPLAIN (ANALYZE, BUFFERS) prints) on the bench database
//     logs every statement the engine runs while it claims BENCH_EXPLAIN_JOBS entries; the
//     claim is each statement with FOR UPDATE SKIP LOCKED (whatever SQL the engine has now).
//     Rows read: each scan node's rows plus the rows its filter or recheck removed, times its
//     loops; per claimed job: over the rows the statements locked / updated. Target ≤ 10.
//     graphile-worker's get_job is measured the same way, for information.
// BENCH_QUEUE_PARTS (noop,io,latency,explain) runs a part of it. Progress on stderr, figures on stdout.
import { Context, Effect, Exit, Fiber, Layer, Logger, LogLevel, Redacted, Scope } from "effect"
import { ShopSystem } from "@shoplink/connector"
import { InboxWorker, Storage, WebhookInbox } from "@shoplink/connector-runtime"
import { Logger as GraphileLogger, makeWorkerUtils, run as runGraphile, runMigrations } from "graphile-worker"
import { writeFileSync } from "node:fs"
import { availableParallelism } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { cleanUpOnInterrupt, newDatabase, quoteBody, sleep, startOwnCluster } from "./harness.mjs"

const ROUNDS = Number(process.env.BENCH_QUEUE_ROUNDS ?? 3)
const PARTS = (process.env.BENCH_QUEUE_PARTS ?? "noop,io,latency,explain").split(",")
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 10_000)
const REPAIR_ORDERS = Number(process.env.BENCH_QUEUE_REPAIR_ORDERS ?? 1_000)
const IO_JOBS = Number(process.env.BENCH_IO_JOBS ?? 3_000)
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 10)
const EXPLAIN_BACKLOGS = (process.env.BENCH_EXPLAIN_BACKLOGS ?? "10000,100000").split(",").map(Number)
const EXPLAIN_JOBS = Number(process.env.BENCH_EXPLAIN_JOBS ?? 500)

const log = (message) => console.error(`[queue bench] ${message}`)
const quiet = Logger.withMinimumLogLevel(LogLevel.Error)
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(s.length * p))]
}
const fmt = (
  x,
  digits = 0
) => (x === undefined || Number.isNaN(x)
  ? "—"
  : x.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits }))
const verdict = (ok) => (ok ? "met" : "NOT met")
const silentGraphile = new GraphileLogger(() => (level, message) => {
  if (level === "error") console.error(`[graphile-worker] ${message}`)
})

let cluster
const databases = []
const fresh = async () => {
  const database = await newDatabase(cluster.url)
  databases.push(database)
  return database
}
const drop = async (database) => {
  databases.splice(databases.indexOf(database), 1)
  await database.drop().catch((error) => log(`could not drop ${database.name}: ${error.message}`))
}

// ---- the inbox ------------------------------------------------------------------------------------

/** A ShopSystem whose writes take `latencyMs` and call `onApply(repairOrderId, productID)` first. */
const shopSystem = (latencyMs, onApply) => {
  const write = (w) =>
    Effect.suspend(() => {
      onApply(w.repairOrderId, w.lines[0]?.productID)
      const done = Effect.succeed({ added: w.lines.length, alreadyPresent: 0 })
      return latencyMs > 0 ? Effect.zipRight(Effect.sleep(latencyMs), done) : done
    })
  return Layer.succeed(ShopSystem.ShopSystem, {
    capabilities: new Set(["readRepairOrder", "writeQuotedParts", "writeOrderedParts"]),
    loadRepairOrder: ({ repairOrderId }) => Effect.succeed({ id: repairOrderId, number: repairOrderId, vehicle: {} }),
    applyQuote: write,
    applyOrder: write
  })
}

/** The inbox on `url`, in a scope of its own: `{ inbox, context, close }`. */
const openInbox = async (url) => {
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(
    Layer.buildWithScope(WebhookInbox.layerSql.pipe(Layer.provideMerge(Storage.postgres(Redacted.make(url)))), scope)
      .pipe(quiet)
  )
  return {
    context,
    inbox: Context.get(context, WebhookInbox.WebhookInbox),
    run: (effect) => Effect.runPromise(effect.pipe(quiet)),
    fork: (effect) => Effect.runFork(effect.pipe(quiet)),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

const delivery = (ro, n) => ({
  kind: "quote",
  contentKey: `quote:${ro}:${n}`,
  shopId: "shop_bench",
  repairOrderId: ro,
  body: quoteBody(ro, n)
})

/** `total` entries over `repairOrders`, the n-th of every repair order before any (n+1)-th. */
const preloadInbox = async (handle, total, repairOrders, prefix) => {
  const perRo = Math.ceil(total / repairOrders)
  let written = 0
  for (let n = 0; n < perRo && written < total; n++) {
    const ros = Array.from({ length: Math.min(repairOrders, total - written) }, (_, r) => `${prefix}${r}`)
    await handle.run(
      Effect.forEach(ros, (ro) => handle.inbox.receive(delivery(ro, n)), { concurrency: 64, discard: true })
    )
    written += ros.length
  }
}

/** Drains `total` preloaded entries with the inbox worker; jobs/s from its start to the last apply. */
const drainInbox = async (handle, total, concurrency, latencyMs, check) => {
  const seen = new Set()
  let applied = 0
  let resolve
  const done = new Promise((r) => (resolve = r))
  const sms = shopSystem(latencyMs, (ro, productID) => {
    check?.(ro, productID, seen.has(productID))
    if (seen.has(productID)) return
    seen.add(productID)
    if (++applied === total) resolve(performance.now())
  })
  const started = performance.now()
  const fiber = handle.fork(
    InboxWorker.run({ concurrency }).pipe(Effect.provide(Layer.merge(Layer.succeedContext(handle.context), sms)))
  )
  const timeout = sleep(300_000).then(() => "timeout")
  const ended = await Promise.race([done, timeout])
  await Effect.runPromise(Fiber.interrupt(fiber))
  if (ended === "timeout") throw new Error(`the inbox worker applied ${applied} of ${total} in 5 minutes`)
  return total / ((ended - started) / 1000)
}

// ---- graphile-worker ------------------------------------------------------------------------------

const preloadGraphile = async (url, total, repairOrders, queues) => {
  await runMigrations({ connectionString: url, logger: silentGraphile })
  const utils = await makeWorkerUtils({ connectionString: url, logger: silentGraphile })
  try {
    const perRo = Math.ceil(total / repairOrders)
    let written = 0
    for (let n = 0; n < perRo && written < total; n++) {
      const count = Math.min(repairOrders, total - written)
      await utils.addJobs(Array.from({ length: count }, (_, r) => ({
        identifier: "apply",
        payload: { ro: `g${r}`, n },
        ...(queues ? { queueName: `g${r}` } : {})
      })))
      written += count
    }
  } finally {
    await utils.release()
  }
}

const drainGraphile = async (url, total, concurrency, latencyMs) => {
  let applied = 0
  let resolve
  const done = new Promise((r) => (resolve = r))
  const started = performance.now()
  const runner = await runGraphile({
    connectionString: url,
    concurrency,
    maxPoolSize: concurrency + 2,
    noHandleSignals: true,
    logger: silentGraphile,
    taskList: {
      apply: async () => {
        if (latencyMs > 0) await sleep(latencyMs)
        if (++applied === total) resolve(performance.now())
      }
    }
  })
  const ended = await Promise.race([done, sleep(300_000).then(() => "timeout")])
  await runner.stop()
  if (ended === "timeout") throw new Error(`graphile-worker ran ${applied} of ${total} in 5 minutes`)
  return total / ((ended - started) / 1000)
}

// ---- (1) and (2): throughput ------------------------------------------------------------------------

/** Applies the inbox made twice or out of order in the throughput runs (the check above). */
const anomalies = { duplicated: 0, outOfOrder: 0 }
const anomalyNote = () => {
  const note = anomalies.duplicated + anomalies.outOfOrder === 0
    ? "every entry applied once, in order"
    : `INCORRECT: ${anomalies.duplicated} entries applied twice, ${anomalies.outOfOrder} out of order`
  if (anomalies.duplicated + anomalies.outOfOrder > 0) process.exitCode = 1
  anomalies.duplicated = 0
  anomalies.outOfOrder = 0
  return note
}

const throughput = async (kind, total, concurrency, latencyMs) => {
  const database = await fresh()
  try {
    if (kind === "inbox") {
      const handle = await openInbox(database.url)
      try {
        await preloadInbox(handle, total, REPAIR_ORDERS, "r")
        // Each repair order's entries once each, in the order received: counted, and printed.
        const last = new Map()
        const rate = await drainInbox(handle, total, concurrency, latencyMs, (ro, productID, again) => {
          const n = Number(productID.split("#")[1])
          if (again) anomalies.duplicated++
          else if ((last.get(ro) ?? -1) !== n - 1) anomalies.outOfOrder++
          if (!again) last.set(ro, n)
        })
        return rate
      } finally {
        await handle.close()
      }
    }
    await preloadGraphile(database.url, total, REPAIR_ORDERS, kind === "graphile-queues")
    return await drainGraphile(database.url, total, concurrency, latencyMs)
  } finally {
    await drop(database)
  }
}

const noopRow = async () => {
  const kinds = ["inbox", "graphile-queues", "graphile"]
  for (const concurrency of [10, 50]) {
    const runs = Object.fromEntries(kinds.map((k) => [k, []]))
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of kinds) {
        runs[kind].push(await throughput(kind, BACKLOG, concurrency, 0))
        log(`no-op c${concurrency} round ${round + 1} ${kind}: ${fmt(runs[kind].at(-1))}/s`)
      }
    }
    const [inbox, queues, plain] = kinds.map((k) => median(runs[k]))
    console.log(
      `(1) no-op jobs/s, ${fmt(BACKLOG)} backlog over ${
        fmt(REPAIR_ORDERS)
      } repair orders, concurrency ${concurrency}: inbox ${
        fmt(inbox)
      }; graphile-worker with a queue_name per repair order ${fmt(queues)} (${
        (inbox / queues).toFixed(2)
      }×, target ≥ 1.0×: ${verdict(inbox >= queues)}); graphile-worker without queues ${fmt(plain)} (${
        (inbox / plain).toFixed(2)
      }×, information)`
    )
    console.log(
      `    rounds: inbox ${runs.inbox.map((x) => fmt(x)).join(", ")}; with queues ${
        runs["graphile-queues"].map((x) => fmt(x)).join(", ")
      }; without ${runs.graphile.map((x) => fmt(x)).join(", ")}; inbox: ${anomalyNote()}`
    )
  }
}

const ioRow = async () => {
  // The anchor without queues: with a queue per repair order graphile-worker 0.17 ran this at
  // 31/s on this machine (its queue locks), too slow to sit in every run.
  const runs = { inbox: [], graphile: [] }
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of Object.keys(runs)) {
      runs[kind].push(await throughput(kind, IO_JOBS, 50, 100))
      log(`100 ms I/O round ${round + 1} ${kind}: ${fmt(runs[kind].at(-1))}/s`)
    }
  }
  const inbox = median(runs.inbox)
  const anchor = median(runs.graphile)
  console.log(
    `(2) jobs/s with 100 ms of I/O per job, concurrency 50 (limit 500/s), ${fmt(IO_JOBS)} over ${
      fmt(REPAIR_ORDERS)
    } repair orders: inbox ${fmt(inbox)} (${(inbox / 5).toFixed(0)} % of the limit, target ≥ 90 %: ${
      verdict(inbox >= 450)
    }); graphile-worker without queues ${fmt(anchor)} (${(inbox / anchor).toFixed(2)}×, information)`
  )
  console.log(
    `    rounds: inbox ${runs.inbox.map((x) => fmt(x)).join(", ")}; graphile-worker ${
      runs.graphile.map((x) => fmt(x)).join(", ")
    }; inbox: ${anomalyNote()}`
  )
}

// ---- (3) commit → applied ---------------------------------------------------------------------------

const latency = async (kind) => {
  const database = await fresh()
  const committed = new Map()
  const started = new Map() // when each apply began
  const claimed = new Map() // inbox: productID → { start, end } of the claim that returned it
  const total = LATENCY_SECONDS * 50
  try {
    if (kind === "inbox") {
      const handle = await openInbox(database.url)
      const sms = shopSystem(0, (_, productID) => {
        if (!started.has(productID)) started.set(productID, performance.now())
      })
      // The inbox as shipped, its claim timed: where an entry's wait goes (the fetcher, the claim
      // statement, the hand-over to an executor).
      const timed = {
        ...handle.inbox,
        claim: (limit) =>
          Effect.suspend(() => {
            const start = performance.now()
            return Effect.tap(handle.inbox.claim(limit), (entries) =>
              Effect.sync(() => {
                const end = performance.now()
                // contentKey quote:<ro>:<n> is the delivery whose productID is <ro>#<n>.
                for (const entry of entries) {
                  claimed.set(`${entry.repairOrderId}#${entry.contentKey.split(":")[2]}`, { start, end })
                }
              }))
          })
      }
      const fiber = handle.fork(
        InboxWorker.run({ concurrency: 10 }).pipe(
          Effect.provide(
            Layer.merge(Layer.succeedContext(Context.add(handle.context, WebhookInbox.WebhookInbox, timed)), sms)
          )
        )
      )
      try {
        await sleep(500) // the worker is up and idle
        const t0 = performance.now()
        const pending = []
        for (let i = 0; i < total; i++) {
          const wait = t0 + i * 20 - performance.now()
          if (wait > 1) await sleep(wait)
          const ro = `l${i % 100}`
          const productID = `${ro}#${i}`
          pending.push(
            handle.run(handle.inbox.receive(delivery(ro, i))).then(() => committed.set(productID, performance.now()))
          )
        }
        await Promise.all(pending)
        for (const until = Date.now() + 10_000; started.size < total && Date.now() < until;) await sleep(20)
      } finally {
        await Effect.runPromise(Fiber.interrupt(fiber))
        await handle.close()
      }
    } else {
      await runMigrations({ connectionString: database.url, logger: silentGraphile })
      const utils = await makeWorkerUtils({ connectionString: database.url, logger: silentGraphile })
      const runner = await runGraphile({
        connectionString: database.url,
        concurrency: 10,
        maxPoolSize: 12,
        noHandleSignals: true,
        logger: silentGraphile,
        taskList: {
          apply: async (payload) => {
            if (!started.has(payload.id)) started.set(payload.id, performance.now())
          }
        }
      })
      try {
        await sleep(500)
        const t0 = performance.now()
        const pending = []
        for (let i = 0; i < total; i++) {
          const wait = t0 + i * 20 - performance.now()
          if (wait > 1) await sleep(wait)
          const id = `l${i % 100}#${i}`
          pending.push(
            utils.addJob("apply", { id }, { queueName: `l${i % 100}` }).then(() => committed.set(id, performance.now()))
          )
        }
        await Promise.all(pending)
        for (const until = Date.now() + 10_000; started.size < total && Date.now() < until;) await sleep(20)
      } finally {
        await runner.stop()
        await utils.release()
      }
    }
    // An apply can start before its receive's promise resolves here (the commit is what counts,
    // and this process learns of it a little later): those count as 0.
    const latencies = [...committed].filter(([id]) => started.has(id)).map(([id, at]) =>
      Math.max(0, started.get(id) - at)
    )
    const split = {}
    if (kind === "inbox") {
      // Per entry: commit → the start of the claim that returned it, that claim, its end → the apply.
      const timedIds = [...committed.keys()].filter((id) => started.has(id) && claimed.has(id))
      const spans = {
        fetcher: timedIds.map((id) => Math.max(0, claimed.get(id).start - committed.get(id))),
        claim: timedIds.map((id) => claimed.get(id).end - claimed.get(id).start),
        handover: timedIds.map((id) => started.get(id) - claimed.get(id).end)
      }
      for (const [stage, xs] of Object.entries(spans)) {
        split[stage] = { p50: percentile(xs, 0.5), p99: percentile(xs, 0.99) }
      }
    }
    return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), n: latencies.length, total, split }
  } finally {
    await drop(database)
  }
}

const latencyRow = async () => {
  const runs = { inbox: [], graphile: [] }
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of Object.keys(runs)) {
      runs[kind].push(await latency(kind))
      const r = runs[kind].at(-1)
      log(
        `latency round ${round + 1} ${kind}: p50 ${r.p50?.toFixed(1)} ms, p99 ${
          r.p99?.toFixed(1)
        } ms (${r.n} of ${r.total} timed)`
      )
    }
  }
  const p = (kind, key) => median(runs[kind].map((r) => r[key]))
  const [i50, i99, g50, g99] = [p("inbox", "p50"), p("inbox", "p99"), p("graphile", "p50"), p("graphile", "p99")]
  const missed = runs.inbox.some((r) => r.n < r.total)
  console.log(
    `(3) commit → applied at 50/s for ${LATENCY_SECONDS} s, concurrency 10: inbox p50 ${i50.toFixed(1)} ms, p99 ${
      i99.toFixed(1)
    } ms; graphile-worker (queue per repair order) p50 ${g50.toFixed(1)} ms, p99 ${g99.toFixed(1)} ms (${
      (i99 / g99).toFixed(2)
    }×, target ≤ 2×: ${verdict(i99 <= 2 * g99 && !missed)})${
      missed ? "; some entries were not applied within 10 s" : ""
    }`
  )
  console.log(
    `    rounds p99: inbox ${runs.inbox.map((r) => r.p99.toFixed(1)).join(", ")} ms; graphile-worker ${
      runs.graphile.map((r) => r.p99.toFixed(1)).join(", ")
    } ms`
  )
  const stage = (name) =>
    `${name} p50 ${median(runs.inbox.map((r) => r.split[name].p50)).toFixed(2)} / p99 ${
      median(runs.inbox.map((r) => r.split[name].p99)).toFixed(2)
    } ms`
  console.log(
    `    the inbox's wait by stage (medians over rounds): ${
      ["fetcher", "claim", "handover"].map((name) => stage(name)).join("; ")
    } (fetcher: commit → the start of the claim that took it; claim: that statement; handover: its end → the apply's start)`
  )
}

// ---- (4) EXPLAIN of the claim ------------------------------------------------------------------------

const admin = async (query) => {
  const client = new pg.Client({ connectionString: cluster.url })
  await client.connect()
  try {
    return (await client.query(query)).rows
  } finally {
    await client.end().catch(() => {})
  }
}

/** The auto_explain plans (JSON) logged after `offset` in the server log. */
const loggedPlans = (text) => {
  const plans = []
  for (let at = text.indexOf("plan:\n"); at >= 0; at = text.indexOf("plan:\n", at + 1)) {
    const start = text.indexOf("{", at)
    let depth = 0
    let inString = false
    for (let i = start; i < text.length; i++) {
      const c = text[i]
      if (inString) {
        if (c === "\\") i++
        else if (c === "\"") inString = false
      } else if (c === "\"") inString = true
      else if (c === "{") depth++
      else if (c === "}" && --depth === 0) {
        try {
          plans.push(JSON.parse(text.slice(start, i + 1)))
        } catch {
          // a plan cut by another process's line: skip it
        }
        break
      }
    }
  }
  return plans
}

const walk = (node, visit) => {
  visit(node)
  for (const child of node.Plans ?? []) walk(child, visit)
}
/** Rows a plan read (scan nodes: rows out + removed by filter / recheck, times loops) and rows it claimed. */
const planFigures = (plan) => {
  let read = 0
  let claimed
  const loops = (n) => n["Actual Loops"] ?? 1
  walk(plan.Plan, (n) => {
    if (
      /Scan$/.test(n["Node Type"]) && n["Node Type"] !== "Bitmap Index Scan" && n["Node Type"] !== "CTE Scan" &&
      n["Node Type"] !== "Subquery Scan" && n["Node Type"] !== "Function Scan"
    ) {
      read +=
        ((n["Actual Rows"] ?? 0) + (n["Rows Removed by Filter"] ?? 0) + (n["Rows Removed by Index Recheck"] ?? 0)) *
        loops(n)
    }
    if (n["Node Type"] === "ModifyTable" && claimed === undefined) {
      claimed = (n.Plans?.[0]?.["Actual Rows"] ?? 0) * loops(n.Plans?.[0] ?? {})
    }
  })
  walk(plan.Plan, (n) => {
    if (claimed === undefined && n["Node Type"] === "LockRows") claimed = (n["Actual Rows"] ?? 0) * loops(n)
  })
  const hits = (plan.Plan["Shared Hit Blocks"] ?? 0) + (plan.Plan["Shared Read Blocks"] ?? 0)
  return {
    read,
    hits,
    claimed: claimed ?? plan.Plan["Actual Rows"] ?? 0,
    ms: plan["Execution Time"] ?? plan.Plan["Actual Total Time"] ?? 0
  }
}

const explain = async (kind, backlog) => {
  const database = await fresh()
  try {
    if (kind === "inbox") {
      // Preload (and migrate) without auto_explain, then claim with it.
      const loader = await openInbox(database.url)
      try {
        await preloadInbox(loader, backlog, REPAIR_ORDERS, "e")
      } finally {
        await loader.close()
      }
    } else {
      await preloadGraphile(database.url, backlog, REPAIR_ORDERS, true)
    }
    await admin(`ANALYZE`)
    for (
      const setting of [
        "session_preload_libraries = 'auto_explain'",
        "auto_explain.log_min_duration = 0",
        "auto_explain.log_analyze = on",
        "auto_explain.log_buffers = on",
        "auto_explain.log_timing = on",
        "auto_explain.log_format = json",
        "auto_explain.log_nested_statements = on"
      ]
    ) {
      await admin(`ALTER DATABASE "${database.name}" SET ${setting}`)
    }
    const offset = cluster.log().length
    const jobs = Math.min(EXPLAIN_JOBS, backlog)
    if (kind === "inbox") {
      const handle = await openInbox(database.url)
      try {
        await drainInbox(handle, jobs, 10, 0)
      } finally {
        await handle.close()
      }
    } else {
      await drainGraphile(database.url, jobs, 10, 0)
    }
    await sleep(300)
    const plans = loggedPlans(cluster.log().slice(offset)).filter((p) => /skip\s+locked/i.test(p["Query Text"] ?? ""))
    const figures = plans.map(planFigures).filter((f) => f.claimed > 0)
    // BENCH_EXPLAIN_DUMP=dir: the logged claim plans, as JSON, one file per run.
    if (process.env.BENCH_EXPLAIN_DUMP) {
      writeFileSync(join(process.env.BENCH_EXPLAIN_DUMP, `${kind}-${backlog}.json`), JSON.stringify(plans, null, 1))
    }
    const claimed = figures.reduce((s, f) => s + f.claimed, 0)
    const read = figures.reduce((s, f) => s + f.read, 0)
    const hits = figures.reduce((s, f) => s + f.hits, 0)
    const ms = figures.reduce((s, f) => s + f.ms, 0)
    const statement = (plans[0]?.["Query Text"] ?? "").replace(/\s+/g, " ").slice(0, 160)
    return {
      statements: figures.length,
      claimed,
      perJob: read / claimed,
      hitsPerJob: hits / claimed,
      msPerStatement: ms / figures.length,
      statement
    }
  } finally {
    await drop(database)
  }
}

const explainRow = async () => {
  for (const backlog of EXPLAIN_BACKLOGS) {
    const inbox = await explain("inbox", backlog)
    const anchor = await explain("graphile-queues", backlog)
    log(`explain ${backlog}: inbox ${JSON.stringify(inbox)}; graphile ${JSON.stringify(anchor)}`)
    console.log(
      `(4) rows read per claimed job, ${fmt(backlog)} backlog over ${
        fmt(REPAIR_ORDERS)
      } repair orders (EXPLAIN ANALYZE, BUFFERS of every claim statement while ${
        fmt(Math.min(EXPLAIN_JOBS, backlog))
      } are claimed): inbox ${fmt(inbox.perJob, 1)} (${
        fmt(inbox.hitsPerJob, 1)
      } buffers per job, ${inbox.statements} claims of ${fmt(inbox.claimed / inbox.statements, 1)} jobs, ${
        fmt(inbox.msPerStatement, 2)
      } ms each; target ≤ 10: ${verdict(inbox.perJob <= 10)}); graphile-worker with queues ${fmt(anchor.perJob, 1)} (${
        fmt(anchor.hitsPerJob, 1)
      } buffers per job)`
    )
    // The gap's cause, as measured: the plan PostgreSQL chooses at this size.
    if (inbox.perJob > 10) {
      console.log(
        "    why: the claim's plan did not stop after the batch (it read every due head); BENCH_EXPLAIN_DUMP=<dir> writes the plans"
      )
    }
    console.log(`    the inbox's claim: ${inbox.statement}${inbox.statement.length >= 160 ? "…" : ""}`)
  }
}

// ---- the run ----------------------------------------------------------------------------------------

// Dropping a database terminates what is still connected to it (FORCE): a pool that has not
// noticed it closed yet reports that as an error event; nothing else is ignored.
process.on("uncaughtException", (error) => {
  if (error?.code === "57P01") return
  console.error(`[queue bench] FAILED: ${error.stack ?? error.message}`)
  process.exit(1)
})
cleanUpOnInterrupt(() => cluster)
try {
  cluster = await startOwnCluster()
  console.log(
    `inbox engine vs graphile-worker on PostgreSQL (its own cluster; ${availableParallelism()} cores, Node ${process.versions.node}), ${ROUNDS} interleaved rounds, medians`
  )
  if (PARTS.includes("noop")) await noopRow()
  if (PARTS.includes("io")) await ioRow()
  if (PARTS.includes("latency")) await latencyRow()
  if (PARTS.includes("explain")) await explainRow()
} catch (error) {
  console.error(`[queue bench] FAILED: ${error.stack ?? error.message}`)
  process.exitCode = 1
} finally {
  for (const database of [...databases]) await drop(database)
  try {
    cluster?.stop()
  } catch (error) {
    console.error(`[queue bench] could not stop the cluster: ${error.message}`)
  }
  // A pool that lost its server (the cluster is gone) may keep a timer: do not wait for it.
  process.exit(process.exitCode ?? 0)
}
