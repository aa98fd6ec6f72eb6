// A bare node:http server on 127.0.0.1:0 that counts requests and answers as each test scripts it,
// for the faults the sandbox cannot produce (resets, HTML gateways, hangs, malformed bodies).
import type { HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { DateTime, Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { PunchoutClient, type PunchoutSession } from "../../src/index.js"
import { closedPort as refusedPort } from "@shoplink/vitest-config/net"

export interface Recorded {
  readonly method: string
  readonly path: string
  readonly query: URLSearchParams
  readonly body: string
}

export type Handler = (request: Recorded, response: Http.ServerResponse, n: number) => void

export interface FaultServer {
  readonly url: string
  readonly port: number
  readonly requests: Array<Recorded>
  /** Requests so far to a path ending in `suffix` (all when omitted). */
  readonly count: (suffix?: string) => number
  /** Resolves once `n` requests to `suffix` have arrived. */
  readonly arrived: (n: number, suffix?: string) => Effect.Effect<void>
  /** Resolves once `n` client connections have closed (an aborted request closes its socket). */
  readonly closed: (n: number) => Effect.Effect<void>
}

export const yieldToEventLoop = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

const listen = (server: Http.Server, port: number) =>
  Effect.async<void>((resume) => {
    server.listen(port, "127.0.0.1", () => resume(Effect.void))
  })

export const faultServer = (handler: Handler, options: { readonly port?: number } = {}) =>
  Effect.gen(function*() {
    const requests: Array<Recorded> = []
    const server = Http.createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://127.0.0.1")
        const recorded: Recorded = {
          method: req.method ?? "GET",
          path: url.pathname,
          query: url.searchParams,
          body: Buffer.concat(chunks).toString("utf8")
        }
        requests.push(recorded)
        handler(recorded, res, requests.filter((r) => r.path === recorded.path).length)
      })
    })
    let closedConnections = 0
    server.on("connection", (socket) => socket.on("close", () => closedConnections++))
    yield* Effect.acquireRelease(listen(server, options.port ?? 0), () =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      }))
    const port = (server.address() as AddressInfo).port
    const count = (suffix?: string) => requests.filter((r) => suffix === undefined || r.path.endsWith(suffix)).length
    const arrived = (n: number, suffix?: string): Effect.Effect<void> =>
      Effect.suspend(() => count(suffix) >= n ? Effect.void : Effect.zipRight(yieldToEventLoop, arrived(n, suffix)))
    const closed = (n: number): Effect.Effect<void> =>
      Effect.suspend(() => closedConnections >= n ? Effect.void : Effect.zipRight(yieldToEventLoop, closed(n)))
    const result: FaultServer = { url: `http://127.0.0.1:${port}`, port, requests, count, arrived, closed }
    return result
  })

/** A port on which nothing listens (connections are refused). */
export const closedPort: Effect.Effect<number> = Effect.promise(refusedPort)

export const json = (res: Http.ServerResponse, status: number, body: unknown, headers: Http.OutgoingHttpHeaders = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify(body))
}

export const envelope = (code: number, text: string, id?: string) => ({
  serverVersion: "fault-1",
  status: { code, message: { text, ...(id === undefined ? {} : { ID: id }) } }
})

export const htmlPage = (res: Http.ServerResponse, status: number, html = "<html><body><h1>502 Bad Gateway</h1></body></html>") => {
  res.writeHead(status, { "content-type": "text/html" })
  res.end(html)
}

export const reset = (res: Http.ServerResponse) => {
  res.socket?.destroy()
}

export const quoteLine = (overrides: Record<string, unknown> = {}) => ({
  acaPartTerminologyID: 1684,
  productID: "51515",
  brandID: "WIX",
  categoryID: "FLT",
  productDesc: "Oil Filter",
  orderByTime: 1763769600000,
  dispatchTime: 1763773200000,
  quantityAvail: 12,
  quantityReq: 1,
  price: 6.49,
  listPrice: 9.99,
  corePrice: 0,
  weight: 0.8,
  quality: "",
  makeId: 0,
  subtotal: 6.49,
  ...overrides
})

export const order = (overrides: Record<string, unknown> = {}) => ({
  orderID: "10423",
  orderCreateTime: 1763769600000,
  orderLines: [],
  comment: "",
  status: "0",
  statusDescription: "In shopping cart",
  ...overrides
})

export const SESSION_TOKEN = "5f0c8e0a-7d7e-4c8e-9b1a-2f6f0e1d2c3b"

export const sessionFor = (url: string, token = SESSION_TOKEN, expiresAtMillis = 43_200_000): PunchoutSession.PunchoutSession => ({
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
