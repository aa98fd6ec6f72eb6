// The runtime on a server made with `Settings.serverTimeouts` (here 1 s for headers, 1.5 s for a
// request): a webhook body trickled to the lean path, a launch body trickled to the platform's
// routes and headers trickled to either get a 408 and a closed socket, well before Node's 300 s.
import { HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@shoplink/http-node"
import { ConnectorRuntime, Settings } from "@shoplink/connector-runtime"
import { SANDBOX_FIXTURES, startSandbox } from "@shoplink/sandbox"
import { ConfigProvider, Effect, Layer, Redacted } from "effect"
import { createServer } from "node:http"
import { connect } from "node:net"
import { makeMemorySms } from "./support/memorySms.js"

const [ford] = SANDBOX_FIXTURES.vehicles

/** Writes `head`, then a space every 200 ms; what came back and when the socket closed. */
const trickle = (port: number, head: string) =>
  Effect.async<{ readonly received: string; readonly ms: number }>((resume) => {
    const started = Date.now()
    const socket = connect(port, "127.0.0.1")
    let received = ""
    socket.on("connect", () => socket.write(head))
    const timer = setInterval(() => socket.writable && socket.write(" "), 200)
    socket.on("data", (chunk) => void (received += chunk.toString("latin1")))
    socket.on("error", () => undefined)
    socket.on("close", () => {
      clearInterval(timer)
      resume(Effect.succeed({ received, ms: Date.now() - started }))
    })
    return Effect.sync(() => {
      clearInterval(timer)
      socket.destroy()
    })
  })

describe("server timeouts", () => {
  it.scopedLive("trickled bodies (lean webhook path, platform routes) and trickled headers: 408, socket closed", () =>
    Effect.gen(function*() {
      const env = ConfigProvider.fromMap(
        new Map([["SHOPLINK_HEADERS_TIMEOUT", "1"], ["SHOPLINK_REQUEST_TIMEOUT", "1500 millis"]])
      )
      const timeouts = yield* Effect.withConfigProvider(Settings.serverTimeouts, env)
      expect(timeouts).toMatchObject({ headersTimeout: 1000, requestTimeout: 1500, keepAliveTimeout: 5000 })
      expect(yield* Effect.withConfigProvider(Settings.serverTimeouts, ConfigProvider.fromMap(new Map())))
        .toMatchObject({
          headersTimeout: 10_000,
          requestTimeout: 30_000
        })

      const sandbox = yield* startSandbox()
      const sms = makeMemorySms([{ id: "ro_a", number: "1042", vehicle: { vin: ford!.vin } }])
      const server = yield* NodeHttpServer.make(() => createServer(timeouts), { port: 0, host: "127.0.0.1" })
      const port = server.address._tag === "TcpAddress" ? server.address.port : 0
      const runtime = yield* ConnectorRuntime.make(sms.layer, {
        publicBaseUrl: `http://127.0.0.1:${port}`,
        smsVendorName: "Shoplink Tests",
        punchout: { baseUrl: sandbox.url, vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey) },
        storage: "memory",
        worker: false
      }).pipe(Effect.provide(yield* Layer.build(UndiciHttpClient.layer)))
      yield* runtime.serve(
        server,
        HttpRouter.concat(runtime.publicRouter, runtime.apiRouter).pipe(HttpRouter.toHttpApp, Effect.flatten)
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
        sms: { apiKey: Redacted.make("sms-key") }
      })
      const vendorKey = Redacted.value((yield* runtime.apiKeys.create("sms-backend")).key)
      // A real launch key (from the distributor's delivery); the delivery also puts the lean path in front.
      const launched = yield* runtime.launch({ shopId: "shop_a", repairOrderId: "ro_a" })
      const token = new URL(Redacted.value(launched.url)).searchParams.get("token")!
      yield* Effect.withTracerEnabled(
        sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 }),
        false
      )
      yield* Effect.withTracerEnabled(sandbox.admin.driver.press(token, "export"), false)
      const [delivery] = yield* Effect.withTracerEnabled(sandbox.admin.awaitDeliveries(1), false)
      expect(delivery!.status).toBe(200)
      const webhookPath = new URL(delivery!.url).pathname

      const cases = {
        webhook:
          `POST ${webhookPath} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{`,
        launch:
          `POST /shoplink/launch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${vendorKey}\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{`,
        headers: `GET /shoplink/parts HTTP/1.1\r\nHost: x\r\nX-Slow:`
      }
      const results = yield* Effect.all(
        Object.fromEntries(Object.entries(cases).map(([name, head]) => [name, trickle(port, head)])),
        { concurrency: "unbounded" }
      )
      for (const [name, result] of Object.entries(results)) {
        expect(result.received, name).toMatch(/^HTTP\/1\.1 408 /)
        expect(result.ms, name).toBeGreaterThanOrEqual(900)
        expect(result.ms, name).toBeLessThan(20_000)
      }
    }))
})
