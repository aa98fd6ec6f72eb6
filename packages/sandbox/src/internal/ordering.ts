// What a person does in the ordering application (search, add to cart, press an export button),
// shared by the HTML pages and the admin test driver.
import type { DriverPressResult } from "../Sandbox.js"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { Punchout } from "@shoplink/protocol"
import type { Product, Vehicle } from "./catalog.js"
import type { Ctx } from "./context.js"
import { reject, type Result } from "./domain/result.js"
import { type MessageFailure, textOf } from "./failure.js"
import type { Session, StoredOrder } from "./state.js"
import { exportAndSaveResponse, orderWebhook, quoteLine, quoteWebhook } from "./wire.js"

/**
 * A problem the ordering pages show on an error page: its text and HTTP status (400 unless said).
 * The operations below answer it as a typed failure, like the domain's messages, never by throwing.
 */
export class PageFailure {
  readonly _tag = "PageFailure"
  constructor(readonly message: string, readonly status = 400) {}
}

export type PageResult<A> = Either.Either<A, PageFailure>

const refuse = (message: string, status?: number): PageResult<never> => Either.left(new PageFailure(message, status))

// A refused domain operation is shown with the message's ID and text.
const fromMessage = (failure: MessageFailure) => new PageFailure(`${failure.id}: ${textOf(failure)}`)

const orRefused = <A>(result: Result<A>): PageResult<A> => Either.mapLeft(result, fromMessage)

export interface CatalogView {
  readonly vehicle: Vehicle | undefined
  readonly identifier: string | undefined
  readonly searchTerm: string | undefined
  /** The products on the page shown. */
  readonly products: ReadonlyArray<Product>
  /** 1-based page shown, clamped to the pages there are. */
  readonly page: number
  readonly pageCount: number
  /** Matches over all pages. */
  readonly total: number
}

/** Results per ShowCatalog page: a vehicle alone matches well over a hundred products. */
export const PAGE_SIZE = 20

/**
 * The export buttons of the order page.
 *
 * @example
 * import type { ExportButton } from "@shoplink/sandbox"
 * const button: ExportButton = "exportAndSubmit"
 *
 * @since 0.1.0
 */
export type ExportButton = "export" | "exportAndSubmit" | "exportAndSave"

export const EXPORT_BUTTONS: ReadonlyArray<ExportButton> = ["export", "exportAndSubmit", "exportAndSave"]

// Declared with the public admin API; the ordering pages produce it.
export type PressResult = DriverPressResult

const countryOf = (ctx: Ctx, session: Session) => ctx.state.accounts.customers.get(session.accountNo)!.country

/** ShowCatalog: the spec's parameter rules, then the vehicle and the search. */
export const catalogView = (ctx: Ctx, session: Session, query: Record<string, string>): PageResult<CatalogView> =>
  Either.gen(function*() {
    // `page` is the sandbox's own paging parameter, not one of the spec's.
    const { page: pageParam, ...rest } = query
    const cleaned = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== ""))
    const decoded = Schema.decodeUnknownEither(Punchout.ShowCatalogQuery)(cleaned)
    if (decoded._tag === "Left") {
      const issues = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)
      return yield* refuse(issues.map((i) => i.message).join("; "))
    }
    const params = decoded.right
    if (params.referenceID !== undefined) session.pageReferenceID = params.referenceID
    let vehicle: Vehicle | undefined
    let identifier: string | undefined
    if (params.vin !== undefined) {
      vehicle = ctx.state.inventory.vehicleByVin(params.vin)
      if (vehicle === undefined) return yield* refuse(`Could not decode VIN ${params.vin}`)
      identifier = `VIN ${params.vin}`
    } else if (params.licensePlate !== undefined && params.licensePlateState !== undefined) {
      vehicle = ctx.state.inventory.vehicleByPlate(params.licensePlate, params.licensePlateState)
      if (vehicle === undefined) {
        return yield* refuse(
          `No record found for the license plate ${params.licensePlate} (${params.licensePlateState})`
        )
      }
      identifier = `License plate ${params.licensePlate} (${params.licensePlateState})`
    } else if (params.baseVehicleID !== undefined) {
      vehicle = ctx.state.inventory.vehicleByBaseId(params.baseVehicleID)
      if (vehicle === undefined) return yield* refuse(`Unknown base vehicle ID ${params.baseVehicleID}`)
      identifier = `Base vehicle ID ${params.baseVehicleID}`
    }
    // Quotes exported after a vehicle search carry the vehicle's make.
    session.vehicleMakeId = vehicle?.makeId ?? 0
    session.lastVehicle = vehicle === undefined
      ? undefined
      : { year: vehicle.year, make: vehicle.make, model: vehicle.model, identifier }
    const all = params.searchTerm !== undefined || vehicle !== undefined
      ? ctx.state.inventory.search(params.searchTerm, vehicle, Number.POSITIVE_INFINITY)
      : []
    const pageCount = Math.max(1, Math.ceil(all.length / PAGE_SIZE))
    // A malformed or out-of-range page shows the nearest page rather than an error: it is a link the user followed.
    const requested = pageParam !== undefined && /^\d{1,6}$/.test(pageParam.trim()) ? Number(pageParam.trim()) : 1
    const page = Math.min(Math.max(requested, 1), pageCount)
    const products = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)
    // The quote export without a cart sends what the user saw: this page.
    session.lastSearch = products.filter((p) => p.price !== undefined).map((product) => ({ product, quantity: 1 }))
    return { vehicle, identifier, searchTerm: params.searchTerm, products, page, pageCount, total: all.length }
  })

/** The session's cart order, if it is still in the cart. */
export const cartOf = (ctx: Ctx, session: Session): StoredOrder | undefined => {
  if (session.cartOrderId === undefined) return undefined
  const order = ctx.state.orders.get(session.cartOrderId)
  return order !== undefined && order.state === "cart" ? order : undefined
}

export const addToCart = (
  ctx: Ctx,
  session: Session,
  now: number,
  item: { readonly productID: string; readonly brandID: string; readonly quantity: number }
): PageResult<StoredOrder> =>
  Either.gen(function*() {
    if (!(item.quantity > 0) || !Number.isInteger(item.quantity)) return yield* orRefused(reject("API0231"))
    const cart = cartOf(ctx, session)
    session.cartExported = false
    if (cart === undefined) {
      const allocations = yield* orRefused(ctx.state.inventory.allocate([item], countryOf(ctx, session)))
      const order = ctx.state.orders.createCartOrder(now, session.accountNo, allocations, "")
      session.cartOrderId = order.orderID
      return order
    }
    yield* orRefused(ctx.state.orders.addToCart(now, cart, item, countryOf(ctx, session)))
    return cart
  })

export const removeFromCart = (
  ctx: Ctx,
  session: Session,
  item: { readonly productID: string; readonly brandID: string }
): PageResult<void> =>
  Either.gen(function*() {
    const cart = cartOf(ctx, session)
    if (cart === undefined) return yield* refuse("The cart is empty")
    yield* orRefused(ctx.state.orders.removeFromCart(cart, item.productID, item.brandID))
    session.cartExported = false
  })

/**
 * A launch: the vendor opened a Show* page of this session again. A cart that was exported and not
 * changed since is not brought back: the session starts with an empty cart (the exported order
 * stays an order in the cart, reachable with ShowOrder, until it expires).
 */
export const startLaunch = (session: Session): void => {
  if (!session.cartExported) return
  session.cartOrderId = undefined
  session.cartExported = false
}

/** The quote lines Export sends when the cart is empty: the priced parts of the last search, as shown. */
export const emptyCartQuotes = (
  session: Session
): ReadonlyArray<{ readonly product: Product; readonly quantity: number }> => session.lastSearch

/** ShowOrder: opens an order of the account; an order in the cart becomes the session's cart. */
export const openOrder = (
  ctx: Ctx,
  session: Session,
  orderId: string,
  referenceID: string | undefined
): PageResult<StoredOrder> => {
  const order = ctx.state.orders.get(orderId.trim())
  if (order === undefined || order.accountNo !== session.accountNo) return refuse(`Order ${orderId} not found`, 404)
  if (referenceID !== undefined) session.pageReferenceID = referenceID
  if (order.state === "cart" && session.cartOrderId !== order.orderID) {
    session.cartOrderId = order.orderID
    session.cartExported = false
  }
  return Either.right(order)
}

const referenceOf = (session: Session) => session.pageReferenceID ?? session.referenceID ?? ""

export const isVisible = (session: Session, button: ExportButton): boolean =>
  button === "export"
    ? session.exportButtons.export
    : button === "exportAndSave"
    ? session.exportButtons.exportAndSave
    : true

/** Presses an export button: webhooks go out in the background; the caller gets the redirect. */
export interface Pressed {
  readonly result: PressResult
  /** The webhooks to deliver. */
  readonly send: ReadonlyArray<{ readonly event: "order" | "quote"; readonly url: string; readonly body: unknown }>
}

export const press = (ctx: Ctx, session: Session, now: number, button: ExportButton): PageResult<Pressed> =>
  Either.gen(function*() {
    if (!isVisible(session, button)) {
      return yield* refuse(`The ${button} button is not shown for this session (exportButtons)`)
    }
    const cart = cartOf(ctx, session)
    const redirect = session.webhooks.callback
    const referenceID = referenceOf(session)
    if (button === "export") {
      const country = countryOf(ctx, session)
      const items = cart !== undefined && cart.lines.length > 0
        ? cart.lines.map((l) => ({ product: l.product, quantity: l.quantity }))
        : session.lastSearch
      if (items.length === 0) {
        return yield* refuse("Nothing to export: search for products or add them to the cart first")
      }
      const quotes = items.map((i) => quoteLine(ctx.state, now, i.product, i.quantity, country, session.vehicleMakeId))
      // Handed over: a later launch of this session starts with an empty cart (`startLaunch`).
      if (cart !== undefined && cart.lines.length > 0) session.cartExported = true
      return {
        result: { button, orderID: cart?.orderID, redirect, webhook: "quote", response: undefined },
        send: [{ event: "quote", url: session.webhooks.quote, body: quoteWebhook(referenceID, quotes) }]
      }
    }
    if (cart === undefined || cart.lines.length === 0) return yield* refuse("The cart is empty")
    if (button === "exportAndSubmit") {
      yield* orRefused(ctx.state.orders.submitOrder(cart.orderID, session.accountNo))
      session.cartOrderId = undefined
      return {
        result: { button, orderID: cart.orderID, redirect, webhook: "order", response: undefined },
        send: [{ event: "order", url: session.webhooks.order, body: orderWebhook(referenceID, cart) }]
      }
    }
    // Export and Save: the order stays reserved (KEEP_INVENTORY) and the answer carries its orderID.
    session.cartOrderId = undefined
    const response = exportAndSaveResponse(cart.orderID, referenceID === "" ? undefined : referenceID)
    return { result: { button, orderID: cart.orderID, redirect, webhook: undefined, response }, send: [] }
  })
