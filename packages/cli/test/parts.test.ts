// `shoplink parts list --shop --ro` against a real SQLite file the connector's parts ledger wrote:
// the first run through the built bin, as a user would, the rest in-process.
import { describe, expect, it } from "@effect/vitest"
import { PartsLedger, Storage } from "@shoplink/connector-runtime"
import { Effect, Layer } from "effect"
import { join } from "node:path"
import { parseJson, runCli, runCliInProcess, scratchDir } from "./support/cli.js"

const part = (key: string, overrides: Record<string, unknown> = {}) => ({
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

/** A database whose ledger holds a quote and an order for shop_1/1042, and a quote of another shop. */
const seed = () =>
  Effect.gen(function*() {
    const file = join(scratchDir(), "shoplink.db")
    yield* Effect.gen(function*() {
      const ledger = yield* PartsLedger.PartsLedger
      yield* ledger.recordQuote({
        shopId: "shop_1",
        repairOrderId: "1042",
        lines: [
          part("quote:d1:0"),
          part("quote:d1:1", { productID: "=2+3", description: "Starter, \"reman\"", coreCents: 4500, quantity: 1 })
        ]
      })
      yield* ledger.recordOrder({
        shopId: "shop_1",
        repairOrderId: "1042",
        orderID: "10423",
        status: "3",
        statusDescription: "Order submitted",
        lines: [part("order:10423:0")]
      })
      yield* ledger.recordQuote({ shopId: "shop_2", repairOrderId: "1042", lines: [part("quote:d9:0")] })
    }).pipe(Effect.provide(PartsLedger.layerSql.pipe(Layer.provide(Storage.sqlite(file)))))
    return { file, env: { SHOPLINK_DATABASE_URL: file } }
  })

describe("shoplink parts list", () => {
  it.live("a table of the repair order's kept parts, that shop's only (the built bin)", () =>
    Effect.gen(function*() {
      const { env } = yield* seed()
      const result = yield* runCli(["parts", "list", "--shop", "shop_1", "--ro", "1042"], env)
      expect(result.stderr).toBe("")
      expect(result.code).toBe(0)
      const lines = result.stdout.trimEnd().split("\n")
      expect(lines[0]).toMatch(/^KIND +ORDER +STATUS +BRAND +PART +DESCRIPTION +QTY +COST +LIST +CORE$/)
      expect(lines).toHaveLength(2 + 3)
      expect(lines.slice(2).map((l) => l.split(/\s{2,}/)[0])).toEqual(["quote", "quote", "order"])
      expect(lines[4]).toMatch(/^order +10423 +Order submitted +WIX +51515 +Oil Filter +2 +6\.49 +9\.99 +0\.00$/)
    }))

  it.live("--csv prints the parts page's CSV; --json every field; an empty repair order says so", () =>
    Effect.gen(function*() {
      const { env, file } = yield* seed()
      const csv = yield* runCliInProcess(["parts", "list", "--shop", "shop_1", "--ro", "1042", "--csv"], env)
      expect(csv.code).toBe(0)
      const rows = csv.stdout.split("\r\n")
      expect(rows[0]).toBe(
        "kind,order_id,status,brand,part_number,description,quantity,unit_cost,unit_list,unit_core,extended_cost,part_terminology_id,category,recorded_at"
      )
      expect(rows[2]).toMatch(/^quote,,,WIX,'=2\+3,"Starter, ""reman""",1,6\.49,9\.99,45\.00,6\.49,5340,FLT,/)
      expect(rows).toHaveLength(5)
      const asJson = yield* runCliInProcess([
        "parts",
        "list",
        "--shop",
        "shop_1",
        "--ro",
        "1042",
        "--json",
        "--database",
        file
      ], {})
      const parsed = parseJson<ReadonlyArray<Record<string, unknown>>>(asJson.stdout)
      expect(parsed.map((l) => [l["kind"], l["orderID"], l["costCents"]])).toEqual([["quote", null, 649], [
        "quote",
        null,
        649
      ], ["order", "10423", 649]])
      const empty = yield* runCliInProcess(["parts", "list", "--shop", "shop_3", "--ro", "1042"], env)
      expect(empty.code).toBe(0)
      expect(empty.stdout).toContain("no parts kept for repair order 1042 of shop shop_3")
    }))

  it.live("a missing --ro, both --csv and --json, or a database that is not there: one line and a non-zero exit", () =>
    Effect.gen(function*() {
      const { env } = yield* seed()
      const noRo = yield* runCliInProcess(["parts", "list", "--shop", "shop_1"], env)
      expect(noRo.code).toBe(2)
      const both = yield* runCliInProcess(["parts", "list", "--shop", "shop_1", "--ro", "1042", "--csv", "--json"], env)
      expect(both.code).toBe(2)
      expect(both.stderr).toContain("--csv and --json are two formats")
      const missing = yield* runCliInProcess(["parts", "list", "--shop", "shop_1", "--ro", "1042"], {
        SHOPLINK_DATABASE_URL: join(scratchDir(), "nope.db")
      })
      expect(missing.code).not.toBe(0)
      expect(missing.stdout).toBe("")
    }))
})
