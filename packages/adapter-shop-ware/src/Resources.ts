/**
 * The Shop-Ware resources this adapter reads and writes, as Shop-Ware's public OpenAPI (v1)
 * describes them (only the fields used; others are ignored). Ids are integers; a missing value may
 * come as `null`. Lists are pages: `results`, `limit`, `limited`, `total_count`, `current_page`
 * (1-based) and `total_pages`, asked for with `page` and `per_page`.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

const OptionalText = Schema.optional(Schema.NullOr(Schema.String))
const OptionalId = Schema.optional(Schema.NullOr(Schema.Number))

/**
 * An integrator tag (`/api/v1/tenants/{tenant_id}/integrator_tags`, and a repair order's
 * `integrator_tags` association): a name and a value on one entity.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const tag: Resources.IntegratorTag = {
 *   id: 1, taggable_type: "RepairOrder", taggable_id: 42, name: "shoplink_order_10423", value: "3"
 * }
 *
 * @since 0.1.0
 */
export const IntegratorTag = Schema.Struct({
  id: Schema.Number,
  taggable_type: Schema.String,
  taggable_id: Schema.Number,
  name: Schema.String,
  value: Schema.NullOr(Schema.String)
})

/**
 * The integrator tag type.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const named = (tag: Resources.IntegratorTag) => tag.name
 *
 * @since 0.1.0
 */
export type IntegratorTag = typeof IntegratorTag.Type

/**
 * A repair order (`GET /api/v1/tenants/{tenant_id}/repair_orders/{id}`): its number, `state` (one
 * of `estimate`, `in_progress`, `invoice`), shop, customer, vehicle and, when asked for with
 * `associations[]=integrator_tags`, its integrator tags.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const ro: Resources.RepairOrder = {
 *   id: 42, number: 1042, state: "in_progress", shop_id: 1, customer_id: 7, vehicle_id: 9
 * }
 *
 * @since 0.1.0
 */
export const RepairOrder = Schema.Struct({
  id: Schema.Number,
  number: Schema.optional(Schema.NullOr(Schema.Number)),
  state: OptionalText,
  shop_id: OptionalId,
  customer_id: OptionalId,
  vehicle_id: OptionalId,
  created_at: OptionalText,
  integrator_tags: Schema.optional(Schema.NullOr(Schema.Array(IntegratorTag)))
})

/**
 * The repair order type.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const number = (ro: Resources.RepairOrder) => String(ro.number ?? ro.id)
 *
 * @since 0.1.0
 */
export type RepairOrder = typeof RepairOrder.Type

/**
 * A vehicle (`GET /api/v1/tenants/{tenant_id}/vehicles/{id}`): VIN, plate (Shop-Ware keeps no
 * plate state), year (a string), make and model.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const vehicle: Resources.Vehicle = {
 *   id: 9, vin: "1FMPU16W14LB56648", plate: "EZRIDR", year: "2004", make: "Ford", model: "Expedition"
 * }
 *
 * @since 0.1.0
 */
export const Vehicle = Schema.Struct({
  id: Schema.Number,
  vin: OptionalText,
  plate: OptionalText,
  year: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  make: OptionalText,
  model: OptionalText
})

/**
 * The vehicle type.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const plate = (v: Resources.Vehicle) => v.plate ?? undefined
 *
 * @since 0.1.0
 */
export type Vehicle = typeof Vehicle.Type

/**
 * A customer (`GET /api/v1/tenants/{tenant_id}/customers/{id}`): a person's first and last name,
 * or a business name.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const customer: Resources.Customer = { id: 7, first_name: "Dana", last_name: "Reyes" }
 *
 * @since 0.1.0
 */
export const Customer = Schema.Struct({
  id: Schema.Number,
  first_name: OptionalText,
  last_name: OptionalText,
  business_name: OptionalText
})

/**
 * The customer type.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const name = (c: Resources.Customer) => [c.first_name, c.last_name].filter(Boolean).join(" ")
 *
 * @since 0.1.0
 */
export type Customer = typeof Customer.Type

/**
 * A note on a repair order (`/api/v1/tenants/{tenant_id}/notes`): its text is `description`.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const note: Resources.Note = { id: 5, repair_order_id: 42, description: "Parts ordered" }
 *
 * @since 0.1.0
 */
export const Note = Schema.Struct({
  id: Schema.Number,
  repair_order_id: OptionalId,
  description: OptionalText
})

/**
 * The note type.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const text = (note: Resources.Note) => note.description ?? ""
 *
 * @since 0.1.0
 */
export type Note = typeof Note.Type

/**
 * A tenant (`GET /api/v1/tenants/{id}`): `cname` is its subdomain in Shop-Ware.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const tenant: Resources.Tenant = { id: 1, cname: "maple", name: "Maple Garage" }
 *
 * @since 0.1.0
 */
export const Tenant = Schema.Struct({
  id: Schema.Number,
  cname: OptionalText,
  name: OptionalText
})

/**
 * The tenant type.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const subdomain = (t: Resources.Tenant) => t.cname ?? undefined
 *
 * @since 0.1.0
 */
export type Tenant = typeof Tenant.Type

/**
 * A partner's authorization for a tenant (`GET /api/v1/partners/{partner_id}/authorizations`):
 * `writable` says whether write actions are enabled.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const authorization: Resources.Authorization = {
 *   id: 1, api_partner_id: 1, tenant_id: 3, api_tenant_id: 3, writable: true
 * }
 *
 * @since 0.1.0
 */
export const Authorization = Schema.Struct({
  id: Schema.Number,
  api_partner_id: OptionalId,
  tenant_id: OptionalId,
  api_tenant_id: OptionalId,
  writable: Schema.optionalWith(Schema.Boolean, { default: () => false })
})

/**
 * The authorization type.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const tenantOf = (a: Resources.Authorization) => a.tenant_id ?? a.api_tenant_id
 *
 * @since 0.1.0
 */
export type Authorization = typeof Authorization.Type

/**
 * One page of a list endpoint.
 *
 * @example
 * import { Resources } from "@shoplink/adapter-shop-ware"
 * const RepairOrderPage = Resources.Page(Resources.RepairOrder)
 *
 * @since 0.1.0
 */
export const Page = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.Struct({
    results: Schema.Array(item),
    limit: Schema.optional(Schema.Number),
    limited: Schema.optional(Schema.Boolean),
    total_count: Schema.optional(Schema.Number),
    current_page: Schema.optional(Schema.Number),
    total_pages: Schema.optional(Schema.Number)
  })

/**
 * A page of items.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const more = (page: Resources.PageOf<Resources.RepairOrder>) => (page.current_page ?? 1) < (page.total_pages ?? 1)
 *
 * @since 0.1.0
 */
export interface PageOf<A> {
  readonly results: ReadonlyArray<A>
  readonly limit?: number | undefined
  readonly limited?: boolean | undefined
  readonly total_count?: number | undefined
  readonly current_page?: number | undefined
  readonly total_pages?: number | undefined
}

/**
 * A webhook subscription of the partner (`/api/v1/webhooks`, v1:18892–19140): Shop-Ware posts
 * the `events` (`object_type.event_action`, e.g. `repair_order.updated`) of every tenant that
 * authorized the partner to `url`, in `format` (`null`, the default, or `zapier`).
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const webhook: Resources.Webhook = {
 *   id: 1, url: "https://shoplink.example/sms-webhooks/k1", events: ["repair_order.updated"], format: null
 * }
 *
 * @since 0.1.0
 */
export const Webhook = Schema.Struct({
  id: Schema.Number,
  url: Schema.String,
  events: Schema.optionalWith(Schema.Array(Schema.String), { nullable: true, default: () => [] }),
  format: OptionalText
})

/**
 * The webhook type.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const wantsUpdates = (w: Resources.Webhook) => w.events.includes("repair_order.updated")
 *
 * @since 0.1.0
 */
export type Webhook = typeof Webhook.Type

/**
 * The answer of `GET /api/v1/webhooks`: the OpenAPI shows a plain array (v1:18893–18931); a page
 * (`results`, `current_page`, `total_pages`) is read too, should Shop-Ware page it.
 *
 * @example
 * import { Schema } from "effect"
 * import { Resources } from "@shoplink/adapter-shop-ware"
 * Schema.decodeUnknownSync(Resources.WebhookList)([{ id: 1, url: "https://a.example/h", events: [] }])
 *
 * @since 0.1.0
 */
export const WebhookList = Schema.Union(Schema.Array(Webhook), Page(Webhook))

/**
 * The body of a webhook delivery, as the AsyncAPI document of the same repository shows it:
 * `{ event, object_type, action, id }`, e.g.
 * `{"event":"repair_order.updated","object_type":"repair_order","action":"updated","id":1042}`.
 * Every field is optional here and other fields are ignored; `id` may come as a number or a string.
 * No tenant and no signature are documented.
 *
 * @example
 * import { Schema } from "effect"
 * import { Resources } from "@shoplink/adapter-shop-ware"
 * Schema.decodeUnknownSync(Resources.WebhookDelivery)({
 *   event: "repair_order.deleted", object_type: "repair_order", action: "deleted", id: 1042
 * })
 *
 * @since 0.1.0
 */
export const WebhookDelivery = Schema.Struct({
  event: OptionalText,
  object_type: OptionalText,
  action: OptionalText,
  id: Schema.optional(Schema.NullOr(Schema.Union(Schema.Number, Schema.String)))
})

/**
 * The webhook delivery type.
 *
 * @example
 * import type { Resources } from "@shoplink/adapter-shop-ware"
 * const about = (d: Resources.WebhookDelivery) => d.object_type ?? d.event?.split(".")[0]
 *
 * @since 0.1.0
 */
export type WebhookDelivery = typeof WebhookDelivery.Type
