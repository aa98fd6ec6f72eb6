/**
 * One error class per message ID of the catalogue (every ID but the success ID API0200), each a
 * `Schema.TaggedError` made from its `MessageCatalog` row by `MessageErrorClass`: the `_tag` is the
 * row's error class name, `code` the message ID, `text` the server's text (the row's when absent),
 * `retryClass` the row's retry class, and `httpStatus`, `statusCode`, `referenceID` and
 * `serverVersion` what the response said.
 *
 * @example
 * import { Effect } from "effect"
 * import { MonthlyLimitExceeded, OrderLocked } from "@shoplink/protocol"
 *
 * const call: Effect.Effect<string, OrderLocked | MonthlyLimitExceeded> = Effect.fail(
 *   new OrderLocked({ httpStatus: 409 })
 * )
 * const recovered = call.pipe(Effect.catchTag("OrderLocked", (error) => Effect.succeed(`busy: ${error.message}`)))
 *
 * @since 0.1.0
 */
import type * as Cause from "effect/Cause"
import * as Schema from "effect/Schema"
import { describeMessage, messageFields } from "./internal/messageFields.js"
import { type ErrorId, type MessageEntry, messages, type RetryClass } from "./MessageCatalog.js"

/**
 * The `_tag` of the error class of every message ID (its catalogue row's `errorName`), keyed by ID.
 *
 * @example
 * import type { MessageErrors } from "@shoplink/protocol"
 * const tag: MessageErrors.ErrorTags["API0208"] = "MonthlyLimitExceeded"
 *
 * @since 0.1.0
 * @category models
 */
export type ErrorTags = {
  readonly [Id in ErrorId]: (typeof messages)[Id] extends { readonly errorName: infer Name extends string } ? Name
    : never
}
/**
 * The `_tag` of the error class of a message ID: its catalogue row's `errorName`.
 *
 * @example
 * import type { MessageErrors } from "@shoplink/protocol"
 * const tag: MessageErrors.ErrorTag<"API0258"> = "OrderLocked"
 *
 * @since 0.1.0
 * @category models
 */
export type ErrorTag<Id extends ErrorId> = ErrorTags[Id]

/**
 * The schema fields the constructor of the error class of a message ID takes: `code` and `text`
 * (both filled in when absent) and the fields every message error has (`httpStatus`,
 * `statusCode`, `referenceID`, `serverVersion`, `hint`).
 *
 * @example
 * import { Schema } from "effect"
 * import type { MessageErrors } from "@shoplink/protocol"
 * type Args = Schema.Struct.Constructor<MessageErrors.MessageErrorFields<"API0258">>
 * const args: Args = { httpStatus: 409, referenceID: "RO-1" }
 *
 * @since 0.1.0
 * @category models
 */
export type MessageErrorFields<Id extends ErrorId> = {
  /** The message ID; the constructor fills it in. */
  readonly code: Schema.PropertySignature<":", Id, never, ":", Id, true, never>
  /** The message text as the server sent it; defaults to the catalogue's. */
  readonly text: Schema.PropertySignature<":", string, never, ":", string, true, never>
} & typeof messageFields

/**
 * The schema fields of the error class of a message ID: its `_tag`, `code` and `text`, and the
 * fields every message error has (`httpStatus`, `statusCode`, `referenceID`, `serverVersion`, `hint`).
 *
 * @example
 * import { MessageErrors, OrderLocked } from "@shoplink/protocol"
 * const fields: MessageErrors.TaggedFields<"API0258"> = OrderLocked.fields
 *
 * @since 0.1.0
 * @category models
 */
export type TaggedFields<Id extends ErrorId> = { readonly _tag: Schema.tag<ErrorTag<Id>> } & MessageErrorFields<Id>

/**
 * An instance of the error class of a message ID: its decoded fields and the members every
 * message error has (`retryClass`, `message`, and those of a yieldable `Error`).
 *
 * @example
 * import { Effect } from "effect"
 * import { type MessageErrors, OrderLocked } from "@shoplink/protocol"
 * const error: MessageErrors.MessageErrorInstance<"API0258"> = new OrderLocked({ httpStatus: 409 })
 * const failed = Effect.fail(error).pipe(Effect.catchTag("OrderLocked", (e) => Effect.succeed(e.retryClass)))
 *
 * @since 0.1.0
 * @category models
 */
export type MessageErrorInstance<Id extends ErrorId> = Schema.Struct.Type<TaggedFields<Id>> & MessageErrorMembers

/**
 * What every message error has besides its fields: the members of a yieldable `Error` (`message`,
 * `yield*` to fail with it) and the catalogue row's retry class.
 *
 * @example
 * import { type MessageErrors, QuantityNotAvailable } from "@shoplink/protocol"
 * const members: MessageErrors.MessageErrorMembers = new QuantityNotAvailable({ httpStatus: 409 })
 * members.retryClass // "state"
 *
 * @since 0.1.0
 * @category models
 */
export interface MessageErrorMembers extends Cause.YieldableError {
  /** How a caller should react to this message (the catalogue row's retry class). */
  readonly retryClass: RetryClass
}

/**
 * The class `MessageErrorClass(id)` makes: a `Schema.TaggedError` class for one message ID, with
 * the ID as the static `code`.
 *
 * @example
 * import { MessageErrors, OrderLocked } from "@shoplink/protocol"
 * const Locked: MessageErrors.MessageErrorClass<"API0258"> = OrderLocked
 * Locked.code // "API0258"
 *
 * @since 0.1.0
 * @category errors
 */
export interface MessageErrorClass<Id extends ErrorId> extends
  Schema.Class<
    MessageErrorInstance<Id>,
    TaggedFields<Id>,
    Schema.Struct.Encoded<TaggedFields<Id>>,
    never,
    Schema.Struct.Constructor<MessageErrorFields<Id>>,
    {},
    MessageErrorMembers
  >
{
  readonly _tag: ErrorTag<Id>
  /** The message ID this class stands for. */
  readonly code: Id
}

/**
 * Makes the error class of a message ID from its catalogue row; each class below is one line,
 * `export class OrderLocked extends MessageErrorClass("API0258") {}`. Its name must be the row's
 * `errorName` (a test checks it).
 *
 * @example
 * import { Effect } from "effect"
 * import { MessageErrors } from "@shoplink/protocol"
 *
 * class Locked extends MessageErrors.MessageErrorClass("API0258") {}
 * const error = new Locked({ httpStatus: 409, referenceID: "RO-1" })
 * error.retryClass // "retryable"
 * error.message // "API0258: Order is locked by another job (HTTP 409, referenceID RO-1)"
 * const handled = Effect.fail(error).pipe(Effect.catchTag("OrderLocked", () => Effect.void))
 *
 * @since 0.1.0
 * @category constructors
 */
export const MessageErrorClass = <const Id extends ErrorId>(id: Id): MessageErrorClass<Id> => {
  const { errorName, retry, text } = (messages as Record<ErrorId, MessageEntry>)[id]
  class MessageErrorBase extends Schema.TaggedError<MessageErrorBase>()(errorName, {
    code: Schema.Literal(id as ErrorId).pipe(
      Schema.propertySignature,
      Schema.withConstructorDefault((): ErrorId => id)
    ),
    text: Schema.String.pipe(Schema.propertySignature, Schema.withConstructorDefault(() => text)),
    ...messageFields
  }) {
    /** The message ID this class stands for. */
    static readonly code = id
    /** How a caller should react to this message. */
    get retryClass(): RetryClass {
      return retry
    }
    override get message(): string {
      return describeMessage(this)
    }
  }
  return MessageErrorBase as unknown as MessageErrorClass<Id>
}

// One class per row of the catalogue, in its order.
/**
 * API0202.
 *
 * @example
 * import { CustomerAccountNotFound } from "@shoplink/protocol"
 * CustomerAccountNotFound.code // "API0202"
 *
 * @since 0.1.0
 * @category errors
 */
export class CustomerAccountNotFound extends MessageErrorClass("API0202") {}
/**
 * API0203.
 *
 * @example
 * import { MissingSelectionCriteria } from "@shoplink/protocol"
 * MissingSelectionCriteria.code // "API0203"
 *
 * @since 0.1.0
 * @category errors
 */
export class MissingSelectionCriteria extends MessageErrorClass("API0203") {}
/**
 * API0204.
 *
 * @example
 * import { NotAuthorizedToService } from "@shoplink/protocol"
 * NotAuthorizedToService.code // "API0204"
 *
 * @since 0.1.0
 * @category errors
 */
export class NotAuthorizedToService extends MessageErrorClass("API0204") {}
/**
 * API0206.
 *
 * @example
 * import { InvalidApiKey } from "@shoplink/protocol"
 * InvalidApiKey.code // "API0206"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidApiKey extends MessageErrorClass("API0206") {}
/**
 * API0207.
 *
 * @example
 * import { ApiKeyExpired } from "@shoplink/protocol"
 * ApiKeyExpired.code // "API0207"
 *
 * @since 0.1.0
 * @category errors
 */
export class ApiKeyExpired extends MessageErrorClass("API0207") {}
/**
 * API0208.
 *
 * @example
 * import { MonthlyLimitExceeded } from "@shoplink/protocol"
 * MonthlyLimitExceeded.code // "API0208"
 *
 * @since 0.1.0
 * @category errors
 */
export class MonthlyLimitExceeded extends MessageErrorClass("API0208") {}
/**
 * API0221.
 *
 * @example
 * import { InvalidReturnReason } from "@shoplink/protocol"
 * InvalidReturnReason.code // "API0221"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidReturnReason extends MessageErrorClass("API0221") {}
/**
 * API0222.
 *
 * @example
 * import { RmaLineNotFound } from "@shoplink/protocol"
 * RmaLineNotFound.code // "API0222"
 *
 * @since 0.1.0
 * @category errors
 */
export class RmaLineNotFound extends MessageErrorClass("API0222") {}
/**
 * API0223.
 *
 * @example
 * import { RmaCustomerMismatch } from "@shoplink/protocol"
 * RmaCustomerMismatch.code // "API0223"
 *
 * @since 0.1.0
 * @category errors
 */
export class RmaCustomerMismatch extends MessageErrorClass("API0223") {}
/**
 * API0224.
 *
 * @example
 * import { RmaLineNotAvailable } from "@shoplink/protocol"
 * RmaLineNotAvailable.code // "API0224"
 *
 * @since 0.1.0
 * @category errors
 */
export class RmaLineNotAvailable extends MessageErrorClass("API0224") {}
/**
 * API0225.
 *
 * @example
 * import { RmaNotAvailable } from "@shoplink/protocol"
 * RmaNotAvailable.code // "API0225"
 *
 * @since 0.1.0
 * @category errors
 */
export class RmaNotAvailable extends MessageErrorClass("API0225") {}
/**
 * API0226.
 *
 * @example
 * import { InvalidVehicleGroupId } from "@shoplink/protocol"
 * InvalidVehicleGroupId.code // "API0226"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidVehicleGroupId extends MessageErrorClass("API0226") {}
/**
 * API0227.
 *
 * @example
 * import { StockOrderNotAvailable } from "@shoplink/protocol"
 * StockOrderNotAvailable.code // "API0227"
 *
 * @since 0.1.0
 * @category errors
 */
export class StockOrderNotAvailable extends MessageErrorClass("API0227") {}
/**
 * API0230.
 *
 * @example
 * import { OrderNumberInvalid } from "@shoplink/protocol"
 * OrderNumberInvalid.code // "API0230"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderNumberInvalid extends MessageErrorClass("API0230") {}
/**
 * API0231.
 *
 * @example
 * import { QuantityNotPositive } from "@shoplink/protocol"
 * QuantityNotPositive.code // "API0231"
 *
 * @since 0.1.0
 * @category errors
 */
export class QuantityNotPositive extends MessageErrorClass("API0231") {}
/**
 * API0232.
 *
 * @example
 * import { ProductNotStocked } from "@shoplink/protocol"
 * ProductNotStocked.code // "API0232"
 *
 * @since 0.1.0
 * @category errors
 */
export class ProductNotStocked extends MessageErrorClass("API0232") {}
/**
 * API0234.
 *
 * @example
 * import { QuantityNotAvailable } from "@shoplink/protocol"
 * QuantityNotAvailable.code // "API0234"
 *
 * @since 0.1.0
 * @category errors
 */
export class QuantityNotAvailable extends MessageErrorClass("API0234") {}
/**
 * API0235.
 *
 * @example
 * import { ExcessiveOrderQuantity } from "@shoplink/protocol"
 * ExcessiveOrderQuantity.code // "API0235"
 *
 * @since 0.1.0
 * @category errors
 */
export class ExcessiveOrderQuantity extends MessageErrorClass("API0235") {}
/**
 * API0236.
 *
 * @example
 * import { DuplicateOrderLine } from "@shoplink/protocol"
 * DuplicateOrderLine.code // "API0236"
 *
 * @since 0.1.0
 * @category errors
 */
export class DuplicateOrderLine extends MessageErrorClass("API0236") {}
/**
 * API0237.
 *
 * @example
 * import { PartNotAvailableForStockOrder } from "@shoplink/protocol"
 * PartNotAvailableForStockOrder.code // "API0237"
 *
 * @since 0.1.0
 * @category errors
 */
export class PartNotAvailableForStockOrder extends MessageErrorClass("API0237") {}
/**
 * API0243.
 *
 * @example
 * import { PriceNotDetermined } from "@shoplink/protocol"
 * PriceNotDetermined.code // "API0243"
 *
 * @since 0.1.0
 * @category errors
 */
export class PriceNotDetermined extends MessageErrorClass("API0243") {}
/**
 * API0244.
 *
 * @example
 * import { CustomerNotFoundOrInactive } from "@shoplink/protocol"
 * CustomerNotFoundOrInactive.code // "API0244"
 *
 * @since 0.1.0
 * @category errors
 */
export class CustomerNotFoundOrInactive extends MessageErrorClass("API0244") {}
/**
 * API0246.
 *
 * @example
 * import { InvalidOrderNumber } from "@shoplink/protocol"
 * InvalidOrderNumber.code // "API0246"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidOrderNumber extends MessageErrorClass("API0246") {}
/**
 * API0247.
 *
 * @example
 * import { OrderAlreadySubmitted } from "@shoplink/protocol"
 * OrderAlreadySubmitted.code // "API0247"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderAlreadySubmitted extends MessageErrorClass("API0247") {}
/**
 * API0249.
 *
 * @example
 * import { ItemsShippedSeparately } from "@shoplink/protocol"
 * ItemsShippedSeparately.code // "API0249"
 *
 * @since 0.1.0
 * @category errors
 */
export class ItemsShippedSeparately extends MessageErrorClass("API0249") {}
/**
 * API0250.
 *
 * @example
 * import { PurchaseOrderCommentRequired } from "@shoplink/protocol"
 * PurchaseOrderCommentRequired.code // "API0250"
 *
 * @since 0.1.0
 * @category errors
 */
export class PurchaseOrderCommentRequired extends MessageErrorClass("API0250") {}
/**
 * API0252.
 *
 * @example
 * import { InvalidTransportMode } from "@shoplink/protocol"
 * InvalidTransportMode.code // "API0252"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidTransportMode extends MessageErrorClass("API0252") {}
/**
 * API0254.
 *
 * @example
 * import { InvalidSku } from "@shoplink/protocol"
 * InvalidSku.code // "API0254"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidSku extends MessageErrorClass("API0254") {}
/**
 * API0255.
 *
 * @example
 * import { CustomerOrderMismatch } from "@shoplink/protocol"
 * CustomerOrderMismatch.code // "API0255"
 *
 * @since 0.1.0
 * @category errors
 */
export class CustomerOrderMismatch extends MessageErrorClass("API0255") {}
/**
 * API0256.
 *
 * @example
 * import { OrderNotFound } from "@shoplink/protocol"
 * OrderNotFound.code // "API0256"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderNotFound extends MessageErrorClass("API0256") {}
/**
 * API0257.
 *
 * @example
 * import { OrderCannotBeDeleted } from "@shoplink/protocol"
 * OrderCannotBeDeleted.code // "API0257"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderCannotBeDeleted extends MessageErrorClass("API0257") {}
/**
 * API0258.
 *
 * @example
 * import { OrderLocked } from "@shoplink/protocol"
 * OrderLocked.code // "API0258"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderLocked extends MessageErrorClass("API0258") {}
/**
 * API0259.
 *
 * @example
 * import { CustomerPoRequired } from "@shoplink/protocol"
 * CustomerPoRequired.code // "API0259"
 *
 * @since 0.1.0
 * @category errors
 */
export class CustomerPoRequired extends MessageErrorClass("API0259") {}
/**
 * API0261.
 *
 * @example
 * import { VinNotDecoded } from "@shoplink/protocol"
 * VinNotDecoded.code // "API0261"
 *
 * @since 0.1.0
 * @category errors
 */
export class VinNotDecoded extends MessageErrorClass("API0261") {}
/**
 * API0262.
 *
 * @example
 * import { LicensePlateNotFound } from "@shoplink/protocol"
 * LicensePlateNotFound.code // "API0262"
 *
 * @since 0.1.0
 * @category errors
 */
export class LicensePlateNotFound extends MessageErrorClass("API0262") {}
/**
 * API0263.
 *
 * @example
 * import { InvalidFromDate } from "@shoplink/protocol"
 * InvalidFromDate.code // "API0263"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidFromDate extends MessageErrorClass("API0263") {}
/**
 * API0264.
 *
 * @example
 * import { InvalidToDate } from "@shoplink/protocol"
 * InvalidToDate.code // "API0264"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidToDate extends MessageErrorClass("API0264") {}
/**
 * API0265.
 *
 * @example
 * import { FromDateAfterToDate } from "@shoplink/protocol"
 * FromDateAfterToDate.code // "API0265"
 *
 * @since 0.1.0
 * @category errors
 */
export class FromDateAfterToDate extends MessageErrorClass("API0265") {}
/**
 * API0266.
 *
 * @example
 * import { InvoiceDateRangeRequired } from "@shoplink/protocol"
 * InvoiceDateRangeRequired.code // "API0266"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvoiceDateRangeRequired extends MessageErrorClass("API0266") {}
/**
 * API0267.
 *
 * @example
 * import { InvalidVinCharacter } from "@shoplink/protocol"
 * InvalidVinCharacter.code // "API0267"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidVinCharacter extends MessageErrorClass("API0267") {}
/**
 * API0268.
 *
 * @example
 * import { OrderAlreadyProcessed } from "@shoplink/protocol"
 * OrderAlreadyProcessed.code // "API0268"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderAlreadyProcessed extends MessageErrorClass("API0268") {}
/**
 * API0269.
 *
 * @example
 * import { InvalidSubmitDate } from "@shoplink/protocol"
 * InvalidSubmitDate.code // "API0269"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidSubmitDate extends MessageErrorClass("API0269") {}
/**
 * API0270.
 *
 * @example
 * import { OrderLineNotFound } from "@shoplink/protocol"
 * OrderLineNotFound.code // "API0270"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderLineNotFound extends MessageErrorClass("API0270") {}
/**
 * API0272.
 *
 * @example
 * import { OrderSaved } from "@shoplink/protocol"
 * OrderSaved.code // "API0272"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderSaved extends MessageErrorClass("API0272") {}
/**
 * API0273.
 *
 * @example
 * import { OrderInUse } from "@shoplink/protocol"
 * OrderInUse.code // "API0273"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderInUse extends MessageErrorClass("API0273") {}
/**
 * API0275.
 *
 * @example
 * import { CreditCardCreationNotAuthorized } from "@shoplink/protocol"
 * CreditCardCreationNotAuthorized.code // "API0275"
 *
 * @since 0.1.0
 * @category errors
 */
export class CreditCardCreationNotAuthorized extends MessageErrorClass("API0275") {}
/**
 * API0276.
 *
 * @example
 * import { CreditCardAuthorizationError } from "@shoplink/protocol"
 * CreditCardAuthorizationError.code // "API0276"
 *
 * @since 0.1.0
 * @category errors
 */
export class CreditCardAuthorizationError extends MessageErrorClass("API0276") {}
/**
 * API0278.
 *
 * @example
 * import { PaymentTokenCompanyMismatch } from "@shoplink/protocol"
 * PaymentTokenCompanyMismatch.code // "API0278"
 *
 * @since 0.1.0
 * @category errors
 */
export class PaymentTokenCompanyMismatch extends MessageErrorClass("API0278") {}
/**
 * API0282.
 *
 * @example
 * import { OrderSavedForLater } from "@shoplink/protocol"
 * OrderSavedForLater.code // "API0282"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderSavedForLater extends MessageErrorClass("API0282") {}
/**
 * API0283.
 *
 * @example
 * import { OrderSubmitted } from "@shoplink/protocol"
 * OrderSubmitted.code // "API0283"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderSubmitted extends MessageErrorClass("API0283") {}
/**
 * API0284.
 *
 * @example
 * import { OrderProcessing } from "@shoplink/protocol"
 * OrderProcessing.code // "API0284"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderProcessing extends MessageErrorClass("API0284") {}
/**
 * API0285.
 *
 * @example
 * import { OrderShippedPartial } from "@shoplink/protocol"
 * OrderShippedPartial.code // "API0285"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderShippedPartial extends MessageErrorClass("API0285") {}
/**
 * API0286.
 *
 * @example
 * import { OrderShippedComplete } from "@shoplink/protocol"
 * OrderShippedComplete.code // "API0286"
 *
 * @since 0.1.0
 * @category errors
 */
export class OrderShippedComplete extends MessageErrorClass("API0286") {}
/**
 * API0287.
 *
 * @example
 * import { InvalidValueChoice } from "@shoplink/protocol"
 * InvalidValueChoice.code // "API0287"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidValueChoice extends MessageErrorClass("API0287") {}
/**
 * API0288.
 *
 * @example
 * import { InvalidApiParameters } from "@shoplink/protocol"
 * InvalidApiParameters.code // "API0288"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidApiParameters extends MessageErrorClass("API0288") {}
/**
 * API0289.
 *
 * @example
 * import { InvoiceNotFound } from "@shoplink/protocol"
 * InvoiceNotFound.code // "API0289"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvoiceNotFound extends MessageErrorClass("API0289") {}
/**
 * API0291.
 *
 * @example
 * import { ManifestNotFound } from "@shoplink/protocol"
 * ManifestNotFound.code // "API0291"
 *
 * @since 0.1.0
 * @category errors
 */
export class ManifestNotFound extends MessageErrorClass("API0291") {}
/**
 * API0297.
 *
 * @example
 * import { BetaEnvironmentError } from "@shoplink/protocol"
 * BetaEnvironmentError.code // "API0297"
 *
 * @since 0.1.0
 * @category errors
 */
export class BetaEnvironmentError extends MessageErrorClass("API0297") {}
/**
 * API0300.
 *
 * @example
 * import { RmaBeingPickedUp } from "@shoplink/protocol"
 * RmaBeingPickedUp.code // "API0300"
 *
 * @since 0.1.0
 * @category errors
 */
export class RmaBeingPickedUp extends MessageErrorClass("API0300") {}
/**
 * API0301.
 *
 * @example
 * import { RmaInUse } from "@shoplink/protocol"
 * RmaInUse.code // "API0301"
 *
 * @since 0.1.0
 * @category errors
 */
export class RmaInUse extends MessageErrorClass("API0301") {}
/**
 * API0302.
 *
 * @example
 * import { InvalidRmaNumber } from "@shoplink/protocol"
 * InvalidRmaNumber.code // "API0302"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidRmaNumber extends MessageErrorClass("API0302") {}
/**
 * API0303.
 *
 * @example
 * import { InvalidCategoryCode } from "@shoplink/protocol"
 * InvalidCategoryCode.code // "API0303"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidCategoryCode extends MessageErrorClass("API0303") {}
/**
 * API0304.
 *
 * @example
 * import { InvalidSearchText } from "@shoplink/protocol"
 * InvalidSearchText.code // "API0304"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidSearchText extends MessageErrorClass("API0304") {}
/**
 * API0327.
 *
 * @example
 * import { DropShipAddressRecommended } from "@shoplink/protocol"
 * DropShipAddressRecommended.code // "API0327"
 *
 * @since 0.1.0
 * @category errors
 */
export class DropShipAddressRecommended extends MessageErrorClass("API0327") {}
/**
 * API0500.
 *
 * @example
 * import { SomethingWentWrong } from "@shoplink/protocol"
 * SomethingWentWrong.code // "API0500"
 *
 * @since 0.1.0
 * @category errors
 */
export class SomethingWentWrong extends MessageErrorClass("API0500") {}
/**
 * UNAUTHORIZED.
 *
 * @example
 * import { Unauthorized } from "@shoplink/protocol"
 * Unauthorized.code // "UNAUTHORIZED"
 *
 * @since 0.1.0
 * @category errors
 */
export class Unauthorized extends MessageErrorClass("UNAUTHORIZED") {}

/**
 * Every error class of the catalogue, keyed by message ID.
 *
 * @example
 * import { MessageErrors } from "@shoplink/protocol"
 * const Locked = MessageErrors.catalogErrorClasses.API0258
 * new Locked({ httpStatus: 200 }).retryClass // "retryable"
 *
 * @since 0.1.0
 * @category errors
 */
export const catalogErrorClasses = {
  API0202: CustomerAccountNotFound,
  API0203: MissingSelectionCriteria,
  API0204: NotAuthorizedToService,
  API0206: InvalidApiKey,
  API0207: ApiKeyExpired,
  API0208: MonthlyLimitExceeded,
  API0221: InvalidReturnReason,
  API0222: RmaLineNotFound,
  API0223: RmaCustomerMismatch,
  API0224: RmaLineNotAvailable,
  API0225: RmaNotAvailable,
  API0226: InvalidVehicleGroupId,
  API0227: StockOrderNotAvailable,
  API0230: OrderNumberInvalid,
  API0231: QuantityNotPositive,
  API0232: ProductNotStocked,
  API0234: QuantityNotAvailable,
  API0235: ExcessiveOrderQuantity,
  API0236: DuplicateOrderLine,
  API0237: PartNotAvailableForStockOrder,
  API0243: PriceNotDetermined,
  API0244: CustomerNotFoundOrInactive,
  API0246: InvalidOrderNumber,
  API0247: OrderAlreadySubmitted,
  API0249: ItemsShippedSeparately,
  API0250: PurchaseOrderCommentRequired,
  API0252: InvalidTransportMode,
  API0254: InvalidSku,
  API0255: CustomerOrderMismatch,
  API0256: OrderNotFound,
  API0257: OrderCannotBeDeleted,
  API0258: OrderLocked,
  API0259: CustomerPoRequired,
  API0261: VinNotDecoded,
  API0262: LicensePlateNotFound,
  API0263: InvalidFromDate,
  API0264: InvalidToDate,
  API0265: FromDateAfterToDate,
  API0266: InvoiceDateRangeRequired,
  API0267: InvalidVinCharacter,
  API0268: OrderAlreadyProcessed,
  API0269: InvalidSubmitDate,
  API0270: OrderLineNotFound,
  API0272: OrderSaved,
  API0273: OrderInUse,
  API0275: CreditCardCreationNotAuthorized,
  API0276: CreditCardAuthorizationError,
  API0278: PaymentTokenCompanyMismatch,
  API0282: OrderSavedForLater,
  API0283: OrderSubmitted,
  API0284: OrderProcessing,
  API0285: OrderShippedPartial,
  API0286: OrderShippedComplete,
  API0287: InvalidValueChoice,
  API0288: InvalidApiParameters,
  API0289: InvoiceNotFound,
  API0291: ManifestNotFound,
  API0297: BetaEnvironmentError,
  API0300: RmaBeingPickedUp,
  API0301: RmaInUse,
  API0302: InvalidRmaNumber,
  API0303: InvalidCategoryCode,
  API0304: InvalidSearchText,
  API0327: DropShipAddressRecommended,
  API0500: SomethingWentWrong,
  UNAUTHORIZED: Unauthorized
} as const satisfies { readonly [Id in ErrorId]: MessageErrorClass<Id> }

/**
 * Any error of the catalogue.
 *
 * @example
 * import type { MessageErrors } from "@shoplink/protocol"
 * const codeOf = (error: MessageErrors.CatalogMessageError) => error.code
 *
 * @since 0.1.0
 * @category errors
 */
export type CatalogMessageError = InstanceType<(typeof catalogErrorClasses)[keyof typeof catalogErrorClasses]>
