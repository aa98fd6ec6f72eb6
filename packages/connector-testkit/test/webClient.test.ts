// WebClient, DemoShops and Transcript.signInEach against ServicePages on loopback, with the two
// demo shops' users on a real sandbox.
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { ServicePages } from "@shoplink/service-pages"
import { DemoShops, Transcript, WebClient } from "@shoplink/connector-testkit"
import { startSandbox } from "@shoplink/sandbox"
import { Effect, Redacted } from "effect"
import { createServer } from "node:http"

const start = Effect.gen(function*() {
  const sandbox = yield* startSandbox()
  const demo = yield* DemoShops.make(sandbox, {
    sms: [{ apiKey: Redacted.make("key-a") }, { apiKey: Redacted.make("key-b") }],
    passwords: ["password for ava", "password for ben"]
  })
  const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
  const url = `http://127.0.0.1:${server.address._tag === "TcpAddress" ? server.address.port : 0}`
  const names = new Map(demo.shops.map((shop) => [shop.id, shop.name]))
  const pages = yield* ServicePages.make({
    users: demo.signInUsers,
    shopName: (shopId) => Effect.succeed(names.get(shopId)),
    appBaseUrl: url,
    smsName: "Acme SMS"
  })
  yield* server.serve(pages.routes({
    list: (session) =>
      Effect.succeed(ServicePages.repairOrdersPage(ServicePages.viewerOf(session), [
        {
          id: `${session.shopId}-1`,
          number: session.shopId === "main-street" ? "1042" : "5201",
          vehicle: "",
          customer: "",
          vehicleHint: undefined
        }
      ])),
    repairOrder: (session, id) => Effect.succeed(ServicePages.errorPage(418, `${session.shopId} ${id}`)),
    launch: ({ repairOrderId }) =>
      Effect.succeed({
        url: Redacted.make(`${sandbox.url}/punchout/v1/ShowCatalog?token=secret&referenceID=${repairOrderId}`),
        repairOrder: { id: repairOrderId, number: "1042", vehicle: {} },
        vehicle: "none" as const
      })
  }))
  return { demo, url, sandbox }
})

describe("WebClient", () => {
  it.scoped("signs in, lists, orders parts, follows redirects, keeps and drops cookies; DemoShops' users sign in to their own shops", () =>
    Effect.gen(function*() {
      const { demo, sandbox, url } = yield* start
      expect(demo.shops.map((s) => [s.id, s.distributor.country])).toEqual([["main-street", "US"], [
        "maple-garage",
        "CA"
      ]])
      expect(demo.punchoutBaseUrl).toBe(sandbox.url)
      const anonymous = WebClient.make(url)
      const redirected = yield* Effect.promise(() => anonymous.get("/"))
      expect(redirected.status).toBe(303)
      expect((yield* Effect.promise(() => anonymous.follow(redirected))).text).toContain("name=\"csrf\"")
      expect(anonymous.csrf()).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const refused = yield* Effect.promise(() =>
        WebClient.signedIn(url, "ava@mainstreet.example", "wrong").then(() => "signed in", (e: Error) => e.message)
      )
      expect(refused).toBe("sign-in of ava@mainstreet.example answered 401")

      const lines: Array<string> = []
      const transcript = { ...Transcript.make(1), detail: (text: string) => Effect.sync(() => void lines.push(text)) }
      const [ava, ben] = yield* Transcript.signInEach(transcript, url, demo.users)
      expect(lines).toEqual([
        "ava@mainstreet.example (Main Street Auto): 1 repair orders, RO 1042",
        "ben@maplegarage.example (Maple Garage): 1 repair orders, RO 5201"
      ])
      expect(yield* Effect.promise(() => ben.repairOrders())).toEqual(["RO 5201"])
      const catalog = yield* Effect.promise(() => ava.orderParts("main-street-1"))
      expect(catalog.searchParams.get("referenceID")).toBe("main-street-1")
      expect(WebClient.withoutToken(catalog)).toBe(
        `${sandbox.url}/punchout/v1/ShowCatalog?token=<redacted>&referenceID=main-street-1`
      )
      expect(yield* Effect.promise(() => ava.waitFor("/ro/x", (text) => text.includes("main-street x")))).toContain(
        "Error 418"
      )
      const gaveUp = yield* Effect.promise(() =>
        ava.waitFor("/ro/x", () => false, { attempts: 2, intervalMillis: 1 }).then(() => "", (e: Error) => e.message)
      )
      expect(gaveUp).toBe("/ro/x: not as expected after 2 attempts (last status 200)")
      // Sign-out clears the session cookie: the list sends the browser to sign in again.
      yield* Effect.promise(() => ava.get("/"))
      expect((yield* Effect.promise(() => ava.post("/sign-out"))).status).toBe(303)
      expect(ava.cookies.size).toBe(0)
      expect((yield* Effect.promise(() => ava.get("/"))).status).toBe(303)
    }))

  it("reads table rows and the CSRF field", () => {
    expect(
      WebClient.tableRows(
        "<tr data-testid=\"line\" data-x=\"1\"><td>OF-1</td><td class=\"num\"><b>2</b></td></tr>",
        "line"
      )
    ).toEqual([["OF-1", "2"]])
    expect(WebClient.csrfOf("<input type=\"hidden\" name=\"csrf\" value=\"t0k3n\">")).toBe("t0k3n")
    expect(WebClient.withoutToken("https://parts.example/x")).toBe("https://parts.example/x")
  })
})
