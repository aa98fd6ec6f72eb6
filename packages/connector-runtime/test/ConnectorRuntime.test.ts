// ConnectorRuntime over real HTTP on loopback against the sandbox: many shops, the authenticated
// launch API, signed launch links, revoked tokens, secrets sealed at rest, and no launch key or
// session token in any log line or span attribute across launch → export → apply.
import { HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@shoplink/http-node"
import { ShopSystem } from "@shoplink/connector"
import { ConnectorRuntime, LaunchLinks } from "@shoplink/connector-runtime"
import { SANDBOX_FIXTURES, startSandbox } from "@shoplink/sandbox"
import { Effect, Exit, Layer, Logger, LogLevel, Redacted, Tracer } from "effect"
import { readFileSync, statSync } from "node:fs"
import { createServer } from "node:http"
import { scratchDatabase } from "./fixtures.js"
import { makeMemorySms } from "./support/memorySms.js"

const [ford, camry] = SANDBOX_FIXTURES.vehicles
const SHOP_A_RO = { id: "ro_a", number: "1042", vehicle: { vin: ford!.vin } }
const SHOP_B_RO = {
  id: "ro_b",
  number: "2001",
  vehicle: { licensePlate: camry!.licensePlate, licensePlateState: camry!.licensePlateState }
}
const secretKeys = Redacted.make("k1:" + Buffer.alloc(32, 7).toString("base64"))
const linkSecret = Redacted.make("launch-link-secret-for-tests")

/** The memory SMS, but each shop sees only its own repair order; `loads` records every read. */
const perShopSms = () => {
  const sms = makeMemorySms([SHOP_A_RO, SHOP_B_RO])
  const owner: Record<string, string> = { ro_a: "shop_a", ro_b: "shop_b" }
  const loads: Array<string> = []
  const layer = Layer.effect(
    ShopSystem.ShopSystem,
    Effect.map(ShopSystem.ShopSystem, (inner) => ({
      ...inner,
      loadRepairOrder: (ref: { readonly shopId: string; readonly repairOrderId: string }) => {
        loads.push(`${ref.shopId}/${ref.repairOrderId}`)
        return owner[ref.repairOrderId] === ref.shopId
          ? inner.loadRepairOrder(ref)
          : Effect.fail(new ShopSystem.RepairOrderNotFound(ref))
      }
    }))
  ).pipe(Layer.provide(sms.layer))
  return { ...sms, layer, loads }
}

/** Every log line (message and annotations) and span attribute, as text, to search for secrets. */
const capture = () => {
  const lines: Array<string> = []
  const logger = Logger.make(({ annotations, message }) => {
    lines.push(JSON.stringify({ message, annotations: Object.fromEntries(annotations) }))
  })
  const tracer = Effect.map(Effect.tracer, (native) =>
    Tracer.make({
      context: native.context,
      span: (name, parent, context, links, startTime, kind, options) => {
        const span = native.span(name, parent, context, links, startTime, kind, options)
        lines.push(`span ${name}`)
        const attribute = span.attribute.bind(span)
        span.attribute = (key, value) => {
          lines.push(`span ${name} ${key}=${String(value)}`)
          attribute(key, value)
        }
        return span
      }
    }))
  return { lines, logger, tracer }
}

const setup = (options: { readonly storage?: "memory" | "sqlite" } = {}) =>
  Effect.gen(function*() {
    const sandbox = yield* startSandbox()
    const sms = perShopSms()
    const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    const publicBaseUrl = `http://127.0.0.1:${port}`
    const database = scratchDatabase()
    const runtime = yield* ConnectorRuntime.make(sms.layer, {
      publicBaseUrl,
      smsVendorName: "Shoplink Tests",
      punchout: { baseUrl: sandbox.url, vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey) },
      storage: options.storage === "memory" ? "memory" : { sqlite: database },
      secretKeys,
      launchLinkSecrets: [linkSecret],
      worker: false
      // The HttpClient must live as long as the runtime: built in the test's scope, not per call.
    }).pipe(Effect.provide(yield* Layer.build(UndiciHttpClient.layer)))
    yield* runtime.serve(
      server,
      HttpRouter.concat(runtime.publicRouter, runtime.apiRouter).pipe(HttpRouter.toHttpApp, Effect.flatten)
    )
    const { ca, us } = sandbox.credentials.customers
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
    yield* runtime.shops.add({
      id: "shop_b",
      name: "Maple Garage",
      distributor: {
        accountNo: ca.accountNo,
        username: ca.username,
        country: "CA",
        apiToken: Redacted.make(ca.apiToken)
      },
      sms: { apiKey: Redacted.make("sms-key-of-shop-b-0002") }
    })
    const { key } = yield* runtime.apiKeys.create("sms-backend")
    return { sandbox, sms, runtime, publicBaseUrl, database, vendorKey: Redacted.value(key) }
  })

const request = (url: string, init: RequestInit = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual", ...init })
    return { status: response.status, location: response.headers.get("location"), text: await response.text() }
  })

const postLaunch = (base: string, body: unknown, key?: string, headers: Record<string, string> = {}) =>
  request(`${base}/shoplink/launch`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: JSON.stringify(body)
  })

describe("ConnectorRuntime", () => {
  it.scoped("the launch API needs a vendor key; with one it launches for the shop's own repair orders only", () =>
    Effect.gen(function*() {
      const { publicBaseUrl, sandbox, vendorKey } = yield* setup()
      const body = { shopId: "shop_a", repairOrderId: "ro_a" }
      for (
        const [key, headers] of [[undefined, {}], ["slk_0000000000_" + "A".repeat(43), {}], ["not-a-key", {}], [
          undefined,
          { origin: "https://evil.example", cookie: "x=1" }
        ]] as const
      ) {
        const refused = yield* postLaunch(publicBaseUrl, body, key, headers)
        expect(refused.status).toBe(401)
        expect(refused.text).not.toContain(sandbox.url)
        expect(refused.text).not.toContain("token")
      }
      const ok = yield* postLaunch(publicBaseUrl, body, vendorKey)
      expect(ok.status).toBe(200)
      const launched = JSON.parse(ok.text)
      expect(launched).toMatchObject({ repairOrder: { id: "ro_a", number: "1042" }, vehicle: "vin" })
      expect(launched.url).toContain(`${sandbox.url}/`)
      // Shop B's launch uses shop B's distributor account (the CA customer).
      const b = JSON.parse(
        (yield* postLaunch(publicBaseUrl, { shopId: "shop_b", repairOrderId: "ro_b" }, vendorKey)).text
      )
      expect(b.vehicle).toBe("licensePlate")
      // Cross-shop and unknown: 404 with nothing in it.
      const cross = yield* postLaunch(publicBaseUrl, { shopId: "shop_a", repairOrderId: "ro_b" }, vendorKey)
      expect([cross.status, JSON.parse(cross.text)]).toEqual([404, { error: "not found" }])
      const unknown = yield* postLaunch(publicBaseUrl, { shopId: "shop_zz", repairOrderId: "ro_a" }, vendorKey)
      expect(unknown.status).toBe(404)
      const bad = yield* postLaunch(publicBaseUrl, { shopId: "", repairOrderId: "ro_a" }, vendorKey)
      expect(bad.status).toBe(400)
      expect(bad.text.split("\n")).toHaveLength(1)
    }))

  it.scoped("signed launch links redirect to the catalog; tampered, expired, over-long and foreign-shop links get 403", () =>
    Effect.gen(function*() {
      const { publicBaseUrl, runtime, sandbox } = yield* setup({ storage: "memory" })
      const link = yield* runtime.launchLink({ shopId: "shop_a", repairOrderId: "ro_a" })
      const ok = yield* request(link)
      expect(ok.status).toBe(303)
      expect(ok.location).toContain(`${sandbox.url}/`)
      expect(ok.location).toContain(ford!.vin)
      const now = Math.floor(Date.now() / 1000)
      const signed = (grant: LaunchLinks.Grant, secret = linkSecret) =>
        LaunchLinks.url(publicBaseUrl, "/shoplink", secret, grant)
      const forbidden = [
        link.replace("ro=ro_a", "ro=ro_b"),
        link.replace(/sig=[^&]+/, "sig=" + "A".repeat(43)),
        signed({ shopId: "shop_a", repairOrderId: "ro_a", expiresAt: now - 1 }),
        signed({ shopId: "shop_a", repairOrderId: "ro_a", expiresAt: now + 86_400 * 365 }),
        signed(
          { shopId: "shop_a", repairOrderId: "ro_a", expiresAt: now + 60 },
          Redacted.make("someone else's secret")
        ),
        // Well signed, but shop A's link for shop B's repair order.
        signed({ shopId: "shop_a", repairOrderId: "ro_b", expiresAt: now + 60 }),
        `${publicBaseUrl}/shoplink/launch/link`
      ]
      for (const url of forbidden) {
        const refused = yield* request(url)
        expect(refused.status, url).toBe(403)
        expect(refused.location).toBeNull()
        expect(refused.text).not.toContain(sandbox.url)
      }
    }))

  it.scoped("a shop whose distributor token was revoked is marked and reported, and not asked again", () =>
    Effect.gen(function*() {
      const { publicBaseUrl, runtime, sandbox, sms, vendorKey } = yield* setup({ storage: "memory" })
      yield* sandbox.admin.revokeToken(sandbox.credentials.customers.us.apiToken)
      // The launch that meets the 401 already says what it means.
      const first = yield* postLaunch(publicBaseUrl, { shopId: "shop_a", repairOrderId: "ro_a" }, vendorKey)
      expect(first.status).toBe(409)
      expect(JSON.parse(first.text).error).toContain("onboard the shop again")
      expect(yield* runtime.shops.get("shop_a")).toMatchObject({ status: "revoked" })
      expect(sms.loads).toEqual(["shop_a/ro_a"])
      // Later launches fail before any shop-system or distributor call.
      const second = yield* postLaunch(publicBaseUrl, { shopId: "shop_a", repairOrderId: "ro_a" }, vendorKey)
      expect(second.status).toBe(409)
      expect(JSON.parse(second.text).error).toContain("onboard the shop again")
      expect(sms.loads).toEqual(["shop_a/ro_a"])
      // Shop B is untouched.
      expect((yield* postLaunch(publicBaseUrl, { shopId: "shop_b", repairOrderId: "ro_b" }, vendorKey)).status).toBe(
        200
      )
    }))

  it.scoped("an unknown shop is 404 before the shop system is asked; a wrong vendor key is 401 and changes nothing", () =>
    Effect.gen(function*() {
      const { publicBaseUrl, runtime, sms, vendorKey } = yield* setup({ storage: "memory" })
      const unknown = yield* postLaunch(publicBaseUrl, { shopId: "shop_zz", repairOrderId: "ro_a" }, vendorKey)
      expect(unknown).toMatchObject({ status: 404 })
      expect(JSON.parse(unknown.text)).toEqual({ error: "not found" })
      expect(sms.loads).toEqual([])
      const shopsBefore = yield* runtime.shops.list()
      const keysBefore = yield* runtime.apiKeys.list()
      const wrong = yield* postLaunch(
        publicBaseUrl,
        { shopId: "shop_a", repairOrderId: "ro_a" },
        `${vendorKey.slice(0, -1)}${vendorKey.endsWith("A") ? "B" : "A"}`
      )
      expect(wrong.status).toBe(401)
      expect(sms.loads).toEqual([])
      expect(yield* runtime.shops.list()).toEqual(shopsBefore)
      expect(yield* runtime.apiKeys.list()).toEqual(keysBefore)
    }))

  it.scoped("SQLite: the file is 0600 and holds no API token or SMS key", () =>
    Effect.gen(function*() {
      const { database, sandbox } = yield* setup()
      expect(statSync(database).mode & 0o777).toBe(0o600)
      const bytes = [database, `${database}-wal`].map((f) => {
        try {
          return readFileSync(f, "latin1")
        } catch {
          return ""
        }
      }).join("")
      expect(bytes).toContain("shop_a")
      for (
        const secret of [
          sandbox.credentials.customers.us.apiToken,
          sandbox.credentials.customers.ca.apiToken,
          "sms-key-of-shop-a-0001"
        ]
      ) {
        expect(bytes).not.toContain(secret)
      }
    }))

  it.scoped("SQLite storage without a secret key does not start, and says why in one line", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const exit = yield* Effect.exit(
        ConnectorRuntime.make(perShopSms().layer, {
          publicBaseUrl: "http://127.0.0.1:1",
          smsVendorName: "x",
          punchout: { baseUrl: sandbox.url, vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey) },
          storage: { sqlite: scratchDatabase() },
          worker: false
        }).pipe(Effect.provide(UndiciHttpClient.layer))
      )
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) {
        const error = exit.cause._tag === "Fail" ? exit.cause.error : undefined
        expect(error?._tag).toBe("SecretKeysInvalid")
        expect(error?.message).toMatch(/^secret keys: no key configured/)
      }
    }))

  it.scoped("no launch key or session token in any log line or span attribute across launch → export → callback → apply", () => {
    const seen = capture()
    return Effect.gen(function*() {
      const { publicBaseUrl, runtime, sandbox, sms, vendorKey } = yield* setup()
      const launched = JSON.parse(
        (yield* postLaunch(publicBaseUrl, { shopId: "shop_a", repairOrderId: "ro_a" }, vendorKey)).text
      )
      const token = new URL(launched.url).searchParams.get("token")!
      const viaLink = yield* request(yield* runtime.launchLink({ shopId: "shop_a", repairOrderId: "ro_a" }))
      expect(viaLink.status).toBe(303)
      // What the distributor does is the sandbox's, not the runtime's: it is not traced here.
      const distributor = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.withTracerEnabled(effect, false)
      yield* distributor(sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 }))
      const pressed = yield* distributor(sandbox.admin.driver.press(token, "exportAndSubmit"))
      const [delivery] = yield* distributor(sandbox.admin.awaitDeliveries(1))
      expect(delivery!.status).toBe(200)
      expect(yield* runtime.drain).toMatchObject({ applied: 1 })
      expect(sms.read.lines("ro_a")).toHaveLength(1)
      const callback = yield* request(pressed.redirect!)
      expect(callback.status).toBeLessThan(400)
      const launchKey = /\/webhooks\/([^/]+)\//.exec(delivery!.url)![1]!
      const text = seen.lines.join("\n")
      expect(seen.lines.some((line) => line.includes("url.path=/shoplink/webhooks/:key/order"))).toBe(true)
      expect(seen.lines.some((line) => line.includes("punchout launched"))).toBe(true)
      for (
        const secret of [
          launchKey,
          token,
          vendorKey,
          sandbox.credentials.customers.us.apiToken,
          sandbox.credentials.vendorApiKey
        ]
      ) {
        expect(seen.lines.filter((line) => line.includes(secret))).toEqual([])
      }
      expect(text).not.toContain("token=")
    }).pipe(
      Effect.provide(Logger.replace(Logger.defaultLogger, seen.logger)),
      Logger.withMinimumLogLevel(LogLevel.All),
      (self) => Effect.flatMap(seen.tracer, (tracer) => Effect.withTracer(self, tracer))
    )
  })
})
