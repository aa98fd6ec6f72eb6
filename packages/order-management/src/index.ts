/**
 * @shoplink/order-management — a typed Effect client of the distributor's Order Management REST API.
 *
 * @since 0.1.0
 */
export * as AssetUrls from "./AssetUrls.js"
export * as Customer from "./Customer.js"
export * as KeyTier from "./KeyTier.js"
export * as OrderManagementClient from "./OrderManagementClient.js"
export * as OrderManagementError from "./OrderManagementError.js"
