// The compiled encoder (issue #29) answers exactly as Effect's own encoder: on values of the type
// (generated from each request schema), on those values with an extra key, and on anything at all.
import { describe, expect, it } from "@effect/vitest"
import { Decoder, OrderManagement, Punchout } from "@shoplink/protocol"
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import { ordered } from "./fixtures/decoder.js"

const { compiledEncoder, encodeFastPathOf } = Decoder

const agreeEncode = (schema: Schema.Schema<any, any>, input: unknown, options?: Decoder.CompileOptions) => {
  const reference = Schema.encodeUnknownEither(schema, options ?? {})(input)
  const compiled = compiledEncoder(schema, options)(input)
  expect(compiled._tag).toBe(reference._tag)
  if (Either.isRight(reference) && Either.isRight(compiled)) {
    expect(compiled.right).toStrictEqual(reference.right)
    expect(ordered(compiled.right)).toBe(ordered(reference.right))
  } else if (Either.isLeft(reference) && Either.isLeft(compiled)) {
    expect(compiled.left.message).toBe(reference.left.message)
  }
}

const requests: ReadonlyArray<[string, Schema.Schema<any, any>]> = [
  ["Punchout.CreateSessionRequest", Punchout.CreateSessionRequest],
  ["Punchout.GetProductQuotesRequest", Punchout.GetProductQuotesRequest],
  ["Punchout.CreateOrderSingle", Punchout.CreateOrderSingle],
  ["Punchout.CreateOrderMultiple", Punchout.CreateOrderMultiple],
  ["Punchout.CreateOrderRequest", Punchout.CreateOrderRequest],
  ["Punchout.SubmitOrderRequest", Punchout.SubmitOrderRequest],
  ["Punchout.ReserveOrderRequest", Punchout.ReserveOrderRequest],
  ["OrderManagement.AccountDetailsRequest", OrderManagement.AccountDetailsRequest],
  ["OrderManagement.CreateOrderRequest", OrderManagement.CreateOrderRequest],
  ["OrderManagement.InvoiceDetailsRequest", OrderManagement.InvoiceDetailsRequest],
  ["OrderManagement.OrderDetailsRequest", OrderManagement.OrderDetailsRequest],
  ["OrderManagement.PriceAndAvailabilityRequest", OrderManagement.PriceAndAvailabilityRequest],
  ["OrderManagement.ProductRef", OrderManagement.ProductRef],
  ["OrderManagement.ProductSearch", OrderManagement.ProductSearch]
]

describe("compiledEncoder agrees with Schema.encodeUnknownEither", () => {
  for (const [name, schema] of requests) {
    it(`${name}: values of the type, with an extra key, and anything`, () => {
      const values = Arbitrary.make(schema)
      for (const options of [undefined, { onExcessProperty: "error" as const }]) {
        fc.assert(fc.property(values, (value) => agreeEncode(schema, value, options)), { numRuns: 150 })
        fc.assert(
          fc.property(
            values,
            fc.string(),
            fc.anything(),
            (value, key, extra) =>
              agreeEncode(
                schema,
                typeof value === "object" && value !== null ? { ...value, [key]: extra } : value,
                options
              )
          ),
          { numRuns: 60 }
        )
        fc.assert(fc.property(fc.anything(), (input) => agreeEncode(schema, input, options)), { numRuns: 60 })
      }
    })
  }

  it("takes the fast path on valid request bodies (no detour through Effect's encoder)", () => {
    const quotes = encodeFastPathOf(Punchout.GetProductQuotesRequest, { onExcessProperty: "error" })
    expect(quotes({ productID: "51515", brandID: "WIX", quantity: 2 })).toEqual({
      value: { productID: "51515", brandID: "WIX", quantity: "2" }
    })
    const prices = encodeFastPathOf(OrderManagement.PriceAndAvailabilityRequest, { onExcessProperty: "error" })
    const request = { customerAccountNo: "100200", items: [{ productID: "51515", brandCode: "WIX", quantity: 2 }] }
    expect(prices(request)?.value).toEqual(
      Schema.encodeUnknownSync(OrderManagement.PriceAndAvailabilityRequest)(request)
    )
    expect(quotes({ productID: "51515", quantity: 0 })).toBeUndefined()
  })

  it("on shapes beyond today's protocol: transformations inside refinements, unions, arrays, suspend", () => {
    interface Tree {
      readonly n: number
      readonly children: ReadonlyArray<Tree>
    }
    interface TreeEncoded {
      readonly n: string
      readonly children: ReadonlyArray<TreeEncoded>
    }
    const Tree: Schema.Schema<Tree, TreeEncoded> = Schema.Struct({
      n: Schema.NumberFromString,
      children: Schema.Array(Schema.suspend((): Schema.Schema<Tree, TreeEncoded> => Tree))
    })
    const shapes: ReadonlyArray<Schema.Schema<any, any>> = [
      Tree,
      Schema.Struct({ n: Schema.NumberFromString.pipe(Schema.positive()) }),
      Schema.Union(Schema.NumberFromString, Schema.Boolean),
      Schema.Struct({ at: Schema.DateTimeUtc, day: Schema.optional(Schema.Date) }),
      Schema.Struct({ a: Schema.optionalWith(Schema.NumberFromString, { default: () => 1 }) }),
      Schema.Tuple(Schema.NumberFromString, Schema.String)
    ]
    for (const schema of shapes) {
      fc.assert(fc.property(Arbitrary.make(schema), (value) => agreeEncode(schema, value)), { numRuns: 60 })
      fc.assert(fc.property(fc.anything(), (input) => agreeEncode(schema, input)), { numRuns: 30 })
    }
  })
})
