// The admin helpers (Effects) and their HTTP form: the admin group of SandboxApi (/__sandbox/).
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import type { DriverPressResult, DriverSearchResult, SandboxAdmin } from "../Sandbox.js"
import { AdminBadRequest, AdminNotFound, SandboxApi } from "../SandboxApi.js"
import type { Ctx } from "./context.js"
import { addToCart, catalogView, type PageResult, press } from "./ordering.js"
import { sessionOf } from "./punchout.js"
import type { Fault } from "./state.js"
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

export const makeAdmin = (
  ctx: Ctx,
  deliveries: SubscriptionRef.SubscriptionRef<ReadonlyArray<WebhookDelivery>>
): SandboxAdmin => {
  const sync = <A>(f: () => A) => Effect.sync(f)
  // The test driver does what the ordering pages do; what they would show as an error page is a SandboxAdminError.
  const withSession = <A>(
    token: string,
    f: (session: NonNullable<ReturnType<typeof sessionOf>>, now: number) => PageResult<A>
  ) =>
    Effect.flatMap(ctx.now, (now): Effect.Effect<A, SandboxAdminError> => {
      ctx.state.sweep(now)
      const session = sessionOf(ctx, token, now)
      if (session === undefined) {
        return Effect.fail(new SandboxAdminError({ message: "Unauthorized: unknown or expired session token" }))
      }
      return Effect.mapError(f(session, now), (failure) => new SandboxAdminError({ message: failure.message }))
    })
  const admin: SandboxAdmin = {
    now: ctx.now,
    advanceClock: (duration) =>
      sync(() => {
        ctx.state.clockOffset += Duration.toMillis(Duration.decode(duration))
      }),
    injectFault: (fault) => sync(() => ctx.state.faults.inject(fault)),
    clearFaults: sync(() => {
      ctx.state.faults.clear()
    }),
    deliveries: () => SubscriptionRef.get(deliveries),
    awaitDeliveries: (count) =>
      deliveries.changes.pipe(
        Stream.filter((all) => all.length >= count),
        Stream.runHead,
        Effect.map(Option.getOrElse(() => [] as ReadonlyArray<WebhookDelivery>))
      ),
    addCustomer: (customer) =>
      sync(() => {
        if (customer.timeZone !== undefined && !isTimeZone(customer.timeZone)) {
          throw new SandboxAdminError({
            message: `timeZone must be an IANA time zone such as America/Chicago, got ${customer.timeZone}`
          })
        }
        ctx.state.accounts.addCustomer(customer)
      }),
    addVendorKey: (apiKey) =>
      sync(() => {
        ctx.state.accounts.vendorKeys.set(apiKey, { expired: false })
      }),
    addOmsKey: (apiKey, tier) =>
      sync(() => {
        ctx.state.accounts.omsKeys.set(apiKey, { tier, expired: false })
      }),
    revokeToken: (apiToken) => sync(() => ctx.state.accounts.revokeToken(apiToken)),
    expireKey: (apiKey) => sync(() => ctx.state.accounts.expireKey(apiKey)),
    setMonthlyAllowance: (apiKey, limit) =>
      sync(() => {
        ctx.state.accounts.allowances.set(apiKey, limit)
      }),
    setOrderState: (orderID, state) => sync(() => ctx.state.orders.setOrderState(orderID, state) !== undefined),
    driver: {
      search: (token, params) =>
        withSession(
          token,
          (session) =>
            Either.map(catalogView(ctx, session, { token, ...params }), (view): DriverSearchResult => {
              const country = ctx.state.accounts.customers.get(session.accountNo)!.country
              return {
                vehicle: view.vehicle === undefined
                  ? undefined
                  : `${view.vehicle.year} ${view.vehicle.make} ${view.vehicle.model}`,
                results: view.products.map((p) => ({
                  productID: p.productID,
                  brandID: p.brandCode,
                  description: p.description,
                  price: p.price,
                  available: p.stocked ? ctx.state.inventory.available(p, country) : 0
                })),
                page: view.page,
                pageCount: view.pageCount,
                total: view.total
              }
            })
        ),
      addToCart: (token, item) =>
        withSession(
          token,
          (session, now) =>
            Either.map(
              addToCart(ctx, session, now, item),
              (order) => ({ orderID: order.orderID, lines: order.lines.length })
            )
        ),
      press: (token, button) =>
        Effect.flatMap(
          withSession(token, (session, now) => press(ctx, session, now, button)),
          ({ result, send }) =>
            Effect.as(
              Effect.forEach(send, (s) => ctx.deliver(s.event, s.url, s.body), { discard: true }),
              result satisfies DriverPressResult
            )
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

const bad = (error: SandboxAdminError) => new AdminBadRequest({ error: error.message })

/** The admin group of SandboxApi (`/__sandbox/…`), on the same helpers as `sandbox.admin`. */
export const adminGroup = (ctx: Ctx, admin: SandboxAdmin) =>
  HttpApiBuilder.group(SandboxApi, "admin", (handlers) =>
    handlers
      .handle("index", () => Effect.succeed({ endpoints: ADMIN_ROUTES }))
      .handle("addCustomer", ({ payload }) =>
        admin.addCustomer(payload).pipe(
          Effect.as({ ok: true }),
          Effect.catchAllDefect((defect) =>
            defect instanceof SandboxAdminError ? Effect.fail(bad(defect)) : Effect.die(defect)
          )
        ))
      .handle("addVendorKey", ({ payload }) => Effect.as(admin.addVendorKey(payload.apiKey), { ok: true }))
      .handle("addOmsKey", ({ payload }) =>
        Effect.as(admin.addOmsKey(payload.apiKey, payload.tier ?? "test"), { ok: true }))
      .handle("revokeToken", ({ payload }) =>
        Effect.map(admin.revokeToken(payload.apiToken), (ok) => ({ ok })))
      .handle("expireKey", ({ payload }) => Effect.map(admin.expireKey(payload.apiKey), (ok) => ({ ok })))
      .handle("setMonthlyAllowance", ({ payload }) =>
        Effect.as(admin.setMonthlyAllowance(payload.apiKey, payload.limit), { ok: true }))
      .handle("clock", () =>
        clockView(ctx))
      .handle("advanceClock", ({ payload }) =>
        Effect.zipRight(admin.advanceClock(Duration.millis(payload.millis)), clockView(ctx)))
      .handle("injectFault", ({ payload }) =>
        Effect.as(admin.injectFault(payload as Fault), { ok: true }))
      .handle("clearFaults", () =>
        Effect.as(admin.clearFaults, { ok: true }))
      .handle("deliveries", () =>
        Effect.map(admin.deliveries(), (deliveries) => ({ deliveries })))
      .handle("order", ({ path }) => {
        const order = ctx.state.orders.get(path.orderID)
        return order === undefined
          ? Effect.fail(new AdminNotFound({ error: "order not found" }))
          : Effect.succeed({
            orderID: path.orderID,
            accountNo: order.accountNo,
            state: order.state,
            comment: order.comment,
            expiresAt: order.expiresAt ?? null,
            lines: order.lines.map((l) => ({
              productID: l.product.productID,
              brandID: l.product.brandCode,
              quantity: l.quantity,
              warehouseCode: l.warehouseCode
            }))
          })
      })
      .handle("setOrderState", ({ path, payload }) =>
        Effect.flatMap(admin.setOrderState(path.orderID, payload.state), (found) =>
          found
            ? Effect.succeed({ orderID: path.orderID, state: payload.state })
            : Effect.fail(new AdminNotFound({ error: "order not found" }))))
      .handle("session", ({ path }) =>
        Effect.flatMap(ctx.now, (now) => {
          const session = sessionOf(ctx, path.token, now)
          if (session === undefined) {
            return Effect.fail(new AdminNotFound({ error: "unknown or expired session token" }))
          }
          const v = session.lastVehicle
          return Effect.succeed({
            accountNo: session.accountNo,
            expiresAt: session.expiresAt,
            referenceID: session.referenceID ?? null,
            pageReferenceID: session.pageReferenceID ?? null,
            vehicle: v === undefined
              ? null
              : {
                year: v.year,
                make: v.make,
                model: v.model,
                description: `${v.year} ${v.make} ${v.model}`,
                identifier: v.identifier ?? null
              },
            cartOrderID: session.cartOrderId ?? null
          })
        }))
      .handle("driverSearch", ({ payload }) => {
        const { token, ...params } = payload
        return admin.driver.search(token, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])))
          .pipe(Effect.mapError(bad))
      })
      .handle("driverAddToCart", ({ payload }) =>
        admin.driver.addToCart(payload.token, {
          productID: payload.productID,
          brandID: payload.brandID,
          quantity: payload.quantity ?? 1
        }).pipe(
          Effect.mapError(bad)
        ))
      .handle("driverPress", ({ payload }) =>
        admin.driver.press(payload.token, payload.button).pipe(Effect.mapError(bad))))

const clockView = (ctx: Ctx) =>
  Effect.map(ctx.now, (now) => ({ now: new Date(now).toISOString(), offsetMillis: ctx.state.clockOffset }))

/** `METHOD path` of every admin route, read from the definition. */
const ADMIN_ROUTES: ReadonlyArray<string> = (() => {
  const routes: Array<string> = []
  HttpApi.reflect(SandboxApi, {
    predicate: ({ group }) => group.identifier === "admin",
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      routes.push(`${endpoint.method} ${endpoint.path.replace(/^\/__sandbox\/?/, "").replace(/:(\w+)/g, "{$1}")}`)
    }
  })
  return routes
})()
