/**
 * Sign-in for an integration service's own pages (the sample apps): scrypt password hashes at
 * OWASP's cost (upgraded at sign-in, `makeUsers`), server-side sessions behind an HttpOnly cookie,
 * a synchronizer CSRF token per session, a signed token for the sign-in form itself, and a bounded
 * throttle of failures per account and per client address. Secrets are compared in constant time.
 * The users come from a JSON file (`parseUsers`, `usersFileConfig`); the pages are `ServicePages`.
 *
 * @since 0.1.0
 */
import { createHash, createHmac, randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto"
import { readFileSync } from "node:fs"
import { promisify } from "node:util"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number }
) => Promise<Buffer>

/**
 * scrypt's cost parameters: `N` (a power of two), `r` and `p`.
 *
 * @example
 * import type { SignIn } from "@shoplink/service-pages"
 * const cheapForTests: SignIn.ScryptCost = { N: 1024, r: 8, p: 1 }
 *
 * @since 0.1.0
 */
export interface ScryptCost {
  readonly N: number
  readonly r: number
  readonly p: number
}

/**
 * The cost new hashes get by default: OWASP's scrypt recommendation (N=2^17, r=8, p=1, 128 MiB).
 *
 * @example
 * import { SignIn } from "@shoplink/service-pages"
 * SignIn.OWASP_SCRYPT.N // 131072
 *
 * @since 0.1.0
 */
export const OWASP_SCRYPT: ScryptCost = { N: 2 ** 17, r: 8, p: 1 }

const HASH_BYTES = 32
// scrypt needs about 128·r·(N + p) bytes; Node refuses above maxmem (32 MiB by default).
const MAX_MEMORY = 256 * 1024 * 1024
const memoryOf = ({ N, p, r }: ScryptCost) => 128 * r * (N + 2) + 128 * r * p
const FORMAT = /^scrypt:(\d{1,7}):(\d{1,2}):(\d{1,2}):([A-Za-z0-9_-]{16,}):([A-Za-z0-9_-]{40,})$/
// Refuse parameters that would make one sign-in attempt a denial of service.
const acceptable = (cost: ScryptCost) =>
  cost.N >= 2 && (cost.N & (cost.N - 1)) === 0 && cost.r >= 1 && cost.r <= 16 && cost.p >= 1 && cost.p <= 4 &&
  memoryOf(cost) <= MAX_MEMORY

// At most two hashes at a time (256 MiB at OWASP's cost); the rest wait their turn.
const MAX_CONCURRENT = 2
let running = 0
const waiting: Array<() => void> = []
const limited = async <A>(task: () => Promise<A>): Promise<A> => {
  if (running < MAX_CONCURRENT) running++
  else await new Promise<void>((resolve) => waiting.push(resolve))
  try {
    return await task()
  } finally {
    const next = waiting.shift()
    if (next === undefined) running--
    else next()
  }
}

const derive = (password: string, salt: Buffer, length: number, cost: ScryptCost) =>
  limited(() =>
    scrypt(password.normalize("NFKC"), salt, length, { N: cost.N, r: cost.r, p: cost.p, maxmem: MAX_MEMORY })
  )

/**
 * Whether `text` is a hash `hashPassword` made.
 *
 * @example
 * import { SignIn } from "@shoplink/service-pages"
 * SignIn.isPasswordHash("hunter2") // false
 *
 * @since 0.1.0
 */
export const isPasswordHash = (text: string): boolean => FORMAT.test(text)

/**
 * `scrypt:N:r:p:salt:hash`, salt and hash in base64url, at `cost` (default `OWASP_SCRYPT`; tests
 * may pass a lower one).
 *
 * @example
 * import { SignIn } from "@shoplink/service-pages"
 * const stored = await SignIn.hashPassword("correct horse battery staple")
 * const quick = await SignIn.hashPassword("in a test", { cost: { N: 1024, r: 8, p: 1 } })
 *
 * @since 0.1.0
 */
export const hashPassword = async (password: string, options: { readonly cost?: ScryptCost } = {}): Promise<string> => {
  const cost = options.cost ?? OWASP_SCRYPT
  if (!acceptable(cost)) throw new RangeError(`scrypt cost out of range: N=${cost.N} r=${cost.r} p=${cost.p}`)
  const salt = randomBytes(16)
  const hash = await derive(password, salt, HASH_BYTES, cost)
  return `scrypt:${cost.N}:${cost.r}:${cost.p}:${salt.toString("base64url")}:${hash.toString("base64url")}`
}

/**
 * Whether `encoded` should be replaced by a hash at `cost` (default `OWASP_SCRYPT`): it was made
 * with other parameters (an older, cheaper default) or is not a hash `hashPassword` makes.
 *
 * @example
 * import { SignIn } from "@shoplink/service-pages"
 * SignIn.needsRehash("scrypt:16384:8:1:AAAAAAAAAAAAAAAAAAAAAA:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB") // true
 *
 * @since 0.1.0
 */
export const needsRehash = (encoded: string, cost: ScryptCost = OWASP_SCRYPT): boolean => {
  const match = FORMAT.exec(encoded)
  return match === null || Number(match[1]) !== cost.N || Number(match[2]) !== cost.r || Number(match[3]) !== cost.p
}

/**
 * Whether `password` matches `encoded`, compared in constant time. A malformed hash, or one whose
 * parameters would cost more than 256 MiB, never matches.
 *
 * @example
 * import { SignIn } from "@shoplink/service-pages"
 * const ok = await SignIn.verifyPassword("typed", await SignIn.hashPassword("typed")) // true
 *
 * @since 0.1.0
 */
export const verifyPassword = async (password: string, encoded: string): Promise<boolean> => {
  const match = FORMAT.exec(encoded)
  if (match === null) return false
  const cost = { N: Number(match[1]), r: Number(match[2]), p: Number(match[3]) }
  if (!acceptable(cost)) return false
  const expected = Buffer.from(match[5]!, "base64url")
  try {
    return timingSafeEqual(await derive(password, Buffer.from(match[4]!, "base64url"), expected.length, cost), expected)
  } catch {
    return false
  }
}

/**
 * Constant-time equality of two strings (their lengths are not secret).
 *
 * @example
 * import { SignIn } from "@shoplink/service-pages"
 * SignIn.safeEqual("a", "a") // true
 *
 * @since 0.1.0
 */
export const safeEqual = (a: string, b: string): boolean => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/**
 * 256 random bits, base64url.
 *
 * @example
 * import { SignIn } from "@shoplink/service-pages"
 * SignIn.randomToken().length // 43
 *
 * @since 0.1.0
 */
export const randomToken = (): string => randomBytes(32).toString("base64url")

/**
 * A password for a demo user: 96 random bits, readable.
 *
 * @example
 * import { SignIn } from "@shoplink/service-pages"
 * SignIn.randomPassword().length // 16
 *
 * @since 0.1.0
 */
export const randomPassword = (): string => randomBytes(12).toString("base64url")

/**
 * A signed-in user's session.
 *
 * @example
 * import type { SignIn } from "@shoplink/service-pages"
 * const who = (s: SignIn.Session) => `${s.name} (${s.shopName})`
 *
 * @since 0.1.0
 */
export interface Session {
  readonly email: string
  readonly name: string
  readonly shopId: string
  readonly shopName: string
  /** `"operator"`: the user may open the delivery console (`DeliveryConsole`), for every shop. */
  readonly role?: Role | undefined
  /** The synchronizer token every POST of this session must carry. */
  readonly csrfToken: string
  readonly expiresAt: number
}

/**
 * Lifetimes of sessions.
 *
 * @example
 * import type { SignIn } from "@shoplink/service-pages"
 * const options: SignIn.SessionOptions = { lifetimeMillis: 4 * 60 * 60 * 1000, idleMillis: 30 * 60 * 1000 }
 *
 * @since 0.1.0
 */
export interface SessionOptions {
  /** How long a session lives after sign-in (ms; default 8 hours). */
  readonly lifetimeMillis?: number
  /** How long a session may sit unused (ms; default 1 hour). */
  readonly idleMillis?: number
  readonly now?: () => number
}

/**
 * Sessions in memory, keyed by the SHA-256 of their id: the cookie value is the only copy of the
 * id, so a dump of this map cannot be replayed as cookies.
 *
 * @example
 * import { SignIn } from "@shoplink/service-pages"
 * const sessions = SignIn.makeSessions()
 * const { id } = sessions.create({
 *   email: "ava@example.com",
 *   name: "Ava",
 *   shopId: "shop_1",
 *   shopName: "Main Street Auto"
 * })
 * sessions.get(id)?.shopId // "shop_1"
 *
 * @since 0.1.0
 */
export const makeSessions = (options: SessionOptions = {}) => {
  const lifetime = options.lifetimeMillis ?? 8 * 60 * 60 * 1000
  const idle = options.idleMillis ?? 60 * 60 * 1000
  const now = options.now ?? Date.now
  const sessions = new Map<string, Session & { lastSeen: number }>()
  const digest = (id: string) => createHash("sha256").update(id).digest("base64url")
  const purge = () => {
    const t = now()
    for (const [key, s] of sessions) if (s.expiresAt <= t || s.lastSeen + idle <= t) sessions.delete(key)
  }
  return {
    lifetimeSeconds: Math.floor(lifetime / 1000),
    /** A new session (a new id every sign-in: an id seen before sign-in is never promoted). */
    create: (user: Omit<Session, "csrfToken" | "expiresAt">): { readonly id: string; readonly session: Session } => {
      purge()
      const id = randomToken()
      const t = now()
      const session = { ...user, csrfToken: randomToken(), expiresAt: t + lifetime, lastSeen: t }
      sessions.set(digest(id), session)
      return { id, session }
    },
    /** The live session with this id, touched; expired ones are dropped. */
    get: (id: string | undefined): Session | undefined => {
      if (id === undefined || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined
      const key = digest(id)
      const session = sessions.get(key)
      if (session === undefined) return undefined
      const t = now()
      if (session.expiresAt <= t || session.lastSeen + idle <= t) {
        sessions.delete(key)
        return undefined
      }
      session.lastSeen = t
      return session
    },
    remove: (id: string | undefined): void => {
      if (id !== undefined) sessions.delete(digest(id))
    },
    size: () => sessions.size
  }
}
/**
 * The session store `makeSessions` makes.
 *
 * @example
 * import type { SignIn } from "@shoplink/service-pages"
 * const count = (sessions: SignIn.Sessions) => sessions.size()
 *
 * @since 0.1.0
 */
export type Sessions = ReturnType<typeof makeSessions>

/**
 * The sign-in form's CSRF token: an HMAC of a random nonce kept in a short-lived cookie, so a
 * cross-site page can neither read nor forge it, and nothing is stored per visitor.
 *
 * @example
 * import { SignIn } from "@shoplink/service-pages"
 * const tokens = SignIn.makeSignInTokens()
 * const nonce = tokens.newNonce()
 * tokens.verify(nonce, tokens.token(nonce)) // true
 *
 * @since 0.1.0
 */
export const makeSignInTokens = (key: Buffer = randomBytes(32)) => {
  const sign = (nonce: string) => createHmac("sha256", key).update(`sign-in:${nonce}`).digest("base64url")
  return {
    newNonce: randomToken,
    isNonce: (nonce: string | undefined): nonce is string => nonce !== undefined && /^[A-Za-z0-9_-]{43}$/.test(nonce),
    token: sign,
    verify: (nonce: string | undefined, token: string | undefined) =>
      nonce !== undefined && token !== undefined && /^[A-Za-z0-9_-]{43}$/.test(nonce) && safeEqual(sign(nonce), token)
  }
}

/**
 * Settings of `makeThrottle`.
 *
 * @example
 * import type { SignIn } from "@shoplink/service-pages"
 * const options: SignIn.ThrottleOptions = { limit: 5, addressLimit: 50, windowMillis: 10 * 60 * 1000 }
 *
 * @since 0.1.0
 */
export interface ThrottleOptions {
  /** Failures on one account before it is locked for `windowMillis` (default 10). */
  readonly limit?: number
  /** Failures from one client address before it is locked for `windowMillis` (default 100). */
  readonly addressLimit?: number
  /** How long failures count and a lock lasts (ms; default 15 minutes). */
  readonly windowMillis?: number
  /** Entries kept per table, counting and locked apart (default 10,000); the oldest go first. */
  readonly maxEntries?: number
  readonly now?: () => number
}

// Failures per key in two bounded tables, each in insertion order (the oldest first): keys still
// counting, and keys that reached the limit. New keys evict only the oldest counting ones, so a
// flood of failures on other keys cannot lift a lock; a lock is evicted only when `maxEntries`
// other keys were locked after it (`limit × maxEntries` failures).
const makeCounter = (limit: number, windowMillis: number, maxEntries: number, now: () => number) => {
  const counting = new Map<string, { count: number; since: number }>()
  const locked = new Map<string, number>()
  const sweep = <V>(table: Map<string, V>, since: (value: V) => number) => {
    const t = now()
    for (const [key, value] of table) {
      if (since(value) + windowMillis > t && table.size < maxEntries) break
      table.delete(key)
    }
  }
  const isLocked = (key: string) => {
    const at = locked.get(key)
    if (at === undefined) return false
    if (at + windowMillis > now()) return true
    locked.delete(key)
    return false
  }
  return {
    isLocked,
    failed: (key: string) => {
      if (isLocked(key)) return
      let entry = counting.get(key)
      if (entry !== undefined && entry.since + windowMillis <= now()) {
        counting.delete(key)
        entry = undefined
      }
      if (entry === undefined) {
        sweep(counting, (e) => e.since)
        entry = { count: 0, since: now() }
        counting.set(key, entry)
      }
      entry.count++
      if (entry.count >= limit) {
        counting.delete(key)
        sweep(locked, (at) => at)
        locked.set(key, now())
      }
    },
    clear: (key: string) => {
      counting.delete(key)
      locked.delete(key)
    },
    size: () => counting.size + locked.size
  }
}

// An IPv6 client is counted by its /64 (one host usually holds the whole /64); IPv4-mapped
// addresses count as IPv4.
const addressKey = (address: string): string => {
  const plain = address.replace(/%.*$/, "").toLowerCase()
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(plain)
  if (mapped !== null) return mapped[1]!
  if (!plain.includes(":")) return plain
  const [head = "", tail] = plain.split("::", 2)
  const left = head === "" ? [] : head.split(":")
  const right = tail === undefined || tail === "" ? [] : tail.split(":")
  const groups = tail === undefined
    ? left
    : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`
}

/**
 * Failed sign-ins per account (email) and per client address: after `limit` failures on an account,
 * or `addressLimit` from an address, within `windowMillis`, further attempts are refused (with the
 * same generic message) for `windowMillis`. Memory is bounded (`maxEntries` per table): the oldest
 * entries are evicted, never all, and a locked account stays locked however many other emails
 * fail. An address already locked adds no account entries. A success clears its account only.
 *
 * @example
 * import { SignIn } from "@shoplink/service-pages"
 * const throttle = SignIn.makeThrottle({ limit: 3 })
 * throttle.failed("ava@example.com", "203.0.113.7")
 * throttle.blocked("ava@example.com", "203.0.113.7") // false
 *
 * @since 0.1.0
 */
export const makeThrottle = (options: ThrottleOptions = {}) => {
  const windowMillis = options.windowMillis ?? 15 * 60 * 1000
  const maxEntries = Math.max(1, options.maxEntries ?? 10_000)
  const now = options.now ?? Date.now
  const accounts = makeCounter(options.limit ?? 10, windowMillis, maxEntries, now)
  const addresses = makeCounter(options.addressLimit ?? 100, windowMillis, maxEntries, now)
  return {
    /** Whether the account, or the client address when given, is locked. */
    blocked: (email: string, address?: string): boolean =>
      accounts.isLocked(email) || (address !== undefined && addresses.isLocked(addressKey(address))),
    /** Counts a failed sign-in on the account and from the address. */
    failed: (email: string, address?: string): void => {
      if (address !== undefined) {
        const key = addressKey(address)
        if (addresses.isLocked(key)) return
        addresses.failed(key)
      }
      accounts.failed(email)
    },
    /** A good sign-in: the account's failures are forgotten (the address's are not). */
    succeeded: (email: string): void => accounts.clear(email),
    /** Entries held, for tests and metrics. */
    size: (): { readonly accounts: number; readonly addresses: number } => ({
      accounts: accounts.size(),
      addresses: addresses.size()
    })
  }
}

/**
 * The throttle `makeThrottle` makes.
 *
 * @example
 * import type { SignIn } from "@shoplink/service-pages"
 * const locked = (throttle: SignIn.Throttle, email: string) => throttle.blocked(email)
 *
 * @since 0.1.0
 */
export type Throttle = ReturnType<typeof makeThrottle>

/**
 * Someone who may sign in to an integration service's pages, and the one shop they act for.
 *
 * @example
 * import type { SignIn } from "@shoplink/service-pages"
 * const label = (user: SignIn.User) => `${user.name} <${user.email}> (${user.shopId})`
 *
 * @since 0.1.0
 */
export interface User {
  /** Lower-case; what is typed on the sign-in page. */
  readonly email: string
  readonly name: string
  readonly shopId: string
  /** `scrypt:N:r:p:salt:hash`, from `hashPassword` (any cost it accepts; see `needsRehash`). */
  readonly passwordHash: string
  /** `"operator"`: may also open the delivery console, for every shop. Absent: the shop's pages only. */
  readonly role?: Role | undefined
}

/**
 * A user's role beyond their own shop's pages: `"operator"` runs the delivery console (deliveries
 * of every shop: replay, discard; the shops' credential status).
 *
 * @example
 * import type { SignIn } from "@shoplink/service-pages"
 * const role: SignIn.Role = "operator"
 *
 * @since 0.1.0
 */
export type Role = "operator"

const EMAIL = /^[^\s@]+@[^\s@]+$/

/**
 * Reads a users file: a JSON array of `{ email, name?, shopId, passwordHash, role? }` (`role`:
 * `"operator"` for the delivery console, or absent). Emails are trimmed
 * and lower-cased (a name defaults to the email), a `passwordHash` must be one `hashPassword` made,
 * and an email may appear once. The problem is one line; `hashHint` says where a hash comes from.
 *
 * @example
 * import { SignIn } from "@shoplink/service-pages"
 * const users = SignIn.parseUsers('[{"email":"ava@example.com","shopId":"main-street","passwordHash":"scrypt:…"}]')
 * // Either.left("user 1: passwordHash must come from SignIn.hashPassword (scrypt:…)")
 *
 * @since 0.1.0
 */
export const parseUsers = (
  text: string,
  options: { readonly hashHint?: string } = {}
): Either.Either<ReadonlyArray<User>, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return Either.left("not JSON: expected [{ \"email\", \"name\", \"shopId\", \"passwordHash\" }, …]")
  }
  if (!Array.isArray(json) || json.length === 0) return Either.left("expected a non-empty JSON array of users")
  const users: Array<User> = []
  for (const [index, entry] of json.entries()) {
    const at = `user ${index + 1}`
    if (typeof entry !== "object" || entry === null) return Either.left(`${at} is not an object`)
    const { email, name, passwordHash, role, shopId } = entry as Record<string, unknown>
    if (typeof email !== "string" || !EMAIL.test(email.trim())) {
      return Either.left(`${at}: email must be an email address`)
    }
    if (typeof shopId !== "string" || !/^[A-Za-z0-9._-]{1,64}$/.test(shopId)) {
      return Either.left(`${at}: shopId must be a shop's id`)
    }
    if (typeof passwordHash !== "string" || !isPasswordHash(passwordHash)) {
      return Either.left(`${at}: passwordHash must come from ${options.hashHint ?? "SignIn.hashPassword"} (scrypt:…)`)
    }
    if (role !== undefined && role !== null && role !== "operator") {
      return Either.left(`${at}: role must be "operator" or absent`)
    }
    const normalized = email.trim().toLowerCase()
    if (users.some((u) => u.email === normalized)) return Either.left(`${at}: ${normalized} appears twice`)
    users.push({
      email: normalized,
      name: typeof name === "string" && name.trim() !== "" ? name.trim() : normalized,
      shopId,
      passwordHash,
      ...(role === "operator" ? { role } : {})
    })
  }
  return Either.right(users)
}

/**
 * Settings of `makeUsers`.
 *
 * @example
 * import type { SignIn } from "@shoplink/service-pages"
 * const options: SignIn.UsersOptions = { onUpgrade: (user) => console.log(`${user.email}: hash upgraded`) }
 *
 * @since 0.1.0
 */
export interface UsersOptions {
  /** The cost of new hashes (default `OWASP_SCRYPT`); tests may pass a lower one. */
  readonly cost?: ScryptCost
  /** Called with the user after a sign-in replaced its hash by one at `cost`: persist it there. */
  readonly onUpgrade?: (user: User) => void
}

/**
 * The users who may sign in, by lower-cased email, checked in constant work: `authenticate` runs
 * one scrypt whether or not the email is known (against a decoy hash at `cost` when it is not).
 * A user whose hash was made at other parameters (older hashes were N=2^14) gets a new hash at
 * `cost` at the next good sign-in, kept here and handed to `onUpgrade`.
 *
 * @example
 * import { SignIn } from "@shoplink/service-pages"
 * const users = await SignIn.makeUsers([{
 *   email: "ava@example.com",
 *   name: "Ava",
 *   shopId: "shop_1",
 *   passwordHash: await SignIn.hashPassword("pw")
 * }])
 * const ava = await users.authenticate("Ava@example.com", "pw") // the user, or undefined
 *
 * @since 0.1.0
 */
export const makeUsers = async (list: ReadonlyArray<User>, options: UsersOptions = {}) => {
  const cost = options.cost ?? OWASP_SCRYPT
  const users = new Map(list.map((u) => [u.email.toLowerCase(), u]))
  const decoy = await hashPassword(randomToken(), { cost })
  return {
    get: (email: string): User | undefined => users.get(email.trim().toLowerCase()),
    list: (): ReadonlyArray<User> => [...users.values()],
    /** The user when `password` is theirs, with its hash upgraded when it was made at another cost. */
    authenticate: async (email: string, password: string): Promise<User | undefined> => {
      const user = users.get(email.trim().toLowerCase())
      const matches = await verifyPassword(password, user?.passwordHash ?? decoy)
      if (user === undefined || !matches) return undefined
      if (!needsRehash(user.passwordHash, cost)) return user
      const upgraded: User = { ...user, passwordHash: await hashPassword(password, { cost }) }
      // Unless another sign-in replaced it meanwhile.
      if (users.get(user.email.toLowerCase()) === user) {
        users.set(user.email.toLowerCase(), upgraded)
        options.onUpgrade?.(upgraded)
      }
      return upgraded
    }
  }
}

/**
 * The users `makeUsers` makes.
 *
 * @example
 * import type { SignIn } from "@shoplink/service-pages"
 * const emails = (users: SignIn.Users) => users.list().map((u) => u.email)
 *
 * @since 0.1.0
 */
export type Users = Awaited<ReturnType<typeof makeUsers>>

/**
 * A Config of the users in the file a variable names (`SettingsTable.SETTINGS.usersFile.env` in the
 * samples): a file that cannot be read or parsed is a `ConfigError` naming the file and the problem.
 *
 * @example
 * import { SettingsTable } from "@shoplink/connector-runtime"
 * import { SignIn } from "@shoplink/service-pages"
 * const users = SignIn.usersFileConfig(SettingsTable.SETTINGS.usersFile.env)
 *
 * @since 0.1.0
 */
export const usersFileConfig = (
  name: string,
  options: { readonly hashHint?: string } = {}
): Config.Config<ReadonlyArray<User>> =>
  Config.string(name).pipe(
    Config.mapOrFail((file) => {
      let text: string
      try {
        text = readFileSync(file, "utf8")
      } catch (error) {
        return Either.left(
          ConfigError.InvalidData([], `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`)
        )
      }
      return Either.mapLeft(parseUsers(text, options), (problem) => ConfigError.InvalidData([], `${file}: ${problem}`))
    })
  )
