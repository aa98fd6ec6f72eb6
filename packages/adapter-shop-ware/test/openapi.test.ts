// The fake Shop-Ware is built from Shop-Ware's OpenAPI: the generated table is what the generator
// makes of the vendored subset today; every success answer of every served operation validates
// against the document's response schema (each listed property present, no other, types and
// nullability right); request bodies are checked against the request schemas; and the answers
// follow the document, so a property renamed there is renamed in the fake.
import { afterEach, describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { generate, SERVED } from "../scripts/generate-openapi.mjs"
import { checkRequest, type Schema, shape, validate } from "../src/internal/openapi.js"
import { OPERATIONS, SOURCE } from "../src/internal/openapi.generated.js"
import { FAKE_SHOP_WARE_FIXTURES, type FakeShopWare, startFakeShopWareServer } from "../src/testing.js"

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8")
const partner = FAKE_SHOP_WARE_FIXTURES.partner

const fakes: Array<FakeShopWare> = []
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close()
})

const call = async (fake: FakeShopWare, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${fake.url}${path}`, {
    method,
    headers: {
      "x-api-partner-id": String(partner.partnerId),
      "x-api-secret": partner.secret,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json() as unknown }
}

describe("the fake Shop-Ware's OpenAPI", () => {
  it("the generated table is up to date with the vendored subset", () => {
    const subset = read("../openapi/shop-ware-v1.subset.yml")
    expect(generate(subset)).toBe(read("../src/internal/openapi.generated.ts"))
    expect(OPERATIONS.map((o) => o.key)).toEqual([...SERVED])
    expect(subset).toContain(`commit: ${SOURCE.commit}`)
    // The vendored subset names its origin and each path item's line in the original.
    for (const operation of OPERATIONS) {
      expect(subset).toContain(`  # ${operation.source}\n  "${operation.path}":`)
    }
  })

  it("every success answer of every served operation validates against the document", async () => {
    const fake = await startFakeShopWareServer()
    fakes.push(fake)
    const T = "/api/v1/tenants/1"
    const answers: Array<readonly [string, { readonly status: number; readonly body: unknown }]> = []
    const ask = async (key: string, path: string, body?: unknown) => {
      const answer = await call(fake, key.split(" ")[0]!, path, body)
      answers.push([key, answer])
      return answer.body as Record<string, unknown>
    }
    fake.addRepairOrder({ tenantId: 1, shopId: 1, number: 1050 }) // no customer, no vehicle
    const roId = 1042
    await ask(
      "GET /api/v1/partners/{partner_id}/authorizations",
      `/api/v1/partners/${partner.partnerId}/authorizations`
    )
    await ask("GET /api/v1/tenants/{id}", "/api/v1/tenants/1")
    const list = await ask("GET /api/v1/tenants/{tenant_id}/repair_orders", `${T}/repair_orders?per_page=100`)
    const tag = await ask("POST /api/v1/tenants/{tenant_id}/integrator_tags", `${T}/integrator_tags`, {
      taggable_type: "RepairOrder",
      taggable_id: roId,
      name: "shoplink_order_1",
      value: "3"
    })
    await ask("PUT /api/v1/tenants/{tenant_id}/integrator_tags/{id}", `${T}/integrator_tags/${String(tag["id"])}`, {
      value: "4"
    })
    await ask("GET /api/v1/tenants/{tenant_id}/integrator_tags", `${T}/integrator_tags`)
    const ro = await ask(
      "GET /api/v1/tenants/{tenant_id}/repair_orders/{id}",
      `${T}/repair_orders/${roId}?associations[]=integrator_tags`
    )
    for (const row of (list["results"] as ReadonlyArray<Record<string, unknown>>)) {
      await ask("GET /api/v1/tenants/{tenant_id}/repair_orders/{id}", `${T}/repair_orders/${String(row["id"])}`)
      await ask("GET /api/v1/tenants/{tenant_id}/vehicles/{id}", `${T}/vehicles/${String(row["vehicle_id"])}`)
      await ask("GET /api/v1/tenants/{tenant_id}/customers/{id}", `${T}/customers/${String(row["customer_id"])}`)
    }
    const note = await ask("POST /api/v1/tenants/{tenant_id}/notes", `${T}/notes`, {
      repair_order_id: roId,
      description: "Parts order 1"
    })
    await ask("PUT /api/v1/tenants/{tenant_id}/notes/{id}", `${T}/notes/${String(note["id"])}`, {
      description: "Parts order 1, again"
    })
    await ask("GET /api/v1/tenants/{tenant_id}/notes", `${T}/notes?repair_order_id=${roId}`)
    const hook = await ask("POST /api/v1/webhooks", "/api/v1/webhooks", {
      url: "https://example.com/hooks",
      events: ["repair_order.updated"]
    })
    await ask("GET /api/v1/webhooks", "/api/v1/webhooks")
    await ask("GET /api/v1/webhooks/{id}", `/api/v1/webhooks/${String(hook["id"])}`)
    await ask("PUT /api/v1/webhooks/{id}", `/api/v1/webhooks/${String(hook["id"])}`, { format: "zapier" })
    await ask("DELETE /api/v1/webhooks/{id}", `/api/v1/webhooks/${String(hook["id"])}`)

    expect(new Set(answers.map(([key]) => key))).toEqual(new Set(SERVED))
    for (const [key, answer] of answers) {
      const operation = OPERATIONS.find((o) => o.key === key)!
      expect(answer.status, key).toBe(operation.status)
      expect(validate(operation.response!, answer.body, { exact: true }), key).toEqual([])
    }
    // The repair order's tags come back in the document's shape.
    expect((ro["integrator_tags"] as ReadonlyArray<unknown>)[0]).toMatchObject({ name: "shoplink_order_1", value: "4" })
  })

  it("checks request bodies against the document's request schemas", async () => {
    const fake = await startFakeShopWareServer()
    fakes.push(fake)
    const tags = "/api/v1/tenants/1/integrator_tags"
    const ok = { taggable_type: "RepairOrder", taggable_id: 1042, name: "n", value: "v" }
    expect((await call(fake, "POST", tags, { ...ok, taggable_type: "Invoice" })).body).toEqual({
      error:
        "taggable_type: \"Invoice\" is not one of Appointment, Assignment, CannedJob, Category, Customer, GpException, Inventory, Payment, PaymentTransaction, PurchaseRecord, Recommendation, RepairOrder, Shop, Staff, Status, Vehicle, Vendor"
    })
    expect(await call(fake, "POST", tags, { ...ok, name: "" })).toEqual({
      status: 422,
      body: { error: "name: shorter than 1" }
    })
    expect(await call(fake, "POST", tags, { ...ok, taggable_id: "1042" })).toMatchObject({ status: 422 })
    const { taggable_id: _, ...withoutId } = ok
    expect(await call(fake, "POST", tags, withoutId)).toEqual({
      status: 422,
      body: { error: "taggable_id can't be blank" }
    })
    expect(await call(fake, "POST", "/api/v1/tenants/1/notes", { repair_order_id: 1042 })).toEqual({
      status: 422,
      body: { error: "description can't be blank" }
    })
    expect((await call(fake, "POST", "/api/v1/webhooks", { url: "https://example.com" })).status).toBe(422)
    expect(fake.tags(1042)).toEqual([])
  })

  it("shapes answers from the document: a renamed property is renamed, an unknown one dropped", () => {
    const vehicle = OPERATIONS.find((o) => o.key === "GET /api/v1/tenants/{tenant_id}/vehicles/{id}")!.response!
    const record = { id: 7, vin: "1FTEW1E56KFA12345", plate: null, customer_ids: [3] }
    const shaped = shape(vehicle, record) as Record<string, unknown>
    expect(Object.keys(shaped)).toEqual(Object.keys(vehicle.properties!))
    expect(shaped).toMatchObject({ id: 7, vin: "1FTEW1E56KFA12345", plate: "", integrator_tags: [] })
    expect(shaped).not.toHaveProperty("customer_ids")
    const { vin, ...others } = vehicle.properties!
    const renamed: Schema = { ...vehicle, properties: { ...others, vin_number: vin! } }
    const reshaped = shape(renamed, record) as Record<string, unknown>
    expect(reshaped).not.toHaveProperty("vin")
    expect(reshaped["vin_number"]).toBe("")
    expect(validate(renamed, reshaped, { exact: true })).toEqual([])
    expect(validate(vehicle, reshaped, { exact: true })).toEqual([
      "$.vin: missing",
      "$.vin_number: not in the document"
    ])
    // Nullable properties the fake has no value for are null.
    const tenant = OPERATIONS.find((o) => o.key === "GET /api/v1/partners/{partner_id}/authorizations")!.response!
    expect(shape(tenant, { results: [{ id: 1 }] })).toMatchObject({
      results: [{ id: 1, tenant_id: null, writable: false }]
    })
    expect(checkRequest(OPERATIONS[0]!, "not json")).toEqual({ body: {} })
  })
})
