// The Punchout API: POST /punchout/v1/create and the API commands run inside a session.
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { Punchout, Values } from "@shoplink/protocol"
import { randomUUID } from "node:crypto"
import { type Ctx, decodeWith, envelope, json, nonPositiveQuantity, readJsonObject } from "./context.js"
import { reject, type Result } from "./domain/result.js"
import { MessageFailure } from "./failure.js"
import { MAX_QUOTES, SESSION_MILLIS, type Session } from "./state.js"
import {
  orderResponse,
  quoteLine,
  quotesResponse,
  reserveOrderResponse,
  SERVER_VERSION,
  successStatus
} from "./wire.js"

const refused = { punchout: { url: "", expiration: 0 } }

const CREDENTIAL_FIELDS = new Set(["apiKey", "apiToken", "accountNo", "username", "country"])

export const handleCreate = (
  ctx: Ctx
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const now = yield* ctx.now
    const httpRequest = yield* HttpServerRequest.HttpServerRequest
    // The session URL uses the host the vendor called (e.g. when listening on 0.0.0.0).
    const host = httpRequest.headers["host"]
    const base = host !== undefined && /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? `http://${host}` : ctx.baseUrl()
    const body = yield* readJsonObject
    const referenceID = typeof body["referenceID"] === "string" ? body["referenceID"] : undefined
    const decoded = Schema.decodeUnknownEither(Punchout.CreateSessionRequest)(body, { errors: "all" })
    if (decoded._tag === "Left") {
      const credentialProblem = [...CREDENTIAL_FIELDS].some((f) =>
        typeof body[f] !== "string" || (body[f] as string).trim() === ""
      ) ||
        !Values.isCountry(body["country"])
      if (credentialProblem) return yield* Effect.fail(new MessageFailure("UNAUTHORIZED"))
      yield* decodeWith(Punchout.CreateSessionRequest, body)
      return yield* Effect.fail(new MessageFailure("API0288"))
    }
    const request = decoded.right
    const session: Session = yield* Either.gen(function*() {
      const vendor = ctx.state.accounts.vendorKeys.get(Redacted.value(request.apiKey))
      const customer = ctx.state.accounts.customers.get(request.accountNo.trim())
      const ok = vendor !== undefined && !vendor.expired && customer !== undefined && customer.active &&
        !customer.revoked &&
        customer.apiToken === Redacted.value(request.apiToken) &&
        customer.username.toLowerCase() === request.username.trim().toLowerCase() &&
        customer.country === Values.countryCodeOf(request.country)
      if (!ok) return yield* reject("UNAUTHORIZED")
      const session: Session = {
        token: randomUUID(),
        accountNo: customer!.accountNo,
        apiToken: customer!.apiToken,
        createdAt: now,
        expiresAt: now + SESSION_MILLIS,
        smsVendorName: request.smsVendorName,
        referenceID: request.referenceID,
        webhooks: { order: request.webhooks.order, quote: request.webhooks.quote, callback: request.webhooks.callback },
        exportButtons: {
          export: request.exportButtons?.export.visible ?? true,
          exportAndSave: request.exportButtons?.exportAndSave.visible ?? false
        },
        pageReferenceID: undefined,
        vehicleMakeId: 0,
        lastVehicle: undefined,
        cartOrderId: undefined,
        cartExported: false,
        lastSearch: []
      }
      ctx.state.accounts.sessions.set(session.token, session)
      return session
    })
    const response = Schema.encodeSync(Punchout.CreateSessionResponse)({
      serverVersion: SERVER_VERSION,
      status: successStatus,
      ...(referenceID === undefined ? {} : { referenceID }),
      punchout: {
        url: `${base}/punchout/v1/${Punchout.COMMAND_PLACEHOLDER}?token=${session.token}`,
        token: Redacted.make(session.token),
        // Whole seconds: the spec's samples write the expiration with 10 digits.
        expiration: DateTime.unsafeMake(Math.floor(session.expiresAt / 1000) * 1000)
      }
    })
    return json(response)
  }).pipe(Effect.catchAll((failure) => Effect.succeed(envelope(failure, {}, refused))))

/** The session of a token, or `undefined` when unknown, expired or its customer token was revoked. */
export const sessionOf = (ctx: Ctx, token: string | null, now: number): Session | undefined => {
  if (token === null) return undefined
  const session = ctx.state.accounts.sessions.get(token)
  if (session === undefined || now >= session.expiresAt) return undefined
  const customer = ctx.state.accounts.customers.get(session.accountNo)
  if (customer === undefined || customer.revoked || !customer.active || customer.apiToken !== session.apiToken) {
    return undefined
  }
  return session
}

const countryOfSession = (ctx: Ctx, session: Session) => ctx.state.accounts.customers.get(session.accountNo)!.country

const getProductQuotes = (ctx: Ctx, session: Session, body: Record<string, unknown>, now: number) =>
  Either.gen(function*() {
    if (nonPositiveQuantity(body["quantity"])) return yield* reject("API0231")
    const request = yield* decodeWith(Punchout.GetProductQuotesRequest, body)
    const country = countryOfSession(ctx, session)
    let products
    if (request.brandID !== undefined && request.brandID.trim() !== "") {
      const product = ctx.state.inventory.findProduct(request.productID, request.brandID)
      if (product !== undefined && product.price === undefined) return yield* reject("API0243")
      products = product === undefined ? [] : [product]
    } else {
      const exact = ctx.state.inventory.catalog.products.filter((p) =>
        p.productID.toUpperCase() === request.productID.trim().toUpperCase()
      )
      products = exact.length > 0 ? exact : ctx.state.inventory.search(request.productID, undefined, MAX_QUOTES * 2)
      products = products.filter((p) => p.price !== undefined).slice(0, MAX_QUOTES)
    }
    session.lastSearch = products.map((product) => ({ product, quantity: request.quantity }))
    return quotesResponse(
      products.map((p) => quoteLine(ctx.state, now, p, request.quantity, country)),
      request.referenceID
    )
  })

const createOrder = (ctx: Ctx, session: Session, body: Record<string, unknown>, now: number) =>
  Either.gen(function*() {
    if (nonPositiveQuantity(body["quantity"])) return yield* reject("API0231")
    if (
      Array.isArray(body["quotes"]) &&
      body["quotes"].some((q) =>
        typeof q === "object" && q !== null && nonPositiveQuantity((q as Record<string, unknown>)["quantity"])
      )
    ) {
      return yield* reject("API0231")
    }
    const request = yield* decodeWith(Punchout.CreateOrderRequest, body)
    const items = "quotes" in request
      ? request.quotes.map((q) => ({ productID: q.productID, brandID: q.brandID, quantity: q.quantity }))
      : [{ productID: request.productID, brandID: request.brandID, quantity: request.quantity }]
    const allocations = yield* ctx.state.inventory.allocate(items, countryOfSession(ctx, session))
    const order = ctx.state.orders.createCartOrder(now, session.accountNo, allocations, request.comment ?? "")
    return orderResponse(order, request.referenceID)
  })

const submitOrder = (ctx: Ctx, session: Session, body: Record<string, unknown>) =>
  Either.gen(function*() {
    const request = yield* decodeWith(Punchout.SubmitOrderRequest, body)
    const order = yield* ctx.state.orders.submitOrder(request.orderID, session.accountNo)
    return orderResponse(order, request.referenceID)
  })

const reserveOrder = (ctx: Ctx, session: Session, body: Record<string, unknown>, now: number) =>
  Either.gen(function*() {
    const raw = body["orderID"]
    if (raw === undefined || raw === null || raw === "") {
      return yield* reject("API0203", "Missing selection criteria: orderID")
    }
    if (typeof raw !== "string" || !/^\d{1,8}$/.test(raw) || Number(raw) === 0) return yield* reject("API0230")
    const request = yield* decodeWith(Punchout.ReserveOrderRequest, body)
    const order = yield* ctx.state.orders.reserveOrder(
      now,
      request.orderID,
      session.accountNo,
      request.comment,
      countryOfSession(ctx, session)
    )
    return reserveOrderResponse(order, request.referenceID ?? null)
  })

/** Runs an API command for a valid session (the router has checked token and method). */
export const handleApiCommand = (
  ctx: Ctx,
  command: Punchout.ApiCommand,
  session: Session
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const now = yield* ctx.now
    const body = yield* readJsonObject.pipe(
      Effect.mapError((failure) => ({ failure, referenceID: undefined as string | undefined }))
    )
    const referenceID = typeof body["referenceID"] === "string"
      ? body["referenceID"]
      : typeof body["referenceId"] === "string"
      ? body["referenceId"]
      : undefined
    const result: Result<unknown> = (() => {
      switch (command) {
        case "GetProductQuotes":
          return getProductQuotes(ctx, session, body, now)
        case "CreateOrder":
          return createOrder(ctx, session, body, now)
        case "SubmitOrder":
          return submitOrder(ctx, session, body)
        case "ReserveOrder":
          return reserveOrder(ctx, session, body, now)
      }
    })()
    return json(yield* Effect.mapError(result, (failure) => ({ failure, referenceID })))
  }).pipe(
    Effect.catchAll(({ failure, referenceID }) =>
      Effect.succeed(
        envelope(failure, { referenceID, spelling: command === "ReserveOrder" ? "referenceId" : "referenceID" })
      )
    )
  )
