import { describe, expect, it } from "vitest"
import { Html } from "@shoplink/http"

describe("Html", () => {
  it("escapes interpolated text unless it is itself a fragment", () => {
    const name = `<script>alert("x")</script> & 'y'`
    const page = Html.toHtmlString(Html.html`<p>${name}</p>${Html.html`<b>kept</b>`}`)
    expect(page).toBe("<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p><b>kept</b>")
  })

  it("joins arrays and renders nothing for undefined, null and false", () => {
    const rows = ["a<", "b"].map((x) => Html.html`<li>${x}</li>`)
    expect(Html.toHtmlString(Html.html`<ul>${rows}${undefined}${null}${false}</ul>`)).toBe(
      "<ul><li>a&lt;</li><li>b</li></ul>"
    )
  })
})

describe("Html.page", () => {
  it("sends the page with a script-free CSP, no framing, nosniff, no Referer and no caching", () => {
    const response = Html.page(Html.html`<p>${"hi"}</p>`, {
      status: 404,
      formAction: ["'self'", "https://catalog.example"],
      headers: { "x-frame-options": "SAMEORIGIN", vary: "Cookie" }
    })
    expect(response.status).toBe(404)
    expect(response.body._tag === "Uint8Array" && response.body.contentType).toBe("text/html; charset=utf-8")
    expect(response.headers).toMatchObject({
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self' https://catalog.example; frame-ancestors 'none'; base-uri 'none'",
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
      vary: "Cookie"
    })
    expect(Html.contentSecurityPolicy()).not.toContain("script")
    expect(response.body._tag === "Uint8Array" && new TextDecoder().decode(response.body.body)).toBe("<p>hi</p>")
  })
})
