/**
 * The check of a received order against the distributor's Order Management API before it is
 * applied. The order webhook is not signed (the spec shows no request authentication), so anyone
 * holding a launch's webhook URL could post an order; with Order Management credentials the
 * connector confirms with `orderDetails` that the order exists for the shop's account, has been
 * submitted, and holds the lines (product, brand, quantity, price) the webhook would apply. The
 * `InboxWorker` consults this service for order deliveries when it is present; `ConnectorRuntime`
 * provides it whenever it is given `orderManagement` credentials (and warns at start-up when not).
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as HttpClient from "@effect/platform/HttpClient"
import { OrderManagementClient, type OrderManagementError } from "@shoplink/order-management"
import type { OrderManagement } from "@shoplink/protocol"
import { CredentialStore, type CustomerCredentials } from "./CredentialStore.js"
import { toCents } from "@shoplink/connector/Money"
import type { PartLine } from "@shoplink/connector/ShopSystem"

/**
 * The outcome of a check: `Verified`; `Rejected` (the distributor does not confirm the order — the
 * entry is dead-lettered in `enforce` mode, with the reason); or `Unavailable` (could not check now
 * — retried).
 *
 * @example
 * import type { OrderVerifier } from "@shoplink/connector-runtime"
 * const ok = (v: OrderVerifier.Verdict) => v._tag === "Verified"
 *
 * @since 0.1.0
 */
export type Verdict =
  | { readonly _tag: "Verified" }
  | { readonly _tag: "Rejected"; readonly reason: string }
  | { readonly _tag: "Unavailable"; readonly reason: string }

/**
 * A line the webhook would apply, as checked: product, brand, quantity and the unit cost in cents
 * (a `ShopSystem.PartLine` has all four).
 *
 * @example
 * import type { OrderVerifier } from "@shoplink/connector-runtime"
 * const line: OrderVerifier.AppliedLine = { productID: "51515", brandID: "WIX", quantity: 2, costCents: 649 }
 *
 * @since 0.1.0
 */
export type AppliedLine = Pick<PartLine, "productID" | "brandID" | "quantity" | "costCents">

/**
 * What is checked: the shop, the distributor order number, and the lines the delivery would apply
 * (the `InboxWorker` always gives them; without them only the order's existence and status are
 * checked).
 *
 * @example
 * import type { OrderVerifier } from "@shoplink/connector-runtime"
 * const order: OrderVerifier.OrderToVerify = {
 *   shopId: "shop_1", orderID: "10423", lines: [{ productID: "51515", brandID: "WIX", quantity: 2, costCents: 649 }]
 * }
 *
 * @since 0.1.0
 */
export interface OrderToVerify {
  readonly shopId: string
  readonly orderID: string
  readonly lines?: ReadonlyArray<AppliedLine> | undefined
}

/**
 * The service.
 *
 * @example
 * import { Effect } from "effect"
 * import { OrderVerifier } from "@shoplink/connector-runtime"
 * const check = Effect.flatMap(OrderVerifier.OrderVerifier, (v) => v.verify({ shopId: "shop_1", orderID: "10423" }))
 *
 * @since 0.1.0
 */
export class OrderVerifier extends Context.Tag("@shoplink/connector-runtime/OrderVerifier")<OrderVerifier, {
  /** `warn` logs a rejection and applies anyway; `enforce` dead-letters it. */
  readonly mode: "enforce" | "warn"
  readonly verify: (order: OrderToVerify) => Effect.Effect<Verdict>
}>() {}

/**
 * How strictly an order is checked.
 *
 * @example
 * import type { OrderVerifier } from "@shoplink/connector-runtime"
 * // A distributor whose orderDetails prices differ from the punchout price by rounding only.
 * const options: OrderVerifier.Options = { mode: "enforce", priceToleranceCents: 1 }
 *
 * @since 0.1.0
 */
export interface Options {
  /** `enforce` (default): a rejected order is dead-lettered with the reason; `warn`: logged and applied. */
  readonly mode?: "enforce" | "warn"
  /**
   * Compare the webhook's lines with the distributor's order lines (default `true`). `false` checks
   * only that the order exists for the account and has been submitted.
   */
  readonly checkLines?: boolean
  /**
   * How far, in cents per unit, the distributor's line price may be from the webhook's (default 0:
   * the same cent). `Infinity` leaves prices unchecked.
   */
  readonly priceToleranceCents?: number
}

// Order Management IDs that mean "no such order for this account".
const NOT_FOUND = new Set(["API0230", "API0246", "API0255", "API0256"])
// Status reports of an order that has been submitted (or is further along).
const SUBMITTED = new Set(["API0283", "API0284", "API0285", "API0286"])

const norm = (text: string) => text.trim().toUpperCase()

// Order Management answers the account number as a number; the shop's is a string ("00100200" is 100200).
const sameAccount = (answered: number | string, accountNo: string) => {
  const [a, b] = [Number(answered), Number(accountNo)]
  return Number.isFinite(a) && Number.isFinite(b) && accountNo.trim() !== ""
    ? a === b
    : norm(String(answered)) === norm(accountNo)
}

/** The brand codes a distributor line answers to: its brand code, and the codes of its brand information. */
const brandsOf = (line: OrderManagement.OrderLineDetail): ReadonlySet<string> =>
  new Set(
    [line.brandCode, line.brand?.SERVICEBrandCode, line.brand?.ACABrandID]
      .filter((code): code is string => typeof code === "string" && code.trim() !== "")
      .map(norm)
  )

/**
 * Why the distributor's lines do not confirm the applied ones, or `undefined` when they do. The
 * applied lines are taken per product and brand (a product on two lines, or split over warehouses
 * by the distributor, counts once with its total quantity); every one must be on the distributor's
 * order with that total quantity and, for each applied line, a unit price within `toleranceCents`.
 * Lines the distributor has and the webhook does not are not applied, so they are not a mismatch.
 *
 * @example
 * import { OrderVerifier } from "@shoplink/connector-runtime"
 * OrderVerifier.linesMismatch(
 *   [{ productID: "51515", brandID: "WIX", quantity: 2, costCents: 649 }],
 *   [{
 *     lineNo: 1,
 *     productID: "51515",
 *     brandCode: "WIX",
 *     productDesc: "Oil Filter",
 *     quantity: 1,
 *     quantityShipped: 0,
 *     price: 6.49,
 *     corePrice: 0,
 *     warehouseCode: "01"
 *   }],
 *   0
 * ) // "WIX 51515: quantity 2 in the webhook, 1 at the distributor"
 *
 * @since 0.1.0
 */
export const linesMismatch = (
  applied: ReadonlyArray<AppliedLine>,
  distributor: ReadonlyArray<OrderManagement.OrderLineDetail>,
  toleranceCents: number
): string | undefined => {
  const groups = new Map<
    string,
    { readonly productID: string; readonly brandID: string; quantity: number; readonly costs: Array<number> }
  >()
  for (const line of applied) {
    const key = `${norm(line.productID)}\u0000${norm(line.brandID)}`
    const group = groups.get(key) ?? { productID: line.productID, brandID: line.brandID, quantity: 0, costs: [] }
    group.quantity += line.quantity
    group.costs.push(line.costCents)
    groups.set(key, group)
  }
  for (const group of groups.values()) {
    const matching = distributor.filter((line) =>
      norm(line.productID) === norm(group.productID) && brandsOf(line).has(norm(group.brandID))
    )
    const what = `${group.brandID} ${group.productID}`
    if (matching.length === 0) return `${what} is not on the distributor's order`
    const quantity = matching.reduce((n, line) => n + line.quantity, 0)
    if (quantity !== group.quantity) {
      return `${what}: quantity ${group.quantity} in the webhook, ${quantity} at the distributor`
    }
    if (Number.isFinite(toleranceCents)) {
      const prices = matching.map((line) => toCents(line.price))
      for (const cost of group.costs) {
        if (!prices.some((price) => Math.abs(price - cost) <= toleranceCents)) {
          return `${what}: price ${(cost / 100).toFixed(2)} in the webhook, ${
            prices.map((p) => (p / 100).toFixed(2)).join(" / ")
          } at the distributor`
        }
      }
    }
  }
  return undefined
}

const verifierOf = (
  clientFor: (country: CustomerCredentials["country"]) => OrderManagementClient.OrderManagementClient.Service,
  credentials: CredentialStore["Type"],
  options: Options
): OrderVerifier["Type"] => {
  const checkLines = options.checkLines ?? true
  const tolerance = Math.max(0, options.priceToleranceCents ?? 0)
  return OrderVerifier.of({
    mode: options.mode ?? "enforce",
    verify: ({ lines, orderID, shopId }) =>
      Effect.gen(function*() {
        const customer = yield* credentials.get(shopId)
        const details = yield* clientFor(customer.country)
          .forCustomer({ accountNo: customer.accountNo, apiToken: customer.apiToken })
          .orderDetails({ orderNo: orderID })
        const account = details.customerAccountNo
        if (account !== undefined && account !== null && !sameAccount(account, customer.accountNo)) {
          return { _tag: "Rejected", reason: `order ${orderID} belongs to another account at the distributor` } as const
        }
        const status = details.orderHeader.orderStatus ?? details.status.message.ID
        if (status === undefined || !SUBMITTED.has(status)) {
          return {
            _tag: "Rejected",
            reason: `order ${orderID} is not submitted at the distributor (status ${status ?? "unknown"})`
          } as const
        }
        const mismatch = checkLines && lines !== undefined
          ? linesMismatch(lines, details.orderLines, tolerance)
          : undefined
        return mismatch === undefined
          ? { _tag: "Verified" } as const
          : { _tag: "Rejected", reason: `order ${orderID} does not match the distributor's: ${mismatch}` } as const
      }).pipe(
        Effect.catchAll((error): Effect.Effect<Verdict> => {
          const code = "code" in error && typeof error.code === "string" ? error.code : undefined
          if (code !== undefined && NOT_FOUND.has(code)) {
            return Effect.succeed({
              _tag: "Rejected",
              reason: `order ${orderID} is unknown to the distributor (${code})`
            })
          }
          return Effect.succeed({ _tag: "Unavailable", reason: error.message })
        }),
        Effect.withSpan("OrderVerifier.verify")
      )
  })
}

/**
 * Verifies with `orderDetails` of the `OrderManagementClient` in context, using the shop's customer
 * credentials from the `CredentialStore` (the same customer API token serves both APIs;
 * docs/assumptions.md) and assuming the punchout `orderID` is the Order Management order number.
 * An order is confirmed when the distributor knows it for the shop's account, reports it submitted
 * (API0283–API0286) and, unless `checkLines` is `false`, has the applied lines (see
 * `linesMismatch`). The client's environment serves every shop: for shops in both countries, use
 * `layerOrderManagementClient`.
 *
 * @example
 * import { Layer } from "effect"
 * import { OrderVerifier } from "@shoplink/connector-runtime"
 * // needs OrderManagementClient, CredentialStore
 * const verifier = OrderVerifier.layerOrderManagement({ mode: "enforce" })
 *
 * @since 0.1.0
 */
export const layerOrderManagement = (options: Options = {}): Layer.Layer<
  OrderVerifier,
  never,
  OrderManagementClient.OrderManagementClient | CredentialStore
> =>
  Layer.effect(
    OrderVerifier,
    Effect.gen(function*() {
      const oms = yield* OrderManagementClient.OrderManagementClient
      return verifierOf(() => oms, yield* CredentialStore, options)
    })
  )

/**
 * The environment of `environment`'s tier (test or production) for a customer's country: an
 * Order Management key serves its tier in both countries, and a Canadian account is reached under
 * `CA_…`, a U.S. one under `US_…`.
 *
 * @example
 * import { OrderVerifier } from "@shoplink/connector-runtime"
 * OrderVerifier.environmentFor("US_QUA", "CA") // "CA_QUA"
 *
 * @since 0.1.0
 */
export const environmentFor = (
  environment: OrderManagement.Environment,
  country: CustomerCredentials["country"]
): OrderManagement.Environment => {
  const test = environment.endsWith("_QUA")
  const canada = country.startsWith("CA")
  return canada ? (test ? "CA_QUA" : "CA_PRD") : (test ? "US_QUA" : "US_PRD")
}

/**
 * Verifies like `layerOrderManagement`, with clients it builds from `client` (an
 * `OrderManagementClient.Options`): one for each country of `client.environment`'s tier, so each
 * shop's order is looked up in its own country's environment. What `ConnectorRuntime` uses when
 * given `orderManagement`.
 *
 * @example
 * import { Redacted } from "effect"
 * import { OrderVerifier } from "@shoplink/connector-runtime"
 * const verifier = OrderVerifier.layerOrderManagementClient(
 *   { environment: "US_PRD", apiKey: Redacted.make("oms-key"), prodBaseUrl: "https://oms.distributor.example" },
 *   { mode: "enforce", priceToleranceCents: 0 }
 * ) // needs HttpClient, CredentialStore
 *
 * @since 0.1.0
 */
export const layerOrderManagementClient = (client: OrderManagementClient.Options, options: Options = {}): Layer.Layer<
  OrderVerifier,
  OrderManagementError.ConfigurationError,
  HttpClient.HttpClient | CredentialStore
> =>
  Layer.effect(
    OrderVerifier,
    Effect.gen(function*() {
      const us = yield* OrderManagementClient.make({ ...client, environment: environmentFor(client.environment, "US") })
      const ca = yield* OrderManagementClient.make({ ...client, environment: environmentFor(client.environment, "CA") })
      return verifierOf((country) => (country.startsWith("CA") ? ca : us), yield* CredentialStore, options)
    })
  )
