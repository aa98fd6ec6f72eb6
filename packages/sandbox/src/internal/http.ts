// The HTTP edge: the routes come from the API definitions (PunchoutApi, OrderManagementApi,
// SandboxApi) and are mounted through HttpApiBuilder. The distributor's endpoints are mounted
// with handleRaw and without their parameter schemas: the distributor validates parameters itself
// and answers its own message IDs (a decode failure would be HttpApiDecodeError instead). What no
// route matches (a wrong method on a known path, an unknown path) is answered as the distributor
// does: the same handler's 401/405 envelope or page, or API0288 with 404.
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHash, timingSafeEqual } from "node:crypto"
import { MessageCatalog, OrderManagementApi, type Punchout, PunchoutApi } from "@shoplink/protocol"
import type { SandboxAdmin } from "../Sandbox.js"
import { AdminAuth, AdminUnauthorized, SandboxApi } from "../SandboxApi.js"
import { adminGroup } from "./admin.js"
import { type Ctx, envelope, json } from "./context.js"
import { MessageFailure } from "./failure.js"
import { handleOms } from "./oms.js"
import { documents } from "./openapi.js"
import { appActionPath, PATHS } from "./paths.js"
import { errorPage, handleAppAction, handlePage, page } from "./pages.js"
import { handleApiCommand, handleCreate, sessionOf } from "./punchout.js"
import { errorEnvelope, messageEnvelope } from "./wire.js"

type Kind = "api" | "page" | "oms"

const liveClock = Clock.make()

// The distributor's statuses for a bad session and for a server error: the catalogue's rows.
const UNAUTHORIZED_STATUS = MessageCatalog.messages.UNAUTHORIZED.httpStatus
const SERVER_ERROR_STATUS = MessageCatalog.messages.API0500.httpStatus

const injected = (id: string) =>
  MessageCatalog.isMessageId(id)
    ? new MessageFailure(id)
    : new MessageFailure("API0500" as const, `Injected message ${id}`)

/** Applies the next armed fault for an endpoint: a response to send instead, or none to go on. */
const applyFault = (ctx: Ctx, endpoint: string, kind: Kind) =>
  Effect.gen(function*() {
    const fault = ctx.state.faults.takeEndpointFault(endpoint)
    if (fault === undefined) return Option.none()
    switch (fault.kind) {
      case "latency":
        // Real latency (live clock), like a slow network, even when the test runs on TestClock.
        yield* Effect.sleep(fault.millis).pipe(Effect.withClock(liveClock))
        return Option.none()
      case "httpStatus":
        return Option.some(HttpServerResponse.text(`Injected HTTP ${fault.status}`, { status: fault.status }))
      case "connectionReset": {
        const request = yield* HttpServerRequest.HttpServerRequest
        NodeHttpServerRequest.toIncomingMessage(request).socket.destroy()
        return Option.some(HttpServerResponse.empty())
      }
      case "message": {
        const failure = injected(fault.id)
        if (kind === "page") {
          return Option.some(
            errorPage(`${fault.id}: ${failure.text ?? MessageCatalog.messages[failure.id].text}`, undefined)
          )
        }
        if (!MessageCatalog.isMessageId(fault.id)) {
          return Option.some(json(messageEnvelope(fault.id, failure.text, SERVER_ERROR_STATUS), SERVER_ERROR_STATUS))
        }
        return Option.some(envelope(failure, { spelling: endpoint === "ReserveOrder" ? "referenceId" : "referenceID" }))
      }
      default:
        return Option.none()
    }
  })

const digest = (s: string) => createHash("sha256").update(s).digest()

/** Whether a request may use the admin API: always without a configured token, else a matching Bearer token. */
const adminAllowed = (ctx: Ctx, authorization: string | undefined): boolean => {
  if (ctx.adminToken === undefined) return true
  const given = /^Bearer\s+(.+)$/i.exec(authorization ?? "")?.[1]?.trim()
  // Hashing first gives equal lengths, so the comparison takes the same time whatever was sent.
  return given !== undefined && timingSafeEqual(digest(given), digest(Redacted.value(ctx.adminToken)))
}

const plainFailure = (id: MessageCatalog.MessageId, text: string, status: number) =>
  json(errorEnvelope(new MessageFailure(id, text), status), status)

const urlOf = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://sandbox.invalid")

type Handler = Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>

/** Whether a Punchout endpoint is a page (the definition's GET endpoints answer text/html). */
const isPageCommand = (command: PunchoutApi.EndpointName): command is Punchout.BrowserCommand =>
  PunchoutApi.route(command).method === "GET"

/** One Punchout endpoint, whatever the method (the distributor's 401/405 answers included). */
const punchoutEndpoint = (ctx: Ctx, command: PunchoutApi.EndpointName): Handler =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const method = request.method
    const fault = yield* applyFault(ctx, command, isPageCommand(command) ? "page" : "api")
    if (Option.isSome(fault)) return fault.value
    if (command === "create") {
      if (method !== "POST") return plainFailure("API0288", "Invalid API parameters: create takes POST", 405)
      return yield* handleCreate(ctx)
    }
    const url = urlOf(request)
    const session = sessionOf(ctx, url.searchParams.get("token"), yield* ctx.now)
    if (isPageCommand(command)) {
      if (session === undefined) {
        return errorPage("Unauthorized: unknown or expired session", undefined, UNAUTHORIZED_STATUS)
      }
      if (method !== "GET") {
        return errorPage(`${command} takes GET`, session, 405)
      }
      return yield* handlePage(ctx, command, session, url)
    }
    if (session === undefined) {
      return plainFailure("UNAUTHORIZED", MessageCatalog.messages.UNAUTHORIZED.text, UNAUTHORIZED_STATUS)
    }
    if (method !== "POST") {
      return plainFailure("API0288", `Invalid API parameters: ${command} takes POST`, 405)
    }
    return yield* handleApiCommand(ctx, command, session)
  })

/**
 * One Order Management endpoint (`handleOms` checks environment, credentials and method, in the
 * distributor's order).
 */
const omsEndpoint = (ctx: Ctx, environment: string, endpoint: string): Handler =>
  Effect.gen(function*() {
    const fault = yield* applyFault(ctx, endpoint, "oms")
    if (Option.isSome(fault)) return fault.value
    return yield* handleOms(ctx, environment, endpoint, urlOf(yield* HttpServerRequest.HttpServerRequest))
  })

/** The ordering pages' form actions. */
const appAction = (ctx: Ctx, action: string): Handler =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const session = sessionOf(ctx, urlOf(request).searchParams.get("token"), yield* ctx.now)
    if (session === undefined) {
      return errorPage("Unauthorized: unknown or expired session", undefined, UNAUTHORIZED_STATUS)
    }
    if (request.method !== "POST") {
      return errorPage("Use POST", session, 405)
    }
    return yield* handleAppAction(ctx, action, session)
  })

const adminRefused = () =>
  json({ _tag: "AdminUnauthorized", error: "the admin API needs Authorization: Bearer <admin token>" }, 401).pipe(
    HttpServerResponse.setHeader("www-authenticate", `Bearer realm="shoplink-sandbox-admin"`)
  )

// The Punchout endpoints' names (`create`, the commands, the pages), read from the definition.
const PUNCHOUT_ENDPOINTS: ReadonlySet<string> = new Set(PunchoutApi.routes.map((r) => r.name))

const segmentsOf = (path: string) => path.split("/").filter((s) => s !== "")
const startsWith = (segments: ReadonlyArray<string>, prefix: ReadonlyArray<string>) =>
  prefix.every((s, i) => segments[i] === s)
// The path prefixes, read from the definitions: the admin API (`__sandbox`), the Punchout API
// (`punchout/v1`), the ordering actions (`punchout/v1/app`) and Order Management (`web/services`).
const ADMIN_PREFIX = segmentsOf(PATHS.admin)
const PUNCHOUT_PREFIX = segmentsOf(PATHS.create).slice(0, -1)
const APP_ACTION_PREFIX = segmentsOf(appActionPath("add")).slice(0, -1)
const OMS_PREFIX = segmentsOf(OrderManagementApi.BASE_PATH).slice(0, -1)

/** What no mounted route matched: the distributor's answers for wrong methods and unknown paths. */
const unmatched = (ctx: Ctx): Handler =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const segments = urlOf(request).pathname.split("/").filter((s) => s !== "").map(decodeURIComponent)
    if (startsWith(segments, ADMIN_PREFIX)) {
      if (!adminAllowed(ctx, request.headers["authorization"])) return adminRefused()
      return json({
        _tag: "AdminNotFound",
        error: `no admin route ${request.method} ${segments.slice(ADMIN_PREFIX.length).join("/")}`
      }, 404)
    }
    if (startsWith(segments, PUNCHOUT_PREFIX)) {
      if (segments.length === APP_ACTION_PREFIX.length + 1 && startsWith(segments, APP_ACTION_PREFIX)) {
        return yield* appAction(ctx, segments[APP_ACTION_PREFIX.length]!)
      }
      if (segments.length !== PUNCHOUT_PREFIX.length + 1) {
        return plainFailure("API0288", "Invalid API parameters: unknown path", 404)
      }
      const command = segments[PUNCHOUT_PREFIX.length]!
      if (PUNCHOUT_ENDPOINTS.has(command)) {
        return yield* punchoutEndpoint(ctx, command as PunchoutApi.EndpointName)
      }
      return plainFailure("API0288", `Invalid API parameters: unknown command ${command}`, 404)
    }
    if (startsWith(segments, OMS_PREFIX) && segments.length === OMS_PREFIX.length + 2) {
      return yield* omsEndpoint(ctx, segments[OMS_PREFIX.length]!, segments[OMS_PREFIX.length + 1]!)
    }
    return plainFailure("API0288", "Invalid API parameters: unknown path", 404)
  })

// A served copy of a group: each endpoint's name, method and path, no parameter or body schemas.
const rawGroup = (group: HttpApiGroup.HttpApiGroup.AnyWithProps): HttpApiGroup.HttpApiGroup.AnyWithProps => {
  let copy = HttpApiGroup.make(group.identifier, {
    topLevel: group.topLevel
  }) as unknown as HttpApiGroup.HttpApiGroup.AnyWithProps
  for (const endpoint of Object.values(group.endpoints) as Array<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>) {
    copy = copy.add(
      HttpApiEndpoint.make(endpoint.method)(endpoint.name, endpoint.path as `/${string}`) as never
    ) as never
  }
  return copy
}

const groupOf = (api: HttpApi.HttpApi.Any, name: string) =>
  (api as unknown as HttpApi.HttpApi.AnyWithProps).groups[name] as HttpApiGroup.HttpApiGroup.AnyWithProps

const punchoutGroup = rawGroup(groupOf(PunchoutApi.PunchoutApi, "punchout"))
const omsGroup = rawGroup(groupOf(OrderManagementApi.OrderManagementApi, "orderManagement"))
const orderingGroup = rawGroup(groupOf(SandboxApi, "ordering"))

/**
 * What the sandbox mounts: the admin and docs groups of SandboxApi as defined, and served copies
 * of the distributor's groups and of the ordering actions.
 */
export const ServedApi = HttpApi.make("sandbox")
  .add(groupOf(SandboxApi, "admin") as never)
  .add(groupOf(SandboxApi, "docs") as never)
  .add(orderingGroup as never)
  .add(punchoutGroup as never)
  .add(omsGroup as never) as unknown as HttpApi.HttpApi.AnyWithProps

const rawLayer = (group: HttpApiGroup.HttpApiGroup.AnyWithProps, handler: (name: string) => Handler) =>
  HttpApiBuilder.group(
    ServedApi as unknown as HttpApi.HttpApi<"sandbox", HttpApiGroup.HttpApiGroup.AnyWithProps>,
    group.identifier,
    (handlers) => {
      let h: any = handlers
      for (const name of Object.keys(group.endpoints)) h = h.handleRaw(name, () => handler(name))
      return h
    }
  ) as unknown as Layer.Layer<never>

// A mounted route's `{environment}` and `{action}`: the segment after their prefix.
const environmentOf = (request: HttpServerRequest.HttpServerRequest) =>
  urlOf(request).pathname.split("/")[OMS_PREFIX.length + 1] ?? ""
const actionOf = (request: HttpServerRequest.HttpServerRequest) =>
  urlOf(request).pathname.split("/")[APP_ACTION_PREFIX.length + 1] ?? ""

/** The sandbox's HTTP app, for the lifetime of the Scope. */
export const makeHttpApp = (ctx: Ctx, admin: SandboxAdmin) =>
  Effect.gen(function*() {
    const docs = HttpApiBuilder.group(SandboxApi, "docs", (handlers) =>
      handlers
        .handleRaw("home", () => Effect.sync(() => page(documents().page)))
        .handleRaw("docs", () => Effect.sync(() => page(documents().page)))
        .handleRaw("punchoutDocument", () => Effect.sync(() => json(documents().punchout)))
        .handleRaw("orderManagementDocument", () => Effect.sync(() => json(documents().orderManagement)))
        .handleRaw("sandboxDocument", () => Effect.sync(() => json(documents().sandbox))))
    const auth = Layer.succeed(AdminAuth, {
      bearer: () =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          adminAllowed(ctx, request.headers["authorization"])
            ? Effect.void
            : Effect.fail(
              new AdminUnauthorized({ error: "the admin API needs Authorization: Bearer <admin token>" })
            )) as Effect.Effect<void, AdminUnauthorized>
    })
    const groups = Layer.mergeAll(
      docs,
      adminGroup(ctx, admin).pipe(Layer.provide(auth)),
      rawLayer(orderingGroup, () =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          appAction(ctx, actionOf(request)))),
      rawLayer(punchoutGroup, (name) =>
        punchoutEndpoint(ctx, name as PunchoutApi.EndpointName)),
      rawLayer(omsGroup, (name) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          omsEndpoint(ctx, environmentOf(request), name)))
    )
    const layer = HttpApiBuilder.api(
      ServedApi as unknown as HttpApi.HttpApi<"sandbox", HttpApiGroup.HttpApiGroup.AnyWithProps>
    ).pipe(
      Layer.provide(groups),
      Layer.provideMerge(HttpApiBuilder.Router.Live),
      Layer.provideMerge(HttpApiBuilder.Middleware.layer)
    ) as Layer.Layer<HttpApi.Api | HttpApiBuilder.Router | HttpApiBuilder.Middleware>
    const context = yield* Layer.build(layer)
    const api = yield* HttpApiBuilder.httpApp.pipe(Effect.provide(context))
    const fallback = unmatched(ctx)
    const isRouteNotFound = (error: unknown): error is { readonly _tag: "RouteNotFound" } =>
      typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "RouteNotFound"
    const served = Effect.catchIf(
      api as HttpApp.Default<unknown, HttpServerRequest.HttpServerRequest>,
      isRouteNotFound,
      () =>
        fallback
    )
    const app: HttpApp.Default<never, HttpServerRequest.HttpServerRequest> = ctx.now.pipe(
      Effect.flatMap((now) => {
        ctx.state.sweep(now)
        return served
      }),
      Effect.flatMap((response) =>
        // The admin API's 401 names the scheme, as before.
        response.status === 401
          ? Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
            request.url.startsWith(PATHS.admin)
              ? HttpServerResponse.setHeader(response, "www-authenticate", `Bearer realm="shoplink-sandbox-admin"`)
              : response)
          : Effect.succeed(response)
      ),
      // A bug must never crash the server or answer 200: it is API0500.
      Effect.catchAllCause((cause) =>
        Effect.as(
          Effect.logError("sandbox request failed", cause),
          plainFailure("API0500", MessageCatalog.messages.API0500.text, SERVER_ERROR_STATUS)
        )
      )
    )
    return app
  })
