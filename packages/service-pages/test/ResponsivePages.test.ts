// Pages fit a phone (issue #26): every service page declares a viewport (the runtime's own pages
// are checked in @shoplink/connector-runtime); the stylesheet the pages carry is
// the one the Content-Security-Policy allows (its hash is computed from it, so it follows any
// change); a path no route serves is a small page with a link home, not an empty 404.
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { ServicePages } from "@shoplink/service-pages"
import { Html } from "@shoplink/http"
import { Effect, Redacted } from "effect"
import { createHash } from "node:crypto"
import { createServer } from "node:http"

const VIEWPORT = `<meta name="viewport" content="width=device-width, initial-scale=1">`
const styleHashOf = (page: string) => {
  const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1]
  return style === undefined ? undefined : `'sha256-${createHash("sha256").update(style).digest("base64")}'`
}

describe("responsive pages", () => {
  it("every ServicePages page declares a viewport", () => {
    const viewer = { name: "Ava", email: "ava@example.com", shopName: "Main Street Auto", csrfToken: "t" }
    const pages = {
      list: ServicePages.repairOrdersPage(viewer, []),
      signIn: ServicePages.signInPage({ csrfToken: "t", next: "/" }),
      error: ServicePages.errorPage(502, "down", viewer),
      forbidden: ServicePages.forbiddenPage(),
      notFound: ServicePages.notFoundPage(),
      repairOrder: ServicePages.repairOrderPage(viewer, {
        id: "ro_1",
        number: "1042",
        vehicle: "2019 Ford F-150",
        customer: "Dana",
        vehicleHint: undefined,
        pending: 0,
        failed: []
      }, Html.html`<h2>Parts</h2>`)
    }
    for (const [what, page] of Object.entries(pages)) expect(page, what).toContain(VIEWPORT)
    // The layout's stylesheet is what STYLE_HASH allows, byte for byte.
    for (const what of ["list", "signIn", "error", "notFound", "repairOrder"] as const) {
      expect(styleHashOf(pages[what]), what).toBe(ServicePages.STYLE_HASH)
    }
  })

  it.scoped("an unknown path answers a 404 page with a link home, with the pages' security headers", () =>
    Effect.gen(function*() {
      const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
      const url = `http://127.0.0.1:${server.address._tag === "TcpAddress" ? server.address.port : 0}`
      const pages = yield* ServicePages.make({
        users: [],
        shopName: () => Effect.succeed(undefined),
        appBaseUrl: url,
        smsName: "Acme SMS"
      })
      yield* server.serve(pages.routes({
        list: () => Effect.succeed(""),
        repairOrder: () => Effect.succeed(""),
        launch: () =>
          Effect.succeed({
            url: Redacted.make("https://d.example/"),
            repairOrder: { id: "ro_1", number: "1", vehicle: {} },
            vehicle: "vin" as const
          })
      }))
      for (const path of ["/no-such-page", "/ro/ro_1/nothing", "/favicon.ico"]) {
        const response = yield* Effect.promise(() => fetch(`${url}${path}`, { redirect: "manual" }))
        const text = yield* Effect.promise(() => response.text())
        expect(response.status, path).toBe(404)
        expect(response.headers.get("content-type"), path).toContain("text/html")
        expect(response.headers.get("content-security-policy"), path).toContain(`style-src ${ServicePages.STYLE_HASH}`)
        expect(text, path).toContain(`data-testid="home" href="/"`)
        expect(text, path).toContain(VIEWPORT)
      }
      // The routes it has still answer: the list sends a stranger to sign in.
      const list = yield* Effect.promise(() => fetch(`${url}/`, { redirect: "manual" }))
      expect(list.status).toBe(303)
      expect((yield* Effect.promise(() => fetch(`${url}/sign-in`))).status).toBe(200)
    }))
})
