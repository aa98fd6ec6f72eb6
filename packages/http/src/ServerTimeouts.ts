/**
 * How long a client may take: one set of timeouts for every `node:http` server Shoplink starts (the
 * sample services, the sandbox, the CLI's listeners, a generated connector), shorter than Node's
 * own defaults. A request over `headersTimeout` or `requestTimeout` is answered `408 Request
 * Timeout` and its connection closed.
 *
 * @since 0.1.0
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"

/**
 * The timeouts; each one left out is its default: `headersTimeout` 10 s (the request line and
 * headers), `requestTimeout` 30 s (the whole request), `keepAliveTimeout` 5 s (an idle keep-alive
 * connection).
 *
 * @example
 * import { ServerTimeouts } from "@shoplink/http"
 * const timeouts: ServerTimeouts.Options = { headersTimeout: "5 seconds", requestTimeout: "20 seconds" }
 *
 * @since 0.1.0
 */
export interface Options {
  readonly headersTimeout?: Duration.DurationInput | undefined
  readonly requestTimeout?: Duration.DurationInput | undefined
  readonly keepAliveTimeout?: Duration.DurationInput | undefined
}

const DEFAULTS = {
  headersTimeout: "10 seconds",
  requestTimeout: "30 seconds",
  keepAliveTimeout: "5 seconds"
} as const satisfies Options

/**
 * What `node:http`'s `createServer(options)` takes (milliseconds).
 *
 * @example
 * import type { ServerTimeouts } from "@shoplink/http"
 * const options: ServerTimeouts.NodeServerOptions = {
 *   headersTimeout: 10000,
 *   requestTimeout: 30000,
 *   keepAliveTimeout: 5000,
 *   connectionsCheckingInterval: 2500
 * }
 *
 * @since 0.1.0
 */
export interface NodeServerOptions {
  readonly headersTimeout: number
  readonly requestTimeout: number
  readonly keepAliveTimeout: number
  readonly connectionsCheckingInterval: number
}

const millis = (input: Duration.DurationInput) => Math.max(1, Math.round(Duration.toMillis(Duration.decode(input))))

/**
 * The options to create a `node:http` server with. `headersTimeout` is at most `requestTimeout`
 * (Node refuses more).
 *
 * @example
 * import { createServer } from "node:http"
 * import { ServerTimeouts } from "@shoplink/http"
 * const server = createServer(
 *   ServerTimeouts.nodeServerOptions({ requestTimeout: "20 seconds" }),
 *   (req, res) => res.end("ok")
 * )
 *
 * @since 0.1.0
 */
export const nodeServerOptions = (options: Options = {}): NodeServerOptions => {
  const requestTimeout = millis(options.requestTimeout ?? DEFAULTS.requestTimeout)
  const headersTimeout = Math.min(millis(options.headersTimeout ?? DEFAULTS.headersTimeout), requestTimeout)
  const keepAliveTimeout = millis(options.keepAliveTimeout ?? DEFAULTS.keepAliveTimeout)
  const connectionsCheckingInterval = Math.min(5000, Math.max(250, Math.floor(headersTimeout / 4)))
  return { headersTimeout, requestTimeout, keepAliveTimeout, connectionsCheckingInterval }
}

/**
 * Sets the timeouts on a `node:http` server that already exists (before it listens: Node reads the
 * checking interval when it starts listening). Returns the server.
 *
 * @example
 * import { createServer } from "node:http"
 * import { ServerTimeouts } from "@shoplink/http"
 * const server = ServerTimeouts.apply(createServer((req, res) => res.end("ok")))
 *
 * @since 0.1.0
 */
export const apply = <S extends { -readonly [K in keyof NodeServerOptions]?: NodeServerOptions[K] }>(
  server: S,
  options: Options = {}
): S => {
  const resolved = nodeServerOptions(options)
  // The request timeout first: Node checks the headers timeout against it.
  server.requestTimeout = resolved.requestTimeout
  server.headersTimeout = resolved.headersTimeout
  server.keepAliveTimeout = resolved.keepAliveTimeout
  server.connectionsCheckingInterval = resolved.connectionsCheckingInterval
  return server
}

/** A duration from a variable: `10` (seconds) or `10 seconds`, `500 millis`…; unset or empty is `fallback`. */
const durationConfig = (name: string, fallback: Duration.DurationInput): Config.Config<Duration.Duration> =>
  Config.string(name).pipe(
    Config.withDefault(""),
    Config.mapOrFail((raw) => {
      const text = raw.trim()
      if (text === "") return Either.right(Duration.decode(fallback))
      const decoded = /^\d+(\.\d+)?$/.test(text)
        ? Duration.seconds(Number(text))
        : Option.getOrUndefined(Duration.decodeUnknown(text))
      return decoded !== undefined && Duration.greaterThan(decoded, Duration.zero) && Duration.isFinite(decoded)
        ? Either.right(decoded)
        : Either.left(
          ConfigError.InvalidData(
            [name],
            `must be a positive duration such as 10 or "10 seconds" (got "${raw.slice(0, 40)}")`
          )
        )
    })
  )

/**
 * Names of the variables `config` reads.
 *
 * @example
 * import type { ServerTimeouts } from "@shoplink/http"
 * const names: ServerTimeouts.Names = {
 *   headersTimeout: "ACME_HEADERS_TIMEOUT",
 *   requestTimeout: "ACME_REQUEST_TIMEOUT",
 *   keepAliveTimeout: "ACME_KEEP_ALIVE_TIMEOUT"
 * }
 *
 * @since 0.1.0
 */
export interface Names {
  readonly headersTimeout: string
  readonly requestTimeout: string
  readonly keepAliveTimeout: string
}

/**
 * The timeouts from variables named `names`: each a number of seconds (`10`) or a duration
 * (`10 seconds`, `500 millis`); unset or empty is the default.
 *
 * @example
 * import { ServerTimeouts } from "@shoplink/http"
 * const timeouts = ServerTimeouts.config({
 *   headersTimeout: "ACME_HEADERS_TIMEOUT",
 *   requestTimeout: "ACME_REQUEST_TIMEOUT",
 *   keepAliveTimeout: "ACME_KEEP_ALIVE_TIMEOUT"
 * })
 *
 * @since 0.1.0
 */
export const config = (names: Names): Config.Config<Options> =>
  Config.all({
    headersTimeout: durationConfig(names.headersTimeout, DEFAULTS.headersTimeout),
    requestTimeout: durationConfig(names.requestTimeout, DEFAULTS.requestTimeout),
    keepAliveTimeout: durationConfig(names.keepAliveTimeout, DEFAULTS.keepAliveTimeout)
  })
