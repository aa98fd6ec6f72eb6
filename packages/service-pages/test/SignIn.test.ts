// SignIn: password hashes and their upgrade, sessions with lifetime and idle expiry, the sign-in
// form's token and the bounded throttle of failed attempts per account and per address.
import { describe, expect, it } from "@effect/vitest"
import { SignIn } from "@shoplink/service-pages"
import { ConfigProvider, Effect, Either } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

// Tests hash at a low cost except where the default itself is the point.
const CHEAP = { N: 1024, r: 8, p: 1 }

describe("SignIn", () => {
  it("a lower cost can be configured; a malformed or too expensive hash never matches", async () => {
    const hash = await SignIn.hashPassword("correct horse", { cost: CHEAP })
    expect(hash.startsWith("scrypt:1024:8:1:")).toBe(true)
    expect(SignIn.needsRehash(hash)).toBe(true)
    expect(SignIn.needsRehash(hash, CHEAP)).toBe(false)
    expect(await SignIn.verifyPassword("correct horse", hash)).toBe(true)
    expect(await SignIn.verifyPassword("wrong horse", hash)).toBe(false)
    expect(await SignIn.verifyPassword("correct horse", "plain")).toBe(false)
    // Over the 256 MiB a hash may cost, or not a power of two: refused without running scrypt.
    for (const params of ["4194304:8:1", "262144:8:1", "131072:16:1", "1000:8:1"]) {
      expect(
        await SignIn.verifyPassword("correct horse", hash.replace(/^scrypt:1024:8:1:/, `scrypt:${params}:`)),
        params
      ).toBe(false)
    }
    await expect(SignIn.hashPassword("x", { cost: { N: 2 ** 21, r: 8, p: 1 } })).rejects.toThrow(RangeError)
  })

  // The one test at the default cost (N=2^17, about 0.3 s a hash on a quiet machine).
  it("a hash of the old format (N=2^14) is upgraded to OWASP's cost at the next good sign-in, not before", async () => {
    const old = await SignIn.hashPassword("correct horse", { cost: { N: 16384, r: 8, p: 1 } })
    expect(old.startsWith("scrypt:16384:8:1:")).toBe(true)
    const upgrades: Array<SignIn.User> = []
    const users = await SignIn.makeUsers([{
      email: "ava@example.com",
      name: "Ava",
      shopId: "shop_1",
      passwordHash: old
    }], {
      onUpgrade: (user) => upgrades.push(user)
    })
    expect(await users.authenticate("ava@example.com", "wrong horse")).toBeUndefined()
    expect(await users.authenticate("bob@example.com", "correct horse")).toBeUndefined()
    expect(users.get("ava@example.com")?.passwordHash).toBe(old)
    expect(upgrades).toEqual([])
    const signedIn = await users.authenticate(" Ava@Example.com", "correct horse")
    expect(signedIn?.email).toBe("ava@example.com")
    const now = users.get("ava@example.com")!.passwordHash
    expect(now).toMatch(/^scrypt:131072:8:1:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]{43}$/)
    expect(SignIn.isPasswordHash(now)).toBe(true)
    expect(SignIn.needsRehash(now)).toBe(false)
    expect(upgrades.map((u) => u.passwordHash)).toEqual([now])
    // The new hash works, and is not replaced again.
    expect((await users.authenticate("ava@example.com", "correct horse"))?.passwordHash).toBe(now)
    expect(upgrades).toHaveLength(1)
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
    const throttle = SignIn.makeThrottle({ limit: 2, windowMillis: 1_000, now: () => now })
    throttle.failed("a")
    expect(throttle.blocked("a")).toBe(false)
    throttle.failed("a")
    expect(throttle.blocked("a")).toBe(true)
    now = 1_000
    expect(throttle.blocked("a")).toBe(false)
    expect(SignIn.safeEqual("x", "x")).toBe(true)
    expect(SignIn.safeEqual("x", "xy")).toBe(false)
  })

  it("a flood of failures on other emails does not unlock an account, and memory stays bounded", () => {
    const throttle = SignIn.makeThrottle()
    for (let i = 0; i < 10; i++) throttle.failed("ava@example.com", "203.0.113.7")
    expect(throttle.blocked("ava@example.com")).toBe(true)
    // 10,001 failures on other emails, each from its own address (a botnet), then as many more.
    for (let i = 0; i <= 10_000; i++) throttle.failed(`x${i}@example.com`, `198.51.${i >> 8}.${i & 255}`)
    expect(throttle.blocked("ava@example.com")).toBe(true)
    for (let i = 0; i < 20_000; i++) throttle.failed(`y${i}@example.com`)
    expect(throttle.blocked("ava@example.com")).toBe(true)
    const size = throttle.size()
    expect(size.accounts).toBeLessThanOrEqual(10_001)
    expect(size.addresses).toBeLessThanOrEqual(10_001)
    // A good sign-in clears the account (the lock is only refusals meanwhile).
    throttle.succeeded("ava@example.com")
    expect(throttle.blocked("ava@example.com")).toBe(false)
  })

  it("full tables evict the oldest entries first, never all", () => {
    const throttle = SignIn.makeThrottle({ limit: 2, maxEntries: 3 })
    for (const email of ["a", "b", "c"]) throttle.failed(email)
    throttle.failed("d") // the table is full: "a" (the oldest) goes
    expect(throttle.size().accounts).toBe(3)
    throttle.failed("b")
    throttle.failed("a")
    expect(throttle.blocked("b")).toBe(true) // "b" kept its first failure
    expect(throttle.blocked("a")).toBe(false) // "a" starts again
    // Locks are kept apart from counts: flooding counts never evicts a lock.
    for (let i = 0; i < 100; i++) throttle.failed(`z${i}`)
    expect(throttle.blocked("b")).toBe(true)
    expect(throttle.size().accounts).toBeLessThanOrEqual(6)
  })

  it("throttles per client address too: one address cannot spray passwords over many accounts", () => {
    let now = 0
    const throttle = SignIn.makeThrottle({ addressLimit: 5, windowMillis: 60_000, now: () => now })
    for (let i = 0; i < 5; i++) throttle.failed(`user${i}@example.com`, "203.0.113.7")
    expect(throttle.blocked("fresh@example.com", "203.0.113.7")).toBe(true)
    expect(throttle.blocked("fresh@example.com", "203.0.113.8")).toBe(false)
    expect(throttle.blocked("fresh@example.com")).toBe(false)
    // The same address as IPv4-mapped IPv6; an IPv6 client by its /64.
    expect(throttle.blocked("fresh@example.com", "::ffff:203.0.113.7")).toBe(true)
    for (let i = 0; i < 5; i++) throttle.failed(`user${i}@example.com`, `2001:db8:0:1::${i + 1}`)
    expect(throttle.blocked("fresh@example.com", "2001:db8:0:1:ffff::9")).toBe(true)
    expect(throttle.blocked("fresh@example.com", "2001:db8:0:2::1")).toBe(false)
    // A locked address adds no account entries, and a good sign-in does not unlock it.
    const before = throttle.size().accounts
    for (let i = 0; i < 1_000; i++) throttle.failed(`spray${i}@example.com`, "203.0.113.7")
    expect(throttle.size().accounts).toBe(before)
    throttle.succeeded("user0@example.com")
    expect(throttle.blocked("user0@example.com", "203.0.113.7")).toBe(true)
    now = 60_000
    expect(throttle.blocked("fresh@example.com", "203.0.113.7")).toBe(false)
  })
})

describe("SignIn users file", () => {
  const HASH = "scrypt:16384:8:1:AAAAAAAAAAAAAAAAAAAAAA:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"

  it("emails trimmed and lower-cased, names defaulted, a hash required, duplicates refused; one line per problem", () => {
    expect(
      SignIn.parseUsers(JSON.stringify([{ email: " Ava@Example.com", shopId: "main-street", passwordHash: HASH }]))
    ).toEqual(
      Either.right([{ email: "ava@example.com", name: "ava@example.com", shopId: "main-street", passwordHash: HASH }])
    )
    expect(
      SignIn.parseUsers("[{\"email\":\"a@b\",\"shopId\":\"s\",\"passwordHash\":\"hunter2\"}]", {
        hashHint: "`hash-password`"
      })
    ).toEqual(
      Either.left("user 1: passwordHash must come from `hash-password` (scrypt:…)")
    )
    expect(
      SignIn.parseUsers(
        JSON.stringify([{ email: "a@b", shopId: "s", passwordHash: HASH }, {
          email: "A@b",
          shopId: "t",
          passwordHash: HASH
        }])
      )
    )
      .toEqual(Either.left("user 2: a@b appears twice"))
    expect(SignIn.parseUsers("[]")).toEqual(Either.left("expected a non-empty JSON array of users"))
    expect(SignIn.parseUsers("nope")).toEqual(
      Either.left("not JSON: expected [{ \"email\", \"name\", \"shopId\", \"passwordHash\" }, …]")
    )
  })

  it.effect("usersFileConfig reads the file a variable names; a missing file is a ConfigError naming it", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "signin-"))
      const file = join(dir, "users.json")
      writeFileSync(
        file,
        JSON.stringify([{ email: "ava@example.com", name: "Ava", shopId: "main-street", passwordHash: HASH }])
      )
      const provider = (path: string) => ConfigProvider.fromMap(new Map([["USERS_FILE", path]]))
      const users = yield* Effect.withConfigProvider(SignIn.usersFileConfig("USERS_FILE"), provider(file))
      expect(users.map((u) => u.name)).toEqual(["Ava"])
      const missing = yield* Effect.flip(
        Effect.withConfigProvider(SignIn.usersFileConfig("USERS_FILE"), provider(join(dir, "none.json")))
      )
      expect(String(missing)).toContain("cannot read")
      expect(String(missing)).toContain("USERS_FILE")
    }))
})
