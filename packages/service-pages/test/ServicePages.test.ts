// ServicePages: the signed-in pages' guards and sign-in routes on a real loopback server, with a
// launch that answers a fixed catalog URL; and the page helpers' escaping.
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Html } from "@shoplink/http"
import { ShopSystem } from "@shoplink/connector"
import { ServicePages, SignIn } from "@shoplink/service-pages"
import { Effect, Redacted } from "effect"
import { createServer } from "node:http"

const PASSWORD = "correct horse battery"

const start = Effect.gen(function*() {
  const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
  const url = `http://127.0.0.1:${server.address._tag === "TcpAddress" ? server.address.port : 0}`
  const users = [
    {
      email: "ava@example.com",
      name: "Ava",
      shopId: "main-street",
      passwordHash: yield* Effect.promise(() => SignIn.hashPassword(PASSWORD))
    },
    {
      email: "ned@example.com",
      name: "Ned",
      shopId: "not-onboarded",
      passwordHash: yield* Effect.promise(() => SignIn.hashPassword(PASSWORD))
    }
  ]
  const pages = yield* ServicePages.make({
    users,
    shopName: (shopId) => Effect.succeed(shopId === "main-street" ? "Main Street Auto" : undefined),
    appBaseUrl: url,
    formActions: ["https://distributor.example/punchout"],
    smsName: "Acme SMS"
  })
  const routes = pages.routes({
    list: (session) =>
      Effect.succeed(ServicePages.repairOrdersPage(ServicePages.viewerOf(session), [
        { id: "ro_1", number: "1042", vehicle: "2019 Ford F-150", customer: "Dana", vehicleHint: undefined }
      ])),
    repairOrder: (
      session,
      repairOrderId
    ): Effect.Effect<string, ShopSystem.RepairOrderNotFound | ShopSystem.ShopSystemError> =>
      repairOrderId === "ro_1"
        ? Effect.succeed(ServicePages.repairOrderPage(ServicePages.viewerOf(session), {
          id: "ro_1",
          number: "1042",
          vehicle: "2019 Ford F-150",
          customer: "Dana",
          vehicleHint: undefined,
          ...ServicePages.deliveries([{ status: "pending" }, {
            id: "ec89f3a0-0000-4000-8000-000000000001",
            status: "dead",
            lastError: "applyQuote: Acme createPart (POST /parts) failed: HttpStatus 422: refused"
          }])
        }, Html.html`<h2>Parts</h2>`))
        : repairOrderId === "ro_401"
        ? Effect.fail(
          new ShopSystem.ShopSystemError({
            operation: "loadRepairOrder",
            reason: "Acme getOrder (GET /orders/ro_401) failed: HttpStatus 401: Unauthorized",
            retryable: false
          })
        )
        : repairOrderId === "ro_503"
        ? Effect.fail(
          new ShopSystem.ShopSystemError({
            operation: "loadRepairOrder",
            reason: "Acme getOrder (GET /orders/ro_503) failed: HttpStatus 503: busy",
            retryable: true
          })
        )
        : Effect.fail(new ShopSystem.RepairOrderNotFound({ shopId: session.shopId, repairOrderId })),
    launch: ({ repairOrderId }) =>
      Effect.succeed({
        url: Redacted.make(`https://distributor.example/punchout/v1/ShowCatalog?token=t&referenceID=${repairOrderId}`),
        repairOrder: { id: repairOrderId, number: "1042", vehicle: {} },
        vehicle: "vin" as const
      })
  })
  yield* server.serve(routes)
  // A browser's cookie jar, its Origin header on POSTs and the last page's CSRF token.
  const cookies = new Map<string, string>()
  let csrf = ""
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (cookies.size > 0) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "))
    const response = await fetch(`${url}${path}`, { ...init, headers, redirect: "manual" })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const [name, value] = [pair!.slice(0, pair!.indexOf("=")), pair!.slice(pair!.indexOf("=") + 1)]
      if (value === "") cookies.delete(name)
      else cookies.set(name, value)
    }
    const text = await response.text()
    csrf = /name="csrf" value="([^"]*)"/.exec(text)?.[1] ?? csrf
    return { status: response.status, location: response.headers.get("location"), headers: response.headers, text }
  }
  const post = (
    path: string,
    fields: Record<string, string>,
    origin: string = url,
    headers: Record<string, string> = {}
  ) =>
    send(path, {
      method: "POST",
      headers: { origin, "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ csrf, ...fields })
    })
  const call = <A>(f: () => Promise<A>) => Effect.promise(f)
  return { pages, call, send, post, cookies }
})

describe("ServicePages", () => {
  it.scoped("pages need a session, actions its CSRF token and the app's Origin; sign-in, the list, an RO, Order parts, sign-out", () =>
    Effect.gen(function*() {
      const { call, cookies, pages, post, send } = yield* start
      const anonymous = yield* call(() => send("/ro/ro_1"))
      expect([anonymous.status, anonymous.location]).toEqual([303, "/sign-in?next=%2Fro%2Fro_1"])
      const form = yield* call(() => send("/sign-in?next=%2Fro%2Fro_1"))
      expect(form.status).toBe(200)
      const csp = form.headers.get("content-security-policy")!
      expect(csp).toContain(`style-src ${ServicePages.STYLE_HASH}`)
      expect(csp).toContain("form-action 'self' https://distributor.example")
      expect(form.headers.get("x-frame-options")).toBe("DENY")
      expect(form.headers.get("x-content-type-options")).toBe("nosniff")
      expect(form.headers.get("referrer-policy")).toBe("no-referrer")
      expect(csp).not.toContain("script")
      // Wrong password, a user of a shop not onboarded, and a foreign Origin.
      expect((yield* call(() => post("/sign-in", { email: "ava@example.com", password: "nope", next: "/" }))).status)
        .toBe(401)
      expect((yield* call(() => post("/sign-in", { email: "ned@example.com", password: PASSWORD, next: "/" }))).status)
        .toBe(401)
      expect(
        (yield* call(() =>
          post("/sign-in", { email: "ava@example.com", password: PASSWORD, next: "/" }, "https://evil.example")
        )).status
      ).toBe(403)
      const signedIn = yield* call(() =>
        post("/sign-in", { email: " Ava@Example.com", password: PASSWORD, next: "/ro/ro_1" })
      )
      expect([signedIn.status, signedIn.location]).toEqual([303, "/ro/ro_1"])
      expect(cookies.has(pages.sessionCookie)).toBe(true)
      const list = yield* call(() => send("/"))
      expect(list.text).toContain("data-testid=\"shop-name\">Main Street Auto<")
      expect(list.text).toContain("data-ro=\"1042\"")
      const ro = yield* call(() => send("/ro/ro_1"))
      expect(ro.text).toContain("1 delivery(ies) from the distributor being added…")
      // A dead delivery in words, with a reference an administrator finds; no raw error, no command.
      expect(ro.text).toContain(
        "Could not add a delivery: Acme did not accept the part lines. Retrying cannot help, so it is not retried automatically. Your administrator has been notified (reference EC89F3A0)"
      )
      expect(ro.text).not.toContain("HttpStatus")
      expect(ro.text).toContain("<meta http-equiv=\"refresh\" content=\"2\">")
      const missing = yield* call(() => send("/ro/ro_9"))
      expect(missing.status).toBe(404)
      expect(missing.text).toContain("No such repair order in your shop.")
      // A refused key is not an outage: it says who refused and that the shop must be connected again.
      const refused = yield* call(() => send("/ro/ro_401"))
      expect(refused.status).toBe(502)
      expect(refused.text).toContain("Acme SMS refused this shop&#39;s credentials")
      expect(refused.text).toContain("the shop must be connected to Acme SMS again")
      expect(refused.text).not.toContain("could not be reached")
      const outage = yield* call(() => send("/ro/ro_503"))
      expect(outage.text).toContain(
        "The distributor or Acme SMS could not be reached. This is usually brief: try again in a minute."
      )
      expect((yield* call(() => post("/ro/ro_1/order-parts", { csrf: "wrong" }))).status).toBe(403)
      expect((yield* call(() => post("/ro/ro_1/order-parts", {}, "https://evil.example"))).status).toBe(403)
      // Under `Referrer-Policy: no-referrer` a browser's form POST says `Origin: null`: accepted only
      // with the browser's own Fetch Metadata saying the form was on this origin.
      const nullOrigin = (site: string | undefined) =>
        post("/ro/ro_1/order-parts", {}, "null", site === undefined ? {} : { "sec-fetch-site": site })
      expect((yield* call(() => nullOrigin(undefined))).status).toBe(403)
      expect((yield* call(() => nullOrigin("cross-site"))).status).toBe(403)
      expect((yield* call(() => nullOrigin("same-site"))).status).toBe(403)
      yield* call(() => send("/"))
      expect((yield* call(() => nullOrigin("same-origin"))).status).toBe(303)
      yield* call(() => send("/"))
      const launched = yield* call(() => post("/ro/ro_1/order-parts", {}))
      expect(launched.status).toBe(303)
      expect(launched.location).toBe("https://distributor.example/punchout/v1/ShowCatalog?token=t&referenceID=ro_1")
      expect(launched.headers.get("referrer-policy")).toBe("no-referrer")
      const signedOut = yield* call(() => post("/sign-out", {}))
      expect([signedOut.status, signedOut.location]).toEqual([303, "/sign-in"])
      expect((yield* call(() => send("/"))).status).toBe(303)
    }))

  it("escapes every value; the hint replaces the button or joins it; vehicles in one line", () => {
    const viewer = { name: "<b>Ava</b>", email: "ava@example.com", shopName: "O'Brien & Sons", csrfToken: "\"x" }
    const page = ServicePages.repairOrdersPage(viewer, [{
      id: "ro\"1",
      number: "1<2",
      vehicle: "<img src=x>",
      customer: "",
      vehicleHint: "add a VIN"
    }])
    expect(page).not.toContain("<img src=x>")
    expect(page).not.toContain("<b>Ava</b>")
    expect(page).toContain("data-testid=\"order-parts\"")
    expect(page).toContain("data-testid=\"vehicle-hint\">add a VIN<")
    const hintOnly = ServicePages.repairOrdersPage(viewer, [{
      id: "ro_1",
      number: "1",
      vehicle: "",
      customer: "",
      vehicleHint: "add a VIN"
    }], "hint")
    expect(hintOnly).not.toContain("data-testid=\"order-parts\"")
    expect(ServicePages.vehicleName({ year: 2019, make: "Ford", model: "F-150", vin: "1M8GDM9AXKP042788" })).toBe(
      "2019 Ford F-150 · 1M8GDM9AXKP042788"
    )
    expect(ServicePages.vehicleName({ licensePlate: "ABC123" })).toBe("Unknown vehicle · ABC123 (?)")
    expect(ServicePages.vehicleHint({ make: "Ford" }, "hint")).toBe("hint")
    expect(ServicePages.vehicleHint({ vin: "1M8GDM9AXKP042788" }, "hint")).toBeUndefined()
  })
})
