// priceAndAvailability through OrderManagementClient vs a raw undici request, against the same
// local server, interleaved round by round so both see the same machine state. Prints the ratio
// (client time / raw time). Run `pnpm --filter @shoplink/order-management build` first.
import * as Http from "node:http"
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { request } from "undici"
import { Customer, OrderManagementClient } from "../dist/index.js"

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10)
const PER_ROUND = Number(process.env.BENCH_ITERATIONS ?? 200)
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
    brand: { ACABrandID: "BBDF", SERVICEBrandCode: item.brandCode, SERVICEBrandLogo: "logo", brandDescription: "Brand", brandLogoLevel1URL: "" },
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

const runtime = ManagedRuntime.make(
  OrderManagementClient.layer({ environment: "US_QUA", apiKey: Redacted.make(API_KEY), testBaseUrl: host }).pipe(
    Layer.provide(NodeHttpClient.layerUndici)
  )
)
const oms = (await runtime.runPromise(OrderManagementClient.OrderManagementClient)).forCustomer(
  Customer.make("100200", API_TOKEN)
)
const viaClient = () => runtime.runPromise(oms.priceAndAvailability({ items }))
const payload = JSON.stringify({ customerAccountNo: "100200", items })
const viaUndici = async () => {
  const response = await request(url, {
    method: "POST",
    headers: { APIKey: API_KEY, accept: "application/json", "content-type": "application/json" },
    body: payload
  })
  return response.body.json()
}

const time = async (f) => {
  const start = process.hrtime.bigint()
  for (let i = 0; i < PER_ROUND; i++) await f()
  return Number(process.hrtime.bigint() - start) / 1e6
}

// Warm-up: JIT, connection pools.
await time(viaClient)
await time(viaUndici)

let clientMs = 0
let rawMs = 0
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which goes first so neither always runs on a warmer machine.
  if (round % 2 === 0) {
    clientMs += await time(viaClient)
    rawMs += await time(viaUndici)
  } else {
    rawMs += await time(viaUndici)
    clientMs += await time(viaClient)
  }
}

const calls = ROUNDS * PER_ROUND
const perCall = (ms) => `${((ms / calls) * 1000).toFixed(1)} µs/call`
console.log(`priceAndAvailability x ${calls} (${ROUNDS} interleaved rounds)`)
console.log(`  OrderManagementClient  ${perCall(clientMs)}`)
console.log(`  raw undici.request     ${perCall(rawMs)}`)
console.log(`  ratio client/raw       ${(clientMs / rawMs).toFixed(2)}x`)

await runtime.dispose()
await new Promise((resolve) => server.close(resolve))
