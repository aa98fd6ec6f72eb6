// The protocol rules the clients and the sandbox share: the invoiceDetails date rules, the order
// quantity maximum, what an order's status forbids, and the country list.
import { describe, expect, it } from "@effect/vitest"
import { FastCheck, Schema } from "effect"
import { OrderManagement, OrderRules, Values } from "../src/index.js"

describe("OrderManagement.invoiceDateProblem", () => {
  const today = "20261121"
  const check = (query: { invoiceNo?: string; fromDate?: string; toDate?: string }) =>
    OrderManagement.invoiceDateProblem(query, today)

  it("both dates without an invoice number (API0266), blaming the missing one", () => {
    const rule = "is required: both fromDate and toDate must be provided if invoiceNo is not provided"
    expect(check({})).toEqual({ id: "API0266", field: "fromDate", rule })
    expect(check({ fromDate: "20261101" })).toEqual({ id: "API0266", field: "toDate", rule })
    expect(check({ toDate: "20261101" })).toEqual({ id: "API0266", field: "fromDate", rule })
    expect(check({ fromDate: "", toDate: "20261101" })).toEqual({ id: "API0266", field: "fromDate", rule })
    expect(check({ invoiceNo: "INV-1" })).toBeUndefined()
  })

  it("no date later than today (API0263, API0264), then fromDate ≤ toDate (API0265)", () => {
    expect(check({ fromDate: "20261122", toDate: "20261122" })).toEqual({
      id: "API0263",
      field: "fromDate",
      rule: "must not be later than today (20261121)"
    })
    expect(check({ fromDate: "20261101", toDate: "20261122" })).toEqual({
      id: "API0264",
      field: "toDate",
      rule: "must not be later than today (20261121)"
    })
    expect(check({ fromDate: "20261120", toDate: "20261110" })).toEqual({
      id: "API0265",
      field: "fromDate",
      rule: "cannot be greater than toDate"
    })
    expect(check({ fromDate: "20261101", toDate: "20261121" })).toBeUndefined()
    expect(check({ fromDate: "20261121", toDate: "20261121" })).toBeUndefined()
    // With an invoice number the dates are optional, but any given must still hold.
    expect(check({ invoiceNo: "INV-1", toDate: "20261122" })?.id).toBe("API0264")
  })

  it("a malformed or impossible date is the date's message", () => {
    expect(check({ fromDate: "2026-11-01", toDate: "20261101" })).toMatchObject({
      id: "API0263",
      field: "fromDate",
      rule: "must be a date as yyyymmdd, got \"2026-11-01\""
    })
    expect(check({ fromDate: "20261101", toDate: "20260230" })).toMatchObject({ id: "API0264", field: "toDate" })
  })

  // The rules as the sandbox and the client each wrote them before they moved here.
  const sandboxBefore = (from: string, to: string, now: number): string | undefined => {
    if (from === "" || to === "") return "API0266"
    const fromDate = OrderManagement.parseYyyymmdd(from)
    if (fromDate === undefined || fromDate.epochMillis > now) return "API0263"
    const toDate = OrderManagement.parseYyyymmdd(to)
    if (toDate === undefined || toDate.epochMillis > now) return "API0264"
    if (fromDate.epochMillis > toDate.epochMillis) return "API0265"
    return undefined
  }
  const clientBefore = (
    input: { invoiceNo?: string; fromDate?: string; toDate?: string },
    now: string
  ): string | undefined => {
    const { fromDate, invoiceNo, toDate } = input
    if (invoiceNo === undefined && (fromDate === undefined || toDate === undefined)) return "API0266"
    if (fromDate !== undefined && fromDate > now) return "API0263"
    if (toDate !== undefined && toDate > now) return "API0264"
    if (fromDate !== undefined && toDate !== undefined && fromDate > toDate) return "API0265"
    return undefined
  }
  const dayOf = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10).replaceAll("-", "")

  it("agrees with the sandbox's and the client's former checks", () => {
    const anyDay = FastCheck.integer({ min: 20_400, max: 20_500 })
    FastCheck.assert(
      FastCheck.property(
        FastCheck.option(FastCheck.oneof(anyDay.map(dayOf), FastCheck.constantFrom("", "2026-11-01", "20260230"))),
        FastCheck.option(FastCheck.oneof(anyDay.map(dayOf), FastCheck.constantFrom("", "20261301"))),
        anyDay,
        FastCheck.integer({ min: 0, max: 86_399_999 }),
        (from, to, todayNumber, millis) => {
          const now = todayNumber * 86_400_000 + millis
          const problem = OrderManagement.invoiceDateProblem(
            { fromDate: from ?? undefined, toDate: to ?? undefined },
            dayOf(todayNumber)
          )
          expect(problem?.id).toBe(sandboxBefore(from ?? "", to ?? "", now))
        }
      ),
      { numRuns: 500 }
    )
    FastCheck.assert(
      FastCheck.property(
        FastCheck.option(FastCheck.constant("INV-1"), { nil: undefined }),
        FastCheck.option(anyDay.map(dayOf), { nil: undefined }),
        FastCheck.option(anyDay.map(dayOf), { nil: undefined }),
        anyDay,
        (invoiceNo, fromDate, toDate, todayNumber) => {
          const input = {
            ...(invoiceNo === undefined ? {} : { invoiceNo }),
            ...(fromDate === undefined ? {} : { fromDate }),
            ...(toDate === undefined ? {} : { toDate })
          }
          expect(OrderManagement.invoiceDateProblem(input, dayOf(todayNumber))?.id).toBe(
            clientBefore(input, dayOf(todayNumber))
          )
        }
      ),
      { numRuns: 500 }
    )
  })
})

describe("OrderRules", () => {
  it("the order quantity maximum (API0235): 999 in total", () => {
    expect(OrderRules.MAX_ORDER_QUANTITY).toBe(999)
    expect(OrderRules.exceedsMaxQuantity([{ quantity: 999 }])).toBe(false)
    expect(OrderRules.exceedsMaxQuantity([{ quantity: 1000 }])).toBe(true)
    expect(OrderRules.exceedsMaxQuantity([{ quantity: 500 }, { quantity: 500 }])).toBe(true)
    expect(OrderRules.exceedsMaxQuantity([])).toBe(false)
  })

  it("what each status forbids", () => {
    const statuses = [undefined, "API0200", "API0282", "API0283", "API0284", "API0285", "API0286"] as const
    const table = Object.fromEntries(
      (["submit", "change", "delete"] as const).map((
        action
      ) => [action, statuses.map((status) => OrderRules.refusal(action, status) ?? "-")])
    )
    expect(table).toEqual({
      submit: ["-", "-", "API0272", "API0247", "API0268", "API0268", "API0268"],
      change: ["-", "-", "-", "API0247", "API0268", "API0268", "API0268"],
      delete: ["-", "-", "-", "API0257", "API0257", "API0257", "API0257"]
    })
  })
})

describe("Values: the country list", () => {
  it("COUNTRIES is what Country accepts, in the spec's order", () => {
    expect(Values.COUNTRIES).toEqual(["US", "US QA", "CA", "CA QA"])
    for (const country of Values.COUNTRIES) expect(Schema.decodeUnknownSync(Values.Country)(country)).toBe(country)
    expect(Values.isCountry("CA QA")).toBe(true)
    expect(Values.isCountry("MX")).toBe(false)
    expect(Values.isCountry(undefined)).toBe(false)
  })

  it("countryCodeOf: the QA variants are their country's", () => {
    expect(Values.COUNTRIES.map(Values.countryCodeOf)).toEqual(["US", "US", "CA", "CA"])
  })
})
