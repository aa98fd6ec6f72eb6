// Every page the sandbox serves (the ordering pages, their error pages, the API docs) carries the
// security headers; its server cuts off a client that trickles a request past its timeouts.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { connect } from "node:net"
import { SANDBOX_FIXTURES, startSandbox } from "../src/index.js"
import { call, session } from "./helpers.js"

const expectPageHeaders = (what: string, headers: Headers) => {
  expect(headers.get("content-type"), what).toContain("text/html")
  const csp = headers.get("content-security-policy") ?? ""
  expect(csp, what).toContain("default-src 'none'")
  expect(csp, what).toContain("frame-ancestors 'none'")
  expect(csp, what).not.toContain("script")
  expect(headers.get("x-frame-options"), what).toBe("DENY")
  expect(headers.get("x-content-type-options"), what).toBe("nosniff")
  expect(headers.get("referrer-policy"), what).toBe("no-referrer")
}

describe("sandbox pages: security headers", () => {
  it.scoped("ShowCatalog, ShowOrder's error, an unknown token's page and the API docs", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const vehicle = SANDBOX_FIXTURES.vehicles[0]!
      const pages = {
        catalog: yield* call(s.command("ShowCatalog", `&vin=${vehicle.vin}&searchTerm=oil%20filter`)),
        orderError: yield* call(s.command("ShowOrder")),
        unknownToken: yield* call(`${sandbox.url}/punchout/v1/ShowCatalog?token=nope`),
        docs: yield* call(`${sandbox.url}/`)
      }
      expect([pages.catalog.status, pages.orderError.status, pages.unknownToken.status, pages.docs.status]).toEqual([
        200,
        400,
        401,
        200
      ])
      for (const [what, page] of Object.entries(pages)) {
        expectPageHeaders(what, page.headers)
        expect(page.text, what).not.toMatch(/<script|\son[a-z]+=/i)
      }
      // Its forms post to the sandbox, and Export is redirected to the SMS's callback page.
      expect(pages.catalog.headers.get("content-security-policy")).toContain("form-action 'self' http: https:")
    }))
})

describe("sandbox server: timeouts", () => {
  it.scopedLive("a body trickled past the request timeout gets a 408 and a closed socket", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox({
        serverTimeouts: { headersTimeout: "1 second", requestTimeout: "1500 millis" }
      })
      const port = Number(new URL(sandbox.url).port)
      const result = yield* Effect.async<{ readonly received: string; readonly ms: number }>((resume) => {
        const started = Date.now()
        const socket = connect(port, "127.0.0.1")
        let received = ""
        socket.on(
          "connect",
          () =>
            socket.write(
              "POST /punchout/v1/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"
            )
        )
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
      expect(result.received).toMatch(/^HTTP\/1\.1 408 /)
      expect(result.ms).toBeGreaterThanOrEqual(1400)
      expect(result.ms).toBeLessThan(15_000)
    }))
})
