/**
 * @shoplink/http — the one transport layer every Shoplink client, adapter and worker shares, and
 * the tagged template every Shoplink page is written with.
 *
 * @since 0.1.0
 */
export * as Html from "./Html.js"
