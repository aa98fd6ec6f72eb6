// The runtime's health routes and graceful shutdown: /healthz always answers; /readyz answers 503
// with a reason while the database is locked by another connection, the backlog is stale or the
// worker has stopped; closing the runtime lets the apply in flight finish, up to a deadline.
import { HttpRouter, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@shoplink/http-node"
import { ShopSystem } from "@shoplink/connector"
import { ConnectorRuntime, Health as HealthModule } from "@shoplink/connector-runtime"
import { Context, Deferred, Duration, Effect, Exit, Fiber, Layer, Option, Redacted, Scope, TestClock } from "effect"
import { createServer } from "node:http"
import { scratchDatabase, sqlite } from "./fixtures.js"

const secretKeys = Redacted.make("k1:" + Buffer.alloc(32, 3).toString("base64"))

const orderBody = JSON.stringify({
  referenceID: "1042",
  order: {
    orderID: "10423",
    orderCreateTime: 1763769600000,
    comment: "",
    status: 3,
    statusDescription: "Order submitted",
    orderLines: [{
      acaPartTerminologyID: 5340,
      productID: "51515",
      brandID: "WIX",
      categoryID: "FLT",
      productDesc: "Oil Filter",
      dispatchTime: 1763773200000,
      quantity: 2,
      price: 6.49,
      listPrice: 9.99,
      corePrice: 0,
      weight: 0.8,
      quality: "",
      requestedProductId: "",
      status: "3",
      statusDescription: "Order submitted"
    }]
  }
})
const delivery = {
  kind: "order",
  contentKey: "order:shop_1:ro_1:10423:3",
  shopId: "shop_1",
  repairOrderId: "ro_1",
  body: orderBody
} as const

/** A shop system whose `applyOrder` is the given effect. */
const smsApplying = (applyOrder: ShopSystem.Operations["applyOrder"]) =>
  Layer.succeed(ShopSystem.ShopSystem, {
    capabilities: new Set(ShopSystem.ALL_CAPABILITIES),
    loadRepairOrder: ({ repairOrderId }) => Effect.succeed({ id: repairOrderId, number: "1042", vehicle: {} }),
    applyQuote: (w) => Effect.succeed({ added: w.lines.length, alreadyPresent: 0 }),
    applyOrder
  })

const added = (w: ShopSystem.OrderWrite) => ({ added: w.lines.length, alreadyPresent: 0 })

/** The runtime on a SQLite file in `scope`, its health routes served on loopback. */
const start = (
  sms: Layer.Layer<ShopSystem.ShopSystem>,
  options: Partial<ConnectorRuntime.Options> & { readonly database?: string } = {}
) =>
  Effect.gen(function*() {
    const database = options.database ?? scratchDatabase()
    const client = yield* Layer.build(UndiciHttpClient.layer)
    const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    const runtime = yield* ConnectorRuntime.make(sms, {
      publicBaseUrl: `http://127.0.0.1:${port}`,
      smsVendorName: "Shoplink Tests",
      punchout: { baseUrl: "http://127.0.0.1:9", vendorApiKey: Redacted.make("unused-vendor-key") },
      storage: { sqlite: database },
      secretKeys,
      ...options
    }).pipe(Effect.provide(client))
    yield* runtime.serve(
      server,
      HttpRouter.concat(runtime.healthRouter, runtime.adminRouter).pipe(HttpRouter.toHttpApp, Effect.flatten)
    )
    const get = (path: string) =>
      Effect.promise(async () => {
        const response = await fetch(`http://127.0.0.1:${port}${path}`)
        return {
          status: response.status,
          body: await response.json() as unknown,
          cacheControl: response.headers.get("cache-control")
        }
      })
    return { runtime, database, get }
  })

/** The status of every inbox entry, read with a connection of its own (after the runtime closed). */
const statuses = (database: string) =>
  Effect.scoped(Effect.gen(function*() {
    const sql = Context.get(yield* Layer.build(sqlite(database)), SqlClient.SqlClient)
    return (yield* sql<{ readonly status: string }>`SELECT status FROM shoplink_inbox`).map((row) => row.status)
  })).pipe(Effect.orDie)

describe("Health", () => {
  it.scoped("/healthz is 200; /readyz is 503 while another connection holds the database (BEGIN EXCLUSIVE), 200 before and after", () =>
    Effect.gen(function*() {
      const { database, get } = yield* start(smsApplying((w) => Effect.succeed(added(w))))
      expect(yield* get("/healthz")).toEqual({ status: 200, body: { ok: true }, cacheControl: "no-store" })
      expect(yield* get("/readyz")).toEqual({ status: 200, body: { ok: true }, cacheControl: "no-store" })

      const other = Context.get(yield* Layer.build(sqlite(database)), SqlClient.SqlClient)
      yield* other.unsafe("BEGIN EXCLUSIVE")
      const locked = yield* get("/readyz")
      expect(locked.status).toBe(503)
      expect(locked.body).toEqual({ ok: false, reason: "database unavailable" })
      // Liveness does not depend on the database.
      expect((yield* get("/healthz")).status).toBe(200)
      yield* other.unsafe("ROLLBACK")
      expect(yield* get("/readyz")).toMatchObject({ status: 200, body: { ok: true } })
    }))

  it.scoped("/readyz is 503 once the oldest pending delivery is older than maxBacklogAge (TestClock), 200 when it is done", () =>
    Effect.gen(function*() {
      // Every apply fails retryably and is retried an hour later: the entry stays pending. (The
      // worker polls hourly so that moving the clock does not spin it.)
      const sms = smsApplying(() =>
        Effect.fail(new ShopSystem.ShopSystemError({ operation: "applyOrder", reason: "SMS down", retryable: true }))
      )
      const { get, runtime } = yield* start(sms, {
        worker: { baseDelay: "1 hour", maxDelay: "1 hour", pollInterval: "1 hour" },
        readiness: { maxBacklogAge: "5 minutes" }
      })
      const { entry } = yield* runtime.inbox.receive(delivery)
      expect((yield* get("/readyz")).status).toBe(200)
      yield* TestClock.adjust("4 minutes")
      expect((yield* get("/readyz")).status).toBe(200)
      yield* TestClock.adjust("2 minutes")
      const stale = yield* get("/readyz")
      expect(stale.status).toBe(503)
      expect(stale.body).toEqual({
        ok: false,
        reason: "backlog stale: the oldest pending delivery is 360s old (limit 300s)"
      })
      expect((yield* runtime.inbox.get(entry.id)).status).toBe("pending")
      yield* runtime.inbox.markApplied(entry.id)
      expect((yield* get("/readyz")).status).toBe(200)
    }))

  it.scoped("maxBacklogAge false turns the backlog check off; a receive-only process (worker: false) checks only the database", () =>
    Effect.gen(function*() {
      const sms = smsApplying(() =>
        Effect.fail(new ShopSystem.ShopSystemError({ operation: "applyOrder", reason: "SMS down", retryable: true }))
      )
      const withoutCheck = yield* start(sms, {
        worker: { baseDelay: "1 hour", pollInterval: "1 hour" },
        readiness: { maxBacklogAge: false }
      })
      const receiveOnly = yield* start(sms, { worker: false })
      yield* withoutCheck.runtime.inbox.receive(delivery)
      yield* receiveOnly.runtime.inbox.receive(delivery)
      yield* TestClock.adjust("1 hour")
      expect((yield* withoutCheck.get("/readyz")).status).toBe(200)
      expect((yield* receiveOnly.get("/readyz")).status).toBe(200)
    }))

  it.scopedLive("an adapter defect does not stop the worker: it is the entry's failed attempt, and /readyz stays 200", () =>
    Effect.gen(function*() {
      const { get, runtime } = yield* start(smsApplying(() => Effect.dieMessage("adapter bug")), {
        worker: { pollInterval: "10 millis", baseDelay: "1 hour", maxDelay: "1 hour" }
      })
      const { entry } = yield* runtime.inbox.receive(delivery)
      for (let i = 0; i < 200 && (yield* runtime.inbox.get(entry.id)).attempts === 0; i++) {
        yield* Effect.sleep("10 millis")
      }
      expect(yield* runtime.inbox.get(entry.id)).toMatchObject({
        status: "pending",
        attempts: 1,
        lastError: "adapter defect: RuntimeException: adapter bug"
      })
      expect(yield* runtime.readiness).toEqual({ ok: true })
      expect((yield* get("/readyz")).status).toBe(200)
    }))
})

describe("Graceful shutdown", () => {
  it.scopedLive("closing the runtime's Scope lets the apply in flight finish and mark its entry applied; readiness says shutting down", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const sms = smsApplying((w) =>
        Deferred.succeed(started, undefined).pipe(Effect.zipRight(Deferred.await(release)), Effect.as(added(w)))
      )
      const scope = yield* Scope.make()
      const { database, runtime } = yield* start(sms, { worker: { pollInterval: "10 millis" } }).pipe(
        Scope.extend(scope)
      )
      yield* runtime.inbox.receive(delivery)
      yield* Deferred.await(started)
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* Effect.sleep("200 millis")
      expect(Option.isNone(yield* Fiber.poll(closing))).toBe(true)
      expect(yield* runtime.readiness).toEqual({ ok: false, reason: "shutting down" })
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(closing)
      expect(yield* statuses(database)).toEqual(["applied"])
    }))

  it.scopedLive("an apply still running at shutdownDeadline is interrupted: the Scope closes and the entry stays pending", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const sms = smsApplying(() => Deferred.succeed(started, undefined).pipe(Effect.zipRight(Effect.never)))
      const scope = yield* Scope.make()
      const { database, runtime } = yield* start(sms, {
        worker: { pollInterval: "10 millis" },
        shutdownDeadline: "300 millis"
      }).pipe(
        Scope.extend(scope)
      )
      yield* runtime.inbox.receive(delivery)
      yield* Deferred.await(started)
      const [took] = yield* Effect.timed(Scope.close(scope, Exit.void))
      expect(Duration.toMillis(took)).toBeGreaterThanOrEqual(280)
      expect(Duration.toMillis(took)).toBeLessThan(3000)
      expect(yield* statuses(database)).toEqual(["pending"])
    }))

  it.scopedLive("an idle worker stops at once", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      yield* start(smsApplying((w) => Effect.succeed(added(w))), { worker: { pollInterval: "10 millis" } }).pipe(
        Scope.extend(scope)
      )
      yield* Effect.sleep("50 millis")
      const [took] = yield* Effect.timed(Scope.close(scope, Exit.void))
      // Far below the 10-second shutdown deadline (with room for a loaded machine).
      expect(Duration.toMillis(took)).toBeLessThan(2_000)
    }))
})

describe("Health.nodeServer", () => {
  const get = (url: string) =>
    Effect.promise(async () => {
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) })
      return { status: response.status, retryAfter: response.headers.get("retry-after"), text: await response.text() }
    })

  it.scopedLive("answers 503 (Retry-After) while nothing serves, steps aside for the app, and answers 503 again once it stops", () =>
    Effect.gen(function*() {
      let node: import("node:http").Server | undefined
      const server = yield* NodeHttpServer.make(() => (node = HealthModule.nodeServer()), {
        port: 0,
        host: "127.0.0.1"
      })
      const url = `http://127.0.0.1:${server.address._tag === "TcpAddress" ? server.address.port : 0}/healthz`
      // Listening, not serving yet (the runtime is still starting): answered at once, not left hanging.
      expect(yield* get(url)).toEqual({ status: 503, retryAfter: "1", text: "{\"ok\":false,\"reason\":\"starting\"}" })
      const serving = yield* Scope.make()
      const app = HttpRouter.empty.pipe(HttpRouter.get("/healthz", Effect.succeed(HttpServerResponse.text("served"))))
      yield* server.serve(app).pipe(Scope.extend(serving))
      expect(yield* get(url)).toMatchObject({ status: 200, text: "served" })
      // One request listener while serving (the runtime puts its webhook handler in front of exactly one).
      expect(node?.listenerCount("request")).toBe(1)
      yield* Scope.close(serving, Exit.void)
      expect(yield* get(url)).toMatchObject({ status: 503, text: "{\"ok\":false,\"reason\":\"stopping\"}" })
    }))
})
