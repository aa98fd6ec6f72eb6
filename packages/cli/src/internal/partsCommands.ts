// `shoplink parts list --shop --ro`: the part lines the connector service keeps for a repair order
// when its shop system cannot take them (the runtime's parts ledger, `PartsLedger` in
// @shoplink/connector), read from the service's database: a table, --json, or --csv.
import { PartsLedger, Storage } from "@shoplink/connector-runtime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import { LocalFailure, UsageError } from "./errors.js"
import * as Logging from "./logging.js"
import { json, out, table } from "./output.js"
import { iso, type Service, service } from "./service.js"
import type * as Spec from "./spec.js"

const dollars = (cents: number) => (cents / 100).toFixed(2)

/** A line as `--json` prints it: instants as ISO-8601, absent values as null, money in cents. */
const lineJson = (line: PartsLedger.LedgerLine) => ({
  kind: line.kind,
  orderID: line.orderID ?? null,
  status: line.status ?? null,
  statusDescription: line.statusDescription ?? null,
  brandID: line.brandID,
  productID: line.productID,
  description: line.description,
  quantity: line.quantity,
  costCents: line.costCents,
  listCents: line.listCents,
  coreCents: line.coreCents,
  partTerminologyId: line.partTerminologyId,
  categoryID: line.categoryID,
  idempotencyKey: line.idempotencyKey,
  recordedAt: iso(line.recordedAt),
  updatedAt: iso(line.updatedAt)
})

const clip = (
  text: string,
  width: number
) => (text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`)

const linesTable = (lines: ReadonlyArray<PartsLedger.LedgerLine>) =>
  table(
    ["KIND", "ORDER", "STATUS", "BRAND", "PART", "DESCRIPTION", "QTY", "COST", "LIST", "CORE"],
    lines.map((l) => [
      l.kind,
      l.orderID ?? "",
      clip(l.statusDescription ?? l.status ?? "", 16),
      l.brandID,
      l.productID,
      clip(l.description, 24),
      l.quantity,
      dollars(l.costCents),
      dollars(l.listCents),
      dollars(l.coreCents)
    ])
  )

/** Runs `f` with the parts ledger on the service's database (quiet: stdout is the command's output). */
const withLedger = <A, E>(db: Service, f: (ledger: PartsLedger.Operations) => Effect.Effect<A, E>) =>
  Effect.flatMap(PartsLedger.PartsLedger, f).pipe(
    Effect.provide(
      PartsLedger.layerSql.pipe(
        Layer.provide(
          Storage.layer(db.location).pipe(
            Layer.mapError((error) =>
              new LocalFailure({
                message: error.message,
                fix: "check the URL, and that the database server answers and accepts the user"
              })
            )
          )
        )
      )
    ),
    Effect.mapError((error) =>
      error instanceof PartsLedger.PartsLedgerError
        ? new LocalFailure({
          message: `database ${db.file}: ${error.reason}`,
          fix: "check that it is the service's database"
        })
        : error
    ),
    Effect.catchAllDefect((defect) =>
      Effect.fail(
        new LocalFailure({
          message: `cannot open the database ${db.file}: ${defect instanceof Error ? defect.message : String(defect)}`,
          fix: "check that the path is the service's database file and that you may read and write it"
        })
      )
    ),
    Effect.provide(Logging.layer),
    Logger.withMinimumLogLevel(LogLevel.Warning)
  )

export const list = (args: Spec.ArgsOf<typeof Spec.partsList>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const shopId = args.shop.trim()
    const repairOrderId = args.ro.trim()
    if (shopId === "" || repairOrderId === "") {
      return yield* new UsageError({
        message: "--shop and --ro must not be empty",
        fix: "e.g. shoplink parts list --shop shop_1 --ro 1042"
      })
    }
    if (args.csv && args.json) {
      return yield* new UsageError({ message: "--csv and --json are two formats: give one", fix: "drop one of them" })
    }
    const db = yield* service(args, "existing")
    const lines = yield* withLedger(db, (ledger) => ledger.list({ shopId, repairOrderId }))
    if (args.csv) return yield* Effect.sync(() => process.stdout.write(PartsLedger.toCsv(lines)))
    if (args.json) return yield* json(lines.map(lineJson))
    if (lines.length === 0) {
      return yield* out(
        `no parts kept for repair order ${repairOrderId} of shop ${shopId} in ${db.file} (the service keeps them only for shop systems that cannot take part lines)`
      )
    }
    yield* out(linesTable(lines))
  })
