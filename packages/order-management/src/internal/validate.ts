// Input checks before any request: schema rules from the protocol, and the invoice date rules.
import { Decoder, MessageCatalog, OrderManagement, Violation } from "@shoplink/protocol"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { DayInput } from "../OrderManagementClient.js"
import { InvalidInput } from "../OrderManagementError.js"

const { compiledDecoder, compiledEncoder, encodesToItself } = Decoder

const toInvalidInput = (operation: string) => (error: ParseResult.ParseError): InvalidInput => {
  const violation = Violation.first(error)
  const path = violation.path
  // A missing first element means an empty non-empty array: blame the array.
  const emptyArray = path.at(-1) === 0 && violation.rule === "is missing"
  const fieldPath = emptyArray ? path.slice(0, -1) : path
  const last = fieldPath.at(-1)
  // The message ID the server would answer for this field, from the catalogue's rows.
  const code = typeof last === "string" ? MessageCatalog.idForField(last) : undefined
  return new InvalidInput({
    operation,
    field: fieldPath.map(String).join("."),
    rule: emptyArray ? "must not be empty" : violation.rule,
    ...(code === undefined ? {} : { code })
  })
}

interface Codec {
  readonly decode: (u: unknown) => Either.Either<unknown, ParseResult.ParseError>
  readonly encode: (a: unknown) => Either.Either<unknown, ParseResult.ParseError>
}
const codecs = new WeakMap<object, Codec>()
// Built once per request schema, not per call: the compiled decoder (Effect's own for any input it
// does not accept, so the errors are Effect's), and no encoding at all when the schema has no
// transformation (the decoded value is then its own wire form), the compiled encoder otherwise.
const codecOf = <A, I>(schema: Schema.Schema<A, I>): Codec => {
  let codec = codecs.get(schema)
  if (codec === undefined) {
    codec = {
      decode: compiledDecoder(schema, { onExcessProperty: "error" }),
      encode: encodesToItself(schema) ? Either.right : compiledEncoder(schema) as Codec["encode"]
    }
    codecs.set(schema, codec)
  }
  return codec
}

/**
 * Validates a candidate wire value against a request schema and returns its encoded (wire) form.
 * Decoding checks every rule; encoding turns dates back into their wire spelling. An `Either`
 * (which is also an Effect), with the decoder and encoder built once per schema.
 */
export const toWire = <A, I>(
  operation: string,
  schema: Schema.Schema<A, I>,
  candidate: unknown
): Either.Either<{ readonly value: A; readonly wire: I }, InvalidInput> => {
  const codec = codecOf(schema)
  const decoded = codec.decode(candidate)
  if (Either.isLeft(decoded)) return Either.left(toInvalidInput(operation)(decoded.left))
  const encoded = codec.encode(decoded.right)
  if (Either.isLeft(encoded)) return Either.left(toInvalidInput(operation)(encoded.left))
  return Either.right({ value: decoded.right as A, wire: encoded.right as I })
}

/** The calendar day as `yyyymmdd`. */
export const dayOf = (input: DayInput): string => {
  if (input instanceof Date) {
    return Number.isNaN(input.getTime()) ? "" : OrderManagement.formatYyyymmdd(DateTime.unsafeMake(input))
  }
  const parts = DateTime.isZoned(input) ? DateTime.toParts(input) : DateTime.toPartsUtc(input)
  return `${String(parts.year).padStart(4, "0")}${String(parts.month).padStart(2, "0")}${
    String(parts.day).padStart(2, "0")
  }`
}

/** Today's UTC calendar day as `yyyymmdd`, from the Effect Clock. */
export const today: Effect.Effect<string> = Effect.map(DateTime.now, OrderManagement.formatYyyymmdd)

/**
 * invoiceDetails date rules, checked before sending (API0263–API0266): the protocol's
 * `invoiceDateProblem` against today's date on the Effect Clock.
 */
export const checkInvoiceDates = (input: {
  readonly invoiceNo?: string | undefined
  readonly fromDate?: string | undefined
  readonly toDate?: string | undefined
}): Effect.Effect<void, InvalidInput> =>
  Effect.flatMap(today, (now) => {
    const problem = OrderManagement.invoiceDateProblem(input, now)
    return problem === undefined
      ? Effect.void
      : Effect.fail(
        new InvalidInput({ operation: "invoiceDetails", field: problem.field, rule: problem.rule, code: problem.id })
      )
  })
