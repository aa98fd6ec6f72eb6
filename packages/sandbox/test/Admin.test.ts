import { describe, expect, it } from "@effect/vitest"
import { Config, ConfigProvider, Duration, Effect, Layer, Redacted, TestClock } from "effect"
import { SANDBOX_CREDENTIALS, SandboxServer, startSandbox, startSandboxServer, withSandbox } from "../src/index.js"
import { call, createBody, postJson, session } from "./helpers.js"

describe("admin HTTP API", () => {
  it.scoped("adds customers, vendor keys and OMS keys; revokes tokens; advances the clock", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const admin = (path: string, body: unknown) => postJson(`${sandbox.adminUrl}/${path}`, body)
      expect((yield* call(sandbox.adminUrl)).body.endpoints.length).toBeGreaterThan(5)
      expect(
        (yield* admin("customers", {
          accountNo: "700800",
          username: "x@y.example",
          apiToken: "t-700800",
          country: "CA"
        })).status
      ).toBe(201)
      expect((yield* admin("vendor-keys", { apiKey: "vendor-2" })).status).toBe(201)
      const created = yield* postJson(
        sandbox.punchoutCreateUrl,
        createBody({
          apiKey: "vendor-2",
          apiToken: "t-700800",
          accountNo: "700800",
          username: "x@y.example",
          country: "CA"
        })
      )
      expect(created.status).toBe(200)
      expect((yield* admin("oms-keys", { apiKey: "oms-2", tier: "production" })).status).toBe(201)
      const account = yield* call(
        `${sandbox.omsBaseUrl("CA_PRD")}/accountDetails?APIToken=t-700800&customerAccountNo=700800&submitDate=20260601`,
        { headers: { APIKey: "oms-2" } }
      )
      expect(account.body.status.message.ID).toBe("API0200")
      expect((yield* admin("revoke-token", { apiToken: "t-700800" })).body.ok).toBe(true)
      const session = created.body.punchout.url.replace("{command}", "GetProductQuotes")
      expect((yield* postJson(session, { productID: "51515", quantity: "1" })).status).toBe(401)
      expect((yield* admin("expire-key", { apiKey: "oms-2" })).body.ok).toBe(true)
      expect((yield* admin("allowance", { apiKey: "oms-2", limit: 10 })).body.ok).toBe(true)
      const before = (yield* call(`${sandbox.adminUrl}/clock`)).body.now
      const after = (yield* admin("clock/advance", { millis: 3_600_000 })).body.now
      expect(Date.parse(after) - Date.parse(before)).toBe(3_600_000)
      expect((yield* admin("clock/advance", { millis: -1 })).status).toBe(400)
      expect((yield* admin("customers", { accountNo: "1" })).status).toBe(400)
      expect((yield* call(`${sandbox.adminUrl}/nothing`)).status).toBe(404)
    }))

  it.scoped("adminToken guards /__sandbox/ with a Bearer token; the distributor's routes and sandbox.admin are unaffected", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox({ adminToken: Redacted.make("s3cret") })
      const clock = `${sandbox.adminUrl}/clock`
      const refused = yield* call(clock)
      expect(refused.status).toBe(401)
      expect(refused.headers.get("www-authenticate")).toContain("Bearer")
      expect(refused.text).not.toContain("s3cret")
      expect((yield* call(clock, { headers: { authorization: "Bearer s3cre" } })).status).toBe(401)
      expect(
        (yield* postJson(`${sandbox.adminUrl}/clock/advance`, { millis: 1000 }, { authorization: "Basic s3cret" }))
          .status
      ).toBe(401)
      expect((yield* call(clock, { headers: { authorization: "Bearer s3cret" } })).status).toBe(200)
      expect((yield* postJson(sandbox.punchoutCreateUrl, createBody())).status).toBe(200)
      yield* sandbox.admin.advanceClock("1 hour")
      expect((yield* call(clock, { headers: { authorization: "bearer s3cret" } })).body.offsetMillis).toBe(3_600_000)
    }))

  it.scoped("drives the ordering pages and moves order states over HTTP", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const admin = (path: string, body: unknown) => postJson(`${sandbox.adminUrl}/${path}`, body)
      const search = yield* admin("driver/search", { token: s.token, baseVehicleID: "5678", searchTerm: "oil filter" })
      expect(search.body.results.length).toBeGreaterThan(0)
      const added = yield* admin("driver/add-to-cart", {
        token: s.token,
        productID: "51515",
        brandID: "WIX",
        quantity: 3
      })
      expect(added.body.lines).toBe(1)
      const pressed = yield* admin("driver/press", { token: s.token, button: "exportAndSubmit" })
      expect(pressed.body).toMatchObject({ button: "exportAndSubmit", orderID: added.body.orderID, webhook: "order" })
      expect((yield* call(`${sandbox.adminUrl}/orders/${added.body.orderID}`)).body.state).toBe("submitted")
      expect((yield* admin(`orders/${added.body.orderID}/state`, { state: "processing" })).body.state).toBe(
        "processing"
      )
      expect((yield* admin(`orders/${added.body.orderID}/state`, { state: "flying" })).status).toBe(400)
      expect((yield* admin("driver/press", { token: "nope", button: "export" })).status).toBe(400)
      expect((yield* admin("driver/press", { token: s.token, button: "explode" })).status).toBe(400)
      const deliveries = yield* sandbox.admin.awaitDeliveries(1)
      expect((yield* call(`${sandbox.adminUrl}/deliveries`)).body.deliveries.length).toBe(deliveries.length)
    }))
})

describe("faults", () => {
  it.scoped("latency, HTTP 5xx, connection reset and a message ID for the next N calls", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      const quote = () => postJson(s.command("GetProductQuotes"), { productID: "51515", brandID: "WIX", quantity: "1" })
      yield* postJson(`${sandbox.adminUrl}/faults`, { kind: "httpStatus", endpoint: "GetProductQuotes", status: 503 })
      const unavailable = yield* quote()
      expect([unavailable.status, unavailable.body]).toEqual([503, undefined])
      expect((yield* quote()).status).toBe(200)
      yield* sandbox.admin.injectFault({ kind: "message", endpoint: "GetProductQuotes", id: "API0500", times: 2 })
      for (let i = 0; i < 2; i++) {
        const failed = yield* quote()
        expect([failed.status, failed.body.status.message.ID]).toEqual([500, "API0500"])
      }
      expect((yield* quote()).status).toBe(200)
      yield* sandbox.admin.injectFault({ kind: "connectionReset", endpoint: "GetProductQuotes" })
      const reset = yield* Effect.either(
        Effect.tryPromise(() => fetch(s.command("GetProductQuotes"), { method: "POST", body: "{}" }))
      )
      expect(reset._tag).toBe("Left")
      yield* sandbox.admin.injectFault({ kind: "latency", endpoint: "*", millis: 5 })
      expect((yield* quote()).status).toBe(200)
      yield* sandbox.admin.injectFault({ kind: "message", endpoint: "createOrder", id: "API0208" })
      const quota = yield* postJson(`${sandbox.omsBaseUrl("US_QUA")}/createOrder?APIToken=x`, {})
      expect([quota.status, quota.body.status.message.ID]).toEqual([429, "API0208"])
      yield* sandbox.admin.injectFault({ kind: "message", endpoint: "create", id: "API0500", times: 5 })
      yield* sandbox.admin.clearFaults
      expect((yield* postJson(sandbox.punchoutCreateUrl, createBody())).status).toBe(200)
    }))
})

describe("clock", () => {
  it.scoped("runs on the Effect Clock: TestClock.adjust expires sessions", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const s = yield* session(sandbox)
      expect(String(s.create.body.punchout.expiration)).toHaveLength(10)
      yield* TestClock.adjust("11 hours")
      expect((yield* postJson(s.command("GetProductQuotes"), { productID: "51515", quantity: "1" })).status).toBe(200)
      yield* TestClock.adjust("1 hour")
      expect((yield* postJson(s.command("GetProductQuotes"), { productID: "51515", quantity: "1" })).status).toBe(401)
    }))

  it.scoped("an unsubmitted order expires at its orderByTime (sooner than the end of the following day)", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      // 2026-06-01T14:00Z on TestClock: the DAL cutoff (22:00Z) comes before the end of the following day.
      const s = yield* session(sandbox)
      const created = yield* postJson(s.command("CreateOrder"), { productID: "51515", brandID: "WIX", quantity: "1" })
      const orderID: string = created.body.order.orderID
      yield* sandbox.admin.advanceClock(Duration.millis(8 * 3_600_000 - 60_000))
      expect((yield* call(`${sandbox.adminUrl}/orders/${orderID}`)).body.state).toBe("cart")
      yield* sandbox.admin.advanceClock("1 minute")
      expect((yield* call(`${sandbox.adminUrl}/orders/${orderID}`)).body.state).toBe("expired")
    }))
})

describe("order expiry over a weekend", () => {
  it.scoped("an order placed on Friday night expires after midnight of the following day, before Monday's orderByTime", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      // Monday 2026-06-01T14:00Z on TestClock → Friday 2026-06-05T23:00Z.
      expect(new Date(yield* sandbox.admin.now).toISOString()).toBe("2026-06-01T14:00:00.000Z")
      yield* sandbox.admin.advanceClock(Duration.hours(4 * 24 + 9))
      const s = yield* session(sandbox)
      const created = yield* postJson(s.command("CreateOrder"), { productID: "51515", brandID: "WIX", quantity: "1" })
      const orderID: string = created.body.order.orderID
      // Dispatch is Monday 23:00Z (22:00Z cutoff + 1 h).
      expect(new Date(created.body.order.orderLines[0].dispatchTime).toISOString()).toBe("2026-06-08T23:00:00.000Z")
      yield* sandbox.admin.advanceClock(Duration.millis(25 * 3_600_000 - 1))
      expect((yield* call(`${sandbox.adminUrl}/orders/${orderID}`)).body.state).toBe("cart")
      yield* sandbox.admin.advanceClock(Duration.millis(1))
      expect((yield* call(`${sandbox.adminUrl}/orders/${orderID}`)).body.state).toBe("expired")
      const later = yield* session(sandbox)
      expect((yield* postJson(later.command("SubmitOrder"), { orderID })).body.status.message.ID).toBe("API0234")
    }))
})

describe("library entry points", () => {
  it.scoped("withSandbox and SandboxServer.layer start servers with isolated state", () =>
    Effect.gen(function*() {
      const url = yield* withSandbox((sandbox) => Effect.succeed(sandbox.url))
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const viaLayer = yield* Effect.provide(
        Effect.gen(function*() {
          const sandbox = yield* SandboxServer
          yield* sandbox.admin.revokeToken(SANDBOX_CREDENTIALS.customers.us.apiToken)
          return sandbox.url
        }),
        SandboxServer.layer()
      )
      expect(viaLayer).not.toBe(url)
      // A fresh instance does not see the revocation.
      yield* withSandbox((sandbox) =>
        Effect.map(postJson(sandbox.punchoutCreateUrl, createBody()), (r) => expect(r.status).toBe(200))
      )
    }))

  it.scoped("SandboxServer.layerConfig reads its options from Config", () =>
    Effect.gen(function*() {
      const seed = yield* Effect.provide(
        Effect.map(SandboxServer, (sandbox) => sandbox.seed),
        SandboxServer.layerConfig({ seed: Config.number("SANDBOX_SEED") }).pipe(
          Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["SANDBOX_SEED", "9"]]))))
        )
      )
      expect(seed).toBe(9)
    }))

  it.live("startSandboxServer serves until close()", () =>
    Effect.gen(function*() {
      const handle = yield* Effect.promise(() => startSandboxServer())
      expect(handle.credentials).toEqual(SANDBOX_CREDENTIALS)
      expect((yield* call(`${handle.url}/docs`)).status).toBe(200)
      yield* Effect.promise(() => handle.close())
      const after = yield* Effect.either(Effect.tryPromise(() => fetch(`${handle.url}/docs`)))
      expect(after._tag).toBe("Left")
    }))
})

describe("OpenAPI", () => {
  it.scoped("serves OpenAPI 3.1 documents generated from the protocol schemas and a docs page", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const punchout = (yield* call(sandbox.openApi.punchout)).body
      expect(punchout.openapi).toBe("3.1.0")
      expect(Object.keys(punchout.paths)).toContain("/punchout/v1/create")
      expect(punchout.components.schemas.CreateSessionRequest.properties).toHaveProperty("apiKey")
      expect(JSON.stringify(punchout)).not.toContain("#/$defs/")
      const oms = (yield* call(sandbox.openApi.orderManagement)).body
      expect(Object.keys(oms.paths)).toEqual(
        expect.arrayContaining([
          "/web/services/{environment}/priceAndAvailablity_v2",
          "/web/services/{environment}/accountDetails"
        ])
      )
      expect(oms.components.securitySchemes.APIKey).toEqual({ type: "apiKey", in: "header", name: "APIKey" })
      for (const doc of [punchout, oms]) {
        const names = Object.keys(doc.components.schemas)
        expect(names.every((n) => /^[A-Za-z0-9._-]+$/.test(n))).toBe(true)
        const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1])
        expect(refs.filter((r) => !names.includes(r!))).toEqual([])
      }
      const docs = yield* call(sandbox.openApi.docs)
      expect(docs.text).toContain("/openapi/order-management.json")
    }))
})
