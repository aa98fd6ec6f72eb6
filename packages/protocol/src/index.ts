/**
 * @shoplink/protocol — the wire model of the distributor's Punchout and Order Management APIs.
 *
 * @since 0.1.0
 */
export * as Envelope from "./Envelope.js"
export * as Epoch from "./Epoch.js"
export * as MessageCatalog from "./MessageCatalog.js"
export * as MessageError from "./MessageError.js"
export * as MessageErrors from "./MessageErrors.js"
export * as OrderManagement from "./OrderManagement.js"
export * as OrderRules from "./OrderRules.js"
export * as Punchout from "./Punchout.js"
export * as Values from "./Values.js"
export * as Violation from "./Violation.js"
export * as Vin from "./Vin.js"
export * from "./MessageErrors.js"
export { UnknownMessage } from "./MessageError.js"
export * as ApiAnnotations from "./ApiAnnotations.js"
export * as OrderManagementApi from "./OrderManagementApi.js"
export * as PunchoutApi from "./PunchoutApi.js"
export * as Decoder from "./Decoder.js"
