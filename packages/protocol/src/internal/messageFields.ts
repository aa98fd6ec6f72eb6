// Fields and formatting shared by every message error class: the catalogue's (MessageErrors.ts)
// and UnknownMessage.
import * as Schema from "effect/Schema"

/** What every message error carries besides its code and text. */
export const messageFields = {
  /** HTTP status of the response that carried the message. */
  httpStatus: Schema.JsonNumber,
  /** `status.code` of the envelope, when there was one. */
  statusCode: Schema.optional(Schema.JsonNumber),
  /** The caller's reference echoed by the server (`referenceID` / `referenceId`). */
  referenceID: Schema.optional(Schema.String),
  /** `serverVersion` of the envelope. */
  serverVersion: Schema.optional(Schema.String),
  /**
   * What to check, for a person: which credential was refused (masked) and where it comes from.
   * Set by the clients on the `auth` messages they can explain; never holds a whole secret.
   */
  hint: Schema.optional(Schema.String)
}

/** Human-readable message: code, text, HTTP status, reference and hint. Never contains credentials. */
export const describeMessage = (error: {
  readonly code: string
  readonly text: string
  readonly httpStatus: number
  readonly referenceID?: string | undefined
  readonly hint?: string | undefined
}): string =>
  `${error.code}: ${error.text} (HTTP ${error.httpStatus}${
    error.referenceID === undefined ? "" : `, referenceID ${error.referenceID}`
  })${error.hint === undefined ? "" : ` — ${error.hint}`}`
