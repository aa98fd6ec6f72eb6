/**
 * The Tekmetric resources this adapter reads and writes, as the public API documentation
 * describes them (only the fields used; others are ignored). Ids are numbers on the wire; missing
 * values come as `null`. Lists are pages: `content`, `number` (0-based), `size`, `totalPages`,
 * `totalElements`, `last`.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

const OptionalText = Schema.optional(Schema.NullOr(Schema.String))
const OptionalId = Schema.optional(Schema.NullOr(Schema.Number))

/**
 * The token endpoint's answer: a bearer token and its scope, the space-separated shop IDs it may
 * reach; `expires_in` (seconds) when Tekmetric sends one.
 *
 * @example
 * import { Schema } from "effect"
 * import { Resources } from "@shoplink/adapter-tekmetric"
 * Schema.decodeUnknownSync(Resources.TokenResponse)({ access_token: "t", token_type: "bearer", scope: "1 2" })
 *
 * @since 0.1.0
 */
export const TokenResponse = Schema.Struct({
  access_token: Schema.String.pipe(Schema.minLength(1)),
  token_type: Schema.optional(Schema.String),
  scope: Schema.optionalWith(Schema.String, { default: () => "" }),
  expires_in: Schema.optional(Schema.NullOr(Schema.Number))
})

/**
 * A repair order (`GET /api/v1/repair-orders/{id}`).
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-tekmetric"
 * const ro: Resources.RepairOrder = { id: 42, repairOrderNumber: 1042, shopId: 1, customerId: 7, vehicleId: 9 }
 *
 * @since 0.1.0
 */
export const RepairOrder = Schema.Struct({
  id: Schema.Number,
  repairOrderNumber: Schema.optional(Schema.NullOr(Schema.Union(Schema.Number, Schema.String))),
  shopId: Schema.Number,
  customerId: OptionalId,
  vehicleId: OptionalId,
  repairOrderStatus: Schema.optional(
    Schema.NullOr(Schema.Struct({ id: Schema.optional(Schema.Number), code: OptionalText, name: OptionalText }))
  )
})

/**
 * The repair order type.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-tekmetric"
 * const number = (ro: Resources.RepairOrder) => String(ro.repairOrderNumber ?? ro.id)
 *
 * @since 0.1.0
 */
export type RepairOrder = typeof RepairOrder.Type

/**
 * A vehicle (`GET /api/v1/vehicles/{id}`): VIN, license plate and the state that issued it.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-tekmetric"
 * const vehicle: Resources.Vehicle = {
 *   id: 9,
 *   vin: "1FTFW1E50KFA12345",
 *   licensePlate: "8ABC123",
 *   state: "CA",
 *   year: 2019,
 *   make: "Ford",
 *   model: "F-150"
 * }
 *
 * @since 0.1.0
 */
export const Vehicle = Schema.Struct({
  id: Schema.Number,
  vin: OptionalText,
  licensePlate: OptionalText,
  state: OptionalText,
  year: Schema.optional(Schema.NullOr(Schema.Union(Schema.Number, Schema.NumberFromString))),
  make: OptionalText,
  model: OptionalText
})

/**
 * The vehicle type.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-tekmetric"
 * const plate = (v: Resources.Vehicle) => v.licensePlate ?? undefined
 *
 * @since 0.1.0
 */
export type Vehicle = typeof Vehicle.Type

/**
 * A customer (`GET /api/v1/customers/{id}`).
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-tekmetric"
 * const customer: Resources.Customer = { id: 7, firstName: "Dana", lastName: "Reyes" }
 *
 * @since 0.1.0
 */
export const Customer = Schema.Struct({
  id: Schema.Number,
  firstName: OptionalText,
  lastName: OptionalText
})

/**
 * The customer type.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-tekmetric"
 * const name = (c: Resources.Customer) => [c.firstName, c.lastName].filter(Boolean).join(" ")
 *
 * @since 0.1.0
 */
export type Customer = typeof Customer.Type

/**
 * A job of a repair order (`GET /api/v1/jobs?repairOrderId=`); its `note` is what the adapter
 * writes the distributor's order on (`PATCH /api/v1/jobs/{id}`).
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-tekmetric"
 * const job: Resources.Job = { id: 77, repairOrderId: 42, name: "Brakes", note: null }
 *
 * @since 0.1.0
 */
export const Job = Schema.Struct({
  id: Schema.Number,
  repairOrderId: Schema.Number,
  name: OptionalText,
  note: OptionalText
})

/**
 * The job type.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-tekmetric"
 * const noted = (job: Resources.Job) => (job.note ?? "").length > 0
 *
 * @since 0.1.0
 */
export type Job = typeof Job.Type

/**
 * One page of a list endpoint.
 *
 * @example
 * import { Resources } from "@shoplink/adapter-tekmetric"
 * const RepairOrderPage = Resources.Page(Resources.RepairOrder)
 *
 * @since 0.1.0
 */
export const Page = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.Struct({
    content: Schema.Array(item),
    number: Schema.optionalWith(Schema.Number, { default: () => 0 }),
    size: Schema.optional(Schema.Number),
    totalPages: Schema.optional(Schema.Number),
    totalElements: Schema.optional(Schema.Number),
    last: Schema.optional(Schema.Boolean)
  })

/**
 * A page of items.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-tekmetric"
 * const more = (page: Resources.PageOf<Resources.RepairOrder>) => page.last === false
 *
 * @since 0.1.0
 */
export interface PageOf<A> {
  readonly content: ReadonlyArray<A>
  readonly number: number
  readonly size?: number | undefined
  readonly totalPages?: number | undefined
  readonly totalElements?: number | undefined
  readonly last?: boolean | undefined
}
