import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Vin } from "@shoplink/protocol"
import { SANDBOX_CREDENTIALS, SANDBOX_FIXTURES, withSandbox } from "../src/index.js"
import { makeCatalog } from "../src/internal/catalog.js"
import { omsHeaders, postJson, session } from "./helpers.js"

describe("seeded catalog", () => {
  it("meets the sizes the sandbox promises", () => {
    const catalog = makeCatalog(1)
    expect(catalog.products.length).toBeGreaterThanOrEqual(300)
    expect(catalog.brands.length).toBeGreaterThanOrEqual(12)
    expect(
      catalog.brands.every((b) => /^[A-Z0-9]{2,3}$/.test(b.code) && b.logo !== "" && b.warrantyHtml.includes("<p>"))
    ).toBe(true)
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

// What a parts counter expects, written down independently of the generator: specialist brands
// sell only their line, every part type sells within a plausible band, and cores only come with
// parts sold on exchange.
const SPECIALIST_CATEGORIES: Record<string, ReadonlyArray<string>> = {
  WIX: ["FLT"],
  FRA: ["FLT"],
  NGK: ["IGN", "EMS"],
  CHA: ["IGN", "ACC"],
  MOO: ["STE", "DRV"],
  MON: ["SUS"],
  KYB: ["SUS"],
  GAT: ["BLT", "COL"],
  DAY: ["BLT"]
}
const PLAUSIBLE_PRICE: Record<string, readonly [number, number]> = {
  "Oil Filter": [3, 25],
  "Engine Air Filter": [8, 50],
  "Cabin Air Filter": [8, 50],
  "Fuel Filter": [8, 80],
  "Disc Brake Pad Set": [20, 120],
  "Disc Brake Rotor": [25, 200],
  "Disc Brake Caliper": [35, 250],
  "Spark Plug": [2, 25],
  "Ignition Coil": [25, 150],
  "Oxygen Sensor": [25, 200],
  "Serpentine Belt": [15, 80],
  "Timing Belt": [20, 120],
  "Engine Water Pump": [30, 250],
  "Engine Coolant Thermostat": [8, 60],
  "Radiator": [90, 500],
  "Shock Absorber": [25, 150],
  "Suspension Strut Assembly": [70, 350],
  "Suspension Ball Joint": [15, 120],
  "Steering Tie Rod End": [12, 90],
  "Wheel Bearing and Hub Assembly": [50, 300],
  "Alternator": [120, 500],
  "Starter Motor": [90, 450],
  "Vehicle Battery": [90, 300],
  "Windshield Wiper Blade": [5, 45]
}
const WITH_CORE = new Set(["Alternator", "Starter Motor", "Disc Brake Caliper", "Vehicle Battery"])
const SHORT_NAME: Record<string, string> = {
  WIX: "WIX",
  ACD: "ACDelco",
  BO: "Bosch",
  MON: "Monroe",
  MC: "Motorcraft",
  NGK: "NGK",
  DEN: "Denso",
  GAT: "Gates",
  MOO: "Moog",
  DAY: "Dayco",
  CHA: "Champion",
  FRA: "FRAM",
  KYB: "KYB",
  DL: "Duralast"
}

describe("catalog realism", () => {
  it.each([1, 2, 7, 42])("seed %i: brands sell only their lines, at plausible prices, weights and cores", (seed) => {
    const catalog = makeCatalog(seed)
    const termName = (id: number) => catalog.terminologies.find((t) => t.id === id)!.name
    const problems: Array<string> = []
    for (const p of catalog.products) {
      const t = termName(p.terminologyId)
      const allowed = SPECIALIST_CATEGORIES[p.brandCode]
      if (allowed !== undefined && !allowed.includes(p.categoryID)) {
        problems.push(`${p.brandCode} ${p.productID} is a ${t}`)
      }
      const [lo, hi] = PLAUSIBLE_PRICE[t]!
      if (p.price !== undefined && (p.price < lo || p.price > hi)) problems.push(`${p.brandCode} ${t} at $${p.price}`)
      if (!WITH_CORE.has(t) && p.corePrice !== 0) problems.push(`${p.brandCode} ${t} with a $${p.corePrice} core`)
      if (p.quality === "Remanufactured" && !WITH_CORE.has(t)) problems.push(`a remanufactured ${t}`)
      if (t === "Spark Plug" && p.weight > 1) problems.push(`a ${p.weight} lb spark plug`)
    }
    expect(problems).toEqual([])
    // Every part type is still sold, by more than one brand where the catalog has a choice.
    expect(new Set(catalog.products.map((p) => p.terminologyId)).size).toBe(catalog.terminologies.length)
  })

  it("names products \"Brand PartType\" on the wire, never the brand's tagline twice", () =>
    Effect.runPromise(withSandbox((sandbox) =>
      Effect.gen(function*() {
        const s = yield* session(sandbox)
        const partType = new Map(makeCatalog(1).terminologies.map((t) => [t.id, t.name]))
        for (const term of ["spark plug", "oil filter", "ball joint", "alternator", "wiper blade"]) {
          const reply = yield* postJson(s.command("GetProductQuotes"), { productID: term, quantity: "1" })
          const quotes: ReadonlyArray<{ brandID: string; productDesc: string; acaPartTerminologyID: number }> =
            reply.body.quotes
          expect(quotes.length).toBeGreaterThan(0)
          for (const quote of quotes) {
            expect(quote.productDesc).toBe(`${SHORT_NAME[quote.brandID]} ${partType.get(quote.acaPartTerminologyID)}`)
          }
        }
        // The brand's full name stays its Order Management brandDescription.
        const price = yield* postJson(
          `${
            sandbox.omsBaseUrl("US_QUA")
          }/priceAndAvailablity_v2?APIToken=${SANDBOX_CREDENTIALS.customers.us.apiToken}`,
          {
            customerAccountNo: SANDBOX_CREDENTIALS.customers.us.accountNo,
            items: [{ productID: "51515", brandCode: "WIX", quantity: 1 }]
          },
          omsHeaders()
        )
        expect(price.body.items[0].brand.brandDescription).toBe("WIX Filters")
      })
    )))
})
