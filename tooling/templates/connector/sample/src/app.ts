// The __title__ integration service: ServiceApp of @shoplink/service-pages on the __title__
// connector (sign-in, the repair-order list and page, Order parts, the delivery console, the
// runtime's webhooks, callback and launch API). Each shop's API key comes from the shop store
// (secret `apiKey`); __title__'s API base URL is __NAME___BASE_URL (or the embedded fake's).
import { __Name__Connector } from "@shoplink/adapter-__name__"
import type { Setting } from "@shoplink/connector"
import { Settings } from "@shoplink/connector-runtime"
import { ServiceApp, type ServiceMain } from "@shoplink/service-pages"
import { Config, type Effect, Layer, type Scope } from "effect"

/** This service's own setting: __title__'s API base URL (Shoplink's are named in SettingsTable). */
export const BASE_URL: Setting.SettingDefinition = {
  env: "__NAME___BASE_URL",
  file: ["__name__", "baseUrl"],
  secret: false,
  description: "the __title__ API base URL",
  kind: "baseUrl"
}

/** The __title__ connector on `baseUrl`. */
export const connector = (sms: { readonly baseUrl: string }) => ({
  ...__Name__Connector.connector,
  layer: __Name__Connector.layer.pipe(Layer.provide(Layer.succeed(__Name__Connector.__Name__Config, sms)))
})

/** __title__'s own settings in real-service mode. */
export const sms: ServiceMain.Main<{ readonly baseUrl: string }>["sms"] = {
  settings: [BASE_URL],
  config: Config.all({ baseUrl: Settings.string(BASE_URL) })
}

/** Starts the service in the current Scope (the demo). */
export const startApp = (
  settings: ServiceApp.Settings,
  baseUrl: string
): Effect.Effect<ServiceApp.RunningApp, ServiceApp.StartFailed, Scope.Scope> =>
  ServiceApp.make(connector({ baseUrl }), settings)
