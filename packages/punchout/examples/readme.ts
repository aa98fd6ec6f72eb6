// The README's quick example, kept here so `pnpm typecheck` proves it compiles. It reads
// SHOPLINK_PUNCHOUT_BASE_URL and SHOPLINK_VENDOR_API_KEY; see quickstart.mjs for a version that
// starts the sandbox itself.
import { UndiciHttpClient } from "@shoplink/http-node"
import { Config, Effect, Layer, Redacted } from "effect"
import { PunchoutClient, SessionPool, ShowUrls } from "@shoplink/punchout"

const customer = {
  accountNo: "100200",
  username: "parts@mainstreet-auto.example",
  country: "US" as const,
  apiToken: Redacted.make("sbx-token-us-100200")
}

const program = Effect.gen(function*() {
  const client = yield* PunchoutClient.PunchoutClient
  const pool = yield* SessionPool.SessionPool
  // Runs with the customer's pooled session; a 401 re-creates the session and runs once more.
  const { quotes } = yield* pool.withSession(
    customer,
    (session) => client.getProductQuotes(session, { searchTerm: "oil filter", quantity: 1 })
  )
  const order = yield* pool.withSession(
    customer,
    (session) => client.createOrder(session, { productID: "51515", brandID: "WIX", quantity: 2, comment: "PO 77" })
  )
  const session = yield* pool.get(customer)
  const url = yield* ShowUrls.showOrderUrl(session, { orderId: order.order.orderID })
  return { quotes, open: Redacted.value(url) } // the URL carries the token: never log it
})

const live = SessionPool.layer({
  session: { smsVendorName: "Acme SMS", webhooks: { order: "https://sms.example/o", quote: "https://sms.example/q" } }
}).pipe(
  // The application names its variables; the client reads only the Config it is given.
  Layer.provideMerge(PunchoutClient.layerConfig({
    baseUrl: Config.string("SHOPLINK_PUNCHOUT_BASE_URL"),
    vendorApiKey: Config.redacted("SHOPLINK_VENDOR_API_KEY")
  })),
  Layer.provide(UndiciHttpClient.layer)
)

export const main = () => Effect.runPromise(program.pipe(Effect.provide(live)))
