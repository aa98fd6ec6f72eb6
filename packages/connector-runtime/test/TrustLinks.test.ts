// Signed links over real HTTP against the sandbox: a link works only on the route of its purpose.
// A parts link (what an SMS repair-order page shows) sent to the launch route opens no
// distributor session: every request the runtime makes to the distributor is recorded.
import { HttpClient, HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@shoplink/http-node"
import { ConnectorRuntime, LaunchLinks } from "@shoplink/connector-runtime"
import { SANDBOX_FIXTURES, startSandbox } from "@shoplink/sandbox"
import { Effect, Layer, Redacted } from "effect"
import { createServer } from "node:http"
import { makeMemorySms } from "./support/memorySms.js"

const [ford] = SANDBOX_FIXTURES.vehicles
const linkSecret = Redacted.make("trust-links-secret-for-tests")

const setup = Effect.gen(function*() {
  const sandbox = yield* startSandbox()
  const sms = makeMemorySms([{ id: "ro_a", number: "1042", vehicle: { vin: ford!.vin } }])
  const distributorCalls: Array<string> = []
  const recordingClient = Layer.effect(
    HttpClient.HttpClient,
    Effect.map(
      HttpClient.HttpClient,
      HttpClient.tapRequest((request) => Effect.sync(() => distributorCalls.push(`${request.method} ${request.url}`)))
    )
  ).pipe(Layer.provide(UndiciHttpClient.layer))
  const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
  const port = server.address._tag === "TcpAddress" ? server.address.port : 0
  const publicBaseUrl = `http://127.0.0.1:${port}`
  const runtime = yield* ConnectorRuntime.make(sms.layer, {
    publicBaseUrl,
    smsVendorName: "Shoplink Tests",
    punchout: { baseUrl: sandbox.url, vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey) },
    storage: "memory",
    launchLinkSecrets: [linkSecret],
    worker: false,
    retention: false
  }).pipe(Effect.provide(yield* Layer.build(recordingClient)))
  yield* runtime.serve(
    server,
    HttpRouter.concat(runtime.publicRouter, runtime.apiRouter).pipe(HttpRouter.toHttpApp, Effect.flatten)
  )
  const { us } = sandbox.credentials.customers
  yield* runtime.shops.add({
    id: "shop_a",
    name: "Main Street Auto",
    distributor: {
      accountNo: us.accountNo,
      username: us.username,
      country: "US",
      apiToken: Redacted.make(us.apiToken)
    },
    sms: { apiKey: Redacted.make("sms-key-of-shop-a-0001") }
  })
  return { sandbox, runtime, publicBaseUrl, distributorCalls }
})

const request = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual" })
    return { status: response.status, location: response.headers.get("location"), text: await response.text() }
  })

const queryOf = (link: string) => new URL(link).search

describe("signed links and their purpose", () => {
  it.scoped("a parts link sent to the launch route is 403 and opens no distributor session", () =>
    Effect.gen(function*() {
      const { distributorCalls, publicBaseUrl, runtime, sandbox } = yield* setup
      const partsLink = yield* runtime.partsLink({ shopId: "shop_a", repairOrderId: "ro_a" })
      expect(partsLink.startsWith(`${publicBaseUrl}/shoplink/parts?`)).toBe(true)
      // On its own route it shows the parts page (and the CSV).
      expect((yield* request(partsLink)).status).toBe(200)
      expect((yield* request(`${publicBaseUrl}/shoplink/parts.csv${queryOf(partsLink)}`)).status).toBe(200)

      // The same query on the launch route: refused before anything is launched.
      const refused = yield* request(`${publicBaseUrl}/shoplink/launch/link${queryOf(partsLink)}`)
      expect(refused.status).toBe(403)
      expect(refused.location).toBeNull()
      expect(refused.text).not.toContain(sandbox.url)
      expect(distributorCalls).toEqual([])

      // And a launch link is refused on the parts routes.
      const launchLink = yield* runtime.launchLink({ shopId: "shop_a", repairOrderId: "ro_a" })
      for (const path of ["/shoplink/parts", "/shoplink/parts.csv"]) {
        const wrong = yield* request(`${publicBaseUrl}${path}${queryOf(launchLink)}`)
        expect(wrong.status, path).toBe(403)
        expect(wrong.text, path).not.toContain("ro_a")
      }
      expect(distributorCalls).toEqual([])

      // The launch link on its own route opens a session (so the recorder does see launches).
      const launched = yield* request(launchLink)
      expect(launched.status).toBe(303)
      expect(launched.location).toContain(`${sandbox.url}/`)
      expect(distributorCalls.some((call) => call.startsWith(`POST ${sandbox.url}/punchout/`))).toBe(true)
    }))

  it.scoped("a link in another spelling (a sig's unused bits, a leading zero in exp) is 403 and opens no session", () =>
    Effect.gen(function*() {
      const { distributorCalls, runtime } = yield* setup
      const launchLink = new URL(yield* runtime.launchLink({ shopId: "shop_a", repairOrderId: "ro_a" }))
      const sig = launchLink.searchParams.get("sig")!
      const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
      const respelled = new URL(launchLink)
      respelled.searchParams.set("sig", sig.slice(0, -1) + alphabet[alphabet.indexOf(sig.at(-1)!) + 1])
      const padded = new URL(launchLink)
      padded.searchParams.set("exp", `0${launchLink.searchParams.get("exp")}`)
      for (const url of [respelled, padded]) {
        expect((yield* request(url.toString())).status, url.search).toBe(403)
      }
      expect(distributorCalls).toEqual([])
      // The canonical link still works.
      expect((yield* request(launchLink.toString())).status).toBe(303)
    }))

  it("LaunchLinks.url builds the route of each purpose", () => {
    const grant = { shopId: "shop_a", repairOrderId: "ro_a", expiresAt: 2_000_000_000 }
    expect(new URL(LaunchLinks.url("https://x.example", "/shoplink", linkSecret, grant, "parts")).pathname).toBe(
      "/shoplink/parts"
    )
    expect(new URL(LaunchLinks.url("https://x.example", "/shoplink", linkSecret, grant, "launch")).pathname).toBe(
      "/shoplink/launch/link"
    )
  })
})
