// The adapter this sample runs, against the distributor sandbox and the fake __title__ (the
// conformance harness of `@shoplink/adapter-__name__/testing`, the one the adapter's own tests
// use): certified with the capabilities it declares. Until the adapter is written, its failures
// say what is left ("not implemented: …"); an undeclared write is checked absent, and then the
// runtime's fallback (the parts ledger the sample's pages show) is checked instead.
import { __Name__Connector } from "@shoplink/adapter-__name__"
import { conformanceHarness } from "@shoplink/adapter-__name__/testing"
import { runConnectorConformance } from "@shoplink/connector-testkit"

runConnectorConformance({ connector: __Name__Connector.connector, sms: conformanceHarness })
