/**
 * OpenTelemetry traces and metrics over OTLP (`layerTelemetry`), configured from variables the
 * application names (`telemetryConfig`; `Settings.observability` reads `OTEL_EXPORTER_OTLP_*` and
 * `OTEL_SERVICE_NAME`). Exporting needs the optional peer `@effect/opentelemetry` (0.64.x), loaded
 * only when an endpoint is configured; it posts over the application's @effect/platform
 * `HttpClient`, with no OpenTelemetry SDK involved. Every span passes through `redactTracer`.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Tracer from "effect/Tracer"
import { redactingTracer } from "./internal/redact.js"

/**
 * Where and how traces and metrics are exported (OTLP over HTTP).
 *
 * - `endpoint`: the collector's base URL; spans go to `{endpoint}/v1/traces`, metrics to
 *   `{endpoint}/v1/metrics`.
 * - `protocol`: `http/protobuf` (the OTLP default) or `http/json`.
 * - `headers`: sent with every export (a hosted collector's key, for example).
 * - `serviceName` (default `shoplink`), `serviceVersion`: resource attributes;
 *   `OTEL_RESOURCE_ATTRIBUTES` is read too.
 * - `traceExportInterval` (default 5 s), `metricExportInterval` (default 10 s); whatever is
 *   pending is flushed when the layer closes, for at most `shutdownTimeout` (default 3 s).
 *
 * @example
 * import { Redacted } from "effect"
 * import type { Telemetry } from "@shoplink/connector-runtime"
 * const telemetry: Telemetry.TelemetryOptions = {
 *   endpoint: "http://otel-collector:4318",
 *   serviceName: "acme-shoplink",
 *   headers: { "x-api-key": Redacted.make("collector-key") }
 * }
 *
 * @since 0.1.0
 */
export interface TelemetryOptions {
  readonly endpoint: string
  readonly protocol?: "http/protobuf" | "http/json" | undefined
  readonly headers?: Readonly<Record<string, string | Redacted.Redacted<string>>> | undefined
  readonly serviceName?: string | undefined
  readonly serviceVersion?: string | undefined
  readonly traceExportInterval?: Duration.DurationInput | undefined
  readonly metricExportInterval?: Duration.DurationInput | undefined
  readonly shutdownTimeout?: Duration.DurationInput | undefined
}

/**
 * Telemetry was configured but `@effect/opentelemetry` could not be loaded: install it
 * (`npm install @effect/opentelemetry@^0.64.1`) or unset the endpoint.
 *
 * @example
 * import { Telemetry } from "@shoplink/connector-runtime"
 * new Telemetry.TelemetryUnavailable({ reason: "Cannot find package '@effect/opentelemetry'" }).message
 *
 * @since 0.1.0
 */
export class TelemetryUnavailable extends Schema.TaggedError<TelemetryUnavailable>()("TelemetryUnavailable", {
  reason: Schema.String
}) {
  override get message(): string {
    return `OpenTelemetry export is configured but @effect/opentelemetry (0.64.x) could not be loaded: ${this.reason}`
  }
}

/**
 * Exports the runtime's spans (launch, receive, apply, each shop-system call, the HTTP server's)
 * and Effect's metric registry over OTLP. Needs an `HttpClient` (the application's; the exporter's
 * own requests are not traced) and the optional peer `@effect/opentelemetry`, loaded only here.
 * Span attributes and metric labels carry no launch key, token or API key: every span name,
 * attribute, event and failure passes through `redact` first (see `redactTracer`).
 *
 * @example
 * import { Layer } from "effect"
 * import { UndiciHttpClient } from "@shoplink/http-node"
 * import { Telemetry } from "@shoplink/connector-runtime"
 * const telemetry = Telemetry.layerTelemetry({ endpoint: "http://otel-collector:4318" }).pipe(
 *   Layer.provide(UndiciHttpClient.layer)
 * )
 *
 * @since 0.1.0
 */
export const layerTelemetry = (
  options: TelemetryOptions
): Layer.Layer<never, TelemetryUnavailable, HttpClient.HttpClient> =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const [OtlpTracer, OtlpMetrics, OtlpSerialization] = yield* Effect.tryPromise({
      try: () =>
        Promise.all([
          import("@effect/opentelemetry/OtlpTracer"),
          import("@effect/opentelemetry/OtlpMetrics"),
          import("@effect/opentelemetry/OtlpSerialization")
        ]),
      catch: (error) =>
        new TelemetryUnavailable({ reason: error instanceof Error ? error.message.split("\n")[0]! : String(error) })
    })
    const base = options.endpoint.replace(/\/+$/, "")
    const resource = {
      serviceName: options.serviceName ?? "shoplink",
      ...(options.serviceVersion === undefined ? {} : { serviceVersion: options.serviceVersion })
    }
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      headers[name] = Redacted.isRedacted(value) ? Redacted.value(value) : value
    }
    const shutdownTimeout = options.shutdownTimeout ?? "3 seconds"
    // The exporter's tracer, behind one that redacts every span name, attribute, event and failure.
    const tracer = Layer.unwrapScoped(Effect.map(
      OtlpTracer.make({
        url: `${base}/v1/traces`,
        resource,
        headers,
        exportInterval: options.traceExportInterval ?? "5 seconds",
        shutdownTimeout
      }),
      (otlp) => Layer.setTracer(redactingTracer(otlp))
    ))
    return Layer.mergeAll(
      tracer,
      OtlpMetrics.layer({
        url: `${base}/v1/metrics`,
        resource,
        headers,
        exportInterval: options.metricExportInterval ?? "10 seconds",
        shutdownTimeout
      })
    ).pipe(
      Layer.provide(options.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf)
    )
  }))

/** `name=value,name2=value2` with URL-encoded values, as OpenTelemetry's headers variable has them. */
const parseHeaders = (raw: string): Record<string, Redacted.Redacted<string>> => {
  const headers: Record<string, Redacted.Redacted<string>> = {}
  for (const pair of raw.split(",")) {
    const at = pair.indexOf("=")
    if (at <= 0) continue
    const name = pair.slice(0, at).trim().toLowerCase()
    try {
      headers[name] = Redacted.make(decodeURIComponent(pair.slice(at + 1).trim()))
    } catch {
      headers[name] = Redacted.make(pair.slice(at + 1).trim())
    }
  }
  return headers
}

/**
 * Names of the variables `telemetryConfig` reads. Only `endpoint` is required.
 *
 * @example
 * import type { Telemetry } from "@shoplink/connector-runtime"
 * const names: Telemetry.TelemetryNames = { endpoint: "ACME_OTLP_ENDPOINT", serviceName: "ACME_SERVICE_NAME" }
 *
 * @since 0.1.0
 */
export interface TelemetryNames {
  readonly endpoint: string
  readonly protocol?: string | undefined
  readonly headers?: string | undefined
  readonly serviceName?: string | undefined
}

/**
 * Telemetry settings from the variables `names`: `undefined` (no export) when the endpoint is
 * unset or empty; otherwise the endpoint, the protocol (`http/protobuf`, the default, or
 * `http/json`), headers (`name=value,name2=value2`, URL-encoded values, read as a secret) and the
 * service name (default `shoplink`).
 *
 * @example
 * import { Telemetry } from "@shoplink/connector-runtime"
 * const telemetry = Telemetry.telemetryConfig({ endpoint: "ACME_OTLP_ENDPOINT", headers: "ACME_OTLP_HEADERS" })
 *
 * @since 0.1.0
 */
export const telemetryConfig = (names: TelemetryNames): Config.Config<TelemetryOptions | undefined> =>
  Config.all({
    endpoint: Config.string(names.endpoint).pipe(Config.withDefault("")),
    protocol: names.protocol === undefined ? Config.succeed("http/protobuf" as const) : protocolConfig(names.protocol),
    headers: names.headers === undefined
      ? Config.succeed(Option.none())
      : Config.redacted(names.headers).pipe(Config.option),
    serviceName: names.serviceName === undefined
      ? Config.succeed("shoplink")
      : Config.string(names.serviceName).pipe(Config.withDefault("shoplink"))
  }).pipe(Config.map(({ endpoint, headers, protocol, serviceName }): TelemetryOptions | undefined =>
    endpoint.trim() === "" ? undefined : {
      endpoint: endpoint.trim(),
      protocol,
      serviceName: serviceName.trim() === "" ? "shoplink" : serviceName.trim(),
      ...(Option.isSome(headers) ? { headers: parseHeaders(Redacted.value(headers.value)) } : {})
    }
  ))

const protocolConfig = (name: string): Config.Config<"http/protobuf" | "http/json"> =>
  Config.string(name).pipe(
    Config.withDefault("http/protobuf"),
    Config.mapOrFail((raw): Either.Either<"http/protobuf" | "http/json", ConfigError.ConfigError> => {
      const value = raw.trim() === "" ? "http/protobuf" : raw.trim()
      return value === "http/protobuf" || value === "http/json"
        ? Either.right(value)
        : Either.left(ConfigError.InvalidData([name], `must be http/protobuf or http/json (got "${raw.slice(0, 40)}")`))
    })
  )

/**
 * Wraps a tracer so that every span name, string attribute, event and failure (`exception.*`,
 * the status message) passes through `redact` before the tracer records it. `layerTelemetry`
 * uses it; an application with its own tracer (the OpenTelemetry SDK's, say) can wrap that one.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { Telemetry } from "@shoplink/connector-runtime"
 * const redacting = Layer.unwrapEffect(
 *   Effect.map(Effect.tracer, (tracer) => Layer.setTracer(Telemetry.redactTracer(tracer)))
 * )
 *
 * @since 0.1.0
 */
export const redactTracer: (tracer: Tracer.Tracer) => Tracer.Tracer = redactingTracer
