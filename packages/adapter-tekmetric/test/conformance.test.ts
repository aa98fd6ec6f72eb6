// The conformance suite against the sandbox and the fake Tekmetric. Tekmetric declares
// readRepairOrder, recordPurchaseOrder and linkToRepairOrder: the write checks run as "absent"
// (nothing written to Tekmetric), and the fallback checks certify that the runtime keeps the
// quoted and ordered parts itself.
import { runConnectorConformance } from "@shoplink/connector-testkit"
import { expect, it } from "@effect/vitest"
import { TekmetricConnector } from "../src/index.js"
import { harness } from "./harness.js"

const report = runConnectorConformance({
  connector: TekmetricConnector.connector,
  sms: harness,
  vehicleIdentifiers: ["vin", "licensePlate"]
})

it("the report shows the undeclared capabilities absent and the fallback checked", () => {
  const absent = report.checks.filter((c) => c.status === "absent").flatMap((c) => c.requires)
  expect(new Set(absent)).toEqual(
    new Set([
      "writeQuotedParts",
      "writeOrderedParts",
      "writeOrderedParts or writeQuotedParts",
      "readRepairOrder",
      "receiveRepairOrderEvents",
      "baseVehicleID"
    ])
  )
  const fallback = report.checks.filter((c) => c.name.startsWith("fallback:"))
  expect(fallback.map((c) => c.status)).toEqual(["checked", "checked"])
  expect(fallback.every((c) => c.name.includes("kept by the runtime"))).toBe(true)
  expect(report.checks.find((c) => c.requires.includes("recordPurchaseOrder"))?.status).toBe("checked")
})
