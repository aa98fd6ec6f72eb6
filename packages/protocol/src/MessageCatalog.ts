/**
 * The distributor's message catalogue: every message ID of the Order Management API's Errors table
 * (API0200 … API0500) plus the Punchout API's `UNAUTHORIZED`, with its text, meaning, retry class
 * and the name of the error class generated for it.
 *
 * This module is data only (no imports): `scripts/generate-errors.mjs` reads it to write
 * `MessageErrors.ts`, and `test/MessageCatalog.test.ts` checks it against the spec's table.
 *
 * @since 0.1.0
 */

/**
 * How a caller should react to a message:
 * - `retryable` — transient (order locked / in use): retry with backoff;
 * - `quota` — the monthly allowance is used up: do not retry until the period rolls over;
 * - `auth` — credentials or permissions: fix configuration, never retry;
 * - `invalid` — the request is wrong: fix the input, never retry;
 * - `state` — the resource is in a state that forbids the call (already submitted, saved, …);
 * - `server` — the distributor failed; safe to retry only for idempotent reads.
 *
 * @example
 * import { MessageCatalog } from "@shoplink/protocol"
 * const retry: MessageCatalog.RetryClass = MessageCatalog.messages.API0258.retry // "retryable"
 *
 * @since 0.1.0
 */
export type RetryClass = "retryable" | "quota" | "auth" | "invalid" | "state" | "server"

/**
 * What a message ID stands for: `success` (API0200), an order `status` report (API0282–API0286),
 * or an `error`.
 *
 * @example
 * import { MessageCatalog } from "@shoplink/protocol"
 * MessageCatalog.messages.API0283.kind // "status"
 *
 * @since 0.1.0
 */
export type MessageKind = "success" | "status" | "error"

/**
 * One row of the catalogue.
 *
 * @example
 * import { MessageCatalog } from "@shoplink/protocol"
 * const entry: MessageCatalog.MessageEntry = MessageCatalog.messages.API0304
 *
 * @since 0.1.0
 */
export interface MessageEntry {
  readonly text: string
  readonly meaning: string
  readonly kind: MessageKind
  readonly retry: RetryClass
  /** Name (and `_tag`) of the generated error class. */
  readonly errorName: string
  /** Which API documents the ID. */
  readonly api: "order-management" | "punchout"
}

const e = (
  errorName: string,
  retry: RetryClass,
  text: string,
  meaning: string,
  kind: MessageKind = "error",
  api: MessageEntry["api"] = "order-management"
): MessageEntry => ({ errorName, retry, text, meaning, kind, api })

/**
 * The catalogue, keyed by message ID. Texts are exactly the spec's.
 *
 * @example
 * import { MessageCatalog } from "@shoplink/protocol"
 * MessageCatalog.messages.API0208.text // "You exceeded use limit for the month"
 *
 * @since 0.1.0
 */
export const messages = {
  API0200: e("Successful", "invalid", "Successful", "Call executed", "success"),
  API0202: e("CustomerAccountNotFound", "auth", "Customer account not found", "Account in the request does not exist or is disabled"),
  API0203: e("MissingSelectionCriteria", "invalid", "Missing selection criteria", "Required data missing from the payload"),
  API0204: e("NotAuthorizedToService", "auth", "You are not authorized to this service", "Request not permitted"),
  API0206: e("InvalidApiKey", "auth", "Invalid API key", "Key in the header does not exist"),
  API0207: e("ApiKeyExpired", "auth", "API key expired", "Key is expired; a new one is needed"),
  API0208: e("MonthlyLimitExceeded", "quota", "You exceeded use limit for the month", "Request allowance for the period exceeded"),
  API0221: e("InvalidReturnReason", "invalid", "Return reason is invalid", "Reason is invalid or unusable for the line"),
  API0222: e("RmaLineNotFound", "invalid", "RMA/Line not found", "Line item not found or no longer available"),
  API0223: e("RmaCustomerMismatch", "invalid", "RMA/Customer do not match", "Account did not purchase the RMA item"),
  API0224: e("RmaLineNotAvailable", "state", "RMA line not available", "RMA line unavailable"),
  API0225: e("RmaNotAvailable", "state", "RMA not available", "No RMA available for an item"),
  API0226: e("InvalidVehicleGroupId", "invalid", "Invalid vehicle group ID", "Vehicle ID requested does not exist"),
  API0227: e("StockOrderNotAvailable", "auth", "Stock order is not available for this customer", "Account may not create stock (DC Direct) orders"),
  API0230: e("OrderNumberInvalid", "invalid", "Order number is invalid", "Order number wrong or absent"),
  API0231: e("QuantityNotPositive", "invalid", "Quantity must be greater than zero", "Item quantity must exceed 0"),
  API0232: e("ProductNotStocked", "invalid", "Product not stocked", "SKU not stocked"),
  API0234: e("QuantityNotAvailable", "state", "Quantity requested is not available", "Quantity exceeds stock on hand"),
  API0235: e("ExcessiveOrderQuantity", "invalid", "Excessive order quantity", "Items exceed the maximum for one order"),
  API0236: e("DuplicateOrderLine", "state", "This part/warehouse combination is on the order already", "Product already on the order; edit the line quantity"),
  API0237: e("PartNotAvailableForStockOrder", "invalid", "Part not available for stock order", "Product not eligible for stock-order pricing"),
  API0243: e("PriceNotDetermined", "invalid", "Price cannot be determined for this product", "Product has no price"),
  API0244: e("CustomerNotFoundOrInactive", "auth", "Customer not found or inactive", "Account missing or inactive"),
  API0246: e("InvalidOrderNumber", "invalid", "Invalid order number", "Order number invalid or missing"),
  API0247: e("OrderAlreadySubmitted", "state", "Order has already been submitted", "Already submitted for fulfillment"),
  API0249: e("ItemsShippedSeparately", "state", "One or more items will be shipped separately due to carrier restrictions", "Items ship separately by different carriers"),
  API0250: e("PurchaseOrderCommentRequired", "invalid", "A comment containing the P.O. number is required - Order not submitted", "Account requires a P.O. number in the order comments"),
  API0252: e("InvalidTransportMode", "invalid", "Invalid mode of transport. Order cannot be submitted", "Shipping method invalid"),
  API0254: e("InvalidSku", "invalid", "Invalid AAP SKU", "Internal use only"),
  API0255: e("CustomerOrderMismatch", "invalid", "CustomerNo/OrderNo do not match", "Customer number and order number do not match"),
  API0256: e("OrderNotFound", "state", "Order not found or has already been deleted", "Order number wrong or absent"),
  API0257: e("OrderCannotBeDeleted", "state", "Order cannot be deleted", "Order in use or already being fulfilled or delivered"),
  API0258: e("OrderLocked", "retryable", "Order is locked by another job", "Order in use"),
  API0259: e("CustomerPoRequired", "invalid", "Customer PO is required for this account", "A customer PO is needed to create an order"),
  API0261: e("VinNotDecoded", "invalid", "Could not decode VIN", "VIN could not be decoded"),
  API0262: e("LicensePlateNotFound", "invalid", "No record found for the license plate", "No match for the plate"),
  API0263: e("InvalidFromDate", "invalid", "fromDate is not valid", "Improperly formatted or later than today"),
  API0264: e("InvalidToDate", "invalid", "toDate is not valid", "Improperly formatted or later than today"),
  API0265: e("FromDateAfterToDate", "invalid", "fromDate cannot be greater than toDate", "Invalid range"),
  API0266: e("InvoiceDateRangeRequired", "invalid", "Both fromDate and toDate must be provided if invoiceNo is not provided", "Multiple-invoice requests need both dates"),
  API0267: e("InvalidVinCharacter", "invalid", "Invalid character for VIN at position <integer>", "Malformed VIN"),
  API0268: e("OrderAlreadyProcessed", "state", "Order has been processed, no change is allowed", "Change to an order already in processing"),
  API0269: e("InvalidSubmitDate", "invalid", "Submit date is not valid", "Order not submitted because of the submit date"),
  API0270: e("OrderLineNotFound", "state", "Order line not found", "Action on the order line failed"),
  API0272: e("OrderSaved", "state", "Order is saved, cannot be submitted.", "Order is saved; open it to submit"),
  API0273: e("OrderInUse", "retryable", "Order is in use, no change is allowed", "Order in use by another user of the account"),
  API0275: e("CreditCardCreationNotAuthorized", "auth", "User not authorized to API creditCardCreation", "Internal use only"),
  API0276: e("CreditCardAuthorizationError", "server", "createCreditCardAuthorization error - see responseText", "Internal use only"),
  API0278: e("PaymentTokenCompanyMismatch", "invalid", "Payment token company mismatch to endpoint company", "Internal use only"),
  API0282: e("OrderSavedForLater", "state", "Saved for later", "Order status (see States)", "status"),
  API0283: e("OrderSubmitted", "state", "Order submitted", "Order status", "status"),
  API0284: e("OrderProcessing", "state", "Processing order", "Order status", "status"),
  API0285: e("OrderShippedPartial", "state", "Shipped, partial", "Order status", "status"),
  API0286: e("OrderShippedComplete", "state", "Shipped, complete", "Order status", "status"),
  API0287: e("InvalidValueChoice", "invalid", "valid values are (1, 2, 3, 4, 5, 6)", "Internal use only"),
  API0288: e("InvalidApiParameters", "invalid", "Invalid API parameters", "Invalid parameters in the payload"),
  API0289: e("InvoiceNotFound", "invalid", "Invoice not found for customer", "Invoice number not found for the account"),
  API0291: e("ManifestNotFound", "invalid", "No manifest found", "Manifest not found"),
  API0297: e("BetaEnvironmentError", "server", "System error in setting up beta environment", "Internal developer use only"),
  API0300: e("RmaBeingPickedUp", "state", "RMA is being picked up", "RMA being picked up by a driver"),
  API0301: e("RmaInUse", "retryable", "RMA is in use", "RMA in use by another user of the account"),
  API0302: e("InvalidRmaNumber", "invalid", "RMA number is invalid", "RMA number invalid"),
  API0303: e("InvalidCategoryCode", "invalid", "Invalid categoryCode", "Category code invalid"),
  API0304: e("InvalidSearchText", "invalid", "Invalid searchText - must be 3 or more characters", "Searches need 3 or more characters"),
  API0327: e("DropShipAddressRecommended", "invalid", "Drop ship address update is recommended", "Returned with status code 500 when the shipping address is invalid; see Endpoints"),
  API0500: e("SomethingWentWrong", "server", "Something went wrong, that's all we know", "Uncaught exception; report the call, header and payload to support"),
  UNAUTHORIZED: e("Unauthorized", "auth", "Unauthorized", "Invalid credentials at session creation, or a revoked token", "error", "punchout")
} as const satisfies Record<string, MessageEntry>

/**
 * A message ID the catalogue knows.
 *
 * @example
 * import { MessageCatalog } from "@shoplink/protocol"
 * const id: MessageCatalog.MessageId = "API0258"
 *
 * @since 0.1.0
 */
export type MessageId = keyof typeof messages

/**
 * Whether a string is a message ID of the catalogue.
 *
 * @example
 * import { MessageCatalog } from "@shoplink/protocol"
 * MessageCatalog.isMessageId("API0258") // true
 * MessageCatalog.isMessageId("API9999") // false
 *
 * @since 0.1.0
 */
export const isMessageId = (id: string): id is MessageId => Object.prototype.hasOwnProperty.call(messages, id)

/**
 * The IDs that mean the call worked: API0200, and the order status reports API0282–API0286.
 *
 * @example
 * import { MessageCatalog } from "@shoplink/protocol"
 * MessageCatalog.isSuccessId("API0283") // true
 *
 * @since 0.1.0
 */
export const isSuccessId = (id: string): boolean => isMessageId(id) && messages[id].kind !== "error"
