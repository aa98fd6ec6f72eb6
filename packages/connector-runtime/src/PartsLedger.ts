/**
 * The parts ledger: where the runtime keeps quoted and ordered part lines for shop systems that
 * cannot take them. Most SMS APIs let a third party read repair orders; few let it write part
 * lines. When an adapter does not declare `writeQuotedParts` (or `writeOrderedParts`), the
 * `InboxWorker` records the lines of each applied quote (or order) here instead, per shop and
 * repair order, and the runtime shows them on the callback page, on the authenticated parts page
 * (`GET {basePath}/parts?shop&ro`, with a CSV download), through `ConnectorRuntime`'s `parts`
 * and with `shoplink parts list --shop --ro`.
 *
 * Writes are idempotent like an adapter's: a line is keyed by its `idempotencyKey` within its
 * repair order, so a delivery applied twice (a crash, a replay) records each line once. A later
 * status of an order already recorded updates the status of that order's lines.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { run as runMigrations } from "./Migrations.js"
import type { OrderWrite, PartLine, QuoteWrite, WriteResult } from "@shoplink/connector/ShopSystem"

/**
 * A part line as kept: the `PartLine`, where it came from (a quote, or an order with its number
 * and status), its place in that delivery and when it was recorded (epoch milliseconds).
 *
 * @example
 * import type { PartsLedger } from "@shoplink/connector-runtime"
 * const label = (line: PartsLedger.LedgerLine) => `${line.quantity} × ${line.brandID} ${line.productID}`
 *
 * @since 0.1.0
 */
export interface LedgerLine extends PartLine {
  readonly shopId: string
  readonly repairOrderId: string
  readonly kind: "quote" | "order"
  /** The line's index in its delivery. */
  readonly position: number
  readonly orderID: string | undefined
  readonly status: string | undefined
  readonly statusDescription: string | undefined
  readonly recordedAt: number
  readonly updatedAt: number
}

/**
 * Which repair order's lines to read.
 *
 * @example
 * import type { PartsLedger } from "@shoplink/connector-runtime"
 * const ref: PartsLedger.RepairOrderRef = { shopId: "shop_1", repairOrderId: "ro_8f2" }
 *
 * @since 0.1.0
 */
export interface RepairOrderRef {
  readonly shopId: string
  readonly repairOrderId: string
}

/**
 * The ledger could not be read or written.
 *
 * @example
 * import { PartsLedger } from "@shoplink/connector-runtime"
 * new PartsLedger.PartsLedgerError({ reason: "disk I/O error" }).message
 *
 * @since 0.1.0
 */
export class PartsLedgerError
  extends Schema.TaggedError<PartsLedgerError>()("PartsLedgerError", { reason: Schema.String })
{
  override get message(): string {
    return `parts ledger: ${this.reason}`
  }
}

/**
 * The ledger's operations.
 *
 * @example
 * import { Effect } from "effect"
 * import type { PartsLedger } from "@shoplink/connector-runtime"
 * const count = (ledger: PartsLedger.Operations) =>
 *   Effect.map(ledger.list({ shopId: "shop_1", repairOrderId: "ro_8f2" }), (lines) => lines.length)
 *
 * @since 0.1.0
 */
export interface Operations {
  /** Records a quote's lines; lines already there (by key) are counted, not added again. */
  readonly recordQuote: (write: QuoteWrite) => Effect.Effect<WriteResult, PartsLedgerError>
  /** Records an order's lines, and its status on the lines of that order already there. */
  readonly recordOrder: (write: OrderWrite) => Effect.Effect<WriteResult, PartsLedgerError>
  /** The lines of one repair order, quotes and orders, in the order they were recorded. */
  readonly list: (ref: RepairOrderRef) => Effect.Effect<ReadonlyArray<LedgerLine>, PartsLedgerError>
}

/**
 * The service tag. `ConnectorRuntime` provides it (on the runtime's storage) to the worker and
 * the pages; `runtime.parts` is the same service.
 *
 * @example
 * import { Effect } from "effect"
 * import { PartsLedger } from "@shoplink/connector-runtime"
 * const lines = Effect.flatMap(
 *   PartsLedger.PartsLedger,
 *   (ledger) => ledger.list({ shopId: "shop_1", repairOrderId: "ro_8f2" })
 * )
 *
 * @since 0.1.0
 */
export class PartsLedger extends Context.Tag("@shoplink/connector-runtime/PartsLedger")<PartsLedger, Operations>() {}

type Source = Pick<LedgerLine, "kind" | "orderID" | "status" | "statusDescription">

const toLines = (
  ref: RepairOrderRef,
  source: Source,
  lines: ReadonlyArray<PartLine>,
  at: number
): ReadonlyArray<LedgerLine> =>
  lines.map((line, position) => ({
    ...line,
    shopId: ref.shopId,
    repairOrderId: ref.repairOrderId,
    ...source,
    position,
    recordedAt: at,
    updatedAt: at
  }))

const roKey = (ref: RepairOrderRef) => `${ref.shopId}\u0000${ref.repairOrderId}`

/**
 * The ledger in memory (tests, demos, `ConnectorRuntime` with `storage: "memory"`).
 *
 * @example
 * import { PartsLedger } from "@shoplink/connector-runtime"
 * const layer = PartsLedger.layerMemory
 *
 * @since 0.1.0
 */
export const layerMemory: Layer.Layer<PartsLedger> = Layer.effect(
  PartsLedger,
  Effect.gen(function*() {
    // repair order → line key → line
    const ref = yield* Ref.make(new Map<string, Map<string, LedgerLine>>())
    const record = (write: QuoteWrite | OrderWrite, source: Source) =>
      Effect.gen(function*() {
        const at = yield* Clock.currentTimeMillis
        return yield* Ref.modify(ref, (all) => {
          const next = new Map(all)
          const lines = new Map(next.get(roKey(write)) ?? [])
          let added = 0
          let alreadyPresent = 0
          if (source.kind === "order") {
            for (const [key, line] of lines) {
              if (line.kind === "order" && line.orderID === source.orderID) {
                lines.set(key, {
                  ...line,
                  status: source.status,
                  statusDescription: source.statusDescription,
                  updatedAt: at
                })
              }
            }
          }
          for (const line of toLines(write, source, write.lines, at)) {
            if (lines.has(line.idempotencyKey)) alreadyPresent++
            else {
              lines.set(line.idempotencyKey, line)
              added++
            }
          }
          next.set(roKey(write), lines)
          return [{ added, alreadyPresent }, next] as const
        })
      })
    return PartsLedger.of({
      recordQuote: (write) =>
        record(write, { kind: "quote", orderID: undefined, status: undefined, statusDescription: undefined }),
      recordOrder: (write) =>
        record(write, {
          kind: "order",
          orderID: write.orderID,
          status: write.status,
          statusDescription: write.statusDescription
        }),
      // A Map iterates in insertion order: the order the lines were recorded.
      list: (where) => Effect.map(Ref.get(ref), (all) => [...(all.get(roKey(where))?.values() ?? [])])
    })
  })
)

// pg returns BIGINT as a string; cents and epoch milliseconds fit in a number.
const Int = Schema.Union(Schema.Number, Schema.NumberFromString)
const Row = Schema.Struct({
  shop_id: Schema.String,
  repair_order_id: Schema.String,
  line_key: Schema.String,
  seq: Int,
  position: Int,
  kind: Schema.Literal("quote", "order"),
  order_id: Schema.NullOr(Schema.String),
  status: Schema.NullOr(Schema.String),
  status_description: Schema.NullOr(Schema.String),
  product_id: Schema.String,
  brand_id: Schema.String,
  description: Schema.String,
  quantity: Int,
  cost_cents: Int,
  list_cents: Int,
  core_cents: Int,
  part_terminology_id: Int,
  category_id: Schema.String,
  recorded_at: Int,
  updated_at: Int
})
const decodeRows = Schema.decodeUnknown(Schema.Array(Row))
const fromRow = (row: typeof Row.Type): LedgerLine => ({
  shopId: row.shop_id,
  repairOrderId: row.repair_order_id,
  idempotencyKey: row.line_key,
  position: row.position,
  kind: row.kind,
  orderID: row.order_id ?? undefined,
  status: row.status ?? undefined,
  statusDescription: row.status_description ?? undefined,
  productID: row.product_id,
  brandID: row.brand_id,
  description: row.description,
  quantity: row.quantity,
  costCents: row.cost_cents,
  listCents: row.list_cents,
  coreCents: row.core_cents,
  partTerminologyId: row.part_terminology_id,
  categoryID: row.category_id,
  recordedAt: row.recorded_at,
  updatedAt: row.updated_at
})
const toRow = (line: LedgerLine): Omit<typeof Row.Encoded, "seq"> => ({
  shop_id: line.shopId,
  repair_order_id: line.repairOrderId,
  line_key: line.idempotencyKey,
  position: line.position,
  kind: line.kind,
  order_id: line.orderID ?? null,
  status: line.status ?? null,
  status_description: line.statusDescription ?? null,
  product_id: line.productID,
  brand_id: line.brandID,
  description: line.description,
  quantity: line.quantity,
  cost_cents: line.costCents,
  list_cents: line.listCents,
  core_cents: line.coreCents,
  part_terminology_id: line.partTerminologyId,
  category_id: line.categoryID,
  recorded_at: line.recordedAt,
  updated_at: line.updatedAt
})
const ledgerError = (error: { readonly message: string }) => new PartsLedgerError({ reason: error.message })

/**
 * The ledger in the `shoplink_parts` table of the `SqlClient` in context (migration
 * `0002_parts_ledger`, see `Migrations`), on SQLite or PostgreSQL. `ConnectorRuntime` uses it
 * whenever its storage is a database.
 *
 * @example
 * import { Layer } from "effect"
 * import { PartsLedger, Storage } from "@shoplink/connector-runtime"
 * const layer = PartsLedger.layerSql.pipe(Layer.provide(Storage.sqlite("shoplink.db")))
 *
 * @since 0.1.0
 */
export const layerSql: Layer.Layer<PartsLedger, PartsLedgerError, SqlClient.SqlClient> = Layer.effect(
  PartsLedger,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* runMigrations.pipe(Effect.mapError(ledgerError))
    const list = (where: RepairOrderRef) =>
      sql`SELECT * FROM shoplink_parts WHERE shop_id = ${where.shopId} AND repair_order_id = ${where.repairOrderId}
        ORDER BY seq`.pipe(
        Effect.flatMap(decodeRows),
        Effect.map((rows) => rows.map(fromRow)),
        Effect.mapError(ledgerError)
      )
    const record = (write: QuoteWrite | OrderWrite, source: Source) =>
      Effect.gen(function*() {
        const at = yield* Clock.currentTimeMillis
        if (source.kind === "order" && source.orderID !== undefined) {
          yield* sql`UPDATE shoplink_parts SET status = ${source.status ?? null}, status_description = ${
            source.statusDescription ?? null
          },
            updated_at = ${at}
            WHERE shop_id = ${write.shopId} AND repair_order_id = ${write.repairOrderId} AND kind = 'order' AND order_id = ${source.orderID}`
        }
        const lines = toLines(write, source, write.lines, at)
        if (lines.length === 0) return { added: 0, alreadyPresent: 0 }
        const present = yield* sql<{ readonly line_key: string }>`SELECT line_key FROM shoplink_parts
          WHERE shop_id = ${write.shopId} AND repair_order_id = ${write.repairOrderId}
          AND ${sql.in("line_key", lines.map((l) => l.idempotencyKey))}`
        const known = new Set(present.map((row) => row.line_key))
        const fresh = lines.filter((line) => !known.has(line.idempotencyKey))
        if (fresh.length > 0) {
          // `seq`: the order lines were recorded in, per repair order (whose deliveries the worker
          // applies one at a time).
          const last = yield* sql<{ readonly seq: number | string | null }>`SELECT MAX(seq) AS seq FROM shoplink_parts
            WHERE shop_id = ${write.shopId} AND repair_order_id = ${write.repairOrderId}`
          const first = Number(last[0]?.seq ?? 0) + 1
          const rows = fresh.map((line, i) => ({ ...toRow(line), seq: first + i }))
          yield* sql`INSERT INTO shoplink_parts ${sql.insert(rows)} ON CONFLICT DO NOTHING`
        }
        return { added: fresh.length, alreadyPresent: lines.length - fresh.length }
      }).pipe(sql.withTransaction, Effect.mapError(ledgerError))
    return PartsLedger.of({
      recordQuote: (write) =>
        record(write, { kind: "quote", orderID: undefined, status: undefined, statusDescription: undefined }),
      recordOrder: (write) =>
        record(write, {
          kind: "order",
          orderID: write.orderID,
          status: write.status,
          statusDescription: write.statusDescription
        }),
      list
    })
  })
)

const CSV_COLUMNS = [
  "kind",
  "order_id",
  "status",
  "brand",
  "part_number",
  "description",
  "quantity",
  "unit_cost",
  "unit_list",
  "unit_core",
  "extended_cost",
  "part_terminology_id",
  "category",
  "recorded_at"
] as const

const dollars = (cents: number) => (cents / 100).toFixed(2)

// Quoted when needed (RFC 4180); a text cell a spreadsheet would run as a formula (one starting
// with =, +, -, @, tab or CR, after any whitespace, which spreadsheets skip) gets a leading '.
const FORMULA = /^\s*[=+\-@\t\r]/
const cell = (value: string | number): string => {
  let text = String(value)
  if (typeof value === "string" && FORMULA.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, "\"\"")}"` : text
}

/**
 * The lines as CSV (RFC 4180, CRLF line ends, a header row): money in dollars with two decimals,
 * text cells that a spreadsheet would take for a formula (starting with `=`, `+`, `-`, `@`, tab or
 * CR, after any leading whitespace) prefixed with `'`.
 *
 * @example
 * import { PartsLedger } from "@shoplink/connector-runtime"
 * const csv = PartsLedger.toCsv([])
 * // "kind,order_id,status,brand,part_number,…\r\n"
 *
 * @since 0.1.0
 */
export const toCsv = (lines: ReadonlyArray<LedgerLine>): string =>
  [
    CSV_COLUMNS.join(","),
    ...lines.map((line) =>
      [
        line.kind,
        line.orderID ?? "",
        line.statusDescription ?? line.status ?? "",
        line.brandID,
        line.productID,
        line.description,
        line.quantity,
        dollars(line.costCents),
        dollars(line.listCents),
        dollars(line.coreCents),
        dollars(line.costCents * line.quantity),
        line.partTerminologyId,
        line.categoryID,
        new Date(line.recordedAt).toISOString()
      ].map(cell).join(",")
    )
  ].join("\r\n") + "\r\n"
