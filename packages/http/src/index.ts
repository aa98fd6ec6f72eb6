/**
 * @shoplink/http — the one transport layer every Shoplink client, adapter and worker shares (the
 * transport error family, the retry policy, the deadline, generic HTTP facts), and the tagged
 * template every Shoplink page is written with.
 *
 * @since 0.1.0
 */
export * as Deadline from "./Deadline.js"
export * as Exchange from "./Exchange.js"
export * as Html from "./Html.js"
export * as InvalidInput from "./InvalidInput.js"
export * as Mask from "./Mask.js"
export * as Retry from "./Retry.js"
export * as ServerTimeouts from "./ServerTimeouts.js"
export * as Transport from "./Transport.js"
export * as TransportError from "./TransportError.js"
