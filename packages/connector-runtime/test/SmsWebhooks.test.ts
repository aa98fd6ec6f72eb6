// An SMS's repair-order webhooks (capability `receiveRepairOrderEvents`): the per-shop key, the
// route (wrong key, forged and malformed bodies, an SMS that cannot answer), and what a closed or
// deleted repair order changes: no launch, and a distributor order that arrives after the close is
// kept in the parts ledger, not written onto the repair order. On memory, SQLite and PostgreSQL,
// over real HTTP against the sandbox.
import { describe, expect, it } from "@effect/vitest"
import { ShopSystem } from "@shoplink/connector"
import { type ConnectorRuntime, PunchoutLauncher, SmsWebhooks } from "@shoplink/connector-runtime"
import { SANDBOX_FIXTURES } from "@shoplink/sandbox"
import { Effect, Layer, Option, Redacted } from "effect"
import { makeMemorySms } from "./support/memorySms.js"
import { servedRuntime, type TestStorage } from "./support/servedRuntime.js"

const secret = Redacted.make("sms-webhook-secret-for-tests")

describe("SmsWebhooks keys", () => {
  it("name the shop, verify under any configured secret, and refuse anything else", () => {
    const key = SmsWebhooks.keyFor(secret, "shop_a")
    expect(SmsWebhooks.verify([secret], key)).toEqual(Option.some("shop_a"))
    // Rotation: the old secret still verifies while it is listed after the new one.
    expect(SmsWebhooks.verify([Redacted.make("new-secret"), secret], key)).toEqual(Option.some("shop_a"))
    expect(SmsWebhooks.verify([Redacted.make("another-secret")], key)).toEqual(Option.none())
    // Another shop's id with this shop's MAC, a changed MAC, and junk.
    const [, mac] = key.split(".")
    const other = `${Buffer.from("shop_b").toString("base64url")}.${mac}`
    expect(SmsWebhooks.verify([secret], other)).toEqual(Option.none())
    expect(SmsWebhooks.verify([secret], key.slice(0, -1) + (key.endsWith("A") ? "B" : "A"))).toEqual(Option.none())
    for (const junk of ["", ".", "abc", `${key}.x`, key.replace(".", "")]) {
      expect(SmsWebhooks.verify([secret], junk)).toEqual(Option.none())
    }
  })
})

const [ford] = SANDBOX_FIXTURES.vehicles

// The memory SMS of the other runtime tests, plus its repair-order webhooks: a repair order can be
// closed or deleted, `decode` reads `{ "id", "action" }`, and `subscribe` records the URL.
const smsWithEvents = () => {
  const roA: ShopSystem.RepairOrder = { id: "ro_a", number: "1042", vehicle: { vin: ford!.vin } }
  const roB: ShopSystem.RepairOrder = { id: "ro_b", number: "1043", vehicle: { vin: ford!.vin } }
  const state = { closed: new Set<string>(), deleted: new Set<string>(), unavailable: false }
  const subscribed: Array<string> = []
  const memory = makeMemorySms([roA, roB])
  const layer = Layer.effect(
    ShopSystem.ShopSystem,
    Effect.map(ShopSystem.ShopSystem, (inner): ShopSystem.Operations => ({
      ...inner,
      loadRepairOrder: (ref) => {
        if (state.unavailable) {
          return Effect.fail(
            new ShopSystem.ShopSystemError({
              operation: "loadRepairOrder",
              reason: "SMS answered 503",
              retryable: true
            })
          )
        }
        if (state.deleted.has(ref.repairOrderId)) return Effect.fail(new ShopSystem.RepairOrderNotFound(ref))
        return Effect.map(inner.loadRepairOrder(ref), (ro) => ({ ...ro, closed: state.closed.has(ro.id) }))
      },
      repairOrderEvents: {
        decode: ({ body }) => {
          try {
            const parsed = JSON.parse(body) as { id?: unknown; action?: unknown }
            if (typeof parsed.id !== "string") throw new Error("no id")
            const action = parsed.action === "deleted" ? "deleted" : "updated"
            return Effect.succeed([{ repairOrderId: parsed.id, action }])
          } catch {
            return Effect.fail(
              new ShopSystem.ShopSystemError({ operation: "decode", reason: "not an event", retryable: false })
            )
          }
        },
        subscribe: ({ url }) =>
          Effect.sync(() => {
            if (!subscribed.includes(url)) subscribed.push(url)
          })
      }
    }))
  ).pipe(Layer.provide(memory.layer))
  return { layer, state, subscribed, read: memory.read }
}

const post = (url: string, body: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } })
    return { status: response.status, text: await response.text() }
  })

const runtimeOn = (storage: TestStorage, secrets: ReadonlyArray<Redacted.Redacted<string>>) =>
  Effect.gen(function*() {
    const sms = smsWithEvents()
    return { ...yield* servedRuntime(storage, sms.layer, { smsWebhookSecrets: secrets }), sms }
  })

const stateOf = (runtime: ConnectorRuntime.Runtime, repairOrderId: string) =>
  Effect.map(
    runtime.repairOrderStates.get({ shopId: "shop_a", repairOrderId }),
    Option.map((recorded) => recorded.state)
  )

for (const storage of ["memory", "sqlite", "postgres"] as const) {
  describe(`SMS repair-order webhooks (${storage})`, () => {
    it.scoped("a closed repair order launches no catalog; an order placed before the close is kept, not written", () =>
      Effect.gen(function*() {
        const { publicBaseUrl, runtime, sandbox, sms } = yield* runtimeOn(storage, [secret])
        const url = yield* runtime.subscribeRepairOrderEvents("shop_a")
        expect(url.startsWith(`${publicBaseUrl}/shoplink/sms-webhooks/`)).toBe(true)
        expect(sms.subscribed).toEqual([url])
        // Idempotent: the same URL again.
        expect(yield* runtime.subscribeRepairOrderEvents("shop_a")).toBe(url)
        expect(runtime.redactPath(new URL(url).pathname)).toBe("/shoplink/sms-webhooks/:key")

        // Open: the catalog opens, and the session stays open in the browser.
        const launched = yield* runtime.launch({ shopId: "shop_a", repairOrderId: "ro_a" })
        const token = new URL(Redacted.value(launched.url)).searchParams.get("token")!

        // A forged "deleted" for an open repair order: the runtime reads it back and records it open.
        expect((yield* post(url, JSON.stringify({ id: "ro_a", action: "deleted" }))).status).toBe(204)
        expect(yield* stateOf(runtime, "ro_a")).toEqual(Option.some("open"))

        // The shop closes it in the SMS, which says so: recorded closed, and no launch any more.
        sms.state.closed.add("ro_a")
        expect((yield* post(url, JSON.stringify({ id: "ro_a", action: "updated" }))).status).toBe(204)
        expect(yield* stateOf(runtime, "ro_a")).toEqual(Option.some("closed"))
        const refused = yield* Effect.flip(runtime.launch({ shopId: "shop_a", repairOrderId: "ro_a" }))
        expect(refused).toBeInstanceOf(PunchoutLauncher.RepairOrderClosed)
        expect(refused.message).toBe("repair order 1042 is closed in the shop system: parts cannot be ordered for it")

        // The open catalog session submits an order anyway: the distributor has it, so the runtime
        // keeps its lines in the ledger; nothing is written onto the closed repair order.
        yield* sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 2 })
        const pressed = yield* sandbox.admin.driver.press(token, "exportAndSubmit")
        yield* sandbox.admin.awaitDeliveries(1)
        expect(yield* runtime.drain).toMatchObject({ applied: 1, dead: 0 })
        expect(sms.read.lines("ro_a")).toEqual([])
        const kept = yield* runtime.parts.list({ shopId: "shop_a", repairOrderId: "ro_a" })
        expect(kept.map((l) => [l.kind, l.orderID, l.quantity])).toEqual([["order", pressed.orderID, 2]])

        // Another repair order of the shop, still open, takes its parts as before.
        const other = yield* runtime.launch({ shopId: "shop_a", repairOrderId: "ro_b" })
        const otherToken = new URL(Redacted.value(other.url)).searchParams.get("token")!
        yield* sandbox.admin.driver.addToCart(otherToken, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 })
        yield* sandbox.admin.driver.press(otherToken, "exportAndSubmit")
        yield* sandbox.admin.awaitDeliveries(2)
        expect(yield* runtime.drain).toMatchObject({ applied: 1, dead: 0 })
        expect(sms.read.lines("ro_b")).toHaveLength(1)
      }))

    it.scoped("deleted, not this shop's, wrong keys, bad bodies and an SMS that cannot answer", () =>
      Effect.gen(function*() {
        const { publicBaseUrl, runtime, sms } = yield* runtimeOn(storage, [secret])
        const url = yield* runtime.smsWebhookUrl("shop_a")

        // Deleted in the SMS: recorded as deleted.
        sms.state.deleted.add("ro_b")
        expect((yield* post(url, JSON.stringify({ id: "ro_b", action: "deleted" }))).status).toBe(204)
        expect(yield* stateOf(runtime, "ro_b")).toEqual(Option.some("deleted"))
        // A repair order this shop's SMS does not know, announced as updated (another tenant's):
        // nothing recorded.
        expect((yield* post(url, JSON.stringify({ id: "ro_elsewhere", action: "updated" }))).status).toBe(204)
        expect(yield* stateOf(runtime, "ro_elsewhere")).toEqual(Option.none())

        // Keys: another secret's, another shop's, none: 404 with an empty body, nothing read.
        const wrong = `${publicBaseUrl}/shoplink/sms-webhooks/${SmsWebhooks.keyFor(Redacted.make("x"), "shop_a")}`
        for (const target of [wrong, `${publicBaseUrl}/shoplink/sms-webhooks/c2hvcF9h.abc`]) {
          const answer = yield* post(target, JSON.stringify({ id: "ro_a", action: "updated" }))
          expect(answer).toEqual({ status: 404, text: "" })
        }
        expect(yield* stateOf(runtime, "ro_a")).toEqual(Option.none())

        // A body that is not the SMS's: 400, one line.
        const bad = yield* post(url, "<xml/>")
        expect(bad.status).toBe(400)
        expect(JSON.parse(bad.text)).toEqual({ error: "the body is not a repair-order webhook of this SMS" })

        // The SMS cannot answer the read-back: 503, so it may deliver again; nothing recorded.
        sms.state.unavailable = true
        const busy = yield* post(url, JSON.stringify({ id: "ro_a", action: "updated" }))
        expect(busy.status).toBe(503)
        expect(yield* stateOf(runtime, "ro_a")).toEqual(Option.none())
      }))
  })
}

describe("SMS repair-order webhooks, off", () => {
  it.scoped("without smsWebhookSecrets: no URL, and the route answers 404", () =>
    Effect.gen(function*() {
      const { publicBaseUrl, runtime } = yield* runtimeOn("memory", [])
      const disabled = yield* Effect.flip(runtime.smsWebhookUrl("shop_a"))
      expect(disabled).toBeInstanceOf(SmsWebhooks.SmsWebhooksDisabled)
      expect(disabled.message).toBe("SMS webhooks are off: no smsWebhookSecrets configured")
      const key = SmsWebhooks.keyFor(secret, "shop_a")
      expect((yield* post(`${publicBaseUrl}/shoplink/sms-webhooks/${key}`, "{}")).status).toBe(404)
    }))
})
