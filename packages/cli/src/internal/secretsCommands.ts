// `shoplink secrets generate-key | rotate`: the keyring (SHOPLINK_SECRET_KEYS) that seals the
// connector service's stored secrets, and moving every secret to its first key.
import { SecretBox } from "@shoplink/connector-runtime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { UsageError } from "./errors.js"
import { err, json, out, table } from "./output.js"
import { service, withShops } from "./service.js"
import { SETTINGS } from "./settingsTable.js"
import type * as Spec from "./spec.js"

const SECRET_KEYS = SETTINGS.secretKeys.env

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/

/** `k20260521`: a key id that says when the key was made (UTC). */
const defaultId = () => `k${new Date().toISOString().slice(0, 10).replaceAll("-", "")}`

export const generateKey = (args: Spec.ArgsOf<typeof Spec.secretsGenerateKey>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const id = Option.getOrElse(args.id, defaultId)
    if (!KEY_ID.test(id)) {
      return yield* new UsageError({
        message: `--id: '${id}' is not a key id`,
        fix: "use 1-32 letters, digits, '-' or '_', e.g. --id k2027"
      })
    }
    yield* out(SecretBox.generateKey(id))
    yield* err(
      [
        `This is a secret: the key ${id} for ${SECRET_KEYS} (id:base64key[,id:base64key…]; the first key seals).`,
        "Keep it with the service's other secrets, never in a file you commit. To rotate: put it first,",
        "keep the old key after it, restart the service, run `shoplink secrets rotate`, then drop the old key."
      ].join("\n")
    )
  })

export const rotate = (args: Spec.ArgsOf<typeof Spec.secretsRotate>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const db = yield* service(args, "existing", "keyring")
    const report = yield* withShops(db, (store) => store.rotate())
    const current = db.keyring.current
    const still = Object.entries(report.keyUsage).filter(([keyId, n]) => keyId !== current && n > 0)
    const done = still.length === 0
    // Keys in the ring that no longer seal anything.
    const removable = [...db.keyring.keys.keys()].filter((keyId) => keyId !== current && !(keyId in report.keyUsage))
    if (args.json) {
      return yield* json({
        currentKey: current,
        resealed: report.resealed,
        keyUsage: report.keyUsage,
        done,
        removableKeys: removable
      })
    }
    yield* out(`re-sealed ${report.resealed} secret(s) under key ${current} in ${db.file}`)
    const usage = Object.entries(report.keyUsage)
    if (usage.length > 0) {
      yield* out("")
      yield* out(
        table(["KEY", "SECRETS"], usage.map(([keyId, n]) => [keyId === current ? `${keyId} (first)` : keyId, n]))
      )
    }
    yield* out("")
    if (!done) {
      yield* out(
        `Still sealed with other keys: ${
          still.map(([keyId, n]) => `${keyId} (${n})`).join(", ")
        }. Keep them in ${SECRET_KEYS} ` +
          `and run \`shoplink secrets rotate\` again (is the service still running with ${still[0]![0]} first?).`
      )
    } else if (removable.length > 0) {
      yield* out(
        `Every stored secret is sealed with ${current}: ${
          removable.join(", ")
        } can now be removed from ${SECRET_KEYS} ` +
          "(restart the service after)."
      )
    } else {
      yield* out(`Every stored secret is sealed with ${current}; ${SECRET_KEYS} holds no other key.`)
    }
  })
