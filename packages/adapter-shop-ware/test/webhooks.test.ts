// The fake Shop-Ware's webhooks: `/api/v1/webhooks` per partner (list, create, get, update,
// delete), and the deliveries its test controls post (`addRepairOrder`, `setState`,
// `deleteRepairOrder`) to the subscriptions of the partners authorized for the repair order's
// tenant; `settle()` waits for them, and an unreachable receiver is a failed delivery, not a crash.
import { afterEach, describe, expect, it } from "@effect/vitest"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { FAKE_SHOP_WARE_FIXTURES, type FakeShopWare, startFakeShopWareServer } from "../src/testing.js"

const partner = FAKE_SHOP_WARE_FIXTURES.partner
const other = { partnerId: 13, secret: "other-secret", tenants: [{ tenantId: 2, writable: true }] }

interface Received {
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const receiver = async (status = 204) => {
  const received: Array<Received> = []
  const server = Http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
      response.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received }
}

const start = async () => {
  const fake = await startFakeShopWareServer({ partners: [partner, other] })
  cleanups.push(fake.close)
  return fake
}

const call = async (
  fake: FakeShopWare,
  method: string,
  path: string,
  body?: unknown,
  who: { readonly partnerId: number; readonly secret: string } = partner
) => {
  const response = await fetch(`${fake.url}${path}`, {
    method,
    headers: {
      "x-api-partner-id": String(who.partnerId),
      "x-api-secret": who.secret,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json() as unknown }
}

describe("FakeShopWare webhooks", () => {
  it("lists, creates, reads, updates and deletes a partner's webhooks", async () => {
    const fake = await start()
    expect(await call(fake, "GET", "/api/v1/webhooks")).toEqual({ status: 200, body: [] })
    const created = await call(fake, "POST", "/api/v1/webhooks", {
      url: "https://example.com/hooks",
      events: ["repair_order.updated"]
    })
    expect(created).toEqual({
      status: 201,
      body: { id: 1, url: "https://example.com/hooks", events: ["repair_order.updated"], format: null }
    })
    expect((await call(fake, "GET", "/api/v1/webhooks/1")).body).toEqual(created.body)
    const updated = await call(fake, "PUT", "/api/v1/webhooks/1", { events: ["repair_order.deleted"] })
    expect(updated.body).toMatchObject({ id: 1, url: "https://example.com/hooks", events: ["repair_order.deleted"] })
    expect(fake.webhooks()).toEqual([{
      id: 1,
      partnerId: 12,
      url: "https://example.com/hooks",
      events: ["repair_order.deleted"],
      format: null
    }])
    // Another partner sees none of them.
    expect((await call(fake, "GET", "/api/v1/webhooks", undefined, other)).body).toEqual([])
    expect((await call(fake, "GET", "/api/v1/webhooks/1", undefined, other)).status).toBe(404)
    expect(await call(fake, "DELETE", "/api/v1/webhooks/1")).toEqual({ status: 200, body: {} })
    expect((await call(fake, "GET", "/api/v1/webhooks/1")).status).toBe(404)
    expect(fake.webhooks()).toEqual([])
  })

  it("refuses a bad subscription and wrong credentials", async () => {
    const fake = await start()
    const bad = [
      { events: ["repair_order.updated"] },
      { url: "ftp://example.com", events: ["repair_order.updated"] },
      { url: "https://example.com", events: [] },
      { url: "https://example.com", events: ["updated"] },
      { url: "https://example.com", events: ["repair_order.updated"], format: "xml" }
    ]
    for (const body of bad) expect((await call(fake, "POST", "/api/v1/webhooks", body)).status).toBe(422)
    const wrong = await call(fake, "GET", "/api/v1/webhooks", undefined, { partnerId: 12, secret: "nope" })
    expect(wrong.status).toBe(401)
    expect(fake.webhooks()).toEqual([])
  })

  it("posts repair-order events to the subscribed webhooks of the tenant's partners", async () => {
    const fake = await start()
    const hooks = await receiver()
    const otherHooks = await receiver()
    await call(fake, "POST", "/api/v1/webhooks", {
      url: hooks.url,
      events: ["repair_order.created", "repair_order.updated", "repair_order.deleted"]
    })
    await call(fake, "POST", "/api/v1/webhooks", { url: otherHooks.url, events: ["repair_order.updated"] }, other)

    fake.setState(1042, "invoice")
    const added = fake.addRepairOrder({ tenantId: 1, shopId: 1, number: 1050 })
    fake.deleteRepairOrder(1043)
    fake.setState(2001, "estimate") // tenant 2: partner 12 (read-only there) and partner 13
    await fake.settle()

    const bodies = hooks.received.map((r) => JSON.parse(r.body) as unknown)
    expect(bodies).toEqual(expect.arrayContaining([
      { event: "repair_order.updated", object_type: "repair_order", action: "updated", id: 1042 },
      { event: "repair_order.created", object_type: "repair_order", action: "created", id: added },
      { event: "repair_order.deleted", object_type: "repair_order", action: "deleted", id: 1043 },
      { event: "repair_order.updated", object_type: "repair_order", action: "updated", id: 2001 }
    ]))
    expect(bodies).toHaveLength(4)
    expect(hooks.received.every((r) => r.headers["content-type"] === "application/json")).toBe(true)
    expect(otherHooks.received.map((r) => JSON.parse(r.body) as unknown)).toEqual([
      { event: "repair_order.updated", object_type: "repair_order", action: "updated", id: 2001 }
    ])
    expect(fake.deliveries().map((d) => [d.url, d.status, d.error])).toEqual([
      [hooks.url, 204, undefined],
      [hooks.url, 204, undefined],
      [hooks.url, 204, undefined],
      [hooks.url, 204, undefined],
      [otherHooks.url, 204, undefined]
    ])

    expect((await call(fake, "GET", "/api/v1/tenants/1/repair_orders/1043")).status).toBe(404)
    const list = await call(fake, "GET", "/api/v1/tenants/1/repair_orders")
    expect((list.body as { results: ReadonlyArray<{ id: number }> }).results.map((ro) => ro.id)).toEqual([1042, added])
    expect((await call(fake, "GET", "/api/v1/tenants/1/repair_orders/1042")).body).toMatchObject({ state: "invoice" })
  })

  it("records a receiver's error status and an unreachable receiver as failed deliveries", async () => {
    const fake = await start()
    const failing = await receiver(500)
    const closed = await receiver()
    await cleanups.pop()!() // the closed receiver's port answers nothing now
    await call(fake, "POST", "/api/v1/webhooks", { url: failing.url, events: ["repair_order.updated"] })
    await call(fake, "POST", "/api/v1/webhooks", { url: closed.url, events: ["repair_order.updated"] })
    fake.setState(1042, "estimate")
    await fake.settle()
    const [first, second] = fake.deliveries()
    expect(first).toMatchObject({ webhookId: 1, url: failing.url, status: 500, error: undefined })
    expect(second).toMatchObject({ webhookId: 2, url: closed.url, status: undefined })
    expect(second?.error).toMatch(/ECONNREFUSED|fetch failed/)
    // The fake still answers.
    expect((await call(fake, "GET", "/api/v1/webhooks")).status).toBe(200)
  })

  it("posts an arbitrary body with postWebhook", async () => {
    const fake = await start()
    const hooks = await receiver(200)
    const forged = await fake.postWebhook(hooks.url, "{\"event\":\"repair_order.updated\",\"id\":\"x\"}")
    expect(forged).toMatchObject({ webhookId: undefined, status: 200 })
    expect(hooks.received[0]?.body).toBe("{\"event\":\"repair_order.updated\",\"id\":\"x\"}")
    const object = await fake.postWebhook(hooks.url, { id: 1 })
    expect(object.status).toBe(200)
    expect(hooks.received[1]?.body).toBe("{\"id\":1}")
    expect(fake.deliveries()).toHaveLength(2)
  })
})
