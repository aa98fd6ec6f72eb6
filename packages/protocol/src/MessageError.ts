/**
 * The error channel of both APIs: a class per catalogue message ID (see `MessageErrors`), plus
 * `UnknownMessage` for an ID outside the catalogue, so a new code never crashes a client.
 *
 * @since 0.1.0
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { describeMessage, messageFields } from "./internal/messageFields.js"
import { isMessageId, messages, type RetryClass } from "./MessageCatalog.js"
import { type CatalogMessageError, catalogErrorClasses } from "./MessageErrors.js"

/**
 * A message ID the catalogue does not know (or an error envelope without an ID). Its retry class
 * follows the HTTP status: `server` for 5xx, `retryable` for 408/429, `auth` for 401/403,
 * otherwise `invalid`.
 *
 * @example
 * import { MessageError } from "@shoplink/protocol"
 * const error = new MessageError.UnknownMessage({ code: "API0999", text: "New rule", httpStatus: 400 })
 * error.retryClass // "invalid"
 *
 * @since 0.1.0
 * @category errors
 */
export class UnknownMessage extends Schema.TaggedError<UnknownMessage>()("UnknownMessage", {
  code: Schema.String,
  text: Schema.String,
  ...messageFields
}) {
  get retryClass(): RetryClass {
    return retryClassForHttpStatus(this.httpStatus)
  }
  override get message(): string {
    return describeMessage({ ...this, code: this.code === "" ? "(no message ID)" : this.code })
  }
}

const retryClassForHttpStatus = (status: number): RetryClass =>
  status >= 500
    ? "server"
    : status === 408 || status === 429
    ? "retryable"
    : status === 401 || status === 403
    ? "auth"
    : "invalid"

/**
 * Any message error either API can answer with.
 *
 * @example
 * import { Effect } from "effect"
 * import type { MessageError } from "@shoplink/protocol"
 * const log = (error: MessageError.MessageError) => Effect.logError(error.message)
 *
 * @since 0.1.0
 * @category errors
 */
export type MessageError = CatalogMessageError | UnknownMessage

/**
 * Errors of the Punchout API: `Unauthorized` (the spec's only documented ID), any catalogue ID the
 * commands may answer with (the spec does not show which), and `UnknownMessage`.
 *
 * @example
 * import { Effect } from "effect"
 * import type { MessageError } from "@shoplink/protocol"
 * const onAuth = <A>(self: Effect.Effect<A, MessageError.PunchoutMessageError>) =>
 *   self.pipe(Effect.catchTag("Unauthorized", () => Effect.fail("reconnect the customer" as const)))
 *
 * @since 0.1.0
 * @category errors
 */
export type PunchoutMessageError = MessageError

/**
 * Errors of the Order Management API: every catalogue ID except the Punchout-only `Unauthorized`,
 * plus `UnknownMessage`.
 *
 * @example
 * import { Effect } from "effect"
 * import type { MessageError } from "@shoplink/protocol"
 * const onQuota = <A>(self: Effect.Effect<A, MessageError.OrderManagementMessageError>) =>
 *   self.pipe(Effect.catchTag("MonthlyLimitExceeded", () => Effect.succeed(undefined)))
 *
 * @since 0.1.0
 * @category errors
 */
export type OrderManagementMessageError = Exclude<MessageError, { readonly _tag: "Unauthorized" }>

/**
 * What a response said, as needed to build its error.
 *
 * @example
 * import type { MessageError } from "@shoplink/protocol"
 * const report: MessageError.MessageReport = { id: "API0258", text: "Order is locked by another job", httpStatus: 200 }
 *
 * @since 0.1.0
 */
export interface MessageReport {
  readonly id: string | undefined
  readonly text: string | undefined
  readonly httpStatus: number
  readonly statusCode?: number | undefined
  readonly referenceID?: string | undefined
  readonly serverVersion?: string | undefined
}

/**
 * Builds the error class for a message ID: the catalogue's class when the ID is known, otherwise
 * `UnknownMessage`. The text the server sent wins over the catalogue's.
 *
 * @example
 * import { MessageError } from "@shoplink/protocol"
 * const error = MessageError.fromReport({ id: "API0208", text: undefined, httpStatus: 429 })
 * error._tag // "MonthlyLimitExceeded"
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromReport = (report: MessageReport): MessageError => {
  const common = {
    httpStatus: report.httpStatus,
    ...(report.statusCode === undefined ? {} : { statusCode: report.statusCode }),
    ...(report.referenceID === undefined ? {} : { referenceID: report.referenceID }),
    ...(report.serverVersion === undefined ? {} : { serverVersion: report.serverVersion })
  }
  const id = report.id ?? ""
  if (isMessageId(id) && id !== "API0200") {
    const ErrorClass = catalogErrorClasses[id] as unknown as new(args: typeof common & { text: string }) => MessageError
    return new ErrorClass({ ...common, text: report.text ?? messages[id].text })
  }
  return new UnknownMessage({ ...common, code: id, text: report.text ?? "" })
}

const tags: ReadonlySet<string> = new Set([
  "UnknownMessage",
  ...Object.values(catalogErrorClasses).map((ErrorClass) => ErrorClass.code).map((id) => messages[id].errorName)
])

/**
 * Whether a value is one of the message errors.
 *
 * @example
 * import { MessageError } from "@shoplink/protocol"
 * MessageError.isMessageError(new Error("boom")) // false
 *
 * @since 0.1.0
 * @category guards
 */
export const isMessageError = (u: unknown): u is MessageError =>
  Predicate.hasProperty(u, "_tag") && typeof u._tag === "string" && tags.has(u._tag) &&
  Predicate.hasProperty(u, "code")

/**
 * A predicate for `Effect.catchIf` / `Schedule.whileInput` that selects message errors of one
 * retry class.
 *
 * @example
 * import { Effect } from "effect"
 * import { MessageError } from "@shoplink/protocol"
 * const skipQuota = <A, E>(self: Effect.Effect<A, E>) =>
 *   self.pipe(Effect.catchIf(MessageError.hasRetryClass("quota"), () => Effect.void))
 *
 * @since 0.1.0
 * @category guards
 */
export const hasRetryClass = (retryClass: RetryClass) => (u: unknown): u is MessageError =>
  isMessageError(u) && u.retryClass === retryClass

/**
 * The same error with `hint` set: what a person should check (which credential was refused, masked).
 * The clients add one to the `auth` messages they can explain; `message` ends with it.
 *
 * @example
 * import { MessageError, Unauthorized } from "@shoplink/protocol"
 * const error = MessageError.withHint(
 *   new Unauthorized({ httpStatus: 401 }),
 *   "check the vendor API key <redacted>…abcd"
 * )
 * error.message // "UNAUTHORIZED: Unauthorized (HTTP 401) — check the vendor API key <redacted>…abcd"
 *
 * @since 0.1.0
 * @category errors
 */
export const withHint = <E extends MessageError>(error: E, hint: string): E => {
  const { _tag: _, ...fields } = error as E & { readonly _tag: string }
  return new (error.constructor as new(props: object) => E)({ ...fields, hint })
}
