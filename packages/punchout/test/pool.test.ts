import { describe, expect, it } from "@effect/vitest"
import { type Duration, Effect, Fiber, Layer, Redacted, TestClock } from "effect"
import { PunchoutClient, SessionPool } from "../src/index.js"
import {
  captureLogs,
  clientLayer,
  customer,
  envelope,
  type FaultServer,
  faultServer,
  type Handler,
  json,
  quoteLine,
  sessionOptions
} from "./support/faultServer.js"

const TWELVE_HOURS_S = 12 * 3600

/**
 * A fault server that issues sessions token-1, token-2, … expiring 12 hours after the TestClock's
 * start, and answers GetProductQuotes with 401 for the tokens in `revoked`.
 */
const punchoutServer = (options: { readonly hold?: Promise<void>; readonly revoked?: Set<string> } = {}) => {
  let issued = 0
  const handler: Handler = (req, res) => {
    if (req.path.endsWith("/create")) {
      issued++
      const token = `token-${issued}`
      const answer = () =>
        json(res, 200, {
          ...envelope(200, "Success"),
          punchout: {
            url: `http://${req.query.get("host") ?? "x"}/punchout/v1/{command}?token=${token}`,
            token,
            expiration: TWELVE_HOURS_S
          }
        })
      if (options.hold) void options.hold.then(answer)
      else answer()
      return
    }
    const token = req.query.get("token") ?? ""
    if (options.revoked?.has(token)) return json(res, 401, envelope(401, "Unauthorized", "UNAUTHORIZED"))
    json(res, 200, { ...envelope(200, "Success"), quotes: [quoteLine()] })
  }
  return { handler }
}

const poolLayer = (server: FaultServer, refreshMargin: Duration.DurationInput = "5 minutes") =>
  SessionPool.layer({ refreshMargin, session: sessionOptions }).pipe(Layer.provideMerge(clientLayer(server.url)))

// The session URL template points at the fault server.
const fixTemplate = (server: FaultServer) => (handler: Handler): Handler => (req, res, n) => {
  req.query.set("host", server.url.replace("http://", ""))
  handler(req, res, n)
}

const setup = (options: Parameters<typeof punchoutServer>[0] = {}) =>
  Effect.gen(function*() {
    const script = punchoutServer(options)
    const server = yield* faultServer((req, res, n) => fixTemplate(server)(script.handler)(req, res, n))
    return { server, script }
  })

describe("SessionPool", () => {
  it.scoped("reuses a session until expiresAt minus the margin, then creates a new one (TestClock)", () =>
    Effect.gen(function*() {
      const { server } = yield* setup()
      yield* Effect.gen(function*() {
        const pool = yield* SessionPool.SessionPool
        const first = yield* pool.get(customer)
        const again = yield* pool.get(customer)
        expect(Redacted.value(again.token)).toBe(Redacted.value(first.token))
        yield* TestClock.adjust(`${TWELVE_HOURS_S - 5 * 60 - 1} seconds`)
        const stillFirst = yield* pool.get(customer)
        expect(Redacted.value(stillFirst.token)).toBe("token-1")
        expect(server.count("/create")).toBe(1)
        yield* TestClock.adjust("2 seconds")
        const refreshed = yield* pool.get(customer)
        expect(Redacted.value(refreshed.token)).toBe("token-2")
        expect(server.count("/create")).toBe(2)
        // a different customer gets its own session
        yield* pool.get({ ...customer, accountNo: "300400", country: "CA" })
        expect(server.count("/create")).toBe(3)
        expect(yield* pool.size).toBe(2)
      }).pipe(Effect.provide(poolLayer(server)))
    }))

  it.scoped("creates the session once for 50 concurrent callers (single flight)", () =>
    Effect.gen(function*() {
      let releaseNow: () => void = () => undefined
      const hold = new Promise<void>((resolve) => {
        releaseNow = resolve
      })
      const { server } = yield* setup({ hold })
      yield* Effect.gen(function*() {
        const pool = yield* SessionPool.SessionPool
        const fiber = yield* Effect.fork(
          Effect.forEach(Array.from({ length: 50 }, (_, i) => i), () => pool.get(customer), {
            concurrency: "unbounded"
          })
        )
        yield* server.arrived(1, "/create")
        releaseNow()
        const sessions = yield* Fiber.join(fiber)
        expect(sessions).toHaveLength(50)
        expect(new Set(sessions.map((s) => Redacted.value(s.token)))).toEqual(new Set(["token-1"]))
        expect(server.count("/create")).toBe(1)
      }).pipe(Effect.provide(poolLayer(server)))
    }))

  it.scoped("a failed creation reaches every waiter once and the next get tries again", () =>
    Effect.gen(function*() {
      let creates = 0
      const server = yield* faultServer((_req, res) => {
        creates++
        if (creates === 1) {
          return json(res, 401, {
            ...envelope(401, "Unauthorized", "UNAUTHORIZED"),
            punchout: { url: "", expiration: 0 }
          })
        }
        json(res, 200, {
          ...envelope(200, "Success"),
          punchout: {
            url: `http://127.0.0.1/punchout/v1/{command}?token=token-ok`,
            token: "token-ok",
            expiration: TWELVE_HOURS_S
          }
        })
      })
      yield* Effect.gen(function*() {
        const pool = yield* SessionPool.SessionPool
        const failures = yield* Effect.forEach([1, 2, 3], () => Effect.flip(pool.get(customer)), {
          concurrency: "unbounded"
        })
        expect(failures.map((e) => e._tag)).toEqual(["Unauthorized", "Unauthorized", "Unauthorized"])
        expect(server.count()).toBe(1)
        const session = yield* pool.get(customer)
        expect(Redacted.value(session.token)).toBe("token-ok")
        expect(server.count()).toBe(2)
      }).pipe(Effect.provide(poolLayer(server)))
    }))

  it.scoped("withSession drops a session that answers 401 and runs again once with a new one", () =>
    Effect.gen(function*() {
      const revoked = new Set<string>()
      const { server } = yield* setup({ revoked })
      const logs = captureLogs()
      yield* Effect.gen(function*() {
        const pool = yield* SessionPool.SessionPool
        const client = yield* PunchoutClient.PunchoutClient
        const quotes = () =>
          pool.withSession(
            customer,
            (session) => client.getProductQuotes(session, { searchTerm: "oil filter", quantity: 1 })
          )
        yield* quotes()
        expect(server.count("/create")).toBe(1)
        // the session ends early: 10 concurrent callers see 401, and exactly one new session is made
        revoked.add("token-1")
        const results = yield* Effect.forEach(Array.from({ length: 10 }), quotes, { concurrency: "unbounded" })
        expect(results).toHaveLength(10)
        expect(server.count("/create")).toBe(2)
        const tokens = server.requests.filter((r) => r.path.endsWith("GetProductQuotes")).map((r) =>
          r.query.get("token")
        )
        expect(tokens.filter((t) => t === "token-2")).toHaveLength(10)
        // when the new session is refused too, the error surfaces after one retry
        revoked.add("token-2")
        revoked.add("token-3")
        const error = yield* Effect.flip(quotes())
        expect(error._tag).toBe("Unauthorized")
        expect(server.count("/create")).toBe(3)
      }).pipe(Effect.provide(Layer.merge(poolLayer(server), logs.layer)))
      const logged = logs.lines.join("\n")
      expect(logged).toContain("session ended early")
      expect(logged).not.toMatch(/token-\d/)
    }))

  it.scoped("keeps one session per partition of a customer, and re-creates only the partition that ended", () =>
    Effect.gen(function*() {
      const revoked = new Set<string>()
      const { server } = yield* setup({ revoked })
      yield* Effect.gen(function*() {
        const pool = yield* SessionPool.SessionPool
        const client = yield* PunchoutClient.PunchoutClient
        const ro1 = yield* pool.get(customer, sessionOptions, "ro-1")
        const ro2 = yield* pool.get(customer, sessionOptions, "ro-2")
        const plain = yield* pool.get(customer)
        expect(new Set([ro1, ro2, plain].map((s) => Redacted.value(s.token)))).toEqual(
          new Set(["token-1", "token-2", "token-3"])
        )
        expect(Redacted.value((yield* pool.get(customer, sessionOptions, "ro-1")).token)).toBe("token-1")
        expect(yield* pool.size).toBe(3)

        revoked.add("token-1")
        const quotes = yield* pool.withSession(
          customer,
          (session) => client.getProductQuotes(session, { searchTerm: "oil filter", quantity: 1 }),
          sessionOptions,
          "ro-1"
        )
        expect(quotes.quotes).toHaveLength(1)
        expect(server.count("/create")).toBe(4)
        expect(Redacted.value((yield* pool.get(customer, sessionOptions, "ro-1")).token)).toBe("token-4")
        expect(Redacted.value((yield* pool.get(customer, sessionOptions, "ro-2")).token)).toBe("token-2")
      }).pipe(Effect.provide(poolLayer(server)))
    }))
})

describe("SessionPool eviction", () => {
  const evictingPool = (server: FaultServer, options: { readonly maxSessions?: number } = {}) =>
    SessionPool.layer({
      refreshMargin: "5 minutes",
      session: sessionOptions,
      evictionInterval: "10 minutes",
      ...options
    }).pipe(
      Layer.provideMerge(clientLayer(server.url))
    )

  it.scoped("evicts sessions that can no longer be handed out by a periodic sweep while idle (TestClock)", () =>
    Effect.gen(function*() {
      const { server } = yield* setup()
      yield* Effect.gen(function*() {
        const pool = yield* SessionPool.SessionPool
        // One session per repair order, as the launcher keeps them: 40 partitions.
        yield* Effect.forEach(
          Array.from({ length: 40 }, (_, i) => `ro-${i}`),
          (ro) => pool.get(customer, sessionOptions, ro)
        )
        expect(yield* pool.size).toBe(40)
        // Still live 11 h 50 min later: nothing is evicted.
        yield* TestClock.adjust("710 minutes")
        expect(yield* pool.size).toBe(40)
        // Within the refresh margin of expiring, then past it: the idle sweep (every 10 minutes) empties the pool.
        yield* TestClock.adjust("20 minutes")
        expect(yield* pool.size).toBe(0)
      }).pipe(Effect.provide(evictingPool(server)))
    }))

  it.scoped("a get sweeps out the sessions that expired since the last sweep (TestClock)", () =>
    Effect.gen(function*() {
      const { server } = yield* setup()
      yield* Effect.gen(function*() {
        const pool = yield* SessionPool.SessionPool
        yield* Effect.forEach(["a", "b", "c"], (ro) => pool.get(customer, sessionOptions, ro))
        // 11 h 56 min: inside the refresh margin, but the last idle sweep (11 h 50) found them live.
        yield* TestClock.adjust("716 minutes")
        expect(yield* pool.size).toBe(3)
        yield* pool.get(customer, sessionOptions, "d")
        expect(yield* pool.size).toBe(1)
      }).pipe(Effect.provide(evictingPool(server)))
    }))

  it.scoped("holds at most maxSessions: beyond it the least recently created session goes and is re-created when asked for", () =>
    Effect.gen(function*() {
      const { server } = yield* setup()
      yield* Effect.gen(function*() {
        const pool = yield* SessionPool.SessionPool
        for (const ro of ["a", "b", "c", "d", "e"]) yield* pool.get(customer, sessionOptions, ro)
        expect(yield* pool.size).toBe(3)
        expect(server.count("/create")).toBe(5)
        // "e" and "d" are held: no new session; "a" was dropped: a new one.
        yield* pool.get(customer, sessionOptions, "e")
        yield* pool.get(customer, sessionOptions, "d")
        expect(server.count("/create")).toBe(5)
        yield* pool.get(customer, sessionOptions, "a")
        expect(server.count("/create")).toBe(6)
        expect(yield* pool.size).toBe(3)
      }).pipe(Effect.provide(evictingPool(server, { maxSessions: 3 })))
    }))
})

// A server that accepts every connection and never answers. Each check runs disconnected under a
// real-time bound, so a pool that ignores the client's limits fails the test instead of hanging it.
describe("SessionPool against a server that never answers", () => {
  const hangingServer = faultServer(() => {})
  const limits = { requestTimeout: "1 second", retry: { maxAttempts: 2, baseDelay: 0, maxDelay: 0 } } as const
  const hangingPool = (server: FaultServer) =>
    SessionPool.layer({ session: sessionOptions }).pipe(Layer.provideMerge(clientLayer(server.url, limits)))
  const within = <A, E>(seconds: number, self: Effect.Effect<A, E>) =>
    Effect.disconnect(self).pipe(
      Effect.timeoutFail({
        duration: `${seconds} seconds`,
        onTimeout: () => new Error(`still running after ${seconds} s`)
      })
    )

  it.scopedLive("get and withSession fail Timeout after maxAttempts × requestTimeout", () =>
    Effect.gen(function*() {
      const server = yield* hangingServer
      const [getError, withSessionError] = yield* within(
        10,
        Effect.gen(function*() {
          const pool = yield* SessionPool.SessionPool
          const getError = yield* Effect.flip(pool.get(customer))
          const withSessionError = yield* Effect.flip(pool.withSession(customer, () => Effect.void))
          return [getError, withSessionError] as const
        }).pipe(Effect.provide(hangingPool(server)))
      )
      for (const error of [getError, withSessionError]) {
        expect(error._tag === "Timeout" && error.attempt).toEqual(2)
      }
      expect(server.count("/create")).toBe(4)
    }))

  it.scopedLive("an outer timeout interrupts its caller at once; the shared creation goes on for the others, within the client's limits", () =>
    Effect.gen(function*() {
      const server = yield* hangingServer
      const started = Date.now()
      const [impatient, patient, impatientAt] = yield* within(
        10,
        Effect.gen(function*() {
          const pool = yield* SessionPool.SessionPool
          const patientFiber = yield* Effect.fork(Effect.flip(pool.get(customer)))
          const impatient = yield* pool.get(customer).pipe(Effect.timeout("200 millis"), Effect.flip)
          const impatientAt = Date.now() - started
          return [impatient, yield* Fiber.join(patientFiber), impatientAt] as const
        }).pipe(Effect.provide(hangingPool(server)))
      )
      expect(impatient._tag).toBe("TimeoutException")
      expect(impatientAt).toBeLessThan(900)
      expect(patient._tag).toBe("Timeout")
      // one creation for both callers: two attempts of 1 second each
      expect(server.count("/create")).toBe(2)
    }))

  it.scopedLive("closing the pool while a creation hangs interrupts it and aborts the request", () =>
    Effect.gen(function*() {
      const server = yield* hangingServer
      const exit = yield* within(
        5,
        Effect.flatMap(SessionPool.SessionPool, (pool) => pool.get(customer)).pipe(
          Effect.timeout("300 millis"),
          Effect.exit,
          Effect.provide(hangingPool(server))
        )
      )
      expect(exit._tag).toBe("Failure")
      yield* server.closed(1)
      expect(server.count("/create")).toBe(1)
    }))

  it.scopedLive("createSession inside an uninterruptible region still obeys its deadline", () =>
    Effect.gen(function*() {
      const server = yield* hangingServer
      const error = yield* within(
        10,
        Effect.flatMap(
          PunchoutClient.PunchoutClient,
          (client) => Effect.flip(client.createSession(customer, sessionOptions))
        ).pipe(
          Effect.uninterruptible,
          Effect.provide(clientLayer(server.url, limits))
        )
      )
      expect(error._tag === "Timeout" && error.attempt).toEqual(2)
    }))
})
