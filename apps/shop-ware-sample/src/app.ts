// The Shop-Ware integration service: ServiceApp of @shoplink/service-pages on the Shop-Ware
// connector (sign-in, the repair-order list and page, Order parts, the delivery console, the
// runtime's webhooks, callback and launch API). Each shop's partner credentials and tenant come
// from the shop store (secrets `partnerId`, `apiSecret`, `tenantId`); Shop-Ware's API base URL is
// SHOP_WARE_BASE_URL (or the embedded fake's). Shop-Ware takes no part lines: the runtime keeps
// them, and the distributor order is recorded on the repair order (integrator tag and note).
import { ShopWareConnector } from "@shoplink/adapter-shop-ware"
import type { Setting } from "@shoplink/connector"
import { Settings } from "@shoplink/connector-runtime"
import { ServiceApp, type ServiceMain } from "@shoplink/service-pages"
import { Config, type Effect, Layer, type Scope } from "effect"

/** This service's own setting: Shop-Ware's API base URL (Shoplink's are named in SettingsTable). */
export const BASE_URL: Setting.SettingDefinition = {
  env: "SHOP_WARE_BASE_URL",
  file: ["shop-ware", "baseUrl"],
  secret: false,
  description: "the Shop-Ware API base URL (https://api.shop-ware.com)",
  kind: "baseUrl"
}

/** The Shop-Ware connector on `baseUrl`. */
export const connector = (sms: { readonly baseUrl: string }) => ({
  ...ShopWareConnector.connector,
  layer: ShopWareConnector.layer.pipe(Layer.provide(Layer.succeed(ShopWareConnector.ShopWareConfig, sms)))
})

/** Shop-Ware's own settings in real-service mode. */
export const sms: ServiceMain.Main<{ readonly baseUrl: string }>["sms"] = {
  settings: [BASE_URL],
  config: Config.all({
    baseUrl: Settings.string(BASE_URL).pipe(Config.withDefault("https://api.shop-ware.com"))
  })
}

/** How the pages treat Shop-Ware: it refuses a launch without a VIN, and says why. */
export const options: ServiceApp.Options = { withoutVehicle: "hint", showPermanentSmsErrors: true }

/** Starts the service in the current Scope (the demo and the tests). */
export const startApp = (
  settings: ServiceApp.Settings,
  baseUrl: string
): Effect.Effect<ServiceApp.RunningApp, ServiceApp.StartFailed, Scope.Scope> =>
  ServiceApp.make(connector({ baseUrl }), settings, options)
