// Input checks before any request: schema rules from the protocol, and the invoice date rules.
import { OrderManagement, Violation } from "@shoplink/protocol"
import { DateTime, Effect, type ParseResult, Schema } from "effect"
import type { DayInput } from "../OrderManagementClient.js"
import { InvalidInput } from "../OrderManagementError.js"

// Rules that mirror a message ID the server would answer with.
const codeOfField: Readonly<Record<string, string>> = {
  searchText: "API0304",
  categoryCode: "API0303",
  vehicleGroupId: "API0226",
  vin: "API0267",
  quantity: "API0231",
  submitDate: "API0269"
}

const toInvalidInput = (operation: string) => (error: ParseResult.ParseError): InvalidInput => {
  const violation = Violation.first(error)
  const path = violation.path
  // A missing first element means an empty non-empty array: blame the array.
  const emptyArray = path.at(-1) === 0 && violation.rule === "is missing"
  const fieldPath = emptyArray ? path.slice(0, -1) : path
  const last = fieldPath.at(-1)
  const code = typeof last === "string" ? codeOfField[last] : undefined
  return new InvalidInput({
    operation,
    field: fieldPath.map(String).join("."),
    rule: emptyArray ? "must not be empty" : violation.rule,
    ...(code === undefined ? {} : { code })
  })
}

/**
 * Validates a candidate wire value against a request schema and returns its encoded (wire) form.
 * Decoding checks every rule; encoding turns dates back into their wire spelling.
 */
export const toWire = <A, I>(
  operation: string,
  schema: Schema.Schema<A, I>,
  candidate: unknown
): Effect.Effect<{ readonly value: A; readonly wire: I }, InvalidInput> =>
  Schema.decodeUnknown(schema, { errors: "first", onExcessProperty: "error" })(candidate).pipe(
    Effect.flatMap((value) => Effect.map(Schema.encode(schema)(value), (wire) => ({ value, wire }))),
    Effect.mapError(toInvalidInput(operation))
  )

/** The calendar day as `yyyymmdd`. */
export const dayOf = (input: DayInput): string => {
  if (input instanceof Date) {
    return Number.isNaN(input.getTime()) ? "" : OrderManagement.formatYyyymmdd(DateTime.unsafeMake(input))
  }
  const parts = DateTime.isZoned(input) ? DateTime.toParts(input) : DateTime.toPartsUtc(input)
  return `${String(parts.year).padStart(4, "0")}${String(parts.month).padStart(2, "0")}${String(parts.day).padStart(2, "0")}`
}

/** Today's UTC calendar day as `yyyymmdd`, from the Effect Clock. */
export const today: Effect.Effect<string> = Effect.map(DateTime.now, OrderManagement.formatYyyymmdd)

/**
 * invoiceDetails date rules, checked before sending (API0263–API0266): both dates without an
 * invoice number, neither later than today, fromDate not after toDate.
 */
export const checkInvoiceDates = (input: {
  readonly invoiceNo?: string | undefined
  readonly fromDate?: string | undefined
  readonly toDate?: string | undefined
}): Effect.Effect<void, InvalidInput> =>
  Effect.gen(function*() {
    const { fromDate, invoiceNo, toDate } = input
    if (invoiceNo === undefined && (fromDate === undefined || toDate === undefined)) {
      return yield* new InvalidInput({
        operation: "invoiceDetails",
        field: fromDate === undefined ? "fromDate" : "toDate",
        rule: "is required: both fromDate and toDate must be provided if invoiceNo is not provided",
        code: "API0266"
      })
    }
    const now = yield* today
    if (fromDate !== undefined && fromDate > now) {
      return yield* new InvalidInput({ operation: "invoiceDetails", field: "fromDate", rule: `must not be later than today (${now})`, code: "API0263" })
    }
    if (toDate !== undefined && toDate > now) {
      return yield* new InvalidInput({ operation: "invoiceDetails", field: "toDate", rule: `must not be later than today (${now})`, code: "API0264" })
    }
    if (fromDate !== undefined && toDate !== undefined && fromDate > toDate) {
      return yield* new InvalidInput({ operation: "invoiceDetails", field: "fromDate", rule: "cannot be greater than toDate", code: "API0265" })
    }
  })
