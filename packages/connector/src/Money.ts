/**
 * Exact money conversion: the distributor sends prices as decimal numbers (6.49); shop systems keep
 * integer cents. Converting through the number's shortest decimal string avoids binary
 * floating-point drift (0.29 * 100 is 28.999999999999996, and Math.round(1.005 * 100) is 100).
 *
 * @since 0.1.0
 */

/**
 * Converts a decimal amount to integer cents, rounding half away from zero at the third decimal
 * place (0.125 → 13, -0.125 → -13). Throws a `RangeError` for a non-finite amount.
 *
 * @example
 * import { Money } from "@shoplink/connector"
 * Money.toCents(6.49) // 649
 * Money.toCents(0.1 + 0.2) // 30
 * Money.toCents(19.995) // 2000
 *
 * @since 0.1.0
 */
export const toCents = (amount: number): number => {
  if (!Number.isFinite(amount)) throw new RangeError(`not a finite amount: ${amount}`)
  const negative = amount < 0
  // toFixed(10) removes representation noise (0.1 + 0.2 = 0.30000000000000004) before rounding.
  const [whole, fraction = ""] = Math.abs(amount).toFixed(10).split(".")
  const digits = fraction.padEnd(3, "0")
  let cents = Number(whole) * 100 + Number(digits.slice(0, 2))
  if (Number(digits[2]) >= 5) cents += 1
  return negative && cents !== 0 ? -cents : cents
}

/**
 * Formats integer cents as a decimal string with two places.
 *
 * @example
 * import { Money } from "@shoplink/connector"
 * Money.formatCents(649) // "6.49"
 * Money.formatCents(-5) // "-0.05"
 *
 * @since 0.1.0
 */
export const formatCents = (cents: number): string => {
  const sign = cents < 0 ? "-" : ""
  const abs = Math.abs(cents)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`
}
