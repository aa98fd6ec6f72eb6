/**
 * The Shopmonkey connector definition the runtime, the conformance suite and the sample app load.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import { Connector, Setting, type SmsCredentials } from "@shoplink/connector"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as ShopmonkeyClient from "./ShopmonkeyClient.js"
import * as ShopmonkeyShopSystem from "./ShopmonkeyShopSystem.js"

/**
 * The Shopmonkey API base URL setting of Shoplink's applications, in the form of
 * `Setting.SettingDefinition`: `SHOPLINK_SHOPMONKEY_BASE_URL`. The one place the name is written; the
 * library's layers take a `Config` and read no variable of their own.
 *
 * @example
 * import { shopmonkeyBaseUrlSetting } from "@shoplink/adapter-shopmonkey"
 * shopmonkeyBaseUrlSetting.env // "SHOPLINK_SHOPMONKEY_BASE_URL"
 *
 * @since 0.1.0
 */
export const shopmonkeyBaseUrlSetting: Setting.SettingDefinition = {
  env: "SHOPLINK_SHOPMONKEY_BASE_URL",
  file: ["shopmonkey", "baseUrl"],
  secret: false,
  description: "the Shopmonkey API base URL",
  kind: "baseUrl"
}

/**
 * `shopmonkeyBaseUrlSetting` as a `Config`, checked as a base URL, default
 * `ShopmonkeyClient.PRODUCTION_BASE_URL` when unset or blank.
 *
 * @example
 * import { shopmonkeyBaseUrl, ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
 * const shopSystem = ShopmonkeyShopSystem.layerPerShopConfig({ baseUrl: shopmonkeyBaseUrl })
 *
 * @since 0.1.0
 */
export const shopmonkeyBaseUrl: Config.Config<string> = Setting.string(shopmonkeyBaseUrlSetting).pipe(
  Config.withDefault(ShopmonkeyClient.PRODUCTION_BASE_URL)
)

/**
 * The Shopmonkey connector. Its layer serves many shops, each on its own Shopmonkey account: it
 * reads each shop's API key from `SmsCredentials` (secret `ShopmonkeyShopSystem.API_KEY_SECRET`,
 * `"apiKey"`) on every call, the base URL from `shopmonkeyBaseUrl` (default production), and
 * needs an `HttpClient`.
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
  layer: ShopmonkeyShopSystem.layerPerShopConfig({ baseUrl: shopmonkeyBaseUrl })
})
