/**
 * Signed launch links: how an SMS page starts punchout without giving the browser a credential.
 * The SMS backend signs `shop, repair order, expiry` with HMAC-SHA256 under a secret it shares with
 * the runtime and puts the link on its repair-order page; the runtime checks the signature and the
 * expiry before it creates a session and redirects to the distributor. A link is a capability for
 * one repair order of one shop until it expires: a tampered, expired or over-long-lived link is
 * refused (403), and so is one whose repair order is not the shop's.
 *
 * Several secrets can be configured (the first signs): rotate by adding the new secret first,
 * waiting out the longest link lifetime, then removing the old one.
 *
 * @since 0.2.0
 */
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * What a link grants.
 *
 * @example
 * import type { LaunchLinks } from "@shoplink/connector"
 * const grant: LaunchLinks.Grant = { shopId: "shop_1", repairOrderId: "ro_8f2", expiresAt: 1767225600 }
 *
 * @since 0.2.0
 */
export interface Grant {
  readonly shopId: string
  readonly repairOrderId: string
  /** Epoch seconds after which the link is refused. */
  readonly expiresAt: number
}

/**
 * Why a link was refused. The HTTP answer is a bare 403 whatever the reason; the reason is logged.
 *
 * @example
 * import { LaunchLinks } from "@shoplink/connector"
 * new LaunchLinks.LinkRefused({ reason: "expired" }).message // "launch link refused: expired"
 *
 * @since 0.2.0
 */
export class LinkRefused extends Schema.TaggedError<LinkRefused>()("LinkRefused", {
  reason: Schema.Literal("malformed", "bad signature", "expired", "lifetime too long")
}) {
  override get message(): string {
    return `launch link refused: ${this.reason}`
  }
}

const FIELD = /^[A-Za-z0-9._~-]{1,128}$/

const mac = (secret: Redacted.Redacted<string>, grant: Grant) =>
  createHmac("sha256", Redacted.value(secret))
    .update(`shoplink-launch-v1\n${grant.shopId}\n${grant.repairOrderId}\n${grant.expiresAt}`)
    .digest()

/**
 * The link's query parameters, signed with `secret`.
 *
 * @example
 * import { Redacted } from "effect"
 * import { LaunchLinks } from "@shoplink/connector"
 * const query = LaunchLinks.sign(Redacted.make("link-secret"), { shopId: "shop_1", repairOrderId: "ro_8f2", expiresAt: 1767225600 })
 * // "shop=shop_1&ro=ro_8f2&exp=1767225600&sig=…"
 *
 * @since 0.2.0
 */
export const sign = (secret: Redacted.Redacted<string>, grant: Grant): string =>
  new URLSearchParams({
    shop: grant.shopId,
    ro: grant.repairOrderId,
    exp: String(grant.expiresAt),
    sig: mac(secret, grant).toString("base64url")
  }).toString()

/**
 * The whole link under the runtime's mount point: `{publicBaseUrl}{basePath}/launch/link?…`.
 *
 * @example
 * import { Redacted } from "effect"
 * import { LaunchLinks } from "@shoplink/connector"
 * LaunchLinks.url("https://parts.sms.example", "/shoplink", Redacted.make("s"), { shopId: "shop_1", repairOrderId: "ro_1", expiresAt: 1767225600 })
 *
 * @since 0.2.0
 */
export const url = (publicBaseUrl: string, basePath: string, secret: Redacted.Redacted<string>, grant: Grant): string =>
  `${publicBaseUrl.replace(/\/+$/, "")}${basePath}/launch/link?${sign(secret, grant)}`

/**
 * Checks a link's parameters: well-formed, signed by one of `secrets`, not expired at `nowSeconds`,
 * and not valid for longer than `maxLifetimeSeconds` from now (a link minted to last for ever is
 * refused even when the signature is good).
 *
 * @example
 * import { Either, Redacted } from "effect"
 * import { LaunchLinks } from "@shoplink/connector"
 * const secret = Redacted.make("link-secret")
 * const query = new URLSearchParams(LaunchLinks.sign(secret, { shopId: "shop_1", repairOrderId: "ro_1", expiresAt: 2000 }))
 * Either.isRight(LaunchLinks.verify([secret], Object.fromEntries(query), { nowSeconds: 1000, maxLifetimeSeconds: 3600 })) // true
 *
 * @since 0.2.0
 */
export const verify = (
  secrets: ReadonlyArray<Redacted.Redacted<string>>,
  params: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
  options: { readonly nowSeconds: number; readonly maxLifetimeSeconds: number }
): Either.Either<Grant, LinkRefused> => {
  const one = (name: string) => {
    const value = params[name]
    return typeof value === "string" ? value : undefined
  }
  const shopId = one("shop")
  const repairOrderId = one("ro")
  const exp = one("exp")
  const sig = one("sig")
  if (
    shopId === undefined || repairOrderId === undefined || exp === undefined || sig === undefined ||
    !FIELD.test(shopId) || !FIELD.test(repairOrderId) || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)
  ) return Either.left(new LinkRefused({ reason: "malformed" }))
  const grant: Grant = { shopId, repairOrderId, expiresAt: Number(exp) }
  const presented = Buffer.from(sig, "base64url")
  const signed = secrets.some((secret) => {
    const expected = mac(secret, grant)
    return expected.length === presented.length && timingSafeEqual(expected, presented)
  })
  if (!signed) return Either.left(new LinkRefused({ reason: "bad signature" }))
  if (grant.expiresAt <= options.nowSeconds) return Either.left(new LinkRefused({ reason: "expired" }))
  if (grant.expiresAt - options.nowSeconds > options.maxLifetimeSeconds) return Either.left(new LinkRefused({ reason: "lifetime too long" }))
  return Either.right(grant)
}
