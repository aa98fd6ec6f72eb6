import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Redacted } from "effect"
import { makeSandboxAdminClient, startSandbox } from "../src/index.js"
import { call, postJson, session } from "./helpers.js"

describe("SandboxAdminClient", () => {
  it.scoped("reads a session's vehicle and an order's state, moves the clock, without matching HTML", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const admin = yield* makeSandboxAdminClient({ url: sandbox.url })
      const s = yield* session(sandbox)
      expect((yield* admin.session({ path: { token: s.token } })).vehicle).toBeNull()
      expect((yield* call(`${s.command("ShowCatalog")}&baseVehicleID=5678&referenceID=RO-9`)).status).toBe(200)
      const seen = yield* admin.session({ path: { token: s.token } })
      expect(seen.vehicle?.identifier).toBe("Base vehicle ID 5678")
      expect(seen.vehicle?.description).toMatch(/^\d{4} \S+/)
      expect(seen.pageReferenceID).toBe("RO-9")
      const created = yield* postJson(s.command("CreateOrder"), { productID: "51515", brandID: "WIX", quantity: "1" })
      const orderID: string = created.body.order.orderID
      expect((yield* admin.order({ path: { orderID } })).state).toBe("cart")
      expect((yield* admin.setOrderState({ path: { orderID }, payload: { state: "processing" } })).state).toBe(
        "processing"
      )
      const missing = yield* Effect.either(admin.order({ path: { orderID: "99999999" } }))
      expect(Either.isLeft(missing) && missing.left._tag).toBe("AdminNotFound")
      const before = yield* admin.clock()
      const after = yield* admin.advanceClock({ payload: { millis: 60_000 } })
      expect(Date.parse(after.now) - Date.parse(before.now)).toBe(60_000)
      const bad = yield* Effect.either(admin.driverPress({ payload: { token: "nope", button: "export" } }))
      expect(Either.isLeft(bad) && bad.left._tag).toBe("AdminBadRequest")
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.scoped("sends the admin token; without it the call fails with AdminUnauthorized", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox({ adminToken: Redacted.make("s3cret") })
      const refused = yield* Effect.either((yield* makeSandboxAdminClient({ url: sandbox.url })).clock())
      expect(Either.isLeft(refused) && refused.left._tag).toBe("AdminUnauthorized")
      const admin = yield* makeSandboxAdminClient({ url: sandbox.url, adminToken: Redacted.make("s3cret") })
      expect((yield* admin.index()).endpoints).toContain("GET sessions/{token}")
    }).pipe(Effect.provide(FetchHttpClient.layer)))
})
