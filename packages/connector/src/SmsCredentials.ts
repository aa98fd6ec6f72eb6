/**
 * How an adapter gets its SMS credentials for a shop. One runtime serves many shops, each with its
 * own SMS account, so an adapter builds its SMS client per shop (`perShop`) from the secrets
 * onboarding stored (e.g. Shopmonkey's `apiKey`). The runtime (@shoplink/connector-runtime)
 * provides this port from its `ShopStore`; tests and single-shop setups can give fixed secrets.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
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
export class SmsCredentialsUnavailable
  extends Schema.TaggedError<SmsCredentialsUnavailable>()("SmsCredentialsUnavailable", {
    shopId: Schema.String,
    reason: Schema.String
  })
{
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
          ? Effect.fail(
            new SmsCredentialsUnavailable({ shopId, reason: secrets[shopId] ? `no ${name} stored` : "unknown shop" })
          )
          : Effect.succeed(value)
      }
    })
  )

/**
 * What {@link perShop} builds a shop's client from: the secrets it needs (`required`), those it
 * reads when present (`optional`), and `build`, given the shop's secrets by name.
 *
 * @example
 * import { Effect } from "effect"
 * import type { SmsCredentials } from "@shoplink/connector"
 * const options: SmsCredentials.PerShopOptions<{ readonly shopId: string }> = {
 *   required: ["apiKey"],
 *   build: (shopId) => Effect.succeed({ shopId })
 * }
 *
 * @since 0.1.0
 */
export interface PerShopOptions<A, E = never, R = never> {
  readonly required: ReadonlyArray<string>
  readonly optional?: ReadonlyArray<string> | undefined
  readonly build: (
    shopId: string,
    secrets: Readonly<Record<string, Redacted.Redacted<string>>>
  ) => Effect.Effect<A, E, R>
}

/**
 * One client per shop, built from its secrets: the returned function reads the shop's secrets on
 * every call (so re-onboarded credentials apply at once), builds the shop's client on its first
 * call and again whenever a secret changed, and otherwise answers the one it built. Two first
 * calls at once build one client; a failed build is not kept. A missing required secret fails with
 * `SmsCredentialsUnavailable` before anything is built.
 *
 * @example
 * import { Effect, Redacted } from "effect"
 * import { SmsCredentials } from "@shoplink/connector"
 * const program = Effect.gen(function*() {
 *   const clientOf = yield* SmsCredentials.perShop({
 *     required: ["apiKey"],
 *     build: (shopId, secrets) => Effect.succeed({ shopId, apiKey: secrets.apiKey! })
 *   })
 *   return yield* clientOf("shop_1")
 * }).pipe(Effect.provide(SmsCredentials.layerStatic({ shop_1: { apiKey: Redacted.make("sm-key") } })))
 *
 * @since 0.1.0
 */
export const perShop = <A, E = never, R = never>(
  options: PerShopOptions<A, E, R>
): Effect.Effect<(shopId: string) => Effect.Effect<A, SmsCredentialsUnavailable | E, R>, never, SmsCredentials> =>
  Effect.gen(function*() {
    const credentials = yield* SmsCredentials
    const optional = options.optional ?? []
    const names = [...options.required, ...optional]
    // Secret values are compared, never logged; the last built client per shop.
    const clients = new Map<string, { readonly values: ReadonlyArray<string | undefined>; readonly client: A }>()
    const lock = yield* Effect.makeSemaphore(1)
    return (shopId: string) =>
      Effect.gen(function*() {
        const required = yield* Effect.forEach(options.required, (name) => credentials.secret(shopId, name))
        const present = yield* Effect.forEach(optional, (name) => Effect.option(credentials.secret(shopId, name)))
        const secrets: Record<string, Redacted.Redacted<string>> = {}
        const values = [...required, ...present.map(Option.getOrUndefined)].map((secret, i) => {
          if (secret !== undefined) secrets[names[i]!] = secret
          return secret === undefined ? undefined : Redacted.value(secret)
        })
        return yield* lock.withPermits(1)(Effect.gen(function*() {
          const cached = clients.get(shopId)
          if (cached !== undefined && cached.values.every((v, i) => v === values[i])) return cached.client
          const client = yield* options.build(shopId, secrets)
          clients.set(shopId, { values, client })
          return client
        }))
      })
  })
