// How failures surface (issue #13): DNS failures, Retry-After beyond the cap, one-line input
// errors and configuration errors at layer build. Every case runs against a real server on loopback (or a
// host name that cannot resolve).
import { describe, expect, it } from "@effect/vitest"
import { NodeHttpClient } from "@effect/platform-node"
import { UndiciHttpClient } from "@shoplink/http-node"
import { Config, ConfigProvider, Duration, Effect, Either, Fiber, Layer, Redacted, TestClock } from "effect"
import { PunchoutClient, PunchoutError, ShowUrls } from "../src/index.js"
import {
  clientLayer,
  customer,
  envelope,
  faultServer,
  type Handler,
  json,
  order,
  quoteLine,
  sessionFor,
  sessionOptions,
  VENDOR_KEY,
  yieldToEventLoop
} from "./support/faultServer.js"

const UNRESOLVABLE = "http://shoplink-nonexistent.invalid"
const quotesOk: Handler = (_req, res) => json(res, 200, { ...envelope(200, "Success"), quotes: [quoteLine()] })
const quotes = (client: PunchoutClient.Service, url: string) =>
  client.getProductQuotes(sessionFor(url), { searchTerm: "oil filter", quantity: 1 })
const withClient = <A, E>(
  layer: Layer.Layer<PunchoutClient.PunchoutClient, unknown>,
  f: (client: PunchoutClient.Service) => Effect.Effect<A, E>
) => Effect.flatMap(PunchoutClient.PunchoutClient, f).pipe(Effect.provide(layer))

describe("a host name that does not resolve is HostNotFound, never sent", () => {
  for (
    const [name, transport] of [["NodeHttpClient.layerUndici", NodeHttpClient.layerUndici], [
      "UndiciHttpClient",
      UndiciHttpClient.layer
    ]] as const
  ) {
    it.scoped(`createSession and CreateOrder over ${name}: retried as never sent, then HostNotFound`, () =>
      Effect.gen(function*() {
        const layer = clientLayer(UNRESOLVABLE, {}, transport)
        const session = yield* withClient(
          layer,
          (client) => Effect.flip(client.createSession(customer, sessionOptions))
        )
        const create = yield* withClient(
          layer,
          (client) =>
            Effect.flip(
              client.createOrder(sessionFor(UNRESOLVABLE), { productID: "51515", brandID: "WIX", quantity: 1 })
            )
        )
        for (const error of [session, create]) {
          expect(error._tag === "RequestFailed" && [error.reason, error.requestSent, error.attempt])
            .toEqual(["HostNotFound", false, 3])
          expect(error.message).toContain("ENOTFOUND")
        }
      }))
  }

  it.scoped("a resolver that cannot answer (EAI_AGAIN) is HostNotFound too", () =>
    Effect.gen(function*() {
      // undici resolves through this lookup: the DNS failure is real, the resolver scripted.
      const lookup = (hostname: string, _options: unknown, callback: (error: Error) => void) =>
        process.nextTick(() =>
          callback(
            Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname}`), {
              code: "EAI_AGAIN",
              syscall: "getaddrinfo",
              hostname
            })
          )
        )
      const transport = UndiciHttpClient.layerWith({ agent: { connect: { lookup } as never } })
      const error = yield* withClient(clientLayer("http://distributor.example", {}, transport), (client) =>
        Effect.flip(quotes(client, "http://distributor.example")))
      expect(error._tag === "RequestFailed" && [error.reason, error.requestSent]).toEqual(["HostNotFound", false])
      expect(error.message).toContain("EAI_AGAIN")
    }))
})

describe("Retry-After longer than retryAfterCap ends the retries with the delay", () => {
  const tooLong: Handler = (_req, res) => {
    res.writeHead(429, { "content-type": "text/plain", "retry-after": "3600" })
    res.end("slow down")
  }
  const fastRetries = { retry: { maxAttempts: 4, baseDelay: "10 millis", maxDelay: "100 millis" } } as const

  it.scopedLive("a 429 with Retry-After: 3600 fails RateLimited with retryAfter 1 hour after 1 request", () =>
    Effect.gen(function*() {
      const server = yield* faultServer(tooLong)
      const error = yield* withClient(
        clientLayer(server.url, fastRetries),
        (client) => Effect.flip(quotes(client, server.url))
      )
      expect(error).toBeInstanceOf(PunchoutError.RateLimited)
      if (error._tag !== "RateLimited") return
      expect(error.retryAfter && Duration.toMillis(error.retryAfter)).toBe(3_600_000)
      expect([error.httpStatus, error.attempt]).toEqual([429, 1])
      expect(error.message).toContain("retry after 1h")
      expect(server.count()).toBe(1)
    }))

  it.scopedLive("a 503 with Retry-After: 3600 stops at once too, with the delay on the transport error", () =>
    Effect.gen(function*() {
      const server = yield* faultServer((_req, res) => {
        res.writeHead(503, { "content-type": "text/html", "retry-after": "3600" })
        res.end("<html>maintenance</html>")
      })
      const error = yield* withClient(
        clientLayer(server.url, fastRetries),
        (client) => Effect.flip(quotes(client, server.url))
      )
      expect(
        error._tag === "UnexpectedResponse" &&
          [error.httpStatus, error.retryAfter && Duration.toMillis(error.retryAfter)]
      ).toEqual([503, 3_600_000])
      expect(server.count()).toBe(1)
    }))

  it.effect("a 429 with Retry-After within the cap waits that long, even past maxDelay, then succeeds (TestClock)", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* faultServer((req, res, n) => {
        if (n > 1) return quotesOk(req, res, n)
        res.writeHead(429, { "retry-after": "20" })
        res.end()
      })
      const fiber = yield* withClient(
        clientLayer(server.url, {
          requestTimeout: "60 seconds",
          retry: { maxDelay: "1 second", retryAfterCap: "30 seconds" }
        }),
        (client) => quotes(client, server.url)
      ).pipe(Effect.fork)
      yield* server.arrived(1)
      while (!Array.from(yield* TestClock.sleeps()).includes(20_000)) yield* yieldToEventLoop
      yield* TestClock.adjust("19 seconds")
      expect(server.count()).toBe(1)
      yield* TestClock.adjust("1 second")
      const result = yield* Fiber.join(fiber)
      expect(result.quotes).toHaveLength(1)
      expect(server.count()).toBe(2)
    })))

  it.scoped("a 429 without Retry-After is retried with backoff and ends as RateLimited; CreateOrder does not retry it", () =>
    Effect.gen(function*() {
      const server = yield* faultServer((_req, res) => {
        res.writeHead(429)
        res.end()
      })
      const error = yield* withClient(clientLayer(server.url), (client) => Effect.flip(quotes(client, server.url)))
      expect(error._tag === "RateLimited" && [error.attempt, error.retryAfter]).toEqual([3, undefined])
      const create = yield* withClient(
        clientLayer(server.url),
        (client) =>
          Effect.flip(client.createOrder(sessionFor(server.url), { productID: "51515", brandID: "WIX", quantity: 1 }))
      )
      expect(create._tag).toBe("RateLimited")
      expect(server.count()).toBe(4)
    }))
})

describe("InvalidInput is one line naming the field and the rule, with the details on the error", () => {
  it.scoped("an empty customer apiToken", () =>
    Effect.gen(function*() {
      const server = yield* faultServer((_req, res) => json(res, 500, {}))
      const error = yield* withClient(clientLayer(server.url), (client) =>
        Effect.flip(client.createSession({ ...customer, apiToken: Redacted.make("") }, sessionOptions)))
      expect(error._tag).toBe("InvalidInput")
      if (error._tag !== "InvalidInput") {
        return
      }
      expect(error.message).toBe("apiToken must not be empty")
      expect([error.operation, error.field, error.rule]).toEqual(["CreateSession", "apiToken", "must not be empty"])
      expect(server.count()).toBe(0)
    }))

  it.scoped("nested fields, every command and the Show URLs read as one line", () =>
    Effect.gen(function*() {
      const server = yield* faultServer((_req, res) => json(res, 200, { ...envelope(200, "Success"), order: order() }))
      const errors = yield* withClient(clientLayer(server.url), (client) =>
        Effect.all([
          Effect.flip(
            client.createOrder(sessionFor(server.url), {
              quotes: [{ productID: "51515", brandID: "WIX", quantity: 0 }]
            })
          ),
          Effect.flip(client.submitOrder(sessionFor(server.url), { orderID: "" })),
          Effect.flip(
            client.createSession(customer, {
              ...sessionOptions,
              webhooks: { order: "nope", quote: "https://sms.example/q" }
            })
          )
        ]))
      expect(errors.map((e) => e._tag === "InvalidInput" && [e.field, e.message])).toEqual([
        ["quotes.0.quantity", "quotes.0.quantity must be a positive whole number, got 0"],
        ["orderID", "orderID must not be empty"],
        ["webhooks.order", "webhooks.order must be an absolute http(s) URL, got \"nope\""]
      ])
      for (const error of errors) expect(error.message).not.toContain("\n")
      const show = ShowUrls.showOrderUrl(sessionFor(server.url), { orderId: " " })
      expect(Either.isLeft(show) && [show.left.field, show.left.rule, show.left.message]).toEqual([
        "orderId",
        "must not be empty",
        "orderId must not be empty"
      ])
      expect(server.count()).toBe(0)
    }))
})

describe("settings wrong on their face fail when the layer is built: ConfigurationError", () => {
  const build = (options: Partial<PunchoutClient.PunchoutClientOptions>) =>
    Layer.build(
      PunchoutClient.layer({ baseUrl: "http://127.0.0.1:1", vendorApiKey: Redacted.make(VENDOR_KEY), ...options }).pipe(
        Layer.provide(NodeHttpClient.layerUndici)
      )
    ).pipe(Effect.flip)

  it.scoped("layer: an empty key, a base URL that does not parse, a bad timeout or retry setting", () =>
    Effect.gen(function*() {
      const cases: Array<[Partial<PunchoutClient.PunchoutClientOptions>, string]> = [
        [{ vendorApiKey: Redacted.make("") }, "vendorApiKey"],
        [{ vendorApiKey: Redacted.make("  ") }, "vendorApiKey"],
        [{ baseUrl: "" }, "baseUrl"],
        [{ baseUrl: "distributor.example" }, "baseUrl"],
        [{ baseUrl: "ftp://distributor.example" }, "baseUrl"],
        [{ baseUrl: "https://distributor.example/?token=1" }, "baseUrl"],
        [{ requestTimeout: "soon" as never }, "requestTimeout"],
        [{ requestTimeout: 0 }, "requestTimeout"],
        [{ retry: { maxAttempts: Number.NaN } }, "retry.maxAttempts"],
        [{ retry: { baseDelay: "fast" as never } }, "retry.baseDelay"]
      ]
      for (const [options, setting] of cases) {
        const error = yield* build(options)
        expect(error).toBeInstanceOf(PunchoutError.ConfigurationError)
        expect(error._tag === "ConfigurationError" && error.setting).toBe(setting)
        expect(error.message).not.toContain("\n")
      }
      expect(String(yield* build({ vendorApiKey: Redacted.make("") }))).toContain(
        "Punchout client configuration: vendorApiKey: must not be empty"
      )
    }))

  it.scoped("layerConfig: the same checks on values read from configuration", () =>
    Effect.gen(function*() {
      const live = PunchoutClient.layerConfig({
        baseUrl: Config.string("SHOPLINK_PUNCHOUT_BASE_URL"),
        vendorApiKey: Config.redacted("SHOPLINK_VENDOR_API_KEY")
      }).pipe(Layer.provide(NodeHttpClient.layerUndici))
      const withEnv = (entries: Array<[string, string]>) =>
        Effect.flip(Layer.build(live)).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(entries))))
      const badUrl = yield* withEnv([["SHOPLINK_PUNCHOUT_BASE_URL", "not a url"], ["SHOPLINK_VENDOR_API_KEY", "k"]])
      expect(badUrl._tag === "ConfigurationError" && badUrl.setting).toBe("baseUrl")
      const emptyKey = yield* withEnv([["SHOPLINK_PUNCHOUT_BASE_URL", "http://127.0.0.1:1"], [
        "SHOPLINK_VENDOR_API_KEY",
        ""
      ]])
      expect(emptyKey._tag === "ConfigurationError" && emptyKey.setting).toBe("vendorApiKey")
    }))
})
