/**
 * Encryption of secrets at rest: customer API tokens and SMS API keys are sealed with AES-256-GCM
 * under a keyring before any store writes them. Each sealed value records the id of the key that
 * sealed it, so keys rotate: put the new key first in the ring, keep the old one after it until
 * `ShopStore.rotate` has re-sealed every value, then drop it. The sealed value is bound to where it
 * belongs (the `context`, e.g. `shop_1/distributor.apiToken`): a ciphertext copied onto another
 * shop's row does not open.
 *
 * The keyring comes from one setting (`Settings.secretBox`, the standard `SHOPLINK_SECRET_KEYS`):
 * `id:base64key[,id:base64key…]`, each key 32 random bytes (`shoplink secrets generate-key`).
 * There is no plain-text fallback: without a key, a layer that stores secrets does not build.
 *
 * @since 0.1.0
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import { KEY_BYTES, readKeyring } from "./SettingsTable.js"

/**
 * A value as stored: the key id beside the ciphertext (`v1.<iv>.<ciphertext>.<tag>`, base64url).
 *
 * @example
 * import type { SecretBox } from "@shoplink/connector-runtime"
 * const keyIdOf = (sealed: SecretBox.Sealed) => sealed.keyId
 *
 * @since 0.1.0
 */
export interface Sealed {
  readonly keyId: string
  readonly ciphertext: string
}

/**
 * A sealed value could not be opened: its key is not in the ring, or it was altered or moved.
 *
 * @example
 * import { SecretBox } from "@shoplink/connector-runtime"
 * new SecretBox.SecretUnreadable({ keyId: "k2024", reason: "no key k2024 in SHOPLINK_SECRET_KEYS" }).message
 *
 * @since 0.1.0
 */
export class SecretUnreadable extends Schema.TaggedError<SecretUnreadable>()("SecretUnreadable", {
  keyId: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `a stored secret sealed with key ${this.keyId} cannot be opened: ${this.reason}`
  }
}

/**
 * The keyring setting is missing or malformed. The message names the problem, never a key.
 *
 * @example
 * import { SecretBox } from "@shoplink/connector-runtime"
 * new SecretBox.SecretKeysInvalid({ problem: "key k1 is 16 bytes; AES-256 needs 32" }).message
 *
 * @since 0.1.0
 */
export class SecretKeysInvalid extends Schema.TaggedError<SecretKeysInvalid>()("SecretKeysInvalid", {
  problem: Schema.String
}) {
  override get message(): string {
    return `secret keys: ${this.problem}`
  }
}

/**
 * Keys by id; `current` seals, every key opens.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { SecretBox } from "@shoplink/connector-runtime"
 * const ring: SecretBox.Keyring = { current: "k1", keys: new Map([["k1", Redacted.make(new Uint8Array(32))]]) }
 *
 * @since 0.1.0
 */
export interface Keyring {
  readonly current: string
  readonly keys: ReadonlyMap<string, Redacted.Redacted<Uint8Array>>
}

/**
 * The box's operations.
 *
 * @example
 * import { Effect, Redacted } from "effect"
 * import type { SecretBox } from "@shoplink/connector-runtime"
 * const roundTrip = (box: SecretBox.Operations) =>
 *   Effect.flatMap(
 *     box.seal(Redacted.make("token"), "shop_1/apiToken"),
 *     (sealed) => box.open(sealed, "shop_1/apiToken")
 *   )
 *
 * @since 0.1.0
 */
export interface Operations {
  /** The id new values are sealed with. */
  readonly currentKeyId: string
  readonly seal: (secret: Redacted.Redacted<string>, context: string) => Effect.Effect<Sealed>
  readonly open: (sealed: Sealed, context: string) => Effect.Effect<Redacted.Redacted<string>, SecretUnreadable>
}

/**
 * The service tag.
 *
 * @example
 * import { Effect, Redacted } from "effect"
 * import { SecretBox } from "@shoplink/connector-runtime"
 * const sealToken = (token: string) =>
 *   Effect.flatMap(SecretBox.SecretBox, (box) => box.seal(Redacted.make(token), "shop_1/apiToken"))
 *
 * @since 0.1.0
 */
export class SecretBox extends Context.Tag("@shoplink/connector-runtime/SecretBox")<SecretBox, Operations>() {}

const IV_BYTES = 12
const FORMAT = "v1"

/**
 * A new random key in the setting's form, `id:base64key`.
 *
 * @example
 * import { SecretBox } from "@shoplink/connector-runtime"
 * SecretBox.generateKey("k2026") // "k2026:…44 base64 characters…"
 *
 * @since 0.1.0
 */
export const generateKey = (id: string): string => `${id}:${randomBytes(KEY_BYTES).toString("base64")}`

/**
 * Parses `id:base64key[,id:base64key…]` (the first seals). Either a keyring or the one problem
 * found, which never quotes a key.
 *
 * @example
 * import { Either } from "effect"
 * import { SecretBox } from "@shoplink/connector-runtime"
 * Either.isLeft(SecretBox.parseKeyring("k1:c2hvcnQ=")) // true: not 32 bytes
 *
 * @since 0.1.0
 */
export const parseKeyring = (text: string): Either.Either<Keyring, SecretKeysInvalid> => {
  const read = readKeyring(text)
  if ("problem" in read) return Either.left(new SecretKeysInvalid({ problem: read.problem }))
  return Either.right({
    current: read.entries[0]!.id,
    keys: new Map(read.entries.map(({ id, key }) => [id, Redacted.make(key)] as const))
  })
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")

/**
 * The box over a keyring.
 *
 * @example
 * import { Either, Effect, Redacted } from "effect"
 * import { SecretBox } from "@shoplink/connector-runtime"
 * const ring = Either.getOrThrow(SecretBox.parseKeyring(SecretBox.generateKey("k1")))
 * const box = SecretBox.make(ring)
 * Effect.runSync(Effect.flatMap(box.seal(Redacted.make("t"), "ctx"), (s) => box.open(s, "ctx")))
 *
 * @since 0.1.0
 */
export const make = (keyring: Keyring): Operations => {
  const sealingKey = keyring.keys.get(keyring.current)
  if (sealingKey === undefined) throw new TypeError(`the keyring has no key ${keyring.current}`)
  return {
    currentKeyId: keyring.current,
    seal: (secret, context) =>
      Effect.sync(() => {
        const iv = randomBytes(IV_BYTES)
        const cipher = createCipheriv("aes-256-gcm", Redacted.value(sealingKey), iv)
        cipher.setAAD(Buffer.from(context, "utf8"))
        const ciphertext = Buffer.concat([cipher.update(Redacted.value(secret), "utf8"), cipher.final()])
        return {
          keyId: keyring.current,
          ciphertext: `${FORMAT}.${b64(iv)}.${b64(ciphertext)}.${b64(cipher.getAuthTag())}`
        }
      }),
    open: (sealed, context) =>
      Effect.suspend(() => {
        const key = keyring.keys.get(sealed.keyId)
        if (key === undefined) {
          return Effect.fail(
            new SecretUnreadable({
              keyId: sealed.keyId,
              reason: `no key ${sealed.keyId} in the keyring (was it removed before rotation finished?)`
            })
          )
        }
        const parts = sealed.ciphertext.split(".")
        if (parts.length !== 4 || parts[0] !== FORMAT) {
          return Effect.fail(new SecretUnreadable({ keyId: sealed.keyId, reason: "not a sealed value" }))
        }
        try {
          const decipher = createDecipheriv("aes-256-gcm", Redacted.value(key), Buffer.from(parts[1]!, "base64url"))
          decipher.setAAD(Buffer.from(context, "utf8"))
          decipher.setAuthTag(Buffer.from(parts[3]!, "base64url"))
          const plain = Buffer.concat([decipher.update(Buffer.from(parts[2]!, "base64url")), decipher.final()])
          return Effect.succeed(Redacted.make(plain.toString("utf8")))
        } catch {
          return Effect.fail(
            new SecretUnreadable({
              keyId: sealed.keyId,
              reason: "authentication failed (altered, or sealed for another record)"
            })
          )
        }
      })
  }
}

/**
 * The box as a layer over a keyring.
 *
 * @example
 * import { Either } from "effect"
 * import { SecretBox } from "@shoplink/connector-runtime"
 * const layer = SecretBox.layer(Either.getOrThrow(SecretBox.parseKeyring(SecretBox.generateKey("k1"))))
 *
 * @since 0.1.0
 */
export const layer = (keyring: Keyring): Layer.Layer<SecretBox> => Layer.sync(SecretBox, () => make(keyring))

/**
 * What `layerConfig` reads: the keyring text, `id:base64key[,id:base64key…]` (the first seals).
 *
 * @example
 * import { Redacted } from "effect"
 * import { SecretBox } from "@shoplink/connector-runtime"
 * const options: SecretBox.Options = { keys: Redacted.make(SecretBox.generateKey("k1")) }
 *
 * @since 0.1.0
 */
export interface Options {
  readonly keys: Redacted.Redacted<string>
}

/**
 * The box from configuration: each option a `Config` (the application names its variables; the
 * standard one is `Settings.secretBox`). A missing or malformed keyring fails the layer with a
 * `ConfigError` that names the setting and the problem, never a key.
 *
 * @example
 * import { Config } from "effect"
 * import { SecretBox, Settings } from "@shoplink/connector-runtime"
 * const standard = SecretBox.layerConfig(Settings.secretBox)
 * const own = SecretBox.layerConfig({ keys: Config.redacted("ACME_SECRET_KEYS") })
 *
 * @since 0.1.0
 */
export const layerConfig = (config: Config.Config.Wrap<Options>): Layer.Layer<SecretBox, ConfigError.ConfigError> =>
  Layer.effect(
    SecretBox,
    Effect.flatMap(
      Config.unwrap(config).pipe(
        Config.mapOrFail(({ keys }) =>
          Either.mapLeft(parseKeyring(Redacted.value(keys)), (error) => ConfigError.InvalidData([], error.message))
        )
      ),
      (keyring) => Effect.sync(() => make(keyring))
    )
  )
