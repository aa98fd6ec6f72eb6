/**
 * The Shopmonkey connector definition the runtime, the conformance suite and the sample app load.
 *
 * @since 0.1.0
 */
import type { HttpClient } from "@effect/platform"
import { Connector, type SmsCredentials } from "@shoplink/connector"
import type { ConfigError } from "effect"
import * as ShopmonkeyShopSystem from "./ShopmonkeyShopSystem.js"

/**
 * The Shopmonkey connector. Its layer serves many shops, each on its own Shopmonkey account: it
 * reads each shop's API key from `SmsCredentials` (secret `ShopmonkeyShopSystem.API_KEY_SECRET`,
 * `"apiKey"`) on every call, the base URL from `SHOPLINK_SHOPMONKEY_BASE_URL` (default
 * production), and needs an `HttpClient`.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Layer, Redacted } from "effect"
 * import { SmsCredentials } from "@shoplink/connector"
 * import { shopmonkeyConnector } from "@shoplink/adapter-shopmonkey"
 * const shopSystem = shopmonkeyConnector.layer.pipe(
 *   Layer.provide(SmsCredentials.layerStatic({ shop_1: { apiKey: Redacted.make("sm-key") } })),
 *   Layer.provide(FetchHttpClient.layer)
 * )
 *
 * @since 0.1.0
 */
export const shopmonkeyConnector: Connector.Connector<
  ConfigError.ConfigError,
  SmsCredentials.SmsCredentials | HttpClient.HttpClient
> = Connector.defineConnector({
  id: "shopmonkey",
  name: "Shopmonkey",
  capabilities: ShopmonkeyShopSystem.capabilities,
  layer: ShopmonkeyShopSystem.layerPerShopConfig()
})
