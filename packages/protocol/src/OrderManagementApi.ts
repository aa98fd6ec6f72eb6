/**
 * The Order Management REST API as one `HttpApi` definition: every endpoint below
 * `/web/services/{environment}` with its method, parameters, payload and success schema, the
 * credentials (`APIKey` header and `APIToken` query parameter, both on every call), and whether
 * a request may be repeated. The sandbox serves it, the OpenAPI document is generated from it,
 * and the clients read their method, path and schemas from it (`route`).
 *
 * @since 0.1.0
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  Assumption,
  type AuthPlacement,
  componentNames,
  type EndpointNameOf,
  type Route,
  routesOf,
  withIdempotency
} from "./ApiAnnotations.js"
import { StatusEnvelope } from "./Envelope.js"
import {
  AccountDetailsRequest,
  AccountDetailsResponse,
  InvoiceDetailsRequest,
  InvoiceDetailsResponse
} from "./oms/Account.js"
import { OMS_SERVICES } from "./internal/paths.js"
import { Environment } from "./oms/Environment.js"
import { CreateOrderRequest, CreateOrderResponse, OrderDetailsRequest, OrderDetailsResponse } from "./oms/Orders.js"
import {
  DigitalAssetsResponse,
  PriceAndAvailabilityRequest,
  PriceAndAvailabilityResponse,
  ProductDetailsResponse,
  ProductRef,
  ProductSearch
} from "./oms/Products.js"
import { LicensePlate } from "./Values.js"

/**
 * The credentials of every Order Management call: the `APIKey` header (the vendor's key) and
 * the `APIToken` query parameter (the customer's token). Both are required together; the OpenAPI
 * document lists them as one security requirement.
 *
 * @example
 * import { OrderManagementApi } from "@shoplink/protocol"
 * OrderManagementApi.OmsCredentials.security.APIKey.in // "header"
 *
 * @since 0.1.0
 */
export class OmsCredentials
  extends HttpApiMiddleware.Tag<OmsCredentials>()("@shoplink/protocol/OrderManagementApi/OmsCredentials", {
    security: {
      APIKey: HttpApiSecurity.apiKey({ key: "APIKey", in: "header" }),
      APIToken: HttpApiSecurity.apiKey({ key: "APIToken", in: "query" })
    }
  })
{}

// The path parameter every endpoint has: the environment (`US_QUA`, `CA_QUA`, `US_PRD`, `CA_PRD`).
const EnvironmentPath = Schema.Struct({ environment: Environment })

/**
 * productDetails query parameters, flat as they travel: a product (`productID` with `brandCode`)
 * or a search (`searchText`, `categoryCode`, `vehicleGroupId`, `vin`, `licensePlate` with
 * `licensePlateState`). At least one criterion is needed (API0203).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagementApi } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagementApi.ProductDetailsQuery)({ productID: "51515", brandCode: "WIX" })
 *
 * @since 0.1.0
 */
export const ProductDetailsQuery = Schema.partialWith(
  Schema.Struct({ ...ProductRef.fields, ...ProductSearch.from.omit("licensePlate").fields, ...LicensePlate.fields }),
  { exact: true }
)

/**
 * productDigitalAsset query parameters: the product.
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagementApi } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagementApi.DigitalAssetQuery)({ productID: "51515", brandCode: "WIX" })
 *
 * @since 0.1.0
 */
export const DigitalAssetQuery = Schema.Struct(ProductRef.fields)

/**
 * The body of the assumed order changes (`submitOrder`, `openOrder`, `deleteOrder`): the account
 * and the order number.
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagementApi } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagementApi.OrderChangeRequest)({ customerAccountNo: "100200", orderNo: "5000123" })
 *
 * @since 0.1.0
 */
export const OrderChangeRequest = Schema.Struct(OrderDetailsRequest.fields).annotations({
  identifier: "OrderChangeRequest"
})

/**
 * What `deleteOrder` answers (assumed): the envelope, the account and the deleted order's number.
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagementApi } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagementApi.DeleteOrderResponse)({
 *   status: { code: 200, message: { ID: "API0200", text: "Successful" } },
 *   customerAccountNo: 100200,
 *   orderHeader: { orderNo: "5000123" }
 * })
 *
 * @since 0.1.0
 */
export const DeleteOrderResponse = OrderDetailsResponse.omit("orderLines").annotations({
  identifier: "DeleteOrderResponse"
})

const BASE = `${OMS_SERVICES}/:environment` as const

const ASSUMED = "A sandbox assumption: the specification does not define this endpoint."

const accountDetails = HttpApiEndpoint.get("accountDetails", `${BASE}/accountDetails`)
  .setPath(EnvironmentPath)
  .setUrlParams(Schema.Struct(AccountDetailsRequest.fields))
  .addSuccess(AccountDetailsResponse)
  .annotate(OpenApi.Summary, "Account details")
  .pipe(withIdempotency("idempotent"))

const createOrder = HttpApiEndpoint.post("createOrder", `${BASE}/createOrder`)
  .setPath(EnvironmentPath)
  .setPayload(CreateOrderRequest)
  .addSuccess(CreateOrderResponse)
  .annotate(OpenApi.Summary, "Create an order (drop-ship with shippingAddress)")
  .pipe(withIdempotency("unsafe"))

const priceAndAvailablity_v2 = HttpApiEndpoint.post("priceAndAvailablity_v2", `${BASE}/priceAndAvailablity_v2`)
  .setPath(EnvironmentPath)
  .setPayload(PriceAndAvailabilityRequest)
  .addSuccess(PriceAndAvailabilityResponse)
  .annotate(OpenApi.Summary, "Price and availability v2 (the spec's spelling)")
  .pipe(withIdempotency("idempotent"))

const priceAndAvailability_v2 = HttpApiEndpoint.post("priceAndAvailability_v2", `${BASE}/priceAndAvailability_v2`)
  .setPath(EnvironmentPath)
  .setPayload(PriceAndAvailabilityRequest)
  .addSuccess(PriceAndAvailabilityResponse)
  .annotate(OpenApi.Summary, "Price and availability v2")
  .pipe(withIdempotency("idempotent"))

const priceAndAvailability = HttpApiEndpoint.post("priceAndAvailability", `${BASE}/priceAndAvailability`)
  .setPath(EnvironmentPath)
  .setPayload(PriceAndAvailabilityRequest)
  .addSuccess(PriceAndAvailabilityResponse)
  .annotate(OpenApi.Summary, "Deprecated price and availability (one summary warehouse)")
  .annotate(OpenApi.Deprecated, true)
  .pipe(withIdempotency("idempotent"))

const orderDetails = HttpApiEndpoint.get("orderDetails", `${BASE}/orderDetails`)
  .setPath(EnvironmentPath)
  .setUrlParams(Schema.Struct(OrderDetailsRequest.fields))
  .addSuccess(OrderDetailsResponse)
  .annotate(OpenApi.Summary, "Order details")
  .pipe(withIdempotency("idempotent"))

const invoiceDetails = HttpApiEndpoint.get("invoiceDetails", `${BASE}/invoiceDetails`)
  .setPath(EnvironmentPath)
  .setUrlParams(Schema.Struct(InvoiceDetailsRequest.fields))
  .addSuccess(InvoiceDetailsResponse)
  .annotate(OpenApi.Summary, "Invoice details (invoiceNo, or fromDate and toDate)")
  .pipe(withIdempotency("idempotent"))

const productDetails = HttpApiEndpoint.get("productDetails", `${BASE}/productDetails`)
  .setPath(EnvironmentPath)
  .setUrlParams(ProductDetailsQuery)
  .addSuccess(ProductDetailsResponse)
  .annotate(OpenApi.Summary, "Product marketing content (brand and category levels) or a product search")
  .pipe(withIdempotency("idempotent"))

const productDigitalAsset = HttpApiEndpoint.get("productDigitalAsset", `${BASE}/productDigitalAsset`)
  .setPath(EnvironmentPath)
  .setUrlParams(DigitalAssetQuery)
  .addSuccess(DigitalAssetsResponse)
  .annotate(OpenApi.Summary, "Digital assets of a product")
  .pipe(withIdempotency("idempotent"))

const submitOrder = HttpApiEndpoint.post("submitOrder", `${BASE}/submitOrder`)
  .setPath(EnvironmentPath)
  .setPayload(OrderChangeRequest)
  .addSuccess(OrderDetailsResponse)
  .annotate(OpenApi.Summary, "Submit a saved or cart order")
  .annotate(OpenApi.Description, ASSUMED)
  .annotate(Assumption, true)
  .pipe(withIdempotency("unsafe"))

const openOrder = HttpApiEndpoint.post("openOrder", `${BASE}/openOrder`)
  .setPath(EnvironmentPath)
  .setPayload(OrderChangeRequest)
  .addSuccess(OrderDetailsResponse)
  .annotate(OpenApi.Summary, "Open an order again (reallocating an expired one)")
  .annotate(OpenApi.Description, ASSUMED)
  .annotate(Assumption, true)
  .pipe(withIdempotency("idempotent"))

const deleteOrder = HttpApiEndpoint.post("deleteOrder", `${BASE}/deleteOrder`)
  .setPath(EnvironmentPath)
  .setPayload(OrderChangeRequest)
  .addSuccess(DeleteOrderResponse)
  .annotate(OpenApi.Summary, "Delete a cart, saved or expired order")
  .annotate(OpenApi.Description, ASSUMED)
  .annotate(Assumption, true)
  .pipe(withIdempotency("idempotent"))

// URL parameters are listed one by one only when their schema is not a named ($ref) schema,
// hence the unnamed copies of the request structs above (\`Schema.Struct(X.fields)\`).

// Both credentials go together on every call: one requirement naming both, not two alternatives.
const bothCredentials = (spec: Record<string, any>): Record<string, any> => {
  for (const ops of Object.values(spec["paths"] as Record<string, Record<string, any>>)) {
    for (const op of Object.values(ops)) op["security"] = [{ APIKey: [], APIToken: [] }]
  }
  return componentNames(spec)
}

/**
 * The Order Management API's one definition: every endpoint below `/web/services/{environment}`
 * (accountDetails, createOrder, priceAndAvailablity_v2 as the spec spells it and its corrected
 * spelling, the deprecated priceAndAvailability, orderDetails, invoiceDetails, productDetails,
 * productDigitalAsset, and the sandbox's assumed submitOrder, openOrder and deleteOrder). Every
 * error is the status envelope, at whatever HTTP status the distributor chose.
 *
 * @example
 * import { OpenApi } from "@effect/platform"
 * import { OrderManagementApi } from "@shoplink/protocol"
 * const document = OpenApi.fromApi(OrderManagementApi.OrderManagementApi)
 * document.paths["/web/services/{environment}/orderDetails"]?.get?.operationId // "orderDetails"
 *
 * @since 0.1.0
 */
export class OrderManagementApi extends HttpApi.make("orderManagement")
  .add(
    HttpApiGroup.make("orderManagement", { topLevel: true })
      .add(accountDetails)
      .add(createOrder)
      .add(priceAndAvailablity_v2)
      .add(priceAndAvailability_v2)
      .add(priceAndAvailability)
      .add(orderDetails)
      .add(invoiceDetails)
      .add(productDetails)
      .add(productDigitalAsset)
      .add(submitOrder)
      .add(openOrder)
      .add(deleteOrder)
      .middleware(OmsCredentials)
      .addError(StatusEnvelope.annotations({ description: "Error envelope (decode it whatever the HTTP status)" }), {
        status: 400
      })
  )
  .annotate(OpenApi.Title, "Order Management REST API")
  .annotate(
    OpenApi.Description,
    `Header APIKey and query APIToken on every call; environment is ${
      Environment.literals.slice(0, -1).join(", ")
    } or ${Environment.literals.at(-1)}. submitOrder, openOrder and deleteOrder are sandbox assumptions.`
  )
  .annotate(OpenApi.Transform, bothCredentials)
{}

/**
 * The name of an Order Management endpoint, read from the definition.
 *
 * @example
 * import type { OrderManagementApi } from "@shoplink/protocol"
 * const name: OrderManagementApi.EndpointName = "orderDetails"
 *
 * @since 0.1.0
 */
export type EndpointName = EndpointNameOf<typeof OrderManagementApi>

const CREDENTIALS: AuthPlacement = [{ name: "APIKey", in: "header" }, { name: "APIToken", in: "query" }]

/**
 * The base path template every endpoint is below.
 *
 * @example
 * import { OrderManagementApi } from "@shoplink/protocol"
 * OrderManagementApi.BASE_PATH // "/web/services/{environment}"
 *
 * @since 0.1.0
 */
export const BASE_PATH = `${OMS_SERVICES}/{environment}` as const

/**
 * Every Order Management endpoint as plain data ({@link Route}), in definition order;
 * `relativePath` is the path below `/web/services/{environment}`.
 *
 * @example
 * import { OrderManagementApi } from "@shoplink/protocol"
 * const assumed = OrderManagementApi.routes.filter((r) => r.assumption)
 * assumed.map((r) => r.name) // ["submitOrder", "openOrder", "deleteOrder"]
 *
 * @since 0.1.0
 */
export const routes: ReadonlyArray<Route<EndpointName>> = routesOf(OrderManagementApi, {
  basePath: BASE_PATH,
  auth: CREDENTIALS
}) as ReadonlyArray<Route<EndpointName>>

const byName = new Map(routes.map((r) => [r.name, r]))

/**
 * One endpoint as plain data: method, full and relative path, idempotency, credentials, and its
 * protocol schemas.
 *
 * @example
 * import { OrderManagementApi } from "@shoplink/protocol"
 * const { method, relativePath, idempotency } = OrderManagementApi.route("orderDetails")
 * // "GET", "/orderDetails", "idempotent"
 *
 * @since 0.1.0
 */
export const route = (name: EndpointName): Route<EndpointName> => byName.get(name)!
