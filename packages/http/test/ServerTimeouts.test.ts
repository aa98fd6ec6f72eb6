// The server timeouts on a real node:http server on loopback: a body trickled past the request
// timeout and headers trickled past the headers timeout get a 408 and a closed socket; an idle
// keep-alive connection is closed; the settings read seconds or durations.
import { describe, expect, it } from "@effect/vitest"
import { ServerTimeouts } from "@shoplink/http"
import { ConfigProvider, Effect, Either } from "effect"
import { createServer } from "node:http"
import { connect } from "node:net"

const listen = (options: ServerTimeouts.Options) =>
  Effect.acquireRelease(
    Effect.async<{ readonly port: number; readonly close: () => void }>((resume) => {
      const server = createServer(ServerTimeouts.nodeServerOptions(options), (req, res) => {
        req.resume()
        req.on("end", () => res.end("ok"))
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        resume(Effect.succeed({
          port: typeof address === "object" && address !== null ? address.port : 0,
          close: () => {
            server.closeAllConnections()
            server.close()
          }
        }))
      })
    }),
    ({ close }) => Effect.sync(close)
  )

/** Writes `head`, then one byte of `drip` every 200 ms; resolves with what came back and when the socket closed. */
const trickle = (port: number, head: string, drip: string) =>
  Effect.async<{ readonly received: string; readonly closedAfterMs: number }>((resume) => {
    const started = Date.now()
    const socket = connect(port, "127.0.0.1")
    let received = ""
    let at = 0
    socket.on("connect", () => socket.write(head))
    const timer = setInterval(() => {
      if (at < drip.length && socket.writable) socket.write(drip[at++]!)
    }, 200)
    socket.on("data", (chunk) => void (received += chunk.toString("latin1")))
    socket.on("error", () => undefined)
    socket.on("close", () => {
      clearInterval(timer)
      resume(Effect.succeed({ received, closedAfterMs: Date.now() - started }))
    })
    return Effect.sync(() => {
      clearInterval(timer)
      socket.destroy()
    })
  })

describe("ServerTimeouts", () => {
  it("nodeServerOptions: the defaults, the headers timeout never above the request timeout, the checking interval from them", () => {
    expect(ServerTimeouts.nodeServerOptions()).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 2_500
    })
    expect(
      ServerTimeouts.nodeServerOptions({
        headersTimeout: "1 minute",
        requestTimeout: "20 seconds",
        keepAliveTimeout: 1000
      })
    ).toEqual({
      headersTimeout: 20_000,
      requestTimeout: 20_000,
      keepAliveTimeout: 1_000,
      connectionsCheckingInterval: 5_000
    })
    const server = ServerTimeouts.apply(createServer(), { requestTimeout: "2 seconds", headersTimeout: "1 second" })
    expect([
      server.headersTimeout,
      server.requestTimeout,
      server.keepAliveTimeout,
      (server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval
    ]).toEqual([1000, 2000, 5000, 250])
  })

  it.effect("config: seconds or durations, empty is the default, anything else names the variable", () =>
    Effect.gen(function*() {
      const names = { headersTimeout: "H", requestTimeout: "R", keepAliveTimeout: "K" }
      const read = (env: Record<string, string>) =>
        Effect.either(
          Effect.withConfigProvider(ServerTimeouts.config(names), ConfigProvider.fromMap(new Map(Object.entries(env))))
        )
      const read1 = yield* read({ H: "5", R: "45 seconds", K: "" })
      expect(Either.isRight(read1) && ServerTimeouts.nodeServerOptions(read1.right)).toEqual({
        headersTimeout: 5_000,
        requestTimeout: 45_000,
        keepAliveTimeout: 5_000,
        connectionsCheckingInterval: 1_250
      })
      for (const bad of ["0", "-1", "soon", "Infinity"]) {
        const refused = yield* read({ R: bad })
        expect(Either.isLeft(refused), bad).toBe(true)
        if (Either.isLeft(refused)) expect(String(refused.left)).toContain("R")
      }
    }))

  it.scopedLive("a body trickled past the request timeout: 408 and the socket closed", () =>
    Effect.gen(function*() {
      const { port } = yield* listen({ headersTimeout: "1 second", requestTimeout: "1500 millis" })
      const head = "POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n"
      const result = yield* trickle(port, head, "x".repeat(200))
      expect(result.received).toMatch(/^HTTP\/1\.1 408 /)
      expect(result.closedAfterMs).toBeGreaterThanOrEqual(1400)
      expect(result.closedAfterMs).toBeLessThan(15_000)
    }))

  it.scopedLive("headers trickled past the headers timeout: 408 and the socket closed", () =>
    Effect.gen(function*() {
      const { port } = yield* listen({ headersTimeout: "1 second", requestTimeout: "5 seconds" })
      const result = yield* trickle(port, "GET / HTTP/1.1\r\n", "X-Slow: " + "y".repeat(200))
      expect(result.received).toMatch(/^HTTP\/1\.1 408 /)
      expect(result.closedAfterMs).toBeGreaterThanOrEqual(900)
      expect(result.closedAfterMs).toBeLessThan(15_000)
    }))

  it.scopedLive("an idle keep-alive connection is closed after the keep-alive timeout", () =>
    Effect.gen(function*() {
      const { port } = yield* listen({ keepAliveTimeout: "1 second" })
      const result = yield* trickle(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", "")
      expect(result.received).toMatch(/^HTTP\/1\.1 200 /)
      expect(result.closedAfterMs).toBeGreaterThanOrEqual(900)
      expect(result.closedAfterMs).toBeLessThan(15_000)
    }))
})
