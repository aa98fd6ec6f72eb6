import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import * as Faults from "@shoplink/vitest-config/faults"
import { PunchoutClient } from "../src/index.js"
import { USER_AGENT, VERSION } from "../src/internal/version.js"
import { clientLayer, customer, sessionOptions } from "./support/faultServer.js"

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }

// The shared fault server recording the User-Agent of every request and answering 401 Unauthorized.
const recordingServer = Effect.map(
  Effect.acquireRelease(
    Effect.promise(() =>
      Faults.startFaultServer((_request, res) =>
        Faults.sendJson(res, 401, Faults.envelope({ code: 401, id: "UNAUTHORIZED", text: "Unauthorized" }))
      )
    ),
    (server) => Effect.promise(server.close)
  ),
  (server) => ({
    url: server.url,
    get agents(): Array<string | undefined> {
      return server.requests.map((request) => request.headers["user-agent"])
    }
  })
)

const createSessionAgainst = (url: string, options = {}) =>
  Effect.flatMap(PunchoutClient.PunchoutClient, (client) => Effect.flip(client.createSession(customer, sessionOptions)))
    .pipe(
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
