/**
 * Calendar dates written `yyyymmdd` (accountDetails `submitDate`; assumed for invoice dates), and
 * the invoiceDetails date rules (API0263–API0266).
 *
 * @since 0.1.0
 */
import * as DateTime from "effect/DateTime"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

const pad = (n: number, width: number) => String(n).padStart(width, "0")

/**
 * Formats the UTC calendar day of a `DateTime` as `yyyymmdd`.
 *
 * @example
 * import { DateTime } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * OrderManagement.formatYyyymmdd(DateTime.unsafeMake("2026-11-21T15:00:00Z")) // "20261121"
 *
 * @since 0.1.0
 */
export const formatYyyymmdd = (date: DateTime.DateTime): string => {
  const parts = DateTime.toPartsUtc(date)
  return `${pad(parts.year, 4)}${pad(parts.month, 2)}${pad(parts.day, 2)}`
}

/**
 * Parses `yyyymmdd` to midnight UTC of that day, or `undefined` for a malformed or impossible date.
 *
 * @example
 * import { OrderManagement } from "@shoplink/protocol"
 * OrderManagement.parseYyyymmdd("20260230") // undefined
 *
 * @since 0.1.0
 */
export const parseYyyymmdd = (s: string): DateTime.Utc | undefined => {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(s)
  if (match === null) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const millis = Date.UTC(year, month - 1, day)
  const date = new Date(millis)
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined
  return DateTime.unsafeMake(millis)
}

/**
 * A calendar day: `yyyymmdd` on the wire, a `DateTime.Utc` at midnight UTC in code. Encoding uses
 * the UTC calendar day of the value.
 *
 * @example
 * import { DateTime, Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.encodeSync(OrderManagement.DateFromYyyymmdd)(DateTime.unsafeMake("2026-11-21")) // "20261121"
 *
 * @since 0.1.0
 * @category schemas
 */
export const DateFromYyyymmdd = Schema.transformOrFail(
  Schema.String,
  Schema.DateTimeUtcFromSelf.annotations({
    arbitrary: () => (fc) =>
      fc.integer({ min: 10_957, max: 47_482 }).map((day) => DateTime.unsafeMake(day * 86_400_000))
  }),
  {
    strict: true,
    decode: (s, _, ast) => {
      const date = parseYyyymmdd(s)
      return date === undefined
        ? ParseResult.fail(new ParseResult.Type(ast, s, `Expected a date as yyyymmdd, got ${JSON.stringify(s)}`))
        : ParseResult.succeed(date)
    },
    encode: (date) => ParseResult.succeed(formatYyyymmdd(date))
  }
).annotations({ identifier: "DateFromYyyymmdd" })

/**
 * A broken invoiceDetails date rule: the message ID the server answers with, the field to blame
 * and the rule in words.
 *
 * @example
 * import type { OrderManagement } from "@shoplink/protocol"
 * const problem: OrderManagement.InvoiceDateProblem = {
 *   id: "API0265",
 *   field: "fromDate",
 *   rule: "cannot be greater than toDate"
 * }
 *
 * @since 0.1.0
 */
export interface InvoiceDateProblem {
  readonly id: "API0263" | "API0264" | "API0265" | "API0266"
  readonly field: "fromDate" | "toDate"
  readonly rule: string
}

const absent = (s: string | undefined): s is undefined | "" => s === undefined || s === ""

/**
 * The invoiceDetails date rules, in the order the server applies them: without an `invoiceNo` both
 * dates are required (API0266); `fromDate` must be a `yyyymmdd` date not later than today
 * (API0263), and so must `toDate` (API0264); `fromDate` must not be after `toDate` (API0265).
 * Dates are `yyyymmdd` strings (an empty one counts as absent) and `today` is today's `yyyymmdd`
 * (`formatYyyymmdd` of the current time: UTC calendar days). `undefined` when every rule holds.
 *
 * @example
 * import { OrderManagement } from "@shoplink/protocol"
 * OrderManagement.invoiceDateProblem({ fromDate: "20261120", toDate: "20261110" }, "20261121")
 * // { id: "API0265", field: "fromDate", rule: "cannot be greater than toDate" }
 * OrderManagement.invoiceDateProblem({ invoiceNo: "INV-1" }, "20261121") // undefined
 *
 * @since 0.1.0
 */
export const invoiceDateProblem = (
  query: {
    readonly invoiceNo?: string | undefined
    readonly fromDate?: string | undefined
    readonly toDate?: string | undefined
  },
  today: string
): InvoiceDateProblem | undefined => {
  const { fromDate, toDate } = query
  if (absent(query.invoiceNo) && (absent(fromDate) || absent(toDate))) {
    return {
      id: "API0266",
      field: absent(fromDate) ? "fromDate" : "toDate",
      rule: "is required: both fromDate and toDate must be provided if invoiceNo is not provided"
    }
  }
  const dayProblem = (day: string): string | undefined =>
    parseYyyymmdd(day) === undefined
      ? `must be a date as yyyymmdd, got ${JSON.stringify(day)}`
      : day > today
      ? `must not be later than today (${today})`
      : undefined
  const fromProblem = absent(fromDate) ? undefined : dayProblem(fromDate)
  if (fromProblem !== undefined) return { id: "API0263", field: "fromDate", rule: fromProblem }
  const toProblem = absent(toDate) ? undefined : dayProblem(toDate)
  if (toProblem !== undefined) return { id: "API0264", field: "toDate", rule: toProblem }
  if (!absent(fromDate) && !absent(toDate) && fromDate > toDate) {
    return { id: "API0265", field: "fromDate", rule: "cannot be greater than toDate" }
  }
  return undefined
}
