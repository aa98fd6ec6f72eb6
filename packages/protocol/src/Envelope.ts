/**
 * The status envelope every response of both APIs carries, and the rule that turns an envelope
 * into success or a typed error whatever the HTTP status was.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { isSuccessId } from "./MessageCatalog.js"
import { fromReport, type MessageError } from "./MessageError.js"

/**
 * `status.message`: the text, and the ID in error responses and in ReserveOrder's.
 *
 * @example
 * import { Schema } from "effect"
 * import { Envelope } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Envelope.StatusMessage)({ text: "Success" })
 *
 * @since 0.1.0
 * @category schemas
 */
export const StatusMessage = Schema.Struct({
  text: Schema.optionalWith(Schema.String, { nullable: true, default: () => "" }),
  ID: Schema.optionalWith(Schema.String, { nullable: true, exact: true })
}).annotations({ identifier: "StatusMessage" })

/**
 * `status`: a numeric result code (200, 401, 500, …) and its message.
 *
 * @example
 * import { Schema } from "effect"
 * import { Envelope } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Envelope.Status)({ code: 401, message: { text: "Unauthorized", ID: "UNAUTHORIZED" } })
 *
 * @since 0.1.0
 * @category schemas
 */
export const Status = Schema.Struct({
  code: Schema.Union(Schema.JsonNumber, Schema.compose(Schema.NumberFromString, Schema.JsonNumber)).annotations({
    arbitrary: () => (fc) => fc.integer({ min: 100, max: 599 })
  }),
  message: StatusMessage
}).annotations({ identifier: "Status" })
/** @since 0.1.0 */
export type Status = typeof Status.Type

/**
 * The fields of the envelope, for spreading into a response struct. `referenceID` is also read
 * from the ReserveOrder spelling `referenceId`, and `null` becomes absent.
 *
 * @example
 * import { Schema } from "effect"
 * import { Envelope } from "@shoplink/protocol"
 * const MyResponse = Schema.Struct({ ...Envelope.envelopeFields, total: Schema.Number })
 *
 * @since 0.1.0
 * @category schemas
 */
export const envelopeFields = {
  serverVersion: Schema.optionalWith(Schema.String, { nullable: true, exact: true }),
  status: Status,
  referenceID: Schema.optionalWith(Schema.String, { nullable: true, exact: true })
}

/**
 * The bare status envelope. Unknown fields are ignored.
 *
 * @example
 * import { Schema } from "effect"
 * import { Envelope } from "@shoplink/protocol"
 * const envelope = Schema.decodeUnknownSync(Envelope.StatusEnvelope)({
 *   serverVersion: "1.4.0",
 *   status: { code: 200, message: { text: "Success" } },
 *   referenceID: "RO-1042"
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const StatusEnvelope = Schema.Struct(envelopeFields).annotations({ identifier: "StatusEnvelope" })
/** @since 0.1.0 */
export type StatusEnvelope = typeof StatusEnvelope.Type

/**
 * The ReserveOrder envelope: it spells the reference `referenceId` and shows it as `null` when the
 * caller sent none.
 *
 * @example
 * import { Schema } from "effect"
 * import { Envelope } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Envelope.ReserveOrderEnvelope)({
 *   referenceId: null, serverVersion: "1", status: { code: 200, message: { ID: "API0200", text: "Successful" } }
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const ReserveOrderEnvelope = Schema.Struct({
  serverVersion: envelopeFields.serverVersion,
  status: Status,
  referenceId: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ReserveOrderEnvelope" })

/**
 * Reads the caller's reference from a raw body, whichever spelling it used.
 *
 * @example
 * import { Envelope } from "@shoplink/protocol"
 * Envelope.referenceOf({ referenceId: "RO-7" }) // "RO-7"
 *
 * @since 0.1.0
 */
export const referenceOf = (body: unknown): string | undefined => {
  if (typeof body !== "object" || body === null) return undefined
  const record = body as Record<string, unknown>
  const value = record["referenceID"] ?? record["referenceId"]
  return typeof value === "string" ? value : undefined
}

/**
 * Decides what an envelope means, whatever the HTTP status: an error ID (anything but API0200 and
 * the order status reports API0282–API0286) or a non-2xx `status.code` is an error, built as the
 * message's own class; anything else is success.
 *
 * @example
 * import { Either } from "effect"
 * import { Envelope } from "@shoplink/protocol"
 * const outcome = Envelope.classify(
 *   { status: { code: 200, message: { text: "Order is locked by another job", ID: "API0258" } } },
 *   200
 * )
 * Either.isLeft(outcome) && outcome.left._tag // "OrderLocked"
 *
 * @since 0.1.0
 */
export const classify = (
  envelope: {
    readonly status: Status
    readonly serverVersion?: string | undefined
    readonly referenceID?: string | undefined
  },
  httpStatus: number
): Either.Either<void, MessageError> => {
  const { code, message } = envelope.status
  const id = message.ID
  const codeOk = code >= 200 && code < 300
  const idOk = id === undefined || id === "" || isSuccessId(id)
  if (codeOk && idOk) return Either.void
  return Either.left(fromReport({
    id: id === "" ? undefined : id,
    text: message.text,
    httpStatus,
    statusCode: code,
    referenceID: envelope.referenceID,
    serverVersion: envelope.serverVersion
  }))
}
