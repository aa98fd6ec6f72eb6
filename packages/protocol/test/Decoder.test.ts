// The compiled decoder on schema shapes beyond today's protocol: it must answer as Effect does there
// too (or hand the node to Effect's parser).
import { describe, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import { agree } from "./fixtures/decoder.js"

describe("compiledDecoder on schema shapes the protocol may grow into", () => {
  interface Tree {
    readonly name: string
    readonly children: ReadonlyArray<Tree>
  }
  const Tree: Schema.Schema<Tree> = Schema.Struct({
    name: Schema.String,
    children: Schema.Array(Schema.suspend(() => Tree))
  })
  class Point extends Schema.Class<Point>("Point")({
    x: Schema.Number,
    y: Schema.optionalWith(Schema.Number, { default: () => 0 })
  }) {}
  const shapes: Array<[string, Schema.Schema<any, any>, ReadonlyArray<unknown>]> = [
    [
      "parseOptions: preserve",
      Schema.Struct({ a: Schema.String }).annotations({ parseOptions: { onExcessProperty: "preserve" } }),
      [{ a: "x", b: 1 }, { a: 1 }]
    ],
    [
      "tagged union",
      Schema.Union(
        Schema.Struct({ _tag: Schema.Literal("A"), n: Schema.Number }),
        Schema.Struct({ _tag: Schema.Literal("B"), s: Schema.String })
      ),
      [{ _tag: "B", s: "x" }, { _tag: "A", n: 1 }, { _tag: "C" }, { n: 1 }]
    ],
    [
      "decodingFallback in a union",
      Schema.Union(Schema.String.annotations({ decodingFallback: () => Either.right("fallback") }), Schema.Number),
      [1, "x", null]
    ],
    ["recursive", Tree, [{ name: "a", children: [{ name: "b", children: [] }] }, {
      name: "a",
      children: [{ name: 1, children: [] }]
    }]],
    [
      "tuple with optional and rest",
      Schema.Tuple([Schema.String, Schema.optionalElement(Schema.Number)], Schema.Boolean),
      [["a"], ["a", 1, true, false], ["a", "b"], []]
    ],
    ["class", Point, [{ x: 1 }, { x: 1, y: 2, z: 3 }, { x: "1" }]],
    ["date", Schema.Struct({ at: Schema.DateTimeUtc, n: Schema.NumberFromString }), [
      { at: "2026-11-24T06:00:00Z", n: "2" },
      { at: "no", n: "2" },
      { at: "2026-11-24T06:00:00Z", n: "x" }
    ]]
  ]
  for (const [name, schema, inputs] of shapes) {
    it(`agrees with Effect: ${name}`, () => {
      for (const input of inputs) agree(schema, input)
      fc.assert(
        fc.property(
          Arbitrary.make(schema).map((value) => Schema.encodeSync(schema)(value)),
          (input) => agree(schema, input)
        ),
        { numRuns: 40 }
      )
    })
  }
})
