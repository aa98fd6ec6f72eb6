/**
 * Decoding of the bodies the service POSTs to the vendor: the order webhook (after Export and
 * Submit) and the quote webhook (after Export). Pass the raw body, exactly as received; errors
 * name the first bad field and tell the common mistakes apart. The decoders are total: any input
 * (any type, size or nesting) gives the payload or a `WebhookDecodeError`, never a throw.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { Decoder, Punchout, Violation } from "@shoplink/protocol"

/**
 * What went wrong with a webhook body.
 * - `AlreadyParsed`: an object was passed instead of the raw body (a JSON body parser ran first).
 * - `EmptyBody`: the body is empty.
 * - `WrongContentType`: the request was not JSON (a form-encoded body, or a non-JSON content type).
 * - `InvalidJson`: the body is not JSON.
 * - `InvalidPayload`: JSON of the wrong shape (or nested deeper than `MAX_NESTING`); `field` is
 *   the path of the first bad field.
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

/**
 * The deepest JSON nesting a webhook body may have. The payloads are four levels deep
 * (`order.orderLines[i].field`); anything far deeper is refused before the schema sees it.
 *
 * @example
 * import { Webhooks } from "@shoplink/punchout"
 * Webhooks.MAX_NESTING // 32
 *
 * @since 0.1.0
 */
export const MAX_NESTING = 32

// The nesting depth of a parsed JSON value, measured without recursion and stopping past `limit`.
const nestingExceeds = (json: unknown, limit: number): boolean => {
  const stack: Array<[unknown, number]> = [[json, 0]]
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!
    if (typeof value !== "object" || value === null) continue
    if (depth >= limit) return true
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1])
    }
  }
  return false
}

const describeThrown = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error))

const textOf = (body: unknown): string | undefined => {
  if (typeof body === "string") return body
  if (body instanceof ArrayBuffer) return decoder.decode(new Uint8Array(body))
  if (ArrayBuffer.isView(body)) return decoder.decode(new Uint8Array(body.buffer, body.byteOffset, body.byteLength))
  return undefined
}

// Total: every input, whatever its type, size or shape, gives a Right or a WebhookDecodeError.
const decodeWith = <A, I>(webhook: "order" | "quote", schema: Schema.Schema<A, I>) => {
  // Compiled once: the fast path for valid bodies; any other body gets Effect's own (first) error.
  const decodePayload = Decoder.compiledDecoder(schema)
  return (body: unknown, options?: DecodeOptions): Either.Either<A, WebhookDecodeError> => {
    const fail = (reason: WebhookDecodeReason, detail: string, field?: string) =>
      Either.left(
        new WebhookDecodeError({ webhook, reason, detail, ...(field === undefined || field === "" ? {} : { field }) })
      )
    let text: string | undefined
    try {
      text = textOf(body)
    } catch (error) {
      return fail("InvalidJson", `the body could not be read as UTF-8 text (${describeThrown(error)})`)
    }
    if (text === undefined) {
      if (body === undefined || body === null) {
        return fail("EmptyBody", "no body was passed (is the raw body captured before any body parser?)")
      }
      if (typeof body === "object") {
        return fail(
          "AlreadyParsed",
          "pass the raw body (string or Uint8Array), not a parsed object: disable the JSON body parser for this route"
        )
      }
      return fail("InvalidJson", `expected the raw body as a string or Uint8Array, got ${typeof body}`)
    }
    const rawContentType = options?.contentType
    const contentType = typeof rawContentType === "string"
      ? rawContentType.split(";")[0]?.trim().toLowerCase()
      : undefined
    if (
      contentType !== undefined && contentType !== "" && contentType !== "application/json" &&
      !contentType.endsWith("+json")
    ) {
      return fail("WrongContentType", `content type ${contentType.slice(0, 100)} is not JSON`)
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
      return fail("InvalidJson", error instanceof Error ? error.message.slice(0, 200) : "the body is not JSON")
    }
    if (typeof json === "string") {
      return fail("AlreadyParsed", "the body is a JSON string: it was serialized twice (JSON.stringify of a string)")
    }
    if (nestingExceeds(json, MAX_NESTING)) {
      return fail("InvalidPayload", `the JSON is nested deeper than ${MAX_NESTING} levels`)
    }
    try {
      const decoded = decodePayload(json)
      if (Either.isRight(decoded)) return Either.right(decoded.right)
      const violation = Violation.first(decoded.left)
      return fail("InvalidPayload", violation.rule, violation.field)
    } catch (error) {
      // Not expected from the protocol's schemas; kept so a decoder never throws at a caller.
      return fail("InvalidPayload", `the payload could not be decoded (${describeThrown(error)})`)
    }
  }
}

/**
 * Decodes the order webhook body (order status accepted as number or string).
 *
 * @example
 * import { Either } from "effect"
 * import { Webhooks } from "@shoplink/punchout"
 * const body = JSON.stringify({
 *   referenceID: "RO-1",
 *   order: {
 *     orderID: "10423",
 *     orderCreateTime: 1763769600000,
 *     orderLines: [],
 *     comment: "",
 *     status: 3,
 *     statusDescription: "Order submitted"
 *   }
 * })
 * const result = Webhooks.decodeOrderWebhook(body)
 * Either.isRight(result) && result.right.order.status // "3"
 *
 * @since 0.1.0
 */
export const decodeOrderWebhook: (
  body: unknown,
  options?: DecodeOptions
) => Either.Either<Punchout.OrderWebhook, WebhookDecodeError> = decodeWith("order", Punchout.OrderWebhook)

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
export const decodeQuoteWebhook: (
  body: unknown,
  options?: DecodeOptions
) => Either.Either<Punchout.QuoteWebhook, WebhookDecodeError> = decodeWith("quote", Punchout.QuoteWebhook)
