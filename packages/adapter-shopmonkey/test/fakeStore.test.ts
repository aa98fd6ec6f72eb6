// The fake's vehicles are the sandbox's fixture vehicles (so a launch from the fake finds them in
// the catalog); the fake keeps its VINs as literals so the published fake needs no @shoplink/protocol.
import { describe, expect, it } from "@effect/vitest"
import { SANDBOX_FIXTURES } from "@shoplink/sandbox"
import { FAKE_SHOPMONKEY_FIXTURES, FAKE_SHOPMONKEY_SECOND_COMPANY } from "../src/testing.js"

describe("the fake's seed vehicles", () => {
  it("are the sandbox's fixture vehicles, VINs with their check digit", () => {
    const orders = [
      ...Object.values(FAKE_SHOPMONKEY_FIXTURES.orders),
      ...Object.values(FAKE_SHOPMONKEY_SECOND_COMPANY.orders)
    ]
    const vins = orders.flatMap((o) => (o.vehicle !== undefined && "vin" in o.vehicle ? [o.vehicle.vin] : []))
    expect(vins).toHaveLength(3)
    for (const vin of vins) expect(SANDBOX_FIXTURES.vehicles.map((v) => v.vin), vin).toContain(vin)
  })
})
