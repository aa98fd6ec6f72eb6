#!/usr/bin/env node
// `pnpm --filter tekmetric-sample demo`: the whole flow for two shops on Tekmetric, headless,
// against the embedded default (distributor sandbox + fake Tekmetric), with a readable transcript:
// sign in → the repair order list → Order parts → the catalog → Export → Export and Submit → the
// parts on the integration's parts page (Tekmetric takes no part lines) and the distributor order
// recorded in Tekmetric → the second shop → bad input refused in one line before any distributor
// call. Everything goes over HTTP the way a browser does (cookies, Origin, CSRF), except the clicks
// inside the catalog, which the sandbox's test driver makes.
import { FAKE_TEKMETRIC_FIXTURES } from "@shoplink/adapter-tekmetric/testing"
import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { join } from "node:path"
import * as Transcript from "@shoplink/connector-testkit/Transcript"
import * as WebClient from "@shoplink/connector-testkit/WebClient"
import { startApp } from "./app.js"
import { loopbackSettings, startEmbedded } from "./embedded.js"

const transcript = Transcript.make(8)
const { detail, heading } = transcript
const call = <A>(f: () => Promise<A>) => Effect.promise(f)

const program = Effect.gen(function*() {
  yield* transcript.line(
    "Shoplink demo: two Tekmetric shops ordering parts from the distributor's catalog; Tekmetric takes no part lines, so the integration keeps them"
  )
  yield* heading("Starting the distributor sandbox, a fake Tekmetric and the sample service")
  const embedded = yield* startEmbedded()
  const dir = yield* Transcript.scratchDirectory("shoplink-tekmetric-demo-")
  const app = yield* startApp(
    loopbackSettings(embedded, {
      smsVendorName: "Tekmetric (Shoplink demo)",
      database: { sqlite: join(dir, "demo.sqlite") }
    })
  ).pipe(Effect.orDie)
  const { sandbox, tekmetric } = embedded
  yield* detail(`sandbox ${sandbox.url} · fake Tekmetric ${tekmetric.url} · service ${app.url}`)
  const capabilities = [...app.runtime.shopSystem.capabilities].join(", ")
  yield* detail(
    `Tekmetric adapter declares: ${capabilities} (no part-line writes: the runtime's parts ledger keeps them)`
  )

  yield* heading("Signing in: each user sees only their own shop's repair orders")
  const [userA, userB] = embedded.users
  const [ava, ben] = yield* Transcript.signInEach(transcript, app.url, [userA, userB])
  const roA = FAKE_TEKMETRIC_FIXTURES.repairOrders.vin
  const roB = FAKE_TEKMETRIC_FIXTURES.repairOrders.maple
  const cross = yield* call(() => ava.get(`/ro/${roB.id}`))
  yield* detail(`${userA.email} opening ${userB.shopName}'s RO ${roB.number}: ${cross.status}`)

  const orderParts = (client: WebClient.WebClient, roId: string | number) =>
    Effect.gen(function*() {
      const catalogUrl = yield* call(() => client.orderParts(roId))
      yield* detail(`redirected to ${WebClient.withoutToken(catalogUrl)}`)
      return {
        token: catalogUrl.searchParams.get("token")!,
        vin: catalogUrl.searchParams.get("vin") ?? undefined,
        plate: catalogUrl.searchParams.get("licensePlate") ?? undefined,
        state: catalogUrl.searchParams.get("licensePlateState") ?? undefined
      }
    })

  yield* heading(`${userA.shopName}: Order parts on RO ${roA.number} → the distributor's catalog`)
  const catalogA = yield* orderParts(ava, roA.id)
  const search = yield* sandbox.admin.driver.search(catalogA.token, {
    ...(catalogA.vin ? { vin: catalogA.vin } : {}),
    searchTerm: "oil filter"
  })
  yield* detail(`catalog search "oil filter" for ${search.vehicle}: ${search.results.length} results`)
  const oilFilter = search.results.find((r) => r.price !== undefined && r.available > 0)!
  const starter = (yield* sandbox.admin.driver.search(catalogA.token, {
    ...(catalogA.vin ? { vin: catalogA.vin } : {}),
    searchTerm: "starter motor"
  })).results
    .find((r) => r.price !== undefined && r.available > 0)!
  yield* sandbox.admin.driver.addToCart(catalogA.token, {
    productID: oilFilter.productID,
    brandID: oilFilter.brandID,
    quantity: 2
  })
  yield* sandbox.admin.driver.addToCart(catalogA.token, {
    productID: starter.productID,
    brandID: starter.brandID,
    quantity: 1
  })
  yield* detail(
    `cart: 2 × ${oilFilter.brandID} ${oilFilter.productID} ${oilFilter.description}, 1 × ${starter.brandID} ${starter.productID} ${starter.description}`
  )

  yield* heading(`${userA.shopName}: Export → the quote kept with RO ${roA.number}`)
  const exported = yield* sandbox.admin.driver.press(catalogA.token, "export")
  const quoted = yield* call(() =>
    ava.waitFor(`/ro/${roA.id}`, (html) => WebClient.tableRows(html, "quoted-line").length === 2)
  )
  for (const line of WebClient.tableRows(quoted, "quoted-line")) {
    yield* detail(
      `  quoted: ${line[1]} ${line[0]} ${line[2]} × ${line[3]}  cost ${line[4]}  list ${line[5]}  core ${line[6]}`
    )
  }
  const callback = yield* call(() => fetch(exported.redirect!).then((r) => r.text()))
  yield* detail(
    `callback page: "${/data-testid="callback-summary"[^>]*>([^<]*)</.exec(callback)?.[1]}" (${
      (callback.match(/data-testid="parts-row"/g) ?? []).length
    } parts listed)`
  )

  yield* heading(
    `${userA.shopName}: Export and Submit → the order kept with RO ${roA.number} and recorded in Tekmetric`
  )
  const submitted = yield* sandbox.admin.driver.press(catalogA.token, "exportAndSubmit")
  const ordered = yield* call(() =>
    ava.waitFor(
      `/ro/${roA.id}`,
      (html) => WebClient.tableRows(html, "ordered-line").length === 2 && !html.includes("data-testid=\"pending\"")
    )
  )
  const status = /data-testid="order-status">([^<]*)</.exec(ordered)?.[1]
  for (const line of WebClient.tableRows(ordered, "ordered-line")) {
    yield* detail(
      `  ordered (order ${submitted.orderID}, ${status}): ${line[1]} ${line[0]} × ${line[3]}  cost ${line[4]}`
    )
  }
  yield* detail(`Tekmetric job "${tekmetric.jobs(roA.id)[0]!.name}" note: "${tekmetric.jobs(roA.id)[0]!.note}"`)

  yield* heading(`The parts page of RO ${roA.number} (signed link from the RO page) and its CSV`)
  const partsHref = /data-testid="parts-page-link" href="([^"]+)"/.exec(ordered)![1]!.replace(/&amp;/g, "&")
  const partsPage = yield* call(() => fetch(partsHref).then(async (r) => ({ status: r.status, text: await r.text() })))
  yield* detail(
    `GET ${new URL(partsHref).pathname}?shop=…&ro=…&exp=…&sig=<redacted> → ${partsPage.status}: "${
      /data-testid="parts-summary">([^<]*)</.exec(partsPage.text)?.[1]
    }"`
  )
  const csvHref = /data-testid="parts-csv" href="([^"]+)"/.exec(partsPage.text)![1]!.replace(/&amp;/g, "&")
  const csv = yield* call(() => fetch(new URL(csvHref, app.url)).then((r) => r.text()))
  for (const line of csv.trim().split("\r\n").slice(0, 3)) yield* detail(`  csv: ${line}`)
  const unsigned = yield* call(() =>
    fetch(`${app.url}/shoplink/parts?shop=main-street&ro=${roA.id}`).then((r) => r.status)
  )
  yield* detail(`the same page without a signature or a vendor API key: ${unsigned}`)

  yield* heading(`${userB.shopName}: Order parts on RO ${roB.number} → Export and Submit`)
  const catalogB = yield* orderParts(ben, roB.id)
  const searchB = yield* sandbox.admin.driver.search(catalogB.token, {
    ...(catalogB.plate ? { licensePlate: catalogB.plate, licensePlateState: catalogB.state! } : {}),
    searchTerm: "brake pads"
  })
  const partB = searchB.results.find((r) => r.price !== undefined && r.available > 0)!
  yield* sandbox.admin.driver.addToCart(catalogB.token, {
    productID: partB.productID,
    brandID: partB.brandID,
    quantity: 1
  })
  const submittedB = yield* sandbox.admin.driver.press(catalogB.token, "exportAndSubmit")
  yield* call(() =>
    ben.waitFor(
      `/ro/${roB.id}`,
      (html) => html.includes(`data-order-id="${submittedB.orderID}"`) && !html.includes("data-testid=\"pending\"")
    )
  )
  yield* detail(
    `order ${submittedB.orderID}: 1 × ${partB.brandID} ${partB.productID} kept with RO ${roB.number}; Tekmetric note: "${
      tekmetric.jobs(roB.id)[0]!.note
    }"`
  )
  const keptA = yield* app.runtime.parts.list({ shopId: "main-street", repairOrderId: String(roA.id) })
  const keptB = yield* app.runtime.parts.list({ shopId: "maple-garage", repairOrderId: String(roB.id) })

  yield* heading("Bad input is refused in one typed line, before any distributor call")
  const { demo } = FAKE_TEKMETRIC_FIXTURES.clients
  const distributor = embedded.shops[0].distributor
  yield* app.runtime.shops.add({
    id: "wrong-keys",
    name: "Wrong keys",
    distributor,
    sms: { clientId: Redacted.make(demo.clientId), clientSecret: Redacted.make("not-the-secret") }
  })
  yield* app.runtime.shops.add({
    id: "other-shop",
    name: "Other shop",
    distributor,
    sms: {
      clientId: Redacted.make(demo.clientId),
      clientSecret: Redacted.make(demo.clientSecret),
      [TekmetricConnector.SHOP_ID_SECRET]: Redacted.make("3")
    }
  })
  for (
    const [shopId, ro, what] of [
      ["wrong-keys", roA.id, "wrong client credentials"],
      ["other-shop", roA.id, "a Tekmetric shop outside the token's scope"],
      ["main-street", FAKE_TEKMETRIC_FIXTURES.repairOrders.noVehicle.id, "a repair order with no VIN or plate"]
    ] as const
  ) {
    const error = yield* Effect.flip(app.runtime.launch({ shopId, repairOrderId: String(ro) }))
    yield* detail(`${what}: ${error._tag}: ${error.message}`)
  }

  yield* transcript.line(
    `\nDone in ${transcript.elapsed()}: RO ${roA.number} (${userA.shopName}) has ${keptA.length} parts kept by the integration and ` +
      `order ${submitted.orderID} recorded in Tekmetric; RO ${roB.number} (${userB.shopName}) has ${keptB.length}; no part crossed shops.`
  )
})

Transcript.run(program)
