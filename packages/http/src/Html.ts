/**
 * One tagged template for every page Shoplink serves: interpolated values are escaped unless they
 * are themselves `html` fragments, so a value cannot reach a page unescaped by forgetting to escape
 * it. Arrays are joined; `undefined`, `null` and `false` render nothing.
 *
 * @since 0.1.0
 */
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
