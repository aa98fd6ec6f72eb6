// OpenAPI 3.1 documents for both APIs, generated from the @shoplink/protocol schemas.
import { JSONSchema, type Schema } from "effect"
import { Envelope, OrderManagement, Punchout } from "@shoplink/protocol"
import { escapeHtml as h } from "./context.js"
import { SERVER_VERSION } from "./wire.js"

type AnySchema = Schema.Schema<any, any, never>

/** The JSON Schema of a protocol schema's wire (encoded) side, hoisting its definitions. */
const ref = (name: string, schema: AnySchema, store: Record<string, unknown>): { $ref: string } => {
  if (!(name in store)) {
    let generated: Record<string, unknown>
    try {
      generated = JSONSchema.make(schema, { target: "openApi3.1" }) as unknown as Record<string, unknown>
    } catch {
      generated = { type: "object", description: `${name} (see @shoplink/protocol)` }
    }
    const { $defs, $schema, ...rest } = generated as { $defs?: Record<string, unknown>; $schema?: string }
    void $schema
    for (const [k, v] of Object.entries($defs ?? {})) store[k] = v
    // An identified schema comes back as a $ref to its own definition: keep the definition.
    if ((rest as { $ref?: string }).$ref !== `#/$defs/${name}`) store[name] = rest
  }
  return { $ref: `#/components/schemas/${name}` }
}

// OpenAPI component names allow only [A-Za-z0-9._-]: "Epoch(seconds)" becomes "Epoch_seconds".
const componentName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/_+$/, "")

const rewriteRefs = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value).replace(
      /"#\/(?:\$defs|components\/schemas)\/([^"]+)"/g,
      (_, name: string) => `"#/components/schemas/${componentName(name)}"`
    )
  )

interface Operation {
  readonly method: "get" | "post"
  readonly path: string
  readonly summary: string
  readonly request?: { readonly name: string; readonly schema: AnySchema }
  readonly query?: ReadonlyArray<{ readonly name: string; readonly required: boolean; readonly description: string }>
  readonly response: { readonly name: string; readonly schema: AnySchema } | "html"
}

const document = (title: string, description: string, operations: ReadonlyArray<Operation>, security: Record<string, unknown>) => {
  const schemas: Record<string, unknown> = {}
  const errorRef = ref("StatusEnvelope", Envelope.StatusEnvelope, schemas)
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of operations) {
    paths[op.path] ??= {}
    paths[op.path]![op.method] = {
      summary: op.summary,
      ...(op.query === undefined ? {} : {
        parameters: op.query.map((q) => ({ name: q.name, in: "query", required: q.required, description: q.description, schema: { type: "string" } }))
      }),
      ...(op.request === undefined ? {} : {
        requestBody: { required: true, content: { "application/json": { schema: ref(op.request.name, op.request.schema, schemas) } } }
      }),
      responses: {
        "200": op.response === "html"
          ? { description: "An ordering page", content: { "text/html": { schema: { type: "string" } } } }
          : { description: "Success", content: { "application/json": { schema: ref(op.response.name, op.response.schema, schemas) } } },
        default: { description: "Error envelope (decode it whatever the HTTP status)", content: { "application/json": { schema: errorRef } } }
      }
    }
  }
  return rewriteRefs({
    openapi: "3.1.0",
    info: { title, version: SERVER_VERSION, description },
    paths,
    components: { schemas: Object.fromEntries(Object.entries(schemas).map(([k, v]) => [componentName(k), v])), ...security }
  })
}

const tokenQuery = [{ name: "token", required: true, description: "Session token from create" }]
const omsQuery = (names: ReadonlyArray<string>) => [
  { name: "APIToken", required: true, description: "The customer's API token" },
  ...names.map((name) => ({ name, required: false, description: name }))
]

export const punchoutDocument = () =>
  document(
    "Vendor Punchout API (Shoplink sandbox)",
    "Sessions, commands and ordering pages. Commands are POST {base}/punchout/v1/{command}?token=<session token>.",
    [
      { method: "post", path: "/punchout/v1/create", summary: "Create a punchout session", request: { name: "CreateSessionRequest", schema: Punchout.CreateSessionRequest }, response: { name: "CreateSessionResponse", schema: Punchout.CreateSessionResponse } },
      { method: "post", path: "/punchout/v1/GetProductQuotes", summary: "Search products or price an exact product", query: tokenQuery, request: { name: "GetProductQuotesRequest", schema: Punchout.GetProductQuotesRequest }, response: { name: "GetProductQuotesResponse", schema: Punchout.GetProductQuotesResponse } },
      { method: "post", path: "/punchout/v1/CreateOrder", summary: "Create an order (one product, or several in quotes[])", query: tokenQuery, request: { name: "CreateOrderRequest", schema: Punchout.CreateOrderRequest }, response: { name: "OrderResponse", schema: Punchout.OrderResponse } },
      { method: "post", path: "/punchout/v1/SubmitOrder", summary: "Submit an order", query: tokenQuery, request: { name: "SubmitOrderRequest", schema: Punchout.SubmitOrderRequest }, response: { name: "OrderResponse", schema: Punchout.OrderResponse } },
      { method: "post", path: "/punchout/v1/ReserveOrder", summary: "Reallocate an expired order", query: tokenQuery, request: { name: "ReserveOrderRequest", schema: Punchout.ReserveOrderRequest }, response: { name: "ReserveOrderResponse", schema: Punchout.ReserveOrderResponse } },
      { method: "get", path: "/punchout/v1/ShowCatalog", summary: "Open the catalog (page)", query: [...tokenQuery, ...["searchTerm", "vin", "licensePlate", "licensePlateState", "baseVehicleID", "referenceID"].map((name) => ({ name, required: false, description: name }))], response: "html" },
      { method: "get", path: "/punchout/v1/ShowOrder", summary: "Open an order (page)", query: [...tokenQuery, { name: "orderId", required: true, description: "Order number" }, { name: "referenceID", required: false, description: "Sent back in a callback" }], response: "html" }
    ],
    {}
  )

export const orderManagementDocument = () => {
  const base = "/web/services/{environment}"
  return document(
    "Order Management REST API (Shoplink sandbox)",
    "Header APIKey and query APIToken on every call; environment is US_QUA, CA_QUA, US_PRD or CA_PRD. Paths beyond accountDetails and createOrder are assumptions.",
    [
      { method: "get", path: `${base}/accountDetails`, summary: "Account details", query: omsQuery(["customerAccountNo", "submitDate"]), response: { name: "AccountDetailsResponse", schema: OrderManagement.AccountDetailsResponse } },
      { method: "post", path: `${base}/createOrder`, summary: "Create an order (drop-ship with shippingAddress)", query: omsQuery([]), request: { name: "OmsCreateOrderRequest", schema: OrderManagement.CreateOrderRequest }, response: { name: "CreateOrderResponse", schema: OrderManagement.CreateOrderResponse } },
      { method: "post", path: `${base}/priceAndAvailablity_v2`, summary: "Price and availability v2 (spec spelling)", query: omsQuery([]), request: { name: "PriceAndAvailabilityRequest", schema: OrderManagement.PriceAndAvailabilityRequest }, response: { name: "PriceAndAvailabilityResponse", schema: OrderManagement.PriceAndAvailabilityResponse } },
      { method: "post", path: `${base}/priceAndAvailability_v2`, summary: "Price and availability v2", query: omsQuery([]), request: { name: "PriceAndAvailabilityRequest", schema: OrderManagement.PriceAndAvailabilityRequest }, response: { name: "PriceAndAvailabilityResponse", schema: OrderManagement.PriceAndAvailabilityResponse } },
      { method: "post", path: `${base}/priceAndAvailability`, summary: "Deprecated price and availability (one summary warehouse)", query: omsQuery([]), request: { name: "PriceAndAvailabilityRequest", schema: OrderManagement.PriceAndAvailabilityRequest }, response: { name: "PriceAndAvailabilityResponse", schema: OrderManagement.PriceAndAvailabilityResponse } },
      { method: "get", path: `${base}/orderDetails`, summary: "Order details", query: omsQuery(["customerAccountNo", "orderNo"]), response: { name: "OrderDetailsResponse", schema: OrderManagement.OrderDetailsResponse } },
      { method: "get", path: `${base}/invoiceDetails`, summary: "Invoice details (invoiceNo, or fromDate and toDate)", query: omsQuery(["customerAccountNo", "invoiceNo", "fromDate", "toDate"]), response: { name: "InvoiceDetailsResponse", schema: OrderManagement.InvoiceDetailsResponse } },
      { method: "get", path: `${base}/productDetails`, summary: "Product marketing content (brand and category levels) or a product search", query: omsQuery(["productID", "brandCode", "searchText", "categoryCode", "vehicleGroupId", "vin", "licensePlate", "licensePlateState"]), response: { name: "ProductDetailsResponse", schema: OrderManagement.ProductDetailsResponse } },
      { method: "get", path: `${base}/productDigitalAsset`, summary: "Digital assets of a product", query: omsQuery(["productID", "brandCode"]), response: { name: "DigitalAssetsResponse", schema: OrderManagement.DigitalAssetsResponse } }
    ],
    { securitySchemes: { APIKey: { type: "apiKey", in: "header", name: "APIKey" }, APIToken: { type: "apiKey", in: "query", name: "APIToken" } } }
  )
}

/** A readable page listing both documents' operations. */
export const docsPage = (): string => {
  const section = (title: string, href: string, doc: unknown) => {
    const paths = (doc as { paths: Record<string, Record<string, { summary: string }>> }).paths
    const rows = Object.entries(paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${h(path)}</code></td><td>${h(op.summary)}</td></tr>`)
    ).join("")
    return `<h2>${h(title)}</h2><p><a href="${href}">${href}</a> (OpenAPI 3.1)</p><table>${rows}</table>`
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shoplink sandbox API docs</title>
<style>body{font-family:system-ui,sans-serif;margin:20px}td{padding:4px 8px;border-bottom:1px solid #ddd}</style></head><body>
<h1>Shoplink sandbox</h1><p>Admin API: <a href="/__sandbox">/__sandbox</a></p>
${section("Vendor Punchout API", "/openapi/punchout.json", punchoutDocument())}
${section("Order Management API", "/openapi/order-management.json", orderManagementDocument())}
</body></html>`
}
