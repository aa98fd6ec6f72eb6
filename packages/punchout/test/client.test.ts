import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Fiber, Redacted, TestClock, Tracer } from "effect"
import { PunchoutClient } from "../src/index.js"
import {
  captureLogs,
  clientLayer,
  customer,
  envelope,
  faultServer,
  htmlPage,
  json,
  order,
  quoteLine,
  SESSION_TOKEN,
  sessionFor,
  sessionOptions,
  VENDOR_KEY
} from "./support/faultServer.js"

const withClient = <A, E>(baseUrl: string, f: (client: PunchoutClient.Service) => Effect.Effect<A, E>, options = {}) =>
  Effect.flatMap(PunchoutClient.PunchoutClient, f).pipe(Effect.provide(clientLayer(baseUrl, options)))

describe("createSession", () => {
  it.scoped("sends the credentials and returns a session with a redacted token", () =>
    Effect.gen(function*() {
      const server = yield* faultServer((_req, res) =>
        json(res, 200, {
          ...envelope(200, "Success"),
          punchout: {
            url: `http://127.0.0.1/punchout/v1/{command}?token=${SESSION_TOKEN}`,
            token: SESSION_TOKEN,
            expiration: 1763812800
          }
        })
      )
      const session = yield* withClient(server.url, (client) =>
        client.createSession(customer, {
          ...sessionOptions,
          exportButtons: { export: { visible: true }, exportAndSave: { visible: false } }
        }))
      expect(server.count("/punchout/v1/create")).toBe(1)
      const sent = JSON.parse(server.requests[0]!.body)
      expect(sent).toEqual({
        apiKey: VENDOR_KEY,
        apiToken: "sbx-token-us-100200",
        accountNo: "100200",
        username: "parts@mainstreet-auto.example",
        country: "US",
        smsVendorName: "Acme SMS",
        referenceID: "RO-1042",
        webhooks: sessionOptions.webhooks,
        exportButtons: {
          export: { visible: true },
          exportAndSave: { visible: false, postExportAction: "KEEP_INVENTORY" }
        }
      })
      expect(Redacted.value(session.token)).toBe(SESSION_TOKEN)
      expect(DateTime.toEpochMillis(session.expiresAt)).toBe(1763812800_000)
      const printed = `${String(session.token)} ${JSON.stringify(session)} ${String(session.urlTemplate)}`
      expect(printed).not.toContain(SESSION_TOKEN)
    }))

  it.scoped("fails Unauthorized on a 401 envelope", () =>
    Effect.gen(function*() {
      const server = yield* faultServer((_req, res) =>
        json(res, 401, { ...envelope(401, "Unauthorized", "UNAUTHORIZED"), punchout: { url: "", expiration: 0 } })
      )
      const error = yield* withClient(
        server.url,
        (client) => Effect.flip(client.createSession(customer, sessionOptions))
      )
      expect(error._tag).toBe("Unauthorized")
      expect(server.count()).toBe(1)
      expect(error.message).not.toContain(VENDOR_KEY)
      // Which credentials were refused and what to check, each secret masked to its last 4 characters.
      expect(error.message).toBe(
        `UNAUTHORIZED: Unauthorized (HTTP 401) — the distributor refused the vendor API key <redacted>…${
          VENDOR_KEY.slice(-4)
        } or the customer's ` +
          "credentials (account 100200, username parts@mainstreet-auto.example, country US, API token <redacted>…0200): check the vendor key " +
          "first (it is the same for every customer), then that the customer has not deleted or replaced its API token"
      )
      expect(error.message).not.toContain("sbx-token-us-100200")
    }))

  it.scoped("refuses a blank token and a bad webhook URL before any request", () =>
    Effect.gen(function*() {
      const server = yield* faultServer((_req, res) => json(res, 500, {}))
      const error = yield* withClient(server.url, (client) =>
        Effect.flip(client.createSession({ ...customer, apiToken: Redacted.make(" ") }, {
          ...sessionOptions,
          webhooks: { order: "not a url", quote: "https://sms.example/q" }
        })))
      expect(error._tag).toBe("InvalidInput")
      expect(error.message).toContain("apiToken must not be empty")
      const country = yield* withClient(server.url, (client) =>
        Effect.flip(client.createSession({ ...customer, country: "MX" as never }, sessionOptions)))
      expect(country.message).toContain("country must be one of")
      expect(country.message).not.toContain("sbx-token-us-100200")
      expect(country.message).not.toContain(VENDOR_KEY)
      expect(server.count()).toBe(0)
    }))
})

describe("commands", () => {
  it.scoped("GetProductQuotes sends a search term or an exact product and decodes the quotes", () =>
    Effect.gen(function*() {
      const server = yield* faultServer((_req, res) =>
        json(res, 200, { ...envelope(200, "Success"), referenceID: "RO-7", quotes: [quoteLine()] })
      )
      const session = sessionFor(server.url)
      const [search, exact] = yield* withClient(server.url, (client) =>
        Effect.all([
          client.getProductQuotes(session, { searchTerm: "oil filter", quantity: 2, referenceID: "RO-7" }),
          client.getProductQuotes(session, { productID: "51515", brandID: "WIX", quantity: 1 })
        ]))
      expect(search.quotes[0]?.productID).toBe("51515")
      expect(search.referenceID).toBe("RO-7")
      expect(exact.quotes).toHaveLength(1)
      expect(server.requests.map((r) => [r.path, r.query.get("token"), JSON.parse(r.body)])).toEqual([
        ["/punchout/v1/GetProductQuotes", SESSION_TOKEN, {
          productID: "oil filter",
          quantity: "2",
          referenceID: "RO-7"
        }],
        ["/punchout/v1/GetProductQuotes", SESSION_TOKEN, { productID: "51515", brandID: "WIX", quantity: "1" }]
      ])
    }))

  it.scoped("CreateOrder sends either body shape; SubmitOrder and ReserveOrder decode the order", () =>
    Effect.gen(function*() {
      const server = yield* faultServer((req, res) => {
        if (req.path.endsWith("/ReserveOrder")) {
          return json(res, 200, {
            referenceId: null,
            serverVersion: "fault-1",
            status: { code: 200, message: { ID: "API0200", text: "Successful" } },
            order: order({ comment: "PO 77" })
          })
        }
        json(res, 200, { ...envelope(200, "Success"), referenceID: "RO-1", order: order() })
      })
      const session = sessionFor(server.url)
      const results = yield* withClient(server.url, (client) =>
        Effect.all([
          client.createOrder(session, { productID: "51515", brandID: "WIX", quantity: 2, comment: "PO 77" }),
          client.createOrder(session, {
            referenceID: "RO-1",
            quotes: [{ productID: "51515", brandID: "WIX", quantity: 1 }, {
              productID: "1A",
              brandID: "BOS",
              quantity: 4
            }]
          }),
          client.submitOrder(session, { orderID: "10423" }),
          client.reserveOrder(session, { orderID: "10423", comment: "PO 77" })
        ]))
      expect(results.map((r) => r.order.orderID)).toEqual(["10423", "10423", "10423", "10423"])
      expect(results[3]!.order.comment).toBe("PO 77")
      expect(server.requests.map((r) => [r.path.split("/").pop(), JSON.parse(r.body)])).toEqual([
        ["CreateOrder", { productID: "51515", brandID: "WIX", quantity: "2", comment: "PO 77" }],
        ["CreateOrder", {
          referenceID: "RO-1",
          quotes: [{ productID: "51515", brandID: "WIX", quantity: 1 }, {
            productID: "1A",
            brandID: "BOS",
            quantity: 4
          }]
        }],
        ["SubmitOrder", { orderID: "10423" }],
        ["ReserveOrder", { orderID: "10423", comment: "PO 77" }]
      ])
    }))

  it.scoped("checks inputs against the protocol rules before any network call", () =>
    Effect.gen(function*() {
      const server = yield* faultServer((_req, res) => json(res, 500, {}))
      const session = sessionFor(server.url)
      const errors = yield* withClient(server.url, (client) =>
        Effect.all([
          Effect.flip(client.reserveOrder(session, { orderID: "0" })),
          Effect.flip(client.reserveOrder(session, { orderID: "123456789" })),
          Effect.flip(client.reserveOrder(session, { orderID: "10423", comment: "" })),
          Effect.flip(client.reserveOrder(session, { orderID: "10423", comment: "x".repeat(21) })),
          Effect.flip(client.getProductQuotes(session, { searchTerm: "oil filter", quantity: 0 })),
          Effect.flip(client.createOrder(session, { productID: "51515", brandID: "WIX", quantity: -1 })),
          Effect.flip(client.createOrder(session, { quotes: [{ productID: "51515", brandID: "WIX", quantity: 1.5 }] })),
          Effect.flip(client.submitOrder(session, { orderID: " " }))
        ]))
      expect(errors.map((e) => e._tag)).toEqual(Array(8).fill("InvalidInput"))
      expect(errors[0]!.message).toContain("orderID must be a non-zero integer of 1 to 8 digits")
      expect(errors[1]!.message).toContain("orderID must be a non-zero integer of 1 to 8 digits")
      expect(errors[2]!.message).toContain("comment must be 1 to 20 characters")
      expect(errors[3]!.message).toContain("comment must be 1 to 20 characters, got 21")
      expect(errors[4]!.message).toContain("quantity must be a positive whole number")
      expect(errors[5]!.message).toContain("quantity must be a positive whole number")
      expect(errors[6]!.message).toContain("quantity must be a positive whole number, got 1.5")
      expect(errors[7]!.message).toContain("orderID must not be empty")
      expect(server.count()).toBe(0)
    }))
})

describe("envelope decoding whatever the HTTP status", () => {
  const scenario = (respond: Parameters<typeof faultServer>[0]) =>
    Effect.gen(function*() {
      const server = yield* faultServer(respond)
      const session = sessionFor(server.url)
      const error = yield* withClient(server.url, (client) =>
        Effect.flip(client.createOrder(session, { productID: "51515", brandID: "WIX", quantity: 1 })))
      return { error, server }
    })

  it.scoped("200 with an error envelope gives the message's own class", () =>
    Effect.gen(function*() {
      const { error } = yield* scenario((_req, res) =>
        json(res, 200, {
          ...envelope(400, "Order not found or has already been deleted", "API0256"),
          referenceID: "RO-9"
        })
      )
      expect(error._tag).toBe("OrderNotFound")
      if (error._tag === "OrderNotFound") {
        expect(error.httpStatus).toBe(200)
        expect(error.referenceID).toBe("RO-9")
      }
    }))

  it.scoped("401 envelope gives Unauthorized", () =>
    Effect.gen(function*() {
      const { error } = yield* scenario((_req, res) => json(res, 401, envelope(401, "Unauthorized", "UNAUTHORIZED")))
      expect(error._tag).toBe("Unauthorized")
    }))

  it.scoped("500 envelope gives SomethingWentWrong", () =>
    Effect.gen(function*() {
      const { error } = yield* scenario((_req, res) =>
        json(res, 500, envelope(500, "Something went wrong, that's all we know", "API0500"))
      )
      expect(error._tag).toBe("SomethingWentWrong")
    }))

  it.scoped("an unknown message ID gives UnknownMessage", () =>
    Effect.gen(function*() {
      const { error } = yield* scenario((_req, res) => json(res, 400, envelope(400, "New rule", "API0999")))
      expect(error._tag).toBe("UnknownMessage")
    }))

  it.scoped("an HTML 502 page gives UnexpectedResponse with a redacted excerpt", () =>
    Effect.gen(function*() {
      const { error } = yield* scenario((req, res) =>
        htmlPage(res, 502, `<html>Bad Gateway for token=${req.query.get("token")}</html>`)
      )
      expect(error._tag).toBe("UnexpectedResponse")
      if (error._tag === "UnexpectedResponse") {
        expect(error.reason).toBe("InvalidJson")
        expect(error.httpStatus).toBe(502)
        expect(error.excerpt).toContain("Bad Gateway")
      }
      expect(error.message + JSON.stringify(error)).not.toContain(SESSION_TOKEN)
    }))

  it.scoped("an empty 200 body gives UnexpectedResponse EmptyBody", () =>
    Effect.gen(function*() {
      const { error } = yield* scenario((_req, res) => {
        res.writeHead(200)
        res.end()
      })
      expect(error._tag).toBe("UnexpectedResponse")
      if (error._tag === "UnexpectedResponse") expect(error.reason).toBe("EmptyBody")
    }))

  it.scoped("malformed JSON gives UnexpectedResponse with the token redacted from the excerpt", () =>
    Effect.gen(function*() {
      const { error } = yield* scenario((_req, res) => {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(`{"status": {"code": 200, "message": {"text": "Success"}}, "token": "${SESSION_TOKEN}", `)
      })
      expect(error._tag).toBe("UnexpectedResponse")
      if (error._tag === "UnexpectedResponse") {
        expect(error.reason).toBe("InvalidJson")
        expect(error.excerpt).toContain("<redacted>")
      }
      expect(error.message + JSON.stringify(error)).not.toContain(SESSION_TOKEN)
    }))

  it.scoped("JSON without an envelope gives UnexpectedResponse NotAnEnvelope", () =>
    Effect.gen(function*() {
      const { error } = yield* scenario((_req, res) => json(res, 200, { hello: "world" }))
      expect(error._tag).toBe("UnexpectedResponse")
      if (error._tag === "UnexpectedResponse") expect(error.reason).toBe("NotAnEnvelope")
    }))

  it.scoped("a success envelope with the wrong data gives UnexpectedResponse UnexpectedShape naming the field", () =>
    Effect.gen(function*() {
      const { error } = yield* scenario((_req, res) =>
        json(res, 200, { ...envelope(200, "Success"), order: { orderID: "1" } })
      )
      expect(error._tag).toBe("UnexpectedResponse")
      if (error._tag === "UnexpectedResponse") {
        expect(error.reason).toBe("UnexpectedShape")
        expect(error.detail).toContain("orderCreateTime")
      }
    }))

  it.effect("a response that never completes times out (TestClock)", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* faultServer(() => {
        // never answers
      })
      const session = sessionFor(server.url)
      const fiber = yield* withClient(server.url, (client) =>
        Effect.flip(client.submitOrder(session, { orderID: "10423" })), { requestTimeout: "10 seconds" }).pipe(
          Effect.fork
        )
      yield* server.arrived(1)
      yield* TestClock.adjust("10 seconds")
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("Timeout")
      expect(server.count()).toBe(1)
    })))
})

describe("observability", () => {
  it.scoped("with a tracer provided, each command runs in one span with command, referenceID and attempts (as events), and no token anywhere", () =>
    Effect.gen(function*() {
      const server = yield* faultServer((_req, res, n) =>
        n === 1
          ? json(res, 500, envelope(500, "Something went wrong, that's all we know", "API0500"))
          : json(res, 200, { ...envelope(200, "Success"), referenceID: "RO-7", quotes: [] })
      )
      const spans: Array<
        {
          name: string
          attributes: ReadonlyMap<string, unknown>
          events: Array<[string, bigint, Record<string, unknown>]>
        }
      > = []
      const base = yield* Effect.tracer
      const recording = Tracer.make({
        context: base.context,
        span: (...args) => {
          const span = base.span(...args)
          spans.push(span as unknown as (typeof spans)[number])
          return span
        }
      })
      const logs = captureLogs()
      yield* withClient(
        server.url,
        (client) =>
          client.getProductQuotes(sessionFor(server.url), {
            searchTerm: "oil filter",
            quantity: 1,
            referenceID: "RO-7"
          })
      ).pipe(
        Effect.withTracer(recording),
        Effect.provide(logs.layer)
      )
      const command = spans.find((s) => s.name === "PunchoutClient.GetProductQuotes")
      expect(command?.attributes.get("punchout.command")).toBe("GetProductQuotes")
      expect(command?.attributes.get("punchout.referenceID")).toBe("RO-7")
      expect(command?.attributes.get("punchout.attempts")).toBe(2)
      expect(spans.map((s) => s.name)).toEqual(["PunchoutClient.GetProductQuotes"])
      expect(
        command?.events.filter(([name]) => name === "attempt").map(([, , attributes]) => attributes["punchout.attempt"])
      ).toEqual([1, 2])
      const everything = JSON.stringify(spans.map((s) => [s.name, [...s.attributes]])) + logs.lines.join("\n")
      expect(everything).not.toContain(SESSION_TOKEN)
      expect(logs.lines.some((line) => line.includes("retrying") && line.includes("\"punchout.attempt\":1"))).toBe(true)
    }))
})
