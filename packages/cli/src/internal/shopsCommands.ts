// `shoplink shops add | list | remove`: the shops the connector service serves, in its database.
import { ShopStore } from "@shoplink/connector-runtime"
import * as Effect from "effect/Effect"
import { UsageError } from "./errors.js"
import { fields, json, out, table } from "./output.js"
import { readSecrets } from "./secretsInput.js"
import { iso, service, withShops } from "./service.js"
import type * as Spec from "./spec.js"

/** A shop as `--json` prints it: instants as ISO-8601, never a secret. */
const shopJson = (shop: ShopStore.Shop) => ({
  id: shop.id,
  name: shop.name,
  distributor: shop.distributor,
  smsSecrets: shop.smsSecrets,
  status: shop.status,
  revoked: shop.revoked === undefined ? null : { reason: shop.revoked.reason, at: iso(shop.revoked.at) },
  createdAt: iso(shop.createdAt),
  updatedAt: iso(shop.updatedAt)
})

export const add = (args: Spec.ArgsOf<typeof Spec.shopsAdd>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    // Settings first: a missing keyring is reported before anyone types a secret.
    const db = yield* service(args, "create", "keyring")
    const secrets = yield* readSecrets(args.id, args.secretsFile, args.smsSecret)
    const input: ShopStore.ShopInput = {
      id: args.id,
      name: args.name,
      distributor: {
        accountNo: args.account,
        username: args.username,
        country: args.country,
        apiToken: secrets.apiToken
      },
      sms: secrets.sms
    }
    // Checked before the database is opened, so refused input does not even create the file.
    // Every wrong field at once: one as itself, several in one usage error.
    const invalid = ShopStore.validateAll(input)
    if (invalid.length === 1) return yield* invalid[0]!
    if (invalid.length > 1) {
      return yield* new UsageError({
        message: `${invalid.length} fields to fix: ${invalid.map((problem) => problem.message).join("; ")}`,
        fix: "see `shoplink shops add --help`"
      })
    }
    const shop = yield* withShops(db, (store) => store.add(input, { replace: args.replace }))
    if (args.json) return yield* json({ ...shopJson(shop), sealedWith: db.keyring.current })
    const replaced = shop.updatedAt > shop.createdAt
    yield* out(`${replaced ? "replaced" : "added"} shop ${shop.id} in ${db.file}`)
    yield* out(fields([
      ["name", shop.name],
      ["account", shop.distributor.accountNo],
      ["username", shop.distributor.username],
      ["country", shop.distributor.country],
      ["sms secrets", shop.smsSecrets.join(", ") || "(none)"],
      ["sealed with", `key ${db.keyring.current} (the distributor API token and every SMS secret)`]
    ]))
  })

export const list = (args: Spec.ArgsOf<typeof Spec.shopsList>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const db = yield* service(args, "existing", "keyring")
    const shops = yield* withShops(db, (store) => store.list())
    if (args.json) return yield* json(shops.map(shopJson))
    if (shops.length === 0) return yield* out(`no shops in ${db.file} (\`shoplink shops add\` onboards one)`)
    yield* out(table(
      ["ID", "NAME", "ACCOUNT", "USERNAME", "COUNTRY", "STATUS", "SMS SECRETS", "REVOKED"],
      shops.map((shop) => [
        shop.id,
        shop.name,
        shop.distributor.accountNo,
        shop.distributor.username,
        shop.distributor.country,
        shop.status,
        shop.smsSecrets.join(","),
        shop.revoked === undefined ? "" : `${iso(shop.revoked.at)} ${shop.revoked.reason}`
      ])
    ))
  })

export const remove = (args: Spec.ArgsOf<typeof Spec.shopsRemove>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const db = yield* service(args, "existing", "keyring")
    yield* withShops(db, (store) => store.remove(args.id))
    if (args.json) return yield* json({ removed: args.id })
    yield* out(`removed shop ${args.id} and its secrets from ${db.file}`)
  })
