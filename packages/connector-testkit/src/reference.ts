/**
 * @shoplink/connector-testkit/reference — the in-memory reference adapter: a tiny fake SMS, the
 * `ShopSystem` over it, its connector, and its conformance harness. The example to copy.
 *
 * @since 0.1.0
 */
export * as ReferenceConnector from "./reference/ReferenceConnector.js"
export * as ReferenceHarness from "./reference/ReferenceHarness.js"
export * as ReferenceSms from "./reference/ReferenceSms.js"
