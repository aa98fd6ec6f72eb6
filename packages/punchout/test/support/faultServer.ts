// The shared fault server and wire fixtures (@shoplink/vitest-config/faults) in this package's
// terms: an Effect-scoped server that counts requests and answers as each test scripts it, for the
// faults the sandbox cannot produce (resets, HTML gateways, hangs, malformed bodies).
import type { HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { DateTime, Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import type * as Http from "node:http"
import * as Faults from "@shoplink/vitest-config/faults"
import { PunchoutClient, type PunchoutSession } from "../../src/index.js"

export interface Recorded {
  readonly method: string
  readonly path: string
  readonly query: URLSearchParams
  readonly body: string
}

/** `n` counts the requests to the same path, this one included. */
export type Handler = (request: Recorded, response: Http.ServerResponse, n: number) => void

export interface FaultServer {
  readonly url: string
  readonly port: number
  readonly requests: ReadonlyArray<Recorded>
  /** Requests so far to a path ending in `suffix` (all when omitted). */
  readonly count: (suffix?: string) => number
  /** Resolves once `n` requests to `suffix` have arrived. */
  readonly arrived: (n: number, suffix?: string) => Effect.Effect<void>
  /** Resolves once `n` client connections have closed (an aborted request closes its socket). */
  readonly closed: (n: number) => Effect.Effect<void>
}

export const yieldToEventLoop = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

export const faultServer = (handler: Handler, options: { readonly port?: number } = {}) =>
  Effect.gen(function*() {
    const requests: Array<Recorded> = []
    const server = yield* Effect.acquireRelease(
      Effect.promise(() =>
        Faults.startFaultServer((request, response, { nForPath }) => {
          const recorded: Recorded = {
            method: request.method,
            path: request.path,
            query: request.query,
            body: request.text
          }
          requests.push(recorded)
          handler(recorded, response, nForPath)
        }, options)
      ),
      (server) => Effect.promise(server.close)
    )
    const result: FaultServer = {
      url: server.url,
      port: server.port,
      requests,
      count: server.count,
      arrived: (n, suffix) => Effect.promise(() => server.waitFor((s) => s.count(suffix) >= n)),
      closed: (n) => Effect.promise(() => server.waitFor((s) => s.closedConnections() >= n))
    }
    return result
  })

/** A port on which nothing listens (connections are refused). */
export const closedPort: Effect.Effect<number> = Effect.promise(Faults.closedPort)

export const json = Faults.sendJson

export const envelope = (code: number, text: string, id?: string) =>
  Faults.envelope({ code, text, ...(id === undefined ? {} : { id }) })

export const htmlPage = (res: Http.ServerResponse, status: number, html?: string) => Faults.sendHtml(res, status, html)

export const reset = Faults.resetConnection

export const quoteLine = Faults.quoteLine

export const order = Faults.order

export const SESSION_TOKEN = "5f0c8e0a-7d7e-4c8e-9b1a-2f6f0e1d2c3b"

export const sessionFor = (
  url: string,
  token = SESSION_TOKEN,
  expiresAtMillis = 43_200_000
): PunchoutSession.PunchoutSession => ({
  customerKey: "US/100200/parts@mainstreet-auto.example",
  token: Redacted.make(token),
  urlTemplate: Redacted.make(`${url}/punchout/v1/{command}?token=${token}`),
  expiresAt: DateTime.unsafeMake(expiresAtMillis),
  serverVersion: "fault-1"
})

export const customer: PunchoutSession.Customer = {
  accountNo: "100200",
  username: "parts@mainstreet-auto.example",
  country: "US",
  apiToken: Redacted.make("sbx-token-us-100200")
}

export const sessionOptions = {
  smsVendorName: "Acme SMS",
  referenceID: "RO-1042",
  webhooks: { order: "https://sms.example/hooks/order", quote: "https://sms.example/hooks/quote" }
}

export const VENDOR_KEY = "vendor-key-secret-0001"

/**
 * The client against a base URL, on @effect/platform-node's undici HttpClient unless another
 * transport is given, with no backoff pause by default.
 */
export const clientLayer = (
  baseUrl: string,
  options: Partial<PunchoutClient.PunchoutClientOptions> = {},
  transport: Layer.Layer<HttpClient.HttpClient> = NodeHttpClient.layerUndici
) =>
  PunchoutClient.layer({
    baseUrl,
    vendorApiKey: Redacted.make(VENDOR_KEY),
    requestTimeout: "5 seconds",
    retry: { maxAttempts: 3, baseDelay: 0, maxDelay: 0 },
    ...options
  }).pipe(Layer.provide(transport))

/** Collects every log line (message and annotations) so tests can check what was logged. */
export const captureLogs = () => {
  const lines: Array<string> = []
  const logger = Logger.make(({ annotations, message }) => {
    lines.push(JSON.stringify({ message, annotations: Object.fromEntries(annotations) }))
  })
  const layer = Layer.merge(Logger.replace(Logger.defaultLogger, logger), Logger.minimumLogLevel(LogLevel.All))
  return { lines, layer }
}
