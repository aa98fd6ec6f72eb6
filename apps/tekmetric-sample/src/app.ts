// The Tekmetric integration service: ServiceApp of @shoplink/service-pages on the Tekmetric
// connector, whose per-shop OAuth client comes from the shop store and whose API host is
// TEKMETRIC_BASE_URL (or the embedded fake's). Tekmetric takes no part lines: the runtime keeps
// them, and the RO page links to its parts page; a repair order without VIN or plate is refused.
import { TekmetricConnector } from "@shoplink/adapter-tekmetric"
import type { Setting } from "@shoplink/connector"
import { Settings as Standard } from "@shoplink/connector-runtime"
import { ServiceApp, type ServiceMain } from "@shoplink/service-pages"
import * as Config from "effect/Config"
import type * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Layer from "effect/Layer"

/** The service's settings: ServiceApp's, and where Tekmetric's API is. */
export interface Settings extends ServiceApp.Settings {
  readonly tekmetricBaseUrl: string
}

/** Tekmetric's API host, checked by the standard base URL rules. */
const tekmetricBaseUrlSetting: Setting.SettingDefinition = {
  env: "TEKMETRIC_BASE_URL",
  file: ["tekmetric", "baseUrl"],
  secret: false,
  description: "the Tekmetric API base URL (https://api.tekmetric.com or https://sandbox.tekmetric.com)",
  kind: "baseUrl"
}

/** The Tekmetric connector on `baseUrl`. */
export const connector = (sms: { readonly baseUrl: string }) => ({
  ...TekmetricConnector.connector,
  layer: TekmetricConnector.layer.pipe(Layer.provide(Layer.succeed(TekmetricConnector.TekmetricConfig, sms)))
})

/** Tekmetric's own settings in real-service mode. */
export const sms: ServiceMain.Main<{ readonly baseUrl: string }>["sms"] = {
  settings: [tekmetricBaseUrlSetting],
  config: Config.all({
    baseUrl: Standard.string(tekmetricBaseUrlSetting).pipe(Config.withDefault("https://sandbox.tekmetric.com"))
  })
}

/** How the pages treat Tekmetric: it refuses a launch without a vehicle, and says why. */
export const options: ServiceApp.Options = { withoutVehicle: "hint", showPermanentSmsErrors: true }

/** Starts the service in the current Scope (the demo and the tests). */
export const startApp = (
  settings: Settings
): Effect.Effect<ServiceApp.RunningApp, ServiceApp.StartFailed, Scope.Scope> =>
  ServiceApp.make(connector({ baseUrl: settings.tekmetricBaseUrl }), settings, options)
