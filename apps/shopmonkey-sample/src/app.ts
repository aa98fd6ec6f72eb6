// The Shopmonkey integration service: ServiceApp of @shoplink/service-pages on the Shopmonkey
// connector, whose per-shop API key comes from the shop store (secret `apiKey`) and whose base URL
// is SHOPLINK_SHOPMONKEY_BASE_URL (the adapter names it) or the embedded fake's.
import {
  shopmonkeyBaseUrl,
  shopmonkeyBaseUrlSetting,
  shopmonkeyConnector,
  ShopmonkeyShopSystem
} from "@shoplink/adapter-shopmonkey"
import { ServiceApp, type ServiceMain } from "@shoplink/service-pages"
import * as Config from "effect/Config"
import type * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"

/** The service's settings: ServiceApp's, and where Shopmonkey's API is. */
export interface Settings extends ServiceApp.Settings {
  readonly shopmonkeyBaseUrl: string
}

/** The Shopmonkey connector on `baseUrl`. */
export const connector = (sms: { readonly baseUrl: string }) => ({
  ...shopmonkeyConnector,
  layer: ShopmonkeyShopSystem.layerPerShop({ baseUrl: sms.baseUrl })
})

/** Shopmonkey's own settings in real-service mode. */
export const sms: ServiceMain.Main<{ readonly baseUrl: string }>["sms"] = {
  settings: [shopmonkeyBaseUrlSetting],
  config: Config.all({ baseUrl: shopmonkeyBaseUrl })
}

/** Starts the service in the current Scope (the demo and the tests). */
export const startApp = (
  settings: Settings
): Effect.Effect<ServiceApp.RunningApp, ServiceApp.StartFailed, Scope.Scope> =>
  ServiceApp.make(connector({ baseUrl: settings.shopmonkeyBaseUrl }), settings)
