/**
 * `ShoplinkConfig`: where the `shoplink` CLI reads its settings — environment variables first, then
 * an optional JSON config file — and how each setting is described to the user (`doctor`, errors).
 *
 * @since 0.1.0
 */
import { Data, Effect, Option, Redacted } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { resolve } from "node:path"

/**
 * The name of every setting the CLI knows.
 *
 * @example
 * import type { ShoplinkConfig } from "@shoplink/cli"
 * const key: ShoplinkConfig.SettingKey = "vendorApiKey"
 *
 * @since 0.1.0
 */
export type SettingKey =
  | "punchoutBaseUrl"
  | "vendorApiKey"
  | "omsEnvironment"
  | "omsApiKey"
  | "omsTestBaseUrl"
  | "omsProdBaseUrl"
  | "customerAccountNo"
  | "customerUsername"
  | "customerCountry"
  | "customerApiToken"
  | "smsVendorName"
  | "webhookOrderUrl"
  | "webhookQuoteUrl"
  | "webhookCallbackUrl"

/**
 * How one setting is read: its environment variable, its path in the config file, whether it is a
 * secret (never printed) and a one-line description.
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const d: ShoplinkConfig.SettingDefinition = ShoplinkConfig.SETTINGS.vendorApiKey
 * console.log(d.env) // "SHOPLINK_VENDOR_API_KEY"
 *
 * @since 0.1.0
 */
export interface SettingDefinition {
  readonly env: string
  readonly file: readonly [string, string] | readonly [string]
  readonly secret: boolean
  readonly description: string
}

/**
 * Every setting, with its environment variable and config-file path. Environment wins over file.
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * for (const [key, d] of Object.entries(ShoplinkConfig.SETTINGS)) console.log(key, d.env, d.file.join("."))
 *
 * @since 0.1.0
 */
export const SETTINGS: { readonly [K in SettingKey]: SettingDefinition } = {
  punchoutBaseUrl: {
    env: "SHOPLINK_PUNCHOUT_BASE_URL",
    file: ["punchout", "baseUrl"],
    secret: false,
    description: "Punchout API base URL ({base_url})"
  },
  vendorApiKey: {
    env: "SHOPLINK_VENDOR_API_KEY",
    file: ["punchout", "vendorApiKey"],
    secret: true,
    description: "Punchout vendor API key"
  },
  omsEnvironment: {
    env: "SHOPLINK_OMS_ENVIRONMENT",
    file: ["oms", "environment"],
    secret: false,
    description: "Order Management environment: US_QUA, CA_QUA, US_PRD or CA_PRD"
  },
  omsApiKey: {
    env: "SHOPLINK_OMS_API_KEY",
    file: ["oms", "apiKey"],
    secret: true,
    description: "Order Management APIKey of the environment's tier"
  },
  omsTestBaseUrl: {
    env: "SHOPLINK_OMS_TEST_BASE_URL",
    file: ["oms", "testBaseUrl"],
    secret: false,
    description: "Order Management test host ({test_base_url}), for US_QUA / CA_QUA"
  },
  omsProdBaseUrl: {
    env: "SHOPLINK_OMS_PROD_BASE_URL",
    file: ["oms", "prodBaseUrl"],
    secret: false,
    description: "Order Management production host ({prod_base_url}), for US_PRD / CA_PRD"
  },
  customerAccountNo: {
    env: "SHOPLINK_CUSTOMER_ACCOUNT_NO",
    file: ["customer", "accountNo"],
    secret: false,
    description: "the customer's account number"
  },
  customerUsername: {
    env: "SHOPLINK_CUSTOMER_USERNAME",
    file: ["customer", "username"],
    secret: false,
    description: "the customer's username (Punchout)"
  },
  customerCountry: {
    env: "SHOPLINK_CUSTOMER_COUNTRY",
    file: ["customer", "country"],
    secret: false,
    description: "the customer's country: US, US QA, CA or CA QA (Punchout)"
  },
  customerApiToken: {
    env: "SHOPLINK_CUSTOMER_API_TOKEN",
    file: ["customer", "apiToken"],
    secret: true,
    description: "the customer's API token"
  },
  smsVendorName: {
    env: "SHOPLINK_SMS_VENDOR_NAME",
    file: ["smsVendorName"],
    secret: false,
    description: "your product's name, shown on the ordering pages (default \"shoplink-cli\")"
  },
  webhookOrderUrl: {
    env: "SHOPLINK_WEBHOOK_ORDER_URL",
    file: ["webhooks", "order"],
    secret: false,
    description: "order webhook URL for new sessions (default http://127.0.0.1:8787/order)"
  },
  webhookQuoteUrl: {
    env: "SHOPLINK_WEBHOOK_QUOTE_URL",
    file: ["webhooks", "quote"],
    secret: false,
    description: "quote webhook URL for new sessions (default http://127.0.0.1:8787/quote)"
  },
  webhookCallbackUrl: {
    env: "SHOPLINK_WEBHOOK_CALLBACK_URL",
    file: ["webhooks", "callback"],
    secret: false,
    description: "optional page the browser returns to after an export"
  }
}

/**
 * The default config file, looked up in the current directory when `--config` is not given.
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * console.log(ShoplinkConfig.DEFAULT_CONFIG_FILE) // "shoplink.config.json"
 *
 * @since 0.1.0
 */
export const DEFAULT_CONFIG_FILE = "shoplink.config.json"

/**
 * One resolved setting: its value and where it came from (`env SHOPLINK_…` or the file path).
 *
 * @example
 * import type { ShoplinkConfig } from "@shoplink/cli"
 * const s: ShoplinkConfig.Setting = { value: "http://127.0.0.1:4010", source: "env SHOPLINK_PUNCHOUT_BASE_URL" }
 *
 * @since 0.1.0
 */
export interface Setting {
  readonly value: string
  readonly source: string
}

/**
 * All settings found, and the config file read (if any).
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const settings = ShoplinkConfig.fromSources({ SHOPLINK_OMS_ENVIRONMENT: "US_QUA" }, undefined)
 * console.log(settings.values.omsEnvironment?.value) // "US_QUA"
 *
 * @since 0.1.0
 */
export interface Settings {
  readonly configFile: string | undefined
  readonly values: { readonly [K in SettingKey]?: Setting }
}

/**
 * The config file is missing, unreadable or not the expected JSON, or a required setting is absent
 * or invalid. A usage error: exit code 2.
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const e = new ShoplinkConfig.ConfigProblem({ message: "SHOPLINK_VENDOR_API_KEY is not set", fix: "export SHOPLINK_VENDOR_API_KEY=…" })
 *
 * @since 0.1.0
 */
export class ConfigProblem extends Data.TaggedError("ConfigProblem")<{
  readonly message: string
  readonly fix: string
}> {}

const fileValue = (json: unknown, path: ReadonlyArray<string>): unknown => {
  let current: unknown = json
  for (const segment of path) {
    if (typeof current !== "object" || current === null) return undefined
    current = (current as Record<string, unknown>)[segment]
  }
  return current
}

/**
 * Resolves settings from an environment record and a parsed config file (environment wins; empty
 * strings count as unset).
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const settings = ShoplinkConfig.fromSources(
 *   { SHOPLINK_VENDOR_API_KEY: "from-env" },
 *   { json: { punchout: { vendorApiKey: "from-file", baseUrl: "http://127.0.0.1:4010" } }, path: "shoplink.config.json" }
 * )
 * console.log(settings.values.vendorApiKey?.source) // "env SHOPLINK_VENDOR_API_KEY"
 *
 * @since 0.1.0
 */
export const fromSources = (
  env: Readonly<Record<string, string | undefined>>,
  file: { readonly json: unknown; readonly path: string } | undefined
): Settings => {
  const values: { [K in SettingKey]?: Setting } = {}
  for (const key of Object.keys(SETTINGS) as Array<SettingKey>) {
    const definition = SETTINGS[key]
    const fromEnv = env[definition.env]
    if (fromEnv !== undefined && fromEnv.trim() !== "") {
      values[key] = { value: fromEnv.trim(), source: `env ${definition.env}` }
      continue
    }
    if (file !== undefined) {
      const raw = fileValue(file.json, definition.file)
      if (typeof raw === "string" && raw.trim() !== "") {
        values[key] = { value: raw.trim(), source: `${file.path} ${definition.file.join(".")}` }
      }
    }
  }
  return { configFile: file?.path, values }
}

/**
 * Reads the settings: `path` (from `--config`) must exist; without it `./shoplink.config.json` is
 * read when present. Fails with `ConfigProblem` for a missing file or invalid JSON.
 *
 * @example
 * import { Effect } from "effect"
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const settings = Effect.runSync(ShoplinkConfig.load(undefined, process.env))
 *
 * @since 0.1.0
 */
export const load = (
  path: string | undefined,
  env: Readonly<Record<string, string | undefined>>
): Effect.Effect<Settings, ConfigProblem> =>
  Effect.gen(function*() {
    const explicit = path !== undefined
    const file = resolve(path ?? DEFAULT_CONFIG_FILE)
    if (!existsSync(file)) {
      if (explicit) {
        return yield* new ConfigProblem({
          message: `config file not found: ${path}`,
          fix: "pass an existing JSON file to --config, or drop --config and use environment variables"
        })
      }
      return fromSources(env, undefined)
    }
    const shown = path ?? DEFAULT_CONFIG_FILE
    const json = yield* Effect.try({
      try: () => JSON.parse(readFileSync(file, "utf8")) as unknown,
      catch: (error) =>
        new ConfigProblem({
          message: `config file ${shown} is not valid JSON (${(error as Error).message})`,
          fix: "fix the JSON syntax; see `shoplink doctor --help` for the expected shape"
        })
    })
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      return yield* new ConfigProblem({
        message: `config file ${shown} must hold a JSON object`,
        fix: "see `shoplink doctor --help` for the expected shape"
      })
    }
    return fromSources(env, { json, path: shown })
  })

/**
 * How to supply a setting, for error messages and `doctor`.
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * console.log(ShoplinkConfig.howToSet("vendorApiKey"))
 * // "set SHOPLINK_VENDOR_API_KEY or punchout.vendorApiKey in shoplink.config.json"
 *
 * @since 0.1.0
 */
export const howToSet = (key: SettingKey): string =>
  `set ${SETTINGS[key].env} or ${SETTINGS[key].file.join(".")} in ${DEFAULT_CONFIG_FILE}`

/**
 * A setting's value, or `ConfigProblem` naming the variable to set.
 *
 * @example
 * import { Effect } from "effect"
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const settings = ShoplinkConfig.fromSources({ SHOPLINK_PUNCHOUT_BASE_URL: "http://127.0.0.1:4010" }, undefined)
 * const url = Effect.runSync(ShoplinkConfig.required(settings, "punchoutBaseUrl"))
 *
 * @since 0.1.0
 */
export const required = (settings: Settings, key: SettingKey): Effect.Effect<string, ConfigProblem> => {
  const found = settings.values[key]
  return found === undefined
    ? Effect.fail(
      new ConfigProblem({ message: `${SETTINGS[key].env} is not set (${SETTINGS[key].description})`, fix: howToSet(key) })
    )
    : Effect.succeed(found.value)
}

/**
 * A secret setting as `Redacted`, or `ConfigProblem`.
 *
 * @example
 * import { Effect, Redacted } from "effect"
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const settings = ShoplinkConfig.fromSources({ SHOPLINK_VENDOR_API_KEY: "k" }, undefined)
 * const key = Effect.runSync(ShoplinkConfig.secret(settings, "vendorApiKey"))
 * console.log(String(key)) // "<redacted>"
 *
 * @since 0.1.0
 */
export const secret = (settings: Settings, key: SettingKey): Effect.Effect<Redacted.Redacted<string>, ConfigProblem> =>
  Effect.map(required(settings, key), Redacted.make)

/**
 * An optional setting.
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const settings = ShoplinkConfig.fromSources({}, undefined)
 * console.log(ShoplinkConfig.optional(settings, "smsVendorName")) // { _id: "Option", _tag: "None" }
 *
 * @since 0.1.0
 */
export const optional = (settings: Settings, key: SettingKey): Option.Option<string> =>
  Option.fromNullable(settings.values[key]?.value)

/**
 * Shows a setting for humans: secrets as `<redacted>…` plus at most their last 4 characters.
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * console.log(ShoplinkConfig.display("vendorApiKey", "sbx-vendor-key-0001")) // "<redacted>…0001"
 *
 * @since 0.1.0
 */
export const display = (key: SettingKey, value: string): string =>
  SETTINGS[key].secret ? mask(value) : value

/**
 * Masks a secret: `<redacted>` plus its last 4 characters when it is long enough for that to be safe.
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * console.log(ShoplinkConfig.mask("abc")) // "<redacted>"
 *
 * @since 0.1.0
 */
export const mask = (value: string): string => (value.length >= 12 ? `<redacted>…${value.slice(-4)}` : "<redacted>")
