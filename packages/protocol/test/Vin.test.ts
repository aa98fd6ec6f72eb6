import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck, Schema } from "effect"
import { Vin } from "../src/index.js"

// Check digits verified by hand with the 49 CFR 565.15 table (transliteration × position weight,
// sum mod 11, 10 → "X").
const validVins = ["1M8GDM9AXKP042788", "11111111111111111", "1HGCM82633A004352", "JH4KA7561PC008269"]
// Real-looking VINs whose 9th character is not the computed check digit.
const mismatches = [
  { vin: "1M8GDM9A1KP042788", expected: "X", actual: "1" },
  { vin: "1G1YY22G965104408", expected: "5", actual: "9" },
  { vin: "5YJSA1E14HF000001", expected: "8", actual: "4" }
]

describe("VIN check digit (49 CFR 565)", () => {
  it.each(validVins)("%s is valid", (vin) => {
    expect(Vin.expectedCheckDigit(vin)).toBe(vin[8])
    expect(Vin.checkDigit(vin)).toEqual({ _tag: "Valid" })
    expect(Either.isRight(Schema.decodeUnknownEither(Vin.Vin)(vin))).toBe(true)
  })

  it.each(mismatches)(
    "$vin: CheckDigitMismatch (expected $expected), yet the Vin schema accepts it",
    ({ actual, expected, vin }) => {
      expect(Vin.checkDigit(vin)).toEqual({ _tag: "CheckDigitMismatch", expected, actual })
      expect(Schema.decodeUnknownSync(Vin.Vin)(vin)).toBe(vin)
    }
  )

  it("withCheckDigit repairs position 9 only", () => {
    expect(Vin.withCheckDigit("1M8GDM9A0KP042788")).toBe("1M8GDM9AXKP042788")
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(Vin.Vin), (vin) => {
        const broken = `${vin.slice(0, 8)}${vin[8] === "0" ? "1" : "0"}${vin.slice(9)}`
        return Vin.checkDigit(broken)._tag === "CheckDigitMismatch" && Vin.withCheckDigit(broken) === vin
      })
    )
  })

  it("the alphabet has no I, O or Q", () => {
    expect(Vin.VIN_ALPHABET).toHaveLength(33)
    for (const letter of ["I", "O", "Q"]) expect(Vin.VIN_ALPHABET).not.toContain(letter)
  })
})

describe("VIN shape", () => {
  it.each(
    [
      ["I", "IM8GDM9AXKP042788", 1],
      ["O", "1M8GDM9AXKPO42788", 12],
      ["Q", "1M8GDM9AXKP04278Q", 17]
    ] as const
  )("refuses %s with its position", (character, vin, position) => {
    expect(Vin.shapeProblem(vin)).toEqual({ reason: "character", position, character })
    const result = Schema.decodeUnknownEither(Vin.Vin)(vin)
    expect(Either.isLeft(result) && String(result.left)).toContain(`"${character}" at position ${position}`)
  })

  it.each([0, 16, 18])("refuses length %i", (length) => {
    const vin = "1M8GDM9AXKP042788000".slice(0, length)
    expect(Vin.shapeProblem(vin)).toEqual({ reason: "length", length })
    const result = Schema.decodeUnknownEither(Vin.Vin)(vin)
    expect(Either.isLeft(result) && String(result.left)).toContain(`vin must be 17 characters, got ${length}`)
  })

  it("upper-cases on decode", () => {
    expect(Schema.decodeUnknownSync(Vin.Vin)("1hgcm82633a004352")).toBe("1HGCM82633A004352")
  })
})
