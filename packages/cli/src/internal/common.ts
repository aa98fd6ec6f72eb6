// Options every command shares (--json, --config), settings loading, and the client layers built
// from those settings.
import * as Options from "@effect/cli/Options"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Customer, OrderManagementClient, type OrderManagementError } from "@shoplink/order-management"
import { OrderManagement, Values } from "@shoplink/protocol"
import { PunchoutClient, type PunchoutError, type PunchoutSession } from "@shoplink/punchout"
import { DateTime, Effect, Layer, Option } from "effect"
import * as ShoplinkConfig from "../ShoplinkConfig.js"

export const jsonOption = Options.boolean("json").pipe(
  Options.withDescription("print JSON (the distributor's wire shapes) instead of tables")
)

export const configOption = Options.text("config").pipe(
  Options.withDescription(`JSON config file (default ./${ShoplinkConfig.DEFAULT_CONFIG_FILE} when present)`),
  Options.optional
)

export const common = { json: jsonOption, config: configOption }

export interface CommonArgs {
  readonly json: boolean
  readonly config: Option.Option<string>
}

export const loadSettings = (args: CommonArgs) => ShoplinkConfig.load(Option.getOrUndefined(args.config), process.env)

// A CLI answers a person waiting at a prompt: two attempts instead of the libraries' four keeps a
// dead host from holding the terminal for long while still riding out one blip.
const cliRetry = { maxAttempts: 2 } as const

export const punchoutLayer = (
  settings: ShoplinkConfig.Settings
): Effect.Effect<Layer.Layer<PunchoutClient.PunchoutClient>, ShoplinkConfig.ConfigProblem> =>
  Effect.gen(function*() {
    const baseUrl = yield* ShoplinkConfig.required(settings, "punchoutBaseUrl")
    const vendorApiKey = yield* ShoplinkConfig.secret(settings, "vendorApiKey")
    return PunchoutClient.layer({ baseUrl, vendorApiKey, retry: cliRetry, requestTimeout: "20 seconds" }).pipe(
      Layer.provide(NodeHttpClient.layerUndici)
    )
  })

const isCountry = (value: string): value is Values.Country => ["US", "US QA", "CA", "CA QA"].includes(value)

export const punchoutCustomer = (settings: ShoplinkConfig.Settings) =>
  Effect.gen(function*() {
    const accountNo = yield* ShoplinkConfig.required(settings, "customerAccountNo")
    const username = yield* ShoplinkConfig.required(settings, "customerUsername")
    const country = yield* ShoplinkConfig.required(settings, "customerCountry")
    const apiToken = yield* ShoplinkConfig.secret(settings, "customerApiToken")
    if (!isCountry(country)) {
      return yield* new ShoplinkConfig.ConfigProblem({
        message: `${ShoplinkConfig.SETTINGS.customerCountry.env} is "${country}"; expected US, US QA, CA or CA QA`,
        fix: ShoplinkConfig.howToSet("customerCountry")
      })
    }
    return { accountNo, username, country, apiToken }
  })

export const sessionOptions = (settings: ShoplinkConfig.Settings) => {
  const callback = ShoplinkConfig.optional(settings, "webhookCallbackUrl")
  return {
    smsVendorName: Option.getOrElse(ShoplinkConfig.optional(settings, "smsVendorName"), () => "shoplink-cli"),
    webhooks: {
      order: Option.getOrElse(ShoplinkConfig.optional(settings, "webhookOrderUrl"), () => "http://127.0.0.1:8787/order"),
      quote: Option.getOrElse(ShoplinkConfig.optional(settings, "webhookQuoteUrl"), () => "http://127.0.0.1:8787/quote"),
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
): Effect.Effect<A, E | PunchoutError.CommandError | ShoplinkConfig.ConfigProblem> =>
  Effect.gen(function*() {
    const layer = yield* punchoutLayer(settings)
    return yield* Effect.gen(function*() {
      const client = yield* PunchoutClient.PunchoutClient
      const session = yield* newSession(settings)
      return yield* f(session, client)
    }).pipe(Effect.provide(layer))
  })

export const environments = ["US_QUA", "CA_QUA", "US_PRD", "CA_PRD"] as const

export const envOption = Options.choice("env", environments).pipe(
  Options.withDescription("Order Management environment (default SHOPLINK_OMS_ENVIRONMENT)"),
  Options.optional
)

const isEnvironment = (value: string): value is OrderManagement.Environment =>
  (environments as ReadonlyArray<string>).includes(value)

export const omsEnvironment = (settings: ShoplinkConfig.Settings, override: Option.Option<OrderManagement.Environment>) =>
  Effect.gen(function*() {
    if (Option.isSome(override)) return override.value
    const value = yield* ShoplinkConfig.required(settings, "omsEnvironment")
    if (!isEnvironment(value)) {
      return yield* new ShoplinkConfig.ConfigProblem({
        message: `${ShoplinkConfig.SETTINGS.omsEnvironment.env} is "${value}"; expected US_QUA, CA_QUA, US_PRD or CA_PRD`,
        fix: ShoplinkConfig.howToSet("omsEnvironment")
      })
    }
    return value
  })

export const omsLayer = (
  settings: ShoplinkConfig.Settings,
  environment: OrderManagement.Environment
): Effect.Effect<
  Layer.Layer<OrderManagementClient.OrderManagementClient, OrderManagementError.ConfigurationError>,
  ShoplinkConfig.ConfigProblem
> =>
  Effect.gen(function*() {
    const apiKey = yield* ShoplinkConfig.secret(settings, "omsApiKey")
    const production = environment.endsWith("_PRD")
    const hostKey = production ? "omsProdBaseUrl" : "omsTestBaseUrl"
    const host = yield* ShoplinkConfig.required(settings, hostKey)
    return OrderManagementClient.layer({
      environment,
      apiKey,
      ...(production ? { prodBaseUrl: host } : { testBaseUrl: host }),
      retry: cliRetry,
      timeout: "20 seconds"
    }).pipe(Layer.provide(NodeHttpClient.layerUndici))
  })

export const omsCustomer = (settings: ShoplinkConfig.Settings) =>
  Effect.gen(function*() {
    const accountNo = yield* ShoplinkConfig.required(settings, "customerAccountNo")
    const apiToken = yield* ShoplinkConfig.secret(settings, "customerApiToken")
    return Customer.make(accountNo, apiToken)
  })

/** Runs `f` with the configured customer's Order Management handle. */
export const withOms = <A, E>(
  settings: ShoplinkConfig.Settings,
  env: Option.Option<OrderManagement.Environment>,
  f: (customer: OrderManagementClient.CustomerClient) => Effect.Effect<A, E>
): Effect.Effect<A, E | OrderManagementError.ConfigurationError | ShoplinkConfig.ConfigProblem> =>
  Effect.gen(function*() {
    const environment = yield* omsEnvironment(settings, env)
    const layer = yield* omsLayer(settings, environment)
    const customer = yield* omsCustomer(settings)
    return yield* Effect.flatMap(OrderManagementClient.OrderManagementClient, (client) => f(client.forCustomer(customer))).pipe(
      Effect.provide(layer)
    )
  })

/** Today's date where the user is (accountDetails' submitDate is a calendar day, not an instant). */
export const today: Effect.Effect<DateTime.Zoned> = Effect.sync(() =>
  DateTime.unsafeMakeZoned(Date.now(), { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone })
)
