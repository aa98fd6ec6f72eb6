/**
 * Shipping addresses for drop-ship orders and the address recommendation of API0327.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { NonBlank } from "../internal/fields.js"
import { OptionalText, StateCode } from "../Values.js"

/**
 * `shippingAddress` of createOrder, and `inputAddress` / `recommendedAddress` of a recommendation.
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.ShippingAddress)({
 *   name: "Jane Doe", addressLine1: "100 Main St", addressLine2: "", city: "Austin", state: "TX",
 *   zipCode: "78701", country: "US", phoneNumber: "5125550100", emailAddress: ""
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const ShippingAddress = Schema.Struct({
  name: NonBlank("name"),
  addressLine1: NonBlank("addressLine1"),
  addressLine2: OptionalText,
  city: NonBlank("city"),
  state: StateCode,
  zipCode: NonBlank("zipCode"),
  country: Schema.String,
  phoneNumber: Schema.String,
  emailAddress: OptionalText
}).annotations({ identifier: "ShippingAddress" })
/** @since 0.1.0 */
export interface ShippingAddress extends Schema.Schema.Type<typeof ShippingAddress> {}

/**
 * `recommendedDropShipAddress`: the address as received, why it was refused, and the
 * standardized address (with an extended ZIP+4).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * const address = {
 *   name: "Jane Doe",
 *   addressLine1: "100 Main St",
 *   addressLine2: "",
 *   city: "Austin",
 *   state: "TX",
 *   zipCode: "78701",
 *   country: "US",
 *   phoneNumber: "5125550100",
 *   emailAddress: ""
 * }
 * Schema.decodeUnknownSync(OrderManagement.RecommendedDropShipAddress)({
 *   inputAddress: address,
 *   recommendationText: "ZIP code extended",
 *   recommendedAddress: { ...address, zipCode: "78701-1234" }
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const RecommendedDropShipAddress = Schema.Struct({
  inputAddress: ShippingAddress,
  recommendationText: Schema.String,
  recommendedAddress: ShippingAddress
}).annotations({ identifier: "RecommendedDropShipAddress" })
/** @since 0.1.0 */
export interface RecommendedDropShipAddress extends Schema.Schema.Type<typeof RecommendedDropShipAddress> {}
