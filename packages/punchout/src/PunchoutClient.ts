/**
 * `PunchoutClient`: the typed client of the Vendor Punchout API on @effect/platform's HttpClient.
 * It creates sessions and runs the API commands (GetProductQuotes, CreateOrder, SubmitOrder,
 * ReserveOrder) inside them, reading the status envelope whatever the HTTP status.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import type * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type { ConfigError } from "effect/ConfigError"
import type { NonEmptyReadonlyArray } from "effect/Array"
import { Deadline, InvalidInput as Invalid, Mask, type Retry, TransportError } from "@shoplink/http"
import { Decoder, MessageError, OrderAlreadySubmitted, Punchout, PunchoutApi, Violation } from "@shoplink/protocol"
import { type CommandSpec, type ExchangeConfig, prepareClient, requestFor, runCommand } from "./internal/exchange.js"
import { checkSettings } from "./internal/settings.js"
import { commandUrl } from "./internal/urls.js"
import {
  type CommandError,
  type CommandName,
  type ConfigurationError,
  type InvalidInput,
  OrderAlreadySubmittedAfterRetry,
  type SubmitOrderError
} from "./PunchoutError.js"
import { type CreateSessionOptions, type Customer, customerKey, type PunchoutSession } from "./PunchoutSession.js"

/**
 * How to reach the service. `requestTimeout` bounds each attempt (default 30 seconds); on
 * `@shoplink/http-node`'s `UndiciHttpClient` the transport itself aborts a request at its deadline
 * (no fiber per attempt). `transformClient` lets you add middleware (proxies, extra headers,
 * tracing) to the HttpClient; each attempt's deadline then runs in a fiber of its own.
 * Settings that are wrong on their face (an empty key, a base URL that does not parse, a timeout
 * that is not a positive duration) fail with `ConfigurationError` when the client is built.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { PunchoutClient } from "@shoplink/punchout"
 * const options: PunchoutClient.PunchoutClientOptions = {
 *   baseUrl: "https://punchout.distributor.example",
 *   vendorApiKey: Redacted.make("vendor-key"),
 *   requestTimeout: "10 seconds",
 *   retry: { maxAttempts: 3 }
 * }
 *
 * @since 0.1.0
 */
export interface PunchoutClientOptions {
  readonly baseUrl: string
  readonly vendorApiKey: Redacted.Redacted<string>
  readonly requestTimeout?: Duration.DurationInput
  /** Overrides of the retry policy (`@shoplink/http`'s `Retry.RetryPolicyInput`; defaults `Retry.defaults`). */
  readonly retry?: Retry.RetryPolicyInput
  readonly transformClient?: (client: HttpClient.HttpClient) => HttpClient.HttpClient
}

/**
 * GetProductQuotes input: a search term, or a `productID` (with `brandID` for an exact match),
 * and a positive quantity.
 *
 * @example
 * import type { PunchoutClient } from "@shoplink/punchout"
 * const search: PunchoutClient.GetProductQuotesInput = { searchTerm: "oil filter", quantity: 1 }
 * const exact: PunchoutClient.GetProductQuotesInput = { productID: "51515", brandID: "WIX", quantity: 2 }
 *
 * @since 0.1.0
 */
export type GetProductQuotesInput =
  & ({ readonly searchTerm: string } | { readonly productID: string; readonly brandID?: string })
  & { readonly quantity: number; readonly referenceID?: string }

/**
 * One product of a multi-product CreateOrder.
 *
 * @example
 * import type { PunchoutClient } from "@shoplink/punchout"
 * const item: PunchoutClient.OrderItem = { productID: "51515", brandID: "WIX", quantity: 2 }
 *
 * @since 0.1.0
 */
export interface OrderItem {
  readonly productID: string
  readonly brandID: string
  readonly quantity: number
}

/**
 * CreateOrder input: one product, or several in `quotes`. `comment` is 1 to 20 characters.
 *
 * @example
 * import type { PunchoutClient } from "@shoplink/punchout"
 * const one: PunchoutClient.CreateOrderInput = { productID: "51515", brandID: "WIX", quantity: 1, comment: "PO 77" }
 * const many: PunchoutClient.CreateOrderInput = { quotes: [{ productID: "51515", brandID: "WIX", quantity: 1 }] }
 *
 * @since 0.1.0
 */
export type CreateOrderInput =
  & (OrderItem | { readonly quotes: NonEmptyReadonlyArray<OrderItem> })
  & { readonly referenceID?: string; readonly comment?: string }

/**
 * SubmitOrder input.
 *
 * @example
 * import type { PunchoutClient } from "@shoplink/punchout"
 * const input: PunchoutClient.SubmitOrderInput = { orderID: "10423" }
 *
 * @since 0.1.0
 */
export interface SubmitOrderInput {
  readonly orderID: string
  readonly referenceID?: string
}

/**
 * ReserveOrder input: `orderID` a non-zero integer of 1 to 8 digits, `comment` 1 to 20 characters.
 *
 * @example
 * import type { PunchoutClient } from "@shoplink/punchout"
 * const input: PunchoutClient.ReserveOrderInput = { orderID: "10423", comment: "PO 77" }
 *
 * @since 0.1.0
 */
export interface ReserveOrderInput {
  readonly orderID: string
  readonly referenceID?: string
  readonly comment?: string
}

/**
 * Errors of `createSession`: a bad credential answers `Unauthorized`.
 *
 * @example
 * import type { PunchoutClient } from "@shoplink/punchout"
 * const isAuth = (e: PunchoutClient.CreateSessionError) => e._tag === "Unauthorized"
 *
 * @since 0.1.0
 */
export type CreateSessionError = CommandError

/**
 * The client's operations. Commands take the session they run in.
 *
 * @example
 * import { Effect } from "effect"
 * import { PunchoutClient } from "@shoplink/punchout"
 * const quotes = (session: Parameters<PunchoutClient.Service["getProductQuotes"]>[0]) =>
 *   Effect.flatMap(
 *     PunchoutClient.PunchoutClient,
 *     (client) => client.getProductQuotes(session, { searchTerm: "oil filter", quantity: 1 })
 *   )
 *
 * @since 0.1.0
 */
export interface Service {
  readonly createSession: (
    customer: Customer,
    options: CreateSessionOptions
  ) => Effect.Effect<PunchoutSession, CreateSessionError>
  readonly getProductQuotes: (
    session: PunchoutSession,
    input: GetProductQuotesInput
  ) => Effect.Effect<Punchout.GetProductQuotesResponse, CommandError>
  readonly createOrder: (
    session: PunchoutSession,
    input: CreateOrderInput
  ) => Effect.Effect<Punchout.OrderResponse, CommandError>
  readonly submitOrder: (
    session: PunchoutSession,
    input: SubmitOrderInput
  ) => Effect.Effect<Punchout.OrderResponse, SubmitOrderError>
  readonly reserveOrder: (
    session: PunchoutSession,
    input: ReserveOrderInput
  ) => Effect.Effect<Punchout.ReserveOrderResponse, CommandError>
}

/**
 * The Punchout client service.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Effect, Layer, Redacted } from "effect"
 * import { PunchoutClient } from "@shoplink/punchout"
 *
 * const program = Effect.gen(function*() {
 *   const client = yield* PunchoutClient.PunchoutClient
 *   const session = yield* client.createSession(
 *     {
 *       accountNo: "100200",
 *       username: "parts@mainstreet-auto.example",
 *       country: "US",
 *       apiToken: Redacted.make("token")
 *     },
 *     { smsVendorName: "Acme SMS", webhooks: { order: "https://sms.example/o", quote: "https://sms.example/q" } }
 *   )
 *   return yield* client.getProductQuotes(session, { searchTerm: "oil filter", quantity: 1 })
 * })
 * const live = PunchoutClient.layer({ baseUrl: "http://127.0.0.1:8080", vendorApiKey: Redacted.make("key") })
 * program.pipe(Effect.provide(live.pipe(Layer.provide(FetchHttpClient.layer))))
 *
 * @since 0.1.0
 * @category services
 */
export class PunchoutClient extends Context.Tag("@shoplink/punchout/PunchoutClient")<PunchoutClient, Service>() {}

const invalid = (command: CommandName) => (error: ParseResult.ParseError): InvalidInput =>
  Invalid.fromViolation(command, Violation.first(error))

// Method and idempotency of each command (and the create path), from the API's one definition in
// @shoplink/protocol, read once. Command URLs come from the session's URL template.
const CREATE = PunchoutApi.route("create")
const commandRoute = (name: PunchoutApi.EndpointName) => {
  const { idempotency, method } = PunchoutApi.route(name)
  return { method, idempotency } as const
}
const COMMANDS = {
  GetProductQuotes: commandRoute("GetProductQuotes"),
  CreateOrder: commandRoute("CreateOrder"),
  SubmitOrder: commandRoute("SubmitOrder"),
  ReserveOrder: commandRoute("ReserveOrder")
}

const encoders = new WeakMap<object, (u: unknown) => Either.Either<unknown, ParseResult.ParseError>>()

// Validates against the protocol's refinements and encodes to the wire, serialized: encoders are
// compiled once per schema (`Decoder.compiledEncoder`, the same answers as Effect's encoder).
const encodeInput = <A, I>(
  command: CommandName,
  schema: Schema.Schema<A, I>,
  input: unknown
): Either.Either<string, InvalidInput> => {
  let encoder = encoders.get(schema)
  if (encoder === undefined) {
    encoder = Decoder.compiledEncoder(schema, { onExcessProperty: "error" })
    encoders.set(schema, encoder)
  }
  const encoded = encoder(input)
  return Either.isRight(encoded)
    ? Either.right(JSON.stringify(encoded.right))
    : Either.left(invalid(command)(encoded.left))
}

// Each session's request per command (method, URL with the token, headers), built at first use.
const sessionRequests = new WeakMap<PunchoutSession, Map<string, HttpClientRequest.HttpClientRequest>>()
const commandRequest = (session: PunchoutSession, command: keyof typeof COMMANDS) => {
  let requests = sessionRequests.get(session)
  if (requests === undefined) {
    requests = new Map()
    sessionRequests.set(session, requests)
  }
  let request = requests.get(command)
  if (request === undefined) {
    request = requestFor(COMMANDS[command].method, Redacted.value(commandUrl(session, command)))
    requests.set(command, request)
  }
  return request
}

const withoutUndefined = <T extends Record<string, unknown>>(record: T): T =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T

/**
 * Builds the client from options; needs an `HttpClient`. Fails with `ConfigurationError` when a
 * setting is wrong on its face, before any request.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Effect, Redacted } from "effect"
 * import { PunchoutClient } from "@shoplink/punchout"
 * const client = PunchoutClient.make({ baseUrl: "http://127.0.0.1:8080", vendorApiKey: Redacted.make("key") }).pipe(
 *   Effect.provide(FetchHttpClient.layer)
 * )
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: PunchoutClientOptions
): Effect.Effect<Service, ConfigurationError, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const settings = yield* checkSettings(options)
    // Requests carry our User-Agent from the start, so `transformClient` may still replace it.
    const base = yield* HttpClient.HttpClient
    // A transport that enforces deadlines itself and makes no span (UndiciHttpClient) is used as is:
    // no fiber per attempt, no FiberRef change per request. A transformed client may send from
    // another fiber or be another client altogether: its deadline runs in a fiber per attempt, and
    // the platform's span (which would record the token) is disabled.
    const transportDeadline = options.transformClient === undefined && Deadline.enforcedBy(base)
    const config: ExchangeConfig = {
      httpClient: transportDeadline
        ? base
        : prepareClient(options.transformClient ? options.transformClient(base) : base),
      timeout: settings.timeout,
      retry: settings.retry,
      transportDeadline
    }
    const createRequest = requestFor(CREATE.method, `${settings.baseUrl}${CREATE.path}`)

    const run = <A, I>(spec: CommandSpec<A, I>) => runCommand(config, spec)

    const createSession: Service["createSession"] = (customer, sessionOptions) =>
      Effect.gen(function*() {
        const body = yield* encodeInput(
          "CreateSession",
          Punchout.CreateSessionRequest,
          withoutUndefined({
            apiKey: options.vendorApiKey,
            apiToken: customer.apiToken,
            accountNo: customer.accountNo,
            username: customer.username,
            country: customer.country,
            smsVendorName: sessionOptions.smsVendorName,
            referenceID: sessionOptions.referenceID,
            webhooks: withoutUndefined({ ...sessionOptions.webhooks }),
            exportButtons: sessionOptions.exportButtons
          })
        )
        const response = yield* run({
          command: "CreateSession",
          request: createRequest,
          body,
          response: Punchout.CreateSessionResponse,
          idempotency: CREATE.idempotency,
          referenceID: sessionOptions.referenceID,
          secrets: [options.vendorApiKey, customer.apiToken]
        }).pipe(
          // The spec's one 401 does not say which credential it refused: name each, masked.
          Effect.catchTag("Unauthorized", (error) =>
            Effect.fail(MessageError.withHint(
              error,
              `the distributor refused the vendor API key ${
                Mask.secret(options.vendorApiKey)
              } or the customer's credentials ` +
                `(account ${customer.accountNo}, username ${customer.username}, country ${customer.country}, API token ${
                  Mask.secret(customer.apiToken)
                }): ` +
                "check the vendor key first (it is the same for every customer), then that the customer has not deleted or replaced its API token"
            )))
        )
        const punchout = response.punchout
        if (typeof punchout.expiration === "number" || punchout.token === undefined || punchout.token === null) {
          return yield* new TransportError.UnexpectedResponse({
            operation: "CreateSession",
            reason: "UnexpectedShape",
            httpStatus: 200,
            detail: "a success envelope came with a refused session (empty url, no token)",
            excerpt: ""
          })
        }
        const session: PunchoutSession = {
          customerKey: customerKey(customer),
          token: punchout.token,
          urlTemplate: Redacted.make(punchout.url),
          expiresAt: punchout.expiration,
          serverVersion: response.serverVersion ?? undefined
        }
        return session
      })

    // The hot path: no generator, one flatMap from the checked input to the exchange.
    const getProductQuotes: Service["getProductQuotes"] = (session, input) => {
      const wire: Record<string, unknown> = "searchTerm" in input
        ? { productID: input.searchTerm, quantity: input.quantity }
        : input.brandID === undefined
        ? { productID: input.productID, quantity: input.quantity }
        : { productID: input.productID, brandID: input.brandID, quantity: input.quantity }
      if (input.referenceID !== undefined) wire.referenceID = input.referenceID
      // Encoding is pure: done when the call is made, its failure is the effect's.
      const body = encodeInput("GetProductQuotes", Punchout.GetProductQuotesRequest, wire)
      if (Either.isLeft(body)) return Effect.fail(body.left)
      return run({
        command: "GetProductQuotes",
        request: commandRequest(session, "GetProductQuotes"),
        body: body.right,
        response: Punchout.GetProductQuotesResponse,
        idempotency: COMMANDS.GetProductQuotes.idempotency,
        referenceID: input.referenceID,
        secrets: [session.token]
      })
    }

    const createOrder: Service["createOrder"] = (session, input) =>
      Effect.gen(function*() {
        const body = "quotes" in input
          ? yield* encodeInput(
            "CreateOrder",
            Punchout.CreateOrderMultiple,
            withoutUndefined({
              quotes: input.quotes.map((q) => ({ productID: q.productID, brandID: q.brandID, quantity: q.quantity })),
              referenceID: input.referenceID,
              comment: input.comment
            })
          )
          : yield* encodeInput(
            "CreateOrder",
            Punchout.CreateOrderSingle,
            withoutUndefined({
              productID: input.productID,
              brandID: input.brandID,
              quantity: input.quantity,
              referenceID: input.referenceID,
              comment: input.comment
            })
          )
        return yield* run({
          command: "CreateOrder",
          request: commandRequest(session, "CreateOrder"),
          body,
          response: Punchout.OrderResponse,
          idempotency: COMMANDS.CreateOrder.idempotency,
          referenceID: input.referenceID,
          secrets: [session.token]
        })
      })

    const submitOrder: Service["submitOrder"] = (session, input) =>
      Effect.gen(function*() {
        const body = yield* encodeInput("SubmitOrder", Punchout.SubmitOrderRequest, withoutUndefined({ ...input }))
        return yield* runCommand(config, {
          command: "SubmitOrder",
          request: commandRequest(session, "SubmitOrder"),
          body,
          response: Punchout.OrderResponse,
          idempotency: COMMANDS.SubmitOrder.idempotency,
          referenceID: input.referenceID,
          secrets: [session.token]
        }, (error, attempts) =>
          attempts > 1 && error instanceof OrderAlreadySubmitted
            ? new OrderAlreadySubmittedAfterRetry({
              orderID: input.orderID,
              attempts,
              ...(input.referenceID === undefined ? {} : { referenceID: input.referenceID })
            })
            : error)
      })

    const reserveOrder: Service["reserveOrder"] = (session, input) =>
      Effect.gen(function*() {
        const body = yield* encodeInput("ReserveOrder", Punchout.ReserveOrderRequest, withoutUndefined({ ...input }))
        return yield* run({
          command: "ReserveOrder",
          request: commandRequest(session, "ReserveOrder"),
          body,
          response: Punchout.ReserveOrderResponse,
          idempotency: COMMANDS.ReserveOrder.idempotency,
          referenceID: input.referenceID,
          secrets: [session.token]
        })
      })

    return PunchoutClient.of({ createSession, getProductQuotes, createOrder, submitOrder, reserveOrder })
  })

/**
 * A layer from options. Building it fails with `ConfigurationError` when a setting is wrong on its
 * face.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Layer, Redacted } from "effect"
 * import { PunchoutClient } from "@shoplink/punchout"
 * const live = PunchoutClient.layer({ baseUrl: "http://127.0.0.1:8080", vendorApiKey: Redacted.make("key") }).pipe(
 *   Layer.provide(FetchHttpClient.layer)
 * )
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: PunchoutClientOptions
): Layer.Layer<PunchoutClient, ConfigurationError, HttpClient.HttpClient> => Layer.effect(PunchoutClient, make(options))

/**
 * A layer from configuration: each option may be a `Config` (or a plain value through
 * `Config.succeed`), so the application names its variables once. A missing or unreadable value
 * fails with a `ConfigError`, a value wrong on its face (an empty key, a base URL that does not
 * parse) with `ConfigurationError`, both when the layer is built. No environment variable name is
 * built into the client.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Config, Layer } from "effect"
 * import { PunchoutClient } from "@shoplink/punchout"
 * const live = PunchoutClient.layerConfig({
 *   baseUrl: Config.string("PUNCHOUT_BASE_URL"),
 *   vendorApiKey: Config.redacted("VENDOR_API_KEY"),
 *   requestTimeout: Config.duration("PUNCHOUT_TIMEOUT").pipe(Config.withDefault("30 seconds")),
 *   retry: { maxAttempts: Config.integer("PUNCHOUT_RETRY_MAX_ATTEMPTS").pipe(Config.withDefault(4)) }
 * }).pipe(Layer.provide(FetchHttpClient.layer))
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  config: Config.Config.Wrap<PunchoutClientOptions>
): Layer.Layer<PunchoutClient, ConfigError | ConfigurationError, HttpClient.HttpClient> =>
  Layer.effect(PunchoutClient, Effect.flatMap(Config.unwrap(config), make))

/**
 * Whether an error means the session has ended (revoked token, expired or unknown session).
 *
 * @example
 * import { PunchoutClient } from "@shoplink/punchout"
 * PunchoutClient.isSessionEnded({ _tag: "Unauthorized" }) // true
 *
 * @since 0.1.0
 */
export const isSessionEnded = (error: { readonly _tag: string }): boolean => error._tag === "Unauthorized"
