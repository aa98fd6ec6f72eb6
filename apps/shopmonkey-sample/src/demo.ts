#!/usr/bin/env node
// `pnpm demo`: the whole flow for two shops, headless, against the embedded default, with a
// readable transcript: start everything → each shop's user signs in and sees only their repair
// orders → shop A orders parts (Export, then Export and Submit) onto its RO → shop B orders parts
// onto its RO → each RO holds only its own shop's parts → re-reserve an expired order after
// advancing the sandbox clock. Everything goes over HTTP the way a browser does (cookies, the
// Origin header and the CSRF token of the page's form), except the clicks inside the catalog,
// which the sandbox's test driver makes.
import { UndiciHttpClient } from "@shoplink/http-node"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { join } from "node:path"
import { FAKE_SHOPMONKEY_FIXTURES, FAKE_SHOPMONKEY_SECOND_COMPANY } from "@shoplink/adapter-shopmonkey/testing"
import { Money } from "@shoplink/connector"
import { PunchoutClient } from "@shoplink/punchout"
import { SANDBOX_FIXTURES } from "@shoplink/sandbox"
import * as Transcript from "@shoplink/connector-testkit/Transcript"
import * as WebClient from "@shoplink/connector-testkit/WebClient"
import { startApp } from "./app.js"
import { loopbackSettings, startEmbedded } from "./embedded.js"

const transcript = Transcript.make(8)
const { detail, heading } = transcript
const call = <A>(f: () => Promise<A>) => Effect.promise(f)

const program = Effect.gen(function*() {
  yield* transcript.line(
    "Shoplink demo: two Shopmonkey shops, each ordering parts from the distributor's catalog onto its own repair orders"
  )
  yield* heading("Starting the distributor sandbox, a fake Shopmonkey (two companies) and the sample service")
  const embedded = yield* startEmbedded()
  const dir = yield* Transcript.scratchDirectory("shoplink-demo-")
  const app = yield* startApp(
    loopbackSettings(embedded, {
      smsVendorName: "Shopmonkey (Shoplink demo)",
      database: { sqlite: join(dir, "demo.sqlite") }
    })
  ).pipe(Effect.orDie)
  const { sandbox, shopmonkey } = embedded
  yield* detail(`sandbox ${sandbox.url} · fake Shopmonkey ${shopmonkey.url} · service ${app.url}`)
  for (const [i, shop] of embedded.shops.entries()) {
    yield* detail(
      `shop ${shop.id.padEnd(13)}${shop.name}: Shopmonkey company ${
        i + 1
      }, distributor account ${shop.distributor.accountNo} (${shop.distributor.country})`
    )
  }

  yield* heading("Signing in: each user sees only their own shop's repair orders")
  const [userA, userB] = embedded.users
  const [ava, ben] = yield* Transcript.signInEach(transcript, app.url, [userA, userB])
  const roA = FAKE_SHOPMONKEY_FIXTURES.orders.vin
  const roB = FAKE_SHOPMONKEY_SECOND_COMPANY.orders.vin
  const crossPage = yield* call(() => ava.get(`/ro/${roB.id}`))
  yield* call(() => ava.get("/"))
  const crossLaunch = yield* call(() => ava.post(`/ro/${roB.id}/order-parts`))
  yield* detail(
    `${userA.email} opening ${userB.shopName}'s RO ${roB.number}: ${crossPage.status}; Order parts on it: ${crossLaunch.status}`
  )
  const anonymous = WebClient.make(app.url)
  const anonymousList = yield* call(() => anonymous.get("/"))
  const anonymousLaunch = yield* call(() => anonymous.post(`/ro/${roA.id}/order-parts`, {}, { csrf: "guess" }))
  yield* detail(
    `without signing in: GET / → ${anonymousList.status} ${anonymousList.location}; Order parts → ${anonymousLaunch.status}`
  )

  // Order parts on an RO from the list page, as the signed-in user: the catalog URL.
  const orderParts = (client: WebClient.WebClient, roId: string | number) =>
    Effect.gen(function*() {
      const catalogUrl = yield* call(() => client.orderParts(roId))
      yield* detail(`redirected to ${WebClient.withoutToken(catalogUrl)}`)
      return { token: catalogUrl.searchParams.get("token")!, vin: catalogUrl.searchParams.get("vin")! }
    })

  yield* heading(
    `${userA.shopName}: Order parts on RO ${roA.number} → the distributor's catalog (account ${
      embedded.shops[0].distributor.accountNo
    })`
  )
  const catalogA = yield* orderParts(ava, roA.id)
  const search = yield* sandbox.admin.driver.search(catalogA.token, { vin: catalogA.vin, searchTerm: "oil filter" })
  yield* detail(`catalog search "oil filter" for ${search.vehicle}: ${search.results.length} results`)
  for (const r of search.results.slice(0, 3)) {
    yield* detail(
      `  ${r.brandID} ${r.productID} ${r.description} — $${r.price?.toFixed(2) ?? "n/a"}, ${r.available} available`
    )
  }
  const brakes = yield* sandbox.admin.driver.search(catalogA.token, { vin: catalogA.vin, searchTerm: "brake pads" })

  yield* heading(`${userA.shopName}: add parts to the cart, Export → quoted parts on RO ${roA.number}`)
  const oilFilter = search.results.find((r) => r.productID === SANDBOX_FIXTURES.products.oilFilter.productID) ??
    search.results[0]!
  const pads = brakes.results.find((r) => r.price !== undefined && r.available > 0)!
  yield* sandbox.admin.driver.addToCart(catalogA.token, {
    productID: oilFilter.productID,
    brandID: oilFilter.brandID,
    quantity: 2
  })
  const cart = yield* sandbox.admin.driver.addToCart(catalogA.token, {
    productID: pads.productID,
    brandID: pads.brandID,
    quantity: 1
  })
  yield* detail(
    `cart (order ${cart.orderID}): 2 × ${oilFilter.brandID} ${oilFilter.productID}, 1 × ${pads.brandID} ${pads.productID}`
  )
  const exported = yield* sandbox.admin.driver.press(catalogA.token, "export")
  const roPathA = `/ro/${roA.id}`
  const quotedPage = yield* call(() =>
    ava.waitFor(roPathA, (html) => WebClient.tableRows(html, "quoted-line").length === 2)
  )
  for (const line of WebClient.tableRows(quotedPage, "quoted-line")) {
    yield* detail(`  quoted: ${line.slice(0, 4).join("  ")}  cost ${line[4]}  list ${line[5]}  core ${line[6]}`)
  }
  if (exported.redirect !== undefined) {
    // The callback page is public (keyed by the launch): the browser lands there from the catalog.
    const callback = yield* call(() => fetch(exported.redirect!).then((r) => r.text()))
    yield* detail(`callback page: "${/data-testid="callback-summary"[^>]*>([^<]*)</.exec(callback)?.[1]}"`)
  }

  yield* heading(`${userA.shopName}: Export and Submit → ordered parts and the distributor order on RO ${roA.number}`)
  const submitted = yield* sandbox.admin.driver.press(catalogA.token, "exportAndSubmit")
  const orderedPage = yield* call(() =>
    ava.waitFor(roPathA, (html) => WebClient.tableRows(html, "ordered-line").length === 2)
  )
  yield* detail(
    `distributor order ${submitted.orderID}: ${/data-testid="order-status">([^<]*)</.exec(orderedPage)?.[1]}`
  )
  for (const line of WebClient.tableRows(orderedPage, "ordered-line")) {
    yield* detail(`  ordered: ${line.slice(0, 4).join("  ")}  cost ${line[4]}`)
  }

  yield* heading(
    `${userB.shopName}: Order parts on RO ${roB.number} (account ${
      embedded.shops[1].distributor.accountNo
    }) → Export and Submit`
  )
  const catalogB = yield* orderParts(ben, roB.id)
  const searchB = yield* sandbox.admin.driver.search(catalogB.token, { vin: catalogB.vin, searchTerm: "brake pads" })
  const partB = searchB.results.find((r) => r.price !== undefined && r.available > 0) ?? searchB.results[0]!
  yield* detail(
    `catalog search "brake pads" for ${searchB.vehicle}: ${searchB.results.length} results; 1 × ${partB.brandID} ${partB.productID} ${partB.description}`
  )
  yield* sandbox.admin.driver.addToCart(catalogB.token, {
    productID: partB.productID,
    brandID: partB.brandID,
    quantity: 1
  })
  const submittedB = yield* sandbox.admin.driver.press(catalogB.token, "exportAndSubmit")
  const orderedPageB = yield* call(() =>
    ben.waitFor(`/ro/${roB.id}`, (html) => WebClient.tableRows(html, "ordered-line").length === 1)
  )
  yield* detail(
    `distributor order ${submittedB.orderID}: ${/data-testid="order-status">([^<]*)</.exec(orderedPageB)?.[1]}`
  )
  for (const line of WebClient.tableRows(orderedPageB, "ordered-line")) {
    yield* detail(`  ordered: ${line.slice(0, 4).join("  ")}  cost ${line[4]}`)
  }

  yield* heading("Each repair order holds only its own shop's parts")
  const isolated: Array<boolean> = []
  for (const [i, company] of shopmonkey.companies.entries()) {
    const parts = company.store.parts()
    const onOrders = [...new Set(parts.map((p) => String(p["orderId"])))]
    const own = new Set(company.store.orders().map((o) => String(o["id"])))
    isolated.push(onOrders.every((id) => own.has(id)))
    yield* detail(
      `Shopmonkey company ${i + 1} (${embedded.shops[i]!.name}): ${parts.length} part${
        parts.length === 1 ? "" : "s"
      }, on ${onOrders.map((id) => `RO ${id.replace(/^ord_/, "")}`).join(", ") || "no order"}`
    )
  }
  const benSeesA = yield* call(() => ben.get(roPathA))
  yield* detail(`${userB.email} opening RO ${roA.number}: ${benSeesA.status}`)
  if (isolated.includes(false) || benSeesA.status !== 404 || crossPage.status !== 404 || crossLaunch.status !== 404) {
    return yield* Effect.fail("a shop saw or received another shop's data")
  }

  yield* heading("Re-reserving an expired order")
  const punchout = PunchoutClient.layer({ baseUrl: sandbox.url, vendorApiKey: embedded.settings.vendorApiKey }).pipe(
    Layer.provide(UndiciHttpClient.layer)
  )
  yield* Effect.gen(function*() {
    const client = yield* PunchoutClient.PunchoutClient
    const newSession = client.createSession(embedded.shops[0].distributor, {
      smsVendorName: "Shopmonkey (Shoplink demo)",
      referenceID: roA.number,
      webhooks: { order: `${app.url}/unused/order`, quote: `${app.url}/unused/quote` }
    })
    const created = yield* client.createOrder(yield* newSession, {
      productID: oilFilter.productID,
      brandID: oilFilter.brandID,
      quantity: 1
    })
    yield* detail(`order ${created.order.orderID} created via the API: "${created.order.statusDescription}"`)
    yield* sandbox.admin.advanceClock(Duration.days(3))
    yield* detail(
      "sandbox clock advanced 3 days: the order is past its order-by time and has expired (and so has the 12-hour session)"
    )
    const session = yield* newSession
    const reserved = yield* client.reserveOrder(session, {
      orderID: created.order.orderID,
      comment: `PO RO${roA.number}`
    })
    yield* detail(
      `ReserveOrder ${reserved.status.message.ID}: "${reserved.order.statusDescription}", P.O. "${reserved.order.comment}"`
    )
  }).pipe(Effect.provide(punchout))

  const cents = (lines: ReadonlyArray<ReadonlyArray<string>>) =>
    lines.reduce((sum, l) => sum + Number(l[3]) * Money.toCents(Number(l[4]!.replace("$", ""))), 0)
  const orderedB = WebClient.tableRows(orderedPageB, "ordered-line").length
  yield* transcript.line(
    `\nDone in ${transcript.elapsed()}: RO ${roA.number} (${userA.shopName}) has 2 quoted and 2 ordered parts ` +
      `($${
        Money.formatCents(cents(WebClient.tableRows(orderedPage, "ordered-line")))
      } at cost); RO ${roB.number} (${userB.shopName}) has ${orderedB} ordered part${orderedB === 1 ? "" : "s"} ` +
      `($${
        Money.formatCents(cents(WebClient.tableRows(orderedPageB, "ordered-line")))
      } at cost); no part crossed shops.`
  )
})

// Service logs stay out of the transcript unless something goes wrong.
Transcript.run(program)
