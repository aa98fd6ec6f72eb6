import { describe, expect, it } from "@effect/vitest"
import { Exchange, Retry, TransportError } from "@shoplink/http"
import { Duration, Effect, Schema } from "effect"

const where = { operation: "getRepairOrder", method: "GET", path: "/r/1" }
const context = { baseUrl: "https://sms.example", attempt: 2, now: 0, detail: "their message" }

class AcmeError extends Schema.TaggedError<AcmeError>()("AcmeError", Exchange.CallFailure) {
  get retryable(): boolean {
    return Exchange.callRetryable(this)
  }
  get notFound(): boolean {
    return Exchange.callNotFound(this)
  }
  override get message(): string {
    return Exchange.describeCall("Acme", this)
  }
}

describe("Exchange", () => {
  it("a status is retried, and a call failure retryable, exactly when Retry retries its UnexpectedResponse", () => {
    for (let status = 400; status < 600; status++) {
      const answer = new TransportError.UnexpectedResponse({
        operation: "x",
        reason: "HttpStatus",
        httpStatus: status,
        detail: ""
      })
      const rule = Retry.retryable(answer, "idempotent")
      expect(Retry.retryableStatus(status)).toBe(rule)
      expect(Exchange.callRetryable({ reason: "HttpStatus", status })).toBe(rule)
      expect(Exchange.retryableStatusError(where, { status, text: "", retryAfter: undefined }, context) !== undefined)
        .toBe(rule)
      expect(Retry.retryableStatus(status, "unsafe")).toBe(Retry.retryable(answer, "unsafe"))
    }
    expect(Exchange.callRetryable({ reason: "Timeout" })).toBe(true)
    expect(Exchange.callRetryable({ reason: "Transport" })).toBe(true)
    expect(Exchange.callRetryable({ reason: "Decode", status: 200 })).toBe(false)
    expect(Exchange.callRetryable({ reason: "InvalidRequest" })).toBe(false)
    expect(Exchange.callNotFound({ reason: "HttpStatus", status: 404 })).toBe(true)
    expect(Exchange.callNotFound({ reason: "HttpStatus", status: 410 })).toBe(false)
  })

  it("a retried status becomes RateLimited (429) or UnexpectedResponse, with its Retry-After", () => {
    const limited = Exchange.retryableStatusError(where, { status: 429, text: "", retryAfter: "3" }, context)
    expect(limited).toMatchObject({ _tag: "RateLimited", httpStatus: 429, attempt: 2, detail: "their message" })
    expect(limited?.retryAfter).toEqual(Duration.millis(3000))
    const down = Exchange.retryableStatusError(where, { status: 503, text: "", retryAfter: undefined }, context)
    expect(down).toMatchObject({
      _tag: "UnexpectedResponse",
      reason: "HttpStatus",
      httpStatus: 503,
      url: "https://sms.example/r/1",
      method: "GET"
    })
    expect(down?.retryAfter).toBeUndefined()
  })

  it("a transport error left after the retries becomes the client's call failure, in one line", () => {
    const timeout = new AcmeError(
      Exchange.fromTransportError(where, new TransportError.Timeout({ operation: "x", attempt: 4, detail: "late" }))
    )
    expect(timeout.message).toBe("Acme getRepairOrder (GET /r/1) failed: Timeout: late after 4 attempts")
    expect(timeout).toMatchObject({ requestSent: true, attempts: 4, retryable: true })
    const refused = new AcmeError(Exchange.fromTransportError(
      where,
      new TransportError.RequestFailed({
        operation: "x",
        reason: "ConnectionRefused",
        requestSent: false,
        detail: "ECONNREFUSED"
      })
    ))
    expect(refused).toMatchObject({ reason: "Transport", requestSent: false, attempts: 1, retryable: true })
    const unbuildable = Exchange.fromTransportError(
      where,
      new TransportError.RequestFailed({ operation: "x", reason: "InvalidRequest", requestSent: false, detail: "bad" })
    )
    expect(unbuildable.reason).toBe("InvalidRequest")
    const limited = new AcmeError(Exchange.fromTransportError(
      where,
      new TransportError.RateLimited({ operation: "x", attempt: 4, retryAfter: Duration.minutes(1) })
    ))
    expect(limited).toMatchObject({ reason: "HttpStatus", status: 429, retryAfterMillis: 60_000, retryable: true })
    expect(limited.message).toBe(
      "Acme getRepairOrder (GET /r/1) failed: HttpStatus 429: too many requests after 4 attempts"
    )
    const missing = new AcmeError({
      ...where,
      reason: "HttpStatus",
      status: 404,
      detail: "no",
      requestSent: true,
      attempts: 1
    })
    expect(missing).toMatchObject({ notFound: true, retryable: false })
    expect(missing.message).toBe("Acme getRepairOrder (GET /r/1) failed: HttpStatus 404: no")
  })

  it.effect("allPages follows pages from `first` until the last, an empty page, `limit` or `maxPages`", () =>
    Effect.gen(function*() {
      const asked: Array<number> = []
      const pages = [[1, 2], [3, 4], [5]]
      const page = (n: number) =>
        Effect.sync(() => {
          asked.push(n)
          return { results: pages[n - 1] ?? [], total: pages.length }
        })
      const all = (options: { readonly limit?: number; readonly maxPages?: number; readonly last?: boolean }) => {
        asked.length = 0
        return Exchange.allPages({
          first: 1,
          page,
          items: (p) => p.results,
          isLast: (p, n) => options.last !== false && n >= p.total,
          limit: options.limit,
          maxPages: options.maxPages
        })
      }
      expect(yield* all({})).toEqual([1, 2, 3, 4, 5])
      expect(asked).toEqual([1, 2, 3])
      expect(yield* all({ last: false })).toEqual([1, 2, 3, 4, 5])
      expect(asked).toEqual([1, 2, 3, 4])
      expect(yield* all({ limit: 3 })).toEqual([1, 2, 3, 4])
      expect(asked).toEqual([1, 2])
      expect(yield* all({ limit: 0 })).toEqual([])
      expect(asked).toEqual([])
      expect(yield* all({ maxPages: 1, last: false })).toEqual([1, 2])
      expect(asked).toEqual([1])
    }))
})
