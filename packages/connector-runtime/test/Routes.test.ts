// The runtime's routes are written once (src/internal/routes.ts). For every route, the URL its
// builder gives reaches that route's handler in the runtime's routers (and no other method does),
// the lean webhook handler takes exactly the webhook URLs, and `isKeyedPath` flags exactly the
// URLs that carry a launch key or a signed link.
import { FetchHttpClient, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { ConnectorRuntime, PunchoutLauncher } from "@shoplink/connector-runtime"
import { Effect, Either, Redacted } from "effect"
import { keyedMatcher, path, type RouteName, routes, webhookRoutes } from "../src/internal/routes.js"
import { makeMemorySms } from "./support/memorySms.js"

const origin = "https://parts.sms.example"
const basePath = "/custom/base"
const keys = { key: "w3bh00kKey", callbackKey: "c4llb4ckKey" }
const grant = { shopId: "shop_1", repairOrderId: "ro_1" }

/** The URL each route's builder gives, as a request path and query. */
const builders: { readonly [N in RouteName]: (runtime: ConnectorRuntime.Runtime) => Effect.Effect<string, unknown> } = {
  webhookOrder: () => Effect.succeed(PunchoutLauncher.launchUrls(origin, basePath, keys).order),
  webhookQuote: () => Effect.succeed(PunchoutLauncher.launchUrls(origin, basePath, keys).quote),
  callback: () => Effect.succeed(PunchoutLauncher.launchUrls(origin, basePath, keys).callback),
  smsWebhook: (runtime) => runtime.smsWebhookUrl(grant.shopId),
  launch: () => Effect.succeed(path("launch", basePath)),
  launchLink: (runtime) => runtime.launchLink(grant),
  parts: (runtime) => runtime.partsLink(grant),
  // The parts page links its CSV itself: the builder is the page.
  partsCsv: (runtime) =>
    Effect.gen(function*() {
      const page = Either.getOrThrow(yield* answer(runtime, "GET", yield* runtime.partsLink(grant)))
      const html = yield* Effect.promise(() => HttpServerResponse.toWeb(page).text())
      return /data-testid="parts-csv" href="([^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&")
    }),
  health: () => Effect.succeed(path("health", basePath)),
  readiness: () => Effect.succeed(path("readiness", basePath)),
  metrics: () => Effect.succeed(path("metrics", basePath))
}

/** The runtime's routers answering one request in memory; `Left` is the router's own refusal. */
const answer = (runtime: ConnectorRuntime.Runtime, method: string, url: string) => {
  const request = HttpServerRequest.fromWeb(new Request(new URL(url, origin), { method }))
  const { adminRouter, apiRouter, healthRouter, publicRouter } = runtime
  const app = Effect.firstSuccessOf([publicRouter, apiRouter, healthRouter, adminRouter])
  return app.pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, request), Effect.either)
}

const setup = ConnectorRuntime.make(makeMemorySms([]).layer, {
  publicBaseUrl: origin,
  basePath,
  smsVendorName: "Routes test",
  punchout: { baseUrl: "http://127.0.0.1:1", vendorApiKey: Redacted.make("vendor-key") },
  storage: "memory",
  launchLinkSecrets: [Redacted.make("link-secret")],
  smsWebhookSecrets: [Redacted.make("sms-webhook-secret")],
  worker: false,
  retention: false
}).pipe(Effect.provide(FetchHttpClient.layer))

const names = Object.keys(routes) as ReadonlyArray<RouteName>

describe("the runtime's routes, written once", () => {
  it.scoped("the URL builder and the router agree on every route; another method is not routed", () =>
    Effect.gen(function*() {
      const runtime = yield* setup
      for (const name of names) {
        const url = yield* builders[name](runtime)
        const routed = yield* answer(runtime, routes[name].method, url)
        expect(Either.isRight(routed), `${name}: ${routes[name].method} ${url}`).toBe(true)
        const other = routes[name].method === "GET" ? "POST" : "GET"
        const refused = yield* answer(runtime, other, url)
        expect(Either.isLeft(refused) && refused.left._tag, `${name}: ${other} ${url}`).toBe("RouteNotFound")
      }
    }))

  it.scoped("the lean webhook handler takes the webhook URLs only, and isKeyedPath flags the URLs with a secret", () =>
    Effect.gen(function*() {
      const runtime = yield* setup
      const lean = keyedMatcher(basePath, [webhookRoutes.order, webhookRoutes.quote])
      for (const name of names) {
        const url = new URL(yield* builders[name](runtime), origin)
        const requestPath = `${url.pathname}${url.search}`
        const matched = lean(routes[name].method, requestPath)
        if (name === "webhookOrder" || name === "webhookQuote") expect(matched).toEqual({ name, key: keys.key })
        else expect(matched, name).toBeUndefined()
        const secret = routes[name].admits === "key" || routes[name].admits === "link" || url.searchParams.has("sig")
        expect(runtime.isKeyedPath(requestPath), name).toBe(secret)
      }
    }))
})
