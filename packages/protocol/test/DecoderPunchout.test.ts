// The compiled response decoder answers exactly as Effect's own decoder: the same value (same key
// order) on valid input, the same error otherwise. Checked on every response schema of the API,
// from values of each schema encoded back to the wire, from arbitrary wire-side values, and from
// hand-made edge cases (nulls, missing and extra keys, numbers as strings).
import { describe, expect, it } from "@effect/vitest"
import { Decoder, Envelope, Punchout, PunchoutApi } from "@shoplink/protocol"
import { Arbitrary, FastCheck as fc, Schema } from "effect"
import { agree } from "./fixtures/decoder.js"

const { fastPathOf } = Decoder

const schemas: Array<[string, Schema.Schema<any, any>]> = [
  ["StatusEnvelope", Envelope.StatusEnvelope],
  ...PunchoutApi.routes.map((route) => [route.name, route.success] as [string, Schema.Schema<any, any>])
]

// A GetProductQuotes answer as the sandbox writes it, and one with the nulls a real server may send.
const schema = Punchout.GetProductQuotesResponse
const validQuotes = Schema.encodeSync(schema)(fc.sample(Arbitrary.make(schema), { numRuns: 1, seed: 18 })[0]!)

describe("compiledDecoder", () => {
  it("takes the fast path on a valid response and decodes it as Effect does", () => {
    expect(fastPathOf(schema)(validQuotes)).toBeDefined()
    agree(schema, validQuotes)
  })

  it("agrees with Effect on edge cases", () => {
    const cases: Array<unknown> = [
      null,
      "text",
      [],
      {},
      { status: { code: "200", message: {} } },
      { status: { code: "abc", message: {} } },
      { status: { code: 200, message: { ID: null, text: null } }, quotes: null },
      { status: { code: 200, message: {} }, quotes: [{}] },
      { status: { code: 200, message: {} }, quotes: [null] },
      { ...(validQuotes as object), referenceID: undefined, extra: 1 }
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
