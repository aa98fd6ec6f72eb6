// A bare node:http server on 127.0.0.1:0 that records requests and connections, answers as each
// test scripts it, and closes with the test's scope.
import { Deferred, Effect } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { closedPort as refusedPort } from "@shoplink/vitest-config/net"

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
    let started = 0
    let connections = 0
    const waiters: Array<() => void> = []
    const closed = yield* Deferred.make<void>()
    const server = Http.createServer((req, res) => {
      started++
      for (const wake of waiters.splice(0)) wake()
      const chunks: Array<Buffer> = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => {
        const received: Received = { method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks) }
        requests.push(received)
        handler(received, res, req)
      })
    })
    server.on("connection", (socket) => {
      connections++
      socket.on("close", () => Deferred.unsafeDone(closed, Effect.void))
    })
    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.void))
      }),
      () =>
        Effect.async<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    const port = (server.address() as AddressInfo).port
    const arrived = (n: number): Effect.Effect<void> =>
      Effect.suspend(() =>
        started >= n ? Effect.void : Effect.zipRight(
          Effect.async<void>((resume) => {
            waiters.push(() => resume(Effect.void))
          }),
          arrived(n)
        )
      )
    const result: TestServer = {
      url: `http://127.0.0.1:${port}`,
      port,
      requests,
      connections: () => connections,
      arrived,
      socketClosed: Deferred.await(closed)
    }
    return result
  })

/** A port on which nothing listens (connections are refused). */
export const closedPort: Effect.Effect<number> = Effect.promise(refusedPort)

export const sendJson = (res: Http.ServerResponse, status: number, body: unknown, headers: Http.OutgoingHttpHeaders = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify(body))
}
