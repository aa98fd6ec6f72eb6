// The OpenAPI documents and the docs page, generated from the API definitions (PunchoutApi and
// OrderManagementApi in @shoplink/protocol, SandboxApi here): nothing is listed by hand.
import type * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import { Html } from "@shoplink/http"
import { OrderManagementApi, PunchoutApi } from "@shoplink/protocol"
import { SandboxApi } from "../SandboxApi.js"
import { PATHS } from "./paths.js"
import { SERVER_VERSION } from "./wire.js"

const generate = (api: HttpApi.HttpApi.Any, title: string): OpenApi.OpenAPISpec => {
  const spec = OpenApi.fromApi(api as Parameters<typeof OpenApi.fromApi>[0])
  return { ...spec, info: { ...spec.info, title, version: SERVER_VERSION } }
}

let cache: {
  punchout: OpenApi.OpenAPISpec
  orderManagement: OpenApi.OpenAPISpec
  sandbox: OpenApi.OpenAPISpec
  page: string
} | undefined

/** The three documents and the docs page, made once per process (the definitions are constants). */
export const documents = () => {
  if (cache === undefined) {
    const punchout = generate(PunchoutApi.PunchoutApi, "Vendor Punchout API (Shoplink sandbox)")
    const orderManagement = generate(
      OrderManagementApi.OrderManagementApi,
      "Order Management REST API (Shoplink sandbox)"
    )
    const sandbox = generate(SandboxApi, "Shoplink sandbox API")
    cache = {
      punchout,
      orderManagement,
      sandbox,
      page: docsPage([
        ["Vendor Punchout API", PATHS.punchoutDocument, punchout],
        ["Order Management API", PATHS.orderManagementDocument, orderManagement],
        ["Sandbox API (admin, ordering actions, these documents)", PATHS.sandboxDocument, sandbox]
      ])
    }
  }
  return cache
}

/**
 * Inline markdown code in a summary or description: text between backticks becomes `<code>`, the
 * rest stays text (escaped like every value). An unpaired backtick is kept as is.
 */
export const inlineCode = (text: string): Html.Html => {
  const pieces = text.split("`")
  if (pieces.length % 2 === 0) return Html.html`${text}`
  return Html.html`${pieces.map((piece, i) => (i % 2 === 1 ? Html.html`<code>${piece}</code>` : piece))}`
}

const docsPage = (sections: ReadonlyArray<readonly [string, string, OpenApi.OpenAPISpec]>): string => {
  const section = ([title, href, doc]: readonly [string, string, OpenApi.OpenAPISpec]) => {
    const rows = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops as Record<string, { summary?: string; operationId: string; description?: string }>).map((
        [method, op]
      ) =>
        Html.html`<tr><td><code>${method.toUpperCase()}</code></td><td><code>${path}</code></td><td>${
          inlineCode(op.summary ?? op.operationId)
        }${op.description === undefined ? "" : Html.html` <small>${inlineCode(op.description)}</small>`}</td></tr>`
      )
    )
    return Html
      .html`<h2>${title}</h2><p><a href="${href}">${href}</a> (OpenAPI 3.1)</p><div class="scroll"><table>${rows}</table></div>`
  }
  return Html.toHtmlString(
    Html
      .html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shoplink sandbox API docs</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:12px 16px;line-height:1.4;overflow-wrap:anywhere}.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse}td{padding:4px 8px;border-bottom:1px solid #ddd;vertical-align:top}code{background:#f2f4f7;padding:0 2px}
td:first-child code,td:nth-child(2) code{white-space:nowrap}</style></head><body>
<h1>Shoplink sandbox</h1><p>Admin API: <a href="${PATHS.admin}">${PATHS.admin}</a></p>
${sections.map(section)}
</body></html>`
  )
}
