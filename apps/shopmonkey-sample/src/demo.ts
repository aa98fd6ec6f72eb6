#!/usr/bin/env node
// `pnpm demo`: the whole flow, headless, against the embedded default, with a readable transcript:
// start everything → pick a repair order → Order parts (launch) → search the catalog for the
// vehicle → add parts → Export (quoted lines appear on the RO) → Export and Submit (ordered lines
// and the distributor order) → re-reserve an expired order after advancing the sandbox clock.
import { UndiciHttpClient } from "@shoplink/http-node"
import { Console, Duration, Effect, Layer, Logger, LogLevel, Schedule } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FAKE_SHOPMONKEY_FIXTURES } from "@shoplink/adapter-shopmonkey/testing"
import { Money } from "@shoplink/connector"
import { PunchoutClient } from "@shoplink/punchout"
import { SANDBOX_FIXTURES } from "@shoplink/sandbox"
import { startApp } from "./app.js"
import { startEmbedded } from "./embedded.js"

const STEPS = 7
let step = 0
const started = Date.now()
const heading = (text: string) => Console.log(`\n[${++step}/${STEPS}] ${text}`)
const detail = (text: string) => Console.log(`      ${text}`)
const fetchPage = (url: string, init?: RequestInit) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual", ...init })
    return { status: response.status, location: response.headers.get("location"), text: await response.text() }
  })
const rows = (html: string, testId: string) =>
  [...html.matchAll(new RegExp(`<tr data-testid="${testId}"[^>]*>([\\s\\S]*?)</tr>`, "g"))].map((m) =>
    [...m[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, "").trim())
  )
// The RO page until `done` holds (deliveries are applied in the background).
const waitForPage = (url: string, done: (html: string) => boolean) =>
  fetchPage(url).pipe(
    Effect.flatMap((page) => done(page.text) ? Effect.succeed(page.text) : Effect.fail("not yet" as const)),
    Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 100 })
  )

const program = Effect.gen(function*() {
  yield* Console.log("Shoplink demo: parts from the distributor's catalog onto a Shopmonkey repair order")
  yield* heading("Starting the distributor sandbox, a fake Shopmonkey and the sample integration service")
  const embedded = yield* startEmbedded
  const dir = mkdtempSync(join(tmpdir(), "shoplink-demo-"))
  yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
  const app = yield* startApp({
    ...embedded.settings,
    port: 0,
    host: "127.0.0.1",
    publicBaseUrl: undefined,
    smsVendorName: "Shopmonkey (Shoplink demo)",
    databaseFile: join(dir, "demo.sqlite"),
    shopId: "demo-shop"
  })
  yield* detail(`sandbox ${embedded.sandbox.url} · fake Shopmonkey ${embedded.shopmonkey.url} · service ${app.url}`)

  yield* heading("Picking a repair order in Shopmonkey")
  const ro = FAKE_SHOPMONKEY_FIXTURES.orders.vin
  const list = yield* fetchPage(`${app.url}/`)
  const listed = rows(list.text, "repair-order")
  yield* detail(`${listed.length} repair orders listed; using RO ${ro.number}: ${listed.find((r) => r[0] === `RO ${ro.number}`)?.[1]}`)

  yield* heading(`Order parts → the distributor's catalog for the vehicle`)
  const launched = yield* fetchPage(`${app.url}/ro/${ro.id}/order-parts`, { method: "POST" })
  if (launched.status !== 303 || launched.location === null) return yield* Effect.fail(`launch answered ${launched.status}: ${launched.text}`)
  const catalogUrl = new URL(launched.location)
  const token = catalogUrl.searchParams.get("token")!
  yield* detail(`redirected to ${catalogUrl.origin}${catalogUrl.pathname}?${[...catalogUrl.searchParams.keys()].map((k) => k === "token" ? "token=<redacted>" : `${k}=${catalogUrl.searchParams.get(k)}`).join("&")}`)
  const vin = catalogUrl.searchParams.get("vin")!
  const search = yield* embedded.sandbox.admin.driver.search(token, { vin, searchTerm: "oil filter" })
  yield* detail(`catalog search "oil filter" for ${search.vehicle}: ${search.results.length} results`)
  for (const r of search.results.slice(0, 3)) yield* detail(`  ${r.brandID} ${r.productID} ${r.description} — $${r.price?.toFixed(2) ?? "n/a"}, ${r.available} available`)
  const brakes = yield* embedded.sandbox.admin.driver.search(token, { vin, searchTerm: "brake pads" })

  yield* heading("Adding parts to the cart")
  const oilFilter = search.results.find((r) => r.productID === SANDBOX_FIXTURES.products.oilFilter.productID) ?? search.results[0]!
  const pads = brakes.results.find((r) => r.price !== undefined && r.available > 0)!
  yield* embedded.sandbox.admin.driver.addToCart(token, { productID: oilFilter.productID, brandID: oilFilter.brandID, quantity: 2 })
  const cart = yield* embedded.sandbox.admin.driver.addToCart(token, { productID: pads.productID, brandID: pads.brandID, quantity: 1 })
  yield* detail(`cart (order ${cart.orderID}): 2 × ${oilFilter.brandID} ${oilFilter.productID}, 1 × ${pads.brandID} ${pads.productID}`)

  const roUrl = `${app.url}/ro/${ro.id}`
  yield* heading("Export → quoted parts appear on the repair order")
  const exported = yield* embedded.sandbox.admin.driver.press(token, "export")
  yield* detail(`quote webhook sent; browser goes to the callback page`)
  const quotedPage = yield* waitForPage(roUrl, (html) => rows(html, "quoted-line").length === 2)
  for (const line of rows(quotedPage, "quoted-line")) yield* detail(`  quoted: ${line.slice(0, 4).join("  ")}  cost ${line[4]}  list ${line[5]}  core ${line[6]}`)
  if (exported.redirect !== undefined) {
    const callback = yield* fetchPage(exported.redirect)
    yield* detail(`callback page: "${/data-testid="callback-summary"[^>]*>([^<]*)</.exec(callback.text)?.[1]}"`)
  }

  yield* heading("Export and Submit → ordered parts and the distributor order appear")
  const submitted = yield* embedded.sandbox.admin.driver.press(token, "exportAndSubmit")
  const orderedPage = yield* waitForPage(roUrl, (html) => rows(html, "ordered-line").length === 2)
  const status = /data-testid="order-status">([^<]*)</.exec(orderedPage)?.[1]
  yield* detail(`distributor order ${submitted.orderID}: ${status}`)
  for (const line of rows(orderedPage, "ordered-line")) yield* detail(`  ordered: ${line.slice(0, 4).join("  ")}  cost ${line[4]}`)

  yield* heading("Re-reserving an expired order")
  const punchout = PunchoutClient.layer({ baseUrl: embedded.sandbox.url, vendorApiKey: embedded.settings.vendorApiKey }).pipe(
    Layer.provide(UndiciHttpClient.layer)
  )
  yield* Effect.gen(function*() {
    const client = yield* PunchoutClient.PunchoutClient
    const newSession = client.createSession(embedded.settings.customer, {
      smsVendorName: "Shopmonkey (Shoplink demo)",
      referenceID: ro.number,
      webhooks: { order: `${app.url}/unused/order`, quote: `${app.url}/unused/quote` }
    })
    const created = yield* client.createOrder(yield* newSession, { productID: oilFilter.productID, brandID: oilFilter.brandID, quantity: 1 })
    yield* detail(`order ${created.order.orderID} created via the API: "${created.order.statusDescription}"`)
    yield* embedded.sandbox.admin.advanceClock(Duration.days(3))
    yield* detail("sandbox clock advanced 3 days: the order is past its order-by time and has expired (and so has the 12-hour session)")
    const session = yield* newSession
    const reserved = yield* client.reserveOrder(session, { orderID: created.order.orderID, comment: `PO RO${ro.number}` })
    yield* detail(`ReserveOrder ${reserved.status.message.ID}: "${reserved.order.statusDescription}", P.O. "${reserved.order.comment}"`)
  }).pipe(Effect.provide(punchout))

  const total = rows(orderedPage, "ordered-line").reduce((sum, l) => sum + Number(l[3]) * Money.toCents(Number(l[4]!.replace("$", ""))), 0)
  yield* Console.log(`\nDone in ${((Date.now() - started) / 1000).toFixed(1)} s: RO ${ro.number} has 2 quoted and 2 ordered parts ($${Money.formatCents(total)} at cost).`)
})

// Service logs stay out of the transcript unless something goes wrong.
Effect.runPromise(Effect.scoped(program).pipe(Logger.withMinimumLogLevel(LogLevel.Warning))).then(
  () => process.exit(0),
  (error) => {
    console.error(`\nDemo failed: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
)
