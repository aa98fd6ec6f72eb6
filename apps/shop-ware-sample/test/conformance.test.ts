// The adapter this sample runs passes the conformance suite with its declared capabilities, against
// the sandbox and the fake Shop-Ware (the same harness the adapter's own tests use): the writes
// Shop-Ware cannot take are checked absent, and the runtime's fallback (the parts ledger) checked.
import { expect, it } from "@effect/vitest"
import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
import { conformanceHarness } from "@shoplink/adapter-shop-ware/testing"
import { runConnectorConformance } from "@shoplink/connector-testkit"

const report = runConnectorConformance({
  connector: ShopWareConnector.connector,
  sms: conformanceHarness,
  vehicleIdentifiers: ["vin"]
})

it("reports the part writes absent and the fallback checked", () => {
  const status = (prefix: string) => report.checks.filter((c) => c.name.startsWith(prefix)).map((c) => c.status)
  expect(status("export: quoted lines")).toEqual(["absent"])
  expect(status("export and submit: ordered lines")).toEqual(["absent"])
  expect(status("export and submit: the distributor orderID")).toEqual(["checked"])
  expect(status("fallback:")).toEqual(["checked", "checked"])
})
