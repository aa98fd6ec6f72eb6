import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { PunchoutClient } from "../src/index.js"
import { USER_AGENT, VERSION } from "../src/internal/version.js"
import { clientLayer, customer, sessionOptions } from "./support/faultServer.js"

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }

// A node:http server that records the User-Agent of every request and answers 401 Unauthorized.
const recordingServer = Effect.gen(function*() {
  const agents: Array<string | undefined> = []
  const server = Http.createServer((req, res) => {
    agents.push(req.headers["user-agent"])
    req.resume()
    req.on("end", () => {
      res.writeHead(401, { "content-type": "application/json" })
      res.end(JSON.stringify({ status: { code: 401, message: { ID: "UNAUTHORIZED", text: "Unauthorized" } } }))
    })
  })
  yield* Effect.acquireRelease(
    Effect.async<void>((resume) => {
      server.listen(0, "127.0.0.1", () => resume(Effect.void))
    }),
    () =>
      Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, agents }
})

const createSessionAgainst = (url: string, options = {}) =>
  Effect.flatMap(PunchoutClient.PunchoutClient, (client) => Effect.flip(client.createSession(customer, sessionOptions))).pipe(
    Effect.provide(clientLayer(url, options))
  )

describe("User-Agent", () => {
  it("is generated from package.json (run `pnpm build` after a version bump)", () => {
    expect(VERSION).toBe(manifest.version)
    expect(USER_AGENT).toBe(`shoplink-punchout/${manifest.version}`)
  })

  it.scoped("is sent on every request with the package version", () =>
    Effect.gen(function*() {
      const server = yield* recordingServer
      const error = yield* createSessionAgainst(server.url)
      expect(error._tag).toBe("Unauthorized")
      expect(server.agents).toEqual([`shoplink-punchout/${manifest.version}`])
    }))

  it.scoped("can be replaced by transformClient", () =>
    Effect.gen(function*() {
      const server = yield* recordingServer
      yield* createSessionAgainst(server.url, {
        transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("user-agent", "acme-sms/2.1"))
      })
      expect(server.agents).toEqual(["acme-sms/2.1"])
    }))
})
