// A real webhook receiver on 127.0.0.1:0 that records what it gets.
import { Effect } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface Received {
  readonly path: string
  readonly body: any
}

/** `respond` decides each answer: a status, or "hang" to never answer. */
export const receiver = (respond: (n: number) => number | "hang" = () => 200) =>
  Effect.acquireRelease(
    Effect.async<{ url: string; received: Array<Received> }>((resume) => {
      const received: Array<Received> = []
      const pending: Array<ServerResponse> = []
      let n = 0
      const server = createServer((req: IncomingMessage, res: ServerResponse) => {
        let data = ""
        req.on("data", (chunk) => (data += chunk))
        req.on("end", () => {
          received.push({ path: req.url ?? "", body: JSON.parse(data || "null") })
          const answer = respond(n++)
          if (answer === "hang") return void pending.push(res)
          res.writeHead(answer).end()
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const port = (server.address() as AddressInfo).port
        resume(Effect.succeed(Object.assign({ url: `http://127.0.0.1:${port}`, received }, { server, pending })))
      })
    }),
    (r) =>
      Effect.async<void>((resume) => {
        const { pending, server } = r as unknown as {
          server: ReturnType<typeof createServer>
          pending: Array<ServerResponse>
        }
        for (const res of pending) res.destroy()
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )
