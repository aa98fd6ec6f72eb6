/**
 * Generic HTTP transport facts every client (of the distributor or of a shop system) shares:
 * whether a failed request provably never reached the server — the only case in which a
 * non-idempotent request may be sent again — the messages of an error chain, and how long a
 * `Retry-After` header asks to wait. Moved here from `@shoplink/protocol` (`Transport`).
 *
 * @since 0.1.0
 */

/**
 * Error codes (Node errno and undici) of failures that happen before a request is sent: the
 * connection was refused, the host did not resolve or was unreachable, or connecting timed out.
 *
 * @example
 * import { Transport } from "@shoplink/http"
 * Transport.NOT_SENT_CODES.has("ECONNREFUSED") // true
 * Transport.NOT_SENT_CODES.has("ECONNRESET") // false: the request may have arrived
 *
 * @since 0.1.0
 */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EAI_NONAME",
  "EAI_NODATA",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT"
])

// The subset of `NOT_SENT_CODES` that are name-resolution failures: the host name did not
// resolve (`ENOTFOUND`, `EAI_NONAME`, `EAI_NODATA`), or the resolver could not answer
// (`EAI_AGAIN` is temporary, `EAI_FAIL` is not).
const HOST_NOT_FOUND_CODES: ReadonlySet<string> = new Set([
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EAI_NONAME",
  "EAI_NODATA"
])

/**
 * Every `code` found on an error, its `cause` chain, and `AggregateError` members (undici and
 * Node's happy-eyeballs connect wrap the errno several levels down).
 *
 * @example
 * import { Transport } from "@shoplink/http"
 * const error = new Error("fetch failed", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) })
 * Transport.errorCodes(error) // ["ECONNREFUSED"]
 *
 * @since 0.1.0
 */
export const errorCodes = (error: unknown, depth = 0): ReadonlyArray<string> => {
  if (depth > 6 || typeof error !== "object" || error === null) return []
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown }
  const own = typeof record.code === "string" ? [record.code] : []
  const nested = Array.isArray(record.errors) ? record.errors.flatMap((e) => errorCodes(e, depth + 1)) : []
  return [...own, ...nested, ...errorCodes(record.cause, depth + 1)]
}

/**
 * Whether a transport failure happened before the request was sent (see `NOT_SENT_CODES`).
 *
 * @example
 * import { Transport } from "@shoplink/http"
 * Transport.neverSent(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })) // true
 *
 * @since 0.1.0
 */
export const neverSent = (error: unknown): boolean => errorCodes(error).some((code) => NOT_SENT_CODES.has(code))

/**
 * Why a request was never sent: the host name did not resolve (`HostNotFound`, see
 * `HOST_NOT_FOUND_CODES`), or no connection could be opened (`ConnectionRefused`: refused,
 * unreachable, connect timeout).
 *
 * @example
 * import type { Transport } from "@shoplink/http"
 * const reason: Transport.NotSentReason = "HostNotFound"
 *
 * @since 0.1.0
 */
export type NotSentReason = "HostNotFound" | "ConnectionRefused"

/**
 * Classifies a transport failure that happened before the request was sent, or `undefined` when
 * the request may have reached the server. A DNS failure wins over any other code in the chain.
 *
 * @example
 * import { Transport } from "@shoplink/http"
 * const dns = Object.assign(new Error("getaddrinfo ENOTFOUND shoplink-nonexistent.invalid"), { code: "ENOTFOUND" })
 * Transport.notSentReason(new Error("fetch failed", { cause: dns })) // "HostNotFound"
 * Transport.notSentReason(Object.assign(new Error("connect"), { code: "ECONNREFUSED" })) // "ConnectionRefused"
 * Transport.notSentReason(Object.assign(new Error("reset"), { code: "ECONNRESET" })) // undefined
 *
 * @since 0.1.0
 */
export const notSentReason = (error: unknown): NotSentReason | undefined => {
  const codes = errorCodes(error)
  if (codes.some((code) => HOST_NOT_FOUND_CODES.has(code))) return "HostNotFound"
  return codes.some((code) => NOT_SENT_CODES.has(code)) ? "ConnectionRefused" : undefined
}

/**
 * The distinct messages of an error and its causes, joined: "fetch failed: connect ECONNREFUSED …".
 *
 * @example
 * import { Transport } from "@shoplink/http"
 * Transport.describeCause(new Error("fetch failed", { cause: new Error("other side closed") }))
 * // "fetch failed: other side closed"
 *
 * @since 0.1.0
 */
export const describeCause = (error: unknown): string => {
  const parts: Array<string> = []
  let current: unknown = error
  for (let i = 0; i < 4 && typeof current === "object" && current !== null; i++) {
    const message = (current as { message?: unknown }).message
    if (typeof message === "string" && message !== "" && !parts.includes(message)) parts.push(message)
    current = (current as { cause?: unknown }).cause
  }
  return parts.join(": ") || "transport failure"
}

/**
 * A `Retry-After` header (delay-seconds or an HTTP date) as milliseconds from `now`, or
 * `undefined` when absent or unreadable.
 *
 * @example
 * import { Transport } from "@shoplink/http"
 * Transport.retryAfterMillis("3", Date.now()) // 3000
 * Transport.retryAfterMillis("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("2015-10-21T07:27:00Z")) // 60000
 *
 * @since 0.1.0
 */
export const retryAfterMillis = (value: string | undefined, now: number): number | undefined => {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (trimmed === "") return undefined
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}
