// Prices an item, orders it with a drop-ship address (accepting the distributor's recommended
// address when it has one) and reads the order back, against the local sandbox.
// Type-checked with the package (`pnpm typecheck`); run it with a TypeScript runner, e.g.
// `node --experimental-strip-types examples/quickstart.ts` on Node 22+.
import { NodeHttpClient } from "@effect/platform-node"
import { startSandbox } from "@shoplink/sandbox"
import { Effect, Layer, Redacted } from "effect"
import { Customer, OrderManagementClient } from "../src/index.js"

const program = Effect.gen(function*() {
  const sandbox = yield* startSandbox()
  const OmsLive = OrderManagementClient.layer({
    environment: "US_QUA",
    apiKey: Redacted.make(sandbox.credentials.oms.testApiKey),
    testBaseUrl: sandbox.url
  }).pipe(Layer.provide(NodeHttpClient.layerUndici))

  return yield* Effect.gen(function*() {
    const client = yield* OrderManagementClient.OrderManagementClient
    const { us } = sandbox.credentials.customers
    const customer = client.forCustomer(Customer.make(us.accountNo, us.apiToken))
    const item = { productID: "51515", brandCode: "WIX", quantity: 2 }

    const prices = yield* customer.priceAndAvailability({ items: [item] })
    yield* Effect.log("warehouses", prices.items[0]?.warehouses)

    const order = yield* customer.createOrder({
      customerPO: "PO-EXAMPLE",
      orderLines: [item],
      shippingAddress: {
        name: "Jane Doe",
        phoneNumber: "5125550100",
        emailAddress: "",
        addressLine2: "",
        ...sandbox.fixtures.dropShip.recommendable
      }
    }).pipe(
      Effect.catchTag("DropShipAddressRejected", (rejected) =>
        Effect.zipRight(
          Effect.log(`address corrected: ${rejected.recommendationText}`),
          customer.resubmitWithRecommendation(rejected)
        ))
    )
    const details = yield* customer.orderDetails({ orderNo: order.orderHeader.orderNo ?? "" })
    yield* Effect.log("order", details.orderHeader)
  }).pipe(Effect.provide(OmsLive))
})

Effect.runPromise(Effect.scoped(program)).catch((error) => {
  console.error(error)
  process.exitCode = 1
})
