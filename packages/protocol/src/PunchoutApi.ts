/**
 * The Vendor Punchout API as one `HttpApi` definition: every route with its method, path,
 * parameters, payload and success schema, where the session token travels, and whether a request
 * may be repeated. The sandbox serves it, the OpenAPI document is generated from it, and the
 * clients read their method, path and schemas from it (`route`).
 *
 * @since 0.1.0
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import {
  type AuthPlacement,
  componentNames,
  type EndpointNameOf,
  type Route,
  routesOf,
  withIdempotency
} from "./ApiAnnotations.js"
import { StatusEnvelope } from "./Envelope.js"
import { PUNCHOUT_BASE } from "./internal/paths.js"
import {
  CreateOrderRequest,
  GetProductQuotesRequest,
  GetProductQuotesResponse,
  OrderResponse,
  ReserveOrderRequest,
  ReserveOrderResponse,
  SubmitOrderRequest
} from "./punchout/Commands.js"
import { CreateSessionRequest, CreateSessionResponse } from "./punchout/Session.js"
import { ShowCatalogParams, ShowOrderParams } from "./punchout/Show.js"

/**
 * The session token every command and page carries as the `token` query parameter (the URL
 * `create` returns). An `HttpApiMiddleware` security tag: it places the credential in the
 * definition and the OpenAPI document; the sandbox checks the token itself.
 *
 * @example
 * import { PunchoutApi } from "@shoplink/protocol"
 * PunchoutApi.SessionToken.security.token.key // "token"
 *
 * @since 0.1.0
 */
export class SessionToken extends HttpApiMiddleware.Tag<SessionToken>()("@shoplink/protocol/PunchoutApi/SessionToken", {
  security: {
    token: HttpApiSecurity.apiKey({ key: "token", in: "query" })
  }
}) {}

const html = HttpApiSchema.Text({ contentType: "text/html" }).annotations({ description: "An ordering page" })

const create = HttpApiEndpoint.post("create", `${PUNCHOUT_BASE}/create`)
  .setPayload(CreateSessionRequest)
  .addSuccess(CreateSessionResponse)
  .annotate(OpenApi.Summary, "Create a punchout session")
  .annotate(
    OpenApi.Description,
    "Vendor API key, customer token and account in the body. A refusal is an envelope with `punchout: { url: \"\", expiration: 0 }`."
  )
  .pipe(withIdempotency("idempotent"))

const GetProductQuotes = HttpApiEndpoint.post("GetProductQuotes", `${PUNCHOUT_BASE}/GetProductQuotes`)
  .setPayload(GetProductQuotesRequest)
  .addSuccess(GetProductQuotesResponse)
  .middleware(SessionToken)
  .annotate(OpenApi.Summary, "Search products or price an exact product")
  .pipe(withIdempotency("idempotent"))

const CreateOrder = HttpApiEndpoint.post("CreateOrder", `${PUNCHOUT_BASE}/CreateOrder`)
  .setPayload(CreateOrderRequest)
  .addSuccess(OrderResponse)
  .middleware(SessionToken)
  .annotate(OpenApi.Summary, "Create an order (one product, or several in quotes[])")
  .pipe(withIdempotency("unsafe"))

const SubmitOrder = HttpApiEndpoint.post("SubmitOrder", `${PUNCHOUT_BASE}/SubmitOrder`)
  .setPayload(SubmitOrderRequest)
  .addSuccess(OrderResponse)
  .middleware(SessionToken)
  .annotate(OpenApi.Summary, "Submit an order")
  .pipe(withIdempotency("unsafe"))

const ReserveOrder = HttpApiEndpoint.post("ReserveOrder", `${PUNCHOUT_BASE}/ReserveOrder`)
  .setPayload(ReserveOrderRequest)
  .addSuccess(ReserveOrderResponse)
  .middleware(SessionToken)
  .annotate(OpenApi.Summary, "Reallocate an expired order")
  .annotate(OpenApi.Description, "The response spells the reference `referenceId`.")
  .pipe(withIdempotency("idempotent"))

const ShowCatalog = HttpApiEndpoint.get("ShowCatalog", `${PUNCHOUT_BASE}/ShowCatalog`)
  .setUrlParams(ShowCatalogParams.from.omit("token"))
  .addSuccess(html)
  .middleware(SessionToken)
  .annotate(OpenApi.Summary, "Open the catalog (page)")
  .annotate(
    OpenApi.Description,
    "searchTerm needs a vehicle (vin, licensePlate with licensePlateState, or baseVehicleID); the earlier names licenseState and baseVehicleId are refused."
  )
  .pipe(withIdempotency("idempotent"))

const ShowOrder = HttpApiEndpoint.get("ShowOrder", `${PUNCHOUT_BASE}/ShowOrder`)
  .setUrlParams(ShowOrderParams.omit("token"))
  .addSuccess(html)
  .middleware(SessionToken)
  .annotate(OpenApi.Summary, "Open an order (page)")
  .pipe(withIdempotency("idempotent"))

/**
 * The Punchout API's one definition: `create`, the API commands `GetProductQuotes`,
 * `CreateOrder`, `SubmitOrder`, `ReserveOrder` (POST, `?token=`) and the pages `ShowCatalog`
 * and `ShowOrder` (GET, `text/html`). Every error is the status envelope, at whatever HTTP status
 * the distributor chose.
 *
 * @example
 * import { OpenApi } from "@effect/platform"
 * import { PunchoutApi } from "@shoplink/protocol"
 * const document = OpenApi.fromApi(PunchoutApi.PunchoutApi)
 * Object.keys(document.paths) // ["/punchout/v1/create", "/punchout/v1/GetProductQuotes", …]
 *
 * @since 0.1.0
 */
export class PunchoutApi extends HttpApi.make("punchout")
  .add(
    HttpApiGroup.make("punchout", { topLevel: true })
      .add(create)
      .add(GetProductQuotes)
      .add(CreateOrder)
      .add(SubmitOrder)
      .add(ReserveOrder)
      .add(ShowCatalog)
      .add(ShowOrder)
      .addError(StatusEnvelope.annotations({ description: "Error envelope (decode it whatever the HTTP status)" }), {
        status: 400
      })
  )
  .annotate(OpenApi.Title, "Vendor Punchout API")
  .annotate(OpenApi.Transform, componentNames)
  .annotate(
    OpenApi.Description,
    `Sessions, commands and ordering pages. Commands are POST {base}${PUNCHOUT_BASE}/{command}?token=<session token>.`
  )
{}

/**
 * The name of a Punchout endpoint (`create`, the commands and the pages), read from the definition.
 *
 * @example
 * import type { PunchoutApi } from "@shoplink/protocol"
 * const name: PunchoutApi.EndpointName = "ReserveOrder"
 *
 * @since 0.1.0
 */
export type EndpointName = EndpointNameOf<typeof PunchoutApi>

const TOKEN: AuthPlacement = [{ name: "token", in: "query" }]
const NONE: AuthPlacement = []

/**
 * Every Punchout endpoint as plain data ({@link Route}), in definition order.
 *
 * @example
 * import { PunchoutApi } from "@shoplink/protocol"
 * PunchoutApi.routes.filter((r) => r.idempotency === "unsafe").map((r) => r.name) // ["CreateOrder", "SubmitOrder"]
 *
 * @since 0.1.0
 */
export const routes: ReadonlyArray<Route<EndpointName>> = routesOf(PunchoutApi, {
  basePath: PUNCHOUT_BASE,
  auth: (name) => (name === "create" ? NONE : TOKEN)
}) as ReadonlyArray<Route<EndpointName>>

const byName = new Map(routes.map((r) => [r.name, r]))

/**
 * One endpoint as plain data: method, path, idempotency, credentials, and its protocol schemas.
 *
 * @example
 * import { PunchoutApi } from "@shoplink/protocol"
 * const { method, path, idempotency } = PunchoutApi.route("SubmitOrder")
 * // "POST", "/punchout/v1/SubmitOrder", "unsafe"
 *
 * @since 0.1.0
 */
export const route = (name: EndpointName): Route<EndpointName> => byName.get(name)!
