/**
 * Signed links: how an SMS page opens punchout (`launch`) or the parts page (`parts`) without giving
 * the browser a credential. The SMS backend signs `purpose, shop, repair order, expiry` with
 * HMAC-SHA256 under a secret it shares with the runtime; the runtime checks the purpose, signature,
 * encoding and expiry. A link is a capability for one purpose on one repair order of one shop until
 * it expires; anything else is refused (403). Details: docs/security.md.
 *
 * Several secrets can be configured (the first signs): rotate by adding the new secret first,
 * waiting out the longest link lifetime, then removing the old one.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { createHmac, timingSafeEqual } from "node:crypto"
import { routes } from "./internal/routes.js"

/**
 * What a link is for, signed inside its MAC: a link of one purpose is refused on every other route.
 * `launch` opens punchout (`{basePath}/launch/link`); `parts` shows the parts page
 * (`{basePath}/parts` and `/parts.csv`).
 *
 * @example
 * import { LaunchLinks } from "@shoplink/connector-runtime"
 * LaunchLinks.Purpose.literals // ["launch", "parts"]
 *
 * @since 0.1.0
 */
export const Purpose = Schema.Literal("launch", "parts")

/**
 * @example
 * import type { LaunchLinks } from "@shoplink/connector-runtime"
 * const purpose: LaunchLinks.Purpose = "parts"
 *
 * @since 0.1.0
 */
export type Purpose = typeof Purpose.Type

/**
 * The route under the runtime's mount point that takes a link of each purpose.
 *
 * @example
 * import { LaunchLinks } from "@shoplink/connector-runtime"
 * LaunchLinks.paths.parts // "/parts"
 *
 * @since 0.1.0
 */
export const paths: { readonly [P in Purpose]: string } = { launch: routes.launchLink.path, parts: routes.parts.path }

/**
 * What a link grants.
 *
 * @example
 * import type { LaunchLinks } from "@shoplink/connector-runtime"
 * const grant: LaunchLinks.Grant = { shopId: "shop_1", repairOrderId: "ro_8f2", expiresAt: 1767225600 }
 *
 * @since 0.1.0
 */
export interface Grant {
  readonly shopId: string
  readonly repairOrderId: string
  /** Epoch seconds after which the link is refused. */
  readonly expiresAt: number
}

/**
 * Why a link was refused. The HTTP answer is a bare 403 whatever the reason; the reason is logged.
 * `wrong purpose` is a link signed for another route (a parts link on the launch route).
 *
 * @example
 * import { LaunchLinks } from "@shoplink/connector-runtime"
 * new LaunchLinks.LinkRefused({ reason: "expired" }).message // "signed link refused: expired"
 *
 * @since 0.1.0
 */
export class LinkRefused extends Schema.TaggedError<LinkRefused>()("LinkRefused", {
  reason: Schema.Literal("malformed", "bad signature", "wrong purpose", "expired", "lifetime too long")
}) {
  override get message(): string {
    return `signed link refused: ${this.reason}`
  }
}

const FIELD = /^[A-Za-z0-9._~-]{1,128}$/
// Canonical decimal: no sign, no leading zero, at most 12 digits.
const EXP = /^[1-9]\d{0,11}$/
const SIG = /^[A-Za-z0-9_-]{43}$/

// One MAC domain for every purpose; the purpose is the first signed field. Fields cannot contain
// "\n" (FIELD, EXP), so the message is unambiguous.
const mac = (secret: Redacted.Redacted<string>, purpose: Purpose, grant: Grant) =>
  createHmac("sha256", Redacted.value(secret))
    .update(`shoplink-link-v2\n${purpose}\n${grant.shopId}\n${grant.repairOrderId}\n${grant.expiresAt}`)
    .digest()

/**
 * The link's query parameters for `purpose`, signed with `secret`. `expiresAt` must be a positive
 * whole number of seconds (anything else makes a link `verify` refuses as malformed).
 *
 * @example
 * import { Redacted } from "effect"
 * import { LaunchLinks } from "@shoplink/connector-runtime"
 * const query = LaunchLinks.sign(
 *   Redacted.make("link-secret"),
 *   { shopId: "shop_1", repairOrderId: "ro_8f2", expiresAt: 1767225600 },
 *   "launch"
 * )
 * // "shop=shop_1&ro=ro_8f2&exp=1767225600&sig=…"
 *
 * @since 0.1.0
 */
export const sign = (secret: Redacted.Redacted<string>, grant: Grant, purpose: Purpose): string =>
  new URLSearchParams({
    shop: grant.shopId,
    ro: grant.repairOrderId,
    exp: String(grant.expiresAt),
    sig: mac(secret, purpose, grant).toString("base64url")
  }).toString()

/**
 * The whole link under the runtime's mount point, at the route of its purpose (`paths`):
 * `{publicBaseUrl}{basePath}/launch/link?…` for `launch` (the default), `…/parts?…` for `parts`.
 *
 * @example
 * import { Redacted } from "effect"
 * import { LaunchLinks } from "@shoplink/connector-runtime"
 * LaunchLinks.url("https://parts.sms.example", "/shoplink", Redacted.make("s"), { shopId: "shop_1", repairOrderId: "ro_1", expiresAt: 1767225600 })
 * LaunchLinks.url("https://parts.sms.example", "/shoplink", Redacted.make("s"), { shopId: "shop_1", repairOrderId: "ro_1", expiresAt: 1767225600 }, "parts")
 *
 * @since 0.1.0
 */
export const url = (
  publicBaseUrl: string,
  basePath: string,
  secret: Redacted.Redacted<string>,
  grant: Grant,
  purpose: Purpose = "launch"
): string => `${publicBaseUrl.replace(/\/+$/, "")}${basePath}${paths[purpose]}?${sign(secret, grant, purpose)}`

/**
 * Checks a link's parameters for the route's `purpose`: well-formed in the canonical encoding
 * (`exp` a decimal without leading zeros, `sig` the one base64url spelling of the MAC), signed by
 * one of `secrets` for that purpose, not expired at `nowSeconds`, and not valid for longer than
 * `maxLifetimeSeconds` from now (a link minted to last for ever is refused even when the signature
 * is good).
 *
 * @example
 * import { Either, Redacted } from "effect"
 * import { LaunchLinks } from "@shoplink/connector-runtime"
 * const secret = Redacted.make("link-secret")
 * const query = Object.fromEntries(
 *   new URLSearchParams(
 *     LaunchLinks.sign(secret, { shopId: "shop_1", repairOrderId: "ro_1", expiresAt: 2000 }, "parts")
 *   )
 * )
 * const at = { nowSeconds: 1000, maxLifetimeSeconds: 3600 }
 * Either.isRight(LaunchLinks.verify([secret], query, { ...at, purpose: "parts" })) // true
 * Either.isRight(LaunchLinks.verify([secret], query, { ...at, purpose: "launch" })) // false
 *
 * @since 0.1.0
 */
export const verify = (
  secrets: ReadonlyArray<Redacted.Redacted<string>>,
  params: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
  options: { readonly purpose: Purpose; readonly nowSeconds: number; readonly maxLifetimeSeconds: number }
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
    !FIELD.test(shopId) || !FIELD.test(repairOrderId) || !EXP.test(exp) || !SIG.test(sig)
  ) return Either.left(new LinkRefused({ reason: "malformed" }))
  const presented = Buffer.from(sig, "base64url")
  // The last of 43 characters carries 4 bits and 2 unused ones: only the spelling with the unused
  // bits zero (what `sign` writes) is accepted.
  if (presented.toString("base64url") !== sig) return Either.left(new LinkRefused({ reason: "malformed" }))
  const grant: Grant = { shopId, repairOrderId, expiresAt: Number(exp) }
  const signedFor = (purpose: Purpose) =>
    secrets.some((secret) => {
      const expected = mac(secret, purpose, grant)
      return expected.length === presented.length && timingSafeEqual(expected, presented)
    })
  if (!signedFor(options.purpose)) {
    const other = Purpose.literals.some((purpose) => purpose !== options.purpose && signedFor(purpose))
    return Either.left(new LinkRefused({ reason: other ? "wrong purpose" : "bad signature" }))
  }
  if (grant.expiresAt <= options.nowSeconds) return Either.left(new LinkRefused({ reason: "expired" }))
  if (grant.expiresAt - options.nowSeconds > options.maxLifetimeSeconds) {
    return Either.left(new LinkRefused({ reason: "lifetime too long" }))
  }
  return Either.right(grant)
}
