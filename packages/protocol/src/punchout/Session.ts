/**
 * Punchout session creation: `POST {base_url}/punchout/v1/create`.
 *
 * @since 0.1.0
 */
import * as Arbitrary from "effect/Arbitrary"
import * as Pretty from "effect/Pretty"
import * as Schema from "effect/Schema"
import { envelopeFields } from "../Envelope.js"
import { EpochSeconds } from "../Epoch.js"
import { HttpUrl, NonBlank } from "../internal/fields.js"
import { Country, ReferenceId } from "../Values.js"

/**
 * `webhooks` of the create request: where the service POSTs exported orders and quotes, and where
 * the browser goes afterwards.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.SessionWebhooks)({
 *   order: "https://sms.example/hooks/order", quote: "https://sms.example/hooks/quote"
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const SessionWebhooks = Schema.Struct({
  order: HttpUrl,
  quote: HttpUrl,
  callback: Schema.optionalWith(HttpUrl, { exact: true })
}).annotations({ identifier: "SessionWebhooks" })

/**
 * The only `postExportAction` the service accepts.
 *
 * @example
 * import { Punchout } from "@shoplink/protocol"
 * Punchout.KEEP_INVENTORY // "KEEP_INVENTORY"
 *
 * @since 0.1.0
 */
export const KEEP_INVENTORY = "KEEP_INVENTORY" as const

/**
 * `exportButtons`: which export buttons the order page shows. `postExportAction` can only be
 * `KEEP_INVENTORY`, so it is not part of the type: it is always written on encode, and any other
 * value is refused on decode.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.encodeSync(Punchout.ExportButtons)({ export: { visible: true }, exportAndSave: { visible: false } })
 * // { export: { visible: true }, exportAndSave: { visible: false, postExportAction: "KEEP_INVENTORY" } }
 *
 * @since 0.1.0
 * @category schemas
 */
export const ExportButtons = Schema.Struct({
  export: Schema.Struct({ visible: Schema.Boolean }),
  exportAndSave: Schema.transform(
    Schema.Struct({
      visible: Schema.Boolean,
      postExportAction: Schema.optionalWith(Schema.Literal(KEEP_INVENTORY), { exact: true })
    }),
    Schema.Struct({ visible: Schema.Boolean }),
    {
      strict: true,
      decode: ({ visible }) => ({ visible }),
      encode: ({ visible }) => ({ visible, postExportAction: KEEP_INVENTORY })
    }
  )
}).annotations({ identifier: "ExportButtons" })
/** @since 0.1.0 */
export interface ExportButtons extends Schema.Schema.Type<typeof ExportButtons> {}

/**
 * The create request body. `apiKey` and `apiToken` are `Redacted` in code and plain strings on
 * the wire only.
 *
 * @example
 * import { Redacted, Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * const body = Schema.encodeSync(Punchout.CreateSessionRequest)({
 *   apiKey: Redacted.make("vendor-key"),
 *   apiToken: Redacted.make("customer-token"),
 *   accountNo: "100200",
 *   username: "parts@shop.example",
 *   country: "US",
 *   smsVendorName: "Acme SMS",
 *   referenceID: "RO-1042",
 *   webhooks: { order: "https://sms.example/hooks/order", quote: "https://sms.example/hooks/quote" }
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const CreateSessionRequest = Schema.Struct({
  apiKey: Schema.Redacted(NonBlank("apiKey")),
  apiToken: Schema.Redacted(NonBlank("apiToken")),
  accountNo: NonBlank("accountNo"),
  username: NonBlank("username"),
  country: Country,
  smsVendorName: Schema.String,
  referenceID: Schema.optionalWith(ReferenceId, { exact: true }),
  webhooks: SessionWebhooks,
  exportButtons: Schema.optionalWith(ExportButtons, { exact: true })
}).annotations({ identifier: "CreateSessionRequest" })
/** @since 0.1.0 */
export interface CreateSessionRequest extends Schema.Schema.Type<typeof CreateSessionRequest> {}

/**
 * The literal placeholder in the session URL template.
 *
 * @example
 * import { Punchout } from "@shoplink/protocol"
 * "https://x/punchout/v1/{command}?token=t".replace(Punchout.COMMAND_PLACEHOLDER, "ShowCatalog")
 *
 * @since 0.1.0
 */
export const COMMAND_PLACEHOLDER = "{command}"

const SessionGrantedFields = Schema.Struct({
  url: Schema.String.pipe(
    Schema.filter((s) =>
      (/^https?:\/\//.test(s) && s.includes(COMMAND_PLACEHOLDER)) ||
      "punchout.url must start with http and contain {command}"
    )
  ).annotations({
    arbitrary: () => (fc) => fc.uuid().map((token) => `https://dist.example/punchout/v1/{command}?token=${token}`)
  }),
  token: Schema.Redacted(NonBlank("punchout.token")),
  expiration: EpochSeconds
})

/**
 * A session URL with the value of its `token` query parameter replaced by `<redacted>`, for logs
 * and error messages.
 *
 * @example
 * import { Punchout } from "@shoplink/protocol"
 * Punchout.redactSessionUrl("https://dist.example/punchout/v1/{command}?token=0f9c")
 * // "https://dist.example/punchout/v1/{command}?token=<redacted>"
 *
 * @since 0.1.0
 */
export const redactSessionUrl = (url: string): string => url.replace(/([?&]token=)[^&#]*/gi, "$1<redacted>")

const inspectCustom = Symbol.for("nodejs.util.inspect.custom")

// The URL template carries the session token in its query string, so a decoded SessionGranted
// prints (String, JSON.stringify, util.inspect, Effect's logger) with that token masked. The
// fields stay plain so `url.replace("{command}", …)` keeps working; a spread copy loses the mask.
const withMaskedPrinting = <A extends { readonly url: string }>(granted: A): A => {
  const printable = () => ({ ...granted, url: redactSessionUrl(granted.url) })
  return Object.defineProperties({ ...granted }, {
    toJSON: { value: printable },
    toString: { value: () => `SessionGranted(${redactSessionUrl(granted.url)})` },
    [inspectCustom]: {
      value: (_depth: number, options: object, inspect: (value: unknown, options: object) => string) =>
        inspect(printable(), options)
    }
  })
}

// The decoded side is checked by a guard, not rebuilt field by field (as a Struct would), so the
// masked printing attached on decode survives.
const SessionGrantedType = Schema.typeSchema(SessionGrantedFields)
const isSessionGranted = Schema.is(SessionGrantedType)
const SessionGrantedValue = Schema.declare(
  (u: unknown): u is typeof SessionGrantedType.Type => isSessionGranted(u),
  {
    identifier: "SessionGrantedValue",
    arbitrary: () => () => Arbitrary.make(SessionGrantedType),
    equivalence: () => Schema.equivalence(SessionGrantedType),
    pretty: () => Pretty.make(SessionGrantedType)
  }
)

/**
 * `punchout` of a successful create: the URL template (with `{command}` and a `token` parameter),
 * the token, and the expiration (10-digit seconds in the samples). The URL holds the session token
 * too: a decoded value prints it as `token=<redacted>` (see `redactSessionUrl`).
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.SessionGranted)({
 *   url: "https://dist.example/punchout/v1/{command}?token=0f9c", token: "0f9c", expiration: 1763812800
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const SessionGranted = Schema.transform(SessionGrantedFields, SessionGrantedValue, {
  strict: true,
  decode: withMaskedPrinting,
  encode: (granted) => granted
}).annotations({ identifier: "SessionGranted" })
/** @since 0.1.0 */
export interface SessionGranted extends Schema.Schema.Type<typeof SessionGranted> {}

/**
 * `punchout` of a refused create: empty URL, no token (or a `null` / empty one), expiration 0.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.SessionRefused)({ url: "", expiration: 0 })
 *
 * @since 0.1.0
 * @category schemas
 */
export const SessionRefused = Schema.Struct({
  url: Schema.Literal(""),
  expiration: Schema.Literal(0),
  // "absent on failure"; a null or empty token is read the same way.
  token: Schema.optionalWith(Schema.Union(Schema.Null, Schema.Literal("")), { exact: true })
}).annotations({ identifier: "SessionRefused" })

/**
 * The create response: the status envelope plus `punchout`, granted or refused.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * const refused = Schema.decodeUnknownSync(Punchout.CreateSessionResponse)({
 *   serverVersion: "1.4.0",
 *   status: { code: 401, message: { text: "Unauthorized", ID: "UNAUTHORIZED" } },
 *   punchout: { url: "", expiration: 0 }
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const CreateSessionResponse = Schema.Struct({
  ...envelopeFields,
  punchout: Schema.Union(SessionGranted, SessionRefused)
}).annotations({ identifier: "CreateSessionResponse" })
/** @since 0.1.0 */
export interface CreateSessionResponse extends Schema.Schema.Type<typeof CreateSessionResponse> {}
