// The runtime's `serve`. The platform's server span records url.full, url.query and headers, and a
// request that fails (a route not found, a bad body) ends its fiber with an error whose message holds
// the URL, which Effect logs at the debug level: so the platform's span is turned off and `serve`
// answers every failure itself. Its own `http.server` span carries the method, the redacted path (no
// key, no query string) and the status; a failure is logged once (debug below 500, error from 500),
// its rendering redacted. Probes and scrapes (the routes at the root) come every few seconds and are
// not traced.
//
// On a `NodeHttpServer`, once the app has routed a request to the public router (`announcing`), the
// webhook routes are answered by a lean `node:http` handler in front of the app on that listener
// (`WebhookReceiver.nodeHandler`: the same answers, inbox, metrics, span and log lines, without the
// platform's per-request work); every other request still goes to the app.
import * as Headers from "@effect/platform/Headers"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpRouter from "@effect/platform/HttpRouter"
import type * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpTraceContext from "@effect/platform/HttpTraceContext"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import type { LaunchRegistry } from "../../LaunchRegistry.js"
import type { WebhookInbox } from "../../WebhookInbox.js"
import { frontOnFirstRequest, makeNodeHandler, publicRouteProbe } from "../nodeWebhooks.js"
import { redactText, redactUrl } from "../redact.js"
import { rootPaths } from "../routes.js"

/** Tells `serve` that the app it serves routes requests to `router`: only then does the lean handler go in front. */
export const announcing = <E, R>(router: HttpRouter.HttpRouter<E, R>): HttpRouter.HttpRouter<E, R> =>
  router.pipe(
    HttpRouter.use((route) =>
      Effect.zipRight(Effect.flatMap(FiberRef.get(publicRouteProbe), (probe) => Effect.sync(() => probe?.())), route)
    )
  )

/** `serve` for the webhook routes under `base`, written to `inbox` with keys from `registry`. */
export const makeServe = (
  webhooks: { readonly base: string; readonly maxBodyBytes: number },
  services: { readonly inbox: WebhookInbox["Type"]; readonly registry: LaunchRegistry["Type"] }
) =>
<E, R>(
  server: HttpServer.HttpServer,
  app: HttpApp.Default<E, R>
): Effect.Effect<void, never, Exclude<R, HttpServerRequest.HttpServerRequest | Scope.Scope> | Scope.Scope> =>
  Effect.gen(function*() {
    const front = frontOnFirstRequest(makeNodeHandler(webhooks, services, yield* Effect.runtime<never>()))
    yield* Effect.addFinalizer(() => Effect.sync(front.remove))
    const traced = HttpMiddleware.make((inner) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const path = redactUrl(request.url)
        const scrub = (text: string) =>
          redactText(text.split(request.originalUrl).join(path).split(request.url).join(path))
        const answered = Effect.locally(inner, publicRouteProbe, () => front.install(request)).pipe(
          Effect.catchAllCause((cause) =>
            Effect.flatMap(HttpServerError.causeResponse(cause), ([response, rest]) =>
              Cause.isEmpty(rest) || Cause.isInterruptedOnly(rest)
                ? Effect.succeed(response)
                : (response.status >= 500 ? Effect.logError : Effect.logDebug)(
                  "request failed",
                  scrub(Cause.pretty(rest))
                ).pipe(
                  Effect.annotateLogs({ method: request.method, path, status: response.status }),
                  Effect.as(response)
                ))
          )
        )
        if (rootPaths.has(request.url.split("?")[0]!)) {
          return Effect.withTracerEnabled(answered, false)
        }
        return Effect.useSpan(`http.server ${request.method}`, {
          kind: "server",
          captureStackTrace: false,
          attributes: { "http.request.method": request.method, "url.path": path },
          ...Option.match(HttpTraceContext.fromHeaders(request.headers), {
            onNone: () => ({}),
            onSome: (parent) => ({ parent })
          })
        }, (span) =>
          Effect.tap(Effect.withParentSpan(answered, span), (response) =>
            span.attribute("http.response.status_code", response.status)))
      })
    )
    return yield* server.serve(traced(app)).pipe(
      Effect.locally(HttpMiddleware.currentTracerDisabledWhen, () => true),
      Effect.locally(Headers.currentRedactedNames, ["authorization", "cookie", "set-cookie", "location", "x-api-key"])
    )
  }) as Effect.Effect<void, never, never>
