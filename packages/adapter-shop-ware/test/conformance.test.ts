// The conformance suite against the sandbox and the fake Shop-Ware. Shop-Ware declares
// readRepairOrder, listRepairOrders, recordPurchaseOrder, linkToRepairOrder and
// receiveRepairOrderEvents: the write checks
// run as "absent" (nothing written to Shop-Ware's parts), and the fallback checks certify that
// the runtime keeps the quoted and ordered parts itself. Shop-Ware's vehicle holds a VIN and a
// plate without its state, so only the VIN is an identifier the catalog can search by.
import { runConnectorConformance } from "@shoplink/connector-testkit"
import { expect, it } from "@effect/vitest"
import { ShopWareConnector } from "../src/index.js"
import { harness } from "./harness.js"

const report = runConnectorConformance({
  connector: ShopWareConnector.connector,
  sms: harness,
  vehicleIdentifiers: ["vin"]
})

it("the report shows the undeclared capabilities absent and the fallback checked", () => {
  const absent = report.checks.filter((c) => c.status === "absent").flatMap((c) => c.requires)
  expect(new Set(absent)).toEqual(
    new Set([
      "writeQuotedParts",
      "writeOrderedParts",
      "writeOrderedParts or writeQuotedParts",
      "readRepairOrder",
      "licensePlate",
      "baseVehicleID"
    ])
  )
  const fallback = report.checks.filter((c) => c.name.startsWith("fallback:"))
  expect(fallback.map((c) => c.status)).toEqual(["checked", "checked"])
  expect(fallback.every((c) => c.name.includes("kept by the runtime"))).toBe(true)
  expect(report.checks.find((c) => c.requires.includes("recordPurchaseOrder"))?.status).toBe("checked")
})
