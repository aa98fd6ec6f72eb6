/**
 * One tagged template for every page Shoplink serves: interpolated values are escaped unless they
 * are themselves `html` fragments, so a value cannot reach a page unescaped by forgetting to escape
 * it. Arrays are joined; `undefined`, `null` and `false` render nothing. And one response for every
 * page (`page`), with the security headers: a Content-Security-Policy that allows no script at
 * all, no framing, `nosniff`, no Referer, not cached.
 *
 * @since 0.1.0
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"

const RAW: unique symbol = Symbol.for("@shoplink/http/html")

/**
 * A fragment of trusted HTML (made only by `html`).
 *
 * @example
 * import { Html } from "@shoplink/http"
 * const title: Html.Html = Html.html`<h1>Parts</h1>`
 *
 * @since 0.1.0
 */
export interface Html {
  readonly [RAW]: string
}

const escapeText = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

const isHtml = (value: unknown): value is Html => typeof value === "object" && value !== null && RAW in value

const render = (value: unknown): string =>
  value === undefined || value === null || value === false
    ? ""
    : Array.isArray(value)
    ? value.map(render).join("")
    : isHtml(value)
    ? value[RAW]
    : escapeText(String(value))

/**
 * The tag: escapes every interpolated value that is not itself a fragment.
 *
 * @example
 * import { Html } from "@shoplink/http"
 * const name = "<script>alert(1)</script>"
 * Html.toHtmlString(Html.html`<p>${name}</p>`) // "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"
 *
 * @since 0.1.0
 */
export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<unknown>): Html => {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!
  return { [RAW]: out }
}

/**
 * The fragment's text, to send as a response body.
 *
 * @example
 * import { Html } from "@shoplink/http"
 * Html.toHtmlString(Html.html`<p>${"a & b"}</p>`) // "<p>a &amp; b</p>"
 *
 * @since 0.1.0
 */
export const toHtmlString = (fragment: Html): string => fragment[RAW]

/**
 * A URL fit for an `href`: only http(s); a `javascript:` URL from an adapter must not become a link.
 *
 * @example
 * import { Html } from "@shoplink/http"
 * Html.safeHref("javascript:alert(1)") // undefined
 *
 * @since 0.1.0
 */
export const safeHref = (url: string | undefined): string | undefined =>
  url !== undefined && /^https?:\/\//i.test(url) ? url : undefined

/**
 * What a page may load beyond itself. Scripts are never allowed (no page has one).
 *
 * - `styleSrc`: sources of its styles (default `'unsafe-inline'`, for the page's own `<style>`;
 *   give a `'sha256-…'` hash to allow exactly one stylesheet);
 * - `formAction`: where its forms may post, and be redirected to (default `'self'` only);
 * - `headers`: more response headers (they cannot replace the security headers).
 *
 * @example
 * import type { Html } from "@shoplink/http"
 * const options: Html.PageOptions = { status: 404, formAction: ["'self'", "https://catalog.example"] }
 *
 * @since 0.1.0
 */
export interface PageOptions {
  readonly status?: number | undefined
  readonly styleSrc?: ReadonlyArray<string> | undefined
  readonly formAction?: ReadonlyArray<string> | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/**
 * The Content-Security-Policy of a page: `default-src 'none'` (so no script, frame, font or
 * connection), its styles, images from itself, its form targets, `frame-ancestors 'none'` and
 * `base-uri 'none'`.
 *
 * @example
 * import { Html } from "@shoplink/http"
 * Html.contentSecurityPolicy() // "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self';
 * //   frame-ancestors 'none'; base-uri 'none'"
 *
 * @since 0.1.0
 */
export const contentSecurityPolicy = (options: PageOptions = {}): string =>
  [
    "default-src 'none'",
    `style-src ${(options.styleSrc ?? ["'unsafe-inline'"]).join(" ")}`,
    "img-src 'self'",
    `form-action ${(options.formAction ?? ["'self'"]).join(" ")}`,
    "frame-ancestors 'none'",
    "base-uri 'none'"
  ].join("; ")

// The headers of `page`.
const pageHeaders = (options: PageOptions = {}): Record<string, string> => ({
  "cache-control": "no-store",
  ...options.headers,
  "content-security-policy": contentSecurityPolicy(options),
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer"
})

/**
 * A page as an `HttpServerResponse`: `text/html; charset=utf-8`, `options.status` (default 200),
 * with the headers every page is sent with: `content-security-policy` (`contentSecurityPolicy`),
 * `x-frame-options: DENY`, `x-content-type-options: nosniff`, `referrer-policy: no-referrer` and
 * `cache-control: no-store`, after `options.headers`.
 *
 * @example
 * import { Html } from "@shoplink/http"
 * const response = Html.page(Html.html`<!doctype html><title>Parts</title><p>${"a & b"}</p>`, { status: 200 })
 *
 * @since 0.1.0
 */
export const page = (body: Html | string, options: PageOptions = {}): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(typeof body === "string" ? body : body[RAW], {
    status: options.status ?? 200,
    contentType: "text/html; charset=utf-8",
    headers: pageHeaders(options)
  })
