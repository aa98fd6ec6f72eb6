// What the service needs to run, read from the environment. With none of the distributor and
// Shopmonkey variables set, it runs on the embedded default: the sandbox and the fake Shopmonkey
// started in-process, with two demo shops and their users (see embedded.ts).
// The variables are named once: Shoplink's standard settings in @shoplink/connector's SettingsTable
// (read through its Settings Configs), the Shopmonkey base URL in the adapter, and this service's
// own (PORT, HOST, SHOPLINK_PUBLIC_PORT, SHOPLINK_APP_BASE_URL) here.
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import { shopmonkeyBaseUrl, shopmonkeyBaseUrlSetting } from "@shoplink/adapter-shopmonkey"
import { type ConnectorRuntime, Settings as Standard, SettingsTable, type ShopStore, type Storage } from "@shoplink/connector-runtime"
import { SignIn } from "@shoplink/service-pages"

/**
 * Someone who may sign in to the sample's pages, and the one shop they act for; the hash is
 * `SignIn.hashPassword`'s (`node dist/hash-password.js`).
 */
export type User = SignIn.User

export interface Settings {
  readonly port: number
  readonly host: string
  /**
   * When set, the public routes (the distributor's webhooks, the callback page) get a listener of
   * their own on this port, and the main listener serves only the signed-in pages.
   */
  readonly publicPort: number | undefined
  /** Where the distributor (webhooks) and browsers (callback) reach the public routes. */
  readonly publicBaseUrl: string | undefined
  /** Where users' browsers reach the pages (defaults to the public base URL on one listener). */
  readonly appBaseUrl: string | undefined
  readonly smsVendorName: string
  /**
   * `SHOPLINK_DATABASE_URL`: a PostgreSQL URL shared by several instances, or a SQLite file.
   * Unset, real-service mode uses `shoplink-sample.sqlite` and the embedded default a scratch file.
   */
  readonly database: Storage.Location
  readonly punchoutBaseUrl: string
  readonly vendorApiKey: Redacted.Redacted<string>
  /**
   * The distributor's Order Management API (`SHOPLINK_OMS_*`): with it, every order webhook is
   * verified with the distributor before it is applied; without it, the runtime warns at start-up.
   */
  readonly orderManagement: ConnectorRuntime.Options["orderManagement"]
  readonly shopmonkeyBaseUrl: string
  /** The keyring sealing the shops' secrets in the database (`id:base64key[,…]`). */
  readonly secretKeys: Redacted.Redacted<string>
  readonly users: ReadonlyArray<User>
  /** Shops onboarded (or replaced) at start-up: the embedded default's two; none otherwise. */
  readonly shops: ReadonlyArray<ShopStore.ShopInput>
}

const optionalPort = (name: string) =>
  Config.option(Config.integer(name).pipe(
    Config.validate({ message: "expected a port number from 0 to 65535", validation: (n) => n >= 0 && n <= 65535 })
  )).pipe(Config.map(Option.getOrUndefined))

/** An optional base URL, checked by the standard rules (http or https, no query), trailing slashes dropped. */
const optionalUrl = (definition: SettingsTable.SettingDefinition) =>
  Config.option(Standard.string(definition)).pipe(
    Config.map((url) => Option.getOrUndefined(Option.map(url, (text) => text.replace(/\/+$/, ""))))
  )

const { SETTINGS } = SettingsTable
/** This service's own variables (the standard ones are in SettingsTable). */
const OWN = { port: "PORT", host: "HOST", publicPort: "SHOPLINK_PUBLIC_PORT", appBaseUrl: "SHOPLINK_APP_BASE_URL" } as const

/** The service's own settings (port, host, addresses, database), present in both modes. */
export const serviceConfig = Config.all({
  port: Config.integer(OWN.port).pipe(Config.withDefault(3000)),
  host: Config.string(OWN.host).pipe(Config.withDefault("127.0.0.1")),
  publicPort: optionalPort(OWN.publicPort),
  publicBaseUrl: optionalUrl(SETTINGS.publicBaseUrl),
  appBaseUrl: optionalUrl({
    env: OWN.appBaseUrl,
    file: ["service", "appBaseUrl"],
    secret: false,
    description: "where users' browsers reach the sample's pages",
    kind: "baseUrl"
  }),
  smsVendorName: Standard.smsVendorName.pipe(Config.withDefault("Shopmonkey (Shoplink sample)")),
  // Unset: the mode picks a SQLite file (see Settings.database). Its problems never hold a password.
  database: Config.option(Standard.storage).pipe(Config.map(Option.getOrUndefined))
})

const HASH_HINT = "`node dist/hash-password.js`"

/** Reads the sign-in users of real-service mode: a JSON array of { email, name?, shopId, passwordHash }. */
export const parseUsers = (text: string): Either.Either<ReadonlyArray<User>, string> => SignIn.parseUsers(text, { hashHint: HASH_HINT })

const usersFile = SignIn.usersFileConfig(SETTINGS.usersFile.env, { hashHint: HASH_HINT })

/**
 * Variables of the single-shop sample this one replaced. Shops now live in the database, so these
 * are refused rather than silently ignored.
 */
const RETIRED = [
  "SHOPLINK_SHOPMONKEY_API_KEY",
  SETTINGS.customerAccountNo.env,
  SETTINGS.customerUsername.env,
  SETTINGS.customerCountry.env,
  SETTINGS.customerApiToken.env,
  "SHOPLINK_SHOP_ID"
] as const

const retired = Config.all(RETIRED.map((name) =>
  Config.option(Config.string(name)).pipe(
    Config.mapOrFail((value) =>
      Option.isSome(value)
        ? Either.left(ConfigError.Unsupported([name], "shops are onboarded in the database now: `shoplink shops add` (see the README)"))
        : Either.right(undefined)
    )
  )
))

/** The real distributor and the real Shopmonkey, when configured. */
export const externalConfig = Config.all({
  punchoutBaseUrl: Standard.punchoutClient.baseUrl,
  vendorApiKey: Standard.punchoutClient.vendorApiKey,
  orderManagement: Config.option(Config.all(Standard.orderManagementClient)).pipe(Config.map(Option.getOrUndefined)),
  shopmonkeyBaseUrl,
  // Checked as a keyring: the problem is named, never a key.
  secretKeys: Standard.secretBox.keys,
  users: usersFile,
  retired
}).pipe(Config.map(({ retired: _, ...rest }) => ({ ...rest, shops: [] as ReadonlyArray<ShopStore.ShopInput> })))

/** Whether any real-service setting is present: then all of them must be. */
export const externalRequested = Config.all(
  [SETTINGS.punchoutBaseUrl.env, shopmonkeyBaseUrlSetting.env, ...RETIRED].map((name) => Config.option(Config.string(name)))
).pipe(Config.map((values) => values.some(Option.isSome)))

/** What each variable is for, so a configuration error can say more than its name. */
const described: Record<string, { readonly what: string; readonly secret?: true; readonly safeMessage?: true }> = {
  [OWN.port]: { what: "the port this service listens on" },
  [OWN.host]: { what: "the interface this service listens on" },
  [OWN.publicPort]: { what: "a separate port for the webhooks and the callback page" },
  [SETTINGS.publicBaseUrl.env]: { what: "where the distributor and browsers reach the public routes" },
  [OWN.appBaseUrl]: { what: "where users' browsers reach the sample's pages" },
  [SETTINGS.smsVendorName.env]: { what: "the name shown in the distributor's footer" },
  [SETTINGS.database.env]: {
    what: "the database for shops, the inbox and launch keys: postgres://… (shared by several instances) or a SQLite file",
    secret: true,
    safeMessage: true
  },
  // URL problems quote the value: the URL settings are not secrets.
  [SETTINGS.punchoutBaseUrl.env]: { what: "the distributor's Punchout base URL" },
  [SETTINGS.vendorApiKey.env]: { what: "the distributor's vendor API key", secret: true },
  [shopmonkeyBaseUrlSetting.env]: { what: "the Shopmonkey API base URL" },
  // Its messages come from the keyring rules, which name the problem and never a key.
  [SETTINGS.secretKeys.env]: { what: "the keyring sealing shops' secrets in the database", secret: true, safeMessage: true },
  [SETTINGS.usersFile.env]: { what: "a JSON file of the users who may sign in" }
}

const variable = (path: ReadonlyArray<string>) => {
  const name = path.join("_")
  const about = described[name]
  return about === undefined ? name : `${name} (${about.what})`
}

/**
 * One line per problem in a `ConfigError` (an And/Or tree), naming the variable and what it is
 * for. Messages of invalid secrets are left out: they may quote the value.
 */
export const configErrorLines = (error: ConfigError.ConfigError): ReadonlyArray<string> => {
  const lines = ConfigError.reduceWithContext(error, undefined, {
    andCase: (_, left: ReadonlyArray<string>, right: ReadonlyArray<string>) => [...left, ...right],
    orCase: (_, left: ReadonlyArray<string>, right: ReadonlyArray<string>) => [...left, ...right],
    missingDataCase: (_, path) => [`${variable(path)} is missing`],
    invalidDataCase: (_, path, message) => {
      const about = described[path.join("_")]
      if (about?.secret === true && about.safeMessage !== true) return [`${variable(path)} is invalid`]
      // The standard settings' problems read after the name ("is not a URL: …", "must not …").
      return [/^(is|must) /.test(message) ? `${variable(path)} ${message}` : `${variable(path)} is invalid: ${message}`]
    },
    sourceUnavailableCase: (_, path, message) => [`${variable(path)} could not be read: ${message}`],
    unsupportedCase: (_, path, message) => [`${variable(path)} is not supported: ${message}`]
  })
  return [...new Set(lines)]
}

/**
 * Reads `config`; on a configuration error prints one line per problem to stderr (then `note`)
 * and stops the program with exit code 2. It interrupts rather than fails so that `runMain` adds
 * no log of its own, which would print the whole error tree on one line.
 */
export const readOrExplain = <A>(config: Config.Config<A>, note: ReadonlyArray<string> = []): Effect.Effect<A> =>
  Effect.catchAll(config, (error) =>
    Effect.zipRight(
      Effect.sync(() => {
        const lines = configErrorLines(error)
        process.stderr.write(
          [`Configuration error, ${lines.length} setting${lines.length === 1 ? "" : "s"} to fix:`, ...lines.map((l) => `  ${l}`), ...note]
            .map((l) => `${l}\n`)
            .join("")
        )
        process.exitCode = 2
      }),
      Effect.interrupt
    ))

/** The service's own settings, or the list of what to fix. */
export const loadServiceSettings = readOrExplain(serviceConfig)

/** The real distributor and Shopmonkey settings, or the list of what to fix. */
export const loadExternalSettings = readOrExplain(externalConfig, [
  `${SETTINGS.punchoutBaseUrl.env} or ${shopmonkeyBaseUrlSetting.env} is set, so the real distributor and`,
  "Shopmonkey are used: set the variables above, or unset both for the embedded default."
])

/** Names to show in the start-up banner. */
export const names = { punchoutBaseUrl: SETTINGS.punchoutBaseUrl.env, usersFile: SETTINGS.usersFile.env } as const
