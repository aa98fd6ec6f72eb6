// The compiled response decoder answers exactly as Effect's own decoder: the same value (same key
// order) on valid input, the same error otherwise. Checked on every response schema of the API,
// from values of each schema encoded back to the wire, from arbitrary wire-side values, and from
// hand-made edge cases (nulls, missing and extra keys, numbers as strings).
import { describe, expect, it } from "@effect/vitest"
import { Decoder, Envelope, Punchout, PunchoutApi } from "@shoplink/protocol"
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"

const { compiledDecoder, fastPathOf } = Decoder

// JSON with keys in their own order: equal only if values and key order are.
const ordered = (value: unknown): string => JSON.stringify(value, (_, v) => v)

const agree = (schema: Schema.Schema<any, any>, input: unknown) => {
  const reference = Schema.decodeUnknownEither(schema)(input)
  const compiled = compiledDecoder(schema)(input)
  expect(compiled._tag).toBe(reference._tag)
  if (Either.isRight(reference) && Either.isRight(compiled)) {
    expect(compiled.right).toStrictEqual(reference.right)
    expect(ordered(compiled.right)).toBe(ordered(reference.right))
  } else if (Either.isLeft(reference) && Either.isLeft(compiled)) {
    expect(compiled.left.message).toBe(reference.left.message)
  }
}

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
      fc.assert(fc.property(valid, (input) => {
        if (fast(input) !== undefined) fastRuns++
        agree(schema, input)
      }), { numRuns: 60 })
      // The fast path is exercised, not just the fallback.
      expect(fastRuns).toBeGreaterThan(0)
      const wire = Arbitrary.make(Schema.encodedSchema(schema))
      fc.assert(fc.property(wire, (input) => agree(schema, input)), { numRuns: 60 })
    })
  }
})

describe("compiledDecoder on schema shapes the protocol may grow into", () => {
  interface Tree {
    readonly name: string
    readonly children: ReadonlyArray<Tree>
  }
  const Tree: Schema.Schema<Tree> = Schema.Struct({
    name: Schema.String,
    children: Schema.Array(Schema.suspend(() => Tree))
  })
  class Point extends Schema.Class<Point>("Point")({ x: Schema.Number, y: Schema.optionalWith(Schema.Number, { default: () => 0 }) }) {}
  const shapes: Array<[string, Schema.Schema<any, any>, ReadonlyArray<unknown>]> = [
    ["parseOptions: preserve", Schema.Struct({ a: Schema.String }).annotations({ parseOptions: { onExcessProperty: "preserve" } }), [{ a: "x", b: 1 }, { a: 1 }]],
    ["tagged union", Schema.Union(Schema.Struct({ _tag: Schema.Literal("A"), n: Schema.Number }), Schema.Struct({ _tag: Schema.Literal("B"), s: Schema.String })), [{ _tag: "B", s: "x" }, { _tag: "A", n: 1 }, { _tag: "C" }, { n: 1 }]],
    ["decodingFallback in a union", Schema.Union(Schema.String.annotations({ decodingFallback: () => Either.right("fallback") }), Schema.Number), [1, "x", null]],
    ["recursive", Tree, [{ name: "a", children: [{ name: "b", children: [] }] }, { name: "a", children: [{ name: 1, children: [] }] }]],
    ["tuple with optional and rest", Schema.Tuple([Schema.String, Schema.optionalElement(Schema.Number)], Schema.Boolean), [["a"], ["a", 1, true, false], ["a", "b"], []]],
    ["class", Point, [{ x: 1 }, { x: 1, y: 2, z: 3 }, { x: "1" }]],
    ["date", Schema.Struct({ at: Schema.DateTimeUtc, n: Schema.NumberFromString }), [{ at: "2026-11-24T06:00:00Z", n: "2" }, { at: "no", n: "2" }, { at: "2026-11-24T06:00:00Z", n: "x" }]]
  ]
  for (const [name, schema, inputs] of shapes) {
    it(`agrees with Effect: ${name}`, () => {
      for (const input of inputs) agree(schema, input)
      fc.assert(fc.property(Arbitrary.make(schema).map((value) => Schema.encodeSync(schema)(value)), (input) => agree(schema, input)), { numRuns: 40 })
    })
  }
})
