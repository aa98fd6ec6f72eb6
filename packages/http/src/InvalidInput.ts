/**
 * What a client refuses before sending anything, one shape for every Shoplink client: a call's
 * input (`InvalidInput`, built from the protocol's `Violation`) and the client's own settings
 * (`ConfigurationError`, when its layer is built). Not transport errors: they are never retried.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * Input refused before any request was sent. `field` is the dotted path of the refused field (`""`
 * when the rule is about the input as a whole: the message is then the rule alone), `rule` the
 * broken rule without the field name, `code` the message ID the server would have answered with
 * when the rule mirrors one. Its message is one line, the field then the rule: `quotes.0.quantity
 * must be a positive whole number, got 0`, `searchText must be 3 or more characters, got 2
 * (API0304)`.
 *
 * @example
 * import { InvalidInput } from "@shoplink/http"
 * const error = new InvalidInput.InvalidInput({
 *   operation: "ReserveOrder",
 *   field: "orderID",
 *   rule: "must not be empty"
 * })
 * error.message // "orderID must not be empty"
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidInput extends Schema.TaggedError<InvalidInput>("@shoplink/http/InvalidInput")("InvalidInput", {
  /** The operation whose input was refused (`CreateSession`, `createOrder`…). */
  operation: Schema.String,
  field: Schema.String,
  rule: Schema.String,
  code: Schema.optional(Schema.String)
}) {
  /** Bad input is never retried. */
  get retryClass(): "invalid" {
    return "invalid"
  }
  override get message(): string {
    return `${this.field === "" ? "" : `${this.field} `}${this.rule}${this.code === undefined ? "" : ` (${this.code})`}`
  }
}

/**
 * An `InvalidInput` from a violation (anything with `field` and `rule`, such as the protocol's
 * `Violation.first(parseError)`).
 *
 * @example
 * import { InvalidInput } from "@shoplink/http"
 * InvalidInput.fromViolation("CreateSession", { field: "apiToken", rule: "must not be empty" }).message
 * // "apiToken must not be empty"
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromViolation = (
  operation: string,
  violation: { readonly field: string; readonly rule: string },
  code?: string
): InvalidInput =>
  new InvalidInput({ operation, field: violation.field, rule: violation.rule, ...(code === undefined ? {} : { code }) })

/**
 * A client cannot be built as configured: a setting wrong on its face (an empty key, a base URL
 * that does not parse, a timeout that is not a positive duration, a key of the wrong tier). Raised
 * when the layer is built, before any request, by every Shoplink client, so one
 * `Effect.catchTag("ConfigurationError", …)` covers them all. `client` names the client in the
 * message, which is one line: `Punchout client configuration: baseUrl: must not be empty`.
 *
 * @example
 * import { InvalidInput } from "@shoplink/http"
 * const error = new InvalidInput.ConfigurationError({
 *   client: "Order Management",
 *   setting: "apiKey",
 *   problem: "must not be empty"
 * })
 * error.message // "Order Management client configuration: apiKey: must not be empty"
 *
 * @since 0.1.0
 * @category errors
 */
export class ConfigurationError extends Schema.TaggedError<ConfigurationError>("@shoplink/http/ConfigurationError")(
  "ConfigurationError",
  {
    /** The client refusing its settings (`Punchout`, `Order Management`), named in the message. */
    client: Schema.optional(Schema.String),
    setting: Schema.String,
    problem: Schema.String
  }
) {
  override get message(): string {
    return `${
      this.client === undefined ? "Client" : `${this.client} client`
    } configuration: ${this.setting}: ${this.problem}`
  }
}
