/**
 * The distributor's message catalogue: every message ID of the Order Management API's Errors table
 * (API0200 … API0500) plus the Punchout API's `UNAUTHORIZED`, one literal row each with every fact
 * about the message: its text and meaning (exactly the spec's), kind, retry class, the HTTP status
 * it comes with, the request field it is about, and the name of its error class.
 *
 * This module is data only: `MessageErrors` makes one error class per row with `MessageErrorClass`,
 * the sandbox answers with the rows' texts and HTTP statuses, and `test/MessageCatalog.test.ts`
 * checks the rows against the spec's table. Adding a message ID is adding a row here and a class
 * line in `MessageErrors.ts`.
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
 * entry.field // "searchText"
 *
 * @since 0.1.0
 */
export interface MessageEntry {
  /** The message text, exactly the spec's. */
  readonly text: string
  /** What the message means, exactly the spec's. */
  readonly meaning: string
  readonly kind: MessageKind
  readonly retry: RetryClass
  /**
   * The HTTP status that comes with the message (the spec shows none except API0327's 500; these
   * are the statuses the sandbox answers with). Clients must not depend on it: they decode the
   * envelope whatever the status.
   */
  readonly httpStatus: number
  /**
   * The request field whose value draws this message when it breaks that field's rule
   * (`searchText` → API0304). A client that refuses such a value before sending names this
   * message; at most one row names a field.
   */
  readonly field?: string | undefined
  /** Name (and `_tag`) of the message's error class in `MessageErrors`. */
  readonly errorName: string
  /** Which API documents the ID. */
  readonly api: "order-management" | "punchout"
}

// A row as written below: `kind` is "error" and `api` "order-management" unless the row says otherwise.
type Row = Omit<MessageEntry, "kind" | "api"> & Partial<Pick<MessageEntry, "kind" | "api">>

const rows = {
  API0200: {
    errorName: "Successful",
    kind: "success",
    retry: "invalid",
    httpStatus: 200,
    text: "Successful",
    meaning: "Call executed"
  },
  API0202: {
    errorName: "CustomerAccountNotFound",
    retry: "auth",
    httpStatus: 404,
    text: "Customer account not found",
    meaning: "Account in the request does not exist or is disabled"
  },
  API0203: {
    errorName: "MissingSelectionCriteria",
    retry: "invalid",
    httpStatus: 400,
    text: "Missing selection criteria",
    meaning: "Required data missing from the payload"
  },
  API0204: {
    errorName: "NotAuthorizedToService",
    retry: "auth",
    httpStatus: 403,
    text: "You are not authorized to this service",
    meaning: "Request not permitted"
  },
  API0206: {
    errorName: "InvalidApiKey",
    retry: "auth",
    httpStatus: 401,
    text: "Invalid API key",
    meaning: "Key in the header does not exist"
  },
  API0207: {
    errorName: "ApiKeyExpired",
    retry: "auth",
    httpStatus: 401,
    text: "API key expired",
    meaning: "Key is expired; a new one is needed"
  },
  API0208: {
    errorName: "MonthlyLimitExceeded",
    retry: "quota",
    httpStatus: 429,
    text: "You exceeded use limit for the month",
    meaning: "Request allowance for the period exceeded"
  },
  API0221: {
    errorName: "InvalidReturnReason",
    retry: "invalid",
    httpStatus: 400,
    text: "Return reason is invalid",
    meaning: "Reason is invalid or unusable for the line"
  },
  API0222: {
    errorName: "RmaLineNotFound",
    retry: "invalid",
    httpStatus: 400,
    text: "RMA/Line not found",
    meaning: "Line item not found or no longer available"
  },
  API0223: {
    errorName: "RmaCustomerMismatch",
    retry: "invalid",
    httpStatus: 400,
    text: "RMA/Customer do not match",
    meaning: "Account did not purchase the RMA item"
  },
  API0224: {
    errorName: "RmaLineNotAvailable",
    retry: "state",
    httpStatus: 409,
    text: "RMA line not available",
    meaning: "RMA line unavailable"
  },
  API0225: {
    errorName: "RmaNotAvailable",
    retry: "state",
    httpStatus: 409,
    text: "RMA not available",
    meaning: "No RMA available for an item"
  },
  API0226: {
    errorName: "InvalidVehicleGroupId",
    retry: "invalid",
    httpStatus: 400,
    field: "vehicleGroupId",
    text: "Invalid vehicle group ID",
    meaning: "Vehicle ID requested does not exist"
  },
  API0227: {
    errorName: "StockOrderNotAvailable",
    retry: "auth",
    httpStatus: 403,
    text: "Stock order is not available for this customer",
    meaning: "Account may not create stock (DC Direct) orders"
  },
  API0230: {
    errorName: "OrderNumberInvalid",
    retry: "invalid",
    httpStatus: 400,
    text: "Order number is invalid",
    meaning: "Order number wrong or absent"
  },
  API0231: {
    errorName: "QuantityNotPositive",
    retry: "invalid",
    httpStatus: 400,
    field: "quantity",
    text: "Quantity must be greater than zero",
    meaning: "Item quantity must exceed 0"
  },
  API0232: {
    errorName: "ProductNotStocked",
    retry: "invalid",
    httpStatus: 400,
    text: "Product not stocked",
    meaning: "SKU not stocked"
  },
  API0234: {
    errorName: "QuantityNotAvailable",
    retry: "state",
    httpStatus: 409,
    text: "Quantity requested is not available",
    meaning: "Quantity exceeds stock on hand"
  },
  API0235: {
    errorName: "ExcessiveOrderQuantity",
    retry: "invalid",
    httpStatus: 400,
    text: "Excessive order quantity",
    meaning: "Items exceed the maximum for one order"
  },
  API0236: {
    errorName: "DuplicateOrderLine",
    retry: "state",
    httpStatus: 409,
    text: "This part/warehouse combination is on the order already",
    meaning: "Product already on the order; edit the line quantity"
  },
  API0237: {
    errorName: "PartNotAvailableForStockOrder",
    retry: "invalid",
    httpStatus: 400,
    text: "Part not available for stock order",
    meaning: "Product not eligible for stock-order pricing"
  },
  API0243: {
    errorName: "PriceNotDetermined",
    retry: "invalid",
    httpStatus: 400,
    text: "Price cannot be determined for this product",
    meaning: "Product has no price"
  },
  API0244: {
    errorName: "CustomerNotFoundOrInactive",
    retry: "auth",
    httpStatus: 404,
    text: "Customer not found or inactive",
    meaning: "Account missing or inactive"
  },
  API0246: {
    errorName: "InvalidOrderNumber",
    retry: "invalid",
    httpStatus: 400,
    text: "Invalid order number",
    meaning: "Order number invalid or missing"
  },
  API0247: {
    errorName: "OrderAlreadySubmitted",
    retry: "state",
    httpStatus: 409,
    text: "Order has already been submitted",
    meaning: "Already submitted for fulfillment"
  },
  API0249: {
    errorName: "ItemsShippedSeparately",
    retry: "state",
    httpStatus: 409,
    text: "One or more items will be shipped separately due to carrier restrictions",
    meaning: "Items ship separately by different carriers"
  },
  API0250: {
    errorName: "PurchaseOrderCommentRequired",
    retry: "invalid",
    httpStatus: 400,
    text: "A comment containing the P.O. number is required - Order not submitted",
    meaning: "Account requires a P.O. number in the order comments"
  },
  API0252: {
    errorName: "InvalidTransportMode",
    retry: "invalid",
    httpStatus: 400,
    text: "Invalid mode of transport. Order cannot be submitted",
    meaning: "Shipping method invalid"
  },
  API0254: {
    errorName: "InvalidSku",
    retry: "invalid",
    httpStatus: 400,
    text: "Invalid AAP SKU",
    meaning: "Internal use only"
  },
  API0255: {
    errorName: "CustomerOrderMismatch",
    retry: "invalid",
    httpStatus: 400,
    text: "CustomerNo/OrderNo do not match",
    meaning: "Customer number and order number do not match"
  },
  API0256: {
    errorName: "OrderNotFound",
    retry: "state",
    httpStatus: 404,
    text: "Order not found or has already been deleted",
    meaning: "Order number wrong or absent"
  },
  API0257: {
    errorName: "OrderCannotBeDeleted",
    retry: "state",
    httpStatus: 409,
    text: "Order cannot be deleted",
    meaning: "Order in use or already being fulfilled or delivered"
  },
  API0258: {
    errorName: "OrderLocked",
    retry: "retryable",
    httpStatus: 409,
    text: "Order is locked by another job",
    meaning: "Order in use"
  },
  API0259: {
    errorName: "CustomerPoRequired",
    retry: "invalid",
    httpStatus: 400,
    text: "Customer PO is required for this account",
    meaning: "A customer PO is needed to create an order"
  },
  API0261: {
    errorName: "VinNotDecoded",
    retry: "invalid",
    httpStatus: 400,
    text: "Could not decode VIN",
    meaning: "VIN could not be decoded"
  },
  API0262: {
    errorName: "LicensePlateNotFound",
    retry: "invalid",
    httpStatus: 400,
    text: "No record found for the license plate",
    meaning: "No match for the plate"
  },
  API0263: {
    errorName: "InvalidFromDate",
    retry: "invalid",
    httpStatus: 400,
    field: "fromDate",
    text: "fromDate is not valid",
    meaning: "Improperly formatted or later than today"
  },
  API0264: {
    errorName: "InvalidToDate",
    retry: "invalid",
    httpStatus: 400,
    field: "toDate",
    text: "toDate is not valid",
    meaning: "Improperly formatted or later than today"
  },
  API0265: {
    errorName: "FromDateAfterToDate",
    retry: "invalid",
    httpStatus: 400,
    text: "fromDate cannot be greater than toDate",
    meaning: "Invalid range"
  },
  API0266: {
    errorName: "InvoiceDateRangeRequired",
    retry: "invalid",
    httpStatus: 400,
    text: "Both fromDate and toDate must be provided if invoiceNo is not provided",
    meaning: "Multiple-invoice requests need both dates"
  },
  API0267: {
    errorName: "InvalidVinCharacter",
    retry: "invalid",
    httpStatus: 400,
    field: "vin",
    text: "Invalid character for VIN at position <integer>",
    meaning: "Malformed VIN"
  },
  API0268: {
    errorName: "OrderAlreadyProcessed",
    retry: "state",
    httpStatus: 409,
    text: "Order has been processed, no change is allowed",
    meaning: "Change to an order already in processing"
  },
  API0269: {
    errorName: "InvalidSubmitDate",
    retry: "invalid",
    httpStatus: 400,
    field: "submitDate",
    text: "Submit date is not valid",
    meaning: "Order not submitted because of the submit date"
  },
  API0270: {
    errorName: "OrderLineNotFound",
    retry: "state",
    httpStatus: 404,
    text: "Order line not found",
    meaning: "Action on the order line failed"
  },
  API0272: {
    errorName: "OrderSaved",
    retry: "state",
    httpStatus: 409,
    text: "Order is saved, cannot be submitted.",
    meaning: "Order is saved; open it to submit"
  },
  API0273: {
    errorName: "OrderInUse",
    retry: "retryable",
    httpStatus: 409,
    text: "Order is in use, no change is allowed",
    meaning: "Order in use by another user of the account"
  },
  API0275: {
    errorName: "CreditCardCreationNotAuthorized",
    retry: "auth",
    httpStatus: 400,
    text: "User not authorized to API creditCardCreation",
    meaning: "Internal use only"
  },
  API0276: {
    errorName: "CreditCardAuthorizationError",
    retry: "server",
    httpStatus: 500,
    text: "createCreditCardAuthorization error - see responseText",
    meaning: "Internal use only"
  },
  API0278: {
    errorName: "PaymentTokenCompanyMismatch",
    retry: "invalid",
    httpStatus: 400,
    text: "Payment token company mismatch to endpoint company",
    meaning: "Internal use only"
  },
  API0282: {
    errorName: "OrderSavedForLater",
    kind: "status",
    retry: "state",
    httpStatus: 200,
    text: "Saved for later",
    meaning: "Order status (see States)"
  },
  API0283: {
    errorName: "OrderSubmitted",
    kind: "status",
    retry: "state",
    httpStatus: 200,
    text: "Order submitted",
    meaning: "Order status"
  },
  API0284: {
    errorName: "OrderProcessing",
    kind: "status",
    retry: "state",
    httpStatus: 200,
    text: "Processing order",
    meaning: "Order status"
  },
  API0285: {
    errorName: "OrderShippedPartial",
    kind: "status",
    retry: "state",
    httpStatus: 200,
    text: "Shipped, partial",
    meaning: "Order status"
  },
  API0286: {
    errorName: "OrderShippedComplete",
    kind: "status",
    retry: "state",
    httpStatus: 200,
    text: "Shipped, complete",
    meaning: "Order status"
  },
  API0287: {
    errorName: "InvalidValueChoice",
    retry: "invalid",
    httpStatus: 400,
    text: "valid values are (1, 2, 3, 4, 5, 6)",
    meaning: "Internal use only"
  },
  API0288: {
    errorName: "InvalidApiParameters",
    retry: "invalid",
    httpStatus: 400,
    text: "Invalid API parameters",
    meaning: "Invalid parameters in the payload"
  },
  API0289: {
    errorName: "InvoiceNotFound",
    retry: "invalid",
    httpStatus: 404,
    text: "Invoice not found for customer",
    meaning: "Invoice number not found for the account"
  },
  API0291: {
    errorName: "ManifestNotFound",
    retry: "invalid",
    httpStatus: 400,
    text: "No manifest found",
    meaning: "Manifest not found"
  },
  API0297: {
    errorName: "BetaEnvironmentError",
    retry: "server",
    httpStatus: 500,
    text: "System error in setting up beta environment",
    meaning: "Internal developer use only"
  },
  API0300: {
    errorName: "RmaBeingPickedUp",
    retry: "state",
    httpStatus: 409,
    text: "RMA is being picked up",
    meaning: "RMA being picked up by a driver"
  },
  API0301: {
    errorName: "RmaInUse",
    retry: "retryable",
    httpStatus: 409,
    text: "RMA is in use",
    meaning: "RMA in use by another user of the account"
  },
  API0302: {
    errorName: "InvalidRmaNumber",
    retry: "invalid",
    httpStatus: 400,
    text: "RMA number is invalid",
    meaning: "RMA number invalid"
  },
  API0303: {
    errorName: "InvalidCategoryCode",
    retry: "invalid",
    httpStatus: 400,
    field: "categoryCode",
    text: "Invalid categoryCode",
    meaning: "Category code invalid"
  },
  API0304: {
    errorName: "InvalidSearchText",
    retry: "invalid",
    httpStatus: 400,
    field: "searchText",
    text: "Invalid searchText - must be 3 or more characters",
    meaning: "Searches need 3 or more characters"
  },
  API0327: {
    errorName: "DropShipAddressRecommended",
    retry: "invalid",
    httpStatus: 500,
    text: "Drop ship address update is recommended",
    meaning: "Returned with status code 500 when the shipping address is invalid; see Endpoints"
  },
  API0500: {
    errorName: "SomethingWentWrong",
    retry: "server",
    httpStatus: 500,
    text: "Something went wrong, that's all we know",
    meaning: "Uncaught exception; report the call, header and payload to support"
  },
  UNAUTHORIZED: {
    errorName: "Unauthorized",
    api: "punchout",
    retry: "auth",
    httpStatus: 401,
    text: "Unauthorized",
    meaning: "Invalid credentials at session creation, or a revoked token"
  }
} as const satisfies Record<string, Row>

type Entry<R extends Row> =
  & Omit<R, "kind" | "api">
  & {
    readonly kind: R extends { readonly kind: infer K } ? K : "error"
    readonly api: R extends { readonly api: infer A } ? A : "order-management"
  }
  & (R extends { readonly field: string } ? unknown : { readonly field?: undefined })

/**
 * The catalogue, keyed by message ID: one row per ID with its text and meaning (exactly the
 * spec's), kind, retry class, HTTP status, related request field and error class name.
 *
 * @example
 * import { MessageCatalog } from "@shoplink/protocol"
 * MessageCatalog.messages.API0208.text // "You exceeded use limit for the month"
 * MessageCatalog.messages.API0208.httpStatus // 429
 *
 * @since 0.1.0
 */
export const messages = Object.fromEntries(
  Object.entries(rows).map(([id, row]) => [id, { kind: "error", api: "order-management", ...row }])
) as unknown as { readonly [Id in keyof typeof rows]: Entry<(typeof rows)[Id]> }

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

/**
 * A message ID that has an error class: every ID but the success ID API0200. (The order status
 * reports API0282–API0286 have classes too, for a call that answers one with a non-2xx status.)
 *
 * @example
 * import type { MessageCatalog } from "@shoplink/protocol"
 * const id: MessageCatalog.ErrorId = "API0258"
 *
 * @since 0.1.0
 */
export type ErrorId = {
  readonly [Id in MessageId]: (typeof messages)[Id]["kind"] extends "success" ? never : Id
}[MessageId]

const idByField: ReadonlyMap<string, MessageId> = new Map(
  (Object.keys(messages) as Array<MessageId>).flatMap((id) => {
    const field: string | undefined = (messages[id] as MessageEntry).field
    return field === undefined ? [] : [[field, id] as const]
  })
)

/**
 * The message ID a request field's broken rule draws (the row whose `field` it is), so a client
 * that refuses the value before sending can name the message the server would answer with.
 *
 * @example
 * import { MessageCatalog } from "@shoplink/protocol"
 * MessageCatalog.idForField("searchText") // "API0304"
 * MessageCatalog.idForField("customerAccountNo") // undefined
 *
 * @since 0.1.0
 */
export const idForField = (field: string): MessageId | undefined => idByField.get(field)
