// The orders aggregate: punchout carts and Order Management orders, their lines, expiry and state
// changes. Operations answer a typed failure (a catalogue message) instead of throwing; what fails
// is checked before anything is changed, or undone.
import * as Either from "effect/Either"
import { OrderRules, type Values } from "@shoplink/protocol"
import type { Product } from "../catalog.js"
import type { Accounts, Address } from "./accounts.js"
import type { Faults } from "./faults.js"
import { type Allocation, type CartItem, DAY, type Inventory, startOfDay } from "./inventory.js"
import { ok, reject, type Result } from "./result.js"

/**
 * Where an order is: the punchout states (cart, expired) and the Order Management ones.
 *
 * @example
 * import type { OrderState } from "@shoplink/sandbox"
 * const next: OrderState = "shippedPartial"
 *
 * @since 0.1.0
 */
export type OrderState =
  | "cart"
  | "expired"
  | "saved"
  | "submitted"
  | "processing"
  | "shippedPartial"
  | "shippedComplete"

export const ORDER_STATES: ReadonlyArray<OrderState> = [
  "cart",
  "expired",
  "saved",
  "submitted",
  "processing",
  "shippedPartial",
  "shippedComplete"
]

/**
 * The Order Management status report of an order's state (`API0200` for an order in the cart or
 * expired, which has none).
 */
export const omsStatusId = (state: OrderState): OrderRules.OrderStatusId | "API0200" => {
  switch (state) {
    case "saved":
      return "API0282"
    case "submitted":
      return "API0283"
    case "processing":
      return "API0284"
    case "shippedPartial":
      return "API0285"
    case "shippedComplete":
      return "API0286"
    default:
      return "API0200"
  }
}

/** What the order's status forbids (the protocol's `OrderRules.refusal`), as a typed failure. */
const refusal = (action: OrderRules.OrderAction, order: StoredOrder): Result<void> => {
  const id = OrderRules.refusal(action, omsStatusId(order.state))
  return id === undefined ? Either.void : reject(id)
}

export interface StoredLine {
  readonly product: Product
  warehouseCode: string
  readonly quantity: number
  orderByTime: number
  dispatchTime: number
  readonly requestedProductId: string
  quantityShipped: number
  /** More than the warehouse had: accepted under the `backOrder` policy, dispatched later. */
  readonly backOrdered: boolean
}

export interface StoredOrder {
  readonly orderID: string
  readonly accountNo: string
  readonly origin: "punchout" | "oms"
  readonly createdAt: number
  lines: Array<StoredLine>
  comment: string
  customerPO: string
  state: OrderState
  /** When an unsubmitted order expires (min of orderByTime and the end of the following day). */
  expiresAt: number | undefined
  /** Whether its stock is currently held. */
  holdsStock: boolean
  readonly shippingAddress: Address | undefined
}

export class Orders {
  private readonly byId = new Map<string, StoredOrder>()
  private nextPunchoutOrder = 10_000_001
  private nextOmsOrder = 5_000_001

  constructor(
    private readonly inventory: Inventory,
    private readonly accounts: Accounts,
    private readonly faults: Faults
  ) {}

  get(orderID: string): StoredOrder | undefined {
    return this.byId.get(orderID)
  }

  /** Expires every unsubmitted order whose time has come and releases its stock. */
  sweep(now: number): void {
    for (const order of this.byId.values()) {
      if (order.state === "cart" && order.expiresAt !== undefined && now >= order.expiresAt) {
        order.state = "expired"
        this.releaseStock(order)
      }
    }
  }

  private expiryOf(createdAt: number, lines: ReadonlyArray<StoredLine>): number {
    const endOfFollowingDay = startOfDay(createdAt) + 2 * DAY
    return Math.min(endOfFollowingDay, ...lines.map((l) => l.orderByTime))
  }

  private releaseStock(order: StoredOrder): void {
    if (!order.holdsStock) return
    this.inventory.release(order.lines)
    order.holdsStock = false
  }

  // ---------------------------------------------------------------- orders

  createCartOrder(
    now: number,
    accountNo: string,
    allocations: ReadonlyArray<Allocation>,
    comment: string
  ): StoredOrder {
    const lines = this.inventory.linesOf(now, allocations)
    this.inventory.hold(lines)
    const order: StoredOrder = {
      orderID: String(this.nextPunchoutOrder++),
      accountNo,
      origin: "punchout",
      createdAt: now,
      lines,
      comment,
      customerPO: "",
      state: "cart",
      expiresAt: this.expiryOf(now, lines),
      holdsStock: true,
      shippingAddress: undefined
    }
    this.byId.set(order.orderID, order)
    return order
  }

  /** Adds items to an order in the cart (the ordering pages), merging a repeated product. */
  addToCart(now: number, order: StoredOrder, item: CartItem, country: Values.CountryCode): Result<void> {
    const existing = order.lines.find((l) =>
      l.product.productID.toUpperCase() === item.productID.toUpperCase() &&
      l.product.brandCode.toUpperCase() === item.brandID.toUpperCase()
    )
    const others = order.lines.filter((l) => l !== existing).map((l) => ({
      productID: l.product.productID,
      brandID: l.product.brandCode,
      quantity: l.quantity
    }))
    const merged = { ...item, quantity: item.quantity + (existing?.quantity ?? 0) }
    // Allocated with the order's own stock back on the shelf; on failure the order keeps its lines and stock.
    this.releaseStock(order)
    const allocations = this.inventory.allocate([...others, merged], country)
    if (Either.isRight(allocations)) order.lines = this.inventory.linesOf(now, allocations.right)
    this.inventory.hold(order.lines)
    order.holdsStock = true
    if (Either.isLeft(allocations)) return Either.left(allocations.left)
    order.expiresAt = this.expiryOf(order.createdAt, order.lines)
    return Either.void
  }

  /** Removes a product from an order in the cart, returning its stock. */
  removeFromCart(order: StoredOrder, productID: string, brandID: string): Result<void> {
    const line = order.lines.find((l) =>
      l.product.productID.toUpperCase() === productID.toUpperCase() &&
      l.product.brandCode.toUpperCase() === brandID.toUpperCase()
    )
    if (line === undefined) return reject("API0270")
    if (order.holdsStock) this.inventory.release([line])
    order.lines = order.lines.filter((l) => l !== line)
    order.expiresAt = this.expiryOf(order.createdAt, order.lines)
    return Either.void
  }

  /** The account's order: API0256 when it does not exist or belongs to another account. */
  orderOf(orderID: string, accountNo: string): Result<StoredOrder> {
    const order = this.byId.get(orderID.trim())
    if (order === undefined || order.accountNo !== accountNo) return reject("API0256")
    return ok(order)
  }

  submitOrder(orderID: string, accountNo: string): Result<StoredOrder> {
    return Either.gen(this, function*() {
      const order = yield* this.orderOf(orderID, accountNo)
      yield* this.faults.checkOrder(order.orderID)
      if (order.state === "expired") {
        // Spec: items must be reallocated (ReserveOrder) before submitting.
        return yield* reject(
          "API0234",
          "Quantity requested is not available: the order expired, reserve it again (ReserveOrder)"
        )
      }
      yield* refusal("submit", order)
      if (order.lines.length === 0) return yield* reject("API0203")
      const customer = this.accounts.customers.get(accountNo)
      if (customer?.poRequired === true && order.comment.trim() === "" && order.customerPO.trim() === "") {
        return yield* reject("API0250")
      }
      order.state = "submitted"
      order.expiresAt = undefined
      return order
    })
  }

  reserveOrder(
    now: number,
    orderID: string,
    accountNo: string,
    comment: string | undefined,
    country: Values.CountryCode
  ): Result<StoredOrder> {
    return Either.gen(this, function*() {
      const order = yield* this.orderOf(orderID, accountNo)
      yield* this.faults.checkOrder(order.orderID)
      yield* refusal("change", order)
      const wasHolding = order.holdsStock
      this.releaseStock(order)
      const allocations = this.inventory.allocate(
        order.lines.map((l) => ({
          productID: l.product.productID,
          brandID: l.product.brandCode,
          quantity: l.quantity
        })),
        country
      )
      if (Either.isLeft(allocations)) {
        if (wasHolding) {
          this.inventory.hold(order.lines)
          order.holdsStock = true
        }
        return yield* Either.left(allocations.left)
      }
      order.lines = this.inventory.linesOf(now, allocations.right)
      this.inventory.hold(order.lines)
      order.holdsStock = true
      order.state = "cart"
      order.expiresAt = this.expiryOf(now, order.lines)
      if (comment !== undefined) order.comment = comment
      return order
    })
  }

  createOmsOrder(
    now: number,
    accountNo: string,
    allocations: ReadonlyArray<Allocation>,
    options: {
      readonly submit: boolean
      readonly customerPO: string
      readonly comment: string
      readonly shippingAddress: Address | undefined
    }
  ): StoredOrder {
    const lines = this.inventory.linesOf(now, allocations)
    // A saved order holds no stock: its items may become unavailable until it is opened again.
    if (options.submit) this.inventory.hold(lines)
    const order: StoredOrder = {
      orderID: String(this.nextOmsOrder++),
      accountNo,
      origin: "oms",
      createdAt: now,
      lines,
      comment: options.comment,
      customerPO: options.customerPO,
      state: options.submit ? "submitted" : "saved",
      expiresAt: undefined,
      holdsStock: options.submit,
      shippingAddress: options.shippingAddress
    }
    this.byId.set(order.orderID, order)
    return order
  }

  /**
   * Opens a saved order again (Order Management openOrder): its items are reallocated as by
   * ReserveOrder; an order already in the cart is left as it is.
   */
  openOrder(now: number, orderID: string, accountNo: string, country: Values.CountryCode): Result<StoredOrder> {
    return Either.gen(this, function*() {
      const order = yield* this.orderOf(orderID, accountNo)
      yield* this.faults.checkOrder(order.orderID)
      yield* refusal("change", order)
      if (order.state === "saved") yield* this.reserveOrder(now, order.orderID, accountNo, undefined, country)
      return order
    })
  }

  /** Deletes an order its status allows deleting, returning any stock it held. */
  deleteOrder(orderID: string, accountNo: string): Result<StoredOrder> {
    return Either.gen(this, function*() {
      const order = yield* this.orderOf(orderID, accountNo)
      yield* this.faults.checkOrder(order.orderID)
      yield* refusal("delete", order)
      this.releaseStock(order)
      this.byId.delete(order.orderID)
      return order
    })
  }

  /** Moves an order to a state (admin): shipped states record shipped quantities. */
  setOrderState(orderID: string, state: OrderState): StoredOrder | undefined {
    const order = this.byId.get(orderID)
    if (order === undefined) return undefined
    order.state = state
    if (state === "shippedComplete") { for (const l of order.lines) l.quantityShipped = l.quantity }
    if (state === "shippedPartial") { for (const l of order.lines) l.quantityShipped = Math.ceil(l.quantity / 2) }
    if (state !== "cart") order.expiresAt = undefined
    return order
  }
}
