// The acceptance test of the issue: the reference adapter passes the whole suite. (An adapter
// package imports the same names from "@shoplink/connector-testkit" and "…/reference".)
import { runConnectorConformance } from "../src/index.js"
import { ReferenceConnector, ReferenceHarness } from "../src/reference.js"

runConnectorConformance({ connector: ReferenceConnector.connector, sms: ReferenceHarness.harness })
