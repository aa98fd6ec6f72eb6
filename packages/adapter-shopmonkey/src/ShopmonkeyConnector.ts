/**
 * The Shopmonkey connector definition the runtime, the conformance suite and the sample app load.
 *
 * @since 0.1.0
 */
import type { HttpClient } from "@effect/platform"
import { Connector } from "@shoplink/connector"
import type { ConfigError } from "effect"
import { Layer } from "effect"
import * as ShopmonkeyClient from "./ShopmonkeyClient.js"
import * as ShopmonkeyShopSystem from "./ShopmonkeyShopSystem.js"

/**
 * The Shopmonkey connector: its layer reads `SHOPLINK_SHOPMONKEY_API_KEY` and
 * `SHOPLINK_SHOPMONKEY_BASE_URL` and needs an `HttpClient`.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Layer } from "effect"
 * import { shopmonkeyConnector } from "@shoplink/adapter-shopmonkey"
 * const shopSystem = shopmonkeyConnector.layer.pipe(Layer.provide(FetchHttpClient.layer))
 *
 * @since 0.1.0
 */
export const shopmonkeyConnector: Connector.Connector<ConfigError.ConfigError, HttpClient.HttpClient> = Connector.defineConnector({
  id: "shopmonkey",
  name: "Shopmonkey",
  capabilities: ShopmonkeyShopSystem.capabilities,
  layer: ShopmonkeyShopSystem.layer().pipe(Layer.provide(ShopmonkeyClient.layerConfig()))
})
