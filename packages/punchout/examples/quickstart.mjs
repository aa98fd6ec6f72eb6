// Runnable quick start: starts the local sandbox, opens a session, prices an oil filter, builds a
// ShowCatalog URL. Run after a build: `node examples/quickstart.mjs` (from packages/punchout).
import { UndiciHttpClient } from "@shoplink/http-node"
import { Effect, Either, Layer, Redacted } from "effect"
import { SANDBOX_CREDENTIALS, startSandbox } from "@shoplink/sandbox"
import { PunchoutClient, SessionPool, ShowUrls } from "@shoplink/punchout"

const program = Effect.gen(function*() {
  const sandbox = yield* startSandbox()
  const us = SANDBOX_CREDENTIALS.customers.us
  const customer = {
    accountNo: us.accountNo,
    username: us.username,
    country: "US",
    apiToken: Redacted.make(us.apiToken)
  }

  const live = SessionPool.layer({
    session: {
      smsVendorName: "Acme SMS",
      webhooks: { order: "https://sms.example/hooks/order", quote: "https://sms.example/hooks/quote" }
    }
  }).pipe(
    Layer.provideMerge(
      PunchoutClient.layer({ baseUrl: sandbox.url, vendorApiKey: Redacted.make(SANDBOX_CREDENTIALS.vendorApiKey) })
    ),
    Layer.provide(UndiciHttpClient.layer)
  )

  yield* Effect.gen(function*() {
    const client = yield* PunchoutClient.PunchoutClient
    const pool = yield* SessionPool.SessionPool
    const { quotes } = yield* pool.withSession(
      customer,
      (session) => client.getProductQuotes(session, { productID: "51515", brandID: "WIX", quantity: 2 })
    )
    for (const quote of quotes) {
      yield* Effect.log(`${quote.brandID} ${quote.productID}: ${quote.price} (${quote.quantityAvail} available)`)
    }

    const session = yield* pool.get(customer)
    const url = ShowUrls.showCatalogUrl(session, { searchTerm: "brake pads", baseVehicleID: "5678" })
    // The URL carries the session token: it prints as <redacted>; Redacted.value(url) opens it.
    if (Either.isRight(url)) yield* Effect.log(`ShowCatalog URL: ${url.right}`)
  }).pipe(Effect.provide(live))
})

Effect.runPromise(Effect.scoped(program)).catch((error) => {
  console.error(error)
  process.exitCode = 1
})
