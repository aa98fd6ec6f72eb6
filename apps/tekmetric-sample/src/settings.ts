// What the service needs to run, read from the environment. With neither the distributor's base URL
// nor Tekmetric's set, it runs on the embedded default: the distributor sandbox and the fake
// Tekmetric started in-process, with two demo shops and their users (see embedded.ts).
// The variables are named once: Shoplink's standard settings in @shoplink/connector's SettingsTable
// (read through its Settings Configs), and this service's own (PORT, HOST, SHOPLINK_LINK_SECRET,
// TEKMETRIC_BASE_URL) here.
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { type ConnectorRuntime, Settings as Standard, SettingsTable, type ShopStore, type Storage } from "@shoplink/connector-runtime"
import { SignIn } from "@shoplink/service-pages"

/** Someone who may sign in to the sample's pages, and the one shop they act for. */
export type User = SignIn.User

export interface Settings {
  readonly port: number
  readonly host: string
  /** Where the distributor (webhooks) and browsers (callback, parts page) reach this service. */
  readonly publicBaseUrl: string | undefined
  readonly smsVendorName: string
  readonly database: Storage.Location
  readonly punchoutBaseUrl: string
  readonly vendorApiKey: Redacted.Redacted<string>
  /**
   * The distributor's Order Management API (`SHOPLINK_OMS_*`): with it, every order webhook is
   * verified with the distributor before it is applied; without it, the runtime warns at start-up.
   */
  readonly orderManagement: ConnectorRuntime.Options["orderManagement"]
  /** `https://api.tekmetric.com` or `https://sandbox.tekmetric.com` (or the fake's URL). */
  readonly tekmetricBaseUrl: string
  readonly secretKeys: Redacted.Redacted<string>
  /** Signs the links to the runtime's parts page (random per run when not set). */
  readonly linkSecret: Redacted.Redacted<string>
  readonly users: ReadonlyArray<User>
  /** Shops onboarded (or replaced) at start-up: the embedded default's two; none otherwise. */
  readonly shops: ReadonlyArray<ShopStore.ShopInput>
}

const { SETTINGS } = SettingsTable

/** This service's own variables (Shoplink's standard ones are named once, in SettingsTable). */
const OWN = { port: "PORT", host: "HOST", linkSecret: "SHOPLINK_LINK_SECRET" } as const

/** Tekmetric's API host, checked by the standard base URL rules. */
const tekmetricBaseUrlSetting: SettingsTable.SettingDefinition = {
  env: "TEKMETRIC_BASE_URL",
  file: ["tekmetric", "baseUrl"],
  secret: false,
  description: "the Tekmetric API base URL (https://api.tekmetric.com or https://sandbox.tekmetric.com)",
  kind: "baseUrl"
}

export const serviceConfig = Config.all({
  port: Config.integer(OWN.port).pipe(Config.withDefault(3000)),
  host: Config.string(OWN.host).pipe(Config.withDefault("127.0.0.1")),
  publicBaseUrl: Config.option(Standard.publicBaseUrl).pipe(Config.map(Option.getOrUndefined)),
  smsVendorName: Standard.smsVendorName.pipe(Config.withDefault("Tekmetric (Shoplink sample)")),
  database: Config.option(Standard.storage).pipe(Config.map(Option.getOrUndefined))
})

/** The sign-in users of real-service mode: a JSON array of { email, name?, shopId, passwordHash }. */
export const parseUsers = (text: string) => SignIn.parseUsers(text)

/** The real distributor and the real Tekmetric, when configured. */
export const externalConfig = Config.all({
  punchoutBaseUrl: Standard.punchoutClient.baseUrl,
  vendorApiKey: Standard.punchoutClient.vendorApiKey,
  orderManagement: Config.option(Config.all(Standard.orderManagementClient)).pipe(Config.map(Option.getOrUndefined)),
  tekmetricBaseUrl: Standard.string(tekmetricBaseUrlSetting).pipe(Config.withDefault("https://sandbox.tekmetric.com")),
  // Checked as a keyring: the problem is named, never a key.
  secretKeys: Standard.secretBox.keys,
  linkSecret: Config.option(Config.redacted(OWN.linkSecret)).pipe(
    Config.map(Option.getOrElse(() => Redacted.make(SignIn.randomToken())))
  ),
  users: SignIn.usersFileConfig(SETTINGS.usersFile.env)
}).pipe(Config.map((settings) => ({ ...settings, shops: [] as ReadonlyArray<ShopStore.ShopInput> })))

/** Whether a real-service setting is present: then all of them must be. */
export const externalRequested = Config.all(
  [SETTINGS.punchoutBaseUrl.env, tekmetricBaseUrlSetting.env].map((name) => Config.option(Config.string(name)))
).pipe(Config.map((values) => values.some(Option.isSome)))

/** Names to show in the start-up banner. */
export const names = { punchoutBaseUrl: SETTINGS.punchoutBaseUrl.env, tekmetricBaseUrl: tekmetricBaseUrlSetting.env } as const

/** Reads `config`; on an error prints it in one line per problem and exits with code 2. */
export const readOrExplain = <A>(config: Config.Config<A>): Effect.Effect<A> =>
  Effect.catchAll(config, (error) =>
    Effect.zipRight(
      Effect.sync(() => {
        process.stderr.write(`Configuration error: ${String(error).replace(/\s+/g, " ")}\n`)
        process.exitCode = 2
      }),
      Effect.interrupt
    ))
