/**
 * Value types with the limits the specs state, as refinements whose failure messages name the
 * field and the rule.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { BoundedId } from "./internal/fields.js"

/**
 * A ReserveOrder `orderID`: a non-zero integer of 1 to 8 digits, carried as a string.
 *
 * @example
 * import { Schema } from "effect"
 * import { Values } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Values.ReserveOrderId)("10423") // "10423"
 *
 * @since 0.1.0
 * @category schemas
 */
export const ReserveOrderId = Schema.String.pipe(
  Schema.filter((s) =>
    (/^\d{1,8}$/.test(s) && Number(s) !== 0) ||
    `orderID must be a non-zero integer of 1 to 8 digits, got ${JSON.stringify(s)}`
  ),
  Schema.brand("ReserveOrderId")
).annotations({
  identifier: "ReserveOrderId",
  arbitrary: () => (fc) => fc.integer({ min: 1, max: 99_999_999 }).map((n) => String(n) as ReserveOrderId)
})
/** @since 0.1.0 */
export type ReserveOrderId = typeof ReserveOrderId.Type

/**
 * A distributor order number (`orderID` of orders, order webhooks, SubmitOrder and Export and
 * Save): a string, or an integer number read as its digits, not blank and at most 64 characters.
 * The spec types it "string" without a limit; the bound is docs/assumptions.md's.
 *
 * @example
 * import { Schema } from "effect"
 * import { Values } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Values.OrderId)(10423) // "10423"
 * Schema.decodeUnknownEither(Values.OrderId)("") // Left: orderID must not be empty
 *
 * @since 0.1.0
 * @category schemas
 */
export const OrderId = BoundedId("orderID", 64).annotations({ identifier: "OrderId" })

/**
 * The vendor's `referenceID` as the session, the Show commands and the webhooks carry it: at
 * most 255 characters, possibly empty (it is optional). The spec gives no limit; the bound is
 * docs/assumptions.md's.
 *
 * @example
 * import { Schema } from "effect"
 * import { Values } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Values.ReferenceId)("RO-1042") // "RO-1042"
 *
 * @since 0.1.0
 * @category schemas
 */
export const ReferenceId = Schema.String.pipe(
  Schema.filter((s) => s.length <= 255 || `referenceID must be at most 255 characters, got ${s.length}`)
).annotations({ identifier: "ReferenceId" })

/**
 * An order comment or P.O. number: 1 to 20 characters.
 *
 * @example
 * import { Schema } from "effect"
 * import { Values } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Values.OrderComment)("PO-1042") // "PO-1042"
 *
 * @since 0.1.0
 * @category schemas
 */
export const OrderComment = Schema.String.pipe(
  Schema.filter((s) => (s.length >= 1 && s.length <= 20) || `comment must be 1 to 20 characters, got ${s.length}`),
  Schema.brand("OrderComment")
).annotations({ identifier: "OrderComment" })
/** @since 0.1.0 */
export type OrderComment = typeof OrderComment.Type

/**
 * A product search text of at least 3 characters (Order Management `searchText`, API0304).
 *
 * @example
 * import { Schema } from "effect"
 * import { Values } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Values.SearchText)("brake pads") // "brake pads"
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchText = Schema.String.pipe(
  Schema.filter((s) => s.trim().length >= 3 || `searchText must be 3 or more characters, got ${s.trim().length}`),
  Schema.brand("SearchText")
).annotations({ identifier: "SearchText" })
/** @since 0.1.0 */
export type SearchText = typeof SearchText.Type

/**
 * A distributor brand code: 2 to 3 letters or digits.
 *
 * @example
 * import { Schema } from "effect"
 * import { Values } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Values.BrandCode)("WIX") // "WIX"
 *
 * @since 0.1.0
 * @category schemas
 */
export const BrandCode = Schema.String.pipe(
  Schema.filter((s) =>
    /^[A-Za-z0-9]{2,3}$/.test(s) || `brand code must be 2 to 3 letters or digits, got ${JSON.stringify(s)}`
  ),
  Schema.brand("BrandCode")
).annotations({
  identifier: "BrandCode",
  arbitrary: () => (fc) =>
    fc.array(fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"), { minLength: 2, maxLength: 3 })
      .map((chars) => chars.join("") as BrandCode)
})
/** @since 0.1.0 */
export type BrandCode = typeof BrandCode.Type

/**
 * A two-letter state or province code (upper case).
 *
 * @example
 * import { Schema } from "effect"
 * import { Values } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Values.StateCode)("TX") // "TX"
 *
 * @since 0.1.0
 * @category schemas
 */
export const StateCode = Schema.String.pipe(
  Schema.filter((s) => /^[A-Z]{2}$/.test(s) || `state must be a two-letter upper-case code, got ${JSON.stringify(s)}`),
  Schema.brand("StateCode")
).annotations({
  identifier: "StateCode",
  arbitrary: () => (fc) =>
    fc.array(fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"), { minLength: 2, maxLength: 2 })
      .map((chars) => chars.join("") as StateCode)
})
/** @since 0.1.0 */
export type StateCode = typeof StateCode.Type

/**
 * The Punchout countries, in the spec's order: `US` or `US QA` (US, Puerto Rico and territories),
 * `CA` or `CA QA` (Canada). The one list every schema, prompt and message of Shoplink uses.
 *
 * @example
 * import { Values } from "@shoplink/protocol"
 * Values.COUNTRIES.join(", ") // "US, US QA, CA, CA QA"
 *
 * @since 0.1.0
 */
export const COUNTRIES = ["US", "US QA", "CA", "CA QA"] as const

/**
 * A Punchout country: `US` or `US QA` (US, Puerto Rico and territories), `CA` or `CA QA` (Canada).
 *
 * @example
 * import { Schema } from "effect"
 * import { Values } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Values.Country)("CA QA") // "CA QA"
 *
 * @since 0.1.0
 * @category schemas
 */
export const Country = Schema.Literal(...COUNTRIES).annotations({
  identifier: "Country",
  message: () => ({
    message: `country must be one of ${COUNTRIES.map((c) => JSON.stringify(c)).join(", ")}`,
    override: true
  })
})
/** @since 0.1.0 */
export type Country = typeof Country.Type

/**
 * Whether a value is one of the {@link COUNTRIES}.
 *
 * @example
 * import { Values } from "@shoplink/protocol"
 * Values.isCountry("US QA") // true
 * Values.isCountry("MX") // false
 *
 * @since 0.1.0
 * @category guards
 */
export const isCountry: (u: unknown) => u is Country = Schema.is(Country)

/**
 * The country an account is in: `US` or `CA` (an Order Management environment's country).
 *
 * @example
 * import { Values } from "@shoplink/protocol"
 * const country: Values.CountryCode = "CA"
 *
 * @since 0.1.0
 */
export type CountryCode = "US" | "CA"

/**
 * The country of a Punchout country: `US QA` is the US test variant, `CA QA` the Canadian.
 *
 * @example
 * import { Values } from "@shoplink/protocol"
 * Values.countryCodeOf("CA QA") // "CA"
 *
 * @since 0.1.0
 */
export const countryCodeOf = (country: Country): CountryCode => (country === "CA" || country === "CA QA" ? "CA" : "US")

/**
 * A positive whole quantity.
 *
 * @example
 * import { Schema } from "effect"
 * import { Values } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Values.Quantity)(2) // 2
 *
 * @since 0.1.0
 * @category schemas
 */
export const Quantity = Schema.Number.pipe(
  Schema.filter((n) => (Number.isInteger(n) && n > 0) || `quantity must be a positive whole number, got ${n}`)
).annotations({
  identifier: "Quantity",
  arbitrary: () => (fc) => fc.integer({ min: 1, max: 9_999 })
})

/**
 * A quantity carried as a string on the wire (GetProductQuotes and CreateOrder bodies) and a
 * positive whole number in code. Numbers are accepted on decode too.
 *
 * @example
 * import { Schema } from "effect"
 * import { Values } from "@shoplink/protocol"
 * Schema.encodeSync(Values.QuantityFromString)(3) // "3"
 *
 * @since 0.1.0
 * @category schemas
 */
export const QuantityFromString = Schema.compose(
  Schema.Union(Schema.NumberFromString, Schema.Number),
  Quantity,
  { strict: false }
).annotations({ identifier: "QuantityFromString" })

/**
 * Text the spec shows as "may be empty": accepts a string, `null` or a missing field and yields a
 * string (`""` for the latter two).
 *
 * @example
 * import { Schema } from "effect"
 * import { Values } from "@shoplink/protocol"
 * const S = Schema.Struct({ quality: Values.OptionalText })
 * Schema.decodeUnknownSync(S)({ quality: null }) // { quality: "" }
 *
 * @since 0.1.0
 * @category schemas
 */
export const OptionalText = Schema.optionalWith(Schema.String, { nullable: true, default: () => "" })

/**
 * A number the spec shows but a real server might send as `null` or leave out: decodes to `0`.
 *
 * @example
 * import { Schema } from "effect"
 * import { Values } from "@shoplink/protocol"
 * const S = Schema.Struct({ weight: Values.LenientNumber })
 * Schema.decodeUnknownSync(S)({ weight: null }) // { weight: 0 }
 *
 * @since 0.1.0
 * @category schemas
 */
export const LenientNumber = Schema.optionalWith(Schema.JsonNumber, { nullable: true, default: () => 0 })

/**
 * A license plate with the state that issued it; the spec does not accept a plate alone.
 *
 * @example
 * import { Schema } from "effect"
 * import { Values } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Values.LicensePlate)({ licensePlate: "8ABC123", licensePlateState: "CA" })
 *
 * @since 0.1.0
 * @category schemas
 */
export const LicensePlate = Schema.Struct({
  licensePlate: Schema.String.pipe(
    Schema.filter((s) =>
      /^[A-Za-z0-9 -]{1,10}$/.test(s) ||
      `licensePlate must be 1 to 10 letters, digits, spaces or dashes, got ${JSON.stringify(s)}`
    )
  ),
  licensePlateState: StateCode
}).annotations({ identifier: "LicensePlate" })
/** @since 0.1.0 */
export type LicensePlate = typeof LicensePlate.Type
