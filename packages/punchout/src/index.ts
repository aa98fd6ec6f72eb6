/**
 * @shoplink/punchout — the typed Effect client of the distributor's Vendor Punchout API.
 *
 * @since 0.1.0
 */
export * as PunchoutClient from "./PunchoutClient.js"
export * as PunchoutError from "./PunchoutError.js"
export * as PunchoutSession from "./PunchoutSession.js"
export * as SessionPool from "./SessionPool.js"
export * as ShowUrls from "./ShowUrls.js"
export * as Webhooks from "./Webhooks.js"
