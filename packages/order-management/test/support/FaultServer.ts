// The shared fault server (@shoplink/vitest-config/faults) in this package's terms: it answers
// what each test scripts, records every request and announces each arrival on a queue (so tests
// wait on events, never on time).
import type * as Http from "node:http"
import { Effect, Queue, type Scope } from "effect"
import * as Faults from "@shoplink/vitest-config/faults"

export interface Recorded {
  readonly method: string
  readonly url: URL
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

export type Reply =
  | {
    readonly status?: number
    readonly headers?: Record<string, string>
    readonly json?: unknown
    readonly text?: string
  }
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
    const server = yield* Effect.acquireRelease(
      Effect.promise(() =>
        Faults.startFaultServer((request, res) => {
          const recorded: Recorded = {
            method: request.method,
            url: request.url,
            headers: request.headers,
            body: request.text
          }
          requests.push(recorded)
          const reply = respond(recorded, requests.length)
          arrivals.unsafeOffer(recorded)
          if (reply === "hang") return
          if ("partial" in reply) return Faults.sendPartial(res, reply.partial)
          if (reply.json !== undefined) return Faults.sendJson(res, reply.status ?? 200, reply.json, reply.headers)
          Faults.sendText(res, reply.status ?? 200, reply.text ?? "", reply.headers)
        })
      ),
      (server) => Effect.promise(server.close)
    )
    return { url: server.url, requests, arrivals }
  })

/** A port nothing listens on: bind, read the port, close. */
export const closedPort: Effect.Effect<number> = Effect.promise(Faults.closedPort)

/** A status envelope. */
export const envelope = (id: string, text: string, code = 200, extra: Record<string, unknown> = {}) =>
  Faults.envelope({ id, text, code, serverVersion: "test", extra })

export const ok = (extra: Record<string, unknown> = {}) => envelope("API0200", "Successful", 200, extra)
