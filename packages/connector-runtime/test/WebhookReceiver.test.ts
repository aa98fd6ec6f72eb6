// The receiver's edges over real HTTP on loopback, with raw node:http requests where fetch would
// hide what happens on the wire (chunked bodies, connection resets): bodies that do not decode,
// bodies over the limit, redeliveries, and the callback page across several exports.
import { HttpMiddleware, HttpRouter, HttpServerRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { ShopSystem } from "@shoplink/connector"
import { InboxWorker, LaunchRegistry, PartsLedger, WebhookInbox, WebhookReceiver } from "@shoplink/connector-runtime"
import { Clock, Context, Effect, Layer, Logger, TestClock } from "effect"
import { createServer, type IncomingHttpHeaders, request } from "node:http"
import { makeMemorySms } from "./support/memorySms.js"

interface Reply {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly text: string
}

/**
 * One request with node:http. `chunks` are written one after another with no content-length
 * (Transfer-Encoding: chunked), each after the previous one was flushed, the way a streaming
 * sender does. Resolves with the response, or dies with the socket error if none came.
 */
const send = (url: string, options: {
  readonly method?: string
  readonly body?: string | Buffer
  readonly chunks?: ReadonlyArray<Buffer>
  readonly headers?: Record<string, string>
}) =>
  Effect.async<Reply>((resume) => {
    let done = false
    const finish = (effect: Effect.Effect<Reply>) => {
      if (!done) {
        done = true
        resume(effect)
      }
    }
    const req = request(url, {
      method: options.method ?? "POST",
      headers: { "content-type": "application/json", ...options.headers }
    })
    req.on("response", (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => finish(Effect.succeed({ status: res.statusCode ?? 0, headers: res.headers, text })))
      res.on("error", (error) => finish(Effect.die(error)))
    })
    // A write after the server answered and closed may fail: only a missing response matters.
    req.on("error", (error) => setTimeout(() => finish(Effect.die(error)), 50))
    if (options.chunks === undefined) return void req.end(options.body)
    const chunks = [...options.chunks]
    const next = () => {
      const chunk = chunks.shift()
      if (chunk === undefined) return void req.end()
      req.write(chunk, (error) => (error ? undefined : setImmediate(next)))
    }
    next()
  })

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
const orderBody = (orderID: string, lines: ReadonlyArray<ReturnType<typeof line>>) =>
  JSON.stringify({
    referenceID: "1042",
    order: {
      orderID,
      orderCreateTime: 1763769600000,
      comment: "",
      status: 3,
      statusDescription: "Order submitted",
      orderLines: lines
    }
  })
const quoteBody = JSON.stringify({
  referenceID: "1042",
  quotes: [{
    acaPartTerminologyID: 5340,
    productID: "51515",
    brandID: "WIX",
    categoryID: "FLT",
    productDesc: "Oil Filter",
    orderByTime: 1763769600000,
    dispatchTime: 1763773200000,
    quantityAvail: 12,
    quantityReq: 1,
    price: 6.49,
    listPrice: 9.99,
    corePrice: 0,
    weight: 0.8,
    quality: "",
    makeId: 0,
    subtotal: 6.49
  }]
})

/**
 * How the receiver is served: `router` mounts `WebhookReceiver.router` in a platform server;
 * `lean` serves the same app with `WebhookReceiver.serve`, whose node:http handler answers the
 * webhook routes in front of it (installed by a first request; `appRequests` then shows that no
 * webhook reaches the app).
 */
type Mode = "router" | "lean"

// A shop system that takes no part lines: the runtime's parts ledger keeps them, and the callback page lists them.
const withoutPartWrites = Layer.effect(
  ShopSystem.ShopSystem,
  Effect.map(
    ShopSystem.ShopSystem,
    (inner) => ({ ...inner, capabilities: new Set(["readRepairOrder", "linkToRepairOrder"] as const) })
  )
)

const setupIn = (mode: Mode, options: WebhookReceiver.Options = {}, setupOptions: { readonly ledger?: boolean } = {}) =>
  Effect.gen(function*() {
    const sms = makeMemorySms([{ id: "ro_1", number: "1042", url: "https://sms.example/ro/1042", vehicle: {} }])
    const shopSystem = setupOptions.ledger === true ? withoutPartWrites.pipe(Layer.provide(sms.layer)) : sms.layer
    const context = yield* Layer.build(Layer.mergeAll(
      WebhookInbox.layerMemory,
      LaunchRegistry.layerMemory,
      shopSystem,
      ...(setupOptions.ledger === true ? [PartsLedger.layerMemory] : [])
    ))
    // Everything the receiver logs, as logfmt lines (message, level and annotations).
    const logs: Array<{ readonly level: string; readonly line: string }> = []
    const collector = Logger.make((entry) => {
      logs.push({ level: entry.logLevel.label, line: Logger.logfmtLogger.log(entry) })
    })
    const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    // Every request that reaches the platform app, by path.
    const appRequests: Array<string> = []
    const app = HttpRouter.toHttpApp(WebhookReceiver.router(options)).pipe(
      Effect.flatten,
      HttpMiddleware.make((inner) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
          appRequests.push(request.url)
          return inner
        })
      )
    )
    yield* (mode === "lean" ? WebhookReceiver.serve(server, app, options) : server.serve(app)).pipe(
      Effect.provide(context),
      Effect.provide(Logger.add(collector))
    )
    if (mode === "lean") {
      // The first request puts the lean handler in front; it is the app's (no such route).
      expect((yield* send(`http://127.0.0.1:${port}/`, { method: "GET" })).status).toBe(404)
    }
    const registry = Context.get(context, LaunchRegistry.LaunchRegistry)
    const base = `http://127.0.0.1:${port}/shoplink`
    // A launch of the repair order: its webhook URLs (the distributor's) and its callback URL (the browser's).
    const newLaunch = Effect.gen(function*() {
      const { callbackKey, key } = yield* registry.register({
        shopId: "shop_1",
        repairOrderId: "ro_1",
        repairOrderNumber: "1042",
        repairOrderUrl: "https://sms.example/ro/1042",
        expiresAt: (yield* Clock.currentTimeMillis) + 60 * 60 * 1000
      })
      return {
        key,
        callbackKey,
        orderUrl: `${base}/webhooks/${key}/order`,
        quoteUrl: `${base}/webhooks/${key}/quote`,
        callbackUrl: `${base}/callback/${callbackKey}`
      }
    })
    const first = yield* newLaunch
    return {
      ...first,
      base,
      newLaunch,
      logs,
      sms,
      appRequests,
      inbox: Context.get(context, WebhookInbox.WebhookInbox),
      drain: InboxWorker.processDue().pipe(Effect.provide(context))
    }
  })

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth)

for (const mode of ["router", "lean"] as const) {
  const setup = (options: WebhookReceiver.Options = {}, setupOptions: { readonly ledger?: boolean } = {}) =>
    setupIn(mode, options, setupOptions)

  describe(`WebhookReceiver (${mode}): bodies it refuses`, () => {
    it.scoped("a deeply nested body (240 KB) answers 400 with a short reason and a warning without the key, on both hooks", () =>
      Effect.gen(function*() {
        const { inbox, key, logs, orderUrl, quoteUrl } = yield* setup()
        const deep = nested(120_000)
        const bodies = [deep, `{"referenceID":${deep},"order":1}`, `{"referenceID":"1042","order":{"orderID":${deep}}}`]
        for (const url of [orderUrl, quoteUrl]) {
          for (const body of bodies) {
            const reply = yield* send(url, { body })
            expect(reply.status, `${body.slice(0, 40)}… to ${url.slice(-5)}`).toBe(400)
            expect(reply.text.length).toBeLessThan(400)
            expect(JSON.parse(reply.text)).toEqual({ error: expect.any(String) })
          }
        }
        const warnings = logs.filter((l) => l.level === "WARN" && l.line.includes("webhook refused"))
        expect(warnings).toHaveLength(6)
        for (const log of logs) {
          expect(log.line).not.toContain(key)
          expect(log.line.length).toBeLessThan(1000)
        }
        expect(yield* inbox.list()).toEqual([])
      }))

    it.scoped("a chunked body over the limit gets a 413 the sender receives; a chunked body within it is accepted", () =>
      Effect.gen(function*() {
        const { inbox, logs, quoteUrl } = yield* setup({ maxBodyBytes: 64 * 1024 })
        const oversized = yield* send(quoteUrl, {
          chunks: Array.from({ length: 32 }, () => Buffer.alloc(16 * 1024, " "))
        })
        expect(oversized.status).toBe(413)
        expect(oversized.headers["connection"]).toBe("close")
        expect(JSON.parse(oversized.text)).toEqual({ error: "body too large" })
        expect(logs.some((l) => l.level === "WARN" && l.line.includes("body too large"))).toBe(true)
        expect(yield* inbox.list()).toEqual([])

        const body = Buffer.from(quoteBody)
        const fits = yield* send(quoteUrl, { chunks: [body.subarray(0, 100), body.subarray(100)] })
        expect([fits.status, JSON.parse(fits.text)]).toEqual([200, { received: true, duplicate: false }])
        // A declared length over the limit is refused before reading.
        const declared = yield* send(quoteUrl, { body: JSON.stringify({ quotes: [], pad: "x".repeat(70 * 1024) }) })
        expect(declared.status).toBe(413)
      }))

    it.scoped("an order webhook with an empty or a 200 KB orderID answers 400 with a short body and stores nothing", () =>
      Effect.gen(function*() {
        const { inbox, orderUrl } = yield* setup()
        for (const orderID of ["", "9".repeat(200 * 1024)]) {
          const reply = yield* send(orderUrl, { body: orderBody(orderID, [line("51515", 1)]) })
          expect(reply.status, `orderID of ${orderID.length} characters`).toBe(400)
          expect(reply.text.length).toBeLessThan(400)
        }
        expect(yield* inbox.list()).toEqual([])
      }))
  })

  describe(`WebhookReceiver (${mode}): bodies that are not UTF-8`, () => {
    // A body with two bytes that are not UTF-8 in place of a space of its description.
    const withBadBytes = (body: string, at: string) => {
      const i = body.indexOf(at)
      return Buffer.concat([
        Buffer.from(body.slice(0, i)),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from(body.slice(i + at.length))
      ])
    }

    it.scoped("answer 400 with a warning and store nothing, with a declared length or chunked, on both hooks", () =>
      Effect.gen(function*() {
        const { inbox, key, logs, orderUrl, quoteUrl } = yield* setup()
        const bodies = [
          [orderUrl, withBadBytes(orderBody("10000003", [line("51515", 1)]), "Part ")],
          [quoteUrl, withBadBytes(quoteBody, "Oil ")]
        ] as const
        for (const [url, body] of bodies) {
          for (const how of ["declared", "chunked"] as const) {
            const reply = yield* send(
              url,
              how === "declared" ? { body } : { chunks: [body.subarray(0, 40), body.subarray(40)] }
            )
            expect([reply.status, JSON.parse(reply.text)], `${how} to ${url.slice(-5)}`).toEqual([400, {
              error: "body is not valid UTF-8"
            }])
          }
        }
        expect(yield* inbox.list()).toEqual([])
        const warnings = logs.filter((l) =>
          l.level === "WARN" && l.line.includes("webhook refused") && l.line.includes("NotUtf8")
        )
        expect(warnings).toHaveLength(4)
        for (const log of logs) expect(log.line).not.toContain(key)
      }))

    it.scoped("a character split across two chunks is valid UTF-8: stored as sent", () =>
      Effect.gen(function*() {
        const { inbox, quoteUrl } = yield* setup()
        const body = Buffer.from(quoteBody.replace("Oil Filter", "Ölfilter für Öl"))
        const split = body.indexOf(Buffer.from("Ö")) + 1 // inside the two bytes of "Ö"
        const reply = yield* send(quoteUrl, { chunks: [body.subarray(0, split), body.subarray(split)] })
        expect(reply.status).toBe(200)
        expect((yield* inbox.list()).map((e) => e.body)).toEqual([body.toString("utf8")])
      }))
  })

  describe(`WebhookReceiver (${mode}): webhook and callback keys`, () => {
    it.scoped("a callback URL cannot be turned into a webhook URL: every webhook route answers 404 and stores nothing", () =>
      Effect.gen(function*() {
        const { base, callbackKey, callbackUrl, inbox, key } = yield* setup()
        expect(callbackKey).toMatch(/^[A-Za-z0-9_-]{32}$/)
        expect(callbackKey).not.toBe(key)
        expect(callbackUrl).not.toContain(key)
        // What someone who saw the callback URL (history, a proxy log, a Referer) would post.
        for (
          const [hook, body] of [["order", orderBody("66666666", [line("51515", 1)])], ["quote", quoteBody]] as const
        ) {
          const forged = yield* send(`${base}/webhooks/${callbackKey}/${hook}`, { body })
          expect([forged.status, forged.text], hook).toEqual([404, "{}"])
        }
        expect(yield* inbox.list()).toEqual([])
        // And the other way round: the webhook key opens no callback page.
        expect((yield* send(`${base}/callback/${key}`, { method: "GET" })).status).toBe(404)
        expect((yield* send(callbackUrl, { method: "GET" })).status).toBe(303)
      }))
  })

  describe(`WebhookReceiver (${mode}): which path answers`, () => {
    it.scoped(
      mode === "lean"
        ? "webhooks never reach the app; the callback page and other paths do"
        : "every request reaches the app",
      () =>
        Effect.gen(function*() {
          const { appRequests, callbackKey, callbackUrl, key, orderUrl, quoteUrl } = yield* setup()
          const before = appRequests.length
          expect((yield* send(quoteUrl, { body: quoteBody })).status).toBe(200)
          expect((yield* send(orderUrl, { body: orderBody("10000009", [line("51515", 1)]) })).status).toBe(200)
          expect((yield* send(orderUrl.replace(key, "unknown-key"), { body: quoteBody })).status).toBe(404)
          expect((yield* send(`${orderUrl}/extra`, { body: quoteBody })).status).toBe(404)
          expect((yield* send(callbackUrl, { method: "GET" })).status).toBe(303)
          const reached = appRequests.slice(before).map((url) =>
            url.replace(key, ":key").replace(callbackKey, ":callbackKey")
          )
          expect(reached).toEqual(
            mode === "lean"
              ? ["/shoplink/webhooks/:key/order/extra", "/shoplink/callback/:callbackKey"]
              : [
                "/shoplink/webhooks/:key/quote",
                "/shoplink/webhooks/:key/order",
                "/shoplink/webhooks/unknown-key/order",
                "/shoplink/webhooks/:key/order/extra",
                "/shoplink/callback/:callbackKey"
              ]
          )
        })
    )
  })

  describe(`WebhookReceiver (${mode}): redeliveries`, () => {
    it.scoped("the same order and status with changed lines is applied (new lines once); an identical one is a duplicate", () =>
      Effect.gen(function*() {
        const { drain, inbox, orderUrl, sms } = yield* setup()
        const post = (body: string) => Effect.map(send(orderUrl, { body }), (r) => [r.status, JSON.parse(r.text)])
        const first = orderBody("10000001", [line("51515", 2)])
        const changed = orderBody("10000001", [line("51515", 2), line("57060", 1)])

        expect(yield* post(first)).toEqual([200, { received: true, duplicate: false }])
        expect(yield* drain).toMatchObject({ applied: 1 })
        expect(yield* post(first)).toEqual([200, { received: true, duplicate: true }])
        expect(yield* post(changed)).toEqual([200, { received: true, duplicate: false }])
        expect(yield* drain).toMatchObject({ applied: 1, dead: 0 })
        expect(yield* post(changed)).toEqual([200, { received: true, duplicate: true }])
        expect(sms.read.lines("ro_1").map((l) => [l.productID, l.quantity])).toEqual([["51515", 2], ["57060", 1]])

        // Applying the changed delivery again (a crash before markApplied) adds nothing.
        const [, second] = yield* inbox.list()
        yield* inbox.replay(second!.id)
        expect(yield* drain).toMatchObject({ applied: 1 })
        expect(sms.read.lines("ro_1")).toHaveLength(2)
        expect(yield* inbox.list()).toHaveLength(2)
      }))

    it.scoped("a delivery stored under the old key format (no digest) is stored again when redelivered, and adds no line twice", () =>
      Effect.gen(function*() {
        const { drain, inbox, orderUrl, sms } = yield* setup()
        const body = orderBody("10000002", [line("51515", 1)])
        // What an inbox written before the digest holds: key ends at the status.
        const old = yield* inbox.receive({
          kind: "order",
          contentKey: "order:shop_1:ro_1:10000002:3",
          shopId: "shop_1",
          repairOrderId: "ro_1",
          body
        })
        expect(yield* drain).toMatchObject({ applied: 1 })
        expect(sms.read.lines("ro_1")).toHaveLength(1)

        const again = yield* send(orderUrl, { body })
        expect(JSON.parse(again.text)).toEqual({ received: true, duplicate: false })
        expect(yield* drain).toMatchObject({ applied: 1, dead: 0 })
        expect(sms.read.lines("ro_1")).toHaveLength(1)
        const keys = (yield* inbox.list()).map((e) => e.contentKey)
        expect(keys[0]).toBe(old.entry.contentKey)
        expect(keys[1]).toMatch(/^order:shop_1:ro_1:10000002:3:[0-9a-f]{32}~[0-9a-f]{16}$/)
      }))
  })

  describe(`WebhookReceiver (${mode}): the callback page`, () => {
    const summaryOf = (text: string) => {
      const match = /data-testid="callback-summary" data-state="([^"]*)">([^<]*)</.exec(text)
      return { state: match?.[1], text: match?.[2], refreshes: text.includes("http-equiv=\"refresh\"") }
    }
    /** A browser landing on the callback URL with its cookie, following the redirect. */
    const land = (callbackUrl: string, cookie: string | undefined) =>
      Effect.gen(function*() {
        const landing = yield* send(callbackUrl, { method: "GET", headers: cookie === undefined ? {} : { cookie } })
        expect(landing.status).toBe(303)
        const pageUrl = new URL(landing.headers.location!, callbackUrl).toString()
        return { pageUrl, ...(yield* view(pageUrl, cookie)) }
      })
    const view = (pageUrl: string, cookie: string | undefined) =>
      Effect.map(send(pageUrl, { method: "GET", headers: cookie === undefined ? {} : { cookie } }), (page) => {
        const setCookie = page.headers["set-cookie"]?.[0]
        return { ...summaryOf(page.text), status: page.status, setCookie, cookie: setCookie?.split(";")[0] ?? cookie }
      })

    it.scoped("Export, then Export and Submit in the same launch: the second landing waits for the order and shows it until applied", () =>
      Effect.gen(function*() {
        const { callbackUrl, drain, orderUrl, quoteUrl } = yield* setup()
        yield* send(quoteUrl, { body: quoteBody })
        yield* drain
        const first = yield* land(callbackUrl, undefined)
        expect(first).toMatchObject({ state: "applied", text: "1 part quoted and added to RO 1042.", refreshes: false })
        expect(first.setCookie).toMatch(/^shoplink_seen=[0-9a-f-]{36}; .*Path=\/shoplink\/callback\//)
        expect(first.setCookie).toContain("HttpOnly")

        // Export and Submit: the browser arrives before the order webhook.
        const second = yield* land(callbackUrl, first.cookie)
        expect(second).toMatchObject({ state: "waiting", refreshes: true })
        yield* send(orderUrl, { body: orderBody("10000001", [line("51515", 2), line("57060", 1)]) })
        expect(yield* view(second.pageUrl, second.cookie)).toMatchObject({
          state: "pending",
          text: "2 parts ordered; adding them to RO 1042…",
          refreshes: true
        })
        yield* drain
        const applied = yield* view(second.pageUrl, second.cookie)
        expect(applied).toMatchObject({
          state: "applied",
          text: "2 parts ordered and added to RO 1042.",
          refreshes: false
        })
        // A reload of the same page shows the same export.
        expect(yield* view(second.pageUrl, applied.cookie)).toMatchObject({
          state: "applied",
          text: "2 parts ordered and added to RO 1042."
        })
      }))

    it.scoped("a landing whose export never arrives stops waiting after two minutes; a browser without the cookie sees the newest", () =>
      Effect.gen(function*() {
        const { callbackUrl, drain, quoteUrl } = yield* setup()
        yield* send(quoteUrl, { body: quoteBody })
        yield* drain
        const first = yield* land(callbackUrl, undefined)
        const again = yield* land(callbackUrl, first.cookie)
        expect(again).toMatchObject({ state: "waiting", refreshes: true })
        yield* TestClock.adjust("2 minutes")
        expect(yield* view(again.pageUrl, again.cookie)).toMatchObject({
          state: "quiet",
          text: "Nothing new has arrived from the distributor for RO 1042. Reload this page to check again.",
          refreshes: false
        })
        expect(yield* land(callbackUrl, "shoplink_seen=not-an-entry")).toMatchObject({
          state: "applied",
          text: "1 part quoted and added to RO 1042."
        })
      }))
  })

  describe(`WebhookReceiver (${mode}): the callback page shows its own launch only`, () => {
    /** The page a browser without a cookie sees: the summary and the kept rows (kind, product). */
    const page = (callbackUrl: string) =>
      Effect.gen(function*() {
        const landing = yield* send(callbackUrl, { method: "GET" })
        expect(landing.status).toBe(303)
        const shown = yield* send(new URL(landing.headers.location!, callbackUrl).toString(), { method: "GET" })
        const summary = /data-testid="callback-summary" data-state="([^"]*)">([^<]*)</.exec(shown.text)
        const rows = shown.text.split("data-testid=\"parts-row\"").slice(1).map((row) => {
          const cells = [...row.matchAll(/<td>([^<]*)<\/td>/g)].map((m) => m[1])
          return [cells[0], cells[4]]
        })
        return { state: summary?.[1], text: summary?.[2], rows }
      })

    it.scoped("two launches of one repair order: each page reports and lists only the deliveries of its own webhook key", () =>
      Effect.gen(function*() {
        const { drain, newLaunch, ...a } = yield* setup({}, { ledger: true })
        const b = yield* newLaunch
        // Launch A's export arrives after launch B was made (two users, or two instances, on one repair order).
        expect((yield* send(a.quoteUrl, { body: quoteBody })).status).toBe(200)
        yield* drain
        expect(yield* page(b.callbackUrl)).toEqual({
          state: "waiting",
          text: "Waiting for the distributor to send the parts for RO 1042…",
          rows: []
        })

        expect((yield* send(b.orderUrl, { body: orderBody("10000005", [line("57060", 2)]) })).status).toBe(200)
        yield* drain
        expect(yield* page(b.callbackUrl)).toEqual({
          state: "applied",
          text: "1 part ordered and kept with RO 1042.",
          rows: [["order", "57060"]]
        })
        expect(yield* page(a.callbackUrl)).toEqual({
          state: "applied",
          text: "1 part quoted and kept with RO 1042.",
          rows: [["quote", "51515"]]
        })
      }))

    it.scoped("a launch made after earlier launches kept parts lists none of them", () =>
      Effect.gen(function*() {
        const { drain, newLaunch, orderUrl, quoteUrl } = yield* setup({}, { ledger: true })
        yield* send(quoteUrl, { body: quoteBody })
        yield* send(orderUrl, { body: orderBody("10000006", [line("51515", 1), line("57060", 1)]) })
        yield* drain
        yield* TestClock.adjust("1 minute")
        const later = yield* newLaunch
        expect((yield* page(later.callbackUrl)).rows).toEqual([])
        yield* send(later.quoteUrl, { body: quoteBody.replace("51515", "57060") })
        yield* drain
        expect(yield* page(later.callbackUrl)).toMatchObject({ state: "applied", rows: [["quote", "57060"]] })
      }))
  })
}
