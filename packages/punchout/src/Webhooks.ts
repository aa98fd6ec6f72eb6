/**
 * Decoding of the bodies the service POSTs to the vendor: the order webhook (after Export and
 * Submit) and the quote webhook (after Export). Pass the raw body, exactly as received; errors
 * name the first bad field and tell the common mistakes apart.
 *
 * @since 0.1.0
 */
import { Either, ParseResult, Schema } from "effect"
import { Punchout } from "@shoplink/protocol"

/**
 * What went wrong with a webhook body.
 * - `AlreadyParsed`: an object was passed instead of the raw body (a JSON body parser ran first).
 * - `EmptyBody`: the body is empty.
 * - `WrongContentType`: the request was not JSON (a form-encoded body, or a non-JSON content type).
 * - `InvalidJson`: the body is not JSON.
 * - `InvalidPayload`: JSON of the wrong shape; `field` is the path of the first bad field.
 *
 * @example
 * import type { Webhooks } from "@shoplink/punchout"
 * const reason: Webhooks.WebhookDecodeReason = "AlreadyParsed"
 *
 * @since 0.1.0
 */
export type WebhookDecodeReason = "AlreadyParsed" | "EmptyBody" | "WrongContentType" | "InvalidJson" | "InvalidPayload"

/**
 * A webhook body that could not be decoded.
 *
 * @example
 * import { Webhooks } from "@shoplink/punchout"
 * const error = new Webhooks.WebhookDecodeError({ webhook: "order", reason: "EmptyBody", detail: "the body is empty" })
 * error.message // "order webhook: EmptyBody: the body is empty"
 *
 * @since 0.1.0
 * @category errors
 */
export class WebhookDecodeError extends Schema.TaggedError<WebhookDecodeError>()("WebhookDecodeError", {
  webhook: Schema.Literal("order", "quote"),
  reason: Schema.Literal("AlreadyParsed", "EmptyBody", "WrongContentType", "InvalidJson", "InvalidPayload"),
  /** Path of the first bad field (e.g. `order.orderLines.0.price`), for `InvalidPayload`. */
  field: Schema.optional(Schema.String),
  detail: Schema.String
}) {
  override get message(): string {
    const field = this.field === undefined ? "" : ` at ${this.field}`
    return `${this.webhook} webhook: ${this.reason}${field}: ${this.detail}`
  }
}

/**
 * Options: the request's `Content-Type` header, when you have it, lets the decoder report a
 * non-JSON request precisely.
 *
 * @example
 * import type { Webhooks } from "@shoplink/punchout"
 * const options: Webhooks.DecodeOptions = { contentType: "application/json; charset=utf-8" }
 *
 * @since 0.1.0
 */
export interface DecodeOptions {
  readonly contentType?: string | undefined
}

const decoder = new TextDecoder("utf-8", { fatal: false })

const decodeWith = <A, I>(webhook: "order" | "quote", schema: Schema.Schema<A, I>) =>
(body: unknown, options: DecodeOptions = {}): Either.Either<A, WebhookDecodeError> => {
  const fail = (reason: WebhookDecodeReason, detail: string, field?: string) =>
    Either.left(new WebhookDecodeError({ webhook, reason, detail, ...(field === undefined ? {} : { field }) }))
  let text: string
  if (typeof body === "string") text = body
  else if (body instanceof Uint8Array) text = decoder.decode(body)
  else if (body instanceof ArrayBuffer) text = decoder.decode(new Uint8Array(body))
  else if (body === undefined || body === null) {
    return fail("EmptyBody", "no body was passed (is the raw body captured before any body parser?)")
  } else if (typeof body === "object") {
    return fail("AlreadyParsed", "pass the raw body (string or Uint8Array), not a parsed object: disable the JSON body parser for this route")
  } else {
    return fail("InvalidJson", `expected the raw body as a string or Uint8Array, got ${typeof body}`)
  }
  const contentType = options.contentType?.split(";")[0]?.trim().toLowerCase()
  if (contentType !== undefined && contentType !== "" && contentType !== "application/json" && !contentType.endsWith("+json")) {
    return fail("WrongContentType", `content type ${contentType} is not JSON`)
  }
  const trimmed = text.trim()
  if (trimmed === "") return fail("EmptyBody", "the body is empty")
  if (!trimmed.startsWith("{") && /^[\w.%-]+=/.test(trimmed)) {
    return fail("WrongContentType", "the body is form-encoded (name=value pairs), not JSON")
  }
  let json: unknown
  try {
    json = JSON.parse(trimmed)
  } catch (error) {
    return fail("InvalidJson", error instanceof Error ? error.message : String(error))
  }
  if (typeof json === "string") {
    return fail("AlreadyParsed", "the body is a JSON string: it was serialized twice (JSON.stringify of a string)")
  }
  return Schema.decodeUnknownEither(schema, { errors: "first" })(json).pipe(
    Either.mapLeft((error) => {
      const [issue] = ParseResult.ArrayFormatter.formatErrorSync(error)
      const field = issue === undefined || issue.path.length === 0 ? undefined : issue.path.map(String).join(".")
      return new WebhookDecodeError({
        webhook,
        reason: "InvalidPayload",
        detail: issue?.message ?? ParseResult.TreeFormatter.formatErrorSync(error),
        ...(field === undefined ? {} : { field })
      })
    })
  )
}

/**
 * Decodes the order webhook body (order status accepted as number or string).
 *
 * @example
 * import { Either } from "effect"
 * import { Webhooks } from "@shoplink/punchout"
 * const result = Webhooks.decodeOrderWebhook(
 *   '{"referenceID":"RO-1","order":{"orderID":"10423","orderCreateTime":1763769600000,"orderLines":[],"comment":"","status":3,"statusDescription":"Order submitted"}}'
 * )
 * Either.isRight(result) && result.right.order.status // "3"
 *
 * @since 0.1.0
 */
export const decodeOrderWebhook: (body: unknown, options?: DecodeOptions) => Either.Either<Punchout.OrderWebhook, WebhookDecodeError> =
  decodeWith("order", Punchout.OrderWebhook)

/**
 * Decodes the quote webhook body.
 *
 * @example
 * import { Either } from "effect"
 * import { Webhooks } from "@shoplink/punchout"
 * const result = Webhooks.decodeQuoteWebhook(new TextEncoder().encode('{"referenceID":"RO-1","quotes":[]}'))
 * Either.isRight(result) // true
 *
 * @since 0.1.0
 */
export const decodeQuoteWebhook: (body: unknown, options?: DecodeOptions) => Either.Either<Punchout.QuoteWebhook, WebhookDecodeError> =
  decodeWith("quote", Punchout.QuoteWebhook)
