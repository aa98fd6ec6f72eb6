// Faults the fake Shopmonkey cannot produce: a server that never answers, refused connections,
// bodies that are not the documented shape, and a server that always claims another page.
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Option, Redacted, TestClock } from "effect"
import type * as Http from "node:http"
import { ShopmonkeyClient } from "../src/index.js"
import { awaitSleep, driveClock, TEST_TIMEOUT_MILLIS, yieldToEventLoop } from "./support.js"
import * as Faults from "@shoplink/vitest-config/faults"

// The shared fault server (@shoplink/vitest-config/faults), handed node's request as it arrives.
const bareServer = (handler: (req: Http.IncomingMessage, res: Http.ServerResponse) => void) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.promise(() => Faults.startFaultServer((_request, res, { raw }) => handler(raw, res))),
      (server) => Effect.promise(server.close)
    ),
    (server) => ({ url: `${server.url}/v3`, count: () => server.started() })
  )

const closedPort: Effect.Effect<number> = Effect.promise(Faults.closedPort)

const client = (baseUrl: string, options: Partial<ShopmonkeyClient.Options> = {}) =>
  ShopmonkeyClient.layer({ apiKey: Redacted.make("k"), baseUrl, timeout: TEST_TIMEOUT_MILLIS, ...options }).pipe(
    Layer.provide(FetchHttpClient.layer)
  )

const run = <A>(
  baseUrl: string,
  f: (c: ShopmonkeyClient.Service) => Effect.Effect<A, unknown>,
  options: Partial<ShopmonkeyClient.Options> = {}
) => driveClock(Effect.flatMap(ShopmonkeyClient.ShopmonkeyClient, f).pipe(Effect.provide(client(baseUrl, options))))

const errorOf = (exit: Exit.Exit<unknown, unknown>) => {
  if (Exit.isSuccess(exit) || exit.cause._tag !== "Fail") throw new Error(`expected a failure, got ${String(exit)}`)
  return exit.cause.error as {
    readonly reason: string
    readonly attempts: number
    readonly retryable: boolean
    readonly requestSent: boolean
  }
}

const json = (res: Http.ServerResponse, body: unknown) => Faults.sendJson(res, 200, body)

describe("faults", () => {
  it.scoped("a request without an answer times out on the clock, then is retried", () =>
    Effect.gen(function*() {
      const server = yield* bareServer(() => {})
      // The timeout starts before the request is on the wire: move the clock only once it arrived.
      const arrived = (n: number): Effect.Effect<void> =>
        Effect.suspend(() => (server.count() >= n ? Effect.void : Effect.zipRight(yieldToEventLoop, arrived(n))))
      const fiber = yield* Effect.fork(
        Effect.flatMap(ShopmonkeyClient.ShopmonkeyClient, (c) => c.getOrder("ord_1")).pipe(
          Effect.provide(client(server.url, { timeout: "5 seconds", maxAttempts: 2, baseDelay: "1 second" }))
        )
      )
      yield* arrived(1)
      yield* TestClock.adjust("4999 millis")
      expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
      yield* TestClock.adjust("1 milli")
      const [backoff] = yield* awaitSleep
      const now = yield* TestClock.currentTimeMillis
      expect(backoff! - now).toBeGreaterThanOrEqual(500)
      expect(backoff! - now).toBeLessThanOrEqual(1000)
      yield* TestClock.adjust(backoff! - now)
      yield* arrived(2)
      yield* TestClock.adjust("5 seconds")
      const error = errorOf(yield* Fiber.await(fiber))
      expect(error.reason).toBe("Timeout")
      expect(error.attempts).toBe(2)
      expect(error.retryable).toBe(true)
      expect(server.count()).toBe(2)
    }))

  it.scoped("a refused connection is retried, even for a create", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const { exit } = yield* run(`http://127.0.0.1:${port}/v3`, (c) => c.createVendor({ name: "X" }), {
        maxAttempts: 3
      })
      const error = errorOf(exit)
      expect(error.reason).toBe("Transport")
      expect(error.requestSent).toBe(false)
      expect(error.attempts).toBe(3)
    }))

  it.scoped("a success body of the wrong shape is a Decode error, not retried", () =>
    Effect.gen(function*() {
      const server = yield* bareServer((_req, res) => json(res, { success: true, data: { id: 42 } }))
      const { exit } = yield* run(server.url, (c) => c.getOrder("ord_1"))
      const error = errorOf(exit)
      expect(error.reason).toBe("Decode")
      expect(error.retryable).toBe(false)
      expect(server.count()).toBe(1)
    }))

  it.scoped("success: false with HTTP 200 is an error", () =>
    Effect.gen(function*() {
      const server = yield* bareServer((_req, res) =>
        json(res, { success: false, code: "VALIDATION", message: "name is required" })
      )
      const { exit } = yield* run(server.url, (c) => c.createVendor({ name: "" }))
      expect(JSON.stringify(errorOf(exit))).toContain("name is required")
    }))

  it.scoped("a base URL that is not a URL fails InvalidRequest once", () =>
    Effect.gen(function*() {
      const { exit } = yield* run("not a url", (c) => c.getOrder("ord_1"))
      const error = errorOf(exit)
      expect(error.reason).toBe("InvalidRequest")
      expect(error.retryable).toBe(false)
      expect(error.attempts).toBe(1)
    }))

  it.scoped("pagination stops on an empty page even when hasMore stays true", () =>
    Effect.gen(function*() {
      const server = yield* bareServer((req, res) => {
        const skip = Number(new URL(req.url ?? "/", "http://x").searchParams.get("skip"))
        json(res, {
          success: true,
          data: skip === 0 ? [{ id: "ven_1", name: "A" }] : [],
          meta: { hasMore: true, total: 99 }
        })
      })
      const { exit } = yield* run(server.url, (c) => c.listVendors())
      expect(exit).toEqual(Exit.succeed([{ id: "ven_1", name: "A" }]))
      expect(server.count()).toBe(2)
    }))
})
