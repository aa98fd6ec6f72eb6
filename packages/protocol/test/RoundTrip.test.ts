// Property test: every schema the package exports round-trips. The schemas are found by walking
// the public modules, so a new export without a working arbitrary (or with a lossy encode) fails
// here without anyone having to list it.
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, FastCheck, Schema } from "effect"
import * as Protocol from "../src/index.js"

const modules = {
  Envelope: Protocol.Envelope,
  Epoch: Protocol.Epoch,
  MessageCatalog: Protocol.MessageCatalog,
  MessageError: Protocol.MessageError,
  MessageErrors: Protocol.MessageErrors,
  OrderManagement: Protocol.OrderManagement,
  Punchout: Protocol.Punchout,
  Values: Protocol.Values,
  Vin: Protocol.Vin
} as const

// Modules whose values travel as JSON: their schemas must also survive JSON.stringify/parse.
// (The error classes are in-memory values; their optional fields may hold `undefined`.)
const wireModules: ReadonlySet<string> = new Set(["Envelope", "Epoch", "OrderManagement", "Punchout", "Values", "Vin"])

/** Exported schemas that truly cannot round-trip, each with the reason. Keep it small. */
const cannotRoundTrip: ReadonlyMap<string, string> = new Map()

type AnySchema = Schema.Schema<any, any, never>
const discovered = new Map<AnySchema, string>()
const discover = (name: string, value: unknown) => {
  if (Schema.isSchema(value) && !discovered.has(value as AnySchema)) discovered.set(value as AnySchema, name)
}
for (const [moduleName, module] of Object.entries(modules)) {
  for (const [exportName, value] of Object.entries(module)) discover(`${moduleName}.${exportName}`, value)
}
// Schemas exported only at the top level (the error classes are re-exported there too).
for (const [exportName, value] of Object.entries(Protocol)) discover(exportName, value)
const schemas = [...discovered].map(([schema, name]) => ({ name, schema }))

describe("round trip of every exported schema", () => {
  it("finds the exported schemas", () => {
    const names = new Set(schemas.map(({ name }) => name))
    for (
      const name of [
        "Punchout.CreateSessionRequest",
        "Punchout.SessionGranted",
        "Punchout.ShowCatalogQuery",
        "OrderManagement.CreateOrderResponse",
        "OrderManagement.DateFromYyyymmdd",
        "Envelope.StatusEnvelope",
        "Epoch.EpochSeconds",
        "Values.QuantityFromString",
        "Vin.Vin",
        "MessageErrors.OrderLocked",
        "MessageErrors.Unauthorized",
        "MessageError.UnknownMessage"
      ]
    ) expect(names).toContain(name)
    // ~70 error classes and ~60 wire schemas.
    expect(schemas.length).toBeGreaterThan(120)
  })

  it("keeps the allow-list honest: every entry names an exported schema", () => {
    const names = new Set(schemas.map(({ name }) => name))
    for (const name of cannotRoundTrip.keys()) expect(names).toContain(name)
  })

  describe.each(
    schemas.filter(({ name }) => !cannotRoundTrip.has(name)).map(({ name, schema }) => [name, schema] as const)
  )(
    "%s",
    (name, schema) => {
      const equivalent = Schema.equivalence(schema)
      const encode = Schema.encodeSync(schema)
      const decode = Schema.decodeUnknownSync(schema)

      it("decode(encode(a)) equals a", () => {
        FastCheck.assert(
          FastCheck.property(Arbitrary.make(schema), (a) => equivalent(decode(encode(a)), a)),
          { numRuns: 40 }
        )
      })

      if (wireModules.has(name.split(".")[0]!)) {
        it("survives JSON on the way", () => {
          FastCheck.assert(
            FastCheck.property(
              Arbitrary.make(schema),
              (a) => equivalent(decode(JSON.parse(JSON.stringify(encode(a)))), a)
            ),
            { numRuns: 40 }
          )
        })
      }
    }
  )
})
