/**
 * The URL an SMS posts its repair-order webhooks to, one per shop: `{basePath}/sms-webhooks/{key}`,
 * where the key is the shop id and an HMAC-SHA256 of it under a secret only the runtime holds
 * (`smsWebhookSecrets`). SMSs that sign nothing (Shop-Ware documents no signature) are thereby
 * authenticated by the URL alone, and a delivery is only ever a prompt to read the repair order
 * back from the SMS. Rotate like launch links: put the new secret first, subscribe every shop
 * again (`runtime.subscribeRepairOrderEvents`), then drop the old one. Details: docs/security.md.
 *
 * @since 0.1.0
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * SMS webhooks are not configured (no `smsWebhookSecrets`), or the adapter does not receive them
 * (no capability `receiveRepairOrderEvents`).
 *
 * @example
 * import { SmsWebhooks } from "@shoplink/connector-runtime"
 * new SmsWebhooks.SmsWebhooksDisabled({ reason: "no smsWebhookSecrets" }).message
 *
 * @since 0.1.0
 */
export class SmsWebhooksDisabled extends Schema.TaggedError<SmsWebhooksDisabled>()("SmsWebhooksDisabled", {
  reason: Schema.String
}) {
  override get message(): string {
    return `SMS webhooks are off: ${this.reason}`
  }
}

const mac = (secret: Redacted.Redacted<string>, shopId: string) =>
  createHmac("sha256", Redacted.value(secret)).update(`shoplink-sms-webhook-v1\n${shopId}`).digest()

const SIG = /^[A-Za-z0-9_-]{43}$/

/**
 * The shop's key: `base64url(shopId).base64url(mac)`, one path segment.
 *
 * @example
 * import { Redacted } from "effect"
 * import { SmsWebhooks } from "@shoplink/connector-runtime"
 * SmsWebhooks.keyFor(Redacted.make("sms-webhook-secret"), "shop_1") // "c2hvcF8x.…"
 *
 * @since 0.1.0
 */
export const keyFor = (secret: Redacted.Redacted<string>, shopId: string): string =>
  `${Buffer.from(shopId, "utf8").toString("base64url")}.${mac(secret, shopId).toString("base64url")}`

/**
 * The shop a key was made for, when one of `secrets` made it; `None` for anything else.
 *
 * @example
 * import { Redacted } from "effect"
 * import { SmsWebhooks } from "@shoplink/connector-runtime"
 * const secret = Redacted.make("sms-webhook-secret")
 * SmsWebhooks.verify([secret], SmsWebhooks.keyFor(secret, "shop_1")) // Option.some("shop_1")
 *
 * @since 0.1.0
 */
export const verify = (secrets: ReadonlyArray<Redacted.Redacted<string>>, key: string): Option.Option<string> => {
  const dot = key.indexOf(".")
  if (dot <= 0 || !SIG.test(key.slice(dot + 1))) return Option.none()
  const encoded = key.slice(0, dot)
  const shopId = Buffer.from(encoded, "base64url").toString("utf8")
  const presented = Buffer.from(key.slice(dot + 1), "base64url")
  // Only the spellings `keyFor` writes: a second encoding of the same bytes is refused.
  if (Buffer.from(shopId, "utf8").toString("base64url") !== encoded) return Option.none()
  if (presented.toString("base64url") !== key.slice(dot + 1)) return Option.none()
  const signed = secrets.some((secret) => {
    const expected = mac(secret, shopId)
    return expected.length === presented.length && timingSafeEqual(expected, presented)
  })
  return signed ? Option.some(shopId) : Option.none()
}
