/**
 * How an adapter gets its SMS credentials for a shop. One runtime serves many shops, each with its
 * own SMS account, so an adapter builds its SMS client per shop from the secrets onboarding stored
 * (e.g. Shopmonkey's `apiKey`). The runtime (@shoplink/connector-runtime) provides this port from its `ShopStore`; tests and
 * single-shop setups can give fixed secrets.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"

/**
 * The shop has no such SMS secret, or could not be read; the adapter turns it into its own error.
 *
 * @example
 * import { SmsCredentials } from "@shoplink/connector"
 * new SmsCredentials.SmsCredentialsUnavailable({ shopId: "shop_1", reason: "no apiKey stored" }).message
 *
 * @since 0.1.0
 */
export class SmsCredentialsUnavailable extends Schema.TaggedError<SmsCredentialsUnavailable>()("SmsCredentialsUnavailable", {
  shopId: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `SMS credentials of shop ${this.shopId} unavailable: ${this.reason}`
  }
}

/**
 * The port.
 *
 * @example
 * import { Effect } from "effect"
 * import { SmsCredentials } from "@shoplink/connector"
 * const apiKeyOf = (shopId: string) => Effect.flatMap(SmsCredentials.SmsCredentials, (c) => c.secret(shopId, "apiKey"))
 *
 * @since 0.1.0
 */
export class SmsCredentials extends Context.Tag("@shoplink/connector/SmsCredentials")<SmsCredentials, {
  /** One named secret of the shop. */
  readonly secret: (shopId: string, name: string) => Effect.Effect<Redacted.Redacted<string>, SmsCredentialsUnavailable>
}>() {}

/**
 * Fixed secrets by shop (tests, a single-shop setup).
 *
 * @example
 * import { Redacted } from "effect"
 * import { SmsCredentials } from "@shoplink/connector"
 * const layer = SmsCredentials.layerStatic({ shop_1: { apiKey: Redacted.make("sm-key") } })
 *
 * @since 0.1.0
 */
export const layerStatic = (
  secrets: Readonly<Record<string, Readonly<Record<string, Redacted.Redacted<string>>>>>
): Layer.Layer<SmsCredentials> =>
  Layer.succeed(
    SmsCredentials,
    SmsCredentials.of({
      secret: (shopId, name) => {
        const value = secrets[shopId]?.[name]
        return value === undefined
          ? Effect.fail(new SmsCredentialsUnavailable({ shopId, reason: secrets[shopId] ? `no ${name} stored` : "unknown shop" }))
          : Effect.succeed(value)
      }
    })
  )
