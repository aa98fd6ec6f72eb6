// The Punchout API: POST /punchout/v1/create and the API commands run inside a session.
import { HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { DateTime, Effect, Redacted, Schema } from "effect"
import { Punchout } from "@shoplink/protocol"
import { randomUUID } from "node:crypto"
import { attempt, type Ctx, decodeWith, envelope, json, nonPositiveQuantity, readJsonObject } from "./context.js"
import { fail, MessageFailure } from "./failure.js"
import { MAX_QUOTES, SESSION_MILLIS, type Session } from "./state.js"
import { encodeOrder, encodeQuote, SERVER_VERSION, successfulStatus, successStatus } from "./wire.js"

const refused = { punchout: { url: "", expiration: 0 } }

const CREDENTIAL_FIELDS = new Set(["apiKey", "apiToken", "accountNo", "username", "country"])

/** `country` of the create body to the account's country (`US QA` is the US test variant). */
const countryOf = (country: string): "US" | "CA" => (country.startsWith("CA") ? "CA" : "US")

export const handleCreate = (ctx: Ctx): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
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
      const credentialProblem = [...CREDENTIAL_FIELDS].some((f) => typeof body[f] !== "string" || (body[f] as string).trim() === "") ||
        !["US", "US QA", "CA", "CA QA"].includes(String(body["country"]))
      if (credentialProblem) return yield* Effect.fail(new MessageFailure("UNAUTHORIZED"))
      yield* attempt(() => decodeWith(Punchout.CreateSessionRequest, body))
      return yield* Effect.fail(new MessageFailure("API0288"))
    }
    const request = decoded.right
    const session = yield* attempt(() => {
      const vendor = ctx.state.vendorKeys.get(Redacted.value(request.apiKey))
      const customer = ctx.state.customers.get(request.accountNo.trim())
      const ok = vendor !== undefined && !vendor.expired && customer !== undefined && customer.active && !customer.revoked &&
        customer.apiToken === Redacted.value(request.apiToken) &&
        customer.username.toLowerCase() === request.username.trim().toLowerCase() &&
        customer.country === countryOf(request.country)
      if (!ok) return fail("UNAUTHORIZED")
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
        lastSearch: []
      }
      ctx.state.sessions.set(session.token, session)
      return session
    })
    const response = Schema.encodeSync(Punchout.CreateSessionResponse)({
      serverVersion: SERVER_VERSION,
      status: { code: 200, message: { text: "Success" } },
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
  const session = ctx.state.sessions.get(token)
  if (session === undefined || now >= session.expiresAt) return undefined
  const customer = ctx.state.customers.get(session.accountNo)
  if (customer === undefined || customer.revoked || !customer.active || customer.apiToken !== session.apiToken) return undefined
  return session
}

const countryOfSession = (ctx: Ctx, session: Session) => ctx.state.customers.get(session.accountNo)!.country

const getProductQuotes = (ctx: Ctx, session: Session, body: Record<string, unknown>, now: number) => {
  if (nonPositiveQuantity(body["quantity"])) fail("API0231")
  const request = decodeWith(Punchout.GetProductQuotesRequest, body)
  const country = countryOfSession(ctx, session)
  let products
  if (request.brandID !== undefined && request.brandID.trim() !== "") {
    const product = ctx.state.findProduct(request.productID, request.brandID)
    if (product !== undefined && product.price === undefined) fail("API0243")
    products = product === undefined ? [] : [product]
  } else {
    const exact = ctx.state.catalog.products.filter((p) => p.productID.toUpperCase() === request.productID.trim().toUpperCase())
    products = exact.length > 0 ? exact : ctx.state.search(request.productID, undefined, MAX_QUOTES * 2)
    products = products.filter((p) => p.price !== undefined).slice(0, MAX_QUOTES)
  }
  session.lastSearch = products.map((product) => ({ product, quantity: request.quantity }))
  return {
    serverVersion: SERVER_VERSION,
    status: successStatus,
    quotes: products.map((p) => encodeQuote(ctx.state, now, p, request.quantity, country)),
    ...(request.referenceID === undefined ? {} : { referenceID: request.referenceID })
  }
}

const createOrder = (ctx: Ctx, session: Session, body: Record<string, unknown>, now: number) => {
  if (nonPositiveQuantity(body["quantity"])) fail("API0231")
  if (Array.isArray(body["quotes"]) && body["quotes"].some((q) => typeof q === "object" && q !== null && nonPositiveQuantity((q as Record<string, unknown>)["quantity"]))) {
    fail("API0231")
  }
  const request = decodeWith(Punchout.CreateOrderRequest, body)
  const items = "quotes" in request
    ? request.quotes.map((q) => ({ productID: q.productID, brandID: q.brandID, quantity: q.quantity }))
    : [{ productID: request.productID, brandID: request.brandID, quantity: request.quantity }]
  const allocations = ctx.state.allocate(items, countryOfSession(ctx, session))
  const order = ctx.state.createCartOrder(now, session.accountNo, allocations, request.comment ?? "")
  return {
    serverVersion: SERVER_VERSION,
    status: successStatus,
    ...(request.referenceID === undefined ? {} : { referenceID: request.referenceID }),
    order: encodeOrder(ctx.state, order)
  }
}

const submitOrder = (ctx: Ctx, session: Session, body: Record<string, unknown>) => {
  const request = decodeWith(Punchout.SubmitOrderRequest, body)
  const order = ctx.state.submitOrder(request.orderID, session.accountNo)
  return {
    serverVersion: SERVER_VERSION,
    status: successStatus,
    ...(request.referenceID === undefined ? {} : { referenceID: request.referenceID }),
    order: encodeOrder(ctx.state, order)
  }
}

const reserveOrder = (ctx: Ctx, session: Session, body: Record<string, unknown>, now: number) => {
  const raw = body["orderID"]
  if (raw === undefined || raw === null || raw === "") fail("API0203", "Missing selection criteria: orderID")
  if (typeof raw !== "string" || !/^\d{1,8}$/.test(raw) || Number(raw) === 0) fail("API0230")
  const request = decodeWith(Punchout.ReserveOrderRequest, body)
  const order = ctx.state.reserveOrder(now, request.orderID, session.accountNo, request.comment, countryOfSession(ctx, session))
  return {
    order: encodeOrder(ctx.state, order),
    referenceId: request.referenceID ?? null,
    serverVersion: SERVER_VERSION,
    status: successfulStatus
  }
}

/** Runs an API command for a valid session (the router has checked token and method). */
export const handleApiCommand = (
  ctx: Ctx,
  command: (typeof Punchout.API_COMMANDS)[number],
  session: Session
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const now = yield* ctx.now
    const body = yield* readJsonObject.pipe(
      Effect.mapError((failure) => ({ failure, referenceID: undefined as string | undefined }))
    )
    const referenceID = typeof body["referenceID"] === "string"
      ? body["referenceID"]
      : typeof body["referenceId"] === "string" ? body["referenceId"] : undefined
    const result = yield* attempt(() => {
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
    }).pipe(Effect.mapError((failure) => ({ failure, referenceID })))
    return json(result)
  }).pipe(
    Effect.catchAll(({ failure, referenceID }) =>
      Effect.succeed(envelope(failure, { referenceID, spelling: command === "ReserveOrder" ? "referenceId" : "referenceID" }))
    )
  )
