import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either, FastCheck as fc } from "effect"
import { Webhooks } from "../src/index.js"
import { order, quoteLine } from "./support/faultServer.js"

const orderBody = (status: unknown) =>
  JSON.stringify({ referenceID: "RO-1042", order: order({ status, statusDescription: "Order submitted" }) })

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
    expect(failure(Webhooks.decodeOrderWebhook(orderBody(3), { contentType: "text/plain" })).reason).toBe(
      "WrongContentType"
    )
    expect(failure(Webhooks.decodeOrderWebhook("referenceID=RO-1&order=%7B%7D")).reason).toBe("WrongContentType")
    expect(failure(Webhooks.decodeOrderWebhook("{\"referenceID\":")).reason).toBe("InvalidJson")
    expect(failure(Webhooks.decodeOrderWebhook("{}")).field).toBe("order")
  })
})

describe("webhook identifiers are bounded (protocol value types)", () => {
  it("an empty or a 200 KB orderID is refused as InvalidPayload at order.orderID", () => {
    const withOrderID = (orderID: unknown) =>
      JSON.stringify({ referenceID: "RO-1042", order: order({ orderID, status: 3 }) })
    const empty = failure(Webhooks.decodeOrderWebhook(withOrderID("")))
    expect([empty.reason, empty.field, empty.detail]).toEqual(["InvalidPayload", "order.orderID", "must not be empty"])
    const huge = failure(Webhooks.decodeOrderWebhook(withOrderID("7".repeat(200 * 1024))))
    expect([huge.reason, huge.field, huge.detail]).toEqual([
      "InvalidPayload",
      "order.orderID",
      "must be at most 64 characters, got 204800"
    ])
    expect(huge.message.length).toBeLessThan(200)
    expect(Either.isRight(Webhooks.decodeOrderWebhook(withOrderID("10423")))).toBe(true)
  })
})

describe("decodeQuoteWebhook", () => {
  it("decodes the quotes", () => {
    const result = Webhooks.decodeQuoteWebhook(
      JSON.stringify({ referenceID: "RO-1", quotes: [quoteLine(), quoteLine({ productID: 42 })] })
    )
    expect(Either.isRight(result) && result.right.quotes.map((q) => q.productID)).toEqual(["51515", "42"])
  })

  it("names the first bad field", () => {
    const error = failure(
      Webhooks.decodeQuoteWebhook(JSON.stringify({ referenceID: "RO-1", quotes: [quoteLine({ orderByTime: "soon" })] }))
    )
    expect([error.webhook, error.reason, error.field]).toEqual(["quote", "InvalidPayload", "quotes.0.orderByTime"])
  })
})

describe("the decoders are total: any input gives a payload or a WebhookDecodeError, never a throw", () => {
  const decoders: ReadonlyArray<
    (body: unknown, options?: Webhooks.DecodeOptions) => Either.Either<unknown, Webhooks.WebhookDecodeError>
  > = [
    Webhooks.decodeOrderWebhook,
    Webhooks.decodeQuoteWebhook
  ]
  const nested = (depth: number, open: string, close: string, inner = "") =>
    open.repeat(depth) + inner + close.repeat(depth)

  // Returns the error, failing the test if the decoder threw or succeeded.
  const refused = (decode: (typeof decoders)[number], body: unknown) => {
    const error = failure(decode(body))
    expect(error).toBeInstanceOf(Webhooks.WebhookDecodeError)
    expect(error.message.length).toBeLessThan(400)
    return error
  }

  it("a 240 KB body of nested arrays, anywhere in the payload", () => {
    const depth = 120_000 // 240 KB of brackets
    for (const decode of decoders) {
      expect(refused(decode, nested(depth, "[", "]")).reason).toBe("InvalidPayload")
      expect(refused(decode, `{"order":${nested(depth, "[", "]")}}`).reason).toBe("InvalidPayload")
      expect(refused(decode, `{"referenceID":${nested(depth, "[", "]")},"quotes":[]}`).reason).toBe("InvalidPayload")
      expect(refused(decode, nested(50_000, "{\"a\":", "}", "1")).reason).toBe("InvalidPayload")
      expect(refused(decode, new TextEncoder().encode(nested(depth, "[", "]"))).reason).toBe("InvalidPayload")
    }
  })

  it("deep nesting is refused past MAX_NESTING, naming the limit; a real payload is far below it", () => {
    const error = refused(
      Webhooks.decodeOrderWebhook,
      `{"referenceID":"RO-1","order":${nested(Webhooks.MAX_NESTING + 1, "[", "]")}}`
    )
    expect(error.detail).toContain(`nested deeper than ${Webhooks.MAX_NESTING} levels`)
    expect(Either.isRight(Webhooks.decodeOrderWebhook(orderBody(3)))).toBe(true)
  })

  it("huge strings and values of every type", () => {
    const huge = "x".repeat(5 * 1024 * 1024)
    for (const decode of decoders) {
      expect(refused(decode, `{"referenceID":"${huge}"}`).reason).toBe("InvalidPayload")
      expect(refused(decode, huge).reason).toBe("InvalidJson")
      for (
        const body of [
          0,
          1n,
          true,
          Symbol("s"),
          () => 1,
          new Map(),
          [],
          new Uint16Array([0x7b7b]),
          new DataView(new ArrayBuffer(2))
        ]
      ) {
        refused(decode, body)
      }
      refused(decode, "{}")
      // options from untyped callers: a content type that is not a string is ignored
      for (const options of [{ contentType: 42 }, null, "json"]) {
        expect(Either.isEither(decode(orderBody(3), options as never))).toBe(true)
      }
    }
  })

  it.prop("any string, bytes or JSON value (fast-check)", [
    fc.oneof(
      fc.string({ unit: "binary", maxLength: 300 }),
      fc.uint8Array({ maxLength: 300 }),
      fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value)),
      fc.anything({ maxDepth: 4 }),
      fc.record({
        referenceID: fc.anything({ maxDepth: 3 }),
        order: fc.anything({ maxDepth: 3 }),
        quotes: fc.anything({ maxDepth: 3 })
      })
        .map((value) => JSON.stringify(value) ?? ""),
      fc.tuple(fc.integer({ min: 1, max: 130_000 }), fc.constantFrom(["[", "]"], ["{\"a\":", "}"])).map((
        [depth, [open, close]]
      ) => nested(depth, open!, close!, open === "[" ? "" : "null"))
    )
  ], ([body]) => {
    for (const decode of decoders) {
      const result = decode(body)
      expect(Either.isEither(result)).toBe(true)
      if (Either.isLeft(result)) {
        expect(result.left).toBeInstanceOf(Webhooks.WebhookDecodeError)
        expect(result.left.message.length).toBeLessThan(400)
      }
    }
  }, { fastCheck: { numRuns: 200 } })
})
