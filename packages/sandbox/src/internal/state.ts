// The in-memory state of one sandbox instance, by aggregate: accounts (keys, customers, sessions,
// allowances, invoices), inventory (catalog and allocation), orders, and faults. Everything is
// synchronous; `now` (epoch milliseconds on the sandbox clock) is passed in by the caller.
// Operations that can fail answer a typed failure (`Result`), never an exception.
import { Accounts } from "./domain/accounts.js"
import { Faults } from "./domain/faults.js"
import { Inventory, type OutOfStockPolicy } from "./domain/inventory.js"
import { Orders } from "./domain/orders.js"

export {
  type Address,
  type Customer,
  type OmsKey,
  type Session,
  SESSION_MILLIS,
  type StoredInvoice,
  zoneOfState
} from "./domain/accounts.js"
export type { Fault } from "./domain/faults.js"
export {
  type Allocation,
  BACK_ORDER_MILLIS,
  type CartItem,
  dispatchTimeAt,
  MAX_QUOTES,
  orderByTimeAt,
  type OutOfStockPolicy
} from "./domain/inventory.js"
export { ORDER_STATES, type OrderState, type StoredLine, type StoredOrder } from "./domain/orders.js"
export type { Result } from "./domain/result.js"

export class SandboxState {
  readonly inventory: Inventory
  readonly accounts: Accounts
  readonly faults = new Faults()
  readonly orders: Orders
  /** Added to the Effect clock by `advanceClock`. */
  clockOffset = 0

  constructor(readonly seed: number, startedAt: number, outOfStock: OutOfStockPolicy = "refuse") {
    this.inventory = new Inventory(seed, outOfStock)
    this.accounts = new Accounts(this.inventory, startedAt)
    this.orders = new Orders(this.inventory, this.accounts, this.faults)
  }

  /** Expires every unsubmitted order whose time has come (each request runs it first). */
  sweep(now: number): void {
    this.orders.sweep(now)
  }
}
