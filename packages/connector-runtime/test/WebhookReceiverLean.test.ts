// The lean webhook path (`WebhookReceiver.nodeHandler`, in front of the app with `serve`) over real
// HTTP on loopback with real stores: the SQLite inbox and launch registry on a file (every 2xx
// after the delivery is committed, seen from a second connection), PostgreSQL for both, an inbox or
// registry that fails (503), its span and log lines (never the launch key), its counters, and the
// runtime's `serve`, which puts the handler in front only on a listener whose app holds its
// public router.
import { HttpRouter } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@shoplink/http-node"
import { ConnectorRuntime, LaunchRegistry, WebhookInbox, WebhookReceiver } from "@shoplink/connector-runtime"
import { SANDBOX_FIXTURES, startSandbox } from "@shoplink/sandbox"
import { Context, Deferred, Effect, Layer, Logger, LogLevel, Metric, Redacted, Tracer } from "effect"
import { createServer } from "node:http"
import { postgres, scratchDatabase, sqlite } from "./fixtures.js"
import { makeMemorySms } from "./support/memorySms.js"

const line = (productID: string, quantity: number) => ({
  acaPartTerminologyID: 5340,
  productID,
  brandID: "WIX",
  categoryID: "FLT",
  productDesc: `Part ${productID}`,
  dispatchTime: 1763773200000,
  quantity,
  price: 6.49,
  listPrice: 9.99,
  corePrice: 0,
  weight: 0.8,
  quality: "",
  requestedProductId: "",
  status: "3",
  statusDescription: "Order submitted"
})
const orderBody = (orderID: string) =>
  JSON.stringify({
    referenceID: "1042",
    order: {
      orderID,
      orderCreateTime: 1763769600000,
      comment: "",
      status: 3,
      statusDescription: "Order submitted",
      orderLines: [line("51515", 2)]
    }
  })

const post = (url: string, body: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body })
    return { status: response.status, text: await response.text() }
  })

/** Log lines (message and annotations) and spans (name, kind, attributes), as the handler made them. */
const capture = () => {
  const lines: Array<string> = []
  const spans: Array<
    { readonly name: string; readonly kind: string; readonly attributes: ReadonlyMap<string, unknown> }
  > = []
  const logger = Logger.make(({ annotations, logLevel, message }) => {
    lines.push(`${logLevel.label} ${JSON.stringify({ message, annotations: Object.fromEntries(annotations) })}`)
  })
  const tracer = Effect.map(Effect.tracer, (native) =>
    Tracer.make({
      context: native.context,
      span: (name, parent, context, links, startTime, kind, options) => {
        const span = native.span(name, parent, context, links, startTime, kind, options)
        spans.push({ name, kind, attributes: span.attributes })
        return span
      }
    }))
  return { lines, spans, logger, tracer }
}

/**
 * Serves the receiver's router with `WebhookReceiver.serve` on loopback over `stores`, registers a
 * launch key, and makes the first request (which puts the lean handler in front).
 */
const serveLean = <E>(stores: Layer.Layer<WebhookInbox.WebhookInbox | LaunchRegistry.LaunchRegistry, E>) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(stores)
    const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    yield* WebhookReceiver.serve(server, HttpRouter.toHttpApp(WebhookReceiver.router()).pipe(Effect.flatten)).pipe(
      Effect.provide(context)
    )
    const { key } = yield* Context.get(context, LaunchRegistry.LaunchRegistry).register({
      shopId: "shop_1",
      repairOrderId: "ro_1",
      repairOrderNumber: "1042",
      repairOrderUrl: undefined,
      expiresAt: Date.now() + 60 * 60 * 1000
    })
    const base = `http://127.0.0.1:${port}/shoplink`
    expect((yield* Effect.promise(() => fetch(`${base}/nothing`))).status).toBe(404)
    return { key, orderUrl: `${base}/webhooks/${key}/order`, inbox: Context.get(context, WebhookInbox.WebhookInbox) }
  })

/** 20 orders, each delivered twice, 40 requests at once: 20 stored, 20 acknowledged as duplicates. */
const deliverTwice = (orderUrl: string) =>
  Effect.gen(function*() {
    const bodies = Array.from({ length: 20 }, (_, i) => orderBody(String(20000000 + i)))
    const replies = yield* Effect.forEach([...bodies, ...bodies], (body) => post(orderUrl, body), {
      concurrency: "unbounded"
    })
    expect(replies.map((r) => r.status)).toEqual(Array(40).fill(200))
    expect(replies.filter((r) => JSON.parse(r.text).duplicate === false)).toHaveLength(20)
    return bodies
  })

describe("WebhookReceiver.nodeHandler: stores", () => {
  it.scopedLive("SQLite: each 2xx comes after its delivery is committed; redeliveries are stored once; the counters count", () =>
    Effect.gen(function*() {
      const filename = scratchDatabase()
      const stores = Layer.merge(WebhookInbox.layerSql, LaunchRegistry.layerSql).pipe(Layer.provide(sqlite(filename)))
      const { inbox, orderUrl } = yield* serveLean(stores)
      const counter = (name: string, description: string) =>
        Metric.counter(name, { description, incremental: true }).pipe(Metric.tagged("kind", "order"))
      const received = counter("shoplink_deliveries_received_total", "Webhook deliveries stored in the inbox")
      const duplicates = counter("shoplink_deliveries_duplicate_total", "Webhook deliveries acknowledged as duplicates")
      const before = [(yield* Metric.value(received)).count, (yield* Metric.value(duplicates)).count]

      // A second connection (another process's view) sees the entry as soon as the 2xx is out.
      const reader = Context.get(yield* Layer.build(sqlite(filename)), SqlClient.SqlClient)
      const stored = (body: string) =>
        Effect.map(
          reader<{ readonly n: number }>`SELECT COUNT(*) AS n FROM shoplink_inbox WHERE body = ${body}`,
          (rows) => rows[0]!.n
        )
      const committed = yield* Effect.forEach(
        Array.from({ length: 30 }, (_, i) => orderBody(String(10000000 + i))),
        (body) => Effect.flatMap(post(orderUrl, body), (reply) => Effect.map(stored(body), (n) => [reply.status, n])),
        { concurrency: 8 }
      )
      expect(committed).toEqual(Array(30).fill([200, 1]))

      const bodies = yield* deliverTwice(orderUrl)
      const entries = yield* inbox.list()
      expect(entries).toHaveLength(50)
      for (const body of bodies) expect(entries.filter((e) => e.body === body)).toHaveLength(1)
      const after = [(yield* Metric.value(received)).count, (yield* Metric.value(duplicates)).count]
      expect([after[0]! - before[0]!, after[1]! - before[1]!]).toEqual([50, 20])
    }))

  it.scopedLive(
    "PostgreSQL: the same deliveries are stored once, in a database of its own",
    () =>
      Effect.gen(function*() {
        const stores = Layer.merge(WebhookInbox.layerSql, LaunchRegistry.layerSql)
        const { inbox, orderUrl } = yield* serveLean(stores.pipe(Layer.provide(postgres())))
        const bodies = yield* deliverTwice(orderUrl)
        const entries = yield* inbox.list()
        expect(entries.map((e) => e.body).sort()).toEqual([...bodies].sort())
      }),
    30_000
  )
})

describe("WebhookReceiver.nodeHandler: a PostgreSQL inbox another connection has locked", () => {
  it.scopedLive(
    "answers 503 once receiveTimeout has passed, not when the lock is let go; the retry after it is stored",
    () =>
      Effect.gen(function*() {
        const database = yield* Layer.build(postgres())
        const sql = Context.get(database, SqlClient.SqlClient)
        const stores = Layer.merge(WebhookInbox.layerSqlWith({ receiveTimeout: "1 second" }), LaunchRegistry.layerSql)
        const { inbox, orderUrl } = yield* serveLean(stores.pipe(Layer.provide(Layer.succeedContext(database))))
        // Another connection holds an exclusive lock on the inbox table for 10 seconds.
        const locked = yield* Deferred.make<void>()
        const letGo = yield* Deferred.make<void>()
        yield* Effect.forkScoped(sql.withTransaction(Effect.gen(function*() {
          yield* sql`LOCK TABLE shoplink_inbox IN ACCESS EXCLUSIVE MODE`
          yield* Deferred.succeed(locked, undefined)
          yield* Effect.race(Deferred.await(letGo), Effect.sleep("10 seconds"))
        })))
        yield* Deferred.await(locked)
        const started = Date.now()
        const refused = yield* post(orderUrl, orderBody("40000001"))
        const waited = Date.now() - started
        yield* Deferred.succeed(letGo, undefined)
        expect([refused.status, JSON.parse(refused.text)]).toEqual([503, { error: "try again" }])
        expect(waited).toBeGreaterThanOrEqual(900)
        expect(waited).toBeLessThan(5_000)
        yield* Effect.sleep("200 millis")
        expect((yield* post(orderUrl, orderBody("40000001"))).status).toBe(200)
        expect(yield* inbox.list()).toHaveLength(1)
      }).pipe(Logger.withMinimumLogLevel(LogLevel.None)),
    30_000
  )
})

describe("WebhookReceiver.nodeHandler: failures, spans and logs", () => {
  it.scopedLive("an inbox or a registry that fails answers 503 and logs an error; spans and logs carry no launch key", () => {
    const seen = capture()
    return Effect.gen(function*() {
      const failingInbox = Layer.effect(
        WebhookInbox.WebhookInbox,
        Effect.map(WebhookInbox.WebhookInbox, (inner) => ({
          ...inner,
          receive: () => Effect.fail(new WebhookInbox.InboxError({ reason: "disk full" }))
        }))
      ).pipe(Layer.provide(WebhookInbox.layerMemory))
      const failing = yield* serveLean(Layer.merge(failingInbox, LaunchRegistry.layerMemory))
      const refused = yield* post(failing.orderUrl, orderBody("30000001"))
      expect([refused.status, JSON.parse(refused.text)]).toEqual([503, { error: "try again" }])
      expect(seen.lines.some((l) => l.startsWith("ERROR") && l.includes("inbox write failed"))).toBe(true)

      const failingRegistry = Layer.effect(
        LaunchRegistry.LaunchRegistry,
        Effect.map(LaunchRegistry.LaunchRegistry, (inner) => ({
          ...inner,
          resolve: () => Effect.fail(new LaunchRegistry.LaunchRegistryError({ reason: "database gone" }))
        }))
      ).pipe(Layer.provide(LaunchRegistry.layerMemory))
      const unresolved = yield* serveLean(Layer.merge(WebhookInbox.layerMemory, failingRegistry))
      expect((yield* post(unresolved.orderUrl, orderBody("30000002"))).status).toBe(503)
      expect(seen.lines.some((l) => l.startsWith("ERROR") && l.includes("launch registry failed"))).toBe(true)

      const working = yield* serveLean(Layer.merge(WebhookInbox.layerMemory, LaunchRegistry.layerMemory))
      expect((yield* post(working.orderUrl, orderBody("30000003"))).status).toBe(200)
      expect((yield* post(working.orderUrl.replace(working.key, "x".repeat(43)), orderBody("30000003"))).status).toBe(
        404
      )
      expect((yield* post(working.orderUrl, "{}")).status).toBe(400)

      const receives = seen.spans.filter((s) => s.name === "WebhookReceiver.receive")
      expect(receives.map((s) => s.attributes.get("http.response.status_code"))).toEqual([503, 503, 200, 404, 400])
      const stored = receives[2]!
      expect(stored.kind).toBe("server")
      expect(Object.fromEntries(stored.attributes)).toMatchObject({
        kind: "order",
        "http.request.method": "POST",
        "url.path": "/shoplink/webhooks/:key/order",
        shopId: "shop_1",
        repairOrderId: "ro_1",
        duplicate: false,
        entryId: expect.any(String)
      })
      expect(
        seen.lines.some((l) =>
          l.startsWith("INFO") && l.includes("webhook received") && l.includes("\"repairOrderId\":\"ro_1\"")
        )
      ).toBe(true)
      expect(seen.lines.some((l) => l.startsWith("WARN") && l.includes("webhook refused"))).toBe(true)
      const everything = [...seen.lines, ...seen.spans.map((s) => JSON.stringify([...s.attributes]))].join("\n")
      for (const key of [failing.key, unresolved.key, working.key]) expect(everything).not.toContain(key)
    }).pipe(
      Effect.provide(Logger.replace(Logger.defaultLogger, seen.logger)),
      Logger.withMinimumLogLevel(LogLevel.All),
      (self) => Effect.flatMap(seen.tracer, (tracer) => Effect.withTracer(self, tracer))
    )
  })
})

describe("ConnectorRuntime.serve: the lean webhook path", () => {
  it.scopedLive(
    "in front once the app has routed to publicRouter, webhooks skip the app; never on a listener without it",
    () =>
      Effect.gen(function*() {
        const sandbox = yield* startSandbox()
        const [ford] = SANDBOX_FIXTURES.vehicles
        const sms = makeMemorySms([{ id: "ro_a", number: "1042", vehicle: { vin: ford!.vin } }])
        const publicServer = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
        const internalServer = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
        const portOf = (server: typeof publicServer) => server.address._tag === "TcpAddress" ? server.address.port : 0
        const publicBaseUrl = `http://127.0.0.1:${portOf(publicServer)}`
        const runtime = yield* ConnectorRuntime.make(sms.layer, {
          publicBaseUrl,
          smsVendorName: "Shoplink Tests",
          punchout: { baseUrl: sandbox.url, vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey) },
          storage: { sqlite: scratchDatabase() },
          secretKeys: Redacted.make("k1:" + Buffer.alloc(32, 7).toString("base64")),
          worker: false
        }).pipe(Effect.provide(yield* Layer.build(UndiciHttpClient.layer)))
        // Which requests reach each app.
        const reached: Array<string> = []
        const counted = <E, R>(app: Effect.Effect<any, E, R>, name: string) =>
          Effect.zipRight(Effect.sync(() => reached.push(name)), app)
        yield* runtime.serve(
          publicServer,
          counted(
            HttpRouter.concat(runtime.publicRouter, runtime.apiRouter).pipe(HttpRouter.toHttpApp, Effect.flatten),
            "public"
          )
        )
        yield* runtime.serve(
          internalServer,
          counted(runtime.healthRouter.pipe(HttpRouter.toHttpApp, Effect.flatten), "internal")
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
          sms: { apiKey: Redacted.make("sms-key-of-shop-a-0001") }
        })
        const launched = yield* runtime.launch({ shopId: "shop_a", repairOrderId: "ro_a" })
        const token = new URL(Redacted.value(launched.url)).searchParams.get("token")!
        const distributor = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.withTracerEnabled(effect, false)
        yield* distributor(
          sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 })
        )
        yield* distributor(sandbox.admin.driver.press(token, "exportAndSubmit"))
        // The distributor's first delivery: the app routes it to publicRouter, which puts the handler in front.
        const [first] = yield* distributor(sandbox.admin.awaitDeliveries(1))
        expect(first!.status).toBe(200)
        const webhookUrl = first!.url
        const publicBefore = reached.filter((r) => r === "public").length

        const again = yield* post(webhookUrl, orderBody("40000001"))
        expect([again.status, JSON.parse(again.text)]).toEqual([200, { received: true, duplicate: false }])
        expect((yield* post(webhookUrl, orderBody("40000001"))).text).toBe(
          JSON.stringify({ received: true, duplicate: true })
        )
        expect(reached.filter((r) => r === "public").length).toBe(publicBefore)
        expect((yield* runtime.inbox.list()).filter((e) => e.body === orderBody("40000001"))).toHaveLength(1)

        // The internal listener serves no webhook route, before or after requests of its own.
        const internalUrl = webhookUrl.replace(publicBaseUrl, `http://127.0.0.1:${portOf(internalServer)}`)
        expect((yield* Effect.promise(() => fetch(`http://127.0.0.1:${portOf(internalServer)}/healthz`))).status).toBe(
          200
        )
        expect((yield* post(internalUrl, orderBody("40000002"))).status).toBe(404)
        expect((yield* post(internalUrl, orderBody("40000002"))).status).toBe(404)
        expect(reached.filter((r) => r === "internal")).toHaveLength(3)
      }),
    30_000
  )
})
