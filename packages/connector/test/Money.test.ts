import { describe, expect, it } from "@effect/vitest"
import { Money } from "@shoplink/connector"

describe("Money.toCents", () => {
  it("converts without floating-point drift", () => {
    expect(0.29 * 100).not.toBe(29) // the drift this module exists for
    expect(Math.round(1.005 * 100)).toBe(100) // naive rounding loses the half cent
    expect(Money.toCents(0.29)).toBe(29)
    expect(Money.toCents(6.49)).toBe(649)
    expect(Money.toCents(0.1 + 0.2)).toBe(30)
    expect(Money.toCents(1.005)).toBe(101)
    expect(Money.toCents(123456.78)).toBe(12345678)
    expect(Money.toCents(0)).toBe(0)
  })

  it("rounds half away from zero at the third decimal", () => {
    expect(Money.toCents(19.995)).toBe(2000)
    expect(Money.toCents(19.994)).toBe(1999)
    expect(Money.toCents(-0.125)).toBe(-13)
    expect(Money.toCents(-0.001)).toBe(0)
  })

  it("refuses non-finite amounts", () => {
    expect(() => Money.toCents(Number.NaN)).toThrow(RangeError)
    expect(() => Money.toCents(Number.POSITIVE_INFINITY)).toThrow("not a finite amount")
  })

  it("formats cents back", () => {
    expect(Money.formatCents(649)).toBe("6.49")
    expect(Money.formatCents(5)).toBe("0.05")
    expect(Money.formatCents(-1999)).toBe("-19.99")
    for (const amount of [0.01, 6.49, 19.99, 1234.5]) {
      expect(Number(Money.formatCents(Money.toCents(amount)))).toBe(amount)
    }
  })
})
