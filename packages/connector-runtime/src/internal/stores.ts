// The runtime's stores: in memory, or one database (SQLite or PostgreSQL) with every secret sealed
// (the key ring is checked before the database is opened), plus the `OrderVerifier` when Order
// Management is configured.
import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as ApiKeys from "../ApiKeys.js"
import type { Options } from "../ConnectorRuntime.js"
import { type CredentialStore, layerShopStore as credentialsFromShops } from "../CredentialStore.js"
import * as LaunchRegistry from "../LaunchRegistry.js"
import * as OrderVerifier from "../OrderVerifier.js"
import * as PartsLedger from "../PartsLedger.js"
import * as RepairOrderStates from "../RepairOrderStates.js"
import * as SecretBox from "../SecretBox.js"
import * as ShopStore from "../ShopStore.js"
import * as Storage from "../Storage.js"
import * as WebhookInbox from "../WebhookInbox.js"

const keyring = (secretKeys: Redacted.Redacted<string> | undefined) =>
  Effect.gen(function*() {
    if (secretKeys === undefined) {
      return yield* new SecretBox.SecretKeysInvalid({
        problem:
          "no key configured: a database that holds shops' tokens needs one (generate it with `shoplink secrets generate-key`)"
      })
    }
    return SecretBox.layer(yield* SecretBox.parseKeyring(Redacted.value(secretKeys)))
  })

/** The stores and the SMS credentials port on them, in the current Scope; `sql` is kept for the readiness check. */
export const buildStores = (options: Options) =>
  Effect.gen(function*() {
    const secretBox = options.storage === "memory" ? undefined : yield* keyring(options.secretKeys)
    const sql = options.storage === "memory"
      ? undefined
      : Context.get(yield* Layer.build(Storage.layer(options.storage)), SqlClient.SqlClient)
    const stores = sql === undefined || secretBox === undefined
      ? Layer.mergeAll(
        ShopStore.layerMemory,
        WebhookInbox.layerMemory,
        LaunchRegistry.layerMemory,
        ApiKeys.layerMemory,
        PartsLedger.layerMemory,
        RepairOrderStates.layerMemory
      )
      : Layer.mergeAll(
        ShopStore.layerSql,
        WebhookInbox.layerSqlWith(options.inboxLease === undefined ? {} : { lease: options.inboxLease }),
        LaunchRegistry.layerSql,
        ApiKeys.layerSql,
        PartsLedger.layerSql,
        RepairOrderStates.layerSql
      ).pipe(
        Layer.provide(Layer.succeed(SqlClient.SqlClient, sql)),
        Layer.provide(secretBox)
      )
    const context = yield* Layer.build(
      Layer.mergeAll(credentialsFromShops, ShopStore.layerSmsCredentials).pipe(Layer.provideMerge(stores))
    )
    return { sql, context }
  })

/** The `OrderVerifier` when Order Management credentials are configured (and a warning when not). */
export const verification = (options: Options, stores: Context.Context<CredentialStore>) =>
  Effect.gen(function*() {
    if (options.orderManagement === undefined || options.orderVerification === false) {
      yield* Effect.logWarning(
        options.orderManagement === undefined
          ? "order webhooks are not verified with the distributor: configure Order Management (orderManagement) so a forged order is not applied"
          : "order webhooks are not verified with the distributor: orderVerification is off"
      )
      return Context.empty() as Context.Context<never>
    }
    const verifier = OrderVerifier.layerOrderManagementClient(options.orderManagement, options.orderVerification ?? {})
    return yield* Layer.build(Layer.provide(verifier, Layer.succeedContext(stores)))
  })
