/**
 * The Order Management REST API's wire model (docs/spec/order-management-api.md).
 *
 * @since 0.1.0
 */
export * from "./oms/Account.js"
export * from "./oms/Address.js"
export * from "./oms/Dates.js"
export * from "./oms/Environment.js"
export * from "./oms/Orders.js"
export * from "./oms/Products.js"
