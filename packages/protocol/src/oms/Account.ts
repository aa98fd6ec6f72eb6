/**
 * Account details and invoice details.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { envelopeFields } from "../Envelope.js"
import { IdString, NonBlank } from "../internal/fields.js"
import { LenientNumber, OptionalText } from "../Values.js"
import { ShippingAddress } from "./Address.js"
import { DateFromYyyymmdd } from "./Dates.js"
import { OrderLineDetail } from "./Orders.js"

/**
 * accountDetails query (`GET /accountDetails`): `customerAccountNo` and `submitDate` (yyyymmdd).
 * `APIToken` travels beside it, added by the client.
 *
 * @example
 * import { DateTime, Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.encodeSync(OrderManagement.AccountDetailsRequest)({
 *   customerAccountNo: "100200", submitDate: DateTime.unsafeMake("2026-11-21")
 * }) // { customerAccountNo: "100200", submitDate: "20261121" }
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountDetailsRequest = Schema.Struct({
  customerAccountNo: NonBlank("customerAccountNo"),
  submitDate: DateFromYyyymmdd
}).annotations({ identifier: "AccountDetailsRequest" })
/** @since 0.1.0 */
export interface AccountDetailsRequest extends Schema.Schema.Type<typeof AccountDetailsRequest> {}

/**
 * accountDetails response (the spec says only "the service"; fields assumed, unknown ones kept
 * out).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.AccountDetailsResponse)({
 *   status: { code: 200, message: { ID: "API0200", text: "Successful" } },
 *   customerAccountNo: "100200",
 *   accountName: "Main St Auto"
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountDetailsResponse = Schema.Struct({
  ...envelopeFields,
  customerAccountNo: IdString,
  accountName: OptionalText,
  country: OptionalText,
  active: Schema.optionalWith(Schema.Boolean, { nullable: true, default: () => true }),
  poRequired: Schema.optionalWith(Schema.Boolean, { nullable: true, default: () => false }),
  defaultShippingAddress: Schema.optionalWith(ShippingAddress, { nullable: true, exact: true })
}).annotations({ identifier: "AccountDetailsResponse" })
/** @since 0.1.0 */
export interface AccountDetailsResponse extends Schema.Schema.Type<typeof AccountDetailsResponse> {}

/**
 * invoiceDetails query: one invoice by `invoiceNo`, or a range with both `fromDate` and `toDate`
 * (yyyymmdd, assumed). The date rules (API0263–API0266) are the client's to check.
 *
 * @example
 * import { DateTime, Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.encodeSync(OrderManagement.InvoiceDetailsRequest)({
 *   customerAccountNo: "100200", fromDate: DateTime.unsafeMake("2026-11-01"), toDate: DateTime.unsafeMake("2026-11-20")
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const InvoiceDetailsRequest = Schema.Struct({
  customerAccountNo: NonBlank("customerAccountNo"),
  invoiceNo: Schema.optionalWith(NonBlank("invoiceNo"), { exact: true }),
  fromDate: Schema.optionalWith(DateFromYyyymmdd, { exact: true }),
  toDate: Schema.optionalWith(DateFromYyyymmdd, { exact: true })
}).annotations({ identifier: "InvoiceDetailsRequest" })
/** @since 0.1.0 */
export interface InvoiceDetailsRequest extends Schema.Schema.Type<typeof InvoiceDetailsRequest> {}

/**
 * An invoice (assumed shape).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.Invoice)({
 *   invoiceNo: "INV-1",
 *   invoiceDate: "20261120",
 *   orderNo: "5000123",
 *   invoiceTotal: 12.98,
 *   lines: []
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const Invoice = Schema.Struct({
  invoiceNo: IdString,
  invoiceDate: DateFromYyyymmdd,
  orderNo: OptionalText,
  invoiceTotal: LenientNumber,
  lines: Schema.optionalWith(Schema.Array(OrderLineDetail), { nullable: true, default: () => [] })
}).annotations({ identifier: "Invoice" })
/** @since 0.1.0 */
export interface Invoice extends Schema.Schema.Type<typeof Invoice> {}

/**
 * invoiceDetails response (assumed).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.InvoiceDetailsResponse)({
 *   status: { code: 200, message: { ID: "API0200", text: "Successful" } }, invoices: []
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const InvoiceDetailsResponse = Schema.Struct({
  ...envelopeFields,
  invoices: Schema.optionalWith(Schema.Array(Invoice), { nullable: true, default: () => [] })
}).annotations({ identifier: "InvoiceDetailsResponse" })
/** @since 0.1.0 */
export interface InvoiceDetailsResponse extends Schema.Schema.Type<typeof InvoiceDetailsResponse> {}
