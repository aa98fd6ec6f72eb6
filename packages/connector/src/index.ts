/**
 * @shoplink/connector: the contract an SMS adapter implements. The server around it is
 * @shoplink/connector-runtime; adapters depend on this package and @shoplink/http only.
 *
 * @since 0.1.0
 */
export * as Connector from "./Connector.js"
export * as Money from "./Money.js"
export * as Setting from "./Setting.js"
export * as ShopSystem from "./ShopSystem.js"
export * as SmsCredentials from "./SmsCredentials.js"
