// The integration service: sign-in, the repair order pages and "Order parts" (launch → the
// distributor's catalog) for the signed-in user's shop, on the connector's runtime. Tekmetric takes
// no part lines, so the runtime keeps the quoted and ordered parts (its parts ledger) and the RO
// page shows them, with a signed link to the runtime's parts page and its CSV; the adapter records
// each distributor order on the repair order's job note in Tekmetric.
//
// What is public: the runtime's webhook and callback routes (each keyed by an unguessable launch
// key), /healthz, /readyz and /sign-in. The runtime's parts page needs a vendor API key or a signed
// link; everything else needs a session, and every POST the session's CSRF token and a same-origin
// Origin (or Referer).
import { HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { TekmetricClient, TekmetricConnector } from "@shoplink/adapter-tekmetric"
import { ConnectorRuntime, PunchoutLauncher, ShopSystem, SignIn } from "@shoplink/connector"
import { UndiciHttpClient } from "@shoplink/http-node"
import { Data, Effect, Either, Layer, Option, Redacted, type Scope } from "effect"
import { createHash } from "node:crypto"
import { createServer } from "node:http"
import type { Settings, User } from "./settings.js"
import { errorPage, forbiddenPage, repairOrderPage, repairOrdersPage, type RepairOrderRow, signInPage, STYLE_HASH, type Viewer } from "./views.js"

export interface RunningApp {
  readonly url: string
  readonly publicBaseUrl: string
  readonly sessionCookie: string
  readonly runtime: ConnectorRuntime.Runtime
}

/** The service could not start: one line saying why. */
export class StartFailed extends Data.TaggedError("StartFailed")<{ readonly message: string }> {}

const vehicleName = (vehicle: ShopSystem.Vehicle) => {
  const name = [vehicle.year, vehicle.make, vehicle.model].filter((x) => x !== undefined && x !== null).join(" ")
  const id = vehicle.vin ?? (vehicle.licensePlate ? `${vehicle.licensePlate} (${vehicle.licensePlateState ?? "?"})` : undefined)
  return [name || "Unknown vehicle", id].filter((x) => x !== undefined).join(" · ")
}

const vehicleHint = (vehicle: ShopSystem.Vehicle): string | undefined =>
  PunchoutLauncher.vehicleParameters(vehicle).identifier === "none"
    ? "No VIN or license plate with its state: add one to the vehicle in Tekmetric to order parts."
    : undefined

const originOf = (url: string) => new URL(url).origin
const safeNext = (next: string | undefined) => next !== undefined && /^\/(ro\/[A-Za-z0-9._~%-]{1,200})?$/.test(next) ? next : "/"
const SIGN_IN_FAILED = "The email or password is incorrect."
const MAX_FORM_BYTES = 16 * 1024

export const startApp = (settings: Settings): Effect.Effect<RunningApp, StartFailed, Scope.Scope> =>
  Effect.gen(function*() {
    const server = yield* NodeHttpServer.make(() => createServer(), { port: settings.port, host: settings.host }).pipe(
      Effect.mapError((error) => new StartFailed({ message: `cannot listen on ${settings.host}:${settings.port}: ${error.message}` }))
    )
    const url = `http://${settings.host}:${server.address._tag === "TcpAddress" ? server.address.port : settings.port}`
    const publicBaseUrl = (settings.publicBaseUrl ?? url).replace(/\/+$/, "")

    // One HttpClient for the distributor and Tekmetric, living as long as the service.
    const http = yield* Layer.build(UndiciHttpClient.layer)
    const shopSystem = TekmetricConnector.layer.pipe(
      Layer.provide(Layer.succeed(TekmetricConnector.TekmetricConfig, { baseUrl: settings.tekmetricBaseUrl })),
      Layer.provide(Layer.succeedContext(http))
    )
    const runtime = yield* ConnectorRuntime.make(shopSystem, {
      publicBaseUrl,
      smsVendorName: settings.smsVendorName,
      punchout: { baseUrl: settings.punchoutBaseUrl, vendorApiKey: settings.vendorApiKey },
      storage: settings.database,
      secretKeys: settings.secretKeys,
      launchLinkSecrets: [settings.linkSecret],
      worker: { pollInterval: "100 millis", baseDelay: "1 second", maxAttempts: 8 }
    }).pipe(Effect.provide(http), Effect.mapError((error) => new StartFailed({ message: error.message })))
    for (const shop of settings.shops) {
      yield* runtime.shops.add(shop, { replace: true }).pipe(Effect.mapError((error) => new StartFailed({ message: `onboarding shop ${shop.id}: ${error.message}` })))
    }

    const users = new Map<string, User>(settings.users.map((u) => [u.email.toLowerCase(), u]))
    const sessions = SignIn.makeSessions()
    const signInTokens = SignIn.makeSignInTokens()
    const throttle = SignIn.makeThrottle()
    const decoyHash = yield* Effect.promise(() => SignIn.hashPassword(SignIn.randomToken()))
    const secure = url.startsWith("https:")
    const sessionCookie = secure ? "__Host-shoplink_session" : "shoplink_session"
    const signInCookie = secure ? "__Host-shoplink_signin" : "shoplink_signin"
    const cookieOptions = { httpOnly: true, sameSite: "lax", path: "/", secure } as const
    const ownOrigins = new Set([originOf(publicBaseUrl), originOf(url)])

    // Per shop, the Tekmetric client the pages list repair orders and jobs with (the shop's own
    // credentials and Tekmetric shop: a shop's pages read nothing but its own Tekmetric shop).
    const clients = new Map<string, { readonly digest: string; readonly client: TekmetricClient.Client; readonly shop: string }>()
    const clientFor = (shopId: string) =>
      Effect.gen(function*() {
        const secrets = yield* runtime.shops.smsCredentials(shopId)
        const clientId = secrets[TekmetricConnector.CLIENT_ID_SECRET]
        const clientSecret = secrets[TekmetricConnector.CLIENT_SECRET_SECRET]
        if (clientId === undefined || clientSecret === undefined) {
          return yield* new ShopSystem.ShopSystemError({ operation: "listRepairOrders", reason: `no Tekmetric credentials for shop ${shopId}`, retryable: false })
        }
        const chosen = secrets[TekmetricConnector.SHOP_ID_SECRET]
        const digest = createHash("sha256").update(`${Redacted.value(clientId)}\u0000${Redacted.value(clientSecret)}\u0000${chosen === undefined ? "" : Redacted.value(chosen)}`).digest("base64url")
        const cached = clients.get(shopId)
        if (cached !== undefined && cached.digest === digest) return cached
        const client = yield* TekmetricClient.make({ baseUrl: settings.tekmetricBaseUrl, clientId: Redacted.value(clientId), clientSecret }).pipe(Effect.provide(http))
        const scope = yield* client.shops
        const shop = chosen === undefined ? scope[0] ?? "" : Redacted.value(chosen)
        const entry = { digest, client, shop }
        clients.set(shopId, entry)
        return entry
      })

    const csp = [
      "default-src 'none'",
      `style-src ${STYLE_HASH}`,
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
    const page = (body: string, status = 200) => HttpServerResponse.text(body, { status, contentType: "text/html; charset=utf-8", headers: pageHeaders })
    const seeOther = (location: string, headers: Record<string, string> = {}) =>
      HttpServerResponse.empty({ status: 303, headers: { location, "cache-control": "no-store", ...headers } })
    const refuse = (reason: string) => Effect.as(Effect.logWarning("request refused").pipe(Effect.annotateLogs({ reason })), page(forbiddenPage(), 403))

    const viewerOf = (session: SignIn.Session): Viewer => ({ name: session.name, email: session.email, shopName: session.shopName, csrfToken: session.csrfToken })
    const failed = (viewer: Viewer) => (error: { readonly _tag: string; readonly message: string; readonly retryable?: boolean }) => {
      const [status, message] = error._tag === "RepairOrderNotFound" || error._tag === "CredentialsNotFound" || error._tag === "ShopNotFound"
        ? [404, "No such repair order in your shop."]
        : error._tag === "VehicleRequired" || error._tag === "CredentialsRevoked"
        ? [error._tag === "VehicleRequired" ? 422 : 409, error.message]
        : error._tag === "ShopSystemError" && error.retryable === false
        ? [422, error.message]
        : [502, "The distributor or Tekmetric could not be reached; try again."]
      return Effect.logWarning("request failed", error.message).pipe(Effect.as(page(errorPage(status, message, viewer), status)))
    }

    const request = HttpServerRequest.HttpServerRequest
    const sessionOf = (req: HttpServerRequest.HttpServerRequest) => sessions.get(req.cookies[sessionCookie])
    const fromOwnOrigin = (req: HttpServerRequest.HttpServerRequest) => {
      if (req.headers["sec-fetch-site"] === "cross-site") return false
      const origin = req.headers["origin"] ?? (() => {
        try {
          return req.headers["referer"] === undefined ? undefined : new URL(req.headers["referer"]).origin
        } catch {
          return undefined
        }
      })()
      return origin !== undefined && ownOrigins.has(origin)
    }
    const readForm = Effect.flatMap(request, (req) => req.urlParamsBody).pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(MAX_FORM_BYTES)),
      Effect.map((params) => (name: string) => Option.getOrUndefined(UrlParams.getFirst(params, name))),
      Effect.either
    )
    const signedInPage = <E, R>(handler: (session: SignIn.Session) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
      Effect.gen(function*() {
        const req = yield* request
        const session = sessionOf(req)
        if (session === undefined) return seeOther(`/sign-in?next=${encodeURIComponent(safeNext(req.url.split("?")[0]))}`)
        return yield* handler(session)
      })
    const signedInAction = <E, R>(handler: (session: SignIn.Session, sessionId: string) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
      Effect.gen(function*() {
        const req = yield* request
        if (!fromOwnOrigin(req)) return yield* refuse("cross-site or no Origin")
        const sessionId = req.cookies[sessionCookie]
        const session = sessions.get(sessionId)
        if (session === undefined || sessionId === undefined) return yield* refuse("not signed in")
        const form = yield* readForm
        if (Either.isLeft(form) || !SignIn.safeEqual(form.right("csrf") ?? "", session.csrfToken)) return yield* refuse("missing or wrong CSRF token")
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
      if (Either.isLeft(form) || !signInTokens.verify(req.cookies[signInCookie], form.right("csrf"))) return yield* refuse("sign-in without its form token")
      const field = form.right
      const email = (field("email") ?? "").trim().toLowerCase().slice(0, 320)
      const password = (field("password") ?? "").slice(0, 1024)
      const next = safeNext(field("next"))
      const user = users.get(email)
      const matches = yield* Effect.promise(() => SignIn.verifyPassword(password, user?.passwordHash ?? decoyHash))
      const shop = user === undefined ? undefined : yield* runtime.shops.get(user.shopId).pipe(Effect.option, Effect.map(Option.getOrUndefined))
      if (throttle.blocked(email) || user === undefined || !matches || shop === undefined) {
        throttle.failed(email)
        return yield* signInForm({ next, email, error: SIGN_IN_FAILED }, 401)
      }
      throttle.succeeded(email)
      sessions.remove(req.cookies[sessionCookie])
      const created = sessions.create({ email: user.email, name: user.name, shopId: user.shopId, shopName: shop.name })
      return seeOther(next).pipe(
        HttpServerResponse.unsafeSetCookie(sessionCookie, created.id, { ...cookieOptions, maxAge: `${sessions.lifetimeSeconds} seconds` }),
        HttpServerResponse.unsafeSetCookie(signInCookie, "", { ...cookieOptions, maxAge: 0 })
      )
    })
    const signOut = signedInAction((_session, sessionId) =>
      Effect.sync(() => {
        sessions.remove(sessionId)
        return seeOther("/sign-in").pipe(HttpServerResponse.unsafeSetCookie(sessionCookie, "", { ...cookieOptions, maxAge: 0 }))
      })
    )

    /** A repair order as the list shows it, read through the shop's own Tekmetric client. */
    const rowOf = (client: TekmetricClient.Client, ro: { readonly id: number; readonly repairOrderNumber?: number | string | null | undefined; readonly vehicleId?: number | null | undefined; readonly customerId?: number | null | undefined }) =>
      Effect.gen(function*() {
        const vehicle = ro.vehicleId == null ? undefined : yield* client.vehicle(String(ro.vehicleId))
        const customer = ro.customerId == null ? undefined : yield* client.customer(String(ro.customerId))
        const v: ShopSystem.Vehicle = {
          vin: vehicle?.vin ?? undefined,
          licensePlate: vehicle?.licensePlate ?? undefined,
          licensePlateState: vehicle?.state ?? undefined,
          year: vehicle?.year ?? undefined,
          make: vehicle?.make ?? undefined,
          model: vehicle?.model ?? undefined
        }
        return {
          id: String(ro.id),
          number: String(ro.repairOrderNumber ?? ro.id),
          vehicle: vehicleName(v),
          customer: [customer?.firstName, customer?.lastName].filter((s) => s).join(" "),
          vehicleHint: vehicleHint(v)
        } satisfies RepairOrderRow
      })

    const list = signedInPage((session) =>
      Effect.gen(function*() {
        const { client, shop } = yield* clientFor(session.shopId)
        const orders = yield* client.allRepairOrders(shop)
        const rows = yield* Effect.forEach(orders, (ro) => rowOf(client, ro), { concurrency: 4 })
        return page(repairOrdersPage(viewerOf(session), rows))
      }).pipe(Effect.catchAll(failed(viewerOf(session))))
    )

    const view = (repairOrderId: string) =>
      signedInPage((session) =>
        Effect.gen(function*() {
          const { client, shop } = yield* clientFor(session.shopId)
          if (!/^\d{1,18}$/.test(repairOrderId)) return yield* new ShopSystem.RepairOrderNotFound({ shopId: session.shopId, repairOrderId })
          const ro = yield* client.repairOrder(repairOrderId).pipe(
            Effect.catchIf((e) => e._tag === "TekmetricError" && (e.notFound || e.status === 403), () => Effect.fail(new ShopSystem.RepairOrderNotFound({ shopId: session.shopId, repairOrderId })))
          )
          if (String(ro.shopId) !== shop) return yield* new ShopSystem.RepairOrderNotFound({ shopId: session.shopId, repairOrderId })
          const row = yield* rowOf(client, ro)
          const jobs = yield* client.jobs(shop, row.id)
          const first = [...jobs].sort((a, b) => a.id - b.id)[0]
          const parts = yield* runtime.parts.list({ shopId: session.shopId, repairOrderId: row.id })
          const entries = yield* runtime.inbox.list({ shopId: session.shopId, repairOrderId: row.id })
          const partsPageUrl = yield* runtime.partsLink({ shopId: session.shopId, repairOrderId: row.id, expiresIn: "30 minutes" }).pipe(Effect.option)
          return page(repairOrderPage(viewerOf(session), {
            ...row,
            parts,
            recorded: TekmetricConnector.recordedOrders(first?.note),
            partsPageUrl: Option.getOrUndefined(partsPageUrl),
            pending: entries.filter((e) => e.status === "pending").length,
            failed: entries.filter((e) => e.status === "dead").map((e) => e.lastError ?? "unknown error")
          }))
        }).pipe(Effect.catchAll(failed(viewerOf(session))))
      )

    const launch = (repairOrderId: string) =>
      signedInAction((session) =>
        Effect.gen(function*() {
          // Always the signed-in user's shop: another shop's RO id fails as not found.
          const launched = yield* runtime.launch({ shopId: session.shopId, repairOrderId })
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
    yield* runtime.serve(server, HttpRouter.concatAll(pages, runtime.healthRouter, runtime.adminRouter, runtime.apiRouter, runtime.publicRouter))
    return { url, publicBaseUrl, sessionCookie, runtime } satisfies RunningApp
  })
