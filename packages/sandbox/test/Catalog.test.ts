import { describe, expect, it } from "@effect/vitest"
import { Vin } from "@shoplink/protocol"
import { SANDBOX_FIXTURES } from "../src/index.js"
import { makeCatalog } from "../src/internal/catalog.js"

describe("seeded catalog", () => {
  it("meets the sizes the sandbox promises", () => {
    const catalog = makeCatalog(1)
    expect(catalog.products.length).toBeGreaterThanOrEqual(300)
    expect(catalog.brands.length).toBeGreaterThanOrEqual(12)
    expect(catalog.brands.every((b) => /^[A-Z0-9]{2,3}$/.test(b.code) && b.logo !== "" && b.warrantyHtml.includes("<p>"))).toBe(true)
    expect(new Set(catalog.products.map((p) => p.terminologyId)).size).toBeGreaterThanOrEqual(20)
    expect(catalog.vehicles.length).toBeGreaterThanOrEqual(15)
    for (const country of ["US", "CA"] as const) {
      expect(catalog.warehouses.filter((w) => w.country === country).length).toBeGreaterThanOrEqual(3)
    }
    expect(new Set(catalog.products.map((p) => `${p.brandCode}|${p.productID}`)).size).toBe(catalog.products.length)
  })

  it("gives every vehicle a VIN with a valid check digit, a plate with a state and an ACES base vehicle ID", () => {
    for (const v of SANDBOX_FIXTURES.vehicles) {
      expect(Vin.shapeProblem(v.vin)).toBeUndefined()
      expect(Vin.checkDigit(v.vin)._tag).toBe("Valid")
      expect(v.licensePlateState).toMatch(/^[A-Z]{2}$/)
      expect(v.baseVehicleID).toMatch(/^\d+$/)
    }
  })

  it("is deterministic per seed, and the seed changes it", () => {
    const prices = (seed: number) => makeCatalog(seed).products.map((p) => `${p.productID}:${p.price}`)
    expect(prices(1)).toEqual(prices(1))
    expect(prices(2)).not.toEqual(prices(1))
    // The named fixtures do not depend on the seed.
    expect(makeCatalog(2).products.slice(0, 4).map((p) => p.productID)).toEqual(["51515", "NP1001", "NS2002", "LS3003"])
  })
})
