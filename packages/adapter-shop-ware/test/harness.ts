// The conformance harness is published with the fake (`/testing`), so the sample app and third
// parties run the same one: a fake Shop-Ware per check, seeded with the suite's repair orders.
export { conformanceHarness as harness } from "../src/testing.js"
