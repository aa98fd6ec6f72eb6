/**
 * Resolves a shop to the distributor customer credentials the vendor acts with. In memory for
 * tests and demos; in a service, a view of the `ShopStore`, where the API token is sealed with
 * AES-256-GCM at rest (`SecretBox`) and `Redacted` in memory.
 *
 * @since 0.1.0
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import type { Values } from "@shoplink/protocol"
import type { SecretBox } from "./SecretBox.js"
import * as ShopStore from "./ShopStore.js"

/**
 * A customer's punchout credentials: account number, application username, country, API token.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { CredentialStore } from "@shoplink/connector-runtime"
 * const credentials: CredentialStore.CustomerCredentials = {
 *   accountNo: "100200", username: "parts@shop.example", country: "US", apiToken: Redacted.make("token")
 * }
 *
 * @since 0.1.0
 */
export interface CustomerCredentials {
  readonly accountNo: string
  readonly username: string
  readonly country: Values.Country
  readonly apiToken: Redacted.Redacted<string>
}

/**
 * No credentials are stored for the shop.
 *
 * @example
 * import { CredentialStore } from "@shoplink/connector-runtime"
 * new CredentialStore.CredentialsNotFound({ shopId: "shop_1" }).message
 *
 * @since 0.1.0
 */
export class CredentialsNotFound extends Schema.TaggedError<CredentialsNotFound>()("CredentialsNotFound", {
  shopId: Schema.String
}) {
  override get message(): string {
    return `no distributor credentials stored for shop ${this.shopId}`
  }
}

/**
 * The shop's distributor token was refused (401 UNAUTHORIZED when a session was created): launches
 * fail with this at once, without calling the distributor, until the shop is onboarded again.
 *
 * @example
 * import { CredentialStore } from "@shoplink/connector-runtime"
 * new CredentialStore.CredentialsRevoked({ shopId: "shop_1", reason: "401 UNAUTHORIZED" }).message
 *
 * @since 0.1.0
 */
export class CredentialsRevoked extends Schema.TaggedError<CredentialsRevoked>()("CredentialsRevoked", {
  shopId: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `the distributor credentials of shop ${this.shopId} are revoked (${this.reason}); onboard the shop again with a new API token`
  }
}

/**
 * The store could not be read or written.
 *
 * @example
 * import { CredentialStore } from "@shoplink/connector-runtime"
 * new CredentialStore.CredentialStoreError({ reason: "database is locked" })
 *
 * @since 0.1.0
 */
export class CredentialStoreError extends Schema.TaggedError<CredentialStoreError>()("CredentialStoreError", {
  reason: Schema.String
}) {}

/**
 * The port.
 *
 * @example
 * import { Effect } from "effect"
 * import { CredentialStore } from "@shoplink/connector-runtime"
 * const accountOf = (shopId: string) =>
 *   Effect.flatMap(CredentialStore.CredentialStore, (store) => store.get(shopId)).pipe(Effect.map((c) => c.accountNo))
 *
 * @since 0.1.0
 */
export class CredentialStore extends Context.Tag("@shoplink/connector-runtime/CredentialStore")<CredentialStore, {
  readonly get: (
    shopId: string
  ) => Effect.Effect<CustomerCredentials, CredentialsNotFound | CredentialsRevoked | CredentialStoreError>
  readonly put: (shopId: string, credentials: CustomerCredentials) => Effect.Effect<void, CredentialStoreError>
  readonly remove: (shopId: string) => Effect.Effect<void, CredentialStoreError>
  /** Records that the distributor refused the shop's token; `get` then fails with `CredentialsRevoked`. */
  readonly markRevoked: (shopId: string, reason: string) => Effect.Effect<void, CredentialStoreError>
}>() {}

/**
 * An in-memory store, optionally seeded.
 *
 * @example
 * import { Redacted } from "effect"
 * import { CredentialStore } from "@shoplink/connector-runtime"
 * const layer = CredentialStore.layerMemory({
 *   shop_1: { accountNo: "100200", username: "parts@shop.example", country: "US", apiToken: Redacted.make("t") }
 * })
 *
 * @since 0.1.0
 */
export const layerMemory = (seed: Readonly<Record<string, CustomerCredentials>> = {}): Layer.Layer<CredentialStore> =>
  Layer.effect(
    CredentialStore,
    Effect.gen(function*() {
      const ref = yield* Ref.make(new Map(Object.entries(seed)))
      const revoked = yield* Ref.make(new Map<string, string>())
      const forget = (shopId: string) => <V>(map: Map<string, V>) => {
        const next = new Map(map)
        next.delete(shopId)
        return next
      }
      return CredentialStore.of({
        get: (shopId) =>
          Effect.gen(function*() {
            const reason = (yield* Ref.get(revoked)).get(shopId)
            if (reason !== undefined) return yield* new CredentialsRevoked({ shopId, reason })
            return yield* Ref.get(ref).pipe(
              Effect.flatMap((map) => Option.fromNullable(map.get(shopId))),
              Effect.catchTag("NoSuchElementException", () => new CredentialsNotFound({ shopId }))
            )
          }),
        put: (shopId, credentials) =>
          Effect.zipRight(
            Ref.update(revoked, forget(shopId)),
            Ref.update(ref, (map) => new Map(map).set(shopId, credentials))
          ),
        remove: (shopId) => Effect.zipRight(Ref.update(revoked, forget(shopId)), Ref.update(ref, forget(shopId))),
        markRevoked: (shopId, reason) => Ref.update(revoked, (map) => new Map(map).set(shopId, reason))
      })
    })
  )

/**
 * The port over the `ShopStore` in context: credentials are the shop's distributor credentials,
 * decrypted on read; `put` onboards or updates the shop keeping its name and SMS secrets.
 *
 * @example
 * import { Layer } from "effect"
 * import { CredentialStore, ShopStore } from "@shoplink/connector-runtime"
 * const layer = CredentialStore.layerShopStore.pipe(Layer.provide(ShopStore.layerMemory))
 *
 * @since 0.1.0
 */
export const layerShopStore: Layer.Layer<CredentialStore, never, ShopStore.ShopStore> = Layer.effect(
  CredentialStore,
  Effect.map(ShopStore.ShopStore, (shops) => {
    const storeError = (error: { readonly message: string }) => new CredentialStoreError({ reason: error.message })
    return CredentialStore.of({
      get: (shopId) =>
        shops.customerCredentials(shopId).pipe(
          Effect.mapError((error): CredentialsNotFound | CredentialsRevoked | CredentialStoreError => {
            switch (error._tag) {
              case "ShopNotFound":
                return new CredentialsNotFound({ shopId })
              case "ShopRevoked":
                return new CredentialsRevoked({ shopId, reason: error.reason })
              default:
                return storeError(error)
            }
          })
        ),
      put: (shopId, credentials) =>
        Effect.gen(function*() {
          const existing = yield* shops.get(shopId).pipe(Effect.option)
          const sms = Option.isSome(existing) ? yield* shops.smsCredentials(shopId) : {}
          const name = Option.match(existing, { onNone: () => shopId, onSome: (shop) => shop.name })
          yield* shops.add({ id: shopId, name, distributor: credentials, sms }, { replace: true })
        }).pipe(Effect.mapError(storeError)),
      remove: (shopId) =>
        shops.remove(shopId).pipe(Effect.catchTag("ShopNotFound", () => Effect.void), Effect.mapError(storeError)),
      markRevoked: (shopId, reason) => shops.markRevoked(shopId, reason).pipe(Effect.mapError(storeError))
    })
  })
)

/**
 * A store in the runtime's database: the encrypted `ShopStore.layerSql` seen through this port.
 * Tokens are sealed by the `SecretBox` in context; there is no plain-text mode.
 *
 * @example
 * import { Layer } from "effect"
 * import { CredentialStore, SecretBox, Settings, Storage } from "@shoplink/connector-runtime"
 * const layer = CredentialStore.layerSql.pipe(
 *   Layer.provide(Storage.sqlite("shoplink.db")),
 *   Layer.provide(SecretBox.layerConfig(Settings.secretBox))
 * )
 *
 * @since 0.1.0
 */
export const layerSql: Layer.Layer<CredentialStore, ShopStore.ShopStoreError, SqlClient.SqlClient | SecretBox> =
  layerShopStore.pipe(Layer.provide(ShopStore.layerSql))
