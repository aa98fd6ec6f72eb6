// The admin helpers (Effects) and their HTTP form under /__sandbox/.
import { HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Data, Duration, Effect, Option, Stream, SubscriptionRef } from "effect"
import type { DriverPressResult, DriverSearchResult, SandboxAdmin, SandboxCustomerInput } from "../Sandbox.js"
import type { Ctx } from "./context.js"
import { json, readJsonObject } from "./context.js"
import { MessageFailure, textOf } from "./failure.js"
import { addToCart, catalogView, EXPORT_BUTTONS, type ExportButton, PageError, press } from "./ordering.js"
import { sessionOf } from "./punchout.js"
import { type Fault, ORDER_STATES, type OrderState } from "./state.js"
import type { WebhookDelivery } from "./webhooks.js"

/**
 * A failure of the admin helpers or the test driver (unknown session, a page error, bad input).
 *
 * @example
 * import { Effect } from "effect"
 * import { withSandbox } from "@shoplink/sandbox"
 * const program = withSandbox((sandbox) =>
 *   sandbox.admin.driver.press("no-such-token", "export").pipe(
 *     Effect.catchTag("SandboxAdminError", (error) => Effect.log(error.message))
 *   )
 * )
 *
 * @since 0.1.0
 */
export class SandboxAdminError extends Data.TaggedError("SandboxAdminError")<{ readonly message: string }> {}

export const makeAdmin = (ctx: Ctx, deliveries: SubscriptionRef.SubscriptionRef<ReadonlyArray<WebhookDelivery>>): SandboxAdmin => {
  const sync = <A>(f: () => A) => Effect.sync(f)
  const withSession = <A>(token: string, f: (session: NonNullable<ReturnType<typeof sessionOf>>, now: number) => A) =>
    Effect.flatMap(ctx.now, (now) =>
      Effect.try({
        try: () => {
          ctx.state.sweep(now)
          const session = sessionOf(ctx, token, now)
          if (session === undefined) throw new PageError("Unauthorized: unknown or expired session token", 401)
          return f(session, now)
        },
        catch: (error) =>
          new SandboxAdminError({
            message: error instanceof PageError ? error.message : error instanceof MessageFailure ? `${error.id}: ${textOf(error)}` : String(error)
          })
      })
    )
  const admin: SandboxAdmin = {
    now: ctx.now,
    advanceClock: (duration) => sync(() => {
      ctx.state.clockOffset += Duration.toMillis(Duration.decode(duration))
    }),
    injectFault: (fault) => sync(() => ctx.state.injectFault(fault)),
    clearFaults: sync(() => {
      ctx.state.faults = []
    }),
    deliveries: () => SubscriptionRef.get(deliveries),
    awaitDeliveries: (count) =>
      deliveries.changes.pipe(
        Stream.filter((all) => all.length >= count),
        Stream.runHead,
        Effect.map(Option.getOrElse(() => [] as ReadonlyArray<WebhookDelivery>))
      ),
    addCustomer: (customer) => sync(() => {
      if (customer.timeZone !== undefined && !isTimeZone(customer.timeZone)) {
        throw new SandboxAdminError({ message: `timeZone must be an IANA time zone such as America/Chicago, got ${customer.timeZone}` })
      }
      ctx.state.addCustomer(customer)
    }),
    addVendorKey: (apiKey) => sync(() => {
      ctx.state.vendorKeys.set(apiKey, { expired: false })
    }),
    addOmsKey: (apiKey, tier) => sync(() => {
      ctx.state.omsKeys.set(apiKey, { tier, expired: false })
    }),
    revokeToken: (apiToken) => sync(() => ctx.state.revokeToken(apiToken)),
    expireKey: (apiKey) => sync(() => ctx.state.expireKey(apiKey)),
    setMonthlyAllowance: (apiKey, limit) => sync(() => {
      ctx.state.allowances.set(apiKey, limit)
    }),
    setOrderState: (orderID, state) => sync(() => ctx.state.setOrderState(orderID, state) !== undefined),
    driver: {
      search: (token, params) =>
        withSession(token, (session): DriverSearchResult => {
          const view = catalogView(ctx, session, { token, ...params })
          const country = ctx.state.customers.get(session.accountNo)!.country
          return {
            vehicle: view.vehicle === undefined ? undefined : `${view.vehicle.year} ${view.vehicle.make} ${view.vehicle.model}`,
            results: view.products.map((p) => ({
              productID: p.productID,
              brandID: p.brandCode,
              description: p.description,
              price: p.price,
              available: p.stocked ? ctx.state.available(p, country) : 0
            })),
            page: view.page,
            pageCount: view.pageCount,
            total: view.total
          }
        }),
      addToCart: (token, item) =>
        withSession(token, (session, now) => {
          const order = addToCart(ctx, session, now, item)
          return { orderID: order.orderID, lines: order.lines.length }
        }),
      press: (token, button) =>
        Effect.flatMap(
          withSession(token, (session, now) => press(ctx, session, now, button)),
          ({ result, send }) =>
            Effect.as(Effect.forEach(send, (s) => ctx.deliver(s.event, s.url, s.body), { discard: true }), result satisfies DriverPressResult)
        )
    }
  }
  return admin
}

const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone })
    return true
  } catch {
    return false
  }
}

const str = (body: Record<string, unknown>, name: string): string => {
  const value = body[name]
  if (typeof value !== "string" || value === "") throw new SandboxAdminError({ message: `${name} is required` })
  return value
}

/** `/__sandbox/...` routes (JSON in, JSON out). */
export const handleAdmin = (
  ctx: Ctx,
  admin: SandboxAdmin,
  path: ReadonlyArray<string>,
  method: string
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const body = method === "POST" ? yield* readJsonObject.pipe(Effect.orElseSucceed(() => ({} as Record<string, unknown>))) : {}
    const route = `${method} ${path.join("/")}`
    const orderRoute = /^(GET|POST) orders\/([^/]+)(\/state)?$/.exec(route)
    if (orderRoute !== null) {
      const orderID = decodeURIComponent(orderRoute[2]!)
      if (orderRoute[1] === "POST" && orderRoute[3] !== undefined) {
        const state = str(body, "state") as OrderState
        if (!ORDER_STATES.includes(state)) return json({ error: `state must be one of ${ORDER_STATES.join(", ")}` }, 400)
        const found = yield* admin.setOrderState(orderID, state)
        return found ? json({ orderID, state }) : json({ error: "order not found" }, 404)
      }
      const order = ctx.state.orders.get(orderID)
      return order === undefined
        ? json({ error: "order not found" }, 404)
        : json({ orderID, accountNo: order.accountNo, state: order.state, comment: order.comment, expiresAt: order.expiresAt ?? null, lines: order.lines.map((l) => ({ productID: l.product.productID, brandID: l.product.brandCode, quantity: l.quantity, warehouseCode: l.warehouseCode })) })
    }
    switch (route) {
      case "GET ":
        return json({
          endpoints: [
            "POST customers", "POST vendor-keys", "POST oms-keys", "POST revoke-token", "POST expire-key", "POST allowance",
            "GET clock", "POST clock/advance", "POST faults", "DELETE faults", "GET deliveries", "GET orders/{id}",
            "POST orders/{id}/state", "POST driver/search", "POST driver/add-to-cart", "POST driver/press"
          ]
        })
      case "POST customers":
        yield* admin.addCustomer({
          accountNo: str(body, "accountNo"), username: str(body, "username"), apiToken: str(body, "apiToken"),
          country: str(body, "country") === "CA" ? "CA" : "US",
          ...(typeof body["name"] === "string" ? { name: body["name"] } : {}),
          ...(typeof body["poRequired"] === "boolean" ? { poRequired: body["poRequired"] } : {}),
          ...(typeof body["timeZone"] === "string" ? { timeZone: body["timeZone"] } : {})
        } satisfies SandboxCustomerInput)
        return json({ ok: true }, 201)
      case "POST vendor-keys":
        yield* admin.addVendorKey(str(body, "apiKey"))
        return json({ ok: true }, 201)
      case "POST oms-keys":
        yield* admin.addOmsKey(str(body, "apiKey"), body["tier"] === "production" ? "production" : "test")
        return json({ ok: true }, 201)
      case "POST revoke-token":
        return json({ ok: yield* admin.revokeToken(str(body, "apiToken")) })
      case "POST expire-key":
        return json({ ok: yield* admin.expireKey(str(body, "apiKey")) })
      case "POST allowance":
        yield* admin.setMonthlyAllowance(str(body, "apiKey"), Number(body["limit"]))
        return json({ ok: true })
      case "GET clock":
        return json({ now: new Date(yield* ctx.now).toISOString(), offsetMillis: ctx.state.clockOffset })
      case "POST clock/advance": {
        const millis = typeof body["millis"] === "number" ? body["millis"] : Number.NaN
        if (!Number.isFinite(millis) || millis < 0) return json({ error: "millis must be a non-negative number" }, 400)
        yield* admin.advanceClock(Duration.millis(millis))
        return json({ now: new Date(yield* ctx.now).toISOString(), offsetMillis: ctx.state.clockOffset })
      }
      case "POST faults":
        yield* admin.injectFault(body as unknown as Fault)
        return json({ ok: true }, 201)
      case "DELETE faults":
        yield* admin.clearFaults
        return json({ ok: true })
      case "GET deliveries":
        return json({ deliveries: yield* admin.deliveries() })
      case "POST driver/search": {
        const { token, ...params } = body
        const result = yield* admin.driver.search(String(token ?? ""), Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])))
        return json(result)
      }
      case "POST driver/add-to-cart":
        return json(yield* admin.driver.addToCart(str(body, "token"), {
          productID: str(body, "productID"), brandID: str(body, "brandID"), quantity: Number(body["quantity"] ?? 1)
        }))
      case "POST driver/press": {
        const button = str(body, "button") as ExportButton
        if (!EXPORT_BUTTONS.includes(button)) return json({ error: `button must be one of ${EXPORT_BUTTONS.join(", ")}` }, 400)
        return json(yield* admin.driver.press(str(body, "token"), button))
      }
    }
    return json({ error: `no admin route ${route}` }, 404)
  }).pipe(
    Effect.catchAllDefect((defect) =>
      defect instanceof SandboxAdminError ? Effect.succeed(json({ error: defect.message }, 400)) : Effect.die(defect)
    ),
    Effect.catchAll((error) => Effect.succeed(json({ error: error.message }, 400)))
  )
