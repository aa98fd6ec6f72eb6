/**
 * Calendar dates written `yyyymmdd` (accountDetails `submitDate`; assumed for invoice dates).
 *
 * @since 0.1.0
 */
import { DateTime, ParseResult, Schema } from "effect"

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
    arbitrary: () => (fc) => fc.integer({ min: 10_957, max: 47_482 }).map((day) => DateTime.unsafeMake(day * 86_400_000))
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
