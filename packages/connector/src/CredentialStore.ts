/**
 * Resolves a shop to the distributor customer credentials the vendor acts with. In memory for
 * tests and demos; SQLite (through @effect/sql) for a service. The API token is `Redacted` in
 * memory; at rest it is stored as given, so protect the database file like any secret store.
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option, Redacted, Ref, Schema } from "effect"
import { Values } from "@shoplink/protocol"

/**
 * A customer's punchout credentials: account number, application username, country, API token.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { CredentialStore } from "@shoplink/connector"
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
 * import { CredentialStore } from "@shoplink/connector"
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
 * The store could not be read or written.
 *
 * @example
 * import { CredentialStore } from "@shoplink/connector"
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
 * import { CredentialStore } from "@shoplink/connector"
 * const accountOf = (shopId: string) =>
 *   Effect.flatMap(CredentialStore.CredentialStore, (store) => store.get(shopId)).pipe(Effect.map((c) => c.accountNo))
 *
 * @since 0.1.0
 */
export class CredentialStore extends Context.Tag("@shoplink/connector/CredentialStore")<CredentialStore, {
  readonly get: (shopId: string) => Effect.Effect<CustomerCredentials, CredentialsNotFound | CredentialStoreError>
  readonly put: (shopId: string, credentials: CustomerCredentials) => Effect.Effect<void, CredentialStoreError>
  readonly remove: (shopId: string) => Effect.Effect<void, CredentialStoreError>
}>() {}

/**
 * An in-memory store, optionally seeded.
 *
 * @example
 * import { Redacted } from "effect"
 * import { CredentialStore } from "@shoplink/connector"
 * const layer = CredentialStore.layerMemory({
 *   shop_1: { accountNo: "100200", username: "parts@shop.example", country: "US", apiToken: Redacted.make("t") }
 * })
 *
 * @since 0.1.0
 */
export const layerMemory = (seed: Readonly<Record<string, CustomerCredentials>> = {}): Layer.Layer<CredentialStore> =>
  Layer.effect(
    CredentialStore,
    Effect.map(Ref.make(new Map(Object.entries(seed))), (ref) =>
      CredentialStore.of({
        get: (shopId) =>
          Ref.get(ref).pipe(
            Effect.flatMap((map) => Option.fromNullable(map.get(shopId))),
            Effect.catchTag("NoSuchElementException", () => new CredentialsNotFound({ shopId }))
          ),
        put: (shopId, credentials) => Ref.update(ref, (map) => new Map(map).set(shopId, credentials)),
        remove: (shopId) =>
          Ref.update(ref, (map) => {
            const next = new Map(map)
            next.delete(shopId)
            return next
          })
      }))
  )

const Row = Schema.Struct({
  account_no: Schema.String,
  username: Schema.String,
  country: Values.Country,
  api_token: Schema.String
})

const storeError = (error: { readonly message: string }) => new CredentialStoreError({ reason: error.message })

/**
 * A store in the `shoplink_credentials` table of the `SqlClient` in context (created if missing).
 *
 * @example
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Layer } from "effect"
 * import { CredentialStore } from "@shoplink/connector"
 * const layer = CredentialStore.layerSql.pipe(Layer.provide(SqliteClient.layer({ filename: "shoplink.db" })))
 *
 * @since 0.1.0
 */
export const layerSql: Layer.Layer<CredentialStore, CredentialStoreError, SqlClient.SqlClient> = Layer.effect(
  CredentialStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE IF NOT EXISTS shoplink_credentials (
      shop_id TEXT PRIMARY KEY,
      account_no TEXT NOT NULL,
      username TEXT NOT NULL,
      country TEXT NOT NULL,
      api_token TEXT NOT NULL
    )`.pipe(Effect.mapError(storeError))
    return CredentialStore.of({
      get: (shopId) =>
        Effect.gen(function*() {
          const rows = yield* sql`SELECT account_no, username, country, api_token FROM shoplink_credentials
                                  WHERE shop_id = ${shopId}`.pipe(Effect.mapError(storeError))
          if (rows[0] === undefined) return yield* new CredentialsNotFound({ shopId })
          const row = yield* Schema.decodeUnknown(Row)(rows[0]).pipe(Effect.mapError(storeError))
          return {
            accountNo: row.account_no,
            username: row.username,
            country: row.country,
            apiToken: Redacted.make(row.api_token)
          }
        }),
      put: (shopId, c) =>
        sql`INSERT INTO shoplink_credentials (shop_id, account_no, username, country, api_token)
            VALUES (${shopId}, ${c.accountNo}, ${c.username}, ${c.country}, ${Redacted.value(c.apiToken)})
            ON CONFLICT (shop_id) DO UPDATE SET account_no = excluded.account_no, username = excluded.username,
              country = excluded.country, api_token = excluded.api_token`.pipe(Effect.asVoid, Effect.mapError(storeError)),
      remove: (shopId) =>
        sql`DELETE FROM shoplink_credentials WHERE shop_id = ${shopId}`.pipe(Effect.asVoid, Effect.mapError(storeError))
    })
  })
)
