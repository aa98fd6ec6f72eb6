// The Tekmetric client against the fake Tekmetric on loopback: the token (single-flight, cached,
// refreshed before expiry, renewed after a 401), pagination, 429 with Retry-After, error shapes.
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted, TestClock } from "effect"
import { TekmetricClient } from "../src/index.js"
import { FAKE_TEKMETRIC_FIXTURES, startFakeTekmetric } from "../src/testing.js"

const { demo } = FAKE_TEKMETRIC_FIXTURES.clients

// The HttpClient lives as long as the test's scope (the client keeps it).
const clientOf = (url: string, overrides: Partial<TekmetricClient.Options> = {}) =>
  Effect.flatMap(Layer.build(NodeHttpClient.layerUndici), (http) =>
    TekmetricClient.make({
      baseUrl: url,
      clientId: demo.clientId,
      clientSecret: Redacted.make(demo.clientSecret),
      retry: { baseDelay: "10 millis", maxDelay: "50 millis" },
      ...overrides
    }).pipe(Effect.provide(http)))

const tokenRequests = (fake: { readonly requests: () => ReadonlyArray<{ readonly path: string }> }) =>
  fake.requests().filter((r) => r.path === "/api/v1/oauth/token").length

describe("TekmetricClient", () => {
  it.live("50 concurrent callers make exactly one token request, and share the token", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeTekmetric({ tokenDelayMillis: 100 })
      const client = yield* clientOf(fake.url)
      const results = yield* Effect.all(
        Array.from({ length: 50 }, () => client.repairOrder(String(FAKE_TEKMETRIC_FIXTURES.repairOrders.vin.id))),
        { concurrency: "unbounded" }
      )
      expect(results.every((ro) => ro.repairOrderNumber === 1042)).toBe(true)
      expect(tokenRequests(fake)).toBe(1)
      expect(fake.tokensIssued()).toBe(1)
      // Cached: more calls, no new token.
      yield* client.repairOrder("1043")
      expect(tokenRequests(fake)).toBe(1)
      expect(yield* client.shops).toEqual(["1", "2"])
    }).pipe(Effect.scoped))

  it.effect("a token with expires_in is fetched again before it expires (TestClock), once for concurrent callers", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeTekmetric({ tokenLifetimeSeconds: 3600 })
      const client = yield* clientOf(fake.url, { refreshBefore: "5 minutes" })
      yield* client.repairOrder("1042")
      yield* TestClock.adjust("54 minutes")
      yield* client.repairOrder("1042")
      expect(tokenRequests(fake)).toBe(1)
      yield* TestClock.adjust("2 minutes") // 56 minutes: within 5 minutes of the expiry
      yield* Effect.all(Array.from({ length: 20 }, () => client.repairOrder("1042")), { concurrency: "unbounded" })
      expect(tokenRequests(fake)).toBe(2)
    }).pipe(Effect.scoped))

  it.live("a token Tekmetric no longer accepts (401) is fetched again, once per call", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeTekmetric()
      const client = yield* clientOf(fake.url)
      yield* client.repairOrder("1042")
      fake.revokeTokens()
      expect((yield* client.repairOrder("1042")).id).toBe(1042)
      expect(tokenRequests(fake)).toBe(2)
    }).pipe(Effect.scoped))

  it.live("pages: every repair order and job across pages of the requested size", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeTekmetric()
      for (let i = 0; i < 23; i++) fake.addRepairOrder({ shopId: 2, number: 5000 + i, jobs: [] })
      const client = yield* clientOf(fake.url, { pageSize: 10 })
      const first = yield* client.repairOrders("2", { page: 0, size: 10 })
      expect(first).toMatchObject({ number: 0, totalPages: 3, totalElements: 24, last: false })
      expect(first.content).toHaveLength(10)
      const all = yield* client.allRepairOrders("2")
      expect(all).toHaveLength(24)
      expect(new Set(all.map((ro) => ro.id)).size).toBe(24)
      const pages = fake.requests().filter((r) => r.path === "/api/v1/repair-orders" && r.query["size"] === "10")
      expect(pages.map((r) => r.query["page"])).toEqual(["0", "0", "1", "2"])
      expect(yield* client.jobs("1", "1045")).toHaveLength(2)
    }).pipe(Effect.scoped))

  it.live("429: Retry-After is waited and the call succeeds; a longer one than the cap ends the retries with it", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeTekmetric()
      const client = yield* clientOf(fake.url)
      yield* client.shops
      fake.inject429(2, 1)
      const started = Date.now()
      expect((yield* client.repairOrder("1042")).id).toBe(1042)
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900)
      const limited = fake.requests().filter((r) => r.status === 429)
      expect(limited).toHaveLength(2)

      fake.inject429(1, 120)
      const error = yield* Effect.flip(client.repairOrder("1042"))
      expect(error._tag).toBe("TekmetricError")
      expect(error).toMatchObject({ status: 429, retryAfterMillis: 120_000, attempts: 1 })
      expect(error._tag === "TekmetricError" && error.retryable).toBe(true)
      expect(error.message).toBe(
        "Tekmetric getRepairOrder (GET /api/v1/repair-orders/1042) failed: HttpStatus 429: Too Many Requests"
      )
    }).pipe(Effect.scoped))

  it.live("the fake's own rate limit answers 429 with the documented headers", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeTekmetric({ rateLimitPerMinute: 3 })
      const token = yield* Effect.promise(() =>
        fetch(`${fake.url}/api/v1/oauth/token`, {
          method: "POST",
          headers: {
            authorization: `Basic ${Buffer.from(`${demo.clientId}:${demo.clientSecret}`).toString("base64")}`,
            "content-type": "application/x-www-form-urlencoded"
          },
          body: "grant_type=client_credentials"
        }).then((r) => r.json() as Promise<{ access_token: string; scope: string }>)
      )
      expect(token.scope).toBe("1 2")
      const get = () =>
        fetch(`${fake.url}/api/v1/repair-orders/1042`, { headers: { authorization: `Bearer ${token.access_token}` } })
      for (let i = 0; i < 3; i++) expect((yield* Effect.promise(get)).status).toBe(200)
      const limited = yield* Effect.promise(get)
      expect(limited.status).toBe(429)
      expect(limited.headers.get("x-ratelimit-limit")).toBe("3")
      expect(limited.headers.get("x-ratelimit-remaining")).toBe("0")
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(yield* Effect.promise(() => limited.json())).toEqual({
        type: "ERROR",
        message: "Too Many Requests",
        data: null
      })
    }).pipe(Effect.scoped))

  it.live("wrong client credentials: a typed one-line error, no retry; unknown ids 404 and other shops 403 are not retried", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeTekmetric()
      const wrong = yield* clientOf(fake.url, { clientSecret: Redacted.make("not-the-secret") })
      const refused = yield* Effect.flip(wrong.repairOrder("1042"))
      expect(refused._tag).toBe("TekmetricAuthError")
      expect(refused.message).toBe(
        "Tekmetric refused the client credentials (HTTP 401: Bad client credentials): check the shop's clientId and clientSecret"
      )
      expect(tokenRequests(fake)).toBe(1)
      expect(fake.requests().filter((r) => r.path !== "/api/v1/oauth/token")).toEqual([])

      const client = yield* clientOf(fake.url)
      const missing = yield* Effect.flip(client.repairOrder("999999"))
      expect(missing).toMatchObject({
        _tag: "TekmetricError",
        status: 404,
        attempts: 1,
        detail: "Repair order not found"
      })
      const foreign = yield* Effect.flip(client.repairOrder(String(FAKE_TEKMETRIC_FIXTURES.repairOrders.maple.id)))
      expect(foreign).toMatchObject({ _tag: "TekmetricError", status: 403, attempts: 1 })
      expect(fake.requests().filter((r) => r.path === "/api/v1/repair-orders/999999")).toHaveLength(1)
    }).pipe(Effect.scoped))

  it.live("5xx is retried; a job PATCH answering 503 twice then succeeding writes once", () =>
    Effect.gen(function*() {
      const fake = yield* startFakeTekmetric()
      const client = yield* clientOf(fake.url)
      const [job] = fake.jobs(1042)
      fake.failNextWrites(2, true)
      yield* client.updateJob(String(job!.id), { note: "hello" })
      expect(fake.jobs(1042)[0]!.note).toBe("hello")
      expect(fake.requests().filter((r) => r.method === "PATCH").map((r) => r.status)).toEqual([503, 503, 200])
      fake.failNextWrites(1, false)
      const refused = yield* Effect.flip(client.updateJob(String(job!.id), { note: "again" }))
      expect(refused).toMatchObject({ status: 400, detail: "Job cannot be updated" })
      expect(fake.jobs(1042)[0]!.note).toBe("hello")
    }).pipe(Effect.scoped))
})
