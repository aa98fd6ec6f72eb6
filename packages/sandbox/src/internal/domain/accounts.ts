// The accounts aggregate: vendor and Order Management keys, customers and their tokens, punchout
// sessions, monthly allowances, and the invoices of each account.
import type { Values } from "@shoplink/protocol"
import { SANDBOX_CREDENTIALS, SANDBOX_PO_REQUIRED_CUSTOMER } from "../../Credentials.js"
import type { DirectoryAddress, Product } from "../catalog.js"
import { DAY, HOUR, type Inventory, startOfDay } from "./inventory.js"

/** Session validity (spec: 12 hours). */
export const SESSION_MILLIS = 12 * HOUR

// IANA zones of the states and provinces the sandbox's addresses and customers use; the pages show
// times in the shop's zone (from its default shipping address) next to UTC.
const ZONE_BY_STATE: Record<string, string> = {
  TX: "America/Chicago",
  IL: "America/Chicago",
  GA: "America/New_York",
  NY: "America/New_York",
  FL: "America/New_York",
  MI: "America/Detroit",
  OH: "America/New_York",
  PA: "America/New_York",
  CA: "America/Los_Angeles",
  WA: "America/Los_Angeles",
  CO: "America/Denver",
  AZ: "America/Phoenix",
  ON: "America/Toronto",
  QC: "America/Toronto",
  BC: "America/Vancouver",
  AB: "America/Edmonton"
}

/** The time zone of a shop in a state or province (its country's main zone when unknown). */
export const zoneOfState = (state: string, country: Values.CountryCode): string =>
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
  readonly country: Values.CountryCode
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
  lastVehicle: {
    readonly year: number
    readonly make: string
    readonly model: string
    readonly identifier: string | undefined
  } | undefined
  /** The order the ordering pages use as the cart. */
  cartOrderId: string | undefined
  /**
   * The cart was exported (Export) and not changed since: the next launch (a Show* page opened
   * from another site) starts with an empty cart instead of bringing it back.
   */
  cartExported: boolean
  /** The last search results the user saw (for the quote export). */
  lastSearch: ReadonlyArray<{ readonly product: Product; readonly quantity: number }>
}

export interface StoredInvoice {
  readonly invoiceNo: string
  readonly accountNo: string
  readonly date: number
  readonly orderNo: string
  readonly lines: ReadonlyArray<
    { readonly product: Product; readonly quantity: number; readonly warehouseCode: string }
  >
}

export class Accounts {
  readonly vendorKeys = new Map<string, { expired: boolean }>()
  readonly omsKeys = new Map<string, OmsKey>()
  readonly customers = new Map<string, Customer>()
  readonly sessions = new Map<string, Session>()
  /** Monthly allowance per Order Management key; absent means unlimited. */
  readonly allowances = new Map<string, number>()
  /** Calls per `${key}|${yyyy-mm}`. */
  readonly usage = new Map<string, number>()
  readonly invoices: Array<StoredInvoice> = []

  constructor(private readonly inventory: Inventory, startedAt: number) {
    this.vendorKeys.set(SANDBOX_CREDENTIALS.vendorApiKey, { expired: false })
    this.omsKeys.set(SANDBOX_CREDENTIALS.oms.testApiKey, { tier: "test", expired: false })
    this.omsKeys.set(SANDBOX_CREDENTIALS.oms.prodApiKey, { tier: "production", expired: false })
    const address = (name: string, a: DirectoryAddress): Address => ({
      name,
      addressLine1: a.addressLine1,
      addressLine2: "",
      city: a.city,
      state: a.state,
      zipCode: a.country === "US" ? `${a.zip}-${a.plus4}` : `${a.zip} ${a.plus4}`,
      country: a.country,
      phoneNumber: "5125550100",
      emailAddress: ""
    })
    const [austin, dallas, , , toronto] = inventory.catalog.addresses
    this.addCustomer({
      ...SANDBOX_CREDENTIALS.customers.us,
      name: "Main Street Auto",
      poRequired: false,
      defaultShippingAddress: address("Main Street Auto", austin!)
    })
    this.addCustomer({
      ...SANDBOX_CREDENTIALS.customers.ca,
      name: "Northern Garage",
      poRequired: false,
      defaultShippingAddress: address("Northern Garage", toronto!)
    })
    this.addCustomer({
      ...SANDBOX_PO_REQUIRED_CUSTOMER,
      name: "Fleet Works",
      poRequired: true,
      defaultShippingAddress: address("Fleet Works", dallas!)
    })
    this.seedInvoices(startedAt)
  }

  addCustomer(c: {
    readonly accountNo: string
    readonly username: string
    readonly apiToken: string
    readonly country: Values.CountryCode
    readonly name?: string | undefined
    readonly poRequired?: boolean | undefined
    readonly defaultShippingAddress?: Address | undefined
    readonly timeZone?: string | undefined
  }): Customer {
    const first = [...this.customers.values()].find((x) => x.country === c.country)
    const defaultShippingAddress = c.defaultShippingAddress ?? first?.defaultShippingAddress ?? {
      name: c.name ?? c.accountNo,
      addressLine1: "100 MAIN ST",
      addressLine2: "",
      city: "AUSTIN",
      state: "TX",
      zipCode: "78701-3120",
      country: "US",
      phoneNumber: "5125550100",
      emailAddress: ""
    }
    const customer: Customer = {
      accountNo: c.accountNo,
      username: c.username,
      apiToken: c.apiToken,
      country: c.country,
      name: c.name ?? `Account ${c.accountNo}`,
      poRequired: c.poRequired ?? false,
      active: true,
      revoked: false,
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

  private seedInvoices(startedAt: number): void {
    let n = 8_800_001
    for (const customer of this.customers.values()) {
      const products = this.inventory.catalog.products.filter((p) => p.price !== undefined).slice(0, 40)
      for (let k = 1; k <= 12; k++) {
        const date = startOfDay(startedAt) - k * 5 * DAY
        const lines = [0, 1, 2].slice(0, 1 + (k % 3)).map((j) => ({
          product: products[(k * 3 + j) % products.length]!,
          quantity: 1 + ((k + j) % 4),
          warehouseCode: this.inventory.warehousesOf(customer.country)[j % 3]!.code
        }))
        this.invoices.push({
          invoiceNo: String(n++),
          accountNo: customer.accountNo,
          date,
          orderNo: String(4_000_000 + n),
          lines
        })
      }
    }
  }

  /** Counts a call against the key's monthly allowance; false when it is exceeded. */
  countCall(apiKey: string, now: number): boolean {
    const d = new Date(now)
    const key = `${apiKey}|${d.getUTCFullYear()}-${d.getUTCMonth() + 1}`
    const used = (this.usage.get(key) ?? 0) + 1
    this.usage.set(key, used)
    const limit = this.allowances.get(apiKey)
    return limit === undefined || used <= limit
  }
}
