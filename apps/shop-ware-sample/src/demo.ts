#!/usr/bin/env node
// `pnpm --filter shop-ware-sample demo`: the embedded default end to end, as a short transcript: a
// launch for a repair order, a quote and an order from the distributor's catalog (the sandbox's
// test driver clicks where a person would), the lines as the runtime keeps them (Shop-Ware takes no
// part lines: its parts ledger), the order recorded on the repair order (integrator tag and note),
// then the repair order invoiced in Shop-Ware, whose webhook closes it to ordering. Exits 0, or 1
// with "Demo failed: …".
import * as Transcript from "@shoplink/connector-testkit/Transcript"
import * as WebClient from "@shoplink/connector-testkit/WebClient"
import { Effect, Redacted, Schedule } from "effect"
import { join } from "node:path"
import { startApp } from "./app.js"
import { loopbackSettings, startEmbedded } from "./embedded.js"

const transcript = Transcript.make(5)
const { detail, heading } = transcript
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`

Transcript.run(Effect.gen(function*() {
  yield* heading("Starting the distributor sandbox, a fake Shop-Ware and the sample service")
  const { fake, repairOrders: [ro], sandbox, settings, shop } = yield* startEmbedded()
  const dir = yield* Transcript.scratchDirectory("shop-ware-demo-")
  const { runtime, url } = yield* startApp(loopbackSettings(settings, join(dir, "demo.sqlite")), fake.url)
  yield* detail(`sandbox ${sandbox.url} · fake Shop-Ware ${fake.url} · service ${url}`)
  if (ro === undefined) return yield* Effect.fail(new Error("no repair order in the fake"))

  yield* heading(`Launch: ${shop.name} orders parts for repair order ${ro.number}`)
  const launched = yield* runtime.launch({ shopId: shop.id, repairOrderId: ro.id })
  const catalog = new URL(Redacted.value(launched.url))
  yield* detail(`the catalog opens at ${WebClient.withoutToken(catalog)}`)

  yield* heading("Quote and order: oil filters in the cart, Export, then Export and Submit")
  const token = catalog.searchParams.get("token") ?? ""
  const found = yield* sandbox.admin.driver.search(token, {
    vin: catalog.searchParams.get("vin") ?? "",
    searchTerm: "oil filter"
  })
  const part = found.results.find((r) => r.price !== undefined && r.available > 0)
  if (part === undefined) return yield* Effect.fail(new Error("the catalog has no oil filter in stock"))
  yield* sandbox.admin.driver.addToCart(token, { productID: part.productID, brandID: part.brandID, quantity: 2 })
  yield* sandbox.admin.driver.press(token, "export")
  const submitted = yield* sandbox.admin.driver.press(token, "exportAndSubmit")
  // Both webhooks reach the service; Shop-Ware takes no part lines, so the worker keeps them in the
  // runtime's parts ledger, and records the order on the repair order.
  const lines = yield* runtime.parts.list({ shopId: shop.id, repairOrderId: ro.id }).pipe(
    Effect.filterOrFail(
      (lines) => lines.some((l) => l.kind === "order") && fake.notes(Number(ro.id)).length > 0,
      () => new Error(`the order was not kept and recorded for repair order ${ro.number}`)
    ),
    Effect.retry(Schedule.spaced("200 millis").pipe(Schedule.upTo("30 seconds")))
  )
  yield* detail(`kept with repair order ${ro.number} (the parts page):`)
  for (const l of lines) {
    yield* detail(
      `  ${l.kind}: ${l.quantity} × ${l.brandID} ${l.productID} ${l.description}  cost ${dollars(l.costCents)}  list ${
        dollars(l.listCents)
      }`
    )
  }
  yield* heading(`Order ${submitted.orderID} recorded on the Shop-Ware repair order`)
  for (const tag of fake.tags(Number(ro.id))) yield* detail(`integrator tag ${tag.name} = ${tag.value}`)
  for (const note of fake.notes(Number(ro.id))) yield* detail(`note: ${note.description}`)

  yield* heading(`Shop-Ware invoices repair order ${ro.number}; its webhook reaches the service`)
  fake.setState(Number(ro.id), "invoice")
  yield* Effect.promise(() => fake.settle())
  const closed = yield* runtime.repairOrderStates.get({ shopId: shop.id, repairOrderId: ro.id }).pipe(
    Effect.filterOrFail(
      (state) => state._tag === "Some" && state.value.state === "closed",
      () => new Error(`repair order ${ro.number} was not recorded closed`)
    ),
    Effect.retry(Schedule.spaced("200 millis").pipe(Schedule.upTo("30 seconds")))
  )
  yield* detail(`recorded: ${closed._tag === "Some" ? closed.value.state : ""} (read back from Shop-Ware)`)
  const refused = yield* Effect.flip(runtime.launch({ shopId: shop.id, repairOrderId: ro.id }))
  yield* detail(`Order parts now answers: ${refused.message}`)
  yield* transcript.line(`\nDone in ${transcript.elapsed()}.`)
}))
