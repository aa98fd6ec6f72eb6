/**
 * `OrderManagementClient`: a typed client of the distributor's Order Management REST API on
 * @effect/platform's `HttpClient`.
 *
 * Authentication follows the spec: the partner's `APIKey` header on every call, the customer's
 * `APIToken` query parameter (both `Redacted`; neither ever appears in a log, span, error or
 * printed URL) and `accept: application/json`. Customer credentials are bound with
 * `forCustomer`, which returns a handle whose operations fill in `customerAccountNo`.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Deadline, Retry } from "@shoplink/http"
import { OrderManagement, OrderManagementApi } from "@shoplink/protocol"
import type { MessageError } from "@shoplink/protocol"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import type * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type { ConfigError } from "effect/ConfigError"
import * as AssetUrls from "./AssetUrls.js"
import type { Customer } from "./Customer.js"
import * as KeyTier from "./KeyTier.js"
import { type ConfigurationError, DropShipAddressRejected, type OrderManagementError } from "./OrderManagementError.js"
import { type Call, execute, requestTemplate, type Runtime } from "./internal/execute.js"
import { configurationError } from "./internal/configurationError.js"
import { checkInvoiceDates, dayOf, toWire } from "./internal/validate.js"

/**
 * Retry settings: the shared policy of `@shoplink/http` (`Retry.RetryPolicyInput`), with this
 * client's defaults — 4 attempts, a 250 ms first pause doubling to at most 4 s with jitter in
 * [50%, 100%], 30 s in all, `Retry-After` honoured up to 30 s. The package README says exactly
 * what is retried.
 *
 * @example
 * import { Duration } from "effect"
 * import type { OrderManagementClient } from "@shoplink/order-management"
 * const retry: OrderManagementClient.RetryOptions = { maxAttempts: 3, baseDelay: Duration.millis(100) }
 *
 * @since 0.1.0
 */
export type RetryOptions = Retry.RetryPolicyInput

/**
 * Client options.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { OrderManagementClient } from "@shoplink/order-management"
 * const options: OrderManagementClient.Options = {
 *   environment: "US_QUA",
 *   apiKey: Redacted.make("sbx-oms-test-key-0001"),
 *   testBaseUrl: "http://127.0.0.1:8080"
 * }
 *
 * @since 0.1.0
 */
export interface Options {
  readonly environment: OrderManagement.Environment
  /** The partner's API key for the environment's tier. */
  readonly apiKey: Redacted.Redacted<string>
  /** `{test_base_url}`: host of US_QUA / CA_QUA. */
  readonly testBaseUrl?: string | undefined
  /** `{prod_base_url}`: host of US_PRD / CA_PRD. */
  readonly prodBaseUrl?: string | undefined
  /** The key's tier when known; otherwise `classifyKey` guesses it. */
  readonly keyTier?: KeyTier.KeyTier | undefined
  /** Guesses a key's tier (default `KeyTier.classifyByName`). */
  readonly classifyKey?: KeyTier.KeyClassifier | undefined
  /** `{asset_url}` for digital asset and brand logo URLs. */
  readonly assetBaseUrl?: string | undefined
  /**
   * Path of price and availability v2. Default: the spec's endpoint list spelling
   * `/priceAndAvailablity_v2`; the corrected `/priceAndAvailability_v2` is also served.
   */
  readonly priceAndAvailabilityPath?: string | undefined
  /**
   * Time allowed for one attempt to get a response (default 30 s; `Duration.infinity` for none). On
   * `@shoplink/http-node`'s `UndiciHttpClient` the transport itself aborts a request at its
   * deadline (no fiber per attempt; with a `transformClient`, each attempt's deadline runs in a
   * fiber of its own).
   */
  readonly timeout?: Duration.DurationInput | undefined
  readonly retry?: RetryOptions | undefined
  /** Adjusts the underlying HttpClient (proxies, extra headers, test instrumentation). */
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
}

/**
 * A product identified by ID and brand code.
 *
 * @example
 * import type { OrderManagementClient } from "@shoplink/order-management"
 * const product: OrderManagementClient.ProductInput = { productID: "51515", brandCode: "WIX" }
 *
 * @since 0.1.0
 */
export interface ProductInput {
  readonly productID: string
  readonly brandCode: string
}

/**
 * A product search: at least one of `searchText` (3 or more characters), `categoryCode`,
 * `vehicleGroupId`, `vin` (17 characters, no I/O/Q) or a license plate with its state.
 *
 * @example
 * import type { OrderManagementClient } from "@shoplink/order-management"
 * const search: OrderManagementClient.ProductSearchInput = {
 *   searchText: "oil filter",
 *   licensePlate: { licensePlate: "8ABC123", licensePlateState: "CA" }
 * }
 *
 * @since 0.1.0
 */
export interface ProductSearchInput {
  readonly searchText?: string
  readonly categoryCode?: string
  readonly vehicleGroupId?: string
  readonly vin?: string
  readonly licensePlate?: { readonly licensePlate: string; readonly licensePlateState: string }
}

/**
 * A createOrder request without `customerAccountNo` (the customer handle adds it). Lines need a
 * positive whole `quantity`; `shippingAddress` makes it a drop-ship order.
 *
 * @example
 * import type { OrderManagementClient } from "@shoplink/order-management"
 * const order: OrderManagementClient.CreateOrderInput = {
 *   customerPO: "PO-77", orderLines: [{ productID: "51515", brandCode: "WIX", quantity: 1 }]
 * }
 *
 * @since 0.1.0
 */
export type CreateOrderInput =
  & Omit<Schema.Schema.Encoded<typeof OrderManagement.CreateOrderRequest>, "customerAccountNo" | "orderLines">
  & {
    /** At least one line (checked before sending). */
    readonly orderLines: ReadonlyArray<Schema.Schema.Encoded<typeof OrderManagement.OrderLineRequest>>
  }

/**
 * An item to price: product, brand code and a positive whole quantity.
 *
 * @example
 * import type { OrderManagementClient } from "@shoplink/order-management"
 * const item: OrderManagementClient.PriceItemInput = { productID: "51515", brandCode: "WIX", quantity: 2 }
 *
 * @since 0.1.0
 */
export type PriceItemInput = Schema.Schema.Encoded<typeof OrderManagement.PriceAndAvailabilityRequest>["items"][number]

/**
 * A calendar day: a zoned `DateTime` counts in its own zone, a UTC `DateTime` or a JS `Date` in
 * UTC. Sent as `yyyymmdd`.
 *
 * @example
 * import { DateTime } from "effect"
 * import type { OrderManagementClient } from "@shoplink/order-management"
 * const day: OrderManagementClient.DayInput = DateTime.unsafeMake("2026-11-20")
 * const sameDay: OrderManagementClient.DayInput = new Date(Date.UTC(2026, 10, 20))
 *
 * @since 0.1.0
 */
export type DayInput = DateTime.DateTime | Date

/**
 * invoiceDetails input: one invoice by `invoiceNo`, or a date range (both dates, not later than
 * today, fromDate ≤ toDate). Dates are calendar days: a zoned `DateTime` counts in its own zone,
 * a UTC `DateTime` or JS `Date` in UTC.
 *
 * @example
 * import { DateTime } from "effect"
 * import type { OrderManagementClient } from "@shoplink/order-management"
 * const range: OrderManagementClient.InvoiceDetailsInput = {
 *   fromDate: DateTime.unsafeMake("2026-11-01"), toDate: DateTime.unsafeMake("2026-11-20")
 * }
 *
 * @since 0.1.0
 */
export interface InvoiceDetailsInput {
  readonly invoiceNo?: string
  readonly fromDate?: DayInput
  readonly toDate?: DayInput
}

/**
 * The operations for one customer. Every operation validates its input first (failing with
 * `InvalidInput` before any request) and fails with the message's own error class otherwise.
 *
 * @example
 * import { Effect } from "effect"
 * import { OrderManagementClient } from "@shoplink/order-management"
 * const prices = (customer: OrderManagementClient.CustomerClient) =>
 *   customer.priceAndAvailability({ items: [{ productID: "51515", brandCode: "WIX", quantity: 2 }] }).pipe(
 *     Effect.map((response) => response.items)
 *   )
 *
 * @since 0.1.0
 */
export interface CustomerClient {
  readonly accountNo: string
  /** `GET /accountDetails`: the account, with `submitDate` sent as yyyymmdd. */
  readonly accountDetails: (input: {
    readonly submitDate: DayInput
  }) => Effect.Effect<OrderManagement.AccountDetailsResponse, OrderManagementError>
  /**
   * `POST /createOrder`. Never retried once the request may have reached the server. A refused
   * drop-ship address (API0327) fails with `DropShipAddressRejected`.
   */
  readonly createOrder: (
    input: CreateOrderInput
  ) => Effect.Effect<OrderManagement.CreateOrderResponse, OrderManagementError>
  /**
   * Sends the refused order again with the server's recommended address; fails with the same
   * `DropShipAddressRejected` when it carried no recommendation.
   */
  readonly resubmitWithRecommendation: (
    rejected: DropShipAddressRejected
  ) => Effect.Effect<OrderManagement.CreateOrderResponse, OrderManagementError>
  /** `POST /priceAndAvailablity_v2` (configurable): prices and per-warehouse availability. */
  readonly priceAndAvailability: (input: {
    /** At least one item (checked before sending). */
    readonly items: ReadonlyArray<PriceItemInput>
  }) => Effect.Effect<OrderManagement.PriceAndAvailabilityResponse, OrderManagementError>
  /** `GET /orderDetails`. */
  readonly orderDetails: (input: {
    readonly orderNo: string
  }) => Effect.Effect<OrderManagement.OrderDetailsResponse, OrderManagementError>
  /** `GET /invoiceDetails`, date rules API0263–API0266 checked before sending. */
  readonly invoiceDetails: (
    input: InvoiceDetailsInput
  ) => Effect.Effect<OrderManagement.InvoiceDetailsResponse, OrderManagementError>
  /** `GET /productDetails` by product ID and brand code. */
  readonly productDetails: (
    input: ProductInput
  ) => Effect.Effect<typeof OrderManagement.ProductDetailsResponse.Type, OrderManagementError>
  /** `GET /productDetails` with search criteria. */
  readonly searchProducts: (
    input: ProductSearchInput
  ) => Effect.Effect<typeof OrderManagement.ProductDetailsResponse.Type, OrderManagementError>
  /** `GET /productDigitalAsset`. */
  readonly productDigitalAsset: (
    input: ProductInput
  ) => Effect.Effect<typeof OrderManagement.DigitalAssetsResponse.Type, OrderManagementError>
}

/**
 * The client service.
 *
 * @example
 * import { Effect, Redacted } from "effect"
 * import { OrderManagementClient } from "@shoplink/order-management"
 * const program = Effect.gen(function*() {
 *   const client = yield* OrderManagementClient.OrderManagementClient
 *   const customer = client.forCustomer({ accountNo: "100200", apiToken: Redacted.make("sbx-token-us-100200") })
 *   return yield* customer.orderDetails({ orderNo: "5000123" })
 * })
 *
 * @since 0.1.0
 * @category tags
 */
export class OrderManagementClient extends Context.Tag("@shoplink/order-management/OrderManagementClient")<
  OrderManagementClient,
  OrderManagementClient.Service
>() {}

/**
 * @since 0.1.0
 */
export declare namespace OrderManagementClient {
  /**
   * The service shape.
   *
   * @example
   * import type { OrderManagementClient } from "@shoplink/order-management"
   * const envOf = (client: OrderManagementClient.OrderManagementClient.Service) => client.environment
   *
   * @since 0.1.0
   */
  export interface Service {
    readonly environment: OrderManagement.Environment
    /** Host plus `/web/services/<environment>`. */
    readonly baseUrl: string
    /** Asset and brand logo URLs, when `assetBaseUrl` is configured. */
    readonly assets: Option.Option<AssetUrls.AssetUrls>
    /** The operations acting for one customer. */
    readonly forCustomer: (customer: Customer) => CustomerClient
  }
}

const validBaseUrl = (setting: string, value: string | undefined): Either.Either<string, ConfigurationError> => {
  if (value === undefined || value.trim() === "") {
    return Either.left(configurationError(setting, "is required for this environment"))
  }
  try {
    const url = new URL(value)
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("protocol")
    if (url.search !== "" || url.hash !== "") throw new Error("query")
    return Either.right(value.replace(/\/+$/, ""))
  } catch {
    return Either.left(configurationError(setting, "must be an absolute http(s) URL without query"))
  }
}

const decodeDuration = (input: Duration.DurationInput): Duration.Duration | undefined => {
  try {
    return Duration.decode(input)
  } catch {
    return undefined
  }
}

// This client's pacing: a 250 ms first pause, at most 4 s (the shared policy's rule and jitter).
const defaultRetryPolicy: Retry.RetryPolicy = {
  ...Retry.defaults,
  baseDelay: Duration.millis(250),
  maxDelay: Duration.seconds(4)
}

// Durations and counts that are wrong on their face are configuration errors, not a throw later.
const retryPolicy = (options: RetryOptions | undefined): Either.Either<Retry.RetryPolicy, ConfigurationError> =>
  Either.mapLeft(
    Retry.validate(options, defaultRetryPolicy),
    (problem) => configurationError(problem.setting, problem.problem)
  )

// Method, path (below /web/services/<environment>) and idempotency of a route, from the API's one
// definition in @shoplink/protocol, read once.
const endpoints = new Map(OrderManagementApi.routes.map((route) => [route.name, {
  method: route.method,
  path: route.relativePath,
  idempotency: route.idempotency
}]))
const endpoint = (name: OrderManagementApi.EndpointName) => endpoints.get(name)!

// Query parameters from a wire object: strings kept, absent values dropped.
const queryOf = (wire: Readonly<Record<string, unknown>>): Record<string, string> => {
  const query: Record<string, string> = {}
  for (const [key, value] of Object.entries(wire)) {
    if (value !== undefined && value !== null) query[key] = String(value)
  }
  return query
}

const ProductSearchQuery = OrderManagement.ProductSearch
const NO_QUERY: Readonly<Record<string, string>> = {}

/**
 * Builds the client from options, checking the configuration first (`ConfigurationError`): the
 * key must not be empty, the environment's host must be set and be an http(s) URL, a key whose
 * tier is known must match the environment's tier, and timeouts and retry settings must be
 * durations and counts.
 *
 * @example
 * import { Effect, Redacted } from "effect"
 * import { FetchHttpClient } from "@effect/platform"
 * import { OrderManagementClient } from "@shoplink/order-management"
 * const client = OrderManagementClient.make({
 *   environment: "US_QUA", apiKey: Redacted.make("sbx-oms-test-key-0001"), testBaseUrl: "http://127.0.0.1:8080"
 * }).pipe(Effect.provide(FetchHttpClient.layer))
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Options
): Effect.Effect<OrderManagementClient.Service, ConfigurationError, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const environment = yield* Schema.decodeUnknown(OrderManagement.Environment)(options.environment).pipe(
      Effect.mapError(() => configurationError("environment", "must be one of US_QUA, CA_QUA, US_PRD, CA_PRD"))
    )
    if (!Redacted.isRedacted(options.apiKey) || String(Redacted.value(options.apiKey)).trim() === "") {
      return yield* configurationError("apiKey", "must not be empty")
    }
    const timeout = decodeDuration(options.timeout ?? Duration.seconds(30))
    if (timeout === undefined || Duration.toMillis(timeout) <= 0) {
      return yield* configurationError(
        "timeout",
        "must be a positive duration such as \"10 seconds\" (or Duration.infinity)"
      )
    }
    const retry = yield* retryPolicy(options.retry)
    yield* KeyTier.check({
      environment,
      apiKey: options.apiKey,
      keyTier: options.keyTier,
      classifyKey: options.classifyKey
    })
    const tier = OrderManagement.ENVIRONMENTS[environment].tier
    const host = yield* tier === "test"
      ? validBaseUrl("testBaseUrl", options.testBaseUrl)
      : validBaseUrl("prodBaseUrl", options.prodBaseUrl)
    const assets = options.assetBaseUrl === undefined
      ? Option.none()
      : Option.some(AssetUrls.make(yield* validBaseUrl("assetBaseUrl", options.assetBaseUrl)))
    const priceAndAvailabilityPath = options.priceAndAvailabilityPath ?? endpoint("priceAndAvailablity_v2").path
    if (!/^\/[A-Za-z0-9_\-/]+$/.test(priceAndAvailabilityPath)) {
      return yield* configurationError("priceAndAvailabilityPath", "must be a path starting with /")
    }
    // Our User-Agent is in every request (`requestTemplate`): the caller's transformClient may
    // still replace it.
    const base = yield* HttpClient.HttpClient
    // A transport that enforces deadlines itself and makes no span (UndiciHttpClient) is used as is:
    // no fiber per attempt, no FiberRef change per call. A transformed client may send from another
    // fiber or be another client altogether: its deadline runs in a fiber per attempt, and the
    // platform's span (which would record the full URL, APIToken included) is disabled.
    const transportDeadline = options.transformClient === undefined && Deadline.enforcedBy(base)
    const transformed = options.transformClient === undefined ? base : options.transformClient(base)
    const basePath = OrderManagement.basePath(environment)
    const runtime: Runtime = {
      transportDeadline,
      httpClient: transportDeadline ? base : HttpClient.withTracerDisabledWhen(transformed, () => true),
      environment,
      baseUrl: `${host}${basePath}`,
      basePath,
      apiKey: options.apiKey,
      timeout,
      retry
    }

    const forCustomer = (customer: Customer): CustomerClient => {
      // The customer's request per route (URL, APIToken, headers), built at its first call.
      const templates = new Map<string, HttpClientRequest.HttpClientRequest>()
      const templateOf = (route: { readonly method: "GET" | "POST"; readonly path: string }) => {
        const key = `${route.method} ${route.path}`
        let template = templates.get(key)
        if (template === undefined) {
          template = requestTemplate(runtime, route, customer.apiToken)
          templates.set(key, template)
        }
        return template
      }
      const run = <A>(call: Omit<Call<A>, "apiToken" | "accountNo" | "template">) =>
        execute(runtime, {
          ...call,
          apiToken: customer.apiToken,
          accountNo: customer.accountNo,
          template: templateOf(call)
        })
      const priceRoute = { ...endpoint("priceAndAvailablity_v2"), path: priceAndAvailabilityPath }
      let priceRequest: HttpClientRequest.HttpClientRequest | undefined
      const priceTemplate = () => priceRequest ??= templateOf(priceRoute)

      const createOrder = (input: CreateOrderInput) =>
        Effect.gen(function*() {
          const { value: order, wire } = yield* toWire("createOrder", OrderManagement.CreateOrderRequest, {
            ...input,
            customerAccountNo: customer.accountNo
          })
          return yield* run({
            operation: "createOrder",
            ...endpoint("createOrder"),
            query: {},
            body: wire,
            response: OrderManagement.CreateOrderResponse,
            refine: (error, body) =>
              error._tag === "DropShipAddressRecommended" ? rejected(error, body, order) : undefined
          })
        })

      return {
        accountNo: customer.accountNo,
        accountDetails: (input) =>
          Effect.gen(function*() {
            const { wire } = yield* toWire("accountDetails", OrderManagement.AccountDetailsRequest, {
              customerAccountNo: customer.accountNo,
              submitDate: dayOf(input.submitDate)
            })
            return yield* run({
              operation: "accountDetails",
              ...endpoint("accountDetails"),
              query: queryOf(wire),
              response: OrderManagement.AccountDetailsResponse
            })
          }),
        createOrder,
        resubmitWithRecommendation: (error) =>
          Option.match(recommendedOrder(error), {
            onNone: () => Effect.fail(error),
            onSome: createOrder
          }),
        priceAndAvailability: (input) => {
          // Checking the input is pure: done when the call is made, its failure is the effect's.
          const checked = toWire("priceAndAvailability", OrderManagement.PriceAndAvailabilityRequest, {
            customerAccountNo: customer.accountNo,
            items: input.items
          })
          if (Either.isLeft(checked)) return Effect.fail(checked.left)
          return execute(runtime, {
            operation: "priceAndAvailability",
            method: priceRoute.method,
            path: priceRoute.path,
            idempotency: priceRoute.idempotency,
            query: NO_QUERY,
            body: checked.right.wire,
            response: OrderManagement.PriceAndAvailabilityResponse,
            apiToken: customer.apiToken,
            accountNo: customer.accountNo,
            template: priceTemplate()
          })
        },
        orderDetails: (input) =>
          Effect.gen(function*() {
            const { wire } = yield* toWire("orderDetails", OrderManagement.OrderDetailsRequest, {
              customerAccountNo: customer.accountNo,
              orderNo: input.orderNo
            })
            return yield* run({
              operation: "orderDetails",
              ...endpoint("orderDetails"),
              query: queryOf(wire),
              response: OrderManagement.OrderDetailsResponse
            })
          }),
        invoiceDetails: (input) =>
          Effect.gen(function*() {
            const { wire } = yield* toWire("invoiceDetails", OrderManagement.InvoiceDetailsRequest, {
              customerAccountNo: customer.accountNo,
              ...(input.invoiceNo === undefined ? {} : { invoiceNo: input.invoiceNo }),
              ...(input.fromDate === undefined ? {} : { fromDate: dayOf(input.fromDate) }),
              ...(input.toDate === undefined ? {} : { toDate: dayOf(input.toDate) })
            })
            yield* checkInvoiceDates(wire)
            return yield* run({
              operation: "invoiceDetails",
              ...endpoint("invoiceDetails"),
              query: queryOf(wire),
              response: OrderManagement.InvoiceDetailsResponse
            })
          }),
        productDetails: (input) =>
          product("productDetails", "productDetails", OrderManagement.ProductDetailsResponse, input),
        searchProducts: (input) =>
          Effect.gen(function*() {
            const { wire } = yield* toWire("searchProducts", ProductSearchQuery, input)
            const { licensePlate, ...rest } = wire
            return yield* run({
              operation: "searchProducts",
              ...endpoint("productDetails"),
              query: queryOf({ ...rest, ...licensePlate }),
              response: OrderManagement.ProductDetailsResponse
            })
          }),
        productDigitalAsset: (input) =>
          product("productDigitalAsset", "productDigitalAsset", OrderManagement.DigitalAssetsResponse, input)
      }

      function product<A>(
        operation: string,
        route: OrderManagementApi.EndpointName,
        response: Schema.Schema<A, any>,
        input: ProductInput
      ) {
        return Effect.gen(function*() {
          const { wire } = yield* toWire(operation, OrderManagement.ProductRef, {
            productID: input.productID,
            brandCode: input.brandCode
          })
          return yield* run({ operation, ...endpoint(route), query: queryOf(wire), response })
        })
      }
    }

    return { environment, baseUrl: runtime.baseUrl, assets, forCustomer }
  })

/**
 * The refused order with the server's recommended address, for callers who want to show or adjust
 * it before sending (`CustomerClient.resubmitWithRecommendation` sends it as is); `None` when the
 * server offered no recommendation.
 *
 * @example
 * import { Effect, Option } from "effect"
 * import { OrderManagementClient } from "@shoplink/order-management"
 * declare const customer: OrderManagementClient.CustomerClient
 * declare const input: OrderManagementClient.CreateOrderInput
 * const placed = customer.createOrder(input).pipe(
 *   Effect.catchTag("DropShipAddressRejected", (rejected) =>
 *     Option.match(OrderManagementClient.recommendedOrder(rejected), {
 *       onNone: () => Effect.fail(rejected),
 *       onSome: (order) => customer.createOrder(order)
 *     }))
 * )
 *
 * @since 0.1.0
 */
export const recommendedOrder = (rejected: DropShipAddressRejected): Option.Option<CreateOrderInput> => {
  if (rejected.recommendedAddress === undefined) return Option.none()
  const { customerAccountNo: _, ...order } = rejected.order
  return Option.some({ ...order, shippingAddress: rejected.recommendedAddress })
}

// API0327 → DropShipAddressRejected, with the recommendation when the body carries one.
const rejected = (
  error: MessageError.MessageError,
  body: unknown,
  order: OrderManagement.CreateOrderRequest
): DropShipAddressRejected => {
  const decoded = Schema.decodeUnknownOption(OrderManagement.CreateOrderResponse)(body)
  const recommendation = Option.flatMap(decoded, (response) => Option.fromNullable(response.recommendedDropShipAddress))
  const inputAddress = Option.match(recommendation, {
    onNone: () => order.shippingAddress,
    onSome: (r) => r.inputAddress
  })
  return new DropShipAddressRejected({
    text: error.text,
    httpStatus: error.httpStatus,
    ...(error.referenceID === undefined ? {} : { referenceID: error.referenceID }),
    order,
    ...(inputAddress === undefined ? {} : { inputAddress }),
    recommendationText: Option.match(recommendation, { onNone: () => "", onSome: (r) => r.recommendationText }),
    ...Option.match(recommendation, {
      onNone: () => ({}),
      onSome: (r) => ({ recommendedAddress: r.recommendedAddress })
    })
  })
}

/**
 * A layer from options.
 *
 * @example
 * import { Redacted } from "effect"
 * import { FetchHttpClient } from "@effect/platform"
 * import { Layer } from "effect"
 * import { OrderManagementClient } from "@shoplink/order-management"
 * const OmsLive = OrderManagementClient.layer({
 *   environment: "US_QUA", apiKey: Redacted.make("sbx-oms-test-key-0001"), testBaseUrl: "http://127.0.0.1:8080"
 * }).pipe(Layer.provide(FetchHttpClient.layer))
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options
): Layer.Layer<OrderManagementClient, ConfigurationError, HttpClient.HttpClient> =>
  Layer.effect(OrderManagementClient, make(options))

/**
 * A layer from configuration: each option may be a `Config` (or a plain value through
 * `Config.succeed`), so the application names its variables once; the client knows no environment
 * variable. A missing value fails with Effect's `ConfigError`, a value wrong on its face with
 * `ConfigurationError`, both when the layer is built.
 *
 * @example
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Config, Layer } from "effect"
 * import { OrderManagementClient } from "@shoplink/order-management"
 * const OmsLive = OrderManagementClient.layerConfig({
 *   environment: Config.literal("US_QUA", "CA_QUA", "US_PRD", "CA_PRD")("OMS_ENVIRONMENT"),
 *   apiKey: Config.redacted("OMS_API_KEY"),
 *   testBaseUrl: Config.string("OMS_TEST_BASE_URL").pipe(Config.withDefault(undefined)),
 *   timeout: Config.succeed("20 seconds")
 * }).pipe(Layer.provide(NodeHttpClient.layerUndici))
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  config: Config.Config.Wrap<Options>
): Layer.Layer<OrderManagementClient, ConfigError | ConfigurationError, HttpClient.HttpClient> =>
  Layer.effect(OrderManagementClient, Effect.flatMap(Config.unwrap(config), make))
