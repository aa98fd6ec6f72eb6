// The adapter this sample runs passes the conformance suite with its declared capabilities, against
// the sandbox and the fake Tekmetric (the same harness the adapter's own tests use): the writes
// Tekmetric cannot take are checked absent, and the runtime's fallback (the parts ledger) checked.
import { expect, it } from "@effect/vitest"
import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
import { conformanceHarness } from "@shoplink/adapter-tekmetric/testing"
import { runConnectorConformance } from "@shoplink/connector-testkit"

const report = runConnectorConformance({
  connector: TekmetricConnector.connector,
  sms: conformanceHarness,
  vehicleIdentifiers: ["vin", "licensePlate"]
})

it("reports the part writes absent and the fallback checked", () => {
  const status = (prefix: string) => report.checks.filter((c) => c.name.startsWith(prefix)).map((c) => c.status)
  expect(status("export: quoted lines")).toEqual(["absent"])
  expect(status("export and submit: ordered lines")).toEqual(["absent"])
  expect(status("export and submit: the distributor orderID")).toEqual(["checked"])
  expect(status("fallback:")).toEqual(["checked", "checked"])
})
