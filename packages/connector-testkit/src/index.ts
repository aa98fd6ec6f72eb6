/**
 * @shoplink/connector-testkit — the conformance suite every Shoplink SMS adapter runs against the
 * sandbox, the harness types an adapter supplies, and the runtime the suite builds.
 *
 * @since 0.1.0
 */
export * as Conformance from "./Conformance.js"
export { runConnectorConformance } from "./Conformance.js"
export * as ConformanceHarness from "./ConformanceHarness.js"
export * as ConformanceRuntime from "./ConformanceRuntime.js"
export * as WebClient from "./WebClient.js"
export * as Transcript from "./Transcript.js"
export * as DemoShops from "./DemoShops.js"
export * as BrowserSteps from "./BrowserSteps.js"
export * as FakeServer from "./FakeServer.js"
