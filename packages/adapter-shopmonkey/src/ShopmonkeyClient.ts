/**
 * A typed Effect client of the Shopmonkey API v3 (https://shopmonkey.dev) on @effect/platform's
 * HttpClient: bearer API key (`Redacted`), configurable base URL (production or sandbox),
 * `limit`/`skip` pagination following `meta.hasMore` with the limit capped at 100, and a `429`
 * honoured through its `Retry-After`.
 *
 * What is retried (bounded by `maxAttempts` and `maxElapsed`):
 * - reads (GET): no response, timeouts, 408, 429 and 5xx, with exponential backoff and jitter, or
 *   exactly the `Retry-After` of a 429 when it is at most `maxRetryAfter`;
 * - creates (POST): only a 429 (Shopmonkey rejected the request before acting on it) and a refused
 *   connection (never sent). Any other failure may have created the row, so it is reported, not
 *   repeated; the adapter's idempotency keys make the caller's retry safe instead.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ParseResult from "effect/ParseResult"
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { Retry } from "@shoplink/http"
import { type Call, exchange, type ExchangeConfig } from "./internal/exchange.js"
import * as Resources from "./Resources.js"
import { ShopmonkeyError } from "./ShopmonkeyError.js"

/**
 * Production API base URL.
 *
 * @example
 * import { ShopmonkeyClient } from "@shoplink/adapter-shopmonkey"
 * ShopmonkeyClient.PRODUCTION_BASE_URL // "https://api.shopmonkey.cloud/v3"
 *
 * @since 0.1.0
 */
export const PRODUCTION_BASE_URL = "https://api.shopmonkey.cloud/v3"

/**
 * Sandbox API base URL (Shopmonkey's own sandbox environment; keys are per environment).
 *
 * @example
 * import { ShopmonkeyClient } from "@shoplink/adapter-shopmonkey"
 * ShopmonkeyClient.SANDBOX_BASE_URL // "https://sandbox-api.shopmonkey.cloud/v3"
 *
 * @since 0.1.0
 */
export const SANDBOX_BASE_URL = "https://sandbox-api.shopmonkey.cloud/v3"

/**
 * The largest `limit` Shopmonkey honours: larger values are silently clamped by the API, so the
 * client never asks for more.
 *
 * @example
 * import { ShopmonkeyClient } from "@shoplink/adapter-shopmonkey"
 * ShopmonkeyClient.MAX_PAGE_SIZE // 100
 *
 * @since 0.1.0
 */
export const MAX_PAGE_SIZE = 100

/**
 * Client settings.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { ShopmonkeyClient } from "@shoplink/adapter-shopmonkey"
 * const options: ShopmonkeyClient.Options = { apiKey: Redacted.make("key"), maxAttempts: 3 }
 *
 * @since 0.1.0
 */
export interface Options {
  /** The API key a shop admin created (Settings > Integration > API Keys). */
  readonly apiKey: Redacted.Redacted<string>
  /** Default {@link PRODUCTION_BASE_URL}; include the `/v3` version segment. */
  readonly baseUrl?: string
  /** Per-attempt timeout (default 30 seconds). */
  readonly timeout?: Duration.DurationInput
  /** Attempts per call, first included (default 5). */
  readonly maxAttempts?: number
  /** First backoff delay, doubled per attempt (default 250 ms). */
  readonly baseDelay?: Duration.DurationInput
  /** Longest backoff delay (default 10 seconds). */
  readonly maxDelay?: Duration.DurationInput
  /** Longest `Retry-After` waited for; a longer one fails the call as retryable (default 60 seconds). */
  readonly maxRetryAfter?: Duration.DurationInput
  /** No retry starts later than this after the first attempt (default 2 minutes). */
  readonly maxElapsed?: Duration.DurationInput
}

/**
 * Paging of a list call.
 *
 * @example
 * import type { ShopmonkeyClient } from "@shoplink/adapter-shopmonkey"
 * const options: ShopmonkeyClient.ListOptions = { pageSize: 50, where: { name: "NAPA Auto Parts" } }
 *
 * @since 0.1.0
 */
export interface ListOptions {
  /** Rows per page, capped at {@link MAX_PAGE_SIZE} (default 100). */
  readonly pageSize?: number
  /** Shopmonkey's `where` filter (sent as JSON), e.g. `{ name: "X" }`. */
  readonly where?: Readonly<Record<string, unknown>>
}

/**
 * The client's operations.
 *
 * @example
 * import { Effect } from "effect"
 * import type { ShopmonkeyClient } from "@shoplink/adapter-shopmonkey"
 * const numberOf = (client: ShopmonkeyClient.Service, id: string) => Effect.map(client.getOrder(id), (o) => o.number)
 *
 * @since 0.1.0
 */
export interface Service {
  readonly getOrder: (orderId: string) => Effect.Effect<Resources.Order, ShopmonkeyError>
  readonly getVehicle: (vehicleId: string) => Effect.Effect<Resources.Vehicle, ShopmonkeyError>
  readonly getCustomer: (customerId: string) => Effect.Effect<Resources.Customer, ShopmonkeyError>
  /** One page of orders (`GET /v3/order?limit&skip`). */
  readonly listOrdersPage: (
    page: { readonly limit: number; readonly skip: number; readonly where?: Readonly<Record<string, unknown>> }
  ) => Effect.Effect<Resources.Page<Resources.Order>, ShopmonkeyError>
  /** Every order, page after page while `meta.hasMore`. */
  readonly listOrders: (options?: ListOptions) => Effect.Effect<ReadonlyArray<Resources.Order>, ShopmonkeyError>
  /** Every vendor, page after page while `meta.hasMore`. */
  readonly listVendors: (options?: ListOptions) => Effect.Effect<ReadonlyArray<Resources.Vendor>, ShopmonkeyError>
  readonly createVendor: (body: { readonly name: string }) => Effect.Effect<Resources.Vendor, ShopmonkeyError>
  /** The services of an order, each with its parts. */
  readonly listServices: (orderId: string) => Effect.Effect<ReadonlyArray<Resources.Service>, ShopmonkeyError>
  readonly createService: (
    orderId: string,
    body: Resources.CreateService
  ) => Effect.Effect<Resources.Service, ShopmonkeyError>
  readonly createPart: (
    orderId: string,
    serviceId: string,
    body: Resources.CreatePart
  ) => Effect.Effect<Resources.Part, ShopmonkeyError>
}

/**
 * The service tag.
 *
 * @example
 * import { Effect } from "effect"
 * import { ShopmonkeyClient } from "@shoplink/adapter-shopmonkey"
 * const program = Effect.flatMap(ShopmonkeyClient.ShopmonkeyClient, (client) => client.getOrder("ord_1"))
 *
 * @since 0.1.0
 */
export class ShopmonkeyClient
  extends Context.Tag("@shoplink/adapter-shopmonkey/ShopmonkeyClient")<ShopmonkeyClient, Service>()
{}

const decodeFailure = (call: Call, error: ParseResult.ParseError) =>
  new ShopmonkeyError({
    operation: call.operation,
    method: call.method,
    path: call.path,
    reason: "Decode",
    status: 200,
    detail: ParseResult.TreeFormatter.formatErrorSync(error),
    requestSent: true,
    attempts: 1
  })

const One = <A, I>(schema: Schema.Schema<A, I>) => Schema.Struct({ data: schema })
const Many = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.Struct({
    data: Schema.Array(schema),
    meta: Schema.optionalWith(Resources.PageMeta, { default: () => ({ hasMore: false }) })
  })

const segment = (id: string) => encodeURIComponent(id)

/**
 * Builds the client from options, using the `HttpClient` in context.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Effect, Redacted } from "effect"
 * import { ShopmonkeyClient } from "@shoplink/adapter-shopmonkey"
 * const client = ShopmonkeyClient.make({ apiKey: Redacted.make("key") }).pipe(Effect.provide(FetchHttpClient.layer))
 *
 * @since 0.1.0
 */
export const make = (options: Options): Effect.Effect<Service, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const config: ExchangeConfig = {
      httpClient: yield* HttpClient.HttpClient,
      baseUrl: (options.baseUrl ?? PRODUCTION_BASE_URL).replace(/\/+$/, ""),
      apiKey: options.apiKey,
      timeout: Duration.decode(options.timeout ?? "30 seconds"),
      // The shared policy of @shoplink/http with this client's pacing.
      retry: Retry.make({
        maxAttempts: Math.max(1, Math.floor(options.maxAttempts ?? 5)),
        baseDelay: options.baseDelay ?? "250 millis",
        maxDelay: options.maxDelay ?? "10 seconds",
        retryAfterCap: options.maxRetryAfter ?? "60 seconds",
        maxElapsed: options.maxElapsed ?? "2 minutes"
      })
    }
    const call = <A, I>(spec: Call, schema: Schema.Schema<A, I>): Effect.Effect<A, ShopmonkeyError> =>
      exchange(config, spec).pipe(
        Effect.flatMap((json) => Schema.decodeUnknown(schema)(json)),
        Effect.catchTag("ParseError", (error) => Effect.fail(decodeFailure(spec, error)))
      )

    const page = <A, I>(operation: string, path: string, schema: Schema.Schema<A, I>) =>
    (
      request: { readonly limit: number; readonly skip: number; readonly where?: Readonly<Record<string, unknown>> }
    ) =>
      call({
        operation,
        method: "GET",
        path,
        mode: "read",
        query: {
          limit: String(Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(request.limit)))),
          skip: String(Math.max(0, Math.floor(request.skip))),
          ...(request.where === undefined ? {} : { where: JSON.stringify(request.where) })
        }
      }, Many(schema))

    // Follows meta.hasMore; stops on an empty page too, so a server that keeps saying hasMore
    // cannot loop forever.
    const all = <A, I>(operation: string, path: string, schema: Schema.Schema<A, I>) => (options: ListOptions = {}) =>
      Effect.gen(function*() {
        const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(options.pageSize ?? MAX_PAGE_SIZE)))
        const fetch = page(operation, path, schema)
        const rows: Array<A> = []
        for (;;) {
          const result = yield* fetch({
            limit,
            skip: rows.length,
            ...(options.where === undefined ? {} : { where: options.where })
          })
          rows.push(...result.data)
          if (!result.meta.hasMore || result.data.length === 0) return rows as ReadonlyArray<A>
        }
      })

    return ShopmonkeyClient.of({
      getOrder: (id) =>
        call(
          { operation: "getOrder", method: "GET", path: `/order/${segment(id)}`, mode: "read" },
          One(Resources.Order)
        ).pipe(Effect.map((r) => r.data)),
      getVehicle: (id) =>
        call(
          { operation: "getVehicle", method: "GET", path: `/vehicle/${segment(id)}`, mode: "read" },
          One(Resources.Vehicle)
        ).pipe(Effect.map((r) => r.data)),
      getCustomer: (id) =>
        call(
          { operation: "getCustomer", method: "GET", path: `/customer/${segment(id)}`, mode: "read" },
          One(Resources.Customer)
        ).pipe(Effect.map((r) => r.data)),
      listOrdersPage: page("listOrders", "/order", Resources.Order),
      listOrders: all("listOrders", "/order", Resources.Order),
      listVendors: all("listVendors", "/vendor", Resources.Vendor),
      createVendor: (body) =>
        call(
          { operation: "createVendor", method: "POST", path: "/vendor", body, mode: "create" },
          One(Resources.Vendor)
        ).pipe(Effect.map((r) => r.data)),
      listServices: (orderId) =>
        call(
          { operation: "listServices", method: "GET", path: `/order/${segment(orderId)}/service`, mode: "read" },
          Many(Resources.Service)
        ).pipe(
          Effect.map((r) => r.data)
        ),
      createService: (orderId, body) =>
        call({
          operation: "createService",
          method: "POST",
          path: `/order/${segment(orderId)}/service`,
          body,
          mode: "create"
        }, One(Resources.Service)).pipe(
          Effect.map((r) => r.data)
        ),
      createPart: (orderId, serviceId, body) =>
        call({
          operation: "createPart",
          method: "POST",
          path: `/order/${segment(orderId)}/service/${segment(serviceId)}/part`,
          body,
          mode: "create"
        }, One(Resources.Part)).pipe(Effect.map((r) => r.data))
    })
  })

/**
 * A layer from options.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Layer, Redacted } from "effect"
 * import { ShopmonkeyClient } from "@shoplink/adapter-shopmonkey"
 * const live = ShopmonkeyClient.layer({
 *   apiKey: Redacted.make("key"),
 *   baseUrl: ShopmonkeyClient.SANDBOX_BASE_URL
 * }).pipe(Layer.provide(FetchHttpClient.layer))
 *
 * @since 0.1.0
 */
export const layer = (options: Options): Layer.Layer<ShopmonkeyClient, never, HttpClient.HttpClient> =>
  Layer.effect(ShopmonkeyClient, make(options))

/**
 * A layer from configuration: each option may be a `Config` (`Config.Config.Wrap<Options>`), so
 * the application names its variables once; the client reads no environment variable of its own.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Config, Layer } from "effect"
 * import { ShopmonkeyClient } from "@shoplink/adapter-shopmonkey"
 * const live = ShopmonkeyClient.layerConfig({
 *   apiKey: Config.redacted("SHOPMONKEY_API_KEY"),
 *   baseUrl: Config.string("SHOPMONKEY_BASE_URL").pipe(Config.withDefault(ShopmonkeyClient.PRODUCTION_BASE_URL))
 * }).pipe(Layer.provide(FetchHttpClient.layer))
 *
 * @since 0.1.0
 */
export const layerConfig = (
  config: Config.Config.Wrap<Options>
): Layer.Layer<ShopmonkeyClient, ConfigError.ConfigError, HttpClient.HttpClient> =>
  Layer.effect(ShopmonkeyClient, Effect.flatMap(Config.unwrap(config), make))
