/**
 * HTTP transport facts every client of the distributor (and of a shop system) shares: whether a
 * failed request provably never reached the server — the only case in which a non-idempotent
 * command may be sent again — and how long a `Retry-After` header asks to wait.
 *
 * @since 0.1.0
 */

/**
 * Error codes (Node errno and undici) of failures that happen before a request is sent: the
 * connection was refused, the host did not resolve or was unreachable, or connecting timed out.
 *
 * @example
 * import { Transport } from "@shoplink/protocol"
 * Transport.NOT_SENT_CODES.has("ECONNREFUSED") // true
 * Transport.NOT_SENT_CODES.has("ECONNRESET") // false: the request may have arrived
 *
 * @since 0.1.0
 */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT"
])

/**
 * Every `code` found on an error, its `cause` chain, and `AggregateError` members (undici and
 * Node's happy-eyeballs connect wrap the errno several levels down).
 *
 * @example
 * import { Transport } from "@shoplink/protocol"
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
 * import { Transport } from "@shoplink/protocol"
 * Transport.neverSent(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })) // true
 *
 * @since 0.1.0
 */
export const neverSent = (error: unknown): boolean => errorCodes(error).some((code) => NOT_SENT_CODES.has(code))

/**
 * The distinct messages of an error and its causes, joined: "fetch failed: connect ECONNREFUSED …".
 *
 * @example
 * import { Transport } from "@shoplink/protocol"
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
 * import { Transport } from "@shoplink/protocol"
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
