// GetProductQuotes requests per second on loopback against the built sandbox, with a fixed
// client: an undici Pool and a bounded loop (fixed concurrency, request cap and time cap).
import { availableParallelism } from "node:os"
import { Pool } from "undici"
import { startSandboxServer } from "../dist/index.js"

const CONCURRENCY = 16
const MAX_REQUESTS = 20_000
const MAX_MILLIS = 10_000
const WARMUP = 500

const handle = await startSandboxServer({ port: 0 })
const c = handle.credentials.customers.us
const created = await fetch(`${handle.url}/punchout/v1/create`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({
    apiKey: handle.credentials.vendorApiKey,
    apiToken: c.apiToken,
    accountNo: c.accountNo,
    username: c.username,
    country: "US",
    smsVendorName: "bench",
    webhooks: { order: "http://127.0.0.1:9/o", quote: "http://127.0.0.1:9/q" }
  })
}).then((r) => r.json())
const path = new URL(created.punchout.url.replace("{command}", "GetProductQuotes")).pathname +
  new URL(created.punchout.url.replace("{command}", "GetProductQuotes")).search
const body = JSON.stringify({ productID: "51515", brandID: "WIX", quantity: "1" })

const pool = new Pool(handle.url, { connections: CONCURRENCY, pipelining: 1 })
const one = async () => {
  const response = await pool.request({ method: "POST", path, body, headers: { "content-type": "application/json" } })
  await response.body.text()
  if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`)
}

for (let i = 0; i < WARMUP; i++) await one()

let sent = 0
let done = 0
const started = performance.now()
const deadline = started + MAX_MILLIS
await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
  while (sent < MAX_REQUESTS && performance.now() < deadline) {
    sent++
    await one()
    done++
  }
}))
const seconds = (performance.now() - started) / 1000

console.log(JSON.stringify({
  benchmark: "sandbox GetProductQuotes (loopback)",
  requests: done,
  seconds: Number(seconds.toFixed(2)),
  requestsPerSecond: Math.round(done / seconds),
  concurrency: CONCURRENCY,
  cores: availableParallelism()
}))

await pool.close()
await handle.close()
