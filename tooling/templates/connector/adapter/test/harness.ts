// The conformance harness is published with the fake (`/testing`, src/testing.ts), so the sample
// app's tests and third parties run the same one: a fresh fake __title__ per check, seeded with
// the suite's repair orders, and direct reads of what the adapter wrote in its store.
export { conformanceHarness as harness } from "../src/testing.js"
