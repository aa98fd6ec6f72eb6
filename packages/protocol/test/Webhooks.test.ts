// Webhook bodies come from the network: identifiers are bounded, as docs/assumptions.md records.
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { Punchout, Violation } from "../src/index.js"

const order = (fields: Record<string, unknown> = {}) => ({
  referenceID: "RO-1042",
  order: {
    orderID: "10423",
    orderCreateTime: 1763769600000,
    orderLines: [],
    comment: "",
    status: 3,
    statusDescription: "Order submitted",
    ...fields
  }
})
const line = {
  acaPartTerminologyID: 1684,
  productID: "51515",
  brandID: "WIX",
  categoryID: "FLT",
  productDesc: "Oil Filter",
  orderByTime: 1763769600000,
  dispatchTime: 1763773200000,
  quantityAvail: 12,
  quantityReq: 1,
  price: 6.49,
  listPrice: 9.99,
  corePrice: 0,
  weight: 0.8,
  quality: "",
  makeId: 0,
  subtotal: 6.49
}

const refusal = (schema: Schema.Schema<any, any>, input: unknown) => {
  const result = Schema.decodeUnknownEither(schema)(input)
  if (Either.isRight(result)) throw new Error("expected a refusal")
  expect(result.left._tag).toBe("ParseError")
  return Violation.first(result.left)
}

describe("webhook identifiers", () => {
  it("an order webhook with an empty or a 200 KB orderID is refused, naming the field", () => {
    expect(refusal(Punchout.OrderWebhook, order({ orderID: "" }))).toMatchObject({
      field: "order.orderID",
      message: "order.orderID must not be empty"
    })
    expect(refusal(Punchout.OrderWebhook, order({ orderID: "   " })).rule).toBe("must not be empty")
    const huge = refusal(Punchout.OrderWebhook, order({ orderID: "9".repeat(200 * 1024) }))
    expect(huge.message).toBe("order.orderID must be at most 64 characters, got 204800")
  })

  it("accepts an orderID of 1 to 64 characters, or a number", () => {
    expect(Schema.decodeUnknownSync(Punchout.OrderWebhook)(order({ orderID: "1" })).order.orderID).toBe("1")
    expect(Schema.decodeUnknownSync(Punchout.OrderWebhook)(order({ orderID: "A".repeat(64) })).order.orderID)
      .toHaveLength(64)
    expect(Schema.decodeUnknownSync(Punchout.OrderWebhook)(order({ orderID: 10423 })).order.orderID).toBe("10423")
  })

  it("bounds referenceID, productID and brandID of both webhooks", () => {
    expect(refusal(Punchout.OrderWebhook, { ...order(), referenceID: "r".repeat(256) }).message)
      .toBe("referenceID must be at most 255 characters, got 256")
    expect(refusal(Punchout.QuoteWebhook, { referenceID: "RO-1", quotes: [{ ...line, productID: "" }] }).message)
      .toBe("quotes.0.productID must not be empty")
    expect(
      refusal(Punchout.QuoteWebhook, { referenceID: "RO-1", quotes: [{ ...line, brandID: "B".repeat(65) }] }).message
    )
      .toBe("quotes.0.brandID must be at most 64 characters, got 65")
    expect(Schema.decodeUnknownSync(Punchout.QuoteWebhook)({ referenceID: null, quotes: [line] }).referenceID).toBe("")
  })
})
