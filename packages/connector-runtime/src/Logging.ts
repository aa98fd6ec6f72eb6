/**
 * Log lines an operator can read and ship: `json`, `logfmt` or `pretty`, at a chosen level, with
 * nothing secret in them (`redact`). `layerLogger` installs the logger; `logFormatConfig` and
 * `logLevelConfig` read the format and level from variables the application names. Logs go to
 * standard output, where the platform (systemd, a container runtime) collects them; they are not
 * exported over OTLP.
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
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
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"
import { redactCause, redactText } from "./internal/redact.js"

/**
 * How log lines are written: `json` (one object per line: `time`, `level`, `message`, the
 * annotations as fields, `traceId`/`spanId` inside a span, `cause` for failures), `logfmt` (one
 * `key=value` line) or `pretty` (Effect's multi-line, coloured output, for a terminal).
 *
 * @example
 * import type { Logging } from "@shoplink/connector-runtime"
 * const format: Logging.LogFormat = "json"
 *
 * @since 0.1.0
 */
export type LogFormat = "json" | "logfmt" | "pretty"

/**
 * The least severe level written; `none` writes nothing.
 *
 * @example
 * import type { Logging } from "@shoplink/connector-runtime"
 * const level: Logging.LogLevelName = "warning"
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
 * import { Logging } from "@shoplink/connector-runtime"
 * const program = Effect.logInfo("webhook received").pipe(
 *   Effect.annotateLogs({ shopId: "shop_1" }),
 *   Effect.provide(Logger.replace(Logger.defaultLogger, Logger.withConsoleLog(Logging.jsonLogger)))
 * )
 * // {"time":"2026-11-21T09:30:00.000Z","level":"info","message":"webhook received","shopId":"shop_1"}
 *
 * @since 0.1.0
 */
export const jsonLogger: Logger.Logger<unknown, string> = Logger.make(
  ({ annotations, cause, context, date, logLevel, message, spans }) => {
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
  }
)

/**
 * Logger settings. `format` `auto` (the default) is `pretty` when standard output is a terminal
 * and `logfmt` otherwise (one line per entry, for journald or a container runtime).
 *
 * @example
 * import type { Logging } from "@shoplink/connector-runtime"
 * const options: Logging.LoggerOptions = { format: "json", level: "debug" }
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
 * import { Logging } from "@shoplink/connector-runtime"
 * const program = Effect.logInfo("started").pipe(
 *   Effect.provide(Logging.layerLogger({ format: "json", level: "info" }))
 * )
 *
 * @since 0.1.0
 */
export const layerLogger = (options: LoggerOptions = {}): Layer.Layer<never> => {
  const format = options.format === undefined || options.format === "auto"
    ? (isTerminal() ? "pretty" : "logfmt")
    : options.format
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
      (loggers) =>
        HashSet.add(HashSet.remove(HashSet.remove(loggers, Logger.defaultLogger), Logger.prettyLoggerDefault), logger)
    )
    yield* Effect.locallyScoped(FiberRef.currentMinimumLogLevel, levels[options.level ?? "info"])
  }))
}

/**
 * A log level from a variable, case-insensitive (`warn` is `warning`), `info` when unset.
 *
 * @example
 * import { Logging } from "@shoplink/connector-runtime"
 * const level = Logging.logLevelConfig("ACME_LOG_LEVEL")
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
        : Either.left(
          ConfigError.InvalidData(
            [name],
            `must be one of trace, debug, info, warning, error, none (got "${raw.slice(0, 40)}")`
          )
        )
    })
  )

/**
 * A log format from a variable, case-insensitive: `json`, `logfmt`, `pretty`, or `auto` (also
 * when unset or empty).
 *
 * @example
 * import { Logging } from "@shoplink/connector-runtime"
 * const format = Logging.logFormatConfig("ACME_LOG_FORMAT")
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
        : Either.left(
          ConfigError.InvalidData([name], `must be json, logfmt, pretty or auto (got "${raw.slice(0, 40)}")`)
        )
    })
  )

/**
 * Text with what must never reach a log line, a span or an error message replaced: the path
 * segment after `webhooks/` or `callback/` (a launch key) becomes `:key`; the value of a `sig`,
 * `signature`, `token`, `key`, `secret`, `password`, `api_key`, `access_token`, `refresh_token`
 * or `code` query parameter becomes `…`; a `Bearer` or `Basic` credential becomes `<redacted>`;
 * the secret half of a vendor API key (`slk_<id>_…`) becomes `…`. The runtime's loggers
 * (`layerLogger`, `jsonLogger`) and tracer (`layerTelemetry`) apply it to everything they write.
 *
 * @example
 * import { Logging } from "@shoplink/connector-runtime"
 * Logging.redact("GET /shoplink/webhooks/Zx8…/order?sig=abc") // "GET /shoplink/webhooks/:key/order?sig=…"
 *
 * @since 0.1.0
 */
export const redact: (text: string) => string = redactText
