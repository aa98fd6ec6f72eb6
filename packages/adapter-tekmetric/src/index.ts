/**
 * @shoplink/adapter-tekmetric — the Tekmetric adapter for Shoplink: an OAuth2 client-credentials
 * client of the Tekmetric API, the `ShopSystem` implementation (repair orders read; the
 * distributor order recorded on a job note; part lines kept by the runtime's parts ledger) and,
 * under `/testing`, a fake Tekmetric.
 *
 * @since 0.1.0
 */
export * as Resources from "./Resources.js"
export * as TekmetricClient from "./TekmetricClient.js"
export * as TekmetricConnector from "./TekmetricConnector.js"
export * as TekmetricError from "./TekmetricError.js"
