/**
 * Shoplink's standard settings as `Config`s, built from the names in `SettingsTable` (the one place
 * they are written). Pass them to each service's `layerConfig` (e.g.
 * `PunchoutClient.layerConfig(Settings.punchoutClient)`), or build your own with other names. Each
 * value is checked with `SettingsTable.problemOf`: a wrong one is a `ConfigError` naming the
 * variable and the problem, never a secret's value; a blank variable counts as unset. Also
 * published as `@shoplink/connector-runtime/Settings`, which does not load the runtime.
 *
 * @since 0.1.0
 */
import { Setting } from "@shoplink/connector"
import { ServerTimeouts } from "@shoplink/http"
import type { OrderManagementClient } from "@shoplink/order-management"
import type { PunchoutClient } from "@shoplink/punchout"
import * as Config from "effect/Config"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Logging from "./Logging.js"
import type * as Observability from "./Observability.js"
import * as Telemetry from "./Telemetry.js"
import type * as SecretBox from "./SecretBox.js"
import { problemOf as tableProblemOf, type SettingDefinition, SETTINGS } from "./SettingsTable.js"
import * as Storage from "./Storage.js"

/**
 * A setting of `definition` as text: trimmed, blank counted as unset (`MissingData`), and checked
 * against its kind (`url`, `baseUrl`, `keyring`) or its `oneOf`; a wrong value is `InvalidData`
 * with `SettingsTable.problemOf`'s phrase. Works for any definition, the application's own too.
 *
 * @example
 * import { Config } from "effect"
 * import { Settings, SettingsTable } from "@shoplink/connector-runtime"
 * const punchoutBaseUrl: Config.Config<string> = Settings.string(SettingsTable.SETTINGS.punchoutBaseUrl)
 * const webhookUrl = Settings.string({
 *   env: "ACME_WEBHOOK_URL",
 *   file: ["webhook"],
 *   secret: false,
 *   description: "the webhook URL",
 *   kind: "url"
 * })
 *
 * @since 0.1.0
 */
export const string = (definition: SettingDefinition): Config.Config<string> => Setting.string(definition, problemOf)

const problemOf = (definition: SettingDefinition, value: string): string | undefined => {
  if (definition.kind === "database") {
    const location = Storage.parseUrl(value)
    return Either.isLeft(location) ? `is invalid: ${location.left.problem}` : undefined
  }
  return tableProblemOf(definition, value)
}

/**
 * A secret setting: `string`, as `Redacted`.
 *
 * @example
 * import { Settings, SettingsTable } from "@shoplink/connector-runtime"
 * const vendorApiKey = Settings.redacted(SettingsTable.SETTINGS.vendorApiKey)
 *
 * @since 0.1.0
 */
export const redacted = (definition: SettingDefinition): Config.Config<Redacted.Redacted<string>> =>
  Setting.redacted(definition, problemOf)

/** `undefined` when unset (or blank); a wrong value still fails. */
const optional = <A>(config: Config.Config<A>): Config.Config<A | undefined> =>
  Config.option(config).pipe(Config.map(Option.getOrUndefined))

/**
 * The distributor's Punchout API: `SHOPLINK_PUNCHOUT_BASE_URL` and `SHOPLINK_VENDOR_API_KEY`.
 *
 * @example
 * import { Layer } from "effect"
 * import { PunchoutClient } from "@shoplink/punchout"
 * import { UndiciHttpClient } from "@shoplink/http-node"
 * import { Settings } from "@shoplink/connector-runtime"
 * const punchout = PunchoutClient.layerConfig(Settings.punchoutClient).pipe(Layer.provide(UndiciHttpClient.layer))
 *
 * @since 0.1.0
 */
export const punchoutClient = {
  baseUrl: string(SETTINGS.punchoutBaseUrl),
  vendorApiKey: redacted(SETTINGS.vendorApiKey)
} satisfies Config.Config.Wrap<PunchoutClient.PunchoutClientOptions>

/**
 * The Order Management API: `SHOPLINK_OMS_ENVIRONMENT`, `SHOPLINK_OMS_API_KEY`, and the hosts
 * `SHOPLINK_OMS_TEST_BASE_URL` / `SHOPLINK_OMS_PROD_BASE_URL` (optional here; the client says
 * which one the environment needs).
 *
 * @example
 * import { Layer } from "effect"
 * import { OrderManagementClient } from "@shoplink/order-management"
 * import { UndiciHttpClient } from "@shoplink/http-node"
 * import { Settings } from "@shoplink/connector-runtime"
 * const oms = OrderManagementClient.layerConfig(Settings.orderManagementClient).pipe(
 *   Layer.provide(UndiciHttpClient.layer)
 * )
 *
 * @since 0.1.0
 */
export const orderManagementClient = {
  // string() has checked the value against SETTINGS.omsEnvironment.oneOf.
  environment: Config.map(
    string(SETTINGS.omsEnvironment),
    (value) => value as OrderManagementClient.Options["environment"]
  ),
  apiKey: redacted(SETTINGS.omsApiKey),
  testBaseUrl: optional(string(SETTINGS.omsTestBaseUrl)),
  prodBaseUrl: optional(string(SETTINGS.omsProdBaseUrl))
} satisfies Config.Config.Wrap<OrderManagementClient.Options>

/**
 * Where the stores live: `SHOPLINK_DATABASE_URL`, a `postgres://` URL or a SQLite file
 * (`Storage.fromUrl`). Add `Config.withDefault` for an embedded default.
 *
 * @example
 * import { Config } from "effect"
 * import { Settings, type Storage } from "@shoplink/connector-runtime"
 * const storage = Settings.storage.pipe(Config.withDefault<Storage.Location>({ sqlite: "shoplink.db" }))
 *
 * @since 0.1.0
 */
export const storage: Config.Config<Storage.Location> = Storage.config(SETTINGS.database.env)

/**
 * The keyring sealing stored secrets: `SHOPLINK_SECRET_KEYS`, checked as a keyring.
 *
 * @example
 * import { SecretBox, Settings } from "@shoplink/connector-runtime"
 * const box = SecretBox.layerConfig(Settings.secretBox)
 *
 * @since 0.1.0
 */
export const secretBox = {
  keys: redacted(SETTINGS.secretKeys)
} satisfies Config.Config.Wrap<SecretBox.Options>

/**
 * The product name on the distributor's ordering pages: `SHOPLINK_SMS_VENDOR_NAME` (add a
 * default with `Config.withDefault`).
 *
 * @example
 * import { Config } from "effect"
 * import { Settings } from "@shoplink/connector-runtime"
 * const name = Settings.smsVendorName.pipe(Config.withDefault("Acme SMS"))
 *
 * @since 0.1.0
 */
export const smsVendorName: Config.Config<string> = string(SETTINGS.smsVendorName)

/**
 * Where the distributor and browsers reach the service's public routes:
 * `SHOPLINK_PUBLIC_BASE_URL`, an http(s) URL without a query, its trailing slashes dropped.
 *
 * @example
 * import { Settings } from "@shoplink/connector-runtime"
 * const publicBaseUrl = Settings.publicBaseUrl
 *
 * @since 0.1.0
 */
export const publicBaseUrl: Config.Config<string> = Config.map(
  string(SETTINGS.publicBaseUrl),
  (url) => url.replace(/\/+$/, "")
)

/**
 * Logs and telemetry: `SHOPLINK_LOG_FORMAT`, `SHOPLINK_LOG_LEVEL`, and, when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set and not empty, `OTEL_EXPORTER_OTLP_PROTOCOL`,
 * `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_SERVICE_NAME` (default `shoplink`).
 *
 * @example
 * import { NodeRuntime } from "@effect/platform-node"
 * import { Effect, Layer } from "effect"
 * import { UndiciHttpClient } from "@shoplink/http-node"
 * import { Observability, Settings } from "@shoplink/connector-runtime"
 * declare const program: Effect.Effect<never>
 * const observability = Observability.layerConfig(Settings.observability).pipe(Layer.provide(UndiciHttpClient.layer))
 * NodeRuntime.runMain(program.pipe(Effect.provide(observability)))
 *
 * @since 0.1.0
 */
export const observability = {
  logFormat: Logging.logFormatConfig(SETTINGS.logFormat.env),
  logLevel: Logging.logLevelConfig(SETTINGS.logLevel.env),
  telemetry: Telemetry.telemetryConfig({
    endpoint: SETTINGS.otlpEndpoint.env,
    protocol: SETTINGS.otlpProtocol.env,
    headers: SETTINGS.otlpHeaders.env,
    serviceName: SETTINGS.serviceName.env
  })
} satisfies Config.Config.Wrap<Observability.Options>

/**
 * The HTTP server's timeouts (`ServerTimeouts` of `@shoplink/http`) from `SHOPLINK_HEADERS_TIMEOUT`
 * (default 10 seconds), `SHOPLINK_REQUEST_TIMEOUT` (30 seconds) and `SHOPLINK_KEEP_ALIVE_TIMEOUT`
 * (5 seconds), each in seconds (`10`) or as a duration (`10 seconds`), as the options to create a
 * `node:http` server with.
 *
 * @example
 * import { NodeHttpServer } from "@effect/platform-node"
 * import { Effect } from "effect"
 * import { createServer } from "node:http"
 * import { Settings } from "@shoplink/connector-runtime"
 * const server = Effect.flatMap(Settings.serverTimeouts, (timeouts) =>
 *   NodeHttpServer.make(() => createServer(timeouts), { port: 3000 }))
 *
 * @since 0.1.0
 */
export const serverTimeouts: Config.Config<ServerTimeouts.NodeServerOptions> = Config.map(
  ServerTimeouts.config({
    headersTimeout: SETTINGS.headersTimeout.env,
    requestTimeout: SETTINGS.requestTimeout.env,
    keepAliveTimeout: SETTINGS.keepAliveTimeout.env
  }),
  ServerTimeouts.nodeServerOptions
)
