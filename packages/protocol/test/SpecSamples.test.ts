import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either, ParseResult, Redacted, Schema } from "effect"
import { Envelope, OrderManagement, OrderManagementApi, Punchout } from "../src/index.js"
import {
  dropShipErrorResponse,
  order,
  orderManagementSamples,
  punchoutSamples,
  quoteLine,
  type Sample,
  SESSION_TOKEN
} from "./fixtures/samples.js"

const samples = [...punchoutSamples, ...orderManagementSamples]

const decode = (sample: Sample, wire: unknown) => {
  const result = Schema.decodeUnknownEither(sample.schema)(wire)
  if (Either.isLeft(result)) {
    throw new Error(`${sample.name} did not decode:\n${ParseResult.TreeFormatter.formatErrorSync(result.left)}`)
  }
  return result.right
}

// Adds an unknown field to every object of a body (a query string only carries strings).
const withUnknownFields = (value: unknown, query: boolean): unknown => {
  if (Array.isArray(value)) return value.map((item) => withUnknownFields(item, query))
  if (typeof value !== "object" || value === null) return value
  const entries = Object.entries(value).map(([key, field]) => [key, query ? field : withUnknownFields(field, query)])
  return Object.fromEntries([...entries, ["fieldAddedLater", query ? "x" : { nested: [1, "two", null] }]])
}

const setPath = (value: unknown, path: ReadonlyArray<string | number>, leaf: unknown): unknown => {
  const [head, ...rest] = path
  if (head === undefined) return leaf
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? setPath(item, rest, leaf) : item))
  const record = value as Record<string, unknown>
  return { ...record, [head]: setPath(record[head], rest, leaf) }
}

describe("every sample shape of the specs decodes", () => {
  it("covers each resource and request/response of both specs", () => {
    const schemas = new Set(samples.map((sample) => sample.schema))
    for (
      const schema of [
        Punchout.CreateSessionRequest,
        Punchout.CreateSessionResponse,
        Punchout.QuoteLine,
        Punchout.Order,
        Punchout.OrderLine,
        Punchout.GetProductQuotesRequest,
        Punchout.GetProductQuotesResponse,
        Punchout.CreateOrderRequest,
        Punchout.OrderResponse,
        Punchout.SubmitOrderRequest,
        Punchout.ReserveOrderRequest,
        Punchout.ReserveOrderResponse,
        Punchout.ExportAndSaveResponse,
        Punchout.ShowCatalogQuery,
        Punchout.ShowOrderParams,
        Punchout.OrderWebhook,
        Punchout.QuoteWebhook,
        OrderManagement.ShippingAddress,
        OrderManagement.CreateOrderRequest,
        OrderManagement.CreateOrderResponse,
        OrderManagement.ProductMarketingDetail,
        OrderManagement.DigitalAsset,
        OrderManagement.BrandInformation,
        OrderManagement.AccountDetailsRequest
      ]
    ) expect(schemas.has(schema)).toBe(true)
  })

  describe.each(samples.map((sample) => [sample.name, sample] as const))("%s", (_, sample) => {
    it("decodes", () => {
      decode(sample, sample.wire)
    })

    it("decodes with unknown extra fields and ignores them", () => {
      const plain = decode(sample, sample.wire)
      const extended = decode(sample, withUnknownFields(sample.wire, sample.query === true))
      expect(Schema.equivalence(sample.schema)(extended, plain)).toBe(true)
      expect(JSON.stringify(extended)).not.toContain("fieldAddedLater")
    })

    if (sample.canonical === true) {
      it("encodes back to the same wire body", () => {
        expect(Schema.encodeSync(sample.schema)(decode(sample, sample.wire))).toEqual(sample.wire)
      })
    }

    for (const path of sample.nullable ?? []) {
      it(`decodes with null at ${path.join(".")}`, () => {
        decode(sample, setPath(sample.wire, path, null))
      })
    }
  })
})

describe("what the samples decode to", () => {
  it("session: URL template, Redacted token, 10-digit expiration as a DateTime", () => {
    const response = Schema.decodeUnknownSync(Punchout.CreateSessionResponse)(punchoutSamples[1]!.wire)
    const punchout = response.punchout
    if (punchout.expiration === 0) throw new Error("expected a granted session")
    expect(punchout.url.replace(Punchout.COMMAND_PLACEHOLDER, "ShowCatalog")).toBe(
      `https://dist.example/punchout/v1/ShowCatalog?token=${SESSION_TOKEN}`
    )
    expect(Redacted.isRedacted(punchout.token)).toBe(true)
    expect(Redacted.value(punchout.token as Redacted.Redacted<string>)).toBe(SESSION_TOKEN)
    expect(DateTime.formatIso(punchout.expiration)).toBe("2025-11-22T12:00:00.000Z")
    expect(Either.isRight(Envelope.classify(response, 200))).toBe(true)
  })

  it("refused session: empty url, expiration 0, classified as Unauthorized", () => {
    const response = Schema.decodeUnknownSync(Punchout.CreateSessionResponse)(punchoutSamples[2]!.wire)
    expect(response.punchout).toEqual({ url: "", expiration: 0 })
    const outcome = Envelope.classify(response, 401)
    expect(Either.isLeft(outcome) && outcome.left._tag).toBe("Unauthorized")
  })

  it("refused session: a null or empty token reads as no token", () => {
    for (const token of [null, ""]) {
      const response = Schema.decodeUnknownSync(Punchout.CreateSessionResponse)({
        status: { code: 401, message: { text: "Unauthorized", ID: "UNAUTHORIZED" } },
        punchout: { url: "", expiration: 0, token }
      })
      expect(response.punchout.url).toBe("")
    }
  })

  it("quote line: 13-digit times become DateTimes; numbers stay numbers", () => {
    const line = Schema.decodeUnknownSync(Punchout.QuoteLine)(quoteLine)
    expect(DateTime.formatIso(line.orderByTime)).toBe("2025-11-22T00:00:00.000Z")
    expect(DateTime.formatIso(line.dispatchTime)).toBe("2025-11-22T01:00:00.000Z")
    expect(line.subtotal).toBe(12.98)
    expect(Schema.decodeUnknownSync(Punchout.QuoteLine)({ ...quoteLine, quality: null }).quality).toBe("")
  })

  it("order webhook: numeric and string statuses decode to the same string; encode writes a number", () => {
    const numeric = Schema.decodeUnknownSync(Punchout.OrderWebhook)({
      referenceID: "RO-1",
      order: { ...order, status: 3 }
    })
    const text = Schema.decodeUnknownSync(Punchout.OrderWebhook)({
      referenceID: "RO-1",
      order: { ...order, status: "3" }
    })
    expect(numeric.order.status).toBe("3")
    expect(text.order.status).toBe("3")
    expect(Schema.encodeSync(Punchout.OrderWebhook)(text).order.status).toBe(3)
    // The command responses carry the status as a string.
    expect(Schema.encodeSync(Punchout.Order)(Schema.decodeUnknownSync(Punchout.Order)({ ...order, status: 0 })).status)
      .toBe("0")
  })

  it("CreateOrder: the two body shapes stay apart", () => {
    const single = Schema.decodeUnknownSync(Punchout.CreateOrderRequest)({
      productID: "51515",
      brandID: "WIX",
      quantity: "2"
    })
    const multiple = Schema.decodeUnknownSync(Punchout.CreateOrderRequest)({
      referenceID: "RO-1",
      quotes: [{ productID: "51515", brandID: "WIX", quantity: 2 }]
    })
    expect("quotes" in single).toBe(false)
    expect("quotes" in single ? undefined : single.quantity).toBe(2)
    expect("quotes" in multiple ? multiple.quotes.length : 0).toBe(1)
    expect(Schema.encodeSync(Punchout.CreateOrderRequest)(single)).toEqual({
      productID: "51515",
      brandID: "WIX",
      quantity: "2"
    })
  })

  it("ReserveOrder: referenceId null is no reference", () => {
    const response = Schema.decodeUnknownSync(Punchout.ReserveOrderResponse)({
      order,
      referenceId: null,
      serverVersion: "1.4.0",
      status: { code: 200, message: { ID: "API0200", text: "Successful" } }
    })
    expect(response.referenceId).toBeNull()
    expect(Envelope.referenceOf({ referenceId: null })).toBeUndefined()
    expect(Envelope.referenceOf({ referenceId: "RO-9" })).toBe("RO-9")
    expect(Envelope.referenceOf({ referenceID: "RO-8" })).toBe("RO-8")
  })

  it("ExportButtons: postExportAction is always KEEP_INVENTORY on the wire, anything else is refused", () => {
    const encoded = Schema.encodeSync(Punchout.ExportButtons)({
      export: { visible: false },
      exportAndSave: { visible: true }
    })
    expect(encoded.exportAndSave).toEqual({ visible: true, postExportAction: Punchout.KEEP_INVENTORY })
    const refused = Schema.decodeUnknownEither(Punchout.ExportButtons)({
      export: { visible: true },
      exportAndSave: { visible: true, postExportAction: "RELEASE_INVENTORY" }
    })
    expect(Either.isLeft(refused)).toBe(true)
  })

  it("drop-ship error: status 500 + API0327, empty orderLines, the recommendation decoded", () => {
    const response = Schema.decodeUnknownSync(OrderManagement.CreateOrderResponse)(dropShipErrorResponse)
    expect(response.orderLines).toEqual([])
    expect(response.recommendedDropShipAddress?.recommendedAddress.zipCode).toBe("78701-1234")
    const outcome = Envelope.classify(response, 500)
    expect(Either.isLeft(outcome) && outcome.left._tag).toBe("DropShipAddressRecommended")
  })

  it("accountDetails: submitDate yyyymmdd is a UTC day", () => {
    const request = Schema.decodeUnknownSync(OrderManagement.AccountDetailsRequest)({
      customerAccountNo: "100200",
      submitDate: "20261121"
    })
    expect(DateTime.formatIso(request.submitDate)).toBe("2026-11-21T00:00:00.000Z")
    for (const bad of ["2026-11-21", "20260230", "2026112", ""]) {
      expect(
        Either.isLeft(
          Schema.decodeUnknownEither(OrderManagement.AccountDetailsRequest)({ customerAccountNo: "1", submitDate: bad })
        )
      )
        .toBe(true)
    }
  })

  it("asset and brand logo URLs follow the spec's forms", () => {
    expect(OrderManagement.imageAssetUrl("https://assets.example/", "wix_51515.jpg", 1500)).toBe(
      "https://assets.example/wam?type=image&size=1500&asset=wix_51515.jpg"
    )
    expect(OrderManagement.documentAssetUrl("https://assets.example", "install.pdf")).toBe(
      "https://assets.example/wam?type=doc&asset=install.pdf"
    )
    expect(OrderManagement.brandLogoUrl("https://assets.example", "wix")).toBe("https://assets.example/brands/wix.gif")
  })

  it("environments: base paths and hosts", () => {
    const hosts = { testBaseUrl: "https://test.example/", prodBaseUrl: "https://api.example" }
    expect(OrderManagement.baseUrl("US_QUA", hosts)).toBe("https://test.example/web/services/US_QUA")
    expect(OrderManagement.baseUrl("CA_QUA", hosts)).toBe("https://test.example/web/services/CA_QUA")
    expect(OrderManagement.baseUrl("US_PRD", hosts)).toBe("https://api.example/web/services/US_PRD")
    expect(OrderManagement.baseUrl("CA_PRD", hosts)).toBe("https://api.example/web/services/CA_PRD")
    // The spec's endpoint list spells it priceAndAvailablity_v2; the definition serves both spellings.
    expect(OrderManagementApi.route("priceAndAvailablity_v2").relativePath).toBe("/priceAndAvailablity_v2")
    expect(OrderManagementApi.route("priceAndAvailability_v2").relativePath).toBe("/priceAndAvailability_v2")
  })
})
