// Settings loading, and the client layers built from those settings.
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Customer, OrderManagementClient } from "@shoplink/order-management"
import { OrderManagement, Values } from "@shoplink/protocol"
import { PunchoutClient, type PunchoutError, type PunchoutSession } from "@shoplink/punchout"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as ShoplinkConfig from "../ShoplinkConfig.js"
import type { GlobalArgs } from "./spec.js"

/** The settings for a command: read, then checked up front so that a value wrong on its face (a
 * URL that does not parse, an unknown environment) is a configuration error (exit 2) naming the
 * variable, not a transport error at the first call. */
export const loadSettings = (args: GlobalArgs) =>
  Effect.flatMap(ShoplinkConfig.load(Option.getOrUndefined(args.config), process.env), ShoplinkConfig.validate)

// A CLI answers a person waiting at a prompt: two attempts instead of the libraries' four keeps a
// dead host from holding the terminal for long while still riding out one blip.
const cliRetry = { maxAttempts: 2 } as const

// Whatever the clients' layers fail with when built (their configuration errors): exit code 2 by
// `ExitCode.isConfigurationError`, whichever class a client version raises.
type PunchoutLayerError = Layer.Layer.Error<ReturnType<typeof PunchoutClient.layer>>
type OmsLayerError = Layer.Layer.Error<ReturnType<typeof OrderManagementClient.layer>>

export const punchoutLayer = (
  settings: ShoplinkConfig.Settings
): Effect.Effect<Layer.Layer<PunchoutClient.PunchoutClient, PunchoutLayerError>, ShoplinkConfig.ConfigProblem> =>
  Effect.map(
    ShoplinkConfig.requireAll(settings, ["punchoutBaseUrl", "vendorApiKey"]),
    (values) =>
      PunchoutClient.layer({
        baseUrl: values.punchoutBaseUrl,
        vendorApiKey: Redacted.make(values.vendorApiKey),
        retry: cliRetry,
        requestTimeout: "20 seconds"
      }).pipe(Layer.provide(NodeHttpClient.layerUndici))
  )

export const punchoutCustomer = (settings: ShoplinkConfig.Settings) =>
  Effect.map(
    ShoplinkConfig.requireAll(settings, [
      "customerAccountNo",
      "customerUsername",
      "customerCountry",
      "customerApiToken"
    ]),
    (values) => ({
      accountNo: values.customerAccountNo,
      username: values.customerUsername,
      // requireAll has checked it against SETTINGS.customerCountry.oneOf.
      country: values.customerCountry as Values.Country,
      apiToken: Redacted.make(values.customerApiToken)
    })
  )

/** Everything a Punchout command needs, checked at once so every problem is reported in one run. */
const punchoutSettings = (settings: ShoplinkConfig.Settings) =>
  Effect.map(
    ShoplinkConfig.requireAll(settings, [
      "punchoutBaseUrl",
      "vendorApiKey",
      "customerAccountNo",
      "customerUsername",
      "customerCountry",
      "customerApiToken"
    ]),
    () => settings
  )

export const sessionOptions = (settings: ShoplinkConfig.Settings) => {
  const callback = ShoplinkConfig.optional(settings, "webhookCallbackUrl")
  return {
    smsVendorName: Option.getOrElse(ShoplinkConfig.optional(settings, "smsVendorName"), () => "shoplink-cli"),
    webhooks: {
      order: Option.getOrElse(
        ShoplinkConfig.optional(settings, "webhookOrderUrl"),
        () => "http://127.0.0.1:8787/order"
      ),
      quote: Option.getOrElse(
        ShoplinkConfig.optional(settings, "webhookQuoteUrl"),
        () => "http://127.0.0.1:8787/quote"
      ),
      ...(Option.isSome(callback) ? { callback: callback.value } : {})
    }
  }
}

/** Creates a fresh session for the configured customer (every command uses its own: see README). */
export const newSession = (
  settings: ShoplinkConfig.Settings
): Effect.Effect<
  PunchoutSession.PunchoutSession,
  PunchoutError.CommandError | ShoplinkConfig.ConfigProblem,
  PunchoutClient.PunchoutClient
> =>
  Effect.gen(function*() {
    const customer = yield* punchoutCustomer(settings)
    const client = yield* PunchoutClient.PunchoutClient
    return yield* client.createSession(customer, sessionOptions(settings))
  })

/** Runs `f` with a new session inside the Punchout client layer. */
export const withPunchout = <A, E>(
  settings: ShoplinkConfig.Settings,
  f: (session: PunchoutSession.PunchoutSession, client: PunchoutClient.Service) => Effect.Effect<A, E>
): Effect.Effect<A, E | PunchoutError.CommandError | PunchoutLayerError | ShoplinkConfig.ConfigProblem> =>
  Effect.gen(function*() {
    yield* punchoutSettings(settings)
    const layer = yield* punchoutLayer(settings)
    return yield* Effect.gen(function*() {
      const client = yield* PunchoutClient.PunchoutClient
      const session = yield* newSession(settings)
      return yield* f(session, client)
    }).pipe(Effect.provide(layer))
  })

export const omsEnvironment = (
  settings: ShoplinkConfig.Settings,
  override: Option.Option<OrderManagement.Environment>
): Effect.Effect<OrderManagement.Environment, ShoplinkConfig.ConfigProblem> =>
  Option.isSome(override)
    ? Effect.succeed(override.value)
    // Checked against SETTINGS.omsEnvironment.oneOf.
    : Effect.map(ShoplinkConfig.required(settings, "omsEnvironment"), (value) => value as OrderManagement.Environment)

const hostKey = (environment: OrderManagement.Environment) =>
  environment.endsWith("_PRD") ? "omsProdBaseUrl" as const : "omsTestBaseUrl" as const

export const omsLayer = (
  settings: ShoplinkConfig.Settings,
  environment: OrderManagement.Environment
): Effect.Effect<
  Layer.Layer<OrderManagementClient.OrderManagementClient, OmsLayerError>,
  ShoplinkConfig.ConfigProblem
> =>
  Effect.map(ShoplinkConfig.requireAll(settings, ["omsApiKey", hostKey(environment)]), (values) => {
    const host = hostKey(environment)
    return OrderManagementClient.layer({
      environment,
      apiKey: Redacted.make(values.omsApiKey),
      ...(host === "omsProdBaseUrl" ? { prodBaseUrl: values[host] } : { testBaseUrl: values[host] }),
      retry: cliRetry,
      timeout: "20 seconds"
    }).pipe(Layer.provide(NodeHttpClient.layerUndici))
  })

export const omsCustomer = (settings: ShoplinkConfig.Settings) =>
  Effect.map(
    ShoplinkConfig.requireAll(settings, ["customerAccountNo", "customerApiToken"]),
    (values) => Customer.make(values.customerAccountNo, Redacted.make(values.customerApiToken))
  )

/** Everything an Order Management command needs, checked at once. */
const omsSettings = (settings: ShoplinkConfig.Settings, env: Option.Option<OrderManagement.Environment>) =>
  Effect.gen(function*() {
    const keys = ["omsApiKey", "customerAccountNo", "customerApiToken"] as const
    if (Option.isSome(env)) return yield* ShoplinkConfig.requireAll(settings, [...keys, hostKey(env.value)])
    const environment = ShoplinkConfig.problem(settings, "omsEnvironment")
    // Without a valid environment the host to check is unknown: report the rest with it.
    if (Option.isSome(environment)) return yield* ShoplinkConfig.requireAll(settings, ["omsEnvironment", ...keys])
    const value = settings.values.omsEnvironment!.value as OrderManagement.Environment
    return yield* ShoplinkConfig.requireAll(settings, ["omsEnvironment", ...keys, hostKey(value)])
  })

/** Runs `f` with the configured customer's Order Management handle. */
export const withOms = <A, E>(
  settings: ShoplinkConfig.Settings,
  env: Option.Option<OrderManagement.Environment>,
  f: (customer: OrderManagementClient.CustomerClient) => Effect.Effect<A, E>
): Effect.Effect<A, E | OmsLayerError | ShoplinkConfig.ConfigProblem> =>
  Effect.gen(function*() {
    yield* omsSettings(settings, env)
    const environment = yield* omsEnvironment(settings, env)
    const layer = yield* omsLayer(settings, environment)
    const customer = yield* omsCustomer(settings)
    return yield* Effect.flatMap(
      OrderManagementClient.OrderManagementClient,
      (client) => f(client.forCustomer(customer))
    ).pipe(
      Effect.provide(layer)
    )
  })

/** Today's date where the user is (accountDetails' submitDate is a calendar day, not an instant). */
export const today: Effect.Effect<DateTime.Zoned> = Effect.sync(() =>
  DateTime.unsafeMakeZoned(Date.now(), { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone })
)
