// One-line messages for parse errors: the field, the rule, never the offending value in full.
import { describe, expect, it } from "@effect/vitest"
import { Either, type ParseResult, Redacted, Schema } from "effect"
import { Punchout, Violation } from "../src/index.js"

const refusal = <A, I>(schema: Schema.Schema<A, I>, input: unknown): ParseResult.ParseError => {
  const result = Schema.decodeUnknownEither(schema, { errors: "first", onExcessProperty: "error" })(input)
  if (Either.isRight(result)) throw new Error("expected a refusal")
  return result.left
}

const createSession = {
  apiKey: "vendor-key",
  apiToken: "",
  accountNo: "100200",
  username: "parts@mainstreet-auto.example",
  country: "US",
  smsVendorName: "Acme SMS",
  webhooks: { order: "https://sms.example/o", quote: "https://sms.example/q" }
}

describe("Violation", () => {
  it("an empty apiToken is one line naming the field and the rule, with the parts kept apart", () => {
    const violation = Violation.first(refusal(Punchout.CreateSessionRequest, createSession))
    expect(violation).toEqual({
      path: ["apiToken"],
      field: "apiToken",
      rule: "must not be empty",
      message: "apiToken must not be empty"
    })
    expect(Violation.format(refusal(Punchout.CreateSessionRequest, createSession))).not.toContain("\n")
  })

  it("nested fields carry their path; missing, unexpected and mistyped fields have their own rule", () => {
    const Line = Schema.Struct({ quantity: Schema.Number.pipe(Schema.positive()) })
    const Body = Schema.Struct({ lines: Schema.Array(Line) })
    expect(Violation.first(refusal(Body, { lines: [{ quantity: 1 }, { quantity: "two" }] }))).toMatchObject({
      field: "lines.1.quantity",
      message: "lines.1.quantity must be number, got \"two\""
    })
    expect(Violation.format(refusal(Body, {}))).toBe("lines is missing")
    expect(Violation.format(refusal(Body, { lines: [], extra: 1 }))).toBe("extra is unexpected, expected: \"lines\"")
    expect(Violation.format(refusal(Body, null))).toMatch(/^must be .*, got null$/)
    expect(Violation.format(refusal(Punchout.CreateSessionRequest, { ...createSession, apiToken: "t", country: "MX" })))
      .toBe("country must be one of \"US\", \"US QA\", \"CA\", \"CA QA\"")
  })

  it("never prints a huge or deeply nested value: the message stays short and nothing throws", () => {
    const deep = JSON.parse("[".repeat(100_000) + "]".repeat(100_000)) as unknown
    const huge = "x".repeat(200_000)
    const Body = Schema.Struct({ referenceID: Schema.String, note: Schema.optional(Schema.Number) })
    const nested = Violation.first(refusal(Body, { referenceID: deep }))
    expect(nested.message).toBe("referenceID must be string, got an array of 1")
    expect(Violation.format(refusal(Body, { referenceID: "r", note: huge }))).toBe(
      "note must be number, got a string of 200000 characters"
    )
    expect(Violation.format(refusal(Body, deep))).toMatch(/^must be .*, got an array of 1$/)
    const longRule = Schema.String.pipe(Schema.filter((s) => `is wrong: ${s}`))
    expect(Violation.format(refusal(longRule, huge)).length).toBeLessThanOrEqual(200)
  })

  it("a redacted field is named on encode too, its value never shown", () => {
    const input = { ...createSession, apiKey: Redacted.make("vendor-key"), apiToken: Redacted.make(" secret ") }
    const result = Schema.encodeUnknownEither(Punchout.CreateSessionRequest)({ ...input, apiToken: Redacted.make(" ") })
    if (Either.isRight(result)) throw new Error("expected a refusal")
    expect(Violation.format(result.left)).toBe("apiToken must not be empty")
    expect(Violation.format(refusal(Punchout.CreateSessionRequest, { ...createSession, apiToken: 42 }))).toBe(
      "apiToken must be string, got a number"
    )
  })
})
