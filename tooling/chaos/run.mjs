#!/usr/bin/env node
// `pnpm chaos`: scale-out on PostgreSQL under kill -9 and database faults.
//
// Starts, as separate OS processes, the sandbox (the distributor), a fake shop system, 2 receivers
// and 2 workers (node.mjs: each a ConnectorRuntime on one PostgreSQL database). Launches each of
// 200 repair orders through a receiver's launch API (a session at the sandbox, a launch key in the
// database) and exports it in the sandbox, which posts its first quote webhook. Then, as the
// distributor would, it posts the other 24 webhooks of each repair order (5,000 deliveries in all),
// one after another per repair order, to either receiver (a delivery a dying receiver did not
// acknowledged is sent again, to the other one), at most CHAOS_RATE a second. Meanwhile, one after
// another, it injects these faults (and counts each only once it has seen it happen):
//   kill-9          a receiver or a worker killed with SIGKILL and restarted (CHAOS_KILLS, by turns)
//   pg-restart      PostgreSQL restarted, once `-m fast` and once `-m immediate` (a crash);
//                   counted when pg_postmaster_start_time() changed
//   backend-kill    pg_terminate_backend of every pool backend of the workers and receivers
//                   (counted: backends it returned true for)
//   listen-kill     pg_terminate_backend of the LISTEN backends (counted likewise)
//   stop-past-lease a worker stopped with SIGSTOP for the lease + 1.5 s, then SIGCONT (counted when
//                   /proc showed it stopped)
//   clock-skew      a third worker runs all along under libfaketime 30 s ahead (Debian `faketime`,
//                   LD_PRELOAD as `faketime -f +30s` does, so the signals reach node itself);
//                   counted when its clock read ≥ 25 s ahead and it applied entries
//   adapter-defect  the adapter throws (a defect, not a typed failure) for one repair order for
//                   CHAOS_DEFECT_MS (and until it has thrown 5 times) while the others flow,
//                   then recovers; counted: the throws
// The fake SMS does not deduplicate and the adapter writes without reading first, so an entry
// applied twice is a line stored twice. Each line records which worker wrote it and when: a second
// write of a key whose first writer was killed or stopped while that apply's lease still ran (so
// its mark may not have committed) is at-least-once delivery and printed apart; any other is a
// duplicate, printed with the last fault before it.
// Then it checks every acknowledged delivery reached the shop system once, in order, and prints
//   chaos: acked N, applied N, lost 0, duplicated 0, out-of-order 0; faults: kill-9 5, pg-restart 2, …
// exiting non-zero on any loss, duplicate, out-of-order apply or entry stuck past its lease, or
// when a fault kind was not injected.
//
// The database: a PostgreSQL cluster of its own (Debian's initdb/pg_ctl in a temporary folder, on
// a free port, as the postgres user when run as root), since it restarts it; removed at the end.
import { FetchHttpClient } from "@effect/platform"
import { Context, Effect, Either, Layer, Logger, LogLevel, Redacted } from "effect"
import { ApiKeys, SecretBox, ShopStore, Storage } from "@shoplink/connector-runtime"
import { makeSandboxAdminClient, SANDBOX_CREDENTIALS, SANDBOX_FIXTURES } from "@shoplink/sandbox"
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { existsSync, readFileSync } from "node:fs"
import pg from "pg"
import {
  cleanUpOnInterrupt,
  freePort,
  killAll,
  newDatabase,
  quoteBody,
  sleep,
  startOwnCluster,
  startProcess
} from "./harness.mjs"

const REPAIR_ORDERS = Number(process.env.CHAOS_REPAIR_ORDERS ?? 200)
const PER_RO = Number(process.env.CHAOS_DELIVERIES_PER_RO ?? 25)
const KILLS = Number(process.env.CHAOS_KILLS ?? 5)
// Longer than PostgreSQL is down in a restart (1–5 s here): an entry whose apply was done when the
// database went away must be marked once it is back, not applied again by another worker.
const LEASE_MS = Number(process.env.CHAOS_LEASE_MS ?? 10_000)
const SENDERS = 40
const RATE = Number(process.env.CHAOS_RATE ?? 100)
const DEFECT_MS = Number(process.env.CHAOS_DEFECT_MS ?? 6000)
const SKEW = process.env.CHAOS_SKEW ?? "+30s"
// libfaketime, as Debian's `faketime` loads it.
const libfaketime = ["/usr/lib/x86_64-linux-gnu/faketime", "/usr/lib/aarch64-linux-gnu/faketime", "/usr/lib/faketime"]
  .map((dir) => `${dir}/libfaketime.so.1`).find((file) => existsSync(file))
const here = (file) => fileURLToPath(new URL(file, import.meta.url))
const sandboxBin = fileURLToPath(new URL("./bin.js", import.meta.resolve("@shoplink/sandbox")))
// The sandbox's public fixtures: the US customer and the vendor key.
const SANDBOX_CUSTOMER = SANDBOX_CREDENTIALS.customers.us
const SANDBOX_VENDOR_KEY = SANDBOX_CREDENTIALS.vendorApiKey
const log = (message) => console.log(`[chaos] ${message}`)

let cluster
let database
// Interrupted: the processes and the cluster go too (the cluster is this run's own).
cleanUpOnInterrupt(() => cluster)
const nodes = []
let sms
try {
  // 1. A cluster and a database of our own.
  if (libfaketime === undefined) throw new Error("libfaketime is not installed: run `apt-get install faketime`")
  cluster = await startOwnCluster()
  database = await newDatabase(cluster.url)
  const secretKeys = `k1:${randomBytes(32).toString("base64")}`

  // 2. The distributor (the sandbox), the fake SMS, and the shop and a vendor API key in the database.
  const sandbox = await startProcess(
    "sandbox",
    [sandboxBin, "--port", "0"],
    {},
    /listening on (http:\/\/127\.0\.0\.1:\d+)/
  )
  const sandboxUrl = sandbox.match[1]
  const vendorKey = await Effect.runPromise(
    Logger.withMinimumLogLevel(LogLevel.Warning)(Effect.scoped(Effect.gen(function*() {
      const context = yield* Layer.build(
        Layer.mergeAll(ShopStore.layerSql, ApiKeys.layerSql).pipe(
          Layer.provideMerge(Storage.postgres(Redacted.make(database.url))),
          Layer.provide(SecretBox.layer(Either.getOrThrow(SecretBox.parseKeyring(secretKeys))))
        )
      )
      yield* Context.get(context, ShopStore.ShopStore).add({
        id: "shop_chaos",
        name: "Chaos Auto",
        distributor: { ...SANDBOX_CUSTOMER, apiToken: Redacted.make(SANDBOX_CUSTOMER.apiToken) },
        sms: {}
      })
      const { key } = yield* Context.get(context, ApiKeys.ApiKeys).create("chaos")
      return Redacted.value(key)
    })))
  )
  sms = await startProcess("fake-sms", [here("./fake-sms.mjs")], {}, /listening (\d+)/)
  const smsUrl = `http://127.0.0.1:${sms.match[1]}`

  // 3. Receivers and workers.
  const env = {
    CHAOS_DATABASE_URL: database.url,
    CHAOS_SMS_URL: smsUrl,
    CHAOS_SECRET_KEYS: secretKeys,
    CHAOS_LEASE_MS: String(LEASE_MS),
    CHAOS_PUNCHOUT_URL: sandboxUrl,
    CHAOS_VENDOR_API_KEY: SANDBOX_VENDOR_KEY,
    CHAOS_BLIND_WRITES: "1"
  }
  const startNode = async (role, port, extraEnv = {}) => {
    const started = await startProcess(`${role}:${port ?? "-"}`, [here("./node.mjs"), role], {
      ...env,
      ...extraEnv,
      PORT: String(port ?? 0)
    }, /ready (receiver|worker) pid=(\d+) now=(\d+)/)
    return { role, port, pid: Number(started.match[2]), clock: Number(started.match[3]) - Date.now(), ...started }
  }
  for (const role of ["receiver", "receiver", "worker", "worker"]) {
    nodes.push(await startNode(role, role === "receiver" ? await freePort() : undefined))
  }
  // The worker with the skewed clock: not killed or stopped (its clock is the fault).
  const skewed = await startNode("worker", undefined, { LD_PRELOAD: libfaketime, FAKETIME: SKEW })
  log(
    `started the sandbox, a fake SMS, ${nodes.filter((n) => n.role === "receiver").length} receivers and ${
      nodes.filter((n) => n.role === "worker").length
    } workers on one PostgreSQL database (its own cluster), and a worker under faketime ${SKEW} (its clock ${
      (skewed.clock / 1000).toFixed(1)
    } s off)`
  )

  // 4. A launch per repair order, as an SMS backend makes it (POST /shoplink/launch with the vendor
  // key, to either receiver): the runtime creates a distributor session at the sandbox and a launch
  // key. Then the shop's export in the sandbox: the sandbox posts the first quote webhook of that
  // repair order, and its delivery log says where, which is how this harness learns the key.
  // The sandbox's admin API through its typed client: the admin routes are written only in SandboxApi.
  const adminClient = await Effect.runPromise(
    makeSandboxAdminClient({ url: sandboxUrl }).pipe(Effect.provide(FetchHttpClient.layer))
  )
  const admin = (call) => Effect.runPromise(call(adminClient))
  const launchStarted = Date.now()
  const launchQueue = Array.from({ length: REPAIR_ORDERS }, (_, i) => i)
  await Promise.all(Array.from({ length: 8 }, async (_, lane) => {
    while (launchQueue.length > 0) {
      const ro = launchQueue.shift()
      const receiver = nodes.filter((node) => node.role === "receiver")[(ro + lane) % 2]
      const launched = await fetch(`http://127.0.0.1:${receiver.port}/shoplink/launch`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${vendorKey}` },
        body: JSON.stringify({ shopId: "shop_chaos", repairOrderId: `ro${ro}` })
      })
      if (!launched.ok) throw new Error(`launch of ro${ro}: ${launched.status} ${await launched.text()}`)
      const token = new URL((await launched.json()).url).searchParams.get("token")
      // A part the catalog shows in stock now (stock is shared by every cart).
      const found = await admin((a) =>
        a.driverSearch({ payload: { token, vin: SANDBOX_FIXTURES.vehicles[0].vin, searchTerm: "filter" } })
      )
      const inStock = found.results.filter((r) => r.available > 0 && r.price !== undefined)
      if (inStock.length === 0) throw new Error(`ro${ro}: the sandbox shows no filter in stock`)
      const part = inStock[ro % inStock.length]
      await admin((a) =>
        a.driverAddToCart({ payload: { token, productID: part.productID, brandID: part.brandID, quantity: 1 } })
      )
      await admin((a) => a.driverPress({ payload: { token, button: "export" } }))
    }
  }))
  // The sandbox sends its webhooks in the background: wait until each has been acknowledged.
  const keys = []
  const unacknowledged = () => Array.from({ length: REPAIR_ORDERS }, (_, i) => i).filter((i) => keys[i] === undefined)
  for (const until = Date.now() + 30_000; unacknowledged().length > 0 && Date.now() < until; await sleep(100)) {
    for (const delivery of (await admin((a) => a.deliveries())).deliveries) {
      const ro = Number(/^ro(\d+)$/.exec(delivery.body?.referenceID ?? "")?.[1])
      const key = /\/shoplink\/webhooks\/([^/]+)\/quote$/.exec(delivery.url)?.[1]
      if (delivery.status === 200 && Number.isInteger(ro) && key !== undefined) keys[ro] = key
    }
  }
  const missing = unacknowledged()
  if (missing.length > 0) {
    throw new Error(
      `the sandbox delivered no acknowledged export webhook for ${missing.length} repair order(s), e.g. ro${missing[0]}`
    )
  }
  log(
    `launched ${REPAIR_ORDERS} repair orders through the receivers and exported each in the sandbox in ${
      ((Date.now() - launchStarted) / 1000).toFixed(1)
    } s`
  )

  // 4. Deliveries, each repair order's in sequence, to whichever receiver answers.
  // The sandbox's export of each repair order was acknowledged (its delivery log says 200).
  const appliedSeqs = (r) => Object.values(r).reduce((sum, list) => sum + new Set(list.map((l) => l.seq)).size, 0)
  let acked = REPAIR_ORDERS
  let turn = 0
  let slot = 0
  const sendStarted = Date.now()
  const post = async (ro, n) => {
    // At most RATE a second: the load lasts long enough for every fault to land in it.
    const due = sendStarted + (slot++ * 1000) / RATE
    if (due > Date.now()) await sleep(due - Date.now())
    for (let attempt = 0;; attempt++) {
      const receivers = nodes.filter((node) => node.role === "receiver")
      const target = receivers[turn++ % receivers.length]
      try {
        const response = await fetch(`http://127.0.0.1:${target.port}/shoplink/webhooks/${keys[ro]}/quote`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: quoteBody(`ro${ro}`, n),
          signal: AbortSignal.timeout(10_000)
        })
        if (response.ok) return
        if (response.status < 500) throw new Error(`ro${ro} #${n}: ${response.status} ${await response.text()}`)
      } catch (error) {
        if (String(error.message).startsWith(`ro${ro} #`)) throw error
      }
      if (attempt > 600) throw new Error(`ro${ro} #${n}: no receiver acknowledged it after 600 attempts`)
      await sleep(50)
    }
  }
  const queue = Array.from({ length: REPAIR_ORDERS }, (_, i) => i)
  const sendingNow = new Map() // ro → deliveries still to send
  const senders = Array.from({ length: SENDERS }, async () => {
    while (queue.length > 0) {
      const ro = queue.shift()
      // Delivery -1 was the sandbox's export; this sends the rest.
      for (let n = 0; n < PER_RO - 1; n++) {
        sendingNow.set(ro, PER_RO - 1 - n)
        await post(ro, n)
        acked++
      }
      sendingNow.delete(ro)
    }
  })

  // 5. The faults, one after another while the deliveries flow; each counted once seen.
  const faults = {
    "kill-9": 0,
    "pg-restart": 0,
    "backend-kill": 0,
    "listen-kill": 0,
    "stop-past-lease": 0,
    "clock-skew": 0,
    "adapter-defect": 0
  }
  // { pid, at, until } of every worker killed or stopped, for telling re-applies from duplicates
  const interruptions = []
  const events = [] // { kind, at } of every fault, for saying what each duplicate followed
  const killed = []
  const notes = []
  const pgAdmin = async (query, params) => {
    const client = new pg.Client({ connectionString: cluster.url, connectionTimeoutMillis: 10_000 })
    await client.connect()
    try {
      return (await client.query(query, params)).rows
    } finally {
      await client.end().catch(() => {})
    }
  }
  const workers = () => nodes.map((node, index) => ({ node, index })).filter(({ node }) => node.role === "worker")
  const pick = (list) => list[Math.floor(Math.random() * list.length)]
  let kills = 0
  const firstRole = Math.floor(Math.random() * 2)
  const kill9 = async () => {
    // Workers and receivers by turns (which first, and which of them, at random): both kinds die.
    const role = (kills++ + firstRole) % 2 === 0 ? "worker" : "receiver"
    const { index, node: victim } = pick(
      nodes.map((node, index) => ({ node, index })).filter(({ node }) => node.role === role)
    )
    victim.child.kill("SIGKILL")
    if (role === "worker") interruptions.push({ pid: victim.pid, at: Date.now(), until: Date.now() })
    events.push({ kind: `kill-9 ${role}`, at: Date.now() })
    killed.push(victim.name)
    faults["kill-9"]++
    await sleep(300 + Math.floor(Math.random() * 500))
    nodes[index] = await startNode(victim.role, victim.port)
  }
  const pgRestart = async (mode) => {
    const before = await cluster.startedAt()
    const began = Date.now()
    events.push({ kind: `pg-restart ${mode}`, at: began })
    cluster.restart(mode)
    const after = await cluster.startedAt()
    if (after !== before) faults["pg-restart"]++
    notes.push(`pg-restart -m ${mode}: down ${Date.now() - began} ms`)
  }
  // The backends of the runtimes on the chaos database; a LISTEN backend's last statement is its LISTEN.
  const backends = () =>
    pgAdmin(
      `SELECT pid, query FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      [database.name]
    )
  const terminate = async (kind, which) => {
    const targets = (await backends()).filter((b) => which(/^\s*LISTEN\b/i.test(b.query)))
    if (targets.length === 0) return notes.push(`${kind}: no such backend to terminate`)
    events.push({ kind, at: Date.now() })
    const done = await pgAdmin("SELECT pid, pg_terminate_backend(pid) AS ok FROM unnest($1::int[]) AS pid", [
      targets.map((t) => t.pid)
    ])
    await sleep(200)
    const alive = new Set((await backends()).map((b) => b.pid))
    faults[kind] += done.filter((d) => d.ok && !alive.has(d.pid)).length
  }
  const procState = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "")[0]
    } catch {
      return "?"
    }
  }
  const stopPastLease = async () => {
    const { node } = pick(workers())
    node.child.kill("SIGSTOP")
    const at = Date.now()
    await sleep(100)
    const stopped = procState(node.pid) === "T"
    events.push({ kind: "stop-past-lease", at })
    await sleep(LEASE_MS + 1500)
    node.child.kill("SIGCONT")
    interruptions.push({ pid: node.pid, at, until: Date.now() })
    events.push({ kind: "resumed (SIGCONT)", at: Date.now() })
    await sleep(100)
    if (stopped && procState(node.pid) !== "T") faults["stop-past-lease"]++
  }
  let defect
  const adapterDefect = async () => {
    // A repair order with deliveries still to come, so the defect meets entries while others flow.
    const candidates = [...sendingNow.entries()].filter(([, left]) => left >= 5).map(([ro]) => ro)
    const ro = `ro${candidates.length > 0 ? pick(candidates) : 0}`
    const others = async () => {
      const report = await (await fetch(`${smsUrl}/report`)).json()
      return appliedSeqs(report) - new Set((report[ro] ?? []).map((l) => l.seq)).size
    }
    const setDefect = (on) => fetch(`${smsUrl}/defect`, { method: "POST", body: JSON.stringify({ ro, on }) })
    const othersBefore = await others()
    await setDefect(true)
    const began = Date.now()
    events.push({ kind: "adapter-defect", at: began })
    const throws = async () => (await (await fetch(`${smsUrl}/defects`)).json()).defects
    defect = (async () => {
      // At least DEFECT_MS, and until the adapter has thrown a few times (the workers may be behind
      // the senders), at most 60 s.
      await sleep(DEFECT_MS)
      for (const until = Date.now() + 60_000; (await throws()) < 5 && Date.now() < until;) await sleep(250)
      await setDefect(false)
      const othersApplied = (await others()) - othersBefore
      faults["adapter-defect"] = await throws()
      notes.push(
        `adapter-defect on ${ro} for ${Date.now() - began} ms: ${
          faults["adapter-defect"]
        } throws; meanwhile ${othersApplied} entries of other repair orders applied`
      )
    })()
  }
  const schedule = [
    kill9,
    () => pgRestart("fast"),
    kill9,
    () => terminate("backend-kill", (listen) => !listen),
    adapterDefect,
    () => terminate("listen-kill", (listen) => listen),
    stopPastLease,
    kill9,
    () => pgRestart("immediate"),
    () => terminate("listen-kill", (listen) => listen),
    kill9,
    () => terminate("backend-kill", (listen) => !listen),
    stopPastLease,
    kill9
  ]
  const chaos = (async () => {
    for (const [i, fault] of schedule.entries()) {
      await sleep(i === 0 ? 1500 : 1000)
      if (fault === kill9 && kills >= KILLS) continue
      await fault()
    }
    await defect
  })()
  await Promise.all(senders)
  log(`acknowledged ${acked} deliveries in ${((Date.now() - sendStarted) / 1000).toFixed(1)} s`)
  await chaos
  log(`killed with SIGKILL and restarted: ${killed.join(", ")}`)
  for (const note of notes) log(note)

  // 6. Wait for the workers to drain: every delivery applied, or an entry stuck past its lease.
  const expected = REPAIR_ORDERS * PER_RO
  const deadline = Date.now() + 60_000 + 3 * LEASE_MS
  let report
  while (Date.now() < deadline) {
    report = await (await fetch(`${smsUrl}/report`)).json()
    if (appliedSeqs(report) >= expected) break
    await sleep(250)
  }
  const db = new pg.Client({ connectionString: database.url })
  await db.connect()
  const stuck = Number((await db.query("SELECT count(*) AS n FROM shoplink_inbox WHERE status <> 'applied'")).rows[0].n)
  await db.end()

  // 7. The verdict. A key written twice is a duplicate unless its earlier writer was killed or
  // stopped within 2 s after that write (mid-apply: at-least-once, as any crash allows).
  const skewedWrites = Object.values(report).flat().filter((line) => line.writer === String(skewed.pid)).length
  if (skewed.clock >= 25_000 && skewedWrites > 0) faults["clock-skew"]++
  notes.length = 0
  notes.push(
    `clock-skew: the faketime'd worker's clock ${
      (skewed.clock / 1000).toFixed(1)
    } s ahead, ${skewedWrites} of the writes were its`
  )
  // The earlier write's worker was killed or stopped while that apply's lease still ran (within
  // LEASE_MS after the write), or the write landed while it was stopped (a request in flight when
  // SIGSTOP came): the engine may not have marked it yet, and another worker's apply is the
  // at-least-once a crash allows.
  const interruption = (line) =>
    interruptions.find((i) => String(i.pid) === line.writer && i.at <= line.at + LEASE_MS && i.until >= line.at - 100)
  const interruptedAfter = (line) => interruption(line) !== undefined
  const writeToInterruption = []
  const skewedPid = String(skewed.pid)
  const explained = [] // what each duplicate followed: the last fault before its second write
  const disordered = [] // likewise for each out-of-order apply
  const lastFaultBefore = (at) => events.filter((e) => e.at <= at).at(-1)
  let lost = 0
  let duplicated = 0
  let reapplied = 0
  let outOfOrder = 0
  for (let ro = 0; ro < REPAIR_ORDERS; ro++) {
    const list = report[`ro${ro}`] ?? []
    const last = new Map()
    for (const line of list) {
      const previous = last.get(line.key)
      if (previous !== undefined) {
        if (interruptedAfter(previous) && !(line.writer === previous.writer)) {
          reapplied++
          writeToInterruption.push(Math.max(0, interruption(previous).at - previous.at))
        } else {
          duplicated++
          // The fault nearest the first write (its mark should have followed it).
          const fault = [...events].sort((a, b) => Math.abs(a.at - previous.at) - Math.abs(b.at - previous.at))[0]
          const who = (w) => (w === skewedPid ? "skewed worker" : `worker ${w}`)
          const when = fault === undefined ? "" : `${((previous.at - fault.at) / 1000).toFixed(1)} s`
          explained.push(
            `${line.key} (ro${ro} #${line.seq}): ${who(previous.writer)} then ${who(line.writer)} ${
              line.at - previous.at
            } ms later; the fault nearest the first write: ${
              fault === undefined
                ? "none"
                : `${fault.kind} (first write at ${
                  when.startsWith("-") ? when.slice(1) + " before" : when + " after"
                } it)`
            }`
          )
        }
      }
      last.set(line.key, line)
    }
    const seqs = list.map((line) => line.seq)
    for (let i = 1; i < seqs.length; i++) {
      if (seqs[i] < seqs[i - 1]) {
        outOfOrder++
        const fault = lastFaultBefore(list[i].at)
        const who = (w) => (w === skewedPid ? "skewed worker" : `worker ${w}`)
        disordered.push(
          `ro${ro}: #${seqs[i - 1]} by ${who(list[i - 1].writer)} then #${seqs[i]} by ${who(list[i].writer)} ${
            list[i].at - list[i - 1].at
          } ms later; last fault before: ${
            fault === undefined ? "none" : `${fault.kind} ${((list[i].at - fault.at) / 1000).toFixed(1)} s earlier`
          }`
        )
      }
    }
    const present = new Set(seqs)
    for (let n = -1; n < PER_RO - 1; n++) if (!present.has(n)) lost++
  }
  const applied = appliedSeqs(report)
  for (const note of notes) log(note)
  if (explained.length > 0) {
    const byFault = new Map()
    for (const line of explained) {
      const kind = /nearest the first write: ([a-z0-9 ()-]+?)(?: \(first write|$)/.exec(line)?.[1] ?? "?"
      byFault.set(kind, (byFault.get(kind) ?? 0) + 1)
    }
    log(
      `duplicates by the fault nearest their first write: ${[...byFault].map(([k, n]) => `${k} ${n}`).join(", ")}; e.g.`
    )
    for (const line of explained.slice(0, 8)) log(`  ${line}`)
  }
  if (disordered.length > 0) {
    log("out of order, e.g.")
    for (const line of disordered.slice(0, 5)) log(`  ${line}`)
  }
  if (reapplied > 0) {
    const sorted = [...writeToInterruption].sort((a, b) => a - b)
    log(
      `re-applied after its worker was killed or stopped within the lease of that apply (at-least-once, not a duplicate): ${reapplied}; from the first write to the kill or stop: median ${
        sorted[Math.floor(sorted.length / 2)]
      } ms, max ${sorted.at(-1)} ms`
    )
  }
  const missingFaults = Object.entries(faults).filter(([, n]) => n === 0).map(([kind]) => kind)
  if (missingFaults.length > 0) log(`NOT injected: ${missingFaults.join(", ")}`)
  console.log(
    `chaos: acked ${acked}, applied ${applied}, lost ${lost}, duplicated ${duplicated}, out-of-order ${outOfOrder}${
      stuck > 0 ? `, stuck ${stuck}` : ""
    }; faults: ${Object.entries(faults).map(([kind, n]) => `${kind} ${n}`).join(", ")}`
  )
  if (acked !== expected || lost > 0 || duplicated > 0 || outOfOrder > 0 || stuck > 0 || missingFaults.length > 0) {
    process.exitCode = 1
  }
} catch (error) {
  console.error(`[chaos] FAILED: ${error.message}`)
  process.exitCode = 1
} finally {
  killAll()
  await sleep(200)
  await database?.drop().catch((error) => console.error(`[chaos] could not drop ${database.name}: ${error.message}`))
  try {
    cluster?.stop()
  } catch (error) {
    console.error(`[chaos] could not stop the cluster: ${error.message}`)
  }
}
