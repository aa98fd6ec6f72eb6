import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { USER_AGENT, VERSION } from "../src/internal/version.js"
import { makeClient } from "./support/client.js"
import { ok, startFaultServer } from "./support/FaultServer.js"

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }

describe("User-Agent", () => {
  it("is generated from package.json (run `pnpm build` after a version bump)", () => {
    expect(VERSION).toBe(manifest.version)
    expect(USER_AGENT).toBe(`shoplink-order-management/${manifest.version}`)
  })

  it.scopedLive("is sent on every request with the package version", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({ json: ok() }))
      const { oms } = yield* makeClient(server.url)
      yield* Effect.either(oms.accountDetails({ submitDate: new Date("2026-01-05T10:00:00Z") }))
      expect(server.requests.map((r) => r.headers["user-agent"])).toEqual([
        `shoplink-order-management/${manifest.version}`
      ])
    }))

  it.scopedLive("can be replaced by transformClient", () =>
    Effect.gen(function*() {
      const server = yield* startFaultServer(() => ({ json: ok() }))
      const { oms } = yield* makeClient(server.url, {
        transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("user-agent", "acme-sms/2.1"))
      })
      yield* Effect.either(oms.accountDetails({ submitDate: new Date("2026-01-05T10:00:00Z") }))
      expect(server.requests.map((r) => r.headers["user-agent"])).toEqual(["acme-sms/2.1"])
    }))
})
