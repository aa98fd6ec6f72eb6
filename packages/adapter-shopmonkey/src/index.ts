/**
 * @shoplink/adapter-shopmonkey — the Shopmonkey API v3 client and the `ShopSystem` on it.
 *
 * @since 0.1.0
 */
export * as Resources from "./Resources.js"
export * as ShopmonkeyClient from "./ShopmonkeyClient.js"
export * from "./ShopmonkeyConnector.js"
export * as ShopmonkeyError from "./ShopmonkeyError.js"
export * as ShopmonkeyShopSystem from "./ShopmonkeyShopSystem.js"
