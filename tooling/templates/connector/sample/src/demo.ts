#!/usr/bin/env node
// `pnpm --filter __name__-sample demo`: the embedded default end to end, as a short transcript: a
// launch for a repair order, a quote from the distributor's catalog (the sandbox's test driver
// clicks where a person would), and the quoted lines where they end up: on the fake __title__'s
// repair order when the adapter declares writeQuotedParts, otherwise in the runtime's parts
// ledger (what the repair order's page and the parts page show). Exits 0, or 1 with "Demo failed: …".
import type { FakeLine } from "@shoplink/adapter-__name__/testing"
import * as Transcript from "@shoplink/connector-testkit/Transcript"
import * as WebClient from "@shoplink/connector-testkit/WebClient"
import { Effect, Redacted, Schedule } from "effect"
import { join } from "node:path"
import { startApp } from "./app.js"
import { loopbackSettings, startEmbedded } from "./embedded.js"

const transcript = Transcript.make(3)
const { detail, heading } = transcript
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`

Transcript.run(Effect.gen(function*() {
  yield* heading("Starting the distributor sandbox, a fake __title__ and the sample service")
  const { fake, repairOrders: [ro], sandbox, settings, shop } = yield* startEmbedded()
  const dir = yield* Transcript.scratchDirectory("__name__-demo-")
  const { runtime, url } = yield* startApp(loopbackSettings(settings, join(dir, "demo.sqlite")), fake.url)
  yield* detail(`sandbox ${sandbox.url} · fake __title__ ${fake.url} · service ${url}`)
  // Most SMS APIs take no part lines: then the runtime keeps them (its parts ledger).
  const writesLines = runtime.shopSystem.capabilities.has("writeQuotedParts")
  yield* detail(
    `the adapter declares: ${[...runtime.shopSystem.capabilities].join(", ")}${
      writesLines ? "" : " (no part-line writes: the runtime's parts ledger keeps them)"
    }`
  )
  if (ro === undefined) return yield* Effect.fail(new Error("no repair order in the fake"))

  yield* heading(`Launch: ${shop.name} orders parts for repair order ${ro.number}`)
  const launched = yield* runtime.launch({ shopId: shop.id, repairOrderId: ro.id })
  const catalog = new URL(Redacted.value(launched.url))
  yield* detail(`the catalog opens at ${WebClient.withoutToken(catalog)}`)

  yield* heading("Quote: oil filters in the cart, Export")
  const token = catalog.searchParams.get("token") ?? ""
  const found = yield* sandbox.admin.driver.search(token, {
    vin: catalog.searchParams.get("vin") ?? "",
    searchTerm: "oil filter"
  })
  const part = found.results.find((r) => r.price !== undefined && r.available > 0)
  if (part === undefined) return yield* Effect.fail(new Error("the catalog has no oil filter in stock"))
  yield* sandbox.admin.driver.addToCart(token, { productID: part.productID, brandID: part.brandID, quantity: 2 })
  yield* sandbox.admin.driver.press(token, "export")
  // The quote webhook reaches the service; its worker writes the lines through the adapter (applyQuote)
  // or, for an adapter without writeQuotedParts, keeps them in the runtime's parts ledger.
  const kept: Effect.Effect<ReadonlyArray<FakeLine>, unknown> = writesLines
    ? Effect.sync(() => fake.lines(ro.id))
    : Effect.map(
      runtime.parts.list({ shopId: shop.id, repairOrderId: ro.id }),
      (lines) =>
        lines.map((l): FakeLine => ({ ...l, key: l.idempotencyKey, kind: l.kind === "quote" ? "quoted" : "ordered" }))
    )
  const lines = yield* kept.pipe(
    Effect.filterOrFail(
      (lines) => lines.length > 0,
      () =>
        new Error(
          writesLines
            ? `no lines on repair order ${ro.number} in the fake __title__ (is applyQuote written?)`
            : `no parts kept for repair order ${ro.number}`
        )
    ),
    Effect.retry(Schedule.spaced("200 millis").pipe(Schedule.upTo("30 seconds")))
  )
  yield* detail(
    writesLines
      ? `on repair order ${ro.number} in __title__:`
      : `kept with repair order ${ro.number} by the runtime (the repair order's page and the parts page):`
  )
  for (const l of lines) {
    yield* detail(
      `  ${l.kind}: ${l.quantity} × ${l.brandID} ${l.productID} ${l.description}  cost ${dollars(l.costCents)}  list ${
        dollars(l.listCents)
      }`
    )
  }
  yield* transcript.line(`\nDone in ${transcript.elapsed()}.`)
}))
