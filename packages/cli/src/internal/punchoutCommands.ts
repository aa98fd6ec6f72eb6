// `shoplink punchout …`: sessions, quotes, orders and the ShowCatalog URL.
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Punchout } from "@shoplink/protocol"
import { type PunchoutSession, ShowUrls } from "@shoplink/punchout"
import { DateTime, Effect, Either, Option, Redacted, Schema } from "effect"
import * as ShoplinkConfig from "../ShoplinkConfig.js"
import { openUrl } from "./browser.js"
import { common, loadSettings, withPunchout } from "./common.js"
import { UsageError } from "./errors.js"
import { help } from "./help.js"
import { fields, json, money, out, table, withSpinner } from "./output.js"

const showToken = Options.boolean("show-token").pipe(
  Options.withDescription("print the session token in full (it grants access to the customer's cart for 12 hours)")
)

/** Session URLs carry the token as a query parameter: hide it unless asked. */
const maskToken = (url: string): string => url.replace(/([?&]token=)[^&]*/, "$1<redacted>")

const shownUrl = (url: Redacted.Redacted<string>, reveal: boolean) => (reveal ? Redacted.value(url) : maskToken(Redacted.value(url)))

const time = (dt: DateTime.Utc) => DateTime.formatIso(dt)

const sessionCreate = Command.make("create", { ...common, showToken }, (args) =>
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
  })).pipe(Command.withDescription(help(
    "Create a punchout session for the configured customer and show its expiry and URL template.",
    ["shoplink punchout session create", "shoplink punchout session create --json --show-token"],
    ["The token is masked unless --show-token is given."]
  )))

const openOption = Options.boolean("open").pipe(Options.withDescription("open the URL in the browser (SHOPLINK_BROWSER or the system opener)"))

const printUrl = (url: Redacted.Redacted<string>, args: { readonly json: boolean; readonly showToken: boolean; readonly open: boolean }) =>
  Effect.gen(function*() {
    const shown = shownUrl(url, args.showToken)
    if (args.json) yield* json({ url: shown, opened: args.open })
    else yield* out(shown)
    if (args.open) yield* openUrl(Redacted.value(url))
  })

const fromEither = <A, E>(either: Either.Either<A, E>): Effect.Effect<A, E> =>
  Either.isRight(either) ? Effect.succeed(either.right) : Effect.fail(either.left)

const sessionUrl = Command.make("url", { ...common, showToken, open: openOption }, (args) =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const url = yield* withPunchout(settings, (session) => fromEither(ShowUrls.showCatalogUrl(session))).pipe(
      withSpinner("creating session")
    )
    yield* printUrl(url, args)
  })).pipe(Command.withDescription(help(
    "Create a session and print its ShowCatalog URL (the ordering page entry).",
    ["shoplink punchout session url --open", "shoplink punchout session url --show-token"]
  )))

const session = Command.make("session").pipe(
  Command.withDescription(help("Punchout sessions.", ["shoplink punchout session create", "shoplink punchout session url --open"])),
  Command.withSubcommands([sessionCreate, sessionUrl])
)

const quantity = (name = "qty") =>
  Options.integer(name).pipe(Options.withDescription("quantity (a positive whole number)"), Options.withDefault(1))

const quotes = Command.make(
  "quotes",
  {
    ...common,
    term: Args.text({ name: "term" }).pipe(Args.withDescription("search term, or a product ID with --brand")),
    brand: Options.text("brand").pipe(Options.withDescription("brand ID: look up exactly this product"), Options.optional),
    qty: quantity()
  },
  (args) =>
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
).pipe(Command.withDescription(help(
  "GetProductQuotes: price and availability for a search term or one product.",
  ["shoplink punchout quotes \"oil filter\"", "shoplink punchout quotes 51515 --brand WIX --qty 2 --json"]
)))

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
        order.orderLines.map((l) => [l.productID, l.brandID, l.productDesc, l.quantity, money(l.price), l.statusDescription || l.status])
      ))
    }
  })

const comment = Options.text("comment").pipe(Options.withDescription("order comment / P.O. (1-20 characters)"), Options.optional)
const orderId = Args.text({ name: "orderID" }).pipe(Args.withDescription("the order ID CreateOrder returned"))

const orderCreate = Command.make(
  "create",
  {
    ...common,
    product: Options.text("product").pipe(Options.withDescription("product ID")),
    brand: Options.text("brand").pipe(Options.withDescription("brand ID")),
    qty: quantity(),
    comment
  },
  (args) =>
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
).pipe(Command.withDescription(help(
  "CreateOrder: put one product in the customer's cart (not submitted).",
  ["shoplink punchout order create --product 51515 --brand WIX --qty 2 --comment \"PO 77\""],
  ["CreateOrder is never retried once the request may have reached the service."]
)))

const orderSubmit = Command.make("submit", { ...common, orderId }, (args) =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const response = yield* withPunchout(settings, (s, client) => client.submitOrder(s, { orderID: args.orderId })).pipe(
      withSpinner("submitting order")
    )
    yield* printOrder(response.order, args.json, Schema.encodeSync(Punchout.OrderResponse)(response))
  })).pipe(Command.withDescription(help(
    "SubmitOrder: submit an order created earlier.",
    ["shoplink punchout order submit 10000001"]
  )))

const orderReserve = Command.make("reserve", { ...common, orderId, comment }, (args) =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const response = yield* withPunchout(settings, (s, client) =>
      client.reserveOrder(s, {
        orderID: args.orderId,
        ...(Option.isSome(args.comment) ? { comment: args.comment.value } : {})
      })).pipe(withSpinner("reserving order"))
    yield* printOrder(response.order, args.json, Schema.encodeSync(Punchout.ReserveOrderResponse)(response))
  })).pipe(Command.withDescription(help(
    "ReserveOrder: keep an order in the cart and reset its expiry.",
    ["shoplink punchout order reserve 10000001 --comment \"PO 77\""]
  )))

const order = Command.make("order").pipe(
  Command.withDescription(help("Punchout orders: create, submit, reserve.", [
    "shoplink punchout order create --product 51515 --brand WIX",
    "shoplink punchout order submit 10000001"
  ])),
  Command.withSubcommands([orderCreate, orderSubmit, orderReserve])
)

const optionalText = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional)

const catalog = Command.make(
  "catalog",
  {
    ...common,
    showToken,
    open: openOption,
    search: optionalText("search", "search term (needs a vehicle)"),
    vin: optionalText("vin", "vehicle VIN (17 characters)"),
    plate: optionalText("plate", "license plate (with --state)"),
    state: optionalText("state", "license plate state, e.g. CA"),
    baseVehicle: optionalText("base-vehicle", "ACES base vehicle ID")
  },
  (args) =>
    Effect.gen(function*() {
      const vehicles = [args.vin, args.plate, args.baseVehicle].filter(Option.isSome).length
      if (vehicles > 1) {
        return yield* new UsageError({ message: "give one vehicle: --vin, --plate with --state, or --base-vehicle" })
      }
      if (Option.isSome(args.plate) !== Option.isSome(args.state)) {
        return yield* new UsageError({ message: "--plate and --state go together", fix: "e.g. --plate 8ABC123 --state CA" })
      }
      const settings = yield* loadSettings(args)
      const params: ShowUrls.ShowCatalogInput = {
        ...(Option.isSome(args.search) ? { searchTerm: args.search.value } : {}),
        ...(Option.isSome(args.vin) ? { vin: args.vin.value } : {}),
        ...(Option.isSome(args.plate) ? { licensePlate: args.plate.value } : {}),
        ...(Option.isSome(args.state) ? { licensePlateState: args.state.value } : {}),
        ...(Option.isSome(args.baseVehicle) ? { baseVehicleID: args.baseVehicle.value } : {})
      }
      const url = yield* withPunchout(settings, (session: PunchoutSession.PunchoutSession) =>
        fromEither(ShowUrls.showCatalogUrl(session, params))).pipe(withSpinner("creating session"))
      yield* printUrl(url, args)
    })
).pipe(Command.withDescription(help(
  "Print the ShowCatalog URL for a vehicle (and open it with --open).",
  [
    "shoplink punchout catalog --vin 1FTEW1EP5KFA12345 --search \"oil filter\"",
    "shoplink punchout catalog --plate 8ABC123 --state CA --open",
    "shoplink punchout catalog --base-vehicle 5678 --show-token"
  ],
  ["The URL carries the session token: it is masked unless --show-token is given; --open passes the full URL to the browser."]
)))

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const punchoutCommand: Command.Command<"punchout", never, unknown, any> = Command.make("punchout").pipe(
  Command.withDescription(help("The Vendor Punchout API: sessions, quotes, orders, the ordering pages.", [
    "shoplink punchout quotes \"oil filter\"",
    "shoplink punchout catalog --base-vehicle 5678 --open"
  ])),
  Command.withSubcommands([session, quotes, order, catalog])
)
