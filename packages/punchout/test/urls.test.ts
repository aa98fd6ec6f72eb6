import { describe, expect, it } from "@effect/vitest"
import { Either, Redacted } from "effect"
import { ShowUrls } from "../src/index.js"
import { SESSION_TOKEN, sessionFor } from "./support/faultServer.js"

const session = sessionFor("https://dist.example")

const url = (result: Either.Either<Redacted.Redacted<string>, unknown>) => {
  if (Either.isLeft(result)) throw new Error(`expected a URL, got ${String(result.left)}`)
  return new URL(Redacted.value(result.right))
}
const problem = (result: Either.Either<unknown, { readonly message: string; readonly _tag: string }>) => {
  if (Either.isRight(result)) throw new Error("expected InvalidInput")
  expect(result.left._tag).toBe("InvalidInput")
  return result.left.message
}

describe("showCatalogUrl", () => {
  it("fills the template with ShowCatalog, the token and the current parameter names", () => {
    const built = url(ShowUrls.showCatalogUrl(session, {
      searchTerm: "brake pads",
      licensePlate: "8ABC123",
      licensePlateState: "CA",
      referenceID: "RO-1042"
    }))
    expect(built.origin + built.pathname).toBe("https://dist.example/punchout/v1/ShowCatalog")
    expect(Object.fromEntries(built.searchParams)).toEqual({
      token: SESSION_TOKEN,
      searchTerm: "brake pads",
      licensePlate: "8ABC123",
      licensePlateState: "CA",
      referenceID: "RO-1042"
    })
  })

  it("accepts a VIN (upper-cased) or a base vehicle ID, and no parameters at all", () => {
    expect(
      url(ShowUrls.showCatalogUrl(session, { searchTerm: "oil filter", vin: "1m8gdm9axkp042788" })).searchParams.get(
        "vin"
      )
    )
      .toBe("1M8GDM9AXKP042788")
    expect(
      url(ShowUrls.showCatalogUrl(session, { searchTerm: "oil filter", baseVehicleID: "5678" })).searchParams.get(
        "baseVehicleID"
      )
    )
      .toBe("5678")
    expect([...url(ShowUrls.showCatalogUrl(session)).searchParams.keys()]).toEqual(["token"])
  })

  it("enforces the spec's rules", () => {
    expect(problem(ShowUrls.showCatalogUrl(session, { searchTerm: "brake pads" }))).toContain(
      "searchTerm needs a vehicle"
    )
    expect(problem(ShowUrls.showCatalogUrl(session, { licensePlate: "8ABC123" })))
      .toContain("licensePlate must be accompanied by licensePlateState")
    expect(problem(ShowUrls.showCatalogUrl(session, { vin: "1M8GDM9AXKP04278" }))).toMatch(/VIN|vin/)
    expect(problem(ShowUrls.showCatalogUrl(session, { vin: "IM8GDM9AXKP042788" }))).toMatch(/VIN|vin/)
    expect(problem(ShowUrls.showCatalogUrl(session, { baseVehicleID: "abc" }))).toContain("baseVehicleID")
  })

  it("refuses the earlier parameter names and unknown ones", () => {
    const legacy = { licensePlate: "8ABC123", licenseState: "CA" } as unknown as ShowUrls.ShowCatalogInput
    expect(problem(ShowUrls.showCatalogUrl(session, legacy))).toContain("licenseState was renamed licensePlateState")
    const legacyId = { baseVehicleId: "5678" } as unknown as ShowUrls.ShowCatalogInput
    expect(problem(ShowUrls.showCatalogUrl(session, legacyId))).toContain("baseVehicleId was renamed baseVehicleID")
    const unknown = { make: "Ford" } as unknown as ShowUrls.ShowCatalogInput
    expect(problem(ShowUrls.showCatalogUrl(session, unknown))).toContain("make")
  })

  it("never prints the token", () => {
    const result = ShowUrls.showCatalogUrl(session, { baseVehicleID: "5678" })
    expect(Either.isRight(result)).toBe(true)
    if (Either.isRight(result)) {
      expect(`${String(result.right)} ${JSON.stringify(result.right)}`).not.toContain(SESSION_TOKEN)
    }
    const failed = ShowUrls.showCatalogUrl(session, { searchTerm: "x" })
    expect(JSON.stringify(failed) + String(Either.isLeft(failed) && failed.left.message)).not.toContain(SESSION_TOKEN)
  })
})

describe("showOrderUrl", () => {
  it("fills the template with ShowOrder, the token, orderId and referenceID", () => {
    const built = url(ShowUrls.showOrderUrl(session, { orderId: "10423", referenceID: "RO-1" }))
    expect(built.pathname).toBe("/punchout/v1/ShowOrder")
    expect(Object.fromEntries(built.searchParams)).toEqual({
      token: SESSION_TOKEN,
      orderId: "10423",
      referenceID: "RO-1"
    })
  })

  it("refuses an empty order number", () => {
    expect(problem(ShowUrls.showOrderUrl(session, { orderId: "" }))).toContain("orderId must not be empty")
  })
})
