/**
 * The Shopmonkey API v3 resources this adapter reads and writes, with the public field names of
 * the API reference (https://shopmonkey.dev/resources). Only the fields the adapter uses are
 * declared; other fields are accepted and ignored, so additive API changes do not break decoding.
 * Nullable fields are `null` in Shopmonkey's answers, not absent.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

const Text = Schema.optional(Schema.NullOr(Schema.String))
const Count = Schema.optional(Schema.NullOr(Schema.Number))

/**
 * Customer-controlled metadata (`metadata` on every row: "metadata reserved for customers to
 * control"). The adapter keeps its idempotency key here.
 *
 * @example
 * import { Resources } from "@shoplink/adapter-shopmonkey"
 * const metadata: Resources.Metadata = { shoplinkKey: "order:10423:0" }
 *
 * @since 0.1.0
 */
export const Metadata = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/**
 * @example
 * import type { Resources } from "@shoplink/adapter-shopmonkey"
 * const empty: Resources.Metadata = {}
 *
 * @since 0.1.0
 */
export type Metadata = typeof Metadata.Type

/**
 * An order (what the shop calls a repair order / work order).
 *
 * @example
 * import { Schema } from "effect"
 * import { Resources } from "@shoplink/adapter-shopmonkey"
 * Schema.decodeUnknownSync(Resources.Order)({ id: "ord_1", number: 1042, vehicleId: "veh_1", customerId: null })
 *
 * @since 0.1.0
 */
export const Order = Schema.Struct({
  id: Schema.String,
  /** Shown as "#1042"; an integer in the data model, a string in some API examples. */
  number: Schema.Union(Schema.Number, Schema.String),
  name: Text,
  vehicleId: Text,
  customerId: Text,
  workflowStatusId: Text,
  locationId: Schema.optional(Schema.String),
  purchaseOrderNumber: Text,
  generatedVehicleName: Text,
  /** ISO 8601 creation time. */
  createdDate: Text,
  archived: Schema.optional(Schema.NullOr(Schema.Boolean)),
  invoiced: Schema.optional(Schema.NullOr(Schema.Boolean)),
  metadata: Schema.optional(Schema.NullOr(Metadata))
})

/**
 * @example
 * import type { Resources } from "@shoplink/adapter-shopmonkey"
 * const numberOf = (order: Resources.Order) => String(order.number)
 *
 * @since 0.1.0
 */
export type Order = typeof Order.Type

/**
 * A vehicle.
 *
 * @example
 * import { Schema } from "effect"
 * import { Resources } from "@shoplink/adapter-shopmonkey"
 * Schema.decodeUnknownSync(Resources.Vehicle)({
 *   id: "veh_1",
 *   vin: "1FTEW1E50KFA12345",
 *   year: 2019,
 *   make: "Ford",
 *   model: "F-150"
 * })
 *
 * @since 0.1.0
 */
export const Vehicle = Schema.Struct({
  id: Schema.String,
  vin: Text,
  licensePlate: Text,
  licensePlateState: Text,
  licensePlateCountry: Text,
  year: Count,
  make: Text,
  model: Text,
  submodel: Text
})

/**
 * @example
 * import type { Resources } from "@shoplink/adapter-shopmonkey"
 * const label = (v: Resources.Vehicle) => [v.year, v.make, v.model].filter(Boolean).join(" ")
 *
 * @since 0.1.0
 */
export type Vehicle = typeof Vehicle.Type

/**
 * A customer: a person (`firstName`, `lastName`) or a business (`companyName`).
 *
 * @example
 * import { Schema } from "effect"
 * import { Resources } from "@shoplink/adapter-shopmonkey"
 * Schema.decodeUnknownSync(Resources.Customer)({
 *   id: "cus_1",
 *   firstName: "Dana",
 *   lastName: "Reyes",
 *   companyName: null
 * })
 *
 * @since 0.1.0
 */
export const Customer = Schema.Struct({
  id: Schema.String,
  firstName: Text,
  lastName: Text,
  companyName: Text
})

/**
 * @example
 * import type { Resources } from "@shoplink/adapter-shopmonkey"
 * const isBusiness = (c: Resources.Customer) => Boolean(c.companyName)
 *
 * @since 0.1.0
 */
export type Customer = typeof Customer.Type

/**
 * A part line on a service of an order. Money is in integer cents: `wholesaleCostCents` is what
 * the shop pays, `retailCostCents` what it charges.
 *
 * @example
 * import { Schema } from "effect"
 * import { Resources } from "@shoplink/adapter-shopmonkey"
 * Schema.decodeUnknownSync(Resources.Part)({
 *   id: "prt_1", orderId: "ord_1", serviceId: "svc_1", name: "Oil Filter", partNumber: "51515",
 *   quantity: 2, wholesaleCostCents: 649, retailCostCents: 999
 * })
 *
 * @since 0.1.0
 */
export const Part = Schema.Struct({
  id: Schema.String,
  orderId: Schema.String,
  serviceId: Schema.String,
  name: Schema.String,
  partNumber: Schema.optional(Schema.NullOr(Schema.String)),
  quantity: Schema.Number,
  wholesaleCostCents: Count,
  retailCostCents: Count,
  coreChargeCents: Count,
  vendorId: Text,
  note: Text,
  metadata: Schema.optional(Schema.NullOr(Metadata))
})

/**
 * @example
 * import type { Resources } from "@shoplink/adapter-shopmonkey"
 * const total = (p: Resources.Part) => p.quantity * (p.retailCostCents ?? 0)
 *
 * @since 0.1.0
 */
export type Part = typeof Part.Type

/**
 * A service of an order: a named group of line items. `GET /v3/order/:orderId/service` returns
 * each service with its `parts`.
 *
 * @example
 * import { Schema } from "effect"
 * import { Resources } from "@shoplink/adapter-shopmonkey"
 * Schema.decodeUnknownSync(Resources.Service)({ id: "svc_1", orderId: "ord_1", name: "Brakes", parts: [] })
 *
 * @since 0.1.0
 */
export const Service = Schema.Struct({
  id: Schema.String,
  orderId: Schema.String,
  name: Schema.String,
  note: Text,
  metadata: Schema.optional(Schema.NullOr(Metadata)),
  parts: Schema.optionalWith(Schema.Array(Part), { default: () => [] })
})

/**
 * @example
 * import type { Resources } from "@shoplink/adapter-shopmonkey"
 * const partCount = (s: Resources.Service) => s.parts.length
 *
 * @since 0.1.0
 */
export type Service = typeof Service.Type

/**
 * A vendor (supplier) a part can name with `vendorId`.
 *
 * @example
 * import { Schema } from "effect"
 * import { Resources } from "@shoplink/adapter-shopmonkey"
 * Schema.decodeUnknownSync(Resources.Vendor)({ id: "ven_1", name: "NAPA Auto Parts" })
 *
 * @since 0.1.0
 */
export const Vendor = Schema.Struct({
  id: Schema.String,
  name: Schema.String
})

/**
 * @example
 * import type { Resources } from "@shoplink/adapter-shopmonkey"
 * const names = (vendors: ReadonlyArray<Resources.Vendor>) => vendors.map((v) => v.name)
 *
 * @since 0.1.0
 */
export type Vendor = typeof Vendor.Type

/**
 * The body of `POST /v3/order/:orderId/service` (a custom, line-item priced service).
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shopmonkey"
 * const body: Resources.CreateService = {
 *   name: "Parts quote (distributor)",
 *   note: "",
 *   metadata: { shoplinkService: "quote" }
 * }
 *
 * @since 0.1.0
 */
export interface CreateService {
  readonly name: string
  readonly note?: string
  readonly metadata?: Metadata
}

/**
 * The body of `POST /v3/order/:orderId/service/:serviceId/part`.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shopmonkey"
 * const body: Resources.CreatePart = {
 *   name: "Oil Filter", partNumber: "51515", quantity: 2, wholesaleCostCents: 649, retailCostCents: 999
 * }
 *
 * @since 0.1.0
 */
export interface CreatePart {
  readonly name: string
  readonly partNumber: string
  readonly quantity: number
  readonly wholesaleCostCents: number
  readonly retailCostCents: number
  readonly coreChargeCents?: number
  readonly vendorId?: string
  readonly note?: string
  readonly showPartNumber?: boolean
  readonly metadata?: Metadata
}

/**
 * `meta` of a list answer: `hasMore` says another page exists; `total` counts every match.
 *
 * @example
 * import { Schema } from "effect"
 * import { Resources } from "@shoplink/adapter-shopmonkey"
 * Schema.decodeUnknownSync(Resources.PageMeta)({ hasMore: true, total: 250 })
 *
 * @since 0.1.0
 */
export const PageMeta = Schema.Struct({
  hasMore: Schema.Boolean,
  total: Schema.optional(Schema.Number)
})

/**
 * @example
 * import type { Resources } from "@shoplink/adapter-shopmonkey"
 * const more = (meta: Resources.PageMeta) => meta.hasMore
 *
 * @since 0.1.0
 */
export type PageMeta = typeof PageMeta.Type

/**
 * One page of a list.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shopmonkey"
 * const page: Resources.Page<Resources.Vendor> = { data: [], meta: { hasMore: false, total: 0 } }
 *
 * @since 0.1.0
 */
export interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly meta: PageMeta
}
