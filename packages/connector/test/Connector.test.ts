import { describe, expect, it } from "@effect/vitest"
import { Connector, ShopSystem } from "@shoplink/connector"
import { Effect, Layer } from "effect"

const layer = Layer.succeed(ShopSystem.ShopSystem, {
  capabilities: new Set<ShopSystem.Capability>(["readRepairOrder"]),
  loadRepairOrder: ({ repairOrderId }) => Effect.succeed({ id: repairOrderId, number: "1", vehicle: {} }),
  applyQuote: () => Effect.succeed({ added: 0, alreadyPresent: 0 }),
  applyOrder: () => Effect.succeed({ added: 0, alreadyPresent: 0 })
})

describe("defineConnector", () => {
  it("stamps the contract version and freezes the definition", () => {
    const connector = Connector.defineConnector({
      id: "acme-sms",
      name: "Acme SMS",
      capabilities: ["readRepairOrder", "writeQuotedParts"],
      layer
    })
    expect(connector.contractVersion).toBe(Connector.CONTRACT_VERSION)
    expect([...connector.capabilities]).toEqual(["readRepairOrder", "writeQuotedParts"])
    expect(Object.isFrozen(connector)).toBe(true)
  })

  it("refuses a malformed id, an empty name and a connector that cannot read repair orders", () => {
    expect(() => Connector.defineConnector({ id: "Acme SMS", name: "Acme", capabilities: ["readRepairOrder"], layer }))
      .toThrow(
        "kebab-case"
      )
    expect(() => Connector.defineConnector({ id: "acme", name: " ", capabilities: ["readRepairOrder"], layer }))
      .toThrow("name")
    expect(() => Connector.defineConnector({ id: "acme", name: "Acme", capabilities: ["writeQuotedParts"], layer }))
      .toThrow(
        "readRepairOrder"
      )
  })
})
