/**
 * Sign-in for an integration service's own pages (the sample apps): scrypt password hashes,
 * server-side sessions behind an HttpOnly cookie, a synchronizer CSRF token per session, a signed
 * token for the sign-in form itself (there is no session yet to bind it to), and a throttle of
 * failed attempts. Everything compares secrets in constant time. A session belongs to one user of
 * one shop of the runtime. The users come from a JSON file (`parseUsers`, `usersFileConfig`); the
 * pages and routes around all this are `ServicePages`.
 *
 * @since 0.6.0
 */
import { createHash, createHmac, randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto"
import { readFileSync } from "node:fs"
import { promisify } from "node:util"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>

const SCRYPT = { N: 16384, r: 8, p: 1 } as const
const HASH_BYTES = 32
const MAX_MEMORY = 64 * 1024 * 1024
const FORMAT = /^scrypt:(\d{1,7}):(\d{1,2}):(\d{1,2}):([A-Za-z0-9_-]{16,}):([A-Za-z0-9_-]{40,})$/

/**
 * Whether `text` is a hash `hashPassword` made.
 *
 * @example
 * import { SignIn } from "@shoplink/connector"
 * SignIn.isPasswordHash("hunter2") // false
 *
 * @since 0.6.0
 */
export const isPasswordHash = (text: string): boolean => FORMAT.test(text)

/**
 * `scrypt:N:r:p:salt:hash`, salt and hash in base64url.
 *
 * @example
 * import { SignIn } from "@shoplink/connector"
 * const stored = await SignIn.hashPassword("correct horse battery staple")
 *
 * @since 0.6.0
 */
export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16)
  const hash = await scrypt(password.normalize("NFKC"), salt, HASH_BYTES, { ...SCRYPT, maxmem: MAX_MEMORY })
  return `scrypt:${SCRYPT.N}:${SCRYPT.r}:${SCRYPT.p}:${salt.toString("base64url")}:${hash.toString("base64url")}`
}

/**
 * Whether `password` matches `encoded`, compared in constant time. A malformed hash never matches.
 *
 * @example
 * import { SignIn } from "@shoplink/connector"
 * const ok = await SignIn.verifyPassword("typed", await SignIn.hashPassword("typed")) // true
 *
 * @since 0.6.0
 */
export const verifyPassword = async (password: string, encoded: string): Promise<boolean> => {
  const match = FORMAT.exec(encoded)
  if (match === null) return false
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])]
  // Refuse parameters that would make one sign-in attempt a denial of service.
  if (N < 2 || N > 1 << 20 || (N & (N - 1)) !== 0 || r < 1 || r > 16 || p < 1 || p > 4) return false
  const expected = Buffer.from(match[5]!, "base64url")
  const actual = await scrypt(password.normalize("NFKC"), Buffer.from(match[4]!, "base64url"), expected.length, { N, r, p, maxmem: MAX_MEMORY })
  return timingSafeEqual(actual, expected)
}

/**
 * Constant-time equality of two strings (their lengths are not secret).
 *
 * @example
 * import { SignIn } from "@shoplink/connector"
 * SignIn.safeEqual("a", "a") // true
 *
 * @since 0.6.0
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
 * import { SignIn } from "@shoplink/connector"
 * SignIn.randomToken().length // 43
 *
 * @since 0.6.0
 */
export const randomToken = (): string => randomBytes(32).toString("base64url")

/**
 * A password for a demo user: 96 random bits, readable.
 *
 * @example
 * import { SignIn } from "@shoplink/connector"
 * SignIn.randomPassword().length // 16
 *
 * @since 0.6.0
 */
export const randomPassword = (): string => randomBytes(12).toString("base64url")

/**
 * A signed-in user's session.
 *
 * @example
 * import type { SignIn } from "@shoplink/connector"
 * const who = (s: SignIn.Session) => `${s.name} (${s.shopName})`
 *
 * @since 0.6.0
 */
export interface Session {
  readonly email: string
  readonly name: string
  readonly shopId: string
  readonly shopName: string
  /** The synchronizer token every POST of this session must carry. */
  readonly csrfToken: string
  readonly expiresAt: number
}

/**
 * Lifetimes of sessions.
 *
 * @example
 * import type { SignIn } from "@shoplink/connector"
 * const options: SignIn.SessionOptions = { lifetimeMillis: 4 * 60 * 60 * 1000, idleMillis: 30 * 60 * 1000 }
 *
 * @since 0.6.0
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
 * import { SignIn } from "@shoplink/connector"
 * const sessions = SignIn.makeSessions()
 * const { id } = sessions.create({ email: "ava@example.com", name: "Ava", shopId: "shop_1", shopName: "Main Street Auto" })
 * sessions.get(id)?.shopId // "shop_1"
 *
 * @since 0.6.0
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
 * import type { SignIn } from "@shoplink/connector"
 * const count = (sessions: SignIn.Sessions) => sessions.size()
 *
 * @since 0.6.0
 */
export type Sessions = ReturnType<typeof makeSessions>

/**
 * The sign-in form's CSRF token: an HMAC of a random nonce kept in a short-lived cookie, so a
 * cross-site page can neither read nor forge it, and nothing is stored per visitor.
 *
 * @example
 * import { SignIn } from "@shoplink/connector"
 * const tokens = SignIn.makeSignInTokens()
 * const nonce = tokens.newNonce()
 * tokens.verify(nonce, tokens.token(nonce)) // true
 *
 * @since 0.6.0
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
 * Failed sign-ins per email: after `limit` failures within `windowMillis` further attempts are
 * refused (with the same generic message) until the window passes.
 *
 * @example
 * import { SignIn } from "@shoplink/connector"
 * const throttle = SignIn.makeThrottle(3)
 * throttle.failed("ava@example.com")
 * throttle.blocked("ava@example.com") // false
 *
 * @since 0.6.0
 */
export const makeThrottle = (limit = 10, windowMillis = 15 * 60 * 1000, now: () => number = Date.now) => {
  const failures = new Map<string, { count: number; since: number }>()
  const current = (email: string) => {
    const entry = failures.get(email)
    if (entry !== undefined && entry.since + windowMillis <= now()) {
      failures.delete(email)
      return undefined
    }
    return entry
  }
  return {
    blocked: (email: string) => (current(email)?.count ?? 0) >= limit,
    failed: (email: string) => {
      if (failures.size > 10_000) failures.clear()
      const entry = current(email)
      failures.set(email, entry === undefined ? { count: 1, since: now() } : { ...entry, count: entry.count + 1 })
    },
    succeeded: (email: string) => void failures.delete(email)
  }
}

/**
 * Someone who may sign in to an integration service's pages, and the one shop they act for.
 *
 * @example
 * import type { SignIn } from "@shoplink/connector"
 * const label = (user: SignIn.User) => `${user.name} <${user.email}> (${user.shopId})`
 *
 * @since 0.6.0
 */
export interface User {
  /** Lower-case; what is typed on the sign-in page. */
  readonly email: string
  readonly name: string
  readonly shopId: string
  /** `scrypt:N:r:p:salt:hash`, from `hashPassword`. */
  readonly passwordHash: string
}

const EMAIL = /^[^\s@]+@[^\s@]+$/

/**
 * Reads a users file: a JSON array of `{ email, name?, shopId, passwordHash }`. Emails are trimmed
 * and lower-cased (a name defaults to the email), a `passwordHash` must be one `hashPassword` made,
 * and an email may appear once. The problem is one line; `hashHint` says where a hash comes from.
 *
 * @example
 * import { SignIn } from "@shoplink/connector"
 * const users = SignIn.parseUsers('[{"email":"ava@example.com","shopId":"main-street","passwordHash":"scrypt:…"}]')
 * // Either.left("user 1: passwordHash must come from SignIn.hashPassword (scrypt:…)")
 *
 * @since 0.6.0
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
    const { email, name, passwordHash, shopId } = entry as Record<string, unknown>
    if (typeof email !== "string" || !EMAIL.test(email.trim())) return Either.left(`${at}: email must be an email address`)
    if (typeof shopId !== "string" || !/^[A-Za-z0-9._-]{1,64}$/.test(shopId)) return Either.left(`${at}: shopId must be a shop's id`)
    if (typeof passwordHash !== "string" || !isPasswordHash(passwordHash)) {
      return Either.left(`${at}: passwordHash must come from ${options.hashHint ?? "SignIn.hashPassword"} (scrypt:…)`)
    }
    const normalized = email.trim().toLowerCase()
    if (users.some((u) => u.email === normalized)) return Either.left(`${at}: ${normalized} appears twice`)
    users.push({ email: normalized, name: typeof name === "string" && name.trim() !== "" ? name.trim() : normalized, shopId, passwordHash })
  }
  return Either.right(users)
}

/**
 * A Config of the users in the file a variable names (`SettingsTable.SETTINGS.usersFile.env` in the
 * samples): a file that cannot be read or parsed is a `ConfigError` naming the file and the problem.
 *
 * @example
 * import { SettingsTable, SignIn } from "@shoplink/connector"
 * const users = SignIn.usersFileConfig(SettingsTable.SETTINGS.usersFile.env)
 *
 * @since 0.6.0
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
        return Either.left(ConfigError.InvalidData([], `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`))
      }
      return Either.mapLeft(parseUsers(text, options), (problem) => ConfigError.InvalidData([], `${file}: ${problem}`))
    })
  )
