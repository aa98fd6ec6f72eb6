// The catalog and allocation aggregate: products, vehicles, warehouses and their stock ledger;
// quotes' timing, allocation of order lines (typed failures, nothing mutated), holding and releasing
// stock, and the drop-ship address directory.
import * as Either from "effect/Either"
import { OrderRules, type Values } from "@shoplink/protocol"
import { type Catalog, makeCatalog, type Product, stockKey, type Vehicle, type Warehouse } from "../catalog.js"
import type { Address } from "./accounts.js"
import type { StoredLine } from "./orders.js"
import { reject, type Result } from "./result.js"

export const HOUR = 3_600_000
export const DAY = 24 * HOUR
/** Session validity (spec: 12 hours). */
export const SESSION_MILLIS = 12 * HOUR
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

export const startOfDay = (t: number) => Math.floor(t / DAY) * DAY

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

export class Inventory {
  readonly catalog: Catalog
  readonly stock: Map<string, number>

  constructor(seed: number, readonly outOfStock: OutOfStockPolicy = "refuse") {
    this.catalog = makeCatalog(seed)
    this.stock = new Map(this.catalog.stock)
  }

  // ---------------------------------------------------------------- catalog queries

  warehousesOf(country: Values.CountryCode): ReadonlyArray<Warehouse> {
    return this.catalog.warehouses.filter((w) => w.country === country)
  }

  findProduct(productID: string, brandID: string | undefined): Product | undefined {
    const id = productID.trim().toUpperCase()
    return this.catalog.products.find((p) =>
      p.productID.toUpperCase() === id &&
      (brandID === undefined || p.brandCode.toUpperCase() === brandID.trim().toUpperCase())
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
        const haystack = `${p.productID} ${p.description} ${this.terminologyOf(p).name} ${
          category?.name ?? ""
        } ${p.categoryID}`.toLowerCase()
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

  available(product: Product, country: Values.CountryCode): number {
    return this.warehousesOf(country).reduce((n, w) => n + this.stockAt(product, w.code), 0)
  }

  /** The warehouse a quote or an allocation of `quantity` would use: the first with enough, else the fullest. */
  bestWarehouse(product: Product, country: Values.CountryCode, quantity: number): Warehouse {
    const warehouses = this.warehousesOf(country)
    return warehouses.find((w) => this.stockAt(product, w.code) >= quantity) ??
      [...warehouses].sort((a, b) => this.stockAt(product, b.code) - this.stockAt(product, a.code))[0]!
  }

  // ---------------------------------------------------------------- the stock ledger

  /** Returns the lines' units to stock. */
  release(lines: ReadonlyArray<StoredLine>): void {
    for (const line of lines) {
      const key = stockKey(line.product.brandCode, line.product.productID, line.warehouseCode)
      this.stock.set(key, (this.stock.get(key) ?? 0) + line.quantity)
    }
  }

  /** Takes the lines' units from stock (below zero for back-ordered units). */
  hold(lines: ReadonlyArray<StoredLine>): void {
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
  timingOf(
    now: number,
    product: Product,
    country: Values.CountryCode,
    quantity: number
  ): {
    readonly warehouse: Warehouse
    readonly orderByTime: number
    readonly dispatchTime: number
    readonly backOrder: boolean
  } {
    const warehouse = this.bestWarehouse(product, country, quantity)
    const backOrder = this.outOfStock === "backOrder" && product.stocked &&
      this.stockAt(product, warehouse.code) < quantity
    return {
      warehouse,
      orderByTime: orderByTimeAt(now, warehouse),
      dispatchTime: dispatchTimeAt(now, warehouse) + (backOrder ? BACK_ORDER_MILLIS : 0),
      backOrder
    }
  }

  /**
   * Checks and allocates items for a country, failing with the catalogue's IDs: API0231
   * (quantity ≤ 0), API0235 (total over `OrderRules.MAX_ORDER_QUANTITY`), API0236 (same
   * part/warehouse twice), API0232 (unknown or not stocked), API0243 (no price), API0234 (not
   * enough in one warehouse, unless the policy is `backOrder`: then the line is accepted as
   * back-ordered). Nothing is mutated.
   */
  allocate(
    items: ReadonlyArray<
      {
        readonly productID: string
        readonly brandID: string
        readonly quantity: number
        readonly warehouseCode?: string | undefined
      }
    >,
    country: Values.CountryCode
  ): Result<ReadonlyArray<Allocation>> {
    if (items.length === 0) return reject("API0203")
    for (const item of items) if (!(item.quantity > 0)) return reject("API0231")
    if (OrderRules.exceedsMaxQuantity(items)) return reject("API0235")
    const taken = new Map<string, number>()
    const seen = new Set<string>()
    const out: Array<Allocation> = []
    for (const item of items) {
      const product = this.findProduct(item.productID, item.brandID)
      if (product === undefined || !product.stocked) return reject("API0232")
      const p = product
      if (p.price === undefined) return reject("API0243")
      let warehouse: Warehouse
      if (item.warehouseCode !== undefined) {
        const w = this.warehousesOf(country).find((x) => x.code === item.warehouseCode!.toUpperCase())
        if (w === undefined) {
          return reject("API0288", `Invalid API parameters: unknown warehouseCode ${item.warehouseCode}`)
        }
        warehouse = w
      } else {
        warehouse = this.bestWarehouse(p, country, item.quantity)
      }
      const lineKey = `${p.brandCode}|${p.productID}|${warehouse.code}`
      if (seen.has(lineKey)) return reject("API0236")
      seen.add(lineKey)
      const left = this.stockAt(p, warehouse.code) - (taken.get(lineKey) ?? 0)
      const backOrder = left < item.quantity
      if (backOrder && this.outOfStock === "refuse") return reject("API0234")
      taken.set(lineKey, (taken.get(lineKey) ?? 0) + item.quantity)
      out.push({
        product: p,
        quantity: item.quantity,
        warehouse,
        requestedProductId: item.productID === p.productID ? "" : item.productID,
        backOrder
      })
    }
    return Either.right(out)
  }

  /** Order lines for allocations made now. */
  linesOf(now: number, allocations: ReadonlyArray<Allocation>): Array<StoredLine> {
    return allocations.map((a) => ({
      product: a.product,
      warehouseCode: a.warehouse.code,
      quantity: a.quantity,
      orderByTime: orderByTimeAt(now, a.warehouse),
      dispatchTime: dispatchTimeAt(now, a.warehouse) + (a.backOrder ? BACK_ORDER_MILLIS : 0),
      requestedProductId: a.requestedProductId,
      quantityShipped: 0,
      backOrdered: a.backOrder
    }))
  }

  // ---------------------------------------------------------------- drop-ship addresses

  /**
   * Validates a drop-ship address against the directory: an exact match (ZIP or ZIP+4) passes;
   * a known street with a wrong city or ZIP gets a recommendation; anything else fails without one.
   */
  validateAddress(
    address: Address
  ): { readonly ok: true } | { readonly ok: false; readonly recommended: Address | undefined } {
    const street = normalizeStreet(address.addressLine1)
    const entry = this.catalog.addresses.find((a) =>
      a.addressLine1 === street && a.state === address.state.toUpperCase()
    )
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
}
