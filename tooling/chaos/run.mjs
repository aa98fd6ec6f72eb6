#!/usr/bin/env node
// `pnpm chaos`: scale-out on PostgreSQL under kill -9.
//
// Starts, as separate OS processes, the sandbox (the distributor), a fake shop system, 2 receivers
// and 2 workers (node.mjs: each a ConnectorRuntime on one PostgreSQL database). Launches each of
// 200 repair orders through a receiver's launch API (a session at the sandbox, a launch key in the
// database) and exports it in the sandbox, which posts its first quote webhook. Then, as the
// distributor would, it posts the other 24 webhooks of each repair order (5,000 deliveries in all),
// one after another per repair order, to either receiver (a delivery a dying receiver did not
// acknowledge is sent again, to the other one). Meanwhile it kill -9s a receiver or a worker 5
// times, by turns, and restarts it. Then it checks every acknowledged delivery reached the shop
// system once, in order, and prints
//   chaos: acked N, applied N, lost 0, duplicated 0, out-of-order 0
// exiting non-zero on any loss, duplicate, out-of-order apply or entry stuck past its lease.
//
// The database: SHOPLINK_TEST_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432),
// a new database dropped at the end; a throwaway cluster when no server answers.
import { FetchHttpClient } from "@effect/platform"
import { Context, Effect, Either, Layer, Logger, LogLevel, Redacted } from "effect"
import { ApiKeys, SecretBox, ShopStore, Storage } from "@shoplink/connector"
import { makeSandboxAdminClient, SANDBOX_CREDENTIALS, SANDBOX_FIXTURES } from "@shoplink/sandbox"
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { testDatabase } from "@shoplink/vitest-config/postgres"
import pg from "pg"
import { ensureServer, freePort, killAll, quoteBody, sleep, startProcess } from "./harness.mjs"

const REPAIR_ORDERS = Number(process.env.CHAOS_REPAIR_ORDERS ?? 200)
const PER_RO = Number(process.env.CHAOS_DELIVERIES_PER_RO ?? 25)
const KILLS = Number(process.env.CHAOS_KILLS ?? 5)
const LEASE_MS = Number(process.env.CHAOS_LEASE_MS ?? 3000)
const SENDERS = 40
const here = (file) => fileURLToPath(new URL(file, import.meta.url))
const sandboxBin = fileURLToPath(new URL("./bin.js", import.meta.resolve("@shoplink/sandbox")))
// The sandbox's public fixtures: the US customer and the vendor key.
const SANDBOX_CUSTOMER = SANDBOX_CREDENTIALS.customers.us
const SANDBOX_VENDOR_KEY = SANDBOX_CREDENTIALS.vendorApiKey
const log = (message) => console.log(`[chaos] ${message}`)

let cluster
let database
const nodes = []
let sms
try {
  // 1. A database of our own.
  cluster = await ensureServer(log)
  database = await testDatabase()
  const secretKeys = `k1:${randomBytes(32).toString("base64")}`

  // 2. The distributor (the sandbox), the fake SMS, and the shop and a vendor API key in the database.
  const sandbox = await startProcess("sandbox", [sandboxBin, "--port", "0"], {}, /listening on (http:\/\/127\.0\.0\.1:\d+)/)
  const sandboxUrl = sandbox.match[1]
  const vendorKey = await Effect.runPromise(Logger.withMinimumLogLevel(LogLevel.Warning)(Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(Layer.mergeAll(ShopStore.layerSql, ApiKeys.layerSql).pipe(
      Layer.provideMerge(Storage.postgres(Redacted.make(database.url))),
      Layer.provide(SecretBox.layer(Either.getOrThrow(SecretBox.parseKeyring(secretKeys))))
    ))
    yield* Context.get(context, ShopStore.ShopStore).add({
      id: "shop_chaos",
      name: "Chaos Auto",
      distributor: { ...SANDBOX_CUSTOMER, apiToken: Redacted.make(SANDBOX_CUSTOMER.apiToken) },
      sms: {}
    })
    const { key } = yield* Context.get(context, ApiKeys.ApiKeys).create("chaos")
    return Redacted.value(key)
  }))))
  sms = await startProcess("fake-sms", [here("./fake-sms.mjs")], {}, /listening (\d+)/)
  const smsUrl = `http://127.0.0.1:${sms.match[1]}`

  // 3. Receivers and workers.
  const env = {
    CHAOS_DATABASE_URL: database.url, CHAOS_SMS_URL: smsUrl, CHAOS_SECRET_KEYS: secretKeys, CHAOS_LEASE_MS: String(LEASE_MS),
    CHAOS_PUNCHOUT_URL: sandboxUrl, CHAOS_VENDOR_API_KEY: SANDBOX_VENDOR_KEY
  }
  const startNode = async (role, port) => {
    const started = await startProcess(`${role}:${port ?? "-"}`, [here("./node.mjs"), role], { ...env, PORT: String(port ?? 0) }, /ready (receiver|worker)/)
    return { role, port, ...started }
  }
  for (const role of ["receiver", "receiver", "worker", "worker"]) {
    nodes.push(await startNode(role, role === "receiver" ? await freePort() : undefined))
  }
  log(`started the sandbox, a fake SMS, ${nodes.filter((n) => n.role === "receiver").length} receivers and ${nodes.filter((n) => n.role === "worker").length} workers on one PostgreSQL database`)

  // 4. A launch per repair order, as an SMS backend makes it (POST /shoplink/launch with the vendor
  // key, to either receiver): the runtime creates a distributor session at the sandbox and a launch
  // key. Then the shop's export in the sandbox: the sandbox posts the first quote webhook of that
  // repair order, and its delivery log says where, which is how this harness learns the key.
  // The sandbox's admin API through its typed client: the admin routes are written only in SandboxApi.
  const adminClient = await Effect.runPromise(makeSandboxAdminClient({ url: sandboxUrl }).pipe(Effect.provide(FetchHttpClient.layer)))
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
      const found = await admin((a) => a.driverSearch({ payload: { token, vin: SANDBOX_FIXTURES.vehicles[0].vin, searchTerm: "filter" } }))
      const inStock = found.results.filter((r) => r.available > 0 && r.price !== undefined)
      if (inStock.length === 0) throw new Error(`ro${ro}: the sandbox shows no filter in stock`)
      const part = inStock[ro % inStock.length]
      await admin((a) => a.driverAddToCart({ payload: { token, productID: part.productID, brandID: part.brandID, quantity: 1 } }))
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
  if (missing.length > 0) throw new Error(`the sandbox delivered no acknowledged export webhook for ${missing.length} repair order(s), e.g. ro${missing[0]}`)
  log(`launched ${REPAIR_ORDERS} repair orders through the receivers and exported each in the sandbox in ${((Date.now() - launchStarted) / 1000).toFixed(1)} s`)

  // 4. Deliveries, each repair order's in sequence, to whichever receiver answers.
  // The sandbox's export of each repair order was acknowledged (its delivery log says 200).
  let acked = REPAIR_ORDERS
  let sending = true
  let turn = 0
  const post = async (ro, n) => {
    for (let attempt = 0; ; attempt++) {
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
      if (attempt > 200) throw new Error(`ro${ro} #${n}: no receiver acknowledged it after 200 attempts`)
      await sleep(50)
    }
  }
  const queue = Array.from({ length: REPAIR_ORDERS }, (_, i) => i)
  const senders = Array.from({ length: SENDERS }, async () => {
    while (queue.length > 0) {
      const ro = queue.shift()
      // Delivery -1 was the sandbox's export; this sends the rest.
      for (let n = 0; n < PER_RO - 1; n++) {
        await post(ro, n)
        acked++
      }
    }
  })

  // 5. kill -9 a random receiver or worker, KILLS times, and restart it.
  const killed = []
  const firstRole = Math.floor(Math.random() * 2)
  const chaos = (async () => {
    for (let i = 0; i < KILLS; i++) {
      await sleep(sending ? 1500 : 800)
      // Workers and receivers by turns (which first, and which of them, at random): both kinds die.
      const role = (i + firstRole) % 2 === 0 ? "worker" : "receiver"
      const candidates = nodes.map((node, index) => ({ node, index })).filter(({ node }) => node.role === role)
      const { index, node: victim } = candidates[Math.floor(Math.random() * candidates.length)]
      victim.child.kill("SIGKILL")
      killed.push(victim.name)
      await sleep(300 + Math.floor(Math.random() * 500))
      nodes[index] = await startNode(victim.role, victim.port)
    }
  })()
  const sendStarted = Date.now()
  await Promise.all(senders)
  sending = false
  log(`acknowledged ${acked} deliveries in ${((Date.now() - sendStarted) / 1000).toFixed(1)} s`)
  await chaos
  log(`killed with SIGKILL and restarted: ${killed.join(", ")}`)

  // 6. Wait for the workers to drain: every delivery applied, or an entry stuck past its lease.
  const expected = REPAIR_ORDERS * PER_RO
  const deadline = Date.now() + 60_000 + 3 * LEASE_MS
  let report
  const appliedSeqs = (r) => Object.values(r).reduce((sum, list) => sum + new Set(list.map((l) => l.seq)).size, 0)
  while (Date.now() < deadline) {
    report = await (await fetch(`${smsUrl}/report`)).json()
    if (appliedSeqs(report) >= expected) break
    await sleep(250)
  }
  const db = new pg.Client({ connectionString: database.url })
  await db.connect()
  const stuck = Number((await db.query("SELECT count(*) AS n FROM shoplink_inbox WHERE status <> 'applied'")).rows[0].n)
  await db.end()

  // 7. The verdict.
  let lost = 0
  let duplicated = 0
  let outOfOrder = 0
  for (let ro = 0; ro < REPAIR_ORDERS; ro++) {
    const list = report[`ro${ro}`] ?? []
    const keysSeen = new Map()
    for (const line of list) keysSeen.set(line.key, (keysSeen.get(line.key) ?? 0) + 1)
    duplicated += [...keysSeen.values()].filter((count) => count > 1).length
    const seqs = list.map((line) => line.seq)
    for (let i = 1; i < seqs.length; i++) if (seqs[i] < seqs[i - 1]) outOfOrder++
    const present = new Set(seqs)
    for (let n = -1; n < PER_RO - 1; n++) if (!present.has(n)) lost++
  }
  const applied = appliedSeqs(report)
  console.log(`chaos: acked ${acked}, applied ${applied}, lost ${lost}, duplicated ${duplicated}, out-of-order ${outOfOrder}${stuck > 0 ? `, stuck ${stuck}` : ""}`)
  if (acked !== expected || lost > 0 || duplicated > 0 || outOfOrder > 0 || stuck > 0) process.exitCode = 1
} catch (error) {
  console.error(`[chaos] FAILED: ${error.message}`)
  process.exitCode = 1
} finally {
  killAll()
  await sleep(200)
  await database?.drop().catch((error) => console.error(`[chaos] could not drop ${database.name}: ${error.message}`))
  cluster?.stop()
}
