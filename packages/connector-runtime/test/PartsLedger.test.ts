// The parts ledger: the fallback store for shop systems that cannot take part lines. The store on
// memory, SQLite and PostgreSQL; then the runtime end to end against the sandbox with an adapter
// that declares neither writeQuotedParts nor writeOrderedParts: the worker keeps the lines, the
// callback page lists them, the parts page (vendor key or signed link) shows them with a CSV.
import type { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { ShopSystem } from "@shoplink/connector"
import { PartsLedger, Storage } from "@shoplink/connector-runtime"
import { SANDBOX_FIXTURES } from "@shoplink/sandbox"
import { Effect, Layer, Redacted } from "effect"
import { postgres, scratchDatabase } from "./fixtures.js"
import { makeMemorySms } from "./support/memorySms.js"
import { servedRuntime, type TestStorage } from "./support/servedRuntime.js"

const line = (key: string, overrides: Partial<ShopSystem.PartLine> = {}): ShopSystem.PartLine => ({
  idempotencyKey: key,
  productID: "51515",
  brandID: "WIX",
  description: "Oil Filter",
  quantity: 2,
  costCents: 649,
  listCents: 999,
  coreCents: 0,
  partTerminologyId: 5340,
  categoryID: "FLT",
  ...overrides
})

const ro = { shopId: "shop_1", repairOrderId: "ro_1" }

const storeChecks = Effect.gen(function*() {
  const ledger = yield* PartsLedger.PartsLedger
  const quote = { ...ro, lines: [line("quote:d1:0"), line("quote:d1:1", { productID: "PH3614", brandID: "FRAM" })] }
  expect(yield* ledger.recordQuote(quote)).toEqual({ added: 2, alreadyPresent: 0 })
  // The same delivery again (a replay): nothing added.
  expect(yield* ledger.recordQuote(quote)).toEqual({ added: 0, alreadyPresent: 2 })
  const order = {
    ...ro,
    orderID: "10423",
    status: "3",
    statusDescription: "Order submitted",
    lines: [line("order:10423:0", { quantity: 1 })]
  }
  expect(yield* ledger.recordOrder(order)).toEqual({ added: 1, alreadyPresent: 0 })
  // A later status of the same order updates its lines, adds none.
  expect(yield* ledger.recordOrder({ ...order, status: "5", statusDescription: "Shipped" })).toEqual({
    added: 0,
    alreadyPresent: 1
  })
  // Another shop's and another repair order's lines are their own.
  yield* ledger.recordQuote({ shopId: "shop_2", repairOrderId: "ro_1", lines: [line("quote:d1:0")] })
  yield* ledger.recordQuote({ shopId: "shop_1", repairOrderId: "ro_2", lines: [line("quote:d9:0")] })
  const lines = yield* ledger.list(ro)
  expect(lines.map((l) => [l.kind, l.idempotencyKey, l.orderID, l.status, l.statusDescription])).toEqual([
    ["quote", "quote:d1:0", undefined, undefined, undefined],
    ["quote", "quote:d1:1", undefined, undefined, undefined],
    ["order", "order:10423:0", "10423", "5", "Shipped"]
  ])
  expect(lines[0]).toMatchObject({
    productID: "51515",
    brandID: "WIX",
    quantity: 2,
    costCents: 649,
    listCents: 999,
    coreCents: 0,
    partTerminologyId: 5340
  })
  expect(yield* ledger.list({ shopId: "shop_3", repairOrderId: "ro_1" })).toEqual([])
})

const withSql = (database: () => Layer.Layer<SqlClient.SqlClient>) =>
  Effect.gen(function*() {
    yield* storeChecks.pipe(Effect.provide(PartsLedger.layerSql))
    // A second process (or a restart) on the same database sees the same lines.
    const again = yield* Effect.flatMap(PartsLedger.PartsLedger, (l) => l.list(ro)).pipe(
      Effect.provide(PartsLedger.layerSql)
    )
    expect(again).toHaveLength(3)
  }).pipe(Effect.provide(database()), Effect.orDie)

describe("PartsLedger", () => {
  it.effect("memory: idempotent by line key, status updates per order, per shop and repair order", () =>
    storeChecks.pipe(Effect.provide(PartsLedger.layerMemory)))

  it.effect("sqlite: the same, in shoplink_parts", () => {
    const file = scratchDatabase()
    return withSql(() => Storage.sqlite(file))
  })

  it.effect("postgres: the same, in shoplink_parts", () => withSql(() => postgres()).pipe(Effect.scoped))

  it("CSV: header, dollars, quoting, and no formula a spreadsheet would run", () => {
    const csv = PartsLedger.toCsv([{
      ...line("quote:d1:0", { description: "=HYPERLINK(\"x\"), \"best\"", quantity: 3 }),
      ...ro,
      kind: "quote",
      position: 0,
      orderID: undefined,
      status: undefined,
      statusDescription: undefined,
      recordedAt: Date.UTC(2026, 0, 2),
      updatedAt: Date.UTC(2026, 0, 2)
    }])
    const [header, row, end] = csv.split("\r\n")
    expect(header).toBe(
      "kind,order_id,status,brand,part_number,description,quantity,unit_cost,unit_list,unit_core,extended_cost,part_terminology_id,category,recorded_at"
    )
    expect(row).toBe(
      "quote,,,WIX,51515,\"'=HYPERLINK(\"\"x\"\"), \"\"best\"\"\",3,6.49,9.99,0.00,19.47,5340,FLT,2026-01-02T00:00:00.000Z"
    )
    expect(end).toBe("")
  })

  it("CSV: a formula behind leading whitespace is guarded too; plain text is not", () => {
    const descriptionCell = (description: string) => {
      const csv = PartsLedger.toCsv([{
        ...line("quote:d1:0", { description }),
        ...ro,
        kind: "quote",
        position: 0,
        orderID: undefined,
        status: undefined,
        statusDescription: undefined,
        recordedAt: Date.UTC(2026, 0, 2),
        updatedAt: Date.UTC(2026, 0, 2)
      }])
      return csv.split("\r\n")[1]!.split(",")[5]
    }
    for (const lead of [" ", "  ", "\t", " \t", "\u00a0", "\r"]) {
      for (const trigger of ["=", "+", "-", "@", "\t", "\r"]) {
        const text = `${lead}${trigger}cmd|' /C calc'!A0`
        const cell = descriptionCell(text)!
        expect(cell.replace(/^"|"$/g, "").startsWith("'"), JSON.stringify(text)).toBe(true)
      }
    }
    expect(descriptionCell(" Oil filter")).toBe(" Oil filter")
    expect(descriptionCell("Filter - oil")).toBe("Filter - oil")
  })
})

// --- The runtime with an adapter that cannot write part lines ---

const [ford] = SANDBOX_FIXTURES.vehicles
const RO = { id: "ro_a", number: "1042", url: "https://sms.example/ro/1042", vehicle: { vin: ford!.vin } }
const linkSecret = Redacted.make("parts-link-secret-for-tests")

const readOnlySms = () => {
  const sms = makeMemorySms([RO])
  const applyOrders: Array<string> = []
  const layer = Layer.effect(
    ShopSystem.ShopSystem,
    Effect.map(ShopSystem.ShopSystem, (inner): ShopSystem.Operations => ({
      ...inner,
      // Reads repair orders and records purchase orders; takes no part line.
      capabilities: new Set<ShopSystem.Capability>(["readRepairOrder", "recordPurchaseOrder", "linkToRepairOrder"]),
      applyQuote: () => Effect.die("applyQuote must not be called without writeQuotedParts"),
      applyOrder: (write) => {
        applyOrders.push(`${write.orderID}:${write.status}`)
        return inner.applyOrder({ ...write, lines: [] })
      }
    }))
  ).pipe(Layer.provide(sms.layer))
  return { ...sms, layer, applyOrders }
}

const request = (url: string, init: RequestInit = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual", ...init })
    return { status: response.status, headers: response.headers, text: await response.text() }
  })

const runtimeOn = (storage: TestStorage) =>
  Effect.gen(function*() {
    const sms = readOnlySms()
    const served = yield* servedRuntime(storage, sms.layer, { launchLinkSecrets: [linkSecret] })
    const { key } = yield* served.runtime.apiKeys.create("sms-backend")
    return { ...served, sms, vendorKey: Redacted.value(key) }
  })

for (const storage of ["memory", "sqlite", "postgres"] as const) {
  describe(`ConnectorRuntime parts fallback (${storage})`, () => {
    it.scoped("quotes and orders are kept per repair order, shown on the callback page and the parts page, with a CSV", () =>
      Effect.gen(function*() {
        const { publicBaseUrl, runtime, sandbox, sms, vendorKey } = yield* runtimeOn(storage)
        const launched = yield* runtime.launch({ shopId: "shop_a", repairOrderId: "ro_a" })
        const token = new URL(Redacted.value(launched.url)).searchParams.get("token")!
        yield* sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 2 })
        yield* sandbox.admin.driver.press(token, "export")
        yield* sandbox.admin.awaitDeliveries(1)
        expect(yield* runtime.drain).toMatchObject({ applied: 1, dead: 0 })
        const pressed = yield* sandbox.admin.driver.press(token, "exportAndSubmit")
        yield* sandbox.admin.awaitDeliveries(2)
        expect(yield* runtime.drain).toMatchObject({ applied: 1, dead: 0 })

        // Nothing written to the SMS; the order still went to applyOrder to be recorded on the RO.
        expect(sms.read.lines("ro_a")).toEqual([])
        expect(sms.applyOrders).toEqual([`${pressed.orderID}:3`])
        expect(sms.read.order("ro_a")).toMatchObject({ orderID: pressed.orderID })
        const kept = yield* runtime.parts.list({ shopId: "shop_a", repairOrderId: "ro_a" })
        expect(kept.map((l) => [l.kind, l.orderID, l.quantity])).toEqual([["quote", undefined, 2], [
          "order",
          pressed.orderID,
          2
        ]])

        // A replay of both deliveries keeps each line once.
        for (const entry of yield* runtime.inbox.list({ shopId: "shop_a" })) {
          yield* runtime.inbox.replay(entry.id).pipe(Effect.ignore)
        }
        yield* runtime.drain
        expect(yield* runtime.parts.list({ shopId: "shop_a", repairOrderId: "ro_a" })).toHaveLength(2)

        // The callback page (public, keyed by the launch) says where the parts are and lists them.
        const landing = yield* request(pressed.redirect!)
        const callback = yield* request(new URL(landing.headers.get("location")!, pressed.redirect!).toString())
        expect(callback.text).toContain("1 part ordered and kept with RO 1042.")
        expect(callback.text.match(/data-testid="parts-row"/g)).toHaveLength(2)

        // The parts page: refused without credentials, with a wrong key, or with a tampered link.
        const page = `${publicBaseUrl}/shoplink/parts?shop=shop_a&ro=ro_a`
        expect((yield* request(page)).status).toBe(403)
        expect((yield* request(page, { headers: { authorization: "Bearer slk_0000000000_" + "x".repeat(43) } })).status)
          .toBe(401)
        const link = yield* runtime.partsLink({ shopId: "shop_a", repairOrderId: "ro_a" })
        expect((yield* request(link.replace("ro=ro_a", "ro=ro_b"))).status).toBe(403)
        const byKey = yield* request(page, { headers: { authorization: `Bearer ${vendorKey}` } })
        expect(byKey.status).toBe(200)
        expect(byKey.text.match(/data-testid="parts-row"/g)).toHaveLength(2)
        const byLink = yield* request(link)
        expect(byLink.status).toBe(200)
        expect(byLink.headers.get("cache-control")).toBe("no-store")
        const csvHref = /data-testid="parts-csv" href="([^"]+)"/.exec(byLink.text)![1]!.replace(/&amp;/g, "&")
        const csv = yield* request(new URL(csvHref, publicBaseUrl).toString())
        expect(csv.status).toBe(200)
        expect(csv.headers.get("content-type")).toContain("text/csv")
        expect(csv.headers.get("content-disposition")).toBe("attachment; filename=\"parts-ro_a.csv\"")
        const rows = csv.text.trim().split("\r\n")
        expect(rows).toHaveLength(3)
        expect(rows[2]).toContain(`order,${pressed.orderID},`)
        // Another shop's repair order through the vendor key: an empty list, never someone else's lines.
        const other = yield* request(`${publicBaseUrl}/shoplink/parts.csv?shop=shop_b&ro=ro_a`, {
          headers: { authorization: `Bearer ${vendorKey}` }
        })
        expect(other.text.trim().split("\r\n")).toHaveLength(1)
        expect(runtime.redactPath("/shoplink/parts?shop=a&ro=b&exp=1&sig=x")).toBe("/shoplink/parts?…")
      }))
  })
}
