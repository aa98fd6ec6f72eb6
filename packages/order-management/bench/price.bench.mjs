// priceAndAvailability through OrderManagementClient over @shoplink/http-node's UndiciHttpClient
// (the recommended Node transport) vs the same request with raw undici, against one local
// node:http server, in interleaved rounds (the order rotates each round) so all see the same
// machine state. Prints medians of the per-round µs/call, the client-side CPU per call, and the
// row `<what>: <figure> vs <anchor> = <ratio>× (target ≤ 1.25×: met|NOT met)`. The client over
// @effect/platform-node's NodeHttpClient.layerUndici is printed for information.
// Run `pnpm --filter @shoplink/order-management build` first (the bench imports dist).
import * as Http from "node:http"
import { PerformanceObserver } from "node:perf_hooks"
import v8 from "node:v8"
import vm from "node:vm"
import { NodeHttpClient } from "@effect/platform-node"
import { UndiciHttpClient } from "@shoplink/http-node"
import { Layer, ManagedRuntime, Redacted } from "effect"
import { Agent, request } from "undici"
import { Customer, OrderManagementClient } from "../dist/index.js"

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 200)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000)
const TARGET = 1.25
const API_KEY = "sbx-oms-test-key-0001"
const API_TOKEN = "sbx-token-us-100200"

const items = [
  { productID: "51515", brandCode: "WIX", quantity: 2 },
  { productID: "D1210", brandCode: "WAG", quantity: 1 }
]
const responseBody = JSON.stringify({
  serverVersion: "bench",
  status: { code: 200, message: { ID: "API0200", text: "Successful" } },
  items: items.map((item) => ({
    productID: item.productID,
    brandCode: item.brandCode,
    productDesc: "Bench item",
    quantityRequested: item.quantity,
    price: 6.49,
    listPrice: 9.99,
    corePrice: 0,
    brand: {
      ACABrandID: "BBDF",
      SERVICEBrandCode: item.brandCode,
      SERVICEBrandLogo: "logo",
      brandDescription: "Brand",
      brandLogoLevel1URL: ""
    },
    warehouses: [
      { warehouseCode: "DAL", warehouseName: "Dallas DC", quantityAvailable: 14, deliveryDays: 1 },
      { warehouseCode: "HOU", warehouseName: "Houston DC", quantityAvailable: 3, deliveryDays: 2 }
    ]
  }))
})

const server = Http.createServer((req, res) => {
  req.resume()
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" })
    res.end(responseBody)
  })
})
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
const host = `http://127.0.0.1:${server.address().port}`
const url = `${host}/web/services/US_QUA/priceAndAvailablity_v2?APIToken=${API_TOKEN}`

const clientOver = async (transport) => {
  const runtime = ManagedRuntime.make(
    OrderManagementClient.layer({ environment: "US_QUA", apiKey: Redacted.make(API_KEY), testBaseUrl: host }).pipe(
      Layer.provide(transport)
    )
  )
  const customer = (await runtime.runPromise(OrderManagementClient.OrderManagementClient)).forCustomer(
    Customer.make("100200", API_TOKEN)
  )
  return { runtime, customer }
}
const lean = await clientOver(UndiciHttpClient.layer)
const platform = await clientOver(NodeHttpClient.layerUndici)
const viaClient = () => lean.runtime.runPromise(lean.customer.priceAndAvailability({ items }))
const viaPlatform = () => platform.runtime.runPromise(platform.customer.priceAndAvailability({ items }))

// The anchor: the same request with undici's own API on its own keep-alive agent, body parsed.
const dispatcher = new Agent({ keepAliveTimeout: 10_000 })
const payload = JSON.stringify({ customerAccountNo: "100200", items })
const viaUndici = async () => {
  const response = await request(url, {
    method: "POST",
    dispatcher,
    headers: { APIKey: API_KEY, accept: "application/json", "content-type": "application/json" },
    body: payload
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
  const elapsed = Number(process.hrtime.bigint() - start) / 1e3 / PER_ROUND
  const used = process.cpuUsage(startCpu)
  cpu[key] += used.user + used.system
  return elapsed
}
const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

// Warm-up: JIT, connection pools.
for (let i = 0; i < WARMUP; i++) {
  await viaClient()
  await viaPlatform()
  await viaUndici()
}
const runs = { client: [], platform: [], undici: [] }
const contenders = [["client", viaClient], ["platform", viaPlatform], ["undici", viaUndici]]
for (let round = 0; round < ROUNDS; round++) {
  // Rotate the order so no contender always runs first (on a warmer or colder machine).
  for (let i = 0; i < contenders.length; i++) {
    const [key, f] = contenders[(round + i) % contenders.length]
    runs[key].push(await time(f, key))
  }
}
// Bytes allocated per call: the heap grows by what a batch allocates when no collection runs in
// between, so batches during which the GC ran are dropped; the median of the rest, per call. The
// server runs in this process, so its allocations count in every row alike.
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
const ALLOCATION_TARGET = 2

const us = (key) => median(runs[key])
const cpuPerCall = (key) => (cpu[key] / (ROUNDS * PER_ROUND)).toFixed(1)
const ratio = us("client") / us("undici")
console.log(
  `priceAndAvailability, ${ROUNDS} interleaved rounds of ${PER_ROUND} calls (median µs/call; client-side CPU µs/call, server included)`
)
console.log(
  `  OrderManagementClient over UndiciHttpClient.layer      ${us("client").toFixed(1)} µs  CPU ${
    cpuPerCall("client")
  } µs`
)
console.log(
  `  OrderManagementClient over NodeHttpClient.layerUndici  ${us("platform").toFixed(1)} µs  CPU ${
    cpuPerCall("platform")
  } µs  ${(us("platform") / us("undici")).toFixed(2)}× (for information)`
)
console.log(
  `  raw undici.request                                     ${us("undici").toFixed(1)} µs  CPU ${
    cpuPerCall("undici")
  } µs`
)
console.log(
  `OrderManagementClient priceAndAvailability: ${us("client").toFixed(1)} µs vs raw undici ${
    us("undici").toFixed(1)
  } µs = ${ratio.toFixed(3)}× (target ≤ ${TARGET}×: ${ratio <= TARGET ? "met" : "NOT met"})`
)

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
const allocationRatio = allocated.client / allocated.undici
console.log(
  `  bytes allocated per call (server included): OrderManagementClient ${
    kb(allocated.client)
  }, over NodeHttpClient.layerUndici ${kb(allocated.platform)}, raw undici ${kb(allocated.undici)}`
)
console.log(
  `OrderManagementClient bytes allocated per call: ${kb(allocated.client)} vs raw undici ${kb(allocated.undici)} = ${
    allocationRatio.toFixed(2)
  }× (target ≤ ${ALLOCATION_TARGET}×: ${allocationRatio <= ALLOCATION_TARGET ? "met" : "NOT met"})`
)

await lean.runtime.dispose()
await platform.runtime.dispose()
await dispatcher.close()
await new Promise((resolve) => server.close(resolve))
