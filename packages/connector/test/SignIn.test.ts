// SignIn: password hashes, sessions with lifetime and idle expiry, the sign-in form's token and the
// throttle of failed attempts.
import { describe, expect, it } from "@effect/vitest"
import { SignIn } from "@shoplink/connector"
import { ConfigProvider, Effect, Either } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

describe("SignIn", () => {
  it("hashes with scrypt and verifies in constant time; a malformed or expensive hash never matches", async () => {
    const hash = await SignIn.hashPassword("correct horse")
    expect(SignIn.isPasswordHash(hash)).toBe(true)
    expect(await SignIn.verifyPassword("correct horse", hash)).toBe(true)
    expect(await SignIn.verifyPassword("wrong horse", hash)).toBe(false)
    expect(await SignIn.verifyPassword("correct horse", "plain")).toBe(false)
    expect(await SignIn.verifyPassword("correct horse", hash.replace(/^scrypt:16384:/, "scrypt:4194304:"))).toBe(false)
  })

  it("sessions: a fresh id per sign-in, looked up by digest, ended by lifetime, idleness or removal", () => {
    let now = 0
    const sessions = SignIn.makeSessions({ lifetimeMillis: 10_000, idleMillis: 4_000, now: () => now })
    const user = { email: "ava@example.com", name: "Ava", shopId: "shop_1", shopName: "Main Street Auto" }
    const first = sessions.create(user)
    const second = sessions.create(user)
    expect(first.id).not.toBe(second.id)
    expect(sessions.get(first.id)?.shopId).toBe("shop_1")
    expect(sessions.get("not-an-id")).toBeUndefined()
    now = 3_000
    expect(sessions.get(first.id)).toBeDefined()
    now = 7_500 // second idle since 0
    expect(sessions.get(second.id)).toBeUndefined()
    now = 10_000 // first's lifetime is over
    expect(sessions.get(first.id)).toBeUndefined()
    const third = sessions.create(user)
    sessions.remove(third.id)
    expect(sessions.get(third.id)).toBeUndefined()
  })

  it("the sign-in form's token is bound to its nonce; the throttle blocks after the limit", () => {
    const tokens = SignIn.makeSignInTokens()
    const nonce = tokens.newNonce()
    expect(tokens.verify(nonce, tokens.token(nonce))).toBe(true)
    expect(tokens.verify(tokens.newNonce(), tokens.token(nonce))).toBe(false)
    expect(SignIn.makeSignInTokens().verify(nonce, tokens.token(nonce))).toBe(false)
    let now = 0
    const throttle = SignIn.makeThrottle(2, 1_000, () => now)
    throttle.failed("a")
    expect(throttle.blocked("a")).toBe(false)
    throttle.failed("a")
    expect(throttle.blocked("a")).toBe(true)
    now = 1_000
    expect(throttle.blocked("a")).toBe(false)
    expect(SignIn.safeEqual("x", "x")).toBe(true)
    expect(SignIn.safeEqual("x", "xy")).toBe(false)
  })
})

describe("SignIn users file", () => {
  const HASH = "scrypt:16384:8:1:AAAAAAAAAAAAAAAAAAAAAA:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"

  it("emails trimmed and lower-cased, names defaulted, a hash required, duplicates refused; one line per problem", () => {
    expect(SignIn.parseUsers(JSON.stringify([{ email: " Ava@Example.com", shopId: "main-street", passwordHash: HASH }]))).toEqual(
      Either.right([{ email: "ava@example.com", name: "ava@example.com", shopId: "main-street", passwordHash: HASH }])
    )
    expect(SignIn.parseUsers("[{\"email\":\"a@b\",\"shopId\":\"s\",\"passwordHash\":\"hunter2\"}]", { hashHint: "`hash-password`" })).toEqual(
      Either.left("user 1: passwordHash must come from `hash-password` (scrypt:…)")
    )
    expect(SignIn.parseUsers(JSON.stringify([{ email: "a@b", shopId: "s", passwordHash: HASH }, { email: "A@b", shopId: "t", passwordHash: HASH }])))
      .toEqual(Either.left("user 2: a@b appears twice"))
    expect(SignIn.parseUsers("[]")).toEqual(Either.left("expected a non-empty JSON array of users"))
    expect(SignIn.parseUsers("nope")).toEqual(Either.left("not JSON: expected [{ \"email\", \"name\", \"shopId\", \"passwordHash\" }, …]"))
  })

  it.effect("usersFileConfig reads the file a variable names; a missing file is a ConfigError naming it", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "signin-"))
      const file = join(dir, "users.json")
      writeFileSync(file, JSON.stringify([{ email: "ava@example.com", name: "Ava", shopId: "main-street", passwordHash: HASH }]))
      const provider = (path: string) => ConfigProvider.fromMap(new Map([["USERS_FILE", path]]))
      const users = yield* Effect.withConfigProvider(SignIn.usersFileConfig("USERS_FILE"), provider(file))
      expect(users.map((u) => u.name)).toEqual(["Ava"])
      const missing = yield* Effect.flip(Effect.withConfigProvider(SignIn.usersFileConfig("USERS_FILE"), provider(join(dir, "none.json"))))
      expect(String(missing)).toContain("cannot read")
      expect(String(missing)).toContain("USERS_FILE")
    }))
})
