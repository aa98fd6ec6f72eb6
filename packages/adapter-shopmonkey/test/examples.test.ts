import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { startFakeShopmonkeyServer } from "../src/testing.js"
import { program } from "../examples/fake.js"
import { program as manyShops } from "../examples/manyShops.js"

describe("examples", () => {
  it.scoped("the README fake example loads repair order #1042", () =>
    Effect.gen(function*() {
      const ro = yield* program
      expect(ro.number).toBe("1042")
      expect(ro.customer?.name).toBe("Dana Reyes")
    }))

  it.scoped("the README many-shops example reads each shop's order from its own account", () =>
    Effect.gen(function*() {
      const [first, second] = yield* manyShops
      expect([first.number, first.customer?.name]).toEqual(["1042", "Dana Reyes"])
      expect([second.number, second.customer?.name]).toEqual(["5201", "Riley Chen"])
    }))

  it("the Promise fake serves the public envelope and closes", async () => {
    const fake = await startFakeShopmonkeyServer()
    try {
      const response = await fetch(`${fake.url}/order?limit=2`, { headers: { authorization: `Bearer ${fake.apiKey}` } })
      const body = await response.json() as {
        success: boolean
        data: Array<{ id: string }>
        meta: { hasMore: boolean; total: number }
      }
      expect(body.success).toBe(true)
      expect(body.data.map((o) => o.id)).toEqual(["ord_1042", "ord_1043"])
      expect(body.meta).toEqual({ total: 5, hasMore: true })
      const anonymous = await fetch(`${fake.url}/order`)
      expect(anonymous.status).toBe(401)
      expect(await anonymous.json()).toMatchObject({ success: false })
    } finally {
      await fake.close()
    }
  })
})
