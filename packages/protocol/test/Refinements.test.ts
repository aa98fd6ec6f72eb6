// Bad inputs to each refinement give an error whose message names the field and the rule.
import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import { OrderManagement, Punchout, Values, Vin } from "../src/index.js"

const failureOf = (schema: Schema.Schema<any, any, never>, input: unknown): string => {
  const result = Schema.decodeUnknownEither(schema)(input)
  if (Either.isRight(result)) throw new Error(`expected ${JSON.stringify(input)} to be refused`)
  const formatted = ParseResult.TreeFormatter.formatErrorSync(result.left)
  // String(parseError) is what logs show; it must say the same thing.
  expect(String(result.left)).toBe(formatted)
  return formatted
}

const accepts = (schema: Schema.Schema<any, any, never>, input: unknown) =>
  expect(Either.isRight(Schema.decodeUnknownEither(schema)(input))).toBe(true)

interface Case {
  readonly input: unknown
  readonly says: ReadonlyArray<string | RegExp>
}

const table = (
  name: string,
  schema: Schema.Schema<any, any, never>,
  good: ReadonlyArray<unknown>,
  bad: ReadonlyArray<Case>
) =>
  describe(name, () => {
    it.each(good.map((input) => [JSON.stringify(input), input] as const))("accepts %s", (_, input) =>
      accepts(schema, input))
    it.each(bad.map((c) =>
      [JSON.stringify(c.input), c] as const
    ))("refuses %s", (_, c) => {
      const message = failureOf(schema, c.input)
      for (const expected of c.says) {
        if (typeof expected === "string") expect(message).toContain(expected)
        else expect(message).toMatch(expected)
      }
    })
  })

const reserve = (fields: object) => ({ orderID: "10423", ...fields })

table("ReserveOrderId (ReserveOrder orderID)", Punchout.ReserveOrderRequest, [
  reserve({}),
  reserve({ orderID: "1" }),
  reserve({ orderID: "99999999" })
], [
  { input: reserve({ orderID: "0" }), says: ["[\"orderID\"]", "non-zero integer of 1 to 8 digits", "\"0\""] },
  { input: reserve({ orderID: "00000000" }), says: ["orderID", "non-zero"] },
  { input: reserve({ orderID: "123456789" }), says: ["orderID", "1 to 8 digits"] },
  { input: reserve({ orderID: "12a" }), says: ["orderID", "integer"] },
  { input: reserve({ orderID: "-5" }), says: ["orderID", "integer"] },
  { input: reserve({ orderID: "" }), says: ["orderID", "1 to 8 digits"] }
])

table("OrderComment (ReserveOrder comment)", Punchout.ReserveOrderRequest, [
  reserve({ comment: "P" }),
  reserve({ comment: "x".repeat(20) })
], [
  { input: reserve({ comment: "" }), says: ["[\"comment\"]", "1 to 20 characters", "got 0"] },
  { input: reserve({ comment: "x".repeat(21) }), says: ["comment", "1 to 20 characters", "got 21"] }
])

table("SearchText", Values.SearchText, ["abc", "brake pads"], [
  { input: "ab", says: ["searchText", "3 or more characters", "got 2"] },
  { input: "  a  ", says: ["searchText", "3 or more characters"] },
  { input: "", says: ["searchText", "3 or more characters"] }
])

table("BrandCode (SERVICEBrandCode)", OrderManagement.BrandInformation, [
  { ACABrandID: "BBDF", SERVICEBrandCode: "WI" },
  { ACABrandID: "BBDF", SERVICEBrandCode: "WIX" }
], [
  {
    input: { ACABrandID: "BBDF", SERVICEBrandCode: "W" },
    says: ["[\"SERVICEBrandCode\"]", "brand code must be 2 to 3 letters or digits"]
  },
  { input: { ACABrandID: "BBDF", SERVICEBrandCode: "WIXX" }, says: ["SERVICEBrandCode", "2 to 3"] },
  { input: { ACABrandID: "BBDF", SERVICEBrandCode: "W-X" }, says: ["SERVICEBrandCode", "letters or digits"] }
])

table("StateCode (licensePlateState)", Values.LicensePlate, [
  { licensePlate: "8ABC123", licensePlateState: "CA" }
], [
  {
    input: { licensePlate: "8ABC123", licensePlateState: "ca" },
    says: ["[\"licensePlateState\"]", "two-letter upper-case"]
  },
  { input: { licensePlate: "8ABC123", licensePlateState: "CAL" }, says: ["licensePlateState", "two-letter"] },
  { input: { licensePlate: "8ABC123" }, says: ["[\"licensePlateState\"]", "is missing"] }
])

table("LicensePlate", Values.LicensePlate, [{ licensePlate: "ABC 12-3", licensePlateState: "TX" }], [
  {
    input: { licensePlate: "", licensePlateState: "TX" },
    says: ["[\"licensePlate\"]", "1 to 10 letters, digits, spaces or dashes"]
  },
  { input: { licensePlate: "ABC!23", licensePlateState: "TX" }, says: ["licensePlate", "letters, digits"] },
  { input: { licensePlate: "ABCDEFGHIJK", licensePlateState: "TX" }, says: ["licensePlate", "1 to 10"] }
])

const createSession = (fields: object) => ({
  apiKey: "k",
  apiToken: "t",
  accountNo: "100200",
  username: "parts@shop.example",
  country: "US",
  smsVendorName: "Acme",
  webhooks: { order: "https://sms.example/o", quote: "https://sms.example/q" },
  ...fields
})

table("Country", Punchout.CreateSessionRequest, [
  createSession({ country: "US" }),
  createSession({ country: "US QA" }),
  createSession({ country: "CA" }),
  createSession({ country: "CA QA" })
], [
  {
    input: createSession({ country: "MX" }),
    says: ["[\"country\"]", "country must be one of \"US\", \"US QA\", \"CA\", \"CA QA\""]
  },
  { input: createSession({ country: "us" }), says: ["country", "one of"] },
  { input: createSession({ country: "USQA" }), says: ["country", "one of"] }
])

table("HttpUrl (session webhooks)", Punchout.CreateSessionRequest, [
  createSession({
    webhooks: { order: "http://localhost:8080/o", quote: "https://sms.example/q", callback: "https://sms.example/c" }
  })
], [
  {
    input: createSession({ webhooks: { order: "ftp://sms.example/o", quote: "https://sms.example/q" } }),
    says: ["[\"webhooks\"]", "[\"order\"]", "must be an http(s) URL", "ftp://sms.example/o"]
  },
  {
    input: createSession({ webhooks: { order: "https://sms.example/o", quote: "/hooks/quote" } }),
    says: ["[\"quote\"]", "must be an absolute http(s) URL"]
  },
  {
    input: createSession({
      webhooks: { order: "https://sms.example/o", quote: "https://sms.example/q", callback: "javascript:alert(1)" }
    }),
    says: ["[\"callback\"]", "http(s) URL"]
  }
])

const quotes = (quantity: unknown) => ({ productID: "51515", brandID: "WIX", quantity })

table("QuantityFromString (GetProductQuotes quantity)", Punchout.GetProductQuotesRequest, [quotes("1"), quotes(3)], [
  { input: quotes("0"), says: ["[\"quantity\"]", "quantity must be a positive whole number", "got 0"] },
  { input: quotes("-2"), says: ["quantity", "positive whole number"] },
  { input: quotes("1.5"), says: ["quantity", "whole number"] },
  { input: quotes("two"), says: ["quantity", "Unable to decode \"two\" into a number"] }
])

table("Quantity (CreateOrder quotes[].quantity)", Punchout.CreateOrderMultiple, [
  { quotes: [{ productID: "51515", brandID: "WIX", quantity: 1 }] }
], [
  {
    input: { quotes: [{ productID: "51515", brandID: "WIX", quantity: 0 }] },
    says: ["[\"quotes\"]", "[0]", "[\"quantity\"]", "positive whole number"]
  },
  { input: { quotes: [] }, says: ["[\"quotes\"]", /Expected|element|\[\]/] }
])

table("Vin shape", Vin.Vin, ["1M8GDM9AXKP042788", "1m8gdm9axkp042788"], [
  { input: "1M8GDM9AXKP04278", says: ["vin must be 17 characters", "got 16"] },
  { input: "1M8GDM9AXKP0427888", says: ["vin must be 17 characters", "got 18"] },
  { input: "IM8GDM9AXKP042788", says: ["invalid character \"I\" at position 1"] },
  { input: "1M8GDM9AXKP0O2788", says: ["invalid character \"O\" at position 13"] },
  { input: "1M8GDM9AXKP04278Q", says: ["invalid character \"Q\" at position 17"] },
  { input: "1M8GDM9AXKP0427-8", says: ["invalid character \"-\" at position 16"] }
])

const catalog = (fields: object) => ({ token: "0f9c", ...fields })

table("ShowCatalog rules", Punchout.ShowCatalogQuery, [
  catalog({}),
  catalog({ searchTerm: "brake pads", vin: "1M8GDM9AXKP042788" }),
  catalog({ searchTerm: "brake pads", licensePlate: "8ABC123", licensePlateState: "CA" }),
  catalog({ searchTerm: "brake pads", baseVehicleID: "5678" }),
  catalog({ baseVehicleID: "5678" })
], [
  {
    input: catalog({ searchTerm: "brake pads" }),
    says: ["searchTerm needs a vehicle", "vin", "licensePlate", "baseVehicleID"]
  },
  { input: catalog({ licensePlate: "8ABC123" }), says: ["licensePlate must be accompanied by licensePlateState"] },
  { input: catalog({ licensePlateState: "CA" }), says: ["licensePlateState is only used with licensePlate"] },
  {
    input: catalog({ licensePlate: "8ABC123", licenseState: "CA" }),
    says: ["parameter licenseState was renamed licensePlateState"]
  },
  {
    input: catalog({ searchTerm: "brake pads", baseVehicleId: "5678" }),
    says: ["parameter baseVehicleId was renamed baseVehicleID"]
  },
  { input: catalog({ baseVehicleID: "V8" }), says: ["[\"baseVehicleID\"]", "ACES base vehicle ID (digits)"] },
  {
    input: catalog({ vin: "1M8GDM9AXKP0427I8", searchTerm: "x" }),
    says: ["[\"vin\"]", "invalid character \"I\" at position 16"]
  },
  { input: catalog({ token: "" }), says: ["[\"token\"]", "token must not be empty"] }
])

table("ProductSearch needs a criterion", OrderManagement.ProductSearch, [
  { searchText: "oil filter" },
  { categoryCode: "FLT" },
  { vehicleGroupId: "1234" },
  { vin: "1M8GDM9AXKP042788" },
  { licensePlate: { licensePlate: "8ABC123", licensePlateState: "CA" } }
], [
  { input: {}, says: ["a product search needs searchText, categoryCode, vehicleGroupId, vin or licensePlate"] },
  { input: { searchText: "ab" }, says: ["[\"searchText\"]", "searchText must be 3 or more characters"] },
  {
    input: { licensePlate: { licensePlate: "8ABC123" } },
    says: ["[\"licensePlate\"]", "[\"licensePlateState\"]", "is missing"]
  }
])

table("Environment", OrderManagement.Environment, ["US_QUA", "CA_PRD"], [
  { input: "US_DEV", says: ["environment must be one of US_QUA, CA_QUA, US_PRD, CA_PRD"] }
])

describe("the ShowCatalog rule is also a plain function", () => {
  it("showCatalogRuleProblem", () => {
    expect(Punchout.showCatalogRuleProblem({})).toBeUndefined()
    expect(Punchout.showCatalogRuleProblem({ searchTerm: "x", baseVehicleID: "1" })).toBeUndefined()
    expect(Punchout.showCatalogRuleProblem({ searchTerm: "x" })).toMatch(/searchTerm needs a vehicle/)
  })

  it("the legacy names map to the current ones", () => {
    expect(Punchout.LEGACY_SHOW_CATALOG_PARAMETERS).toEqual({
      licenseState: "licensePlateState",
      baseVehicleId: "baseVehicleID"
    })
  })
})
