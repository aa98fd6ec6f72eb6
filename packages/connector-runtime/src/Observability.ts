/**
 * Operating the runtime in one layer: the logger (`Logging`) and, when configured, OTLP export of
 * traces and metrics (`Telemetry`); `layerConfig(Settings.observability)` reads the standard
 * variables (see `SettingsTable`). Everything of `Logging`, `Telemetry` and `Prometheus` is also
 * exported here under its old name, for the importers written before the split.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type LogFormat, type LogLevelName, layerLogger } from "./Logging.js"
import { layerTelemetry, type TelemetryOptions, type TelemetryUnavailable } from "./Telemetry.js"

export * from "./Logging.js"
export * from "./Prometheus.js"
export * from "./Telemetry.js"

/**
 * Everything `layer` sets up: the logger, and telemetry when `telemetry` is given.
 *
 * @example
 * import type { Observability } from "@shoplink/connector-runtime"
 * const options: Observability.Options = {
 *   logFormat: "json",
 *   logLevel: "info",
 *   telemetry: { endpoint: "http://otel-collector:4318", serviceName: "acme-shoplink" }
 * }
 *
 * @since 0.1.0
 */
export interface Options {
  readonly logFormat?: LogFormat | "auto" | undefined
  readonly logLevel?: LogLevelName | undefined
  readonly telemetry?: TelemetryOptions | undefined
}

/**
 * The logger and, when configured, OTLP export, as one layer to provide around the program.
 *
 * @example
 * import { Layer } from "effect"
 * import { UndiciHttpClient } from "@shoplink/http-node"
 * import { Observability } from "@shoplink/connector-runtime"
 * const observability = Observability.layer({ logFormat: "json", logLevel: "info" }).pipe(
 *   Layer.provide(UndiciHttpClient.layer)
 * )
 *
 * @since 0.1.0
 */
export const layer = (options: Options): Layer.Layer<never, TelemetryUnavailable, HttpClient.HttpClient> => {
  const logger = layerLogger({ format: options.logFormat, level: options.logLevel })
  return options.telemetry === undefined ? logger : Layer.merge(logger, layerTelemetry(options.telemetry))
}

/**
 * `layer` from `Config`: the application names its variables. `Settings.observability` reads the
 * standard ones (the sample apps' and the CLI's).
 *
 * @example
 * import { Observability, Settings } from "@shoplink/connector-runtime"
 * const standard = Observability.layerConfig(Settings.observability)
 * const own = Observability.layerConfig({
 *   logFormat: Observability.logFormatConfig("ACME_LOG_FORMAT"),
 *   logLevel: Observability.logLevelConfig("ACME_LOG_LEVEL"),
 *   telemetry: Observability.telemetryConfig({ endpoint: "ACME_OTLP_ENDPOINT" })
 * })
 *
 * @since 0.1.0
 */
export const layerConfig = (
  config: Config.Config.Wrap<Options>
): Layer.Layer<never, ConfigError.ConfigError | TelemetryUnavailable, HttpClient.HttpClient> =>
  Layer.unwrapEffect(Effect.map(Config.unwrap(config), layer))
