// `shoplink keys create | list | revoke`: the vendor API keys an SMS backend presents to the
// connector service's API. Only digests are stored: a key is printed once, when it is created.
import { ApiKeys } from "@shoplink/connector-runtime"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { err, json, out, table } from "./output.js"
import { iso, service, withApiKeys } from "./service.js"
import type * as Spec from "./spec.js"

const keyJson = (key: ApiKeys.ApiKey) => ({
  id: key.id,
  name: key.name,
  createdAt: iso(key.createdAt),
  revokedAt: key.revokedAt === undefined ? null : iso(key.revokedAt)
})

export const create = (args: Spec.ArgsOf<typeof Spec.keysCreate>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const db = yield* service(args, "create")
    const { apiKey, key } = yield* withApiKeys(db, (keys) => keys.create(args.name.trim()))
    // stdout holds the key alone (or the JSON), so `KEY=$(shoplink keys create …)` captures it.
    if (args.json) yield* json({ ...keyJson(apiKey), key: Redacted.value(key) })
    else yield* out(Redacted.value(key))
    yield* err(
      `API key ${apiKey.id} (${apiKey.name}) created in ${db.file}.\n` +
        `It is shown only once: store it now (only its digest is kept). \`shoplink keys revoke ${apiKey.id}\` revokes it.`
    )
  })

export const list = (args: Spec.ArgsOf<typeof Spec.keysList>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const db = yield* service(args, "existing")
    const keys = yield* withApiKeys(db, (store) => store.list())
    if (args.json) return yield* json(keys.map(keyJson))
    if (keys.length === 0) return yield* out(`no API keys in ${db.file} (\`shoplink keys create <name>\` makes one)`)
    yield* out(table(
      ["ID", "NAME", "CREATED", "REVOKED"],
      keys.map((key) => [key.id, key.name, iso(key.createdAt), key.revokedAt === undefined ? "" : iso(key.revokedAt)])
    ))
  })

export const revoke = (args: Spec.ArgsOf<typeof Spec.keysRevoke>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const db = yield* service(args, "existing")
    const { before, after } = yield* withApiKeys(db, (store) =>
      Effect.gen(function*() {
        const before = (yield* store.list()).find((key) => key.id === args.id)
        yield* store.revoke(args.id)
        const after = (yield* store.list()).find((key) => key.id === args.id)
        return { before, after }
      }))
    const key = after ?? before!
    if (args.json) return yield* json(keyJson(key))
    yield* out(
      before?.revokedAt !== undefined
        ? `API key ${key.id} (${key.name}) was already revoked at ${iso(before.revokedAt)}`
        : `revoked API key ${key.id} (${key.name}); the service refuses it from now on`
    )
  })
