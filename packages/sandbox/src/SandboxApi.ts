/**
 * The sandbox's own routes as one `HttpApi` definition: the admin API under `/__sandbox`, the
 * ordering pages' form actions, the docs page and the OpenAPI documents. The sandbox serves it,
 * `/openapi/sandbox.json` is generated from it, and `SandboxAdminClient` is derived from it.
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
import * as Schema from "effect/Schema"
import { ApiAnnotations } from "@shoplink/protocol"

const idempotent = ApiAnnotations.withIdempotency("idempotent")
const unsafe = ApiAnnotations.withIdempotency("unsafe")

/**
 * An admin call with bad input (400): `{ "_tag": "AdminBadRequest", "error": "…" }`.
 *
 * @example
 * import { SandboxApi } from "@shoplink/sandbox"
 * new SandboxApi.AdminBadRequest({ error: "button must be one of export, exportAndSubmit, exportAndSave" })
 *
 * @since 0.1.0
 */
export class AdminBadRequest extends Schema.TaggedError<AdminBadRequest>()(
  "AdminBadRequest",
  { error: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}

/**
 * An admin call about an order or session that does not exist (404).
 *
 * @example
 * import { SandboxApi } from "@shoplink/sandbox"
 * new SandboxApi.AdminNotFound({ error: "order not found" })
 *
 * @since 0.1.0
 */
export class AdminNotFound extends Schema.TaggedError<AdminNotFound>()(
  "AdminNotFound",
  { error: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/**
 * An admin call without the admin token, when the sandbox has one (401, with `WWW-Authenticate: Bearer`).
 *
 * @example
 * import { SandboxApi } from "@shoplink/sandbox"
 * new SandboxApi.AdminUnauthorized({ error: "the admin API needs Authorization: Bearer <admin token>" })
 *
 * @since 0.1.0
 */
export class AdminUnauthorized extends Schema.TaggedError<AdminUnauthorized>()(
  "AdminUnauthorized",
  { error: Schema.String },
  HttpApiSchema.annotations({ status: 401 })
) {}

/**
 * The admin token (`Authorization: Bearer <token>`), required on `/__sandbox` when the sandbox
 * was started with `adminToken`.
 *
 * @example
 * import { SandboxApi } from "@shoplink/sandbox"
 * SandboxApi.AdminAuth.security.bearer._tag // "Bearer"
 *
 * @since 0.1.0
 */
export class AdminAuth extends HttpApiMiddleware.Tag<AdminAuth>()("@shoplink/sandbox/SandboxApi/AdminAuth", {
  failure: AdminUnauthorized,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

const Ok = Schema.Struct({ ok: Schema.Boolean })
const Created = Ok.annotations(HttpApiSchema.annotations({ status: 201 }))
const NonEmpty = Schema.String.pipe(Schema.minLength(1, { message: () => "must not be empty" }))

/**
 * A customer to add (`POST /__sandbox/customers`).
 *
 * @example
 * import { Schema } from "effect"
 * import { SandboxApi } from "@shoplink/sandbox"
 * Schema.decodeUnknownSync(SandboxApi.CustomerInput)({
 *   accountNo: "700800",
 *   username: "a@b.example",
 *   apiToken: "t-1",
 *   country: "US"
 * })
 *
 * @since 0.1.0
 */
export const CustomerInput = Schema.Struct({
  accountNo: NonEmpty,
  username: NonEmpty,
  apiToken: NonEmpty,
  country: Schema.Literal("US", "CA"),
  name: Schema.optionalWith(Schema.String, { exact: true }),
  poRequired: Schema.optionalWith(Schema.Boolean, { exact: true }),
  timeZone: Schema.optionalWith(Schema.String, { exact: true })
}).annotations({ identifier: "CustomerInput" })

/**
 * The sandbox clock (`GET /__sandbox/clock`).
 *
 * @example
 * import { Schema } from "effect"
 * import { SandboxApi } from "@shoplink/sandbox"
 * Schema.decodeUnknownSync(SandboxApi.ClockView)({ now: "2026-06-01T14:00:00.000Z", offsetMillis: 0 })
 *
 * @since 0.1.0
 */
export const ClockView = Schema.Struct({ now: Schema.String, offsetMillis: Schema.Number }).annotations({
  identifier: "ClockView"
})

const times = { times: Schema.optionalWith(Schema.Number, { exact: true }) }

/**
 * A fault to inject (`POST /__sandbox/faults`): for the next call(s) of an endpoint (`"*"` for
 * all), latency, an HTTP status, a connection reset or a message ID; or an order reported locked
 * or in use.
 *
 * @example
 * import { Schema } from "effect"
 * import { SandboxApi } from "@shoplink/sandbox"
 * Schema.decodeUnknownSync(SandboxApi.FaultInput)({ kind: "httpStatus", endpoint: "GetProductQuotes", status: 503 })
 *
 * @since 0.1.0
 */
export const FaultInput = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("latency"), endpoint: Schema.String, millis: Schema.Number, ...times }),
  Schema.Struct({ kind: Schema.Literal("httpStatus"), endpoint: Schema.String, status: Schema.Number, ...times }),
  Schema.Struct({ kind: Schema.Literal("connectionReset"), endpoint: Schema.String, ...times }),
  Schema.Struct({ kind: Schema.Literal("message"), endpoint: Schema.String, id: Schema.String, ...times }),
  Schema.Struct({ kind: Schema.Literal("orderLocked"), orderID: Schema.String, ...times }),
  Schema.Struct({ kind: Schema.Literal("orderInUse"), orderID: Schema.String, ...times })
).annotations({ identifier: "FaultInput" })

/**
 * Where an order can be.
 *
 * @example
 * import { Schema } from "effect"
 * import { SandboxApi } from "@shoplink/sandbox"
 * Schema.decodeUnknownSync(SandboxApi.OrderStateSchema)("processing")
 *
 * @since 0.1.0
 */
export const OrderStateSchema = Schema.Literal(
  "cart",
  "expired",
  "saved",
  "submitted",
  "processing",
  "shippedPartial",
  "shippedComplete"
)
  .annotations({ identifier: "OrderState" })

/**
 * An order as the admin API shows it (`GET /__sandbox/orders/{orderID}`).
 *
 * @example
 * import type { SandboxApi } from "@shoplink/sandbox"
 * const state = (order: typeof SandboxApi.OrderView.Type) => order.state
 *
 * @since 0.1.0
 */
export const OrderView = Schema.Struct({
  orderID: Schema.String,
  accountNo: Schema.String,
  state: OrderStateSchema,
  comment: Schema.String,
  expiresAt: Schema.NullOr(Schema.Number),
  lines: Schema.Array(
    Schema.Struct({
      productID: Schema.String,
      brandID: Schema.String,
      quantity: Schema.Number,
      warehouseCode: Schema.String
    })
  )
}).annotations({ identifier: "OrderView" })

/**
 * A punchout session as the admin API shows it (`GET /__sandbox/sessions/{token}`): the vehicle
 * its catalog page last showed (and by which identifier), the reference of the last page opened,
 * and its cart.
 *
 * @example
 * import type { SandboxApi } from "@shoplink/sandbox"
 * const vehicle = (session: typeof SandboxApi.SessionView.Type) => session.vehicle?.description ?? "none"
 *
 * @since 0.1.0
 */
export const SessionView = Schema.Struct({
  accountNo: Schema.String,
  expiresAt: Schema.Number,
  referenceID: Schema.NullOr(Schema.String),
  pageReferenceID: Schema.NullOr(Schema.String),
  vehicle: Schema.NullOr(Schema.Struct({
    year: Schema.Number,
    make: Schema.String,
    model: Schema.String,
    /** `2019 Ford F-150` */
    description: Schema.String,
    /** How it was chosen: `VIN …`, `License plate … (…)` or `Base vehicle ID …`. */
    identifier: Schema.NullOr(Schema.String)
  })),
  cartOrderID: Schema.NullOr(Schema.String)
}).annotations({ identifier: "SessionView" })

/**
 * What the test driver's search returns.
 *
 * @example
 * import type { SandboxApi } from "@shoplink/sandbox"
 * const count = (result: typeof SandboxApi.DriverSearchView.Type) => result.total
 *
 * @since 0.1.0
 */
export const DriverSearchView = Schema.Struct({
  vehicle: Schema.optional(Schema.String),
  results: Schema.Array(Schema.Struct({
    productID: Schema.String,
    brandID: Schema.String,
    description: Schema.String,
    price: Schema.optional(Schema.Number),
    available: Schema.Number
  })),
  page: Schema.Number,
  pageCount: Schema.Number,
  total: Schema.Number
}).annotations({ identifier: "DriverSearchView" })

/**
 * The export buttons of the ordering pages.
 *
 * @example
 * import { Schema } from "effect"
 * import { SandboxApi } from "@shoplink/sandbox"
 * Schema.decodeUnknownSync(SandboxApi.ExportButtonSchema)("exportAndSave")
 *
 * @since 0.1.0
 */
export const ExportButtonSchema = Schema.Literal("export", "exportAndSubmit", "exportAndSave").annotations({
  identifier: "ExportButton"
})

/**
 * What pressing an export button did.
 *
 * @example
 * import type { SandboxApi } from "@shoplink/sandbox"
 * const where = (result: typeof SandboxApi.DriverPressView.Type) => result.redirect ?? "no callback"
 *
 * @since 0.1.0
 */
export const DriverPressView = Schema.Struct({
  button: ExportButtonSchema,
  orderID: Schema.optional(Schema.String),
  redirect: Schema.optional(Schema.String),
  webhook: Schema.optional(Schema.Literal("order", "quote")),
  response: Schema.Unknown
}).annotations({ identifier: "DriverPressView" })

const WebhookDeliveryView = Schema.Struct({
  deliveryId: Schema.Number,
  event: Schema.Literal("order", "quote"),
  url: Schema.String,
  attempt: Schema.Number,
  at: Schema.String,
  body: Schema.Unknown,
  status: Schema.optional(Schema.Number),
  error: Schema.optional(Schema.String),
  ok: Schema.Boolean
}).annotations({ identifier: "WebhookDelivery" })

const post = <const Name extends string, const Path extends `/${string}`>(name: Name, path: Path) =>
  HttpApiEndpoint.post(name, `/__sandbox${path}`)

const admin = HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.get("index", "/__sandbox").addSuccess(Schema.Struct({ endpoints: Schema.Array(Schema.String) }))
      .annotate(OpenApi.Summary, "Every admin route").pipe(idempotent)
  )
  .add(post("addCustomer", "/customers").setPayload(CustomerInput).addSuccess(Created).pipe(idempotent))
  .add(
    post("addVendorKey", "/vendor-keys").setPayload(Schema.Struct({ apiKey: NonEmpty })).addSuccess(Created).pipe(
      idempotent
    )
  )
  .add(
    post("addOmsKey", "/oms-keys")
      .setPayload(
        Schema.Struct({
          apiKey: NonEmpty,
          tier: Schema.optionalWith(Schema.Literal("test", "production"), { exact: true })
        })
      )
      .addSuccess(Created).pipe(idempotent)
  )
  .add(
    post("revokeToken", "/revoke-token").setPayload(Schema.Struct({ apiToken: NonEmpty })).addSuccess(Ok).pipe(
      idempotent
    )
  )
  .add(post("expireKey", "/expire-key").setPayload(Schema.Struct({ apiKey: NonEmpty })).addSuccess(Ok).pipe(idempotent))
  .add(
    post("setMonthlyAllowance", "/allowance").setPayload(Schema.Struct({ apiKey: NonEmpty, limit: Schema.Number }))
      .addSuccess(Ok)
      .pipe(idempotent)
  )
  .add(HttpApiEndpoint.get("clock", "/__sandbox/clock").addSuccess(ClockView).pipe(idempotent))
  .add(
    post("advanceClock", "/clock/advance")
      .setPayload(
        Schema.Struct({
          millis: Schema.Number.pipe(Schema.nonNegative({ message: () => "millis must be a non-negative number" }))
        })
      )
      .addSuccess(ClockView).pipe(unsafe)
  )
  .add(post("injectFault", "/faults").setPayload(FaultInput).addSuccess(Created).pipe(unsafe))
  .add(HttpApiEndpoint.del("clearFaults", "/__sandbox/faults").addSuccess(Ok).pipe(idempotent))
  .add(
    HttpApiEndpoint.get("deliveries", "/__sandbox/deliveries").addSuccess(
      Schema.Struct({ deliveries: Schema.Array(WebhookDeliveryView) })
    )
      .pipe(idempotent)
  )
  .add(
    HttpApiEndpoint.get("order", "/__sandbox/orders/:orderID").setPath(Schema.Struct({ orderID: Schema.String }))
      .addSuccess(OrderView).addError(AdminNotFound).pipe(idempotent)
  )
  .add(
    post("setOrderState", "/orders/:orderID/state").setPath(Schema.Struct({ orderID: Schema.String }))
      .setPayload(Schema.Struct({ state: OrderStateSchema }))
      .addSuccess(Schema.Struct({ orderID: Schema.String, state: OrderStateSchema })).addError(AdminNotFound).pipe(
        idempotent
      )
  )
  .add(
    HttpApiEndpoint.get("session", "/__sandbox/sessions/:token").setPath(Schema.Struct({ token: Schema.String }))
      .addSuccess(SessionView).addError(AdminNotFound)
      .annotate(OpenApi.Summary, "A session: the vehicle its catalog page shows, its cart").pipe(idempotent)
  )
  .add(
    post("driverSearch", "/driver/search")
      .setPayload(
        Schema.Struct(
          { token: Schema.String },
          Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Number) })
        )
      )
      .addSuccess(DriverSearchView).pipe(idempotent)
  )
  .add(
    post("driverAddToCart", "/driver/add-to-cart")
      .setPayload(Schema.Struct({
        token: NonEmpty,
        productID: NonEmpty,
        brandID: NonEmpty,
        quantity: Schema.optionalWith(Schema.Number, { exact: true })
      }))
      .addSuccess(Schema.Struct({ orderID: Schema.String, lines: Schema.Number })).pipe(unsafe)
  )
  .add(
    post("driverPress", "/driver/press").setPayload(Schema.Struct({ token: NonEmpty, button: ExportButtonSchema }))
      .addSuccess(DriverPressView).pipe(unsafe)
  )
  .addError(AdminBadRequest)
  .middleware(AdminAuth)
  .annotate(
    OpenApi.Description,
    "Admin API: customers, keys, clock, faults, deliveries, orders, sessions, and a driver for the ordering pages."
  )

const page = HttpApiSchema.Text({ contentType: "text/html" })
const json = Schema.Unknown.annotations({ description: "An OpenAPI 3.1 document" })

const ordering = HttpApiGroup.make("ordering")
  .add(
    HttpApiEndpoint.post("appAction", "/punchout/v1/app/:action")
      .setPath(Schema.Struct({ action: Schema.String }))
      .setUrlParams(Schema.Struct({ token: Schema.String }))
      .addSuccess(page)
      .annotate(OpenApi.Summary, "The ordering pages' form actions (search, add, remove, export buttons)")
      .pipe(unsafe)
  )

const docs = HttpApiGroup.make("docs")
  .add(HttpApiEndpoint.get("home", "/").addSuccess(page).annotate(OpenApi.Summary, "The docs page").pipe(idempotent))
  .add(
    HttpApiEndpoint.get("docs", "/docs").addSuccess(page).annotate(OpenApi.Summary, "The docs page").pipe(idempotent)
  )
  .add(HttpApiEndpoint.get("punchoutDocument", "/openapi/punchout.json").addSuccess(json).pipe(idempotent))
  .add(
    HttpApiEndpoint.get("orderManagementDocument", "/openapi/order-management.json").addSuccess(json).pipe(idempotent)
  )
  .add(HttpApiEndpoint.get("sandboxDocument", "/openapi/sandbox.json").addSuccess(json).pipe(idempotent))

/**
 * The sandbox's own API (not the distributor's): `admin` (`/__sandbox/…`), `ordering` (the
 * ordering pages' `POST /punchout/v1/app/{action}`) and `docs` (`/`, `/docs`, `/openapi/*.json`).
 *
 * @example
 * import { OpenApi } from "@effect/platform"
 * import { SandboxApi } from "@shoplink/sandbox"
 * Object.keys(OpenApi.fromApi(SandboxApi.SandboxApi).paths).includes("/__sandbox/clock") // true
 *
 * @since 0.1.0
 */
export class SandboxApi extends HttpApi.make("sandbox")
  .add(admin)
  .add(ordering)
  .add(docs)
  .annotate(OpenApi.Title, "Shoplink sandbox API")
  .annotate(
    OpenApi.Description,
    "The sandbox's own routes: the admin API, the ordering pages' actions and these documents."
  )
  .annotate(OpenApi.Transform, ApiAnnotations.componentNames)
{}
