/**
 * @shoplink/sandbox — a faithful local distributor: the Punchout and Order Management APIs, the
 * ordering pages, webhooks, an Effect-clock, fault injection and OpenAPI documents.
 *
 * @since 0.1.0
 */
export * from "./Credentials.js"
export * from "./Fixtures.js"
export * from "./Sandbox.js"
export * from "./SandboxAdminClient.js"
export * as SandboxApi from "./SandboxApi.js"
