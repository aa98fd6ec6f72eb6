// Every kind of page the connector serves (the callback page and its status pages, the parts page,
// the sign-in and signed-in pages) carries the security headers: a CSP without scripts, no framing,
// nosniff and no Referer.
import { HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@shoplink/http-node"
import { ConnectorRuntime } from "@shoplink/connector-runtime"
import { ServicePages, SignIn } from "@shoplink/service-pages"
import { SANDBOX_FIXTURES, startSandbox } from "@shoplink/sandbox"
import { Effect, Layer, Redacted } from "effect"
import { createServer } from "node:http"
import { makeMemorySms } from "../../connector-runtime/test/support/memorySms.js"

const [ford] = SANDBOX_FIXTURES.vehicles

const get = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual" })
    return { status: response.status, headers: response.headers, text: await response.text() }
  })

const expectPageHeaders = (what: string, page: { readonly headers: Headers; readonly text: string }) => {
  expect(page.headers.get("content-type"), what).toBe("text/html; charset=utf-8")
  const csp = page.headers.get("content-security-policy") ?? ""
  expect(csp, what).toContain("default-src 'none'")
  expect(csp, what).toContain("frame-ancestors 'none'")
  expect(csp, what).not.toContain("script")
  expect(page.headers.get("x-frame-options"), what).toBe("DENY")
  expect(page.headers.get("x-content-type-options"), what).toBe("nosniff")
  expect(page.headers.get("referrer-policy"), what).toBe("no-referrer")
  expect(page.headers.get("cache-control"), what).toBe("no-store")
  expect(page.text, what).not.toMatch(/<script|\son[a-z]+=/i)
}

describe("page headers", () => {
  it.scoped("the callback page, its 404 page, the parts page and the sign-in page", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const sms = makeMemorySms([{ id: "ro_a", number: "1042", vehicle: { vin: ford!.vin } }])
      const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
      const base = `http://127.0.0.1:${server.address._tag === "TcpAddress" ? server.address.port : 0}`
      const runtime = yield* ConnectorRuntime.make(sms.layer, {
        publicBaseUrl: base,
        smsVendorName: "Shoplink Tests",
        punchout: { baseUrl: sandbox.url, vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey) },
        storage: "memory",
        launchLinkSecrets: [Redacted.make("page-headers-link-secret")],
        worker: false
      }).pipe(Effect.provide(yield* Layer.build(UndiciHttpClient.layer)))
      const pages = yield* ServicePages.make({
        users: [{
          email: "ava@example.com",
          name: "Ava",
          shopId: "shop_a",
          passwordHash: yield* Effect.promise(() => SignIn.hashPassword("pw-for-headers"))
        }],
        shopName: () => Effect.succeed("Main Street Auto"),
        appBaseUrl: base,
        smsName: "Acme SMS"
      })
      const app = HttpRouter.concatAll(
        runtime.publicRouter,
        runtime.apiRouter,
        pages.routes({
          list: () => Effect.succeed("<!doctype html><p>list</p>"),
          repairOrder: () => Effect.succeed("<!doctype html><p>ro</p>"),
          launch: (input) => runtime.launch(input)
        })
      )
      yield* runtime.serve(server, HttpRouter.toHttpApp(app).pipe(Effect.flatten))
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
        sms: { apiKey: Redacted.make("sms-key") }
      })
      const launched = yield* runtime.launch({ shopId: "shop_a", repairOrderId: "ro_a" })
      const token = new URL(Redacted.value(launched.url)).searchParams.get("token")!
      const pressed = yield* Effect.withTracerEnabled(
        Effect.zipRight(
          sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 }),
          sandbox.admin.driver.press(token, "export")
        ),
        false
      )
      const seen = {
        // The callback answers 303 to itself with `?after&at`, then the page.
        callback: yield* get(
          new URL((yield* get(pressed.redirect!)).headers.get("location")!, pressed.redirect!).toString()
        ),
        unknownCallback: yield* get(`${base}/shoplink/callback/NoSuchLaunchKeyForThePageHeaders`),
        parts: yield* get(yield* runtime.partsLink({ shopId: "shop_a", repairOrderId: "ro_a" })),
        signIn: yield* get(`${base}/sign-in`)
      }
      expect([seen.callback.status, seen.unknownCallback.status, seen.parts.status, seen.signIn.status]).toEqual([
        200,
        404,
        200,
        200
      ])
      for (const [what, page] of Object.entries(seen)) expectPageHeaders(what, page)
      // The service pages allow exactly their stylesheet.
      expect(seen.signIn.headers.get("content-security-policy")).toContain(`style-src ${ServicePages.STYLE_HASH}`)
    }))
})
