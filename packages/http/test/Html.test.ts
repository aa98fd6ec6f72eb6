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
    expect(Html.toHtmlString(Html.html`<ul>${rows}${undefined}${null}${false}</ul>`)).toBe("<ul><li>a&lt;</li><li>b</li></ul>")
  })
})
