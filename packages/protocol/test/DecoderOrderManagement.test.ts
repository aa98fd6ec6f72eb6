// The compiled response decoder answers exactly as Effect's own decoder: the same value (same key
// order) on valid input, the same error otherwise. Checked on every response schema of the API,
// from values of each schema encoded back to the wire, from arbitrary wire-side values, and from
// hand-made edge cases (nulls, missing and extra keys, numbers as strings).
import { describe, expect, it } from "@effect/vitest"
import { Decoder, Envelope, OrderManagement, OrderManagementApi } from "@shoplink/protocol"
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import { agree, ordered } from "./fixtures/decoder.js"

const { compiledDecoder, encodesToItself, fastPathOf } = Decoder

const schemas: Array<[string, Schema.Schema<any, any>]> = [
  ["StatusEnvelope", Envelope.StatusEnvelope],
  ...OrderManagementApi.routes.map((route) => [route.name, route.success] as [string, Schema.Schema<any, any>])
]

const priced = {
  serverVersion: "1",
  status: { code: 200, message: { ID: "API0200", text: "Successful" } },
  items: [{
    productID: "51515",
    brandCode: "WIX",
    productDesc: null,
    quantityRequested: 2,
    price: 6.49,
    listPrice: null,
    corePrice: 0,
    brand: {
      ACABrandID: "BBDF",
      SERVICEBrandCode: "WIX",
      SERVICEBrandLogo: "logo",
      brandDescription: "Brand",
      brandLogoLevel1URL: ""
    },
    warehouses: [{ warehouseCode: "DAL", warehouseName: null, quantityAvailable: 14, deliveryDays: null, extra: true }]
  }]
}

describe("compiledDecoder", () => {
  it("takes the fast path on a valid response and decodes it as Effect does", () => {
    const schema = OrderManagement.PriceAndAvailabilityResponse
    expect(fastPathOf(schema)(priced)).toBeDefined()
    agree(schema, priced)
  })

  it("agrees with Effect on edge cases", () => {
    const schema = OrderManagement.PriceAndAvailabilityResponse
    const cases: Array<unknown> = [
      null,
      "text",
      [],
      {},
      { status: { code: "200", message: {} } },
      { status: { code: "abc", message: {} } },
      { status: { code: 200, message: { ID: null, text: null } }, items: null },
      { ...priced, items: [{ ...priced.items[0], price: "6.49" }] },
      { ...priced, items: [{ ...priced.items[0], price: Number.NaN }] },
      { ...priced, items: [{ ...priced.items[0], productID: 51515 }] },
      { ...priced, items: [{ ...priced.items[0], warehouses: [{}] }] },
      { ...priced, items: [{ ...priced.items[0], brand: undefined }] },
      { ...priced, referenceID: undefined }
    ]
    for (const input of cases) agree(schema, input)
  })

  for (const [name, schema] of schemas) {
    it(`agrees with Effect on ${name}: valid values encoded to the wire, and arbitrary wire values`, () => {
      const valid = Arbitrary.make(schema).map((value) => Schema.encodeSync(schema)(value))
      const fast = fastPathOf(schema)
      let fastRuns = 0
      fc.assert(
        fc.property(valid, (input) => {
          if (fast(input) !== undefined) fastRuns++
          agree(schema, input)
        }),
        { numRuns: 60 }
      )
      // The fast path is exercised, not just the fallback.
      expect(fastRuns).toBeGreaterThan(0)
      const wire = Arbitrary.make(Schema.encodedSchema(schema))
      fc.assert(fc.property(wire, (input) => agree(schema, input)), { numRuns: 60 })
    })
  }
})

// Requests are checked with `onExcessProperty: "error"`, and sent as decoded when the schema has no
// transformation (`encodesToItself`).
const requests: Array<[string, Schema.Schema<any, any>]> = [
  ["PriceAndAvailabilityRequest", OrderManagement.PriceAndAvailabilityRequest],
  ["CreateOrderRequest", OrderManagement.CreateOrderRequest],
  ["AccountDetailsRequest", OrderManagement.AccountDetailsRequest],
  ["OrderDetailsRequest", OrderManagement.OrderDetailsRequest],
  ["InvoiceDetailsRequest", OrderManagement.InvoiceDetailsRequest],
  ["ProductRef", OrderManagement.ProductRef],
  ["ProductSearch", OrderManagement.ProductSearch]
]

const agreeStrict = (schema: Schema.Schema<any, any>, input: unknown) => {
  const options = { onExcessProperty: "error" } as const
  const reference = Schema.decodeUnknownEither(schema, options)(input)
  const compiled = compiledDecoder(schema, options)(input)
  expect(compiled._tag).toBe(reference._tag)
  if (Either.isRight(reference) && Either.isRight(compiled)) {
    expect(ordered(compiled.right)).toBe(ordered(reference.right))
    if (encodesToItself(schema)) {
      expect(ordered(Schema.encodeSync(schema)(compiled.right))).toBe(ordered(compiled.right))
    }
  } else if (Either.isLeft(reference) && Either.isLeft(compiled)) {
    expect(compiled.left.message).toBe(reference.left.message)
  }
}

describe("compiledDecoder with onExcessProperty: error", () => {
  it("fails an undeclared key as Effect does, and accepts the declared ones", () => {
    const schema = OrderManagement.PriceAndAvailabilityRequest
    const valid = { customerAccountNo: "100200", items: [{ productID: "51515", brandCode: "WIX", quantity: 2 }] }
    expect(fastPathOf(schema, { onExcessProperty: "error" })(valid)).toBeDefined()
    expect(encodesToItself(schema)).toBe(true)
    for (
      const input of [
        valid,
        { ...valid, extra: 1 },
        { ...valid, items: [{ ...valid.items[0], extra: 1 }] },
        { ...valid, items: [] },
        { ...valid, items: [{ ...valid.items[0], quantity: 0 }] },
        { ...valid, customerAccountNo: " " },
        { ...valid, [Symbol.for("x")]: 1 }
      ]
    ) agreeStrict(schema, input)
  })

  for (const [name, schema] of requests) {
    it(`agrees with Effect on ${name}, with and without undeclared keys`, () => {
      const valid = Arbitrary.make(schema).map((value) => Schema.encodeSync(schema)(value))
      fc.assert(
        fc.property(
          valid,
          fc.boolean(),
          (input, extra) => agreeStrict(schema, extra ? { ...input, extra: true } : input)
        ),
        { numRuns: 60 }
      )
      const wire = Arbitrary.make(Schema.encodedSchema(schema))
      fc.assert(fc.property(wire, (input) => agreeStrict(schema, input)), { numRuns: 60 })
    })
  }
})
