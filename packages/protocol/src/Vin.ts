/**
 * Vehicle Identification Numbers: 17 characters from A–Z and 0–9 without I, O and Q, with a check
 * digit in position 9 computed per 49 CFR 565.15. A failed check digit is a warning, not a
 * rejection: some real VINs (older or imported vehicles) fail it.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

const TRANSLITERATION: Readonly<Record<string, number>> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
  "0": 0,
  "1": 1,
  "2": 2,
  "3": 3,
  "4": 4,
  "5": 5,
  "6": 6,
  "7": 7,
  "8": 8,
  "9": 9
}
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2] as const

/**
 * The characters a VIN may contain.
 *
 * @example
 * import { Vin } from "@shoplink/protocol"
 * Vin.VIN_ALPHABET.includes("I") // false
 *
 * @since 0.1.0
 */
export const VIN_ALPHABET = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"

/**
 * The first character that makes a string not VIN-shaped, with its 1-based position, or
 * `undefined` when the string is VIN-shaped (17 allowed characters).
 *
 * @example
 * import { Vin } from "@shoplink/protocol"
 * Vin.shapeProblem("1HGCM82633A00435I") // { reason: "character", position: 17, character: "I" }
 *
 * @since 0.1.0
 */
export const shapeProblem = (
  vin: string
):
  | { readonly reason: "length"; readonly length: number }
  | { readonly reason: "character"; readonly position: number; readonly character: string }
  | undefined =>
{
  for (let i = 0; i < vin.length; i++) {
    const character = vin[i]!
    if (!VIN_ALPHABET.includes(character)) return { reason: "character", position: i + 1, character }
  }
  return vin.length === 17 ? undefined : { reason: "length", length: vin.length }
}

/**
 * The check digit (`0`–`9` or `X`) a VIN-shaped string should carry in position 9.
 *
 * @example
 * import { Vin } from "@shoplink/protocol"
 * Vin.expectedCheckDigit("1M8GDM9AXKP042788") // "X"
 *
 * @since 0.1.0
 */
export const expectedCheckDigit = (vin: string): string => {
  let sum = 0
  for (let i = 0; i < 17; i++) sum += (TRANSLITERATION[vin[i] ?? "0"] ?? 0) * WEIGHTS[i]!
  const remainder = sum % 11
  return remainder === 10 ? "X" : String(remainder)
}

/**
 * The warning-level result of the check digit test.
 *
 * @example
 * import { Vin } from "@shoplink/protocol"
 * const check: Vin.CheckDigitResult = Vin.checkDigit("1M8GDM9AXKP042788")
 *
 * @since 0.1.0
 */
export type CheckDigitResult =
  | { readonly _tag: "Valid" }
  | { readonly _tag: "CheckDigitMismatch"; readonly expected: string; readonly actual: string }

/**
 * Tests the check digit of a VIN-shaped string. A mismatch is a warning to show, not a reason to
 * refuse the VIN.
 *
 * @example
 * import { Vin } from "@shoplink/protocol"
 * Vin.checkDigit("1M8GDM9AXKP042788")._tag // "Valid"
 * Vin.checkDigit("1M8GDM9A1KP042788")._tag // "CheckDigitMismatch"
 *
 * @since 0.1.0
 */
export const checkDigit = (vin: string): CheckDigitResult => {
  const expected = expectedCheckDigit(vin)
  const actual = vin[8] ?? ""
  return expected === actual ? { _tag: "Valid" } : { _tag: "CheckDigitMismatch", expected, actual }
}

/**
 * Puts the right check digit into position 9 of a VIN-shaped string (for test data).
 *
 * @example
 * import { Vin } from "@shoplink/protocol"
 * Vin.withCheckDigit("1M8GDM9A0KP042788") // "1M8GDM9AXKP042788"
 *
 * @since 0.1.0
 */
export const withCheckDigit = (vin: string): string => `${vin.slice(0, 8)}${expectedCheckDigit(vin)}${vin.slice(9)}`

/**
 * A VIN: 17 characters from A–Z and 0–9 without I, O and Q. Lower case is upper-cased on decode.
 * The check digit is not enforced (see `checkDigit`).
 *
 * @example
 * import { Schema } from "effect"
 * import { Vin } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Vin.Vin)("1m8gdm9axkp042788") // "1M8GDM9AXKP042788"
 *
 * @since 0.1.0
 * @category schemas
 */
export const Vin = Schema.Uppercase.pipe(
  Schema.filter((vin) => {
    const problem = shapeProblem(vin)
    if (problem === undefined) return true
    return problem.reason === "length"
      ? `vin must be 17 characters, got ${problem.length}`
      : `vin has an invalid character "${problem.character}" at position ${problem.position} (A-Z and 0-9 without I, O, Q)`
  }),
  Schema.brand("Vin")
).annotations({
  identifier: "Vin",
  description: "17 characters from A-Z and 0-9 without I, O and Q",
  arbitrary: () => (fc) =>
    fc.array(fc.constantFrom(...VIN_ALPHABET), { minLength: 17, maxLength: 17 })
      .map((chars) => withCheckDigit(chars.join("")) as Vin)
})

/**
 * @since 0.1.0
 * @category schemas
 */
export type Vin = typeof Vin.Type
