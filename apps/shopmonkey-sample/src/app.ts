// The integration service: sign-in, the repair order pages and "Order parts" (launch → the
// distributor's catalog) for the signed-in user's shop, on the connector's runtime (shops with
// sealed secrets, launch keys, the webhook inbox and worker, the public webhook and callback routes).
//
// What is public: the runtime's webhook and callback routes (each keyed by an unguessable launch
// key), /healthz, /readyz and /sign-in. /metrics needs a vendor API key. Everything else needs a
// session; every POST needs the session's CSRF token and a same-origin Origin (or Referer).
import { HttpIncomingMessage, HttpRouter, type HttpServer, HttpServerRequest, HttpServerResponse, UrlParams } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { ShopmonkeyClient, ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
import { ConnectorRuntime, PunchoutLauncher, ShopSystem } from "@shoplink/connector"
import { UndiciHttpClient } from "@shoplink/http-node"
import { Data, Effect, Either, Layer, Option, Redacted, type Scope } from "effect"
import { createHash } from "node:crypto"
import { createServer } from "node:http"
import { hashPassword, makeSessions, makeSignInTokens, makeThrottle, randomToken, safeEqual, type Session, verifyPassword } from "./auth.js"
import type { Settings, User } from "./settings.js"
import {
  errorPage,
  forbiddenPage,
  type PartRow,
  repairOrderPage,
  repairOrdersPage,
  type RepairOrderView,
  signInPage,
  STYLE_HASH,
  type Viewer
} from "./views.js"

export interface RunningApp {
  /** Where the pages are served (the main listener). */
  readonly url: string
  /** Where the public routes are served: `url`, unless `publicPort` gave them a listener of their own. */
  readonly publicUrl: string
  /** Where users' browsers reach the pages (links, the Origin check, the Secure cookie). */
  readonly appBaseUrl: string
  /** Where the distributor and browsers reach the public routes (webhook and callback URLs). */
  readonly publicBaseUrl: string
  /** The session cookie's name (`__Host-` prefixed when the pages are on https). */
  readonly sessionCookie: string
  /** The connector runtime: shops, inbox, launches (the demo and tests look into it). */
  readonly runtime: ConnectorRuntime.Runtime
}

/** The service could not start: one line saying why. */
export class StartFailed extends Data.TaggedError("StartFailed")<{ readonly message: string }> {}

// Shopmonkey's public API gives no web link for an order, so this service links the callback page
// back to its own RO page.
const withRepairOrderLinks = (appBaseUrl: string) =>
  Layer.effect(
    ShopSystem.ShopSystem,
    Effect.map(ShopSystem.ShopSystem, (inner) => ({
      ...inner,
      capabilities: new Set([...inner.capabilities, "linkToRepairOrder" as const]),
      loadRepairOrder: (ref: { readonly shopId: string; readonly repairOrderId: string }) =>
        Effect.map(inner.loadRepairOrder(ref), (ro) => ({ ...ro, url: `${appBaseUrl}/ro/${encodeURIComponent(ro.id)}` }))
    }))
  )

const vehicleName = (vehicle: ShopSystem.Vehicle) => {
  const name = [vehicle.year, vehicle.make, vehicle.model].filter((x) => x !== undefined).join(" ")
  const id = vehicle.vin ?? (vehicle.licensePlate ? `${vehicle.licensePlate} (${vehicle.licensePlateState ?? "?"})` : undefined)
  return [name || "Unknown vehicle", id].filter((x) => x !== undefined).join(" · ")
}

// Shopmonkey keeps a VIN and a plate with its state; the distributor finds a vehicle by either. Said
// before launching, since without one the catalog opens on no vehicle at all.
const vehicleHint = (vehicle: ShopSystem.Vehicle): string | undefined =>
  PunchoutLauncher.vehicleParameters(vehicle).identifier === "none"
    ? "No VIN or license plate with its state: the catalog will open without this vehicle. Add one to the vehicle in Shopmonkey first."
    : undefined

const originOf = (url: string) => new URL(url).origin

/** A local path to return to after sign-in: the list or an RO page, nothing else (no open redirect). */
const safeNext = (next: string | undefined) => next !== undefined && /^\/(ro\/[A-Za-z0-9._~%-]{1,200})?$/.test(next) ? next : "/"

const SIGN_IN_FAILED = "The email or password is incorrect."
const MAX_FORM_BYTES = 16 * 1024

export const startApp = (settings: Settings): Effect.Effect<RunningApp, StartFailed, Scope.Scope> =>
  Effect.gen(function*() {
    const listen = (port: number) =>
      NodeHttpServer.make(() => createServer(), { port, host: settings.host }).pipe(
        Effect.mapError((error) => new StartFailed({ message: `cannot listen on ${settings.host}:${port}: ${error.message}` }))
      )
    const addressOf = (server: HttpServer.HttpServer, port: number) =>
      `http://${settings.host}:${server.address._tag === "TcpAddress" ? server.address.port : port}`
    const server = yield* listen(settings.port)
    const url = addressOf(server, settings.port)
    const publicServer = settings.publicPort === undefined ? undefined : yield* listen(settings.publicPort)
    const publicUrl = publicServer === undefined ? url : addressOf(publicServer, settings.publicPort!)
    const publicBaseUrl = (settings.publicBaseUrl ?? publicUrl).replace(/\/+$/, "")
    const appBaseUrl = (settings.appBaseUrl ?? (publicServer === undefined ? publicBaseUrl : url)).replace(/\/+$/, "")

    // One lean HttpClient for the distributor and Shopmonkey (see @shoplink/http-node), living as
    // long as the service.
    const http = yield* Layer.build(UndiciHttpClient.layer)
    const shopSystem = withRepairOrderLinks(appBaseUrl).pipe(
      Layer.provide(ShopmonkeyShopSystem.layerPerShop({ baseUrl: settings.shopmonkeyBaseUrl }))
    )
    const runtime = yield* ConnectorRuntime.make(shopSystem, {
      publicBaseUrl,
      smsVendorName: settings.smsVendorName,
      punchout: { baseUrl: settings.punchoutBaseUrl, vendorApiKey: settings.vendorApiKey },
      storage: settings.database,
      secretKeys: settings.secretKeys,
      worker: { pollInterval: "100 millis", baseDelay: "1 second", maxAttempts: 8 }
    }).pipe(
      Effect.provide(http),
      Effect.mapError((error) => new StartFailed({ message: error.message }))
    )
    for (const shop of settings.shops) {
      yield* runtime.shops.add(shop, { replace: true }).pipe(
        Effect.mapError((error) => new StartFailed({ message: `onboarding shop ${shop.id}: ${error.message}` }))
      )
    }
    const shops = yield* runtime.shops.list().pipe(Effect.orElseSucceed(() => []))
    const known = new Set(shops.map((shop) => shop.id))
    // A key ring that cannot open what the database holds is said at start-up, not at the first launch.
    for (const shop of shops) {
      yield* runtime.shops.smsCredentials(shop.id).pipe(
        Effect.catchAll((error) => Effect.logWarning(`shop ${shop.id}: ${error.message}`))
      )
    }
    for (const user of settings.users) {
      if (!known.has(user.shopId)) {
        yield* Effect.logWarning(`user ${user.email} belongs to shop ${user.shopId}, which is not onboarded: onboard it with \`shoplink shops add ${user.shopId} …\``)
      }
    }

    // Sign-in state.
    const users = new Map<string, User>(settings.users.map((u) => [u.email.toLowerCase(), u]))
    const sessions = makeSessions()
    const signInTokens = makeSignInTokens()
    const throttle = makeThrottle()
    // Compared against when the email is unknown, so an unknown email costs what a wrong password does.
    const decoyHash = yield* Effect.promise(() => hashPassword(randomToken()))
    const secure = appBaseUrl.startsWith("https:")
    const sessionCookie = secure ? "__Host-shoplink_session" : "shoplink_session"
    const signInCookie = secure ? "__Host-shoplink_signin" : "shoplink_signin"
    const cookieOptions = { httpOnly: true, sameSite: "lax", path: "/", secure } as const
    // Browsers send Origin on every POST; a same-origin POST comes from the pages' own address.
    const ownOrigins = new Set([originOf(appBaseUrl), originOf(url)])

    // Per shop, the Shopmonkey client the pages list orders and services with (the shop's own key:
    // a shop's pages read nothing but its own Shopmonkey account).
    const clients = new Map<string, { readonly keyDigest: string; readonly client: ShopmonkeyClient.Service }>()
    const clientFor = (shopId: string) =>
      Effect.gen(function*() {
        const secrets = yield* runtime.shops.smsCredentials(shopId)
        const apiKey = secrets[ShopmonkeyShopSystem.API_KEY_SECRET]
        if (apiKey === undefined) {
          return yield* new ShopSystem.ShopSystemError({ operation: "listOrders", reason: `no Shopmonkey API key for shop ${shopId}`, retryable: false })
        }
        const keyDigest = createHash("sha256").update(Redacted.value(apiKey)).digest("base64url")
        const cached = clients.get(shopId)
        if (cached !== undefined && cached.keyDigest === keyDigest) return cached.client
        const client = yield* ShopmonkeyClient.make({ baseUrl: settings.shopmonkeyBaseUrl, apiKey }).pipe(Effect.provide(http))
        clients.set(shopId, { keyDigest, client })
        return client
      })

    // Responses.
    const csp = [
      "default-src 'none'",
      `style-src ${STYLE_HASH}`,
      "img-src 'self'",
      // The Order parts form posts here and is redirected to the distributor's catalog.
      `form-action 'self' ${originOf(settings.punchoutBaseUrl)}`,
      "frame-ancestors 'none'",
      "base-uri 'none'"
    ].join("; ")
    const pageHeaders = {
      "content-security-policy": csp,
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "referrer-policy": "same-origin",
      "cache-control": "no-store"
    }
    const page = (body: string, status = 200) =>
      HttpServerResponse.text(body, { status, contentType: "text/html; charset=utf-8", headers: pageHeaders })
    const seeOther = (location: string, headers: Record<string, string> = {}) =>
      HttpServerResponse.empty({ status: 303, headers: { location, "cache-control": "no-store", ...headers } })
    const refuse = (reason: string) =>
      Effect.as(Effect.logWarning("request refused").pipe(Effect.annotateLogs({ reason })), page(forbiddenPage(), 403))

    const viewerOf = (session: Session): Viewer => ({ name: session.name, email: session.email, shopName: session.shopName, csrfToken: session.csrfToken })
    const failed = (viewer: Viewer) => (error: { readonly _tag: string; readonly message: string }) => {
      const [status, message] = error._tag === "RepairOrderNotFound" || error._tag === "CredentialsNotFound" || error._tag === "ShopNotFound"
        ? [404, "No such repair order in your shop."]
        : error._tag === "VehicleRequired" || error._tag === "CredentialsRevoked"
        ? [error._tag === "VehicleRequired" ? 422 : 409, error.message]
        : [502, "The distributor or Shopmonkey could not be reached; try again."]
      return Effect.logWarning("request failed", error.message).pipe(Effect.as(page(errorPage(status, message, viewer), status)))
    }

    const request = HttpServerRequest.HttpServerRequest
    const sessionOf = (req: HttpServerRequest.HttpServerRequest) => sessions.get(req.cookies[sessionCookie])
    const fromOwnOrigin = (req: HttpServerRequest.HttpServerRequest) => {
      if (req.headers["sec-fetch-site"] === "cross-site") return false
      const origin = req.headers["origin"]
      if (origin !== undefined) return ownOrigins.has(origin)
      const referer = req.headers["referer"]
      if (referer === undefined) return false
      try {
        return ownOrigins.has(new URL(referer).origin)
      } catch {
        return false
      }
    }
    const readForm = Effect.flatMap(request, (req) => req.urlParamsBody).pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(MAX_FORM_BYTES)),
      Effect.map((params) => (name: string) => Option.getOrUndefined(UrlParams.getFirst(params, name))),
      Effect.either
    )

    /** A page for signed-in users; anyone else is sent to sign in (and back here after). */
    const signedInPage = <E, R>(handler: (session: Session) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
      Effect.gen(function*() {
        const req = yield* request
        const session = sessionOf(req)
        if (session === undefined) return seeOther(`/sign-in?next=${encodeURIComponent(safeNext(req.url.split("?")[0]))}`)
        return yield* handler(session)
      })

    /** An action: same origin, signed in, and the session's CSRF token, else 403 with nothing in it. */
    const signedInAction = <E, R>(handler: (session: Session, sessionId: string) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
      Effect.gen(function*() {
        const req = yield* request
        if (!fromOwnOrigin(req)) return yield* refuse("cross-site or no Origin")
        const sessionId = req.cookies[sessionCookie]
        const session = sessions.get(sessionId)
        if (session === undefined || sessionId === undefined) return yield* refuse("not signed in")
        const form = yield* readForm
        if (Either.isLeft(form) || !safeEqual(form.right("csrf") ?? "", session.csrfToken)) return yield* refuse("missing or wrong CSRF token")
        return yield* handler(session, sessionId)
      })

    const signInForm = (options: { readonly next: string; readonly email?: string; readonly error?: string }, status = 200) =>
      Effect.gen(function*() {
        const req = yield* request
        const existing = req.cookies[signInCookie]
        const nonce = signInTokens.isNonce(existing) ? existing : signInTokens.newNonce()
        const response = page(signInPage({ ...options, csrfToken: signInTokens.token(nonce) }), status)
        return nonce === existing ? response : HttpServerResponse.unsafeSetCookie(response, signInCookie, nonce, { ...cookieOptions, maxAge: "1 hour" })
      })

    const showSignIn = Effect.gen(function*() {
      const req = yield* request
      const next = safeNext(new URL(req.url, "http://x").searchParams.get("next") ?? undefined)
      if (sessionOf(req) !== undefined) return seeOther(next)
      return yield* signInForm({ next })
    })

    const signIn = Effect.gen(function*() {
      const req = yield* request
      if (!fromOwnOrigin(req)) return yield* refuse("sign-in from another origin")
      const form = yield* readForm
      if (Either.isLeft(form) || !signInTokens.verify(req.cookies[signInCookie], form.right("csrf"))) {
        return yield* refuse("sign-in without its form token")
      }
      const field = form.right
      const email = (field("email") ?? "").trim().toLowerCase().slice(0, 320)
      const password = (field("password") ?? "").slice(0, 1024)
      const next = safeNext(field("next"))
      const user = users.get(email)
      // Always one scrypt, whether or not the email is known.
      const matches = yield* Effect.promise(() => verifyPassword(password, user?.passwordHash ?? decoyHash))
      const shop = user === undefined ? undefined : yield* runtime.shops.get(user.shopId).pipe(Effect.option, Effect.map(Option.getOrUndefined))
      if (throttle.blocked(email) || user === undefined || !matches || shop === undefined) {
        throttle.failed(email)
        yield* Effect.logWarning("sign-in failed").pipe(
          Effect.annotateLogs({ reason: user !== undefined && matches && shop === undefined ? "the user's shop is not onboarded" : "wrong email or password" })
        )
        return yield* signInForm({ next, email, error: SIGN_IN_FAILED }, 401)
      }
      throttle.succeeded(email)
      // A fresh session id at every sign-in; the one the browser had (if any) is dropped.
      sessions.remove(req.cookies[sessionCookie])
      const created = sessions.create({ email: user.email, name: user.name, shopId: user.shopId, shopName: shop.name })
      yield* Effect.logInfo("signed in").pipe(Effect.annotateLogs({ user: user.email, shopId: user.shopId }))
      return seeOther(next).pipe(
        HttpServerResponse.unsafeSetCookie(sessionCookie, created.id, { ...cookieOptions, maxAge: `${sessions.lifetimeSeconds} seconds` }),
        HttpServerResponse.unsafeSetCookie(signInCookie, "", { ...cookieOptions, maxAge: 0 })
      )
    })

    const signOut = signedInAction((session, sessionId) =>
      Effect.gen(function*() {
        sessions.remove(sessionId)
        yield* Effect.logInfo("signed out").pipe(Effect.annotateLogs({ user: session.email }))
        return seeOther("/sign-in").pipe(HttpServerResponse.unsafeSetCookie(sessionCookie, "", { ...cookieOptions, maxAge: 0 }))
      })
    )

    const list = signedInPage((session) =>
      Effect.gen(function*() {
        const client = yield* clientFor(session.shopId)
        const orders = yield* client.listOrders()
        const rows = yield* Effect.forEach(orders, (order) =>
          runtime.shopSystem.loadRepairOrder({ shopId: session.shopId, repairOrderId: order.id }).pipe(
            Effect.map((ro) => ({
              id: ro.id,
              number: ro.number,
              vehicle: vehicleName(ro.vehicle),
              customer: ro.customer?.name ?? "",
              vehicleHint: vehicleHint(ro.vehicle)
            }))
          ), { concurrency: 4 })
        return page(repairOrdersPage(viewerOf(session), rows))
      }).pipe(Effect.catchAll(failed(viewerOf(session))))
    )

    const view = (repairOrderId: string) =>
      signedInPage((session) =>
        Effect.gen(function*() {
          // Every read is the signed-in user's shop's: its Shopmonkey account, its inbox entries.
          const ro = yield* runtime.shopSystem.loadRepairOrder({ shopId: session.shopId, repairOrderId })
          const client = yield* clientFor(session.shopId)
          const services = yield* client.listServices(ro.id)
          const entries = yield* runtime.inbox.list({ shopId: session.shopId, repairOrderId: ro.id })
          const row = (part: (typeof services)[number]["parts"][number]): PartRow => ({
            partNumber: part.partNumber ?? "",
            brand: String(part.metadata?.["shoplinkBrandId"] ?? ""),
            name: part.name,
            quantity: part.quantity,
            costCents: part.wholesaleCostCents ?? 0,
            retailCents: part.retailCostCents ?? 0,
            coreCents: part.coreChargeCents ?? 0
          })
          const key = (s: (typeof services)[number]) => String(s.metadata?.[ShopmonkeyShopSystem.SERVICE_KEY_FIELD] ?? "")
          // The order's status as the distributor last reported it (the newest applied order delivery).
          const statusOf = (orderID: string) => {
            const latest = entries.filter((e) => e.kind === "order" && e.status === "applied" && e.contentKey.includes(`:${orderID}:`)).at(-1)
            try {
              return latest === undefined ? "Ordered" : String(JSON.parse(latest.body).order.statusDescription)
            } catch {
              return "Ordered"
            }
          }
          const view: RepairOrderView = {
            id: ro.id,
            number: ro.number,
            vehicle: vehicleName(ro.vehicle),
            customer: ro.customer?.name ?? "",
            vehicleHint: vehicleHint(ro.vehicle),
            quoted: services.filter((s) => key(s) === "quote").flatMap((s) => s.parts.map(row)),
            orders: services.filter((s) => key(s).startsWith("order:")).map((s) => {
              const orderID = key(s).slice("order:".length)
              return { orderID, statusDescription: statusOf(orderID), lines: s.parts.map(row) }
            }),
            pending: entries.filter((e) => e.status === "pending").length,
            failed: entries.filter((e) => e.status === "dead").map((e) => e.lastError ?? "unknown error")
          }
          return page(repairOrderPage(viewerOf(session), view))
        }).pipe(Effect.catchAll(failed(viewerOf(session))))
      )

    const launch = (repairOrderId: string) =>
      signedInAction((session) =>
        Effect.gen(function*() {
          // Always the signed-in user's shop: another shop's RO id fails as not found.
          const launched = yield* runtime.launch({ shopId: session.shopId, repairOrderId })
          yield* Effect.logInfo("punchout launched").pipe(
            Effect.annotateLogs({ shopId: session.shopId, repairOrder: launched.repairOrder.number, vehicle: launched.vehicle })
          )
          // The catalog URL carries a session token: not cached, and no Referer from here on.
          return seeOther(Redacted.value(launched.url), { "referrer-policy": "no-referrer" })
        }).pipe(Effect.catchAll(failed(viewerOf(session))))
      )

    const idParam = Effect.map(HttpRouter.params, (p) => p["id"] ?? "")
    const pages = HttpRouter.empty.pipe(
      HttpRouter.get("/sign-in", showSignIn),
      HttpRouter.post("/sign-in", signIn),
      HttpRouter.post("/sign-out", signOut),
      HttpRouter.get("/", list),
      HttpRouter.get("/ro/:id", Effect.flatMap(idParam, view)),
      HttpRouter.post("/ro/:id/order-parts", Effect.flatMap(idParam, launch))
    )
    // The runtime's probes (/healthz, /readyz) answer on every listener; /metrics (vendor API key)
    // only beside the pages, never on the public listener.
    const internal = HttpRouter.concatAll(pages, runtime.healthRouter, runtime.adminRouter)
    if (publicServer === undefined) {
      yield* runtime.serve(server, HttpRouter.concat(internal, runtime.publicRouter))
    } else {
      yield* runtime.serve(server, internal)
      yield* runtime.serve(publicServer, HttpRouter.concat(runtime.healthRouter, runtime.publicRouter))
    }
    return { url, publicUrl, appBaseUrl, publicBaseUrl, sessionCookie, runtime } satisfies RunningApp
  })
