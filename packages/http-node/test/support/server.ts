// The shared fault server (@shoplink/vitest-config/faults) in this package's terms: it records
// requests and connections, answers as each test scripts it, and closes with the test's scope.
import { Effect } from "effect"
import type * as Http from "node:http"
import * as Faults from "@shoplink/vitest-config/faults"

export interface Received {
  readonly method: string
  readonly url: string
  readonly headers: Http.IncomingHttpHeaders
  readonly body: Buffer
}

export type Handler = (request: Received, response: Http.ServerResponse, raw: Http.IncomingMessage) => void

export interface TestServer {
  readonly url: string
  readonly port: number
  readonly requests: Array<Received>
  /** TCP connections accepted so far. */
  readonly connections: () => number
  /** Resolves once `n` requests have been received (their headers; the body may still be coming). */
  readonly arrived: (n: number) => Effect.Effect<void>
  /** Resolves once a client socket has closed. */
  readonly socketClosed: Effect.Effect<void>
}

export const testServer = (handler: Handler) =>
  Effect.gen(function*() {
    const requests: Array<Received> = []
    const server = yield* Effect.acquireRelease(
      Effect.promise(() =>
        Faults.startFaultServer((request, res, { raw }) => {
          const received: Received = {
            method: request.method,
            url: raw.url ?? "/",
            headers: request.headers,
            body: request.body
          }
          requests.push(received)
          handler(received, res, raw)
        })
      ),
      (server) => Effect.promise(server.close)
    )
    const result: TestServer = {
      url: server.url,
      port: server.port,
      requests,
      connections: server.connections,
      arrived: (n) => Effect.promise(() => server.waitFor((s) => s.started() >= n)),
      socketClosed: Effect.promise(() => server.waitFor((s) => s.closedConnections() >= 1))
    }
    return result
  })

/** A port on which nothing listens (connections are refused). */
export const closedPort: Effect.Effect<number> = Effect.promise(Faults.closedPort)

export const sendJson = Faults.sendJson
