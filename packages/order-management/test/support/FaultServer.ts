// A bare node:http server on 127.0.0.1:0 that answers what each test scripts, records every
// request and announces each arrival on a queue (so tests wait on events, never on time).
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Queue, type Scope } from "effect"
import { closedPort as refusedPort } from "@shoplink/vitest-config/net"

export interface Recorded {
  readonly method: string
  readonly url: URL
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

export type Reply =
  | { readonly status?: number; readonly headers?: Record<string, string>; readonly json?: unknown; readonly text?: string }
  | "hang"
  /** Sends the status line, headers and part of a body, then stalls. */
  | { readonly partial: string }

export interface FaultServer {
  /** Host URL, no trailing slash. */
  readonly url: string
  readonly requests: Array<Recorded>
  /** One item per request, as it arrives. */
  readonly arrivals: Queue.Dequeue<Recorded>
}

export const startFaultServer = (
  respond: (request: Recorded, n: number) => Reply
): Effect.Effect<FaultServer, never, Scope.Scope> =>
  Effect.gen(function*() {
    const arrivals = yield* Queue.unbounded<Recorded>()
    const requests: Array<Recorded> = []
    const server = Http.createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => {
        const recorded: Recorded = {
          method: req.method ?? "",
          url: new URL(req.url ?? "/", "http://127.0.0.1"),
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8")
        }
        requests.push(recorded)
        const reply = respond(recorded, requests.length)
        arrivals.unsafeOffer(recorded)
        if (reply === "hang") return
        if ("partial" in reply) {
          res.writeHead(200, { "content-type": "application/json", "content-length": "1000" })
          res.write(reply.partial)
          return
        }
        const text = reply.json === undefined ? reply.text ?? "" : JSON.stringify(reply.json)
        res.writeHead(reply.status ?? 200, {
          "content-type": reply.json === undefined ? "text/html" : "application/json",
          ...reply.headers
        })
        res.end(text)
      })
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
    const { port } = server.address() as AddressInfo
    return { url: `http://127.0.0.1:${port}`, requests, arrivals }
  })

/** A port nothing listens on: bind, read the port, close. */
export const closedPort: Effect.Effect<number> = Effect.promise(refusedPort)

/** A status envelope. */
export const envelope = (id: string, text: string, code = 200, extra: Record<string, unknown> = {}) => ({
  serverVersion: "test",
  status: { code, message: { ID: id, text } },
  ...extra
})

export const ok = (extra: Record<string, unknown> = {}) => envelope("API0200", "Successful", 200, extra)
