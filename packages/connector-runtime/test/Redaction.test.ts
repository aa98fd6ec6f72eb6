// No launch key, link signature or token in any log line, span attribute, span event or error
// message: every public route (webhooks, callback, launch link, parts link, parts.csv) driven with
// bad methods, bad paths, bad keys and bad bodies, at the trace level, with OTLP export to a local
// collector and every console line captured.
import { HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@shoplink/http-node"
import { ConnectorRuntime, Observability } from "@shoplink/connector-runtime"
import { SANDBOX_FIXTURES, startSandbox } from "@shoplink/sandbox"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { createServer, request as httpRequest } from "node:http"
import { vi } from "vitest"
import { makeMemorySms } from "./support/memorySms.js"

const [ford] = SANDBOX_FIXTURES.vehicles
const linkSecret = Redacted.make("launch-link-secret-for-redaction")

/** A bare OTLP/HTTP collector: records every POST body. */
const startCollector = Effect.gen(function*() {
  const bodies: Array<string> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      bodies.push(Buffer.concat(chunks).toString("utf8"))
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  yield* Effect.acquireRelease(
    Effect.async<void>((resume) => void server.listen(0, "127.0.0.1", () => resume(Effect.void))),
    () => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  )
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return { url: `http://127.0.0.1:${port}`, bodies }
})

/** One raw request (any method, any path, exactly as written), its status or `0` if the socket closed. */
const send = (port: number, method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  Effect.async<number>((resume) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method, path, headers: { connection: "close", ...headers } },
      (res) => {
        res.resume()
        res.on("end", () => resume(Effect.succeed(res.statusCode ?? 0)))
        res.on("error", () => resume(Effect.succeed(res.statusCode ?? 0)))
      }
    )
    req.on("error", () => resume(Effect.succeed(0)))
    req.end(body)
  })

const scenarios = [
  ["the runtime's JSON logger and OTLP export", Observability.layerLogger({ format: "json", level: "trace" })],
  // Effect's own logfmt logger, which redacts nothing: what `serve` and the lean path log is clean by itself.
  [
    "Effect's plain logfmt logger",
    Layer.merge(
      Logger.replace(Logger.defaultLogger, Logger.withConsoleLog(Logger.logfmtLogger)),
      Logger.minimumLogLevel(LogLevel.All)
    )
  ]
] as const

describe("Redaction: keys, signatures and tokens never reach logs or traces", () => {
  for (const [name, logger] of scenarios) {
    it.scopedLive(`every public route with bad methods, paths, keys and bodies, at trace level: ${name}`, () => {
      const lines: Array<string> = []
      const capture = (...args: Array<unknown>) => void lines.push(args.map(String).join(" "))
      const spies = (["log", "info", "warn", "error", "debug", "trace"] as const).map((name) =>
        vi.spyOn(console, name).mockImplementation(capture)
      )
      return Effect.gen(function*() {
        const collector = yield* startCollector
        const sandbox = yield* startSandbox()
        const client = yield* Layer.build(UndiciHttpClient.layer)
        const telemetry = Observability.layerTelemetry({
          endpoint: collector.url,
          protocol: "http/json",
          traceExportInterval: "100 millis",
          metricExportInterval: "1 hour"
        }).pipe(Layer.provide(Layer.succeedContext(client)))

        const secrets: Array<string> = []
        yield* Effect.gen(function*() {
          const sms = makeMemorySms([{ id: "ro_a", number: "1042", vehicle: { vin: ford!.vin } }])
          const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
          const port = server.address._tag === "TcpAddress" ? server.address.port : 0
          const base = `http://127.0.0.1:${port}`
          const runtime = yield* ConnectorRuntime.make(sms.layer, {
            publicBaseUrl: base,
            smsVendorName: "Shoplink Tests",
            punchout: { baseUrl: sandbox.url, vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey) },
            storage: "memory",
            launchLinkSecrets: [linkSecret],
            worker: false,
            maxBodyBytes: 4096
          }).pipe(Effect.provide(client))
          yield* runtime.serve(
            server,
            HttpRouter.concatAll(runtime.publicRouter, runtime.apiRouter, runtime.healthRouter, runtime.adminRouter)
              .pipe(
                HttpRouter.toHttpApp,
                Effect.flatten
              )
          )
          const { us } = sandbox.credentials.customers
          yield* runtime.shops.add({
            id: "shop_a",
            name: "Main Street Auto",
            distributor: {
              accountNo: us.accountNo,
              username: us.username,
              country: "US",
              apiToken: Redacted.make(us.apiToken)
            },
            sms: { apiKey: Redacted.make("sms-key-for-redaction") }
          })
          const vendorKey = Redacted.value((yield* runtime.apiKeys.create("sms-backend")).key)
          // A real launch: its session token and its launch key (from the distributor's delivery).
          const launched = yield* runtime.launch({ shopId: "shop_a", repairOrderId: "ro_a" })
          const token = new URL(Redacted.value(launched.url)).searchParams.get("token")!
          const distributor = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.withTracerEnabled(effect, false)
          yield* distributor(
            sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 })
          )
          yield* distributor(sandbox.admin.driver.press(token, "exportAndSubmit"))
          const [delivery] = yield* distributor(sandbox.admin.awaitDeliveries(1))
          const key = /\/webhooks\/([^/]+)\//.exec(delivery!.url)![1]!
          const launchQuery = new URL(yield* runtime.launchLink({ shopId: "shop_a", repairOrderId: "ro_a" })).search
          const partsQuery = new URL(yield* runtime.partsLink({ shopId: "shop_a", repairOrderId: "ro_a" })).search
          const sig = new URLSearchParams(launchQuery).get("sig")!
          const partsSig = new URLSearchParams(partsQuery).get("sig")!
          // Keys and signatures that are well-formed but unknown (32 base64url characters, 43 for a signature).
          const unknownKey = "UnknownLaunchKeyForRedactionTest"
          const badSig = "BadSignatureForTheRedactionTest_0123456789A"
          const badToken = "slk_0000000000_BadBearerTokenForRedactionTest0000000000000"
          secrets.push(
            key,
            token,
            sig,
            partsSig,
            unknownKey,
            badSig,
            vendorKey,
            badToken,
            us.apiToken,
            sandbox.credentials.vendorApiKey
          )

          const tampered = (query: string) => query.replace(/sig=[^&]+/, `sig=${badSig}`)
          const bodies = ["", "{not json", JSON.stringify({ orderID: 1 }), "x".repeat(5000), `<a>${key}</a>`]
          const methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
          const paths: Array<string> = []
          for (const k of [key, unknownKey, `${key}%2F`, `${key}.x`]) {
            paths.push(
              `/shoplink/webhooks/${k}/order`,
              `/shoplink/webhooks/${k}/quote`,
              `/shoplink/webhooks/${k}/nope`,
              `/shoplink/webhooks/${k}`,
              `/shoplink/webhooks/${k}/order/extra`,
              `/shoplink/webhooks/${k}/order?again=${k}`,
              `/shoplink//webhooks/${k}/order`,
              `/shoplink/Webhooks/${k}/order`,
              `/shoplink/webhook/${k}/order`,
              `/shoplink/callback/${k}`,
              `/shoplink/callback/${k}/more`,
              `/shoplink/callback/${k}?token=${token}`,
              `/SHOPLINK/callback/${k}`,
              `/elsewhere/${k}`
            )
          }
          for (const query of [launchQuery, tampered(launchQuery), `?sig=${sig}`, `?token=${token}`]) {
            paths.push(
              `/shoplink/launch/link${query}`,
              `/shoplink/launch/link/more${query}`,
              `/shoplink/launch/links${query}`,
              `/shoplink/parts${query}`,
              `/shoplink/parts.csv${query}`,
              `/shoplink/parts.csvx${query}`,
              `/shoplink/launch${query}`,
              `/nowhere${query}`
            )
          }
          for (const query of [partsQuery, tampered(partsQuery)]) {
            paths.push(`/shoplink/parts${query}`, `/shoplink/parts.csv${query}`, `/shoplink/parts/${partsSig}${query}`)
          }
          let answered = 0
          for (const path of paths) {
            for (const method of methods) {
              const body = method === "GET" || method === "OPTIONS" ? undefined : bodies[answered % bodies.length]
              const status = yield* send(
                port,
                method,
                path,
                body,
                body === undefined ? {} : { "content-type": "application/json" }
              )
              if (status > 0) answered++
            }
          }
          // Bearer tokens, good and bad, on the authenticated routes and in odd places.
          for (const authorization of [`Bearer ${vendorKey}`, `Bearer ${badToken}`, badToken]) {
            yield* send(port, "POST", "/shoplink/launch", "{", { authorization, "content-type": "application/json" })
            yield* send(port, "GET", "/shoplink/parts?shop=shop_a&ro=ro_a", undefined, { authorization })
            yield* send(port, "GET", "/metrics", undefined, { authorization })
            yield* send(port, "GET", `/shoplink/nothing-here`, undefined, { authorization, cookie: `s=${token}` })
          }
          expect(answered).toBeGreaterThan(paths.length * 3)
        }).pipe(
          Effect.scoped,
          Effect.provide(telemetry),
          Effect.provide(logger)
        )

        const traces = collector.bodies.join("\n")
        expect(traces).toContain("http.server")
        expect(traces).toContain("/shoplink/webhooks/:key/order")
        expect(lines.some((line) => line.includes("request failed"))).toBe(true)
        expect(lines.length).toBeGreaterThan(10)
        const logs = lines.join("\n")
        for (const secret of secrets) {
          const inLogs = lines.filter((line) => line.includes(secret))
          expect(inLogs.slice(0, 3), `a log line holds ${secret}`).toEqual([])
          const inSpans = collector.bodies.flatMap((body) => {
            const at = body.indexOf(secret)
            return at === -1 ? [] : [body.slice(Math.max(0, at - 300), at + 100)]
          })
          expect(inSpans, `a span holds ${secret}`).toEqual([])
        }
        expect(logs).not.toMatch(/sig=(?!…|<|%E2)[A-Za-z0-9_-]{8}/)
        expect(traces).not.toMatch(/sig=(?!…|<|%E2)[A-Za-z0-9_-]{8}/)
      }).pipe(Effect.ensuring(Effect.sync(() => spies.forEach((spy) => spy.mockRestore()))))
    }, 120_000)
  }
})
