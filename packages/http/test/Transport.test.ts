import { describe, expect, it } from "@effect/vitest"
import { Transport } from "@shoplink/http"
import { closedPort } from "@shoplink/vitest-config/net"

describe("Transport", () => {
  it("recognises a refused connection from a real fetch, down the cause chain", async () => {
    const port = await closedPort()
    const error = await fetch(`http://127.0.0.1:${port}/`).then(() => undefined, (e: unknown) => e)
    expect(Transport.errorCodes(error)).toContain("ECONNREFUSED")
    expect(Transport.neverSent(error)).toBe(true)
    expect(Transport.describeCause(error)).toMatch(/fetch failed: .*ECONNREFUSED/)
  })

  it("finds codes in AggregateError members and treats resets and timeouts after sending as possibly sent", () => {
    const aggregate = new AggregateError([Object.assign(new Error("a"), { code: "EHOSTUNREACH" })], "connect failed")
    expect(Transport.neverSent(new Error("outer", { cause: aggregate }))).toBe(true)
    expect(Transport.neverSent(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBe(false)
    expect(Transport.neverSent(Object.assign(new Error("body timeout"), { code: "UND_ERR_BODY_TIMEOUT" }))).toBe(false)
    expect(Transport.neverSent("not an error")).toBe(false)
    expect(Transport.describeCause(undefined)).toBe("transport failure")
  })

  it("a host name that does not resolve is HostNotFound (a real fetch), a refused connection ConnectionRefused", async () => {
    const dns = await fetch("http://shoplink-nonexistent.invalid/").then(() => undefined, (e: unknown) => e)
    expect(Transport.errorCodes(dns)).toContain("ENOTFOUND")
    expect(Transport.notSentReason(dns)).toBe("HostNotFound")
    expect(Transport.neverSent(dns)).toBe(true)
    const port = await closedPort()
    const refused = await fetch(`http://127.0.0.1:${port}/`).then(() => undefined, (e: unknown) => e)
    expect(Transport.notSentReason(refused)).toBe("ConnectionRefused")
  })

  it("a resolver that cannot answer (EAI_AGAIN) is HostNotFound too; a reset was maybe sent", () => {
    const again = Object.assign(new Error("getaddrinfo EAI_AGAIN distributor.example"), { code: "EAI_AGAIN" })
    expect(Transport.notSentReason(new Error("fetch failed", { cause: again }))).toBe("HostNotFound")
    const unreachable = new AggregateError([Object.assign(new Error("a"), { code: "EHOSTUNREACH" })], "connect failed")
    expect(Transport.notSentReason(unreachable)).toBe("ConnectionRefused")
    expect(Transport.notSentReason(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBeUndefined()
    expect(Transport.notSentReason("not an error")).toBeUndefined()
  })

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2026-11-21T12:00:00Z")
    expect(Transport.retryAfterMillis("0", now)).toBe(0)
    expect(Transport.retryAfterMillis(" 120 ", now)).toBe(120_000)
    expect(Transport.retryAfterMillis("Sat, 21 Nov 2026 12:00:30 GMT", now)).toBe(30_000)
    expect(Transport.retryAfterMillis("Sat, 21 Nov 2026 11:00:00 GMT", now)).toBe(0)
    expect(Transport.retryAfterMillis("soon", now)).toBeUndefined()
    expect(Transport.retryAfterMillis("", now)).toBeUndefined()
    expect(Transport.retryAfterMillis(undefined, now)).toBeUndefined()
  })
})
