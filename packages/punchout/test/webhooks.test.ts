import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either } from "effect"
import { Webhooks } from "../src/index.js"
import { order, quoteLine } from "./support/faultServer.js"

const orderBody = (status: unknown) => JSON.stringify({ referenceID: "RO-1042", order: order({ status, statusDescription: "Order submitted" }) })

const failure = <A>(result: Either.Either<A, Webhooks.WebhookDecodeError>) => {
  if (Either.isRight(result)) throw new Error("expected a WebhookDecodeError")
  return result.left
}

describe("decodeOrderWebhook", () => {
  it("decodes a string or bytes, with the status as a number or a string", () => {
    for (const body of [orderBody(3), orderBody("3"), new TextEncoder().encode(orderBody(3))]) {
      const result = Webhooks.decodeOrderWebhook(body, { contentType: "application/json; charset=utf-8" })
      expect(Either.isRight(result)).toBe(true)
      if (Either.isRight(result)) {
        expect(result.right.order.status).toBe("3")
        expect(result.right.referenceID).toBe("RO-1042")
        expect(DateTime.toEpochMillis(result.right.order.orderCreateTime)).toBe(1763769600000)
      }
    }
  })

  it("names the first bad field", () => {
    const body = JSON.stringify({
      referenceID: "RO-1",
      order: order({ orderLines: [{ ...quoteLine(), quantity: 1, price: "cheap" }] })
    })
    const error = failure(Webhooks.decodeOrderWebhook(body))
    expect(error.reason).toBe("InvalidPayload")
    expect(error.field).toBe("order.orderLines.0.price")
    expect(error.message).toContain("order.orderLines.0.price")
  })

  it("tells the common mistakes apart", () => {
    expect(failure(Webhooks.decodeOrderWebhook(JSON.parse(orderBody(3)))).reason).toBe("AlreadyParsed")
    expect(failure(Webhooks.decodeOrderWebhook(JSON.stringify(orderBody(3)))).reason).toBe("AlreadyParsed")
    expect(failure(Webhooks.decodeOrderWebhook("")).reason).toBe("EmptyBody")
    expect(failure(Webhooks.decodeOrderWebhook(new Uint8Array())).reason).toBe("EmptyBody")
    expect(failure(Webhooks.decodeOrderWebhook(undefined)).reason).toBe("EmptyBody")
    expect(failure(Webhooks.decodeOrderWebhook(orderBody(3), { contentType: "text/plain" })).reason).toBe("WrongContentType")
    expect(failure(Webhooks.decodeOrderWebhook("referenceID=RO-1&order=%7B%7D")).reason).toBe("WrongContentType")
    expect(failure(Webhooks.decodeOrderWebhook("{\"referenceID\":")).reason).toBe("InvalidJson")
    expect(failure(Webhooks.decodeOrderWebhook("{}")).field).toBe("order")
  })
})

describe("decodeQuoteWebhook", () => {
  it("decodes the quotes", () => {
    const result = Webhooks.decodeQuoteWebhook(JSON.stringify({ referenceID: "RO-1", quotes: [quoteLine(), quoteLine({ productID: 42 })] }))
    expect(Either.isRight(result) && result.right.quotes.map((q) => q.productID)).toEqual(["51515", "42"])
  })

  it("names the first bad field", () => {
    const error = failure(Webhooks.decodeQuoteWebhook(JSON.stringify({ referenceID: "RO-1", quotes: [quoteLine({ orderByTime: "soon" })] })))
    expect([error.webhook, error.reason, error.field]).toEqual(["quote", "InvalidPayload", "quotes.0.orderByTime"])
  })
})
