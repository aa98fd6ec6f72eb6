// Signed links (HMAC-SHA256 with expiry): the purpose inside the MAC, one canonical encoding, rotation.
import { describe, expect, it } from "@effect/vitest"
import { LaunchLinks } from "@shoplink/connector-runtime"
import { Either, Redacted } from "effect"
import { createHmac } from "node:crypto"

const secret = Redacted.make("link-secret-0123456789")
const grant = { shopId: "shop_1", repairOrderId: "ro_8f2", expiresAt: 10_000 }
const launch = { purpose: "launch", nowSeconds: 9_000, maxLifetimeSeconds: 3_600 } as const
const parts = { ...launch, purpose: "parts" } as const
const params = (query: string) => Object.fromEntries(new URLSearchParams(query))
const reason = (result: Either.Either<LaunchLinks.Grant, LaunchLinks.LinkRefused>) =>
  Either.isLeft(result) ? result.left.reason : "accepted"
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

describe("LaunchLinks", () => {
  it("accepts a link it signed, with any configured secret (rotation), at the route of its purpose", () => {
    expect(LaunchLinks.verify([secret], params(LaunchLinks.sign(secret, grant, "launch")), launch)).toEqual(
      Either.right(grant)
    )
    expect(LaunchLinks.verify([secret], params(LaunchLinks.sign(secret, grant, "parts")), parts)).toEqual(
      Either.right(grant)
    )
    const next = Redacted.make("next-secret")
    expect(reason(LaunchLinks.verify([next, secret], params(LaunchLinks.sign(secret, grant, "launch")), launch))).toBe(
      "accepted"
    )
    expect(LaunchLinks.url("https://sms.example/", "/shoplink", secret, grant)).toMatch(
      /^https:\/\/sms\.example\/shoplink\/launch\/link\?shop=shop_1&ro=ro_8f2&exp=10000&sig=[A-Za-z0-9_-]{43}$/
    )
    expect(LaunchLinks.url("https://sms.example", "/shoplink", secret, grant, "parts")).toMatch(
      /^https:\/\/sms\.example\/shoplink\/parts\?shop=shop_1&ro=ro_8f2&exp=10000&sig=[A-Za-z0-9_-]{43}$/
    )
  })

  it("a link of one purpose is refused for every other purpose", () => {
    for (const signedFor of LaunchLinks.Purpose.literals) {
      const query = params(LaunchLinks.sign(secret, grant, signedFor))
      for (const purpose of LaunchLinks.Purpose.literals) {
        expect(reason(LaunchLinks.verify([secret], query, { ...launch, purpose })), `${signedFor} link for ${purpose}`)
          .toBe(purpose === signedFor ? "accepted" : "wrong purpose")
      }
    }
    // The same query string either way: only the MAC tells them apart.
    const a = params(LaunchLinks.sign(secret, grant, "launch"))
    const b = params(LaunchLinks.sign(secret, grant, "parts"))
    expect({ ...a, sig: "" }).toEqual({ ...b, sig: "" })
    expect(a.sig).not.toBe(b.sig)
  })

  it("links signed before purposes (shoplink-launch-v1) are refused", () => {
    const v1 = createHmac("sha256", Redacted.value(secret))
      .update(`shoplink-launch-v1\n${grant.shopId}\n${grant.repairOrderId}\n${grant.expiresAt}`)
      .digest("base64url")
    const query = { shop: grant.shopId, ro: grant.repairOrderId, exp: String(grant.expiresAt), sig: v1 }
    expect(reason(LaunchLinks.verify([secret], query, launch))).toBe("bad signature")
    expect(reason(LaunchLinks.verify([secret], query, parts))).toBe("bad signature")
  })

  it("accepts only the canonical encoding of sig and exp", () => {
    const good = params(LaunchLinks.sign(secret, grant, "launch"))
    expect(reason(LaunchLinks.verify([secret], good, launch))).toBe("accepted")
    // The last of 43 characters carries 4 bits of the MAC and 2 unused ones: the other three
    // characters that decode to the same bytes are other spellings of the same signature.
    const last = BASE64URL.indexOf(good.sig!.at(-1)!)
    expect(last % 4).toBe(0)
    for (const unused of [1, 2, 3]) {
      const sig = good.sig!.slice(0, -1) + BASE64URL[last + unused]
      expect(Buffer.from(sig, "base64url").equals(Buffer.from(good.sig!, "base64url"))).toBe(true)
      expect(reason(LaunchLinks.verify([secret], { ...good, sig }, launch)), sig).toBe("malformed")
    }
    // A leading zero (or a sign, a space, a 13th digit) spells the same number another way.
    for (const exp of ["010000", "0010000", "+10000", " 10000", "10000 ", "1e4", "10000.0", "0", "1234567890123"]) {
      expect(reason(LaunchLinks.verify([secret], { ...good, exp }, launch)), exp).toBe("malformed")
    }
  })

  it("refuses tampered, expired, foreign-secret, over-long and malformed links", () => {
    const good = params(LaunchLinks.sign(secret, grant, "launch"))
    expect(reason(LaunchLinks.verify([secret], { ...good, ro: "ro_other" }, launch))).toBe("bad signature")
    expect(reason(LaunchLinks.verify([secret], { ...good, shop: "shop_2" }, launch))).toBe("bad signature")
    expect(reason(LaunchLinks.verify([secret], { ...good, exp: "20000" }, launch))).toBe("bad signature")
    expect(reason(LaunchLinks.verify([Redacted.make("other")], good, launch))).toBe("bad signature")
    expect(reason(LaunchLinks.verify([secret], good, { ...launch, nowSeconds: 10_000 }))).toBe("expired")
    const forever = params(LaunchLinks.sign(secret, { ...grant, expiresAt: 9_999_999 }, "launch"))
    expect(reason(LaunchLinks.verify([secret], forever, launch))).toBe("lifetime too long")
    for (
      const broken of [{}, { ...good, sig: "short" }, { ...good, exp: "soon" }, { ...good, shop: "a/b" }, {
        ...good,
        ro: ["a", "b"]
      }]
    ) {
      expect(reason(LaunchLinks.verify([secret], broken, launch))).toBe("malformed")
    }
    expect(new LaunchLinks.LinkRefused({ reason: "wrong purpose" }).message).toBe("signed link refused: wrong purpose")
  })
})
