#!/usr/bin/env node
// A tour of @shoplink/protocol: decodes three bodies the distributor sends (a punchout session, a
// quote webhook and an error envelope) and prints what a client sees. Run `pnpm demo` from the
// repository root (it builds the package first), or `node packages/protocol/examples/demo.mjs`.
import { DateTime, Either, Redacted, Schema } from "effect"
import { Envelope, Punchout } from "@shoplink/protocol"

const say = (line = "") => console.log(line)

// 1. The create-session response (POST {base_url}/punchout/v1/create).
const sessionBody = {
  serverVersion: "1.4.0",
  status: { code: 200, message: { text: "Success" } },
  punchout: {
    url: "https://dist.example/punchout/v1/{command}?token=3b0e6c1a-demo-token",
    token: "3b0e6c1a-demo-token",
    expiration: 1763812800
  }
}
const session = Schema.decodeUnknownSync(Punchout.CreateSessionResponse)(sessionBody)
say("== Punchout session")
if (session.punchout.url === "") {
  say("refused")
} else {
  const granted = session.punchout
  say(`granted; expires ${DateTime.formatIso(granted.expiration)}`)
  say(`token is Redacted: ${Redacted.isRedacted(granted.token)} (prints as ${String(granted.token)})`)
  say(`session prints as ${JSON.stringify(granted)}`)
  const showCatalog = granted.url.replace(Punchout.COMMAND_PLACEHOLDER, "ShowCatalog")
  say(`ShowCatalog URL: ${Punchout.redactSessionUrl(showCatalog)}`)
}
say()

// 2. The quote webhook (POSTed to webhooks.quote after the user chooses Export).
const quoteBody = {
  referenceID: "RO-1042",
  quotes: [
    {
      acaPartTerminologyID: 1684,
      productID: "51515",
      brandID: "WIX",
      categoryID: "FLT",
      productDesc: "Engine Oil Filter",
      orderByTime: 1763769600000,
      dispatchTime: 1763773200000,
      quantityAvail: 12,
      quantityReq: 2,
      price: 6.49,
      listPrice: 9.99,
      corePrice: 0,
      weight: 0.8,
      quality: null,
      makeId: 0,
      subtotal: 12.98
    },
    {
      acaPartTerminologyID: 1896,
      productID: "MGD1234",
      brandID: "WAG",
      categoryID: "BRK",
      productDesc: "Disc Brake Pad Set",
      orderByTime: "1763769600",
      dispatchTime: 1763776800000,
      quantityAvail: 3,
      quantityReq: 1,
      price: 41.5,
      listPrice: 58,
      corePrice: 0,
      weight: 2.1,
      quality: "Premium",
      makeId: 0,
      subtotal: 41.5
    }
  ]
}
const webhook = Schema.decodeUnknownSync(Punchout.QuoteWebhook)(quoteBody)
say(`== Quote webhook for ${webhook.referenceID}: ${webhook.quotes.length} lines`)
for (const line of webhook.quotes) {
  const quality = line.quality === "" ? "(no quality)" : line.quality
  say(
    `${line.brandID} ${line.productID} ${line.productDesc} x${line.quantityReq} @ ${line.price.toFixed(2)} = ${
      line.subtotal.toFixed(2)
    }; ${quality}; order by ${DateTime.formatIso(line.orderByTime)}`
  )
}
say()

// 3. An error envelope: HTTP 200, but the message ID says the order is locked.
const errorBody = {
  serverVersion: "2.7.3",
  status: { code: 200, message: { ID: "API0258", text: "Order is locked by another job" } },
  referenceID: "RO-1042"
}
const envelope = Schema.decodeUnknownSync(Envelope.StatusEnvelope)(errorBody)
const outcome = Envelope.classify(envelope, 200)
say("== Error envelope")
if (Either.isLeft(outcome)) {
  const error = outcome.left
  say(`${error._tag}: ${error.message}`)
  say(`retry class: ${error.retryClass}`)
} else {
  say("success")
}
