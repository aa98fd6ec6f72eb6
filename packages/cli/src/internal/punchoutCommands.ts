// `shoplink punchout …`: sessions, quotes, orders and the ShowCatalog URL.
import { Punchout } from "@shoplink/protocol"
import { type PunchoutSession, ShowUrls } from "@shoplink/punchout"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as ShoplinkConfig from "../ShoplinkConfig.js"
import { openUrl } from "./browser.js"
import { loadSettings, withPunchout } from "./common.js"
import { UsageError } from "./errors.js"
import { fields, json, money, out, table, withSpinner } from "./output.js"
import type * as Spec from "./spec.js"

/** Session URLs carry the token as a query parameter: hide it unless asked. */
const maskToken = (url: string): string => url.replace(/([?&]token=)[^&]*/, "$1<redacted>")

const shownUrl = (
  url: Redacted.Redacted<string>,
  reveal: boolean
) => (reveal ? Redacted.value(url) : maskToken(Redacted.value(url)))

const time = (dt: DateTime.Utc) => DateTime.formatIso(dt)

export const sessionCreate = (args: Spec.ArgsOf<typeof Spec.punchoutSessionCreate>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const session = yield* withPunchout(settings, (s) => Effect.succeed(s)).pipe(withSpinner("creating session"))
    const token = Redacted.value(session.token)
    const view = {
      expiresAt: time(session.expiresAt),
      serverVersion: session.serverVersion,
      urlTemplate: shownUrl(session.urlTemplate, args.showToken),
      token: args.showToken ? token : ShoplinkConfig.mask(token)
    }
    if (args.json) return yield* json(view)
    yield* out(fields([
      ["session", "created"],
      ["expires", view.expiresAt],
      ["server version", view.serverVersion ?? ""],
      ["url template", view.urlTemplate],
      ["token", view.token]
    ]))
  })

const printUrl = (
  url: Redacted.Redacted<string>,
  args: { readonly json: boolean; readonly showToken: boolean; readonly open: boolean }
) =>
  Effect.gen(function*() {
    const shown = shownUrl(url, args.showToken)
    if (args.json) yield* json({ url: shown, opened: args.open })
    else yield* out(shown)
    if (args.open) yield* openUrl(Redacted.value(url))
  })

const fromEither = <A, E>(either: Either.Either<A, E>): Effect.Effect<A, E> =>
  Either.isRight(either) ? Effect.succeed(either.right) : Effect.fail(either.left)

export const sessionUrl = (args: Spec.ArgsOf<typeof Spec.punchoutSessionUrl>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const url = yield* withPunchout(settings, (session) => fromEither(ShowUrls.showCatalogUrl(session))).pipe(
      withSpinner("creating session")
    )
    yield* printUrl(url, args)
  })

export const quotes = (args: Spec.ArgsOf<typeof Spec.punchoutQuotes>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const input = Option.isSome(args.brand)
      ? { productID: args.term, brandID: args.brand.value, quantity: args.qty }
      : { searchTerm: args.term, quantity: args.qty }
    const response = yield* withPunchout(settings, (s, client) => client.getProductQuotes(s, input)).pipe(
      withSpinner("getting quotes")
    )
    if (args.json) return yield* json(Schema.encodeSync(Punchout.GetProductQuotesResponse)(response))
    if (response.quotes.length === 0) return yield* out("no quotes")
    yield* out(table(
      ["PRODUCT", "BRAND", "DESCRIPTION", "PRICE", "LIST", "CORE", "AVAIL", "ORDER BY"],
      response.quotes.map((q) => [
        q.productID,
        q.brandID,
        q.productDesc,
        money(q.price),
        money(q.listPrice),
        money(q.corePrice),
        q.quantityAvail,
        time(q.orderByTime)
      ])
    ))
  })

const printOrder = (order: Punchout.Order, asJson: boolean, encoded: unknown) =>
  Effect.gen(function*() {
    if (asJson) return yield* json(encoded)
    yield* out(fields([
      ["order", order.orderID],
      ["status", `${order.status}${order.statusDescription ? ` (${order.statusDescription})` : ""}`],
      ["created", time(order.orderCreateTime)],
      ["comment", order.comment]
    ]))
    if (order.orderLines.length > 0) {
      yield* out("")
      yield* out(table(
        ["PRODUCT", "BRAND", "DESCRIPTION", "QTY", "PRICE", "STATUS"],
        order.orderLines.map((
          l
        ) => [l.productID, l.brandID, l.productDesc, l.quantity, money(l.price), l.statusDescription || l.status])
      ))
    }
  })

export const orderCreate = (args: Spec.ArgsOf<typeof Spec.punchoutOrderCreate>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const response = yield* withPunchout(settings, (s, client) =>
      client.createOrder(s, {
        productID: args.product,
        brandID: args.brand,
        quantity: args.qty,
        ...(Option.isSome(args.comment) ? { comment: args.comment.value } : {})
      })).pipe(withSpinner("creating order"))
    yield* printOrder(response.order, args.json, Schema.encodeSync(Punchout.OrderResponse)(response))
  })

export const orderSubmit = (args: Spec.ArgsOf<typeof Spec.punchoutOrderSubmit>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const response = yield* withPunchout(settings, (s, client) => client.submitOrder(s, { orderID: args.orderId }))
      .pipe(
        withSpinner("submitting order")
      )
    yield* printOrder(response.order, args.json, Schema.encodeSync(Punchout.OrderResponse)(response))
  })

export const orderReserve = (args: Spec.ArgsOf<typeof Spec.punchoutOrderReserve>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const response = yield* withPunchout(settings, (s, client) =>
      client.reserveOrder(s, {
        orderID: args.orderId,
        ...(Option.isSome(args.comment) ? { comment: args.comment.value } : {})
      })).pipe(withSpinner("reserving order"))
    yield* printOrder(response.order, args.json, Schema.encodeSync(Punchout.ReserveOrderResponse)(response))
  })

export const catalog = (args: Spec.ArgsOf<typeof Spec.punchoutCatalog>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const vehicles = [args.vin, args.plate, args.baseVehicle].filter(Option.isSome).length
    if (vehicles > 1) {
      return yield* new UsageError({ message: "give one vehicle: --vin, --plate with --state, or --base-vehicle" })
    }
    if (Option.isSome(args.plate) !== Option.isSome(args.state)) {
      return yield* new UsageError({
        message: "--plate and --state go together",
        fix: "e.g. --plate 8ABC123 --state CA"
      })
    }
    const settings = yield* loadSettings(args)
    const params: ShowUrls.ShowCatalogInput = {
      ...(Option.isSome(args.search) ? { searchTerm: args.search.value } : {}),
      ...(Option.isSome(args.vin) ? { vin: args.vin.value } : {}),
      ...(Option.isSome(args.plate) ? { licensePlate: args.plate.value } : {}),
      ...(Option.isSome(args.state) ? { licensePlateState: args.state.value } : {}),
      ...(Option.isSome(args.baseVehicle) ? { baseVehicleID: args.baseVehicle.value } : {})
    }
    const url = yield* withPunchout(
      settings,
      (session: PunchoutSession.PunchoutSession) => fromEither(ShowUrls.showCatalogUrl(session, params))
    ).pipe(withSpinner("creating session"))
    yield* printUrl(url, args)
  })
