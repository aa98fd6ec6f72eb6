// A response whose body is already in memory: every accessor is synchronous and can be read any
// number of times, and nothing has to be released or aborted after the exchange has ended.
import * as Cookies from "@effect/platform/Cookies"
import * as Headers from "@effect/platform/Headers"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as UrlParams from "@effect/platform/UrlParams"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Effect from "effect/Effect"
import * as Inspectable from "effect/Inspectable"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { IncomingHttpHeaders } from "node:http"

/** The request's URL without query and fragment: session tokens travel in queries. */
const safeUrl = (url: string): string => {
  const cut = url.search(/[?#]/)
  return cut === -1 ? url : url.slice(0, cut)
}

const EMPTY = Buffer.alloc(0)

export class BufferedResponse extends Inspectable.Class implements HttpClientResponse.HttpClientResponse {
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  readonly [HttpClientResponse.TypeId]: HttpClientResponse.TypeId = HttpClientResponse.TypeId
  private cachedHeaders: Headers.Headers | undefined
  private cachedCookies: Cookies.Cookies | undefined
  private cachedText: string | undefined

  constructor(
    readonly request: HttpClientRequest.HttpClientRequest,
    readonly status: number,
    private readonly rawHeaders: IncomingHttpHeaders,
    private readonly bytes: Buffer = EMPTY
  ) {
    super()
  }

  get headers(): Headers.Headers {
    return this.cachedHeaders ??= Headers.fromInput(this.rawHeaders)
  }

  get cookies(): Cookies.Cookies {
    if (this.cachedCookies === undefined) {
      // From the raw header: Headers joins repeated set-cookie lines with ", ", which is ambiguous.
      const setCookie = this.rawHeaders["set-cookie"]
      this.cachedCookies = setCookie === undefined
        ? Cookies.empty
        : Cookies.fromSetCookie(Array.isArray(setCookie) ? setCookie : [setCookie])
    }
    return this.cachedCookies
  }

  get remoteAddress(): Option.Option<string> {
    return Option.none()
  }

  private decodeText(): string {
    if (this.cachedText === undefined) {
      const bytes = this.bytes
      // Like the fetch body mixin: a UTF-8 byte order mark is not part of the text.
      const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
      this.cachedText = bytes.toString("utf8", bom ? 3 : 0)
    }
    return this.cachedText
  }

  private decodeError(cause: unknown): HttpClientError.ResponseError {
    return new HttpClientError.ResponseError({ request: this.request, response: this, reason: "Decode", cause })
  }

  get text(): Effect.Effect<string, HttpClientError.ResponseError> {
    return Effect.sync(() => this.decodeText())
  }

  get json(): Effect.Effect<unknown, HttpClientError.ResponseError> {
    return Effect.try({
      try: () => {
        const text = this.decodeText()
        return text === "" ? null : JSON.parse(text) as unknown
      },
      catch: (cause) => this.decodeError(cause)
    })
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpClientError.ResponseError> {
    // A copy: the bytes may share a pooled ArrayBuffer with other data.
    return Effect.sync(() => {
      const copy = new ArrayBuffer(this.bytes.byteLength)
      new Uint8Array(copy).set(this.bytes)
      return copy
    })
  }

  get stream(): Stream.Stream<Uint8Array, HttpClientError.ResponseError> {
    return this.bytes.byteLength === 0 ? Stream.empty : Stream.succeed(new Uint8Array(this.bytes))
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpClientError.ResponseError> {
    return Effect.try({
      try: () => UrlParams.fromInput(new URLSearchParams(this.decodeText())),
      catch: (cause) => this.decodeError(cause)
    })
  }

  get formData(): Effect.Effect<FormData, HttpClientError.ResponseError> {
    // The web Response does the multipart and urlencoded parsing from the buffered bytes.
    return Effect.tryPromise({
      try: () => {
        const contentType = this.rawHeaders["content-type"]
        const init = contentType === undefined ? {} : { headers: { "content-type": contentType } }
        return new Response(new Uint8Array(this.bytes), init).formData()
      },
      catch: (cause) => this.decodeError(cause)
    })
  }

  toJSON(): unknown {
    // No body and no query: either may carry a token (a session URL, a create-session answer).
    return {
      _id: "@effect/platform/HttpClientResponse",
      request: { method: this.request.method, url: safeUrl(this.request.url) },
      status: this.status,
      headers: Inspectable.redact(this.headers)
    }
  }
}
