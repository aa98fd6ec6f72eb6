import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Punchout } from "@shoplink/protocol"
import { SANDBOX_CREDENTIALS, startSandbox } from "../src/index.js"
import { createBody, postJson, session } from "./helpers.js"

describe("Punchout create", () => {
  it.scoped("grants a 12-hour session with a {command} URL and a 10-digit expiration", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const reply = yield* postJson(sandbox.punchoutCreateUrl, createBody())
      expect(reply.status).toBe(200)
      const decoded = Schema.decodeUnknownSync(Punchout.CreateSessionResponse)(reply.body)
      expect(decoded.status).toEqual({ code: 200, message: { text: "Success" } })
      expect(reply.body.referenceID).toBe("RO-1042")
      expect(reply.body.punchout.url).toMatch(
        new RegExp(`^${sandbox.url}/punchout/v1/\\{command\\}\\?token=[0-9a-f-]{36}$`)
      )
      expect(String(reply.body.punchout.expiration)).toHaveLength(10)
      const now = yield* sandbox.admin.now
      expect(reply.body.punchout.expiration).toBe(Math.floor((now + 12 * 3600_000) / 1000))
    }))

  it.scoped.each([
    ["apiKey", { apiKey: "wrong" }],
    ["apiToken", { apiToken: "wrong" }],
    ["accountNo", { accountNo: "999999" }],
    ["username", { username: "someone@else.example" }],
    ["country", { country: "CA" }],
    ["missing apiKey", { apiKey: undefined }]
  ] as Array<[string, Record<string, unknown>]>)(
    "answers the 401 envelope on a %s mismatch",
    ([, overrides]) =>
      Effect.gen(function*() {
        const sandbox = yield* startSandbox()
        const reply = yield* postJson(sandbox.punchoutCreateUrl, createBody(overrides))
        expect(reply.status).toBe(401)
        expect(reply.body.status).toEqual({ code: 401, message: { ID: "UNAUTHORIZED", text: "Unauthorized" } })
        expect(reply.body.punchout).toEqual({ url: "", expiration: 0 })
      })
  )

  it.scoped("refuses a revoked token, an expired vendor key, and accepts the Canadian customer", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const ca = SANDBOX_CREDENTIALS.customers.ca
      const okCa = yield* postJson(
        sandbox.punchoutCreateUrl,
        createBody({ apiToken: ca.apiToken, accountNo: ca.accountNo, username: ca.username, country: "CA QA" })
      )
      expect(okCa.status).toBe(200)
      yield* sandbox.admin.revokeToken(SANDBOX_CREDENTIALS.customers.us.apiToken)
      expect((yield* postJson(sandbox.punchoutCreateUrl, createBody())).body.status.message.ID).toBe("UNAUTHORIZED")
      yield* sandbox.admin.expireKey(SANDBOX_CREDENTIALS.vendorApiKey)
      expect(
        (yield* postJson(
          sandbox.punchoutCreateUrl,
          createBody({ apiToken: ca.apiToken, accountNo: ca.accountNo, username: ca.username, country: "CA" })
        )).status
      ).toBe(401)
    }))

  it.scoped("answers malformed JSON with API0288 and bad webhooks with API0288", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const malformed = yield* Effect.promise(() =>
        fetch(sandbox.punchoutCreateUrl, { method: "POST", body: "{nope" }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as any
        }))
      )
      expect(malformed.status).toBe(400)
      expect(malformed.body.status.message.ID).toBe("API0288")
      const badHook = yield* postJson(
        sandbox.punchoutCreateUrl,
        createBody({ webhooks: { order: "not a url", quote: "http://x.example/q" } })
      )
      expect(badHook.status).toBe(400)
      expect(badHook.body.status.message.ID).toBe("API0288")
    }))
})

describe("Punchout commands", () => {
  it.scoped("GetProductQuotes prices an exact product and searches, echoing referenceID", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const exact = yield* postJson(s.command("GetProductQuotes"), {
        productID: "51515",
        brandID: "WIX",
        quantity: "2",
        referenceID: "Q-1"
      })
      expect(exact.status).toBe(200)
      const decoded = Schema.decodeUnknownSync(Punchout.GetProductQuotesResponse)(exact.body)
      expect(decoded.referenceID).toBe("Q-1")
      expect(decoded.quotes).toHaveLength(1)
      expect(exact.body.quotes[0]).toMatchObject({
        productID: "51515",
        brandID: "WIX",
        quantityReq: 2,
        price: 6.49,
        subtotal: 12.98,
        acaPartTerminologyID: 1684
      })
      expect(String(exact.body.quotes[0].orderByTime)).toHaveLength(13)
      const search = yield* postJson(s.command("GetProductQuotes"), { productID: "brake pad", quantity: "1" })
      expect(search.body.quotes.length).toBeGreaterThan(0)
      expect(search.body.quotes.every((q: any) => q.productDesc.toLowerCase().includes("brake pad"))).toBe(true)
      const filters = yield* postJson(s.command("GetProductQuotes"), { productID: "filter", quantity: "1" })
      expect(filters.body.quotes.length).toBeGreaterThan(0)
      expect(filters.body.quotes.every((q: any) => q.productDesc.includes("Filter"))).toBe(true)
      const byBrand = yield* postJson(s.command("GetProductQuotes"), { productID: "WIX oil filter", quantity: "1" })
      expect(byBrand.body.quotes.map((q: any) => q.brandID)).toContain("WIX")
      expect(byBrand.body.quotes.every((q: any) => q.brandID === "WIX")).toBe(true)
    }))

  it.scoped.each([
    ["quantity 0", { productID: "51515", brandID: "WIX", quantity: "0" }, 400, "API0231"],
    ["no productID", { quantity: "1" }, 400, "API0203"],
    ["unpriced", { productID: "NP1001", brandID: "ACD", quantity: "1" }, 400, "API0243"]
  ])("GetProductQuotes with %s answers %s", ([, body, status, id]) =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const reply = yield* postJson(s.command("GetProductQuotes"), body)
      expect(reply.status).toBe(status)
      expect(reply.body.status.message.ID).toBe(id)
    }))

  it.scoped("unknown or expired token → 401 UNAUTHORIZED; unknown command and malformed body are envelopes", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const unknownToken = yield* postJson(`${sandbox.url}/punchout/v1/GetProductQuotes?token=nope`, {
        productID: "51515",
        quantity: "1"
      })
      expect(unknownToken.status).toBe(401)
      expect(unknownToken.body.status).toEqual({ code: 401, message: { ID: "UNAUTHORIZED", text: "Unauthorized" } })
      const unknownCommand = yield* postJson(s.command("DeleteEverything"), {})
      expect(unknownCommand.status).toBe(404)
      expect(unknownCommand.body.status.message.ID).toBe("API0288")
      const malformed = yield* Effect.promise(() =>
        fetch(s.command("CreateOrder"), { method: "POST", body: "[1,2" }).then((r) => r.json() as Promise<any>)
      )
      expect(malformed.status.message.ID).toBe("API0288")
      yield* sandbox.admin.advanceClock("12 hours")
      const expired = yield* postJson(s.command("GetProductQuotes"), { productID: "51515", quantity: "1" })
      expect(expired.status).toBe(401)
      expect(expired.body.status.message.ID).toBe("UNAUTHORIZED")
    }))

  it.scoped("CreateOrder (both shapes) → SubmitOrder → API0247 on a second submit", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const single = yield* postJson(s.command("CreateOrder"), {
        productID: "51515",
        brandID: "WIX",
        quantity: "2",
        referenceID: "R-1",
        comment: "PO 77"
      })
      expect(single.status).toBe(200)
      const order = Schema.decodeUnknownSync(Punchout.OrderResponse)(single.body).order
      expect(order).toMatchObject({ status: "0", statusDescription: "In shopping cart", comment: "PO 77" })
      expect(single.body.referenceID).toBe("R-1")
      expect(single.body.order.orderID).toMatch(/^\d{8}$/)
      const multiple = yield* postJson(s.command("CreateOrder"), {
        referenceID: "R-2",
        quotes: [{ productID: "51515", brandID: "WIX", quantity: 1 }, {
          productID: "LS3003",
          brandID: "MON",
          quantity: 1
        }]
      })
      expect(multiple.body.order.orderLines).toHaveLength(2)
      const submitted = yield* postJson(s.command("SubmitOrder"), { orderID: order.orderID, referenceID: "R-3" })
      expect(submitted.status).toBe(200)
      expect(submitted.body.order).toMatchObject({ status: "3", statusDescription: "Order submitted" })
      expect(submitted.body.referenceID).toBe("R-3")
      const again = yield* postJson(s.command("SubmitOrder"), { orderID: order.orderID })
      expect(again.status).toBe(409)
      expect(again.body.status.message.ID).toBe("API0247")
      const missing = yield* postJson(s.command("SubmitOrder"), { orderID: "99999999" })
      expect(missing.body.status.message.ID).toBe("API0256")
    }))

  it.scoped.each([
    ["quantity ≤ 0", { productID: "51515", brandID: "WIX", quantity: "-1" }, "API0231"],
    ["not stocked", { productID: "NS2002", brandID: "BO", quantity: "1" }, "API0232"],
    ["unknown product", { productID: "ZZ0000", brandID: "WIX", quantity: "1" }, "API0232"],
    ["not enough stock", { productID: "LS3003", brandID: "MON", quantity: "3" }, "API0234"],
    ["excessive quantity", { productID: "51515", brandID: "WIX", quantity: "1000" }, "API0235"],
    ["no price", { productID: "NP1001", brandID: "ACD", quantity: "1" }, "API0243"],
    ["duplicate line", {
      quotes: [{ productID: "51515", brandID: "WIX", quantity: 1 }, { productID: "51515", brandID: "WIX", quantity: 1 }]
    }, "API0236"],
    ["missing brandID", { productID: "51515", quantity: "1" }, "API0203"],
    [
      "comment over 20 characters",
      { productID: "51515", brandID: "WIX", quantity: "1", comment: "x".repeat(21) },
      "API0288"
    ]
  ])("CreateOrder with %s answers %s", ([, body, id]) =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const reply = yield* postJson(s.command("CreateOrder"), body)
      expect(reply.status).toBeGreaterThanOrEqual(400)
      expect(reply.body.status.message.ID).toBe(id)
      expect(reply.body.status.code).toBe(reply.status)
    }))

  it.scoped("orders expire at orderByTime or the end of the following day, and ReserveOrder re-reserves with the comment", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const created = yield* postJson(s.command("CreateOrder"), { productID: "LS3003", brandID: "MON", quantity: "2" })
      const orderID: string = created.body.order.orderID
      const orderByTime: number = created.body.order.orderLines[0].dispatchTime - 3600_000
      const now = yield* sandbox.admin.now
      expect(orderByTime).toBeGreaterThan(now)
      // The stock is held: nothing left for a second order.
      expect(
        (yield* postJson(s.command("CreateOrder"), { productID: "LS3003", brandID: "MON", quantity: "1" })).body.status
          .message.ID
      ).toBe("API0234")
      yield* sandbox.admin.advanceClock(orderByTime - now)
      const s2 = yield* session(sandbox)
      const submit = yield* postJson(s2.command("SubmitOrder"), { orderID })
      expect(submit.body.status.message.ID).toBe("API0234")
      // Expiry released the stock.
      const reserved = yield* postJson(s2.command("ReserveOrder"), { orderID, comment: "PO-5521" })
      expect(reserved.status).toBe(200)
      const decoded = Schema.decodeUnknownSync(Punchout.ReserveOrderResponse)(reserved.body)
      expect(decoded.referenceId).toBeNull()
      expect(reserved.body.status).toEqual({ code: 200, message: { ID: "API0200", text: "Successful" } })
      expect(reserved.body.order).toMatchObject({ status: "0", comment: "PO-5521" })
      expect((yield* postJson(s2.command("SubmitOrder"), { orderID })).body.order.status).toBe("3")
      const reserveSubmitted = yield* postJson(s2.command("ReserveOrder"), { orderID, referenceID: "X-1" })
      expect(reserveSubmitted.body.status.message.ID).toBe("API0247")
      expect(reserveSubmitted.body.referenceId).toBe("X-1")
      expect((yield* postJson(s2.command("ReserveOrder"), { orderID: "123456789" })).body.status.message.ID).toBe(
        "API0230"
      )
      expect((yield* postJson(s2.command("ReserveOrder"), {})).body.status.message.ID).toBe("API0203")
    }))

  it.scoped("an order fault answers API0258 / API0273 for the next calls, then clears", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const created = yield* postJson(s.command("CreateOrder"), { productID: "51515", brandID: "WIX", quantity: "1" })
      const orderID: string = created.body.order.orderID
      yield* sandbox.admin.injectFault({ kind: "orderLocked", orderID, times: 1 })
      yield* sandbox.admin.injectFault({ kind: "orderInUse", orderID, times: 1 })
      expect((yield* postJson(s.command("SubmitOrder"), { orderID })).body.status.message.ID).toBe("API0258")
      expect((yield* postJson(s.command("SubmitOrder"), { orderID })).body.status.message.ID).toBe("API0273")
      expect((yield* postJson(s.command("SubmitOrder"), { orderID })).status).toBe(200)
    }))

  it.scoped("a P.O.-required account cannot submit without a comment (API0250)", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox, {
        apiToken: "sbx-token-us-100300",
        accountNo: "100300",
        username: "buyer@fleet-works.example"
      })
      const created = yield* postJson(s.command("CreateOrder"), { productID: "51515", brandID: "WIX", quantity: "1" })
      expect(
        (yield* postJson(s.command("SubmitOrder"), { orderID: created.body.order.orderID })).body.status.message.ID
      ).toBe("API0250")
    }))
})
