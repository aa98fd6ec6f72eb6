// The one HTTP app: routes every path, applies injected faults first.
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Clock, Effect, Option, Redacted } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"
import { MessageCatalog, Punchout } from "@shoplink/protocol"
import type { SandboxAdmin } from "../Sandbox.js"
import { handleAdmin } from "./admin.js"
import { type Ctx, envelope, json } from "./context.js"
import { MessageFailure } from "./failure.js"
import { handleOms } from "./oms.js"
import { docsPage, orderManagementDocument, punchoutDocument } from "./openapi.js"
import { errorPage, handleAppAction, handlePage } from "./pages.js"
import { handleApiCommand, handleCreate, sessionOf } from "./punchout.js"
import { errorEnvelope } from "./wire.js"

type Kind = "api" | "page" | "oms"

const liveClock = Clock.make()

const injected = (id: string) =>
  MessageCatalog.isMessageId(id) ? new MessageFailure(id) : new MessageFailure("API0500" as const, `Injected message ${id}`)

/** Applies the next armed fault for an endpoint: a response to send instead, or none to go on. */
const applyFault = (ctx: Ctx, endpoint: string, kind: Kind) =>
  Effect.gen(function*() {
    const fault = ctx.state.takeEndpointFault(endpoint)
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
        if (kind === "page") return Option.some(errorPage(`${fault.id}: ${failure.text ?? MessageCatalog.messages[failure.id].text}`, undefined))
        if (!MessageCatalog.isMessageId(fault.id)) {
          return Option.some(json({ ...errorEnvelope(failure, 500), status: { code: 500, message: { ID: fault.id, text: failure.text } } }, 500))
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

export const makeApp = (ctx: Ctx, admin: SandboxAdmin) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const url = new URL(request.url, "http://sandbox.invalid")
    const segments = url.pathname.split("/").filter((s) => s !== "").map(decodeURIComponent)
    const now = yield* ctx.now
    ctx.state.sweep(now)
    const method = request.method

    if (segments[0] === "__sandbox") {
      if (!adminAllowed(ctx, request.headers["authorization"])) {
        return json({ error: "the admin API needs Authorization: Bearer <admin token>" }, 401).pipe(
          HttpServerResponse.setHeader("www-authenticate", `Bearer realm="shoplink-sandbox-admin"`)
        )
      }
      return yield* handleAdmin(ctx, admin, segments.slice(1), method)
    }
    if (segments.length === 0 || (segments.length === 1 && segments[0] === "docs")) return HttpServerResponse.html(docsPage())
    if (segments[0] === "openapi" && segments.length === 2) {
      if (segments[1] === "punchout.json") return json(punchoutDocument())
      if (segments[1] === "order-management.json") return json(orderManagementDocument())
    }

    if (segments[0] === "punchout" && segments[1] === "v1") {
      if (segments.length === 4 && segments[2] === "app") {
        const session = sessionOf(ctx, url.searchParams.get("token"), now)
        if (session === undefined) return errorPage("Unauthorized: unknown or expired session", undefined, 401)
        if (method !== "POST") return errorPage("Use POST", session, 405)
        return yield* handleAppAction(ctx, segments[3]!, session)
      }
      if (segments.length !== 3) return plainFailure("API0288", "Invalid API parameters: unknown path", 404)
      const command = segments[2]!
      const isApi = (Punchout.API_COMMANDS as ReadonlyArray<string>).includes(command)
      const isPage = (Punchout.BROWSER_COMMANDS as ReadonlyArray<string>).includes(command)
      if (command !== "create" && !isApi && !isPage) {
        return plainFailure("API0288", `Invalid API parameters: unknown command ${command}`, 404)
      }
      const fault = yield* applyFault(ctx, command, isPage ? "page" : "api")
      if (Option.isSome(fault)) return fault.value
      if (command === "create") {
        if (method !== "POST") return plainFailure("API0288", "Invalid API parameters: create takes POST", 405)
        return yield* handleCreate(ctx)
      }
      const session = sessionOf(ctx, url.searchParams.get("token"), now)
      if (isPage) {
        if (session === undefined) return errorPage("Unauthorized: unknown or expired session", undefined, 401)
        if (method !== "GET") return errorPage(`${command} takes GET`, session, 405)
        return yield* handlePage(ctx, command as "ShowCatalog" | "ShowOrder", session, url)
      }
      if (session === undefined) return plainFailure("UNAUTHORIZED", "Unauthorized", 401)
      if (method !== "POST") return plainFailure("API0288", `Invalid API parameters: ${command} takes POST`, 405)
      return yield* handleApiCommand(ctx, command as (typeof Punchout.API_COMMANDS)[number], session)
    }

    if (segments[0] === "web" && segments[1] === "services" && segments.length === 4) {
      const fault = yield* applyFault(ctx, segments[3]!, "oms")
      if (Option.isSome(fault)) return fault.value
      return yield* handleOms(ctx, segments[2]!, segments[3]!, url)
    }

    return plainFailure("API0288", "Invalid API parameters: unknown path", 404)
  }).pipe(
    // A bug must never crash the server or answer 200: it is API0500.
    Effect.catchAllCause((cause) =>
      Effect.as(Effect.logError("sandbox request failed", cause), plainFailure("API0500", MessageCatalog.messages.API0500.text, 500))
    )
  )
