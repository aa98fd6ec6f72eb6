/**
 * The Vendor Punchout API's wire model (docs/spec/punchout-api.md).
 *
 * @since 0.1.0
 */
export * from "./punchout/Catalog.js"
export * from "./punchout/Commands.js"
export * from "./punchout/Session.js"
export * from "./punchout/Show.js"
export * from "./punchout/Webhooks.js"
