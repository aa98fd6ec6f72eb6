// An adapter with fewer capabilities still runs every check: the missing ones assert that it
// really lacks them, and the report lists them.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { runConnectorConformance } from "../src/index.js"
import { makeSuite } from "../src/internal/checks.js"
import { ReferenceConnector, ReferenceHarness } from "../src/reference.js"
import { harnessWithout, narrowedReference } from "./support/broken.js"

const quoteOnly = narrowedReference(["readRepairOrder", "writeQuotedParts"])

const report = runConnectorConformance({
  connector: quoteOnly,
  sms: harnessWithout("baseVehicleId"),
  vehicleIdentifiers: ["vin", "licensePlate"]
})

describe("the report of a narrowed adapter", () => {
  it("lists exactly the checks its missing capabilities and identifiers turn off", () => {
    const off = report.checks.filter((c) => c.status !== "checked").map((c) => c.name)
    expect(off).toEqual([
      "launch: the catalog opens for the vehicle by baseVehicleID",
      "list: the shop's open repair orders, newest first, at most limit; another shop sees none of them",
      "repair-order events: a delivery decodes to the repair order it names, junk fails in one line, subscribing twice is harmless",
      "export and submit: ordered lines on the repair order",
      "export and submit: the distributor orderID on the repair order",
      "callback: the page after an export links back to the repair order"
    ])
    expect(report.checks.filter((c) => c.status === "absent")).toHaveLength(6)
    // Writes are still certified, through quotes.
    expect(report.checks.find((c) => c.name.startsWith("restart:"))?.status).toBe("checked")
  })

  it("marks capabilities left out by options as excluded, not absent", () => {
    const { report } = makeSuite({
      connector: ReferenceConnector.connector,
      sms: ReferenceHarness.harness,
      capabilities: ["readRepairOrder", "writeQuotedParts", "writeOrderedParts", "recordPurchaseOrder"]
    })
    expect(report.checks.filter((c) => c.status !== "checked").map((c) => [c.status, c.requires])).toEqual([
      ["excluded", ["listRepairOrders"]],
      ["excluded", ["receiveRepairOrderEvents"]],
      ["excluded", ["linkToRepairOrder"]]
    ])
  })

  it.scoped("runs excluded checks as assertions that the connector declares what was left out", () =>
    Effect.gen(function*() {
      const suite = makeSuite({
        connector: ReferenceConnector.connector,
        sms: ReferenceHarness.harness,
        capabilities: ["readRepairOrder"]
      })
      const excluded = suite.checks.filter((c) => c.status === "excluded")
      expect(excluded.map((c) => c.name.split(":")[0])).toEqual([
        "list",
        "repair-order events",
        "export",
        "export and submit",
        "export and submit",
        "callback",
        "webhooks",
        "webhooks",
        "SMS outage",
        "SMS refusal",
        "restart"
      ])
      const env = yield* suite.environment
      for (const check of excluded) yield* check.run(env)
      // The same checks for a connector that does not declare those capabilities are "absent" instead.
      const narrowed = makeSuite({
        connector: quoteOnly,
        sms: ReferenceHarness.harness,
        capabilities: ["readRepairOrder"]
      })
      expect(narrowed.checks.filter((c) => c.status === "excluded").map((c) => c.requires)).toEqual([
        ["writeQuotedParts"],
        ["writeOrderedParts or writeQuotedParts"],
        ["writeOrderedParts or writeQuotedParts"],
        ["writeOrderedParts or writeQuotedParts"],
        ["writeOrderedParts or writeQuotedParts"],
        ["writeOrderedParts or writeQuotedParts"]
      ])
    }))
})
