/**
 * @shoplink/adapter-shop-ware — the Shop-Ware adapter for Shoplink: a client of Shop-Ware's
 * partner API (`X-Api-Partner-Id` / `X-Api-Secret`, per tenant), the `ShopSystem` implementation
 * (repair orders read; the distributor order recorded as an integrator tag and a note; part lines
 * kept by the runtime's parts ledger) and, under `/testing`, a fake Shop-Ware.
 *
 * @since 0.1.0
 */
export * as Resources from "./Resources.js"
export * as ShopWareClient from "./ShopWareClient.js"
export * as ShopWareConnector from "./ShopWareConnector.js"
export * as ShopWareError from "./ShopWareError.js"
