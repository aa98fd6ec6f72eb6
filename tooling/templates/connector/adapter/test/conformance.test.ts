// The conformance suite against the sandbox. Until the adapter is written, its failures are the
// list of what is left to implement.
import { runConnectorConformance } from "@shoplink/connector-testkit"
import { __Name__Connector } from "../src/index.js"
import { harness } from "./harness.js"

runConnectorConformance({ connector: __Name__Connector.connector, sms: harness })
