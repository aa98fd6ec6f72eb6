/**
 * Epoch timestamps. The spec leaves the unit open: sample session expirations have 10 digits
 * (seconds) and sample order and quote times 13 digits (milliseconds). Decoding accepts either and
 * yields a `DateTime.Utc`; encoding writes the unit the value was read in, or the field's default
 * unit for a value made in code. See docs/assumptions.md.
 *
 * @since 0.1.0
 */
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/**
 * The unit of an epoch number.
 *
 * @example
 * import { Epoch } from "@shoplink/protocol"
 * const unit: Epoch.EpochUnit = "seconds"
 *
 * @since 0.1.0
 */
export type EpochUnit = "seconds" | "milliseconds"

/**
 * Numbers below this are seconds, at or above it milliseconds. 1e11 seconds is the year 5138;
 * 1e11 milliseconds is 1973-03-03, so any plausible timestamp is read in the right unit.
 *
 * @example
 * import { Epoch } from "@shoplink/protocol"
 * Epoch.MILLISECONDS_THRESHOLD // 100000000000
 *
 * @since 0.1.0
 */
export const MILLISECONDS_THRESHOLD = 1e11

/**
 * Which unit a raw epoch number is in (10-digit seconds, 13-digit milliseconds).
 *
 * @example
 * import { Epoch } from "@shoplink/protocol"
 * Epoch.unitOf(1700000000) // "seconds"
 * Epoch.unitOf(1700000000000) // "milliseconds"
 *
 * @since 0.1.0
 */
export const unitOf = (n: number): EpochUnit => Math.abs(n) >= MILLISECONDS_THRESHOLD ? "milliseconds" : "seconds"

// The unit each decoded DateTime was read in. DateTime values are immutable, so identity is a
// safe key; a DateTime made or moved in code falls back to the field's default unit.
const unitsRead = new WeakMap<DateTime.Utc, EpochUnit>()

/**
 * The unit a `DateTime` was decoded from, if it came from an epoch codec.
 *
 * @example
 * import { Schema } from "effect"
 * import { Epoch } from "@shoplink/protocol"
 * const at = Schema.decodeSync(Epoch.Epoch({ defaultUnit: "seconds" }))(1700000000000)
 * Epoch.unitRead(at) // "milliseconds"
 *
 * @since 0.1.0
 */
export const unitRead = (dateTime: DateTime.Utc): EpochUnit | undefined => unitsRead.get(dateTime)

/**
 * Converts a `DateTime` to an epoch number in a unit (seconds are floored).
 *
 * @example
 * import { DateTime } from "effect"
 * import { Epoch } from "@shoplink/protocol"
 * Epoch.toEpoch(DateTime.unsafeMake(1700000000999), "seconds") // 1700000000
 *
 * @since 0.1.0
 */
export const toEpoch = (dateTime: DateTime.DateTime, unit: EpochUnit): number => {
  const millis = DateTime.toEpochMillis(dateTime)
  return unit === "milliseconds" ? millis : Math.floor(millis / 1000)
}

const EPOCH_TEXT = /^\d+(\.\d+)?$/

/**
 * Reads an epoch number (or a string of decimal digits) in either unit as a `DateTime.Utc`;
 * `undefined` for anything else, including negative numbers.
 *
 * @example
 * import { Epoch } from "@shoplink/protocol"
 * Epoch.fromEpoch(1700000000)?.toJSON() // "2023-11-14T22:13:20.000Z"
 *
 * @since 0.1.0
 */
export const fromEpoch = (raw: number | string): DateTime.Utc | undefined => {
  // Only plain decimal digits: `Number()` would also take "0x10", "1e3" or "Infinity".
  const n = typeof raw === "number" ? raw : EPOCH_TEXT.test(raw.trim()) ? Number(raw.trim()) : Number.NaN
  // A negative epoch (before 1970) is never a time this API sends.
  if (!Number.isFinite(n) || n < 0) return undefined
  const unit = unitOf(n)
  const dateTime = DateTime.make(unit === "seconds" ? n * 1000 : n)
  if (dateTime._tag === "None") return undefined
  const utc = DateTime.toUtc(dateTime.value)
  unitsRead.set(utc, unit)
  return utc
}

/**
 * An epoch field: decodes seconds or milliseconds (number or numeric string) to `DateTime.Utc` and
 * encodes in the unit it was read in, else `defaultUnit`.
 *
 * @example
 * import { Schema } from "effect"
 * import { Epoch } from "@shoplink/protocol"
 * const Expiration = Epoch.Epoch({ defaultUnit: "seconds" })
 * const at = Schema.decodeSync(Expiration)(1763769600)
 * Schema.encodeSync(Expiration)(at) // 1763769600
 *
 * @since 0.1.0
 * @category schemas
 */
export const Epoch = (options: { readonly defaultUnit: EpochUnit }) =>
  Schema.transformOrFail(
    Schema.Union(Schema.Number, Schema.String),
    Schema.DateTimeUtcFromSelf.annotations({
      // Whole seconds when the field is written in seconds, so encode∘decode is the identity.
      arbitrary: () => (fc) =>
        fc.integer({ min: 946_684_800, max: 4_102_444_800 }).chain((seconds) =>
          options.defaultUnit === "seconds"
            ? fc.constant(DateTime.unsafeMake(seconds * 1000))
            : fc.integer({ min: 0, max: 999 }).map((ms) => DateTime.unsafeMake(seconds * 1000 + ms))
        )
    }),
    {
      strict: true,
      decode: (raw, _, ast) => {
        const dateTime = fromEpoch(raw)
        return dateTime === undefined
          ? ParseResult.fail(
            new ParseResult.Type(
              ast,
              raw,
              `Expected an epoch in seconds or milliseconds, actual ${JSON.stringify(raw)}`
            )
          )
          : ParseResult.succeed(dateTime)
      },
      encode: (dateTime) => Effect.succeed(toEpoch(dateTime, unitRead(dateTime) ?? options.defaultUnit))
    }
  ).annotations({ identifier: `Epoch(${options.defaultUnit})` })

/**
 * An epoch field written in seconds by default (session expirations).
 *
 * @example
 * import { Schema } from "effect"
 * import { Epoch } from "@shoplink/protocol"
 * Schema.decodeSync(Epoch.EpochSeconds)(1763769600).toJSON() // "2025-11-22T00:00:00.000Z"
 *
 * @since 0.1.0
 * @category schemas
 */
export const EpochSeconds = Epoch({ defaultUnit: "seconds" })

/**
 * An epoch field written in milliseconds by default (order and quote times).
 *
 * @example
 * import { Schema } from "effect"
 * import { Epoch } from "@shoplink/protocol"
 * Schema.decodeSync(Epoch.EpochMillis)(1763769600000).toJSON() // "2025-11-22T00:00:00.000Z"
 *
 * @since 0.1.0
 * @category schemas
 */
export const EpochMillis = Epoch({ defaultUnit: "milliseconds" })
