// The in-memory state of one sandbox instance: registries (vendor keys, Order Management keys,
// customers), sessions, orders, stock, invoices, allowances and faults. Everything here is
// synchronous; `now` (epoch milliseconds on the sandbox clock) is passed in by the caller.
import { SANDBOX_CREDENTIALS, SANDBOX_PO_REQUIRED_CUSTOMER } from "../Credentials.js"
import {
  type Catalog,
  type CountryCode,
  type DirectoryAddress,
  makeCatalog,
  type Product,
  stockKey,
  type Vehicle,
  type Warehouse
} from "./catalog.js"
import { fail } from "./failure.js"

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** Session validity (spec: 12 hours). */
export const SESSION_MILLIS = 12 * HOUR
/** Largest total quantity on one order (the spec's API0235 maximum; the number is assumed). */
export const MAX_ORDER_QUANTITY = 999
/** Most items GetProductQuotes returns for a search. */
export const MAX_QUOTES = 25
/** A back-ordered line leaves one week after the warehouse's next dispatch (same weekday). */
export const BACK_ORDER_MILLIS = 7 * DAY

/**
 * What the distributor does with a quantity no warehouse has: `refuse` (API0234, the spec's
 * "Quantity exceeds stock on hand") or `backOrder` (accept it; it ships a week later).
 *
 * @example
 * import type { OutOfStockPolicy } from "@shoplink/sandbox"
 * const policy: OutOfStockPolicy = "backOrder"
 *
 * @since 0.1.0
 */
export type OutOfStockPolicy = "refuse" | "backOrder"

// IANA zones of the states and provinces the sandbox's addresses and customers use; the pages show
// times in the shop's zone (from its default shipping address) next to UTC.
const ZONE_BY_STATE: Record<string, string> = {
  TX: "America/Chicago", IL: "America/Chicago", GA: "America/New_York", NY: "America/New_York",
  FL: "America/New_York", MI: "America/Detroit", OH: "America/New_York", PA: "America/New_York",
  CA: "America/Los_Angeles", WA: "America/Los_Angeles", CO: "America/Denver", AZ: "America/Phoenix",
  ON: "America/Toronto", QC: "America/Toronto", BC: "America/Vancouver", AB: "America/Edmonton"
}

/** The time zone of a shop in a state or province (its country's main zone when unknown). */
export const zoneOfState = (state: string, country: CountryCode): string =>
  ZONE_BY_STATE[state.toUpperCase()] ?? (country === "CA" ? "America/Toronto" : "America/Chicago")

export interface Address {
  readonly name: string
  readonly addressLine1: string
  readonly addressLine2: string
  readonly city: string
  readonly state: string
  readonly zipCode: string
  readonly country: string
  readonly phoneNumber: string
  readonly emailAddress: string
}

export interface Customer {
  readonly accountNo: string
  readonly username: string
  apiToken: string
  readonly country: CountryCode
  readonly name: string
  readonly poRequired: boolean
  active: boolean
  revoked: boolean
  readonly defaultShippingAddress: Address
  /** IANA time zone the ordering pages show times in (besides UTC). */
  readonly timeZone: string
}

export interface OmsKey {
  readonly tier: "test" | "production"
  expired: boolean
}

export interface Session {
  readonly token: string
  readonly accountNo: string
  readonly apiToken: string
  readonly createdAt: number
  readonly expiresAt: number
  readonly smsVendorName: string
  readonly referenceID: string | undefined
  readonly webhooks: { readonly order: string; readonly quote: string; readonly callback: string | undefined }
  readonly exportButtons: { readonly export: boolean; readonly exportAndSave: boolean }
  /** The referenceID of the last ordering page opened (ShowCatalog / ShowOrder), sent back in webhooks. */
  pageReferenceID: string | undefined
  /** makeId of the vehicle of the last catalog search (0 without one). */
  vehicleMakeId: number
  /** The vehicle the catalog page last showed, and by which identifier (the admin API reads it). */
  lastVehicle: { readonly year: number; readonly make: string; readonly model: string; readonly identifier: string | undefined } | undefined
  /** The order the ordering pages use as the cart. */
  cartOrderId: string | undefined
  /** The last search results the user saw (for the quote export). */
  lastSearch: ReadonlyArray<{ readonly product: Product; readonly quantity: number }>
}

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
  "cart", "expired", "saved", "submitted", "processing", "shippedPartial", "shippedComplete"
]

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

export interface StoredInvoice {
  readonly invoiceNo: string
  readonly accountNo: string
  readonly date: number
  readonly orderNo: string
  readonly lines: ReadonlyArray<{ readonly product: Product; readonly quantity: number; readonly warehouseCode: string }>
}

/**
 * A fault to inject. `endpoint` is a command or endpoint name (`create`, `GetProductQuotes`,
 * `createOrder`, `priceAndAvailability_v2`, …) or `*` for any; `times` defaults to 1.
 *
 * @example
 * import type { Fault } from "@shoplink/sandbox"
 * const busy: Fault = { kind: "message", endpoint: "SubmitOrder", id: "API0258", times: 2 }
 * const slow: Fault = { kind: "latency", endpoint: "*", millis: 1500 }
 *
 * @since 0.1.0
 */
export type Fault =
  | { readonly kind: "latency"; readonly endpoint: string; readonly millis: number; readonly times?: number }
  | { readonly kind: "httpStatus"; readonly endpoint: string; readonly status: number; readonly times?: number }
  | { readonly kind: "connectionReset"; readonly endpoint: string; readonly times?: number }
  | { readonly kind: "message"; readonly endpoint: string; readonly id: string; readonly times?: number }
  | { readonly kind: "orderLocked"; readonly orderID: string; readonly times?: number }
  | { readonly kind: "orderInUse"; readonly orderID: string; readonly times?: number }

type ArmedFault = Fault & { remaining: number }

export interface Allocation {
  readonly product: Product
  readonly quantity: number
  readonly warehouse: Warehouse
  readonly requestedProductId: string
  readonly backOrder: boolean
}

export interface CartItem {
  readonly productID: string
  readonly brandID: string
  readonly quantity: number
}

const startOfDay = (t: number) => Math.floor(t / DAY) * DAY

/**
 * The time by which an order must be placed to leave the warehouse on its next dispatch: today's
 * cutoff, else the next one; warehouses do not dispatch on Saturdays and Sundays.
 */
export const orderByTimeAt = (now: number, warehouse: Warehouse): number => {
  const today = startOfDay(now) + warehouse.cutoffHourUtc * HOUR
  let cutoff = now < today ? today : today + DAY
  while ([0, 6].includes(new Date(cutoff).getUTCDay())) cutoff += DAY
  return cutoff
}

/** Dispatch one hour after the cutoff. */
export const dispatchTimeAt = (now: number, warehouse: Warehouse): number => orderByTimeAt(now, warehouse) + HOUR

const normalizeStreet = (s: string) =>
  s.toUpperCase().replace(/[.,]/g, "").replace(/\s+/g, " ").trim()
    .replace(/\bSTREET\b/g, "ST").replace(/\bROAD\b/g, "RD").replace(/\bDRIVE\b/g, "DR")
    .replace(/\bAVENUE\b/g, "AVE").replace(/\bWEST\b/g, "W").replace(/\bNORTHEAST\b/g, "NE")

export class SandboxState {
  readonly catalog: Catalog
  readonly vendorKeys = new Map<string, { expired: boolean }>()
  readonly omsKeys = new Map<string, OmsKey>()
  readonly customers = new Map<string, Customer>()
  readonly sessions = new Map<string, Session>()
  readonly orders = new Map<string, StoredOrder>()
  readonly invoices: Array<StoredInvoice> = []
  readonly stock: Map<string, number>
  /** Monthly allowance per Order Management key; absent means unlimited. */
  readonly allowances = new Map<string, number>()
  /** Calls per `${key}|${yyyy-mm}`. */
  readonly usage = new Map<string, number>()
  faults: Array<ArmedFault> = []
  /** Added to the Effect clock by `advanceClock`. */
  clockOffset = 0
  private nextPunchoutOrder = 10_000_001
  private nextOmsOrder = 5_000_001

  constructor(readonly seed: number, startedAt: number, readonly outOfStock: OutOfStockPolicy = "refuse") {
    this.catalog = makeCatalog(seed)
    this.stock = new Map(this.catalog.stock)
    this.vendorKeys.set(SANDBOX_CREDENTIALS.vendorApiKey, { expired: false })
    this.omsKeys.set(SANDBOX_CREDENTIALS.oms.testApiKey, { tier: "test", expired: false })
    this.omsKeys.set(SANDBOX_CREDENTIALS.oms.prodApiKey, { tier: "production", expired: false })
    const address = (name: string, a: DirectoryAddress): Address => ({
      name, addressLine1: a.addressLine1, addressLine2: "", city: a.city, state: a.state,
      zipCode: a.country === "US" ? `${a.zip}-${a.plus4}` : `${a.zip} ${a.plus4}`, country: a.country,
      phoneNumber: "5125550100", emailAddress: ""
    })
    const [austin, dallas, , , toronto] = this.catalog.addresses
    this.addCustomer({ ...SANDBOX_CREDENTIALS.customers.us, name: "Main Street Auto", poRequired: false, defaultShippingAddress: address("Main Street Auto", austin!) })
    this.addCustomer({ ...SANDBOX_CREDENTIALS.customers.ca, name: "Northern Garage", poRequired: false, defaultShippingAddress: address("Northern Garage", toronto!) })
    this.addCustomer({ ...SANDBOX_PO_REQUIRED_CUSTOMER, name: "Fleet Works", poRequired: true, defaultShippingAddress: address("Fleet Works", dallas!) })
    this.seedInvoices(startedAt)
  }

  addCustomer(c: {
    readonly accountNo: string
    readonly username: string
    readonly apiToken: string
    readonly country: CountryCode
    readonly name?: string | undefined
    readonly poRequired?: boolean | undefined
    readonly defaultShippingAddress?: Address | undefined
    readonly timeZone?: string | undefined
  }): Customer {
    const first = [...this.customers.values()].find((x) => x.country === c.country)
    const defaultShippingAddress = c.defaultShippingAddress ?? first?.defaultShippingAddress ?? {
      name: c.name ?? c.accountNo, addressLine1: "100 MAIN ST", addressLine2: "", city: "AUSTIN", state: "TX",
      zipCode: "78701-3120", country: "US", phoneNumber: "5125550100", emailAddress: ""
    }
    const customer: Customer = {
      accountNo: c.accountNo, username: c.username, apiToken: c.apiToken, country: c.country,
      name: c.name ?? `Account ${c.accountNo}`, poRequired: c.poRequired ?? false, active: true, revoked: false,
      defaultShippingAddress,
      timeZone: c.timeZone ?? zoneOfState(defaultShippingAddress.state, c.country)
    }
    this.customers.set(c.accountNo, customer)
    return customer
  }

  customerByToken(apiToken: string): Customer | undefined {
    for (const c of this.customers.values()) if (c.apiToken === apiToken) return c
    return undefined
  }

  revokeToken(apiToken: string): boolean {
    const customer = this.customerByToken(apiToken)
    if (customer === undefined) return false
    customer.revoked = true
    return true
  }

  /** Expires a vendor key or an Order Management key. */
  expireKey(apiKey: string): boolean {
    const vendor = this.vendorKeys.get(apiKey)
    if (vendor !== undefined) vendor.expired = true
    const oms = this.omsKeys.get(apiKey)
    if (oms !== undefined) oms.expired = true
    return vendor !== undefined || oms !== undefined
  }

  // ---------------------------------------------------------------- catalog queries

  warehousesOf(country: CountryCode): ReadonlyArray<Warehouse> {
    return this.catalog.warehouses.filter((w) => w.country === country)
  }

  findProduct(productID: string, brandID: string | undefined): Product | undefined {
    const id = productID.trim().toUpperCase()
    return this.catalog.products.find((p) =>
      p.productID.toUpperCase() === id && (brandID === undefined || p.brandCode.toUpperCase() === brandID.trim().toUpperCase())
    )
  }

  brandOf(product: Product) {
    return this.catalog.brands.find((b) => b.code === product.brandCode)!
  }

  terminologyOf(product: Product) {
    return this.catalog.terminologies.find((t) => t.id === product.terminologyId)!
  }

  vehicleByVin(vin: string): Vehicle | undefined {
    return this.catalog.vehicles.find((v) => v.vin === vin.toUpperCase())
  }

  vehicleByPlate(plate: string, state: string): Vehicle | undefined {
    const p = plate.replace(/[\s-]/g, "").toUpperCase()
    return this.catalog.vehicles.find((v) => v.licensePlate === p && v.licensePlateState === state.toUpperCase())
  }

  vehicleByBaseId(id: string): Vehicle | undefined {
    return this.catalog.vehicles.find((v) => v.baseVehicleId === id)
  }

  vehicleByGroupId(id: string): Vehicle | undefined {
    return this.catalog.vehicles.find((v) => v.vehicleGroupId.toUpperCase() === id.toUpperCase())
  }

  /** Text search over product ID, description, terminology, category and brand; optionally by fitment. */
  search(term: string | undefined, vehicle: Vehicle | undefined, limit: number): ReadonlyArray<Product> {
    const words = (term ?? "").toLowerCase().split(/\s+/).filter((w) => w.length > 0)
    const out: Array<Product> = []
    for (const p of this.catalog.products) {
      if (vehicle !== undefined && p.fits.length > 0 && !p.fits.includes(vehicle.baseVehicleId)) continue
      if (words.length > 0) {
        const brand = this.brandOf(p)
        const category = this.catalog.categories.find((c) => c.code === p.categoryID)
        const haystack = `${p.productID} ${p.description} ${this.terminologyOf(p).name} ${category?.name ?? ""} ${p.categoryID}`.toLowerCase()
        // A brand matches by its code or a whole word of its name, so "filter" does not pick WIX Filters' batteries.
        const brandWords = new Set([brand.code, ...brand.name.split(/\s+/)].map((w) => w.toLowerCase()))
        if (!words.every((w) => haystack.includes(w.replace(/s$/, "")) || brandWords.has(w))) continue
      }
      out.push(p)
      if (out.length >= limit) break
    }
    return out
  }

  /** Units on hand; the ledger goes below zero only for back-ordered units, which are not on hand. */
  stockAt(product: Product, warehouseCode: string): number {
    return Math.max(0, this.stock.get(stockKey(product.brandCode, product.productID, warehouseCode)) ?? 0)
  }

  available(product: Product, country: CountryCode): number {
    return this.warehousesOf(country).reduce((n, w) => n + this.stockAt(product, w.code), 0)
  }

  /** The warehouse a quote or an allocation of `quantity` would use: the first with enough, else the fullest. */
  bestWarehouse(product: Product, country: CountryCode, quantity: number): Warehouse {
    const warehouses = this.warehousesOf(country)
    return warehouses.find((w) => this.stockAt(product, w.code) >= quantity) ??
      [...warehouses].sort((a, b) => this.stockAt(product, b.code) - this.stockAt(product, a.code))[0]!
  }

  // ---------------------------------------------------------------- time and expiry

  /** Expires every unsubmitted order whose time has come and releases its stock. */
  sweep(now: number): void {
    for (const order of this.orders.values()) {
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
    for (const line of order.lines) {
      const key = stockKey(line.product.brandCode, line.product.productID, line.warehouseCode)
      this.stock.set(key, (this.stock.get(key) ?? 0) + line.quantity)
    }
    order.holdsStock = false
  }

  private holdStock(lines: ReadonlyArray<StoredLine>): void {
    for (const line of lines) {
      const key = stockKey(line.product.brandCode, line.product.productID, line.warehouseCode)
      this.stock.set(key, (this.stock.get(key) ?? 0) - line.quantity)
    }
  }

  // ---------------------------------------------------------------- allocation

  /**
   * When a quote or order line for `quantity` would leave and by when it must be ordered: from the
   * warehouse that would fill it, a week later when it would be back-ordered.
   */
  timingOf(now: number, product: Product, country: CountryCode, quantity: number): { readonly warehouse: Warehouse; readonly orderByTime: number; readonly dispatchTime: number; readonly backOrder: boolean } {
    const warehouse = this.bestWarehouse(product, country, quantity)
    const backOrder = this.outOfStock === "backOrder" && product.stocked && this.stockAt(product, warehouse.code) < quantity
    return {
      warehouse,
      orderByTime: orderByTimeAt(now, warehouse),
      dispatchTime: dispatchTimeAt(now, warehouse) + (backOrder ? BACK_ORDER_MILLIS : 0),
      backOrder
    }
  }

  /**
   * Checks and allocates items for a country, failing with the catalogue's IDs: API0231 (quantity
   * ≤ 0), API0235 (total over the maximum), API0236 (same part/warehouse twice), API0232 (unknown or
   * not stocked), API0243 (no price), API0234 (not enough in one warehouse, unless the policy is
   * `backOrder`: then the line is accepted as back-ordered). Nothing is mutated.
   */
  allocate(
    items: ReadonlyArray<{ readonly productID: string; readonly brandID: string; readonly quantity: number; readonly warehouseCode?: string | undefined }>,
    country: CountryCode
  ): ReadonlyArray<Allocation> {
    if (items.length === 0) fail("API0203")
    for (const item of items) if (!(item.quantity > 0)) fail("API0231")
    const total = items.reduce((n, i) => n + i.quantity, 0)
    if (total > MAX_ORDER_QUANTITY) fail("API0235")
    const taken = new Map<string, number>()
    const seen = new Set<string>()
    const out: Array<Allocation> = []
    for (const item of items) {
      const product = this.findProduct(item.productID, item.brandID)
      if (product === undefined || !product.stocked) fail("API0232")
      const p = product!
      if (p.price === undefined) fail("API0243")
      let warehouse: Warehouse
      if (item.warehouseCode !== undefined) {
        const w = this.warehousesOf(country).find((x) => x.code === item.warehouseCode!.toUpperCase())
        if (w === undefined) fail("API0288", `Invalid API parameters: unknown warehouseCode ${item.warehouseCode}`)
        warehouse = w!
      } else {
        warehouse = this.bestWarehouse(p, country, item.quantity)
      }
      const lineKey = `${p.brandCode}|${p.productID}|${warehouse.code}`
      if (seen.has(lineKey)) fail("API0236")
      seen.add(lineKey)
      const left = this.stockAt(p, warehouse.code) - (taken.get(lineKey) ?? 0)
      const backOrder = left < item.quantity
      if (backOrder && this.outOfStock === "refuse") fail("API0234")
      taken.set(lineKey, (taken.get(lineKey) ?? 0) + item.quantity)
      out.push({ product: p, quantity: item.quantity, warehouse, requestedProductId: item.productID === p.productID ? "" : item.productID, backOrder })
    }
    return out
  }

  private linesOf(now: number, allocations: ReadonlyArray<Allocation>): Array<StoredLine> {
    return allocations.map((a) => ({
      product: a.product, warehouseCode: a.warehouse.code, quantity: a.quantity,
      orderByTime: orderByTimeAt(now, a.warehouse),
      dispatchTime: dispatchTimeAt(now, a.warehouse) + (a.backOrder ? BACK_ORDER_MILLIS : 0),
      requestedProductId: a.requestedProductId, quantityShipped: 0, backOrdered: a.backOrder
    }))
  }

  // ---------------------------------------------------------------- orders

  createCartOrder(now: number, accountNo: string, allocations: ReadonlyArray<Allocation>, comment: string): StoredOrder {
    const lines = this.linesOf(now, allocations)
    this.holdStock(lines)
    const order: StoredOrder = {
      orderID: String(this.nextPunchoutOrder++), accountNo, origin: "punchout", createdAt: now, lines, comment,
      customerPO: "", state: "cart", expiresAt: this.expiryOf(now, lines), holdsStock: true, shippingAddress: undefined
    }
    this.orders.set(order.orderID, order)
    return order
  }

  /** Adds items to an order in the cart (the ordering pages), merging a repeated product. */
  addToCart(now: number, order: StoredOrder, item: CartItem, country: CountryCode): void {
    const existing = order.lines.find((l) =>
      l.product.productID.toUpperCase() === item.productID.toUpperCase() && l.product.brandCode.toUpperCase() === item.brandID.toUpperCase()
    )
    const others = order.lines.filter((l) => l !== existing).map((l) => ({ productID: l.product.productID, brandID: l.product.brandCode, quantity: l.quantity }))
    const merged = { ...item, quantity: item.quantity + (existing?.quantity ?? 0) }
    this.releaseStock(order)
    try {
      const allocations = this.allocate([...others, merged], country)
      order.lines = this.linesOf(now, allocations)
    } finally {
      this.holdStock(order.lines)
      order.holdsStock = true
    }
    order.expiresAt = this.expiryOf(order.createdAt, order.lines)
  }

  /** Removes a product from an order in the cart, returning its stock. */
  removeFromCart(order: StoredOrder, productID: string, brandID: string): void {
    const line = order.lines.find((l) =>
      l.product.productID.toUpperCase() === productID.toUpperCase() && l.product.brandCode.toUpperCase() === brandID.toUpperCase()
    )
    if (line === undefined) return fail("API0270")
    if (order.holdsStock) {
      const key = stockKey(line.product.brandCode, line.product.productID, line.warehouseCode)
      this.stock.set(key, (this.stock.get(key) ?? 0) + line.quantity)
    }
    order.lines = order.lines.filter((l) => l !== line)
    order.expiresAt = this.expiryOf(order.createdAt, order.lines)
  }

  orderOf(orderID: string, accountNo: string): StoredOrder {
    const order = this.orders.get(orderID.trim())
    if (order === undefined || order.accountNo !== accountNo) return fail("API0256")
    return order
  }

  /** Consumes an armed order fault (locked / in use) for an order, failing with API0258 / API0273. */
  checkOrderFaults(orderID: string): void {
    const armed = this.faults.find((f) => (f.kind === "orderLocked" || f.kind === "orderInUse") && f.orderID === orderID && f.remaining > 0)
    if (armed === undefined) return
    armed.remaining--
    this.faults = this.faults.filter((f) => f.remaining > 0)
    fail(armed.kind === "orderLocked" ? "API0258" : "API0273")
  }

  submitOrder(orderID: string, accountNo: string): StoredOrder {
    const order = this.orderOf(orderID, accountNo)
    this.checkOrderFaults(order.orderID)
    switch (order.state) {
      case "submitted":
        return fail("API0247")
      case "processing":
      case "shippedPartial":
      case "shippedComplete":
        return fail("API0268")
      case "saved":
        return fail("API0272")
      case "expired":
        // Spec: items must be reallocated (ReserveOrder) before submitting.
        return fail("API0234", "Quantity requested is not available: the order expired, reserve it again (ReserveOrder)")
      case "cart":
        break
    }
    if (order.lines.length === 0) fail("API0203")
    const customer = this.customers.get(accountNo)
    if (customer?.poRequired === true && order.comment.trim() === "" && order.customerPO.trim() === "") fail("API0250")
    order.state = "submitted"
    order.expiresAt = undefined
    return order
  }

  reserveOrder(now: number, orderID: string, accountNo: string, comment: string | undefined, country: CountryCode): StoredOrder {
    const order = this.orderOf(orderID, accountNo)
    this.checkOrderFaults(order.orderID)
    if (order.state === "submitted") fail("API0247")
    if (order.state === "processing" || order.state === "shippedPartial" || order.state === "shippedComplete") fail("API0268")
    const wasHolding = order.holdsStock
    this.releaseStock(order)
    try {
      const allocations = this.allocate(
        order.lines.map((l) => ({ productID: l.product.productID, brandID: l.product.brandCode, quantity: l.quantity })),
        country
      )
      order.lines = this.linesOf(now, allocations)
    } catch (error) {
      if (wasHolding) {
        this.holdStock(order.lines)
        order.holdsStock = true
      }
      throw error
    }
    this.holdStock(order.lines)
    order.holdsStock = true
    order.state = "cart"
    order.expiresAt = this.expiryOf(now, order.lines)
    if (comment !== undefined) order.comment = comment
    return order
  }

  createOmsOrder(
    now: number,
    accountNo: string,
    allocations: ReadonlyArray<Allocation>,
    options: { readonly submit: boolean; readonly customerPO: string; readonly comment: string; readonly shippingAddress: Address | undefined }
  ): StoredOrder {
    const lines = this.linesOf(now, allocations)
    // A saved order holds no stock: its items may become unavailable until it is opened again.
    if (options.submit) this.holdStock(lines)
    const order: StoredOrder = {
      orderID: String(this.nextOmsOrder++), accountNo, origin: "oms", createdAt: now, lines, comment: options.comment,
      customerPO: options.customerPO, state: options.submit ? "submitted" : "saved", expiresAt: undefined,
      holdsStock: options.submit, shippingAddress: options.shippingAddress
    }
    this.orders.set(order.orderID, order)
    return order
  }

  /** Deletes an order, returning any stock it held. */
  deleteOrder(orderID: string): void {
    const order = this.orders.get(orderID)
    if (order === undefined) return
    this.releaseStock(order)
    this.orders.delete(orderID)
  }

  /** Moves an order to a state (admin): shipped states record shipped quantities. */
  setOrderState(orderID: string, state: OrderState): StoredOrder | undefined {
    const order = this.orders.get(orderID)
    if (order === undefined) return undefined
    order.state = state
    if (state === "shippedComplete") for (const l of order.lines) l.quantityShipped = l.quantity
    if (state === "shippedPartial") for (const l of order.lines) l.quantityShipped = Math.ceil(l.quantity / 2)
    if (state !== "cart") order.expiresAt = undefined
    return order
  }

  // ---------------------------------------------------------------- drop-ship addresses

  /**
   * Validates a drop-ship address against the directory: an exact match (ZIP or ZIP+4) passes;
   * a known street with a wrong city or ZIP gets a recommendation; anything else fails without one.
   */
  validateAddress(address: Address): { readonly ok: true } | { readonly ok: false; readonly recommended: Address | undefined } {
    const street = normalizeStreet(address.addressLine1)
    const entry = this.catalog.addresses.find((a) => a.addressLine1 === street && a.state === address.state.toUpperCase())
    if (entry === undefined) return { ok: false, recommended: undefined }
    const zip = address.zipCode.toUpperCase().replace(/\s+/g, " ").trim()
    const zipOk = entry.country === "US"
      ? zip === entry.zip || zip === `${entry.zip}-${entry.plus4}`
      : zip.replace(" ", "") === `${entry.zip}${entry.plus4}`
    if (zipOk && address.city.trim().toUpperCase() === entry.city) return { ok: true }
    return {
      ok: false,
      recommended: {
        ...address,
        addressLine1: entry.addressLine1,
        city: entry.city,
        state: entry.state,
        zipCode: entry.country === "US" ? `${entry.zip}-${entry.plus4}` : `${entry.zip} ${entry.plus4}`,
        country: entry.country
      }
    }
  }

  // ---------------------------------------------------------------- invoices

  private seedInvoices(startedAt: number): void {
    let n = 8_800_001
    for (const customer of this.customers.values()) {
      const products = this.catalog.products.filter((p) => p.price !== undefined).slice(0, 40)
      for (let k = 1; k <= 12; k++) {
        const date = startOfDay(startedAt) - k * 5 * DAY
        const lines = [0, 1, 2].slice(0, 1 + (k % 3)).map((j) => ({
          product: products[(k * 3 + j) % products.length]!, quantity: 1 + ((k + j) % 4),
          warehouseCode: this.warehousesOf(customer.country)[j % 3]!.code
        }))
        this.invoices.push({ invoiceNo: String(n++), accountNo: customer.accountNo, date, orderNo: String(4_000_000 + n), lines })
      }
    }
  }

  // ---------------------------------------------------------------- allowance and faults

  /** Counts a call against the key's monthly allowance; false when it is exceeded. */
  countCall(apiKey: string, now: number): boolean {
    const d = new Date(now)
    const key = `${apiKey}|${d.getUTCFullYear()}-${d.getUTCMonth() + 1}`
    const used = (this.usage.get(key) ?? 0) + 1
    this.usage.set(key, used)
    const limit = this.allowances.get(apiKey)
    return limit === undefined || used <= limit
  }

  injectFault(fault: Fault): void {
    this.faults.push({ ...fault, remaining: fault.times ?? 1 })
  }

  /** Takes the next armed endpoint fault matching an endpoint name. */
  takeEndpointFault(endpoint: string): Fault | undefined {
    const armed = this.faults.find((f) =>
      f.kind !== "orderLocked" && f.kind !== "orderInUse" && (f.endpoint === "*" || f.endpoint.toLowerCase() === endpoint.toLowerCase()) && f.remaining > 0
    )
    if (armed === undefined) return undefined
    armed.remaining--
    this.faults = this.faults.filter((f) => f.remaining > 0)
    return armed
  }
}
