/**
 * Operating the runtime: log lines an operator can read and ship, OpenTelemetry traces and
 * metrics, and the metrics as Prometheus text. The application chooses the settings and names
 * its variables: `layerConfig(Settings.observability)` reads the standard ones (the log format and
 * level, and OpenTelemetry's `OTEL_EXPORTER_OTLP_*` / `OTEL_SERVICE_NAME`; see `SettingsTable`),
 * `logFormatConfig`, `logLevelConfig` and `telemetryConfig` read any names the application picks.
 *
 * Exporting needs the optional peer `@effect/opentelemetry` (0.64.x), loaded only when an
 * endpoint is configured; it posts OTLP over the application's @effect/platform `HttpClient`, with
 * no OpenTelemetry SDK involved. Logs are not exported over OTLP: they go to standard output,
 * where the platform (systemd, a container runtime) collects them.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Cause from "effect/Cause"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as FiberRefs from "effect/FiberRefs"
import * as HashMap from "effect/HashMap"
import * as HashSet from "effect/HashSet"
import * as Inspectable from "effect/Inspectable"
import * as Layer from "effect/Layer"
import * as List from "effect/List"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Metric from "effect/Metric"
import type * as MetricPair from "effect/MetricPair"
import * as MetricState from "effect/MetricState"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Tracer from "effect/Tracer"
import { redactCause, redactingTracer, redactText } from "./internal/redact.js"

/**
 * How log lines are written: `json` (one object per line: `time`, `level`, `message`, the
 * annotations as fields, `traceId`/`spanId` inside a span, `cause` for failures), `logfmt` (one
 * `key=value` line) or `pretty` (Effect's multi-line, coloured output, for a terminal).
 *
 * @example
 * import type { Observability } from "@shoplink/connector-runtime"
 * const format: Observability.LogFormat = "json"
 *
 * @since 0.1.0
 */
export type LogFormat = "json" | "logfmt" | "pretty"

/**
 * The least severe level written; `none` writes nothing.
 *
 * @example
 * import type { Observability } from "@shoplink/connector-runtime"
 * const level: Observability.LogLevelName = "warning"
 *
 * @since 0.1.0
 */
export type LogLevelName = "trace" | "debug" | "info" | "warning" | "error" | "none"

const levels: Record<LogLevelName, LogLevel.LogLevel> = {
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  none: LogLevel.None
}
const levelNames: Record<string, string> = {
  ALL: "trace",
  TRACE: "trace",
  DEBUG: "debug",
  INFO: "info",
  WARN: "warning",
  ERROR: "error",
  FATAL: "fatal",
  OFF: "none"
}

// Written by the logger itself; an annotation of the same name is written as `annotation.<name>`.
const reserved = new Set(["time", "level", "message", "details", "cause", "traceId", "spanId", "spans"])

/** A value as JSON can hold it: errors by name and message, bigints and functions as text. */
const structured = (value: unknown): unknown => {
  switch (typeof value) {
    case "bigint":
    case "function":
    case "symbol":
      return String(value)
    default: {
      if (value instanceof Error && !("toJSON" in value)) return { ...value, name: value.name, message: value.message }
      return Inspectable.toJSON(value)
    }
  }
}

// Like Inspectable.stringifyCircular (redactable values redacted, repeated objects dropped), and
// total: a bigint anywhere is written as text instead of throwing.
const stringify = (record: Record<string, unknown>): string => {
  const seen = new WeakSet<object>()
  return JSON.stringify(record, (_key, value: unknown) => {
    if (typeof value === "bigint") return value.toString()
    if (typeof value === "object" && value !== null) {
      if (seen.has(value)) return undefined
      seen.add(value)
      return Inspectable.redact(value)
    }
    return value
  })
}

/**
 * The JSON line of a log entry (no trailing newline): `time` (ISO 8601), `level` (`trace` …
 * `fatal`), `message` (the text parts; other parts go to `details`), each annotation as a field,
 * `traceId` and `spanId` when logged inside a span, `spans` (log spans, in ms) and `cause` (a
 * failure, rendered) when present. Redacted values print as `<redacted>`, and the line passes
 * through `redact` (no launch key, link signature, token or bearer credential).
 *
 * @example
 * import { Effect, Logger } from "effect"
 * import { Observability } from "@shoplink/connector-runtime"
 * const program = Effect.logInfo("webhook received").pipe(
 *   Effect.annotateLogs({ shopId: "shop_1" }),
 *   Effect.provide(Logger.replace(Logger.defaultLogger, Logger.withConsoleLog(Observability.jsonLogger)))
 * )
 * // {"time":"2026-11-21T09:30:00.000Z","level":"info","message":"webhook received","shopId":"shop_1"}
 *
 * @since 0.1.0
 */
export const jsonLogger: Logger.Logger<unknown, string> = Logger.make(({ annotations, cause, context, date, logLevel, message, spans }) => {
  const parts = Array.isArray(message) ? message : [message]
  const texts: Array<string> = []
  const details: Array<unknown> = []
  for (const part of parts) {
    if (typeof part === "string") texts.push(part)
    else details.push(structured(part))
  }
  const record: Record<string, unknown> = {
    time: date.toISOString(),
    level: levelNames[logLevel.label] ?? logLevel.label.toLowerCase(),
    message: texts.join(" ")
  }
  if (details.length > 0) record["details"] = details.length === 1 ? details[0] : details
  const span = Context.getOption(FiberRefs.getOrDefault(context, FiberRef.currentContext), Tracer.ParentSpan)
  if (Option.isSome(span)) {
    record["traceId"] = span.value.traceId
    record["spanId"] = span.value.spanId
  }
  for (const [key, value] of HashMap.toEntries(annotations)) {
    record[reserved.has(key) ? `annotation.${key}` : key] = structured(value)
  }
  if (List.isCons(spans)) {
    const now = date.getTime()
    const timings: Record<string, number> = {}
    for (const logSpan of spans) timings[logSpan.label] = now - logSpan.startTime
    record["spans"] = timings
  }
  if (!Cause.isEmpty(cause)) record["cause"] = Cause.pretty(cause, { renderErrorCause: true })
  return redactText(stringify(record))
})

/**
 * Logger settings. `format` `auto` (the default) is `pretty` when standard output is a terminal
 * and `logfmt` otherwise (one line per entry, for journald or a container runtime).
 *
 * @example
 * import type { Observability } from "@shoplink/connector-runtime"
 * const options: Observability.LoggerOptions = { format: "json", level: "debug" }
 *
 * @since 0.1.0
 */
export interface LoggerOptions {
  readonly format?: LogFormat | "auto" | undefined
  readonly level?: LogLevelName | undefined
}

const redactPart = (part: unknown): unknown => {
  if (typeof part === "string") return redactText(part)
  if (typeof part !== "object" || part === null) return part
  const text = Inspectable.stringifyCircular(part)
  const redacted = redactText(text)
  return redacted === text ? part : redacted
}

const redactOptions = <A>(options: Logger.Logger.Options<A>): Logger.Logger.Options<A> => ({
  ...options,
  message: (Array.isArray(options.message) ? options.message.map(redactPart) : redactPart(options.message)) as A,
  annotations: HashMap.map(options.annotations, redactPart),
  cause: redactCause(options.cause)
})

const isTerminal = () => (globalThis as { process?: { stdout?: { isTTY?: boolean } } }).process?.stdout?.isTTY === true

/**
 * Replaces Effect's default logger (and the pretty logger `NodeRuntime.runMain` installs in its
 * place) with one writing `format` to standard output, so that each event is one line (or, for
 * `pretty`, one block), and sets the minimum level (default `info`). Provide it around the whole
 * program.
 *
 * @example
 * import { Effect } from "effect"
 * import { Observability } from "@shoplink/connector-runtime"
 * const program = Effect.logInfo("started").pipe(Effect.provide(Observability.layerLogger({ format: "json", level: "info" })))
 *
 * @since 0.1.0
 */
export const layerLogger = (options: LoggerOptions = {}): Layer.Layer<never> => {
  const format = options.format === undefined || options.format === "auto" ? (isTerminal() ? "pretty" : "logfmt") : options.format
  // Every format redacts: the JSON line itself (see `jsonLogger`), the logfmt line, and the
  // message, annotations and cause the pretty logger renders.
  const logger = format === "json"
    ? Logger.withConsoleLog(jsonLogger)
    : format === "logfmt"
    ? Logger.withConsoleLog(Logger.map(Logger.logfmtLogger, redactText))
    : Logger.mapInputOptions(Logger.prettyLogger(), redactOptions)
  // One layer, in one fiber: two layers merged would be built in parallel fibers, whose settings
  // are joined into the caller but not restored when the layer is released.
  return Layer.scopedDiscard(Effect.gen(function*() {
    // Effect's default logger goes, and so does the pretty logger `NodeRuntime.runMain` puts in its
    // place (unless `disablePrettyLogger`): each event is written once, by this logger only.
    yield* Effect.locallyScopedWith(
      FiberRef.currentLoggers,
      (loggers) => HashSet.add(HashSet.remove(HashSet.remove(loggers, Logger.defaultLogger), Logger.prettyLoggerDefault), logger)
    )
    yield* Effect.locallyScoped(FiberRef.currentMinimumLogLevel, levels[options.level ?? "info"])
  }))
}

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
 * import type { Observability } from "@shoplink/connector-runtime"
 * const telemetry: Observability.TelemetryOptions = {
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
 * import { Observability } from "@shoplink/connector-runtime"
 * new Observability.TelemetryUnavailable({ reason: "Cannot find package '@effect/opentelemetry'" }).message
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
 * import { Observability } from "@shoplink/connector-runtime"
 * const telemetry = Observability.layerTelemetry({ endpoint: "http://otel-collector:4318" }).pipe(
 *   Layer.provide(UndiciHttpClient.layer)
 * )
 *
 * @since 0.1.0
 */
export const layerTelemetry = (options: TelemetryOptions): Layer.Layer<never, TelemetryUnavailable, HttpClient.HttpClient> =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const [OtlpTracer, OtlpMetrics, OtlpSerialization] = yield* Effect.tryPromise({
      try: () =>
        Promise.all([
          import("@effect/opentelemetry/OtlpTracer"),
          import("@effect/opentelemetry/OtlpMetrics"),
          import("@effect/opentelemetry/OtlpSerialization")
        ]),
      catch: (error) => new TelemetryUnavailable({ reason: error instanceof Error ? error.message.split("\n")[0]! : String(error) })
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
    ).pipe(Layer.provide(options.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf))
  }))

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
 * const observability = Observability.layer({ logFormat: "json", logLevel: "info" }).pipe(Layer.provide(UndiciHttpClient.layer))
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

/**
 * A log level from a variable, case-insensitive (`warn` is `warning`), `info` when unset.
 *
 * @example
 * import { Observability } from "@shoplink/connector-runtime"
 * const level = Observability.logLevelConfig("ACME_LOG_LEVEL")
 *
 * @since 0.1.0
 */
export const logLevelConfig = (name: string): Config.Config<LogLevelName> =>
  Config.string(name).pipe(
    Config.withDefault("info"),
    Config.mapOrFail((raw) => {
      const value = raw.trim().toLowerCase()
      const level = value === "warn" ? "warning" : value === "" ? "info" : value
      return level in levels
        ? Either.right(level as LogLevelName)
        : Either.left(ConfigError.InvalidData([name], `must be one of trace, debug, info, warning, error, none (got "${raw.slice(0, 40)}")`))
    })
  )

/**
 * A log format from a variable, case-insensitive: `json`, `logfmt`, `pretty`, or `auto` (also
 * when unset or empty).
 *
 * @example
 * import { Observability } from "@shoplink/connector-runtime"
 * const format = Observability.logFormatConfig("ACME_LOG_FORMAT")
 *
 * @since 0.1.0
 */
export const logFormatConfig = (name: string): Config.Config<LogFormat | "auto"> =>
  Config.string(name).pipe(
    Config.withDefault("auto"),
    Config.mapOrFail((raw) => {
      const value = raw.trim().toLowerCase()
      const format = value === "" ? "auto" : value
      return format === "json" || format === "logfmt" || format === "pretty" || format === "auto"
        ? Either.right(format)
        : Either.left(ConfigError.InvalidData([name], `must be json, logfmt, pretty or auto (got "${raw.slice(0, 40)}")`))
    })
  )

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
 * import type { Observability } from "@shoplink/connector-runtime"
 * const names: Observability.TelemetryNames = { endpoint: "ACME_OTLP_ENDPOINT", serviceName: "ACME_SERVICE_NAME" }
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
 * import { Observability } from "@shoplink/connector-runtime"
 * const telemetry = Observability.telemetryConfig({ endpoint: "ACME_OTLP_ENDPOINT", headers: "ACME_OTLP_HEADERS" })
 *
 * @since 0.1.0
 */
export const telemetryConfig = (names: TelemetryNames): Config.Config<TelemetryOptions | undefined> =>
  Config.all({
    endpoint: Config.string(names.endpoint).pipe(Config.withDefault("")),
    protocol: names.protocol === undefined ? Config.succeed("http/protobuf" as const) : protocolConfig(names.protocol),
    headers: names.headers === undefined ? Config.succeed(Option.none()) : Config.redacted(names.headers).pipe(Config.option),
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

// Prometheus text exposition format 0.0.4.

const metricName = (name: string) => {
  const cleaned = name.replace(/[^a-zA-Z0-9_:]/g, "_")
  return /^[a-zA-Z_:]/.test(cleaned) ? cleaned : `_${cleaned}`
}
const labelName = (name: string) => {
  const cleaned = name.replace(/[^a-zA-Z0-9_]/g, "_")
  return /^[a-zA-Z_]/.test(cleaned) ? cleaned : `_${cleaned}`
}
const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, "\\\"").replace(/\n/g, "\\n")
const escapeHelp = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")
const number = (value: number | bigint) => {
  if (typeof value === "bigint") return value.toString()
  if (Number.isNaN(value)) return "NaN"
  if (value === Infinity) return "+Inf"
  if (value === -Infinity) return "-Inf"
  return String(value)
}
const labels = (pairs: ReadonlyArray<readonly [string, string]>) =>
  pairs.length === 0 ? "" : `{${pairs.map(([k, v]) => `${labelName(k)}="${escapeLabel(v)}"`).join(",")}}`

/**
 * Renders metric pairs (`Metric.snapshot`) as Prometheus text (exposition format 0.0.4): counters,
 * gauges, histograms (cumulative `_bucket{le}`, `_sum`, `_count`), summaries and frequencies (a
 * counter labelled `key`). Metric tags become labels.
 *
 * @example
 * import { Effect, Metric } from "effect"
 * import { Observability } from "@shoplink/connector-runtime"
 * const text = Effect.map(Metric.snapshot, Observability.renderPrometheus)
 *
 * @since 0.1.0
 */
export const renderPrometheus = (pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const families = new Map<string, { type: string; help: string | undefined; lines: Array<string> }>()
  const family = (name: string, type: string, help: Option.Option<string>) => {
    let found = families.get(name)
    if (found === undefined) {
      found = { type, help: Option.getOrUndefined(help), lines: [] }
      families.set(name, found)
    }
    return found
  }
  // Series in a stable order; within a histogram or summary, buckets and quantiles stay in
  // increasing order, as the format requires.
  const sorted = pairs
    .map((pair) => ({ pair, sortKey: `${metricName(pair.metricKey.name)}${labels(pair.metricKey.tags.map((t) => [t.key, t.value] as const))}` }))
    .sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0))
  for (const { pair: { metricKey, metricState } } of sorted) {
    const name = metricName(metricKey.name)
    const tags = metricKey.tags.map((tag) => [tag.key, tag.value] as const)
    if (MetricState.isCounterState(metricState)) {
      family(name, "counter", metricKey.description).lines.push(`${name}${labels(tags)} ${number(metricState.count)}`)
    } else if (MetricState.isGaugeState(metricState)) {
      family(name, "gauge", metricKey.description).lines.push(`${name}${labels(tags)} ${number(metricState.value)}`)
    } else if (MetricState.isHistogramState(metricState)) {
      const lines = family(name, "histogram", metricKey.description).lines
      for (const [boundary, count] of metricState.buckets) {
        lines.push(`${name}_bucket${labels([...tags, ["le", number(boundary)]])} ${number(count)}`)
      }
      if (!metricState.buckets.some(([boundary]) => boundary === Infinity)) {
        lines.push(`${name}_bucket${labels([...tags, ["le", "+Inf"]])} ${number(metricState.count)}`)
      }
      lines.push(`${name}_sum${labels(tags)} ${number(metricState.sum)}`, `${name}_count${labels(tags)} ${number(metricState.count)}`)
    } else if (MetricState.isSummaryState(metricState)) {
      const lines = family(name, "summary", metricKey.description).lines
      for (const [quantile, value] of metricState.quantiles) {
        if (Option.isSome(value)) lines.push(`${name}${labels([...tags, ["quantile", String(quantile)]])} ${number(value.value)}`)
      }
      lines.push(`${name}_sum${labels(tags)} ${number(metricState.sum)}`, `${name}_count${labels(tags)} ${number(metricState.count)}`)
    } else if (MetricState.isFrequencyState(metricState)) {
      const lines = family(name, "counter", metricKey.description).lines
      for (const [key, count] of metricState.occurrences) lines.push(`${name}${labels([...tags, ["key", key]])} ${number(count)}`)
    }
  }
  const out: Array<string> = []
  for (const [name, { help, lines, type }] of families) {
    if (help !== undefined && help !== "") out.push(`# HELP ${name} ${escapeHelp(help)}`)
    out.push(`# TYPE ${name} ${type}`, ...lines)
  }
  return out.length === 0 ? "" : `${out.join("\n")}\n`
}

/**
 * Effect's metric registry (every `Metric` the process updated: the runtime's
 * `shoplink_deliveries_*_total` counters, backlog gauges and shop-system call histogram, and any
 * of the application's) as Prometheus text. The runtime serves it at `GET /metrics` in its
 * `adminRouter`.
 *
 * @example
 * import { Effect } from "effect"
 * import { Observability } from "@shoplink/connector-runtime"
 * const print = Effect.flatMap(Observability.prometheus, (text) => Effect.sync(() => process.stdout.write(text)))
 *
 * @since 0.1.0
 */
export const prometheus: Effect.Effect<string> = Effect.map(Metric.snapshot, renderPrometheus)

/**
 * Text with what must never reach a log line, a span or an error message replaced: the path
 * segment after `webhooks/` or `callback/` (a launch key) becomes `:key`; the value of a `sig`,
 * `signature`, `token`, `key`, `secret`, `password`, `api_key`, `access_token`, `refresh_token`
 * or `code` query parameter becomes `…`; a `Bearer` or `Basic` credential becomes `<redacted>`;
 * the secret half of a vendor API key (`slk_<id>_…`) becomes `…`. The runtime's loggers
 * (`layerLogger`, `jsonLogger`) and tracer (`layerTelemetry`) apply it to everything they write.
 *
 * @example
 * import { Observability } from "@shoplink/connector-runtime"
 * Observability.redact("GET /shoplink/webhooks/Zx8…/order?sig=abc") // "GET /shoplink/webhooks/:key/order?sig=…"
 *
 * @since 0.1.0
 */
export const redact: (text: string) => string = redactText

/**
 * Wraps a tracer so that every span name, string attribute, event and failure (`exception.*`,
 * the status message) passes through `redact` before the tracer records it. `layerTelemetry`
 * uses it; an application with its own tracer (the OpenTelemetry SDK's, say) can wrap that one.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { Observability } from "@shoplink/connector-runtime"
 * const redacting = Layer.unwrapEffect(Effect.map(Effect.tracer, (tracer) => Layer.setTracer(Observability.redactTracer(tracer))))
 *
 * @since 0.1.0
 */
export const redactTracer: (tracer: Tracer.Tracer) => Tracer.Tracer = redactingTracer
