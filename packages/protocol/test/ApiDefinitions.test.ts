import { OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Context } from "effect"
import { ApiAnnotations, OrderManagement, OrderManagementApi, Punchout, PunchoutApi } from "@shoplink/protocol"

describe("PunchoutApi", () => {
  it("defines create, the API commands and the pages with the clients' retry modes", () => {
    expect(PunchoutApi.routes.map((r) => `${r.method} ${r.path} ${r.idempotency}`)).toEqual([
      "POST /punchout/v1/create idempotent",
      "POST /punchout/v1/GetProductQuotes idempotent",
      "POST /punchout/v1/CreateOrder unsafe",
      "POST /punchout/v1/SubmitOrder unsafe",
      "POST /punchout/v1/ReserveOrder idempotent",
      "GET /punchout/v1/ShowCatalog idempotent",
      "GET /punchout/v1/ShowOrder idempotent"
    ])
    // The command names are the definition's own (Punchout.Command is read from its type).
    const commands: ReadonlyArray<Punchout.Command> = [
      "GetProductQuotes",
      "CreateOrder",
      "SubmitOrder",
      "ReserveOrder",
      "ShowCatalog",
      "ShowOrder"
    ]
    const pages: ReadonlyArray<Punchout.BrowserCommand> = ["ShowCatalog", "ShowOrder"]
    expect(PunchoutApi.routes.filter((r) => r.name !== "create").map((r) => r.name)).toEqual(commands)
    expect(PunchoutApi.routes.filter((r) => r.method === "GET").map((r) => r.name)).toEqual(pages)
  })

  it("route() gives the protocol schemas, the token placement and the pages' content type", () => {
    const quotes = PunchoutApi.route("GetProductQuotes")
    expect(quotes.payload).toBe(Punchout.GetProductQuotesRequest)
    expect(quotes.success).toBe(Punchout.GetProductQuotesResponse)
    expect(quotes.auth).toEqual([{ name: "token", in: "query" }])
    expect(quotes.relativePath).toBe("/GetProductQuotes")
    expect(PunchoutApi.route("create").auth).toEqual([])
    const page = PunchoutApi.route("ShowOrder")
    expect(page.successContentType).toBe("text/html")
    expect(Object.keys((page.urlParams as any).fields)).toEqual(["orderId", "referenceID"])
  })

  it("the annotation is readable on the HttpApi endpoint itself", () => {
    const endpoints = PunchoutApi.PunchoutApi.groups["punchout"]!.endpoints
    const mode = (name: string) =>
      Context.unsafeGet(
        endpoints[name]!.annotations as Context.Context<ApiAnnotations.Idempotency>,
        ApiAnnotations.Idempotency
      )
    expect(mode("CreateOrder")).toBe("unsafe")
    expect(mode("ReserveOrder")).toBe("idempotent")
  })

  it("generates an OpenAPI document with typed parameters and the token security scheme", () => {
    const doc = OpenApi.fromApi(PunchoutApi.PunchoutApi) as any
    expect(Object.keys(doc.paths)).toHaveLength(7)
    const catalog = doc.paths["/punchout/v1/ShowCatalog"].get
    expect(catalog.security).toEqual([{ token: [] }])
    expect(catalog.parameters.find((p: any) => p.name === "vin").schema).toEqual({ $ref: "#/components/schemas/Vin" })
    expect(doc.paths["/punchout/v1/CreateOrder"].post["x-shoplink-idempotency"]).toBe("unsafe")
    expect(doc.components.securitySchemes.token).toMatchObject({ type: "apiKey", in: "query", name: "token" })
    expect(Object.keys(doc.components.schemas).every((n) => /^[A-Za-z0-9._-]+$/.test(n))).toBe(true)
  })
})

describe("OrderManagementApi", () => {
  it("defines every endpoint below /web/services/{environment}, assumptions marked", () => {
    expect(
      OrderManagementApi.routes.map((r) =>
        `${r.method} ${r.relativePath} ${r.idempotency}${r.assumption ? " assumed" : ""}`
      )
    ).toEqual([
      "GET /accountDetails idempotent",
      "POST /createOrder unsafe",
      "POST /priceAndAvailablity_v2 idempotent",
      "POST /priceAndAvailability_v2 idempotent",
      "POST /priceAndAvailability idempotent",
      "GET /orderDetails idempotent",
      "GET /invoiceDetails idempotent",
      "GET /productDetails idempotent",
      "GET /productDigitalAsset idempotent",
      "POST /submitOrder unsafe assumed",
      "POST /openOrder idempotent assumed",
      "POST /deleteOrder idempotent assumed"
    ])
    expect(OrderManagementApi.routes.every((r) => r.path === `${OrderManagementApi.BASE_PATH}${r.relativePath}`)).toBe(
      true
    )
  })

  it("route() gives the schemas and both credentials", () => {
    const details = OrderManagementApi.route("orderDetails")
    expect(details.success).toBe(OrderManagement.OrderDetailsResponse)
    expect(details.auth).toEqual([{ name: "APIKey", in: "header" }, { name: "APIToken", in: "query" }])
    expect(OrderManagementApi.route("createOrder").payload).toBe(OrderManagement.CreateOrderRequest)
    expect(OrderManagementApi.route("submitOrder").description).toMatch(/assumption/)
  })

  it("generates an OpenAPI document: query parameters typed, one security requirement naming both credentials", () => {
    const doc = OpenApi.fromApi(OrderManagementApi.OrderManagementApi) as any
    const account = doc.paths["/web/services/{environment}/accountDetails"].get
    expect(account.parameters.map((p: any) => `${p.in}:${p.name}:${p.required}`)).toEqual([
      "path:environment:true",
      "query:customerAccountNo:true",
      "query:submitDate:true"
    ])
    expect(account.security).toEqual([{ APIKey: [], APIToken: [] }])
    expect(doc.paths["/web/services/{environment}/createOrder"].post["x-shoplink-idempotency"]).toBe("unsafe")
    expect(doc.paths["/web/services/{environment}/priceAndAvailability"].post.deprecated).toBe(true)
  })
})
