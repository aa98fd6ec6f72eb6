/**
 * `ShoplinkConfig`: where the `shoplink` CLI reads its settings — environment variables first, then
 * an optional JSON config file — and how each setting is described to the user (`doctor`, errors).
 *
 * The names are Shoplink's standard ones from `@shoplink/connector`'s `SettingsTable` (plus the
 * CLI's own webhook URLs). Values are read through a `ConfigProvider` (the environment, then the
 * file) and checked by the connector's `Settings` Configs, the same rules the services use.
 *
 * @since 0.1.0
 */
import * as Standard from "@shoplink/connector-runtime/Settings"
import * as ConfigError from "effect/ConfigError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { existsSync, readFileSync } from "node:fs"
import { resolve } from "node:path"
import * as Table from "./internal/settingsTable.js"

/**
 * The name of every setting the CLI knows.
 *
 * @example
 * import type { ShoplinkConfig } from "@shoplink/cli"
 * const key: ShoplinkConfig.SettingKey = "vendorApiKey"
 *
 * @since 0.1.0
 */
export type SettingKey = Table.SettingKey

/**
 * How one setting is read: its environment variable, its path in the config file, whether it is a
 * secret (never printed), a one-line description, and what a valid value looks like (`kind: "url"`
 * for an absolute http(s) URL, `oneOf` for a fixed set).
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const d: ShoplinkConfig.SettingDefinition = ShoplinkConfig.SETTINGS.vendorApiKey
 * console.log(d.env) // "SHOPLINK_VENDOR_API_KEY"
 *
 * @since 0.1.0
 */
export type SettingDefinition = Table.SettingDefinition

/**
 * Every setting, with its environment variable and config-file path. Environment wins over file.
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * for (const [key, d] of Object.entries(ShoplinkConfig.SETTINGS)) console.log(key, d.env, d.file.join("."))
 *
 * @since 0.1.0
 */
export const SETTINGS: { readonly [K in SettingKey]: SettingDefinition } = Table.SETTINGS

/**
 * The default config file, looked up in the current directory when `--config` is not given.
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * console.log(ShoplinkConfig.DEFAULT_CONFIG_FILE) // "shoplink.config.json"
 *
 * @since 0.1.0
 */
export const DEFAULT_CONFIG_FILE = Table.DEFAULT_CONFIG_FILE

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
  /** Settings given but blank (and set nowhere else), with where: reported as "set but empty". */
  readonly empty?: { readonly [K in SettingKey]?: string }
  /**
   * The same sources as a `ConfigProvider` keyed by environment name: the environment's non-blank
   * variables, then the file's values. Read any `Config` of the connector's `Settings` with it.
   */
  readonly provider?: ConfigProvider.ConfigProvider
}

/**
 * The config file is missing, unreadable or not the expected JSON, or settings are absent or wrong
 * on their face. A usage error: exit code 2. `problems` holds one line per setting (printed one a
 * line), each naming the variable and what it is for, never a secret's value.
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const e = new ShoplinkConfig.ConfigProblem({
 *   message: "SHOPLINK_VENDOR_API_KEY (the distributor's vendor API key, for Punchout) is missing",
 *   fix: "set SHOPLINK_VENDOR_API_KEY or punchout.vendorApiKey in shoplink.config.json"
 * })
 *
 * @since 0.1.0
 */
export class ConfigProblem extends Data.TaggedError("ConfigProblem")<{
  readonly message: string
  readonly fix: string
  readonly problems?: ReadonlyArray<string>
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
  const empty: { [K in SettingKey]?: string } = {}
  const fromEnvironment = new Map<string, string>()
  const fromFile = new Map<string, string>()
  for (const key of Object.keys(SETTINGS) as Array<SettingKey>) {
    const definition = SETTINGS[key]
    const raw = file === undefined ? undefined : fileValue(file.json, definition.file)
    if (typeof raw === "string" && raw.trim() !== "") fromFile.set(definition.env, raw.trim())
    const fromEnv = env[definition.env]
    if (fromEnv !== undefined && fromEnv.trim() !== "") {
      fromEnvironment.set(definition.env, fromEnv.trim())
      values[key] = { value: fromEnv.trim(), source: `env ${definition.env}` }
      continue
    }
    // A blank variable still lets the file supply the value (`VAR= shoplink …` unsets it).
    if (fromEnv !== undefined) empty[key] = `env ${definition.env}`
    if (file !== undefined) {
      const where = `${file.path} ${definition.file.join(".")}`
      if (typeof raw === "string" && raw.trim() !== "") {
        values[key] = { value: raw.trim(), source: where }
        delete empty[key]
      } else if (typeof raw === "string") {
        empty[key] ??= where
      }
    }
  }
  // The environment wins over the file: what `values` says, as a provider of the same settings.
  const provider = ConfigProvider.fromMap(fromEnvironment).pipe(
    ConfigProvider.orElse(() => ConfigProvider.fromMap(fromFile))
  )
  return { configFile: file?.path, values, empty, provider }
}

/**
 * The settings as a `ConfigProvider` keyed by environment name (the environment's non-blank
 * variables, then the config file's values), to read any of the connector's `Settings` Configs or
 * a service's `layerConfig` from the same sources.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { Settings } from "@shoplink/connector-runtime"
 * import { PunchoutClient } from "@shoplink/punchout"
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const settings = ShoplinkConfig.fromSources({ SHOPLINK_PUNCHOUT_BASE_URL: "http://127.0.0.1:4010", SHOPLINK_VENDOR_API_KEY: "k" }, undefined)
 * const punchout = PunchoutClient.layerConfig(Settings.punchoutClient).pipe(
 *   Layer.provide(Layer.setConfigProvider(ShoplinkConfig.provider(settings)))
 * )
 *
 * @since 0.1.0
 */
export const provider = (settings: Settings): ConfigProvider.ConfigProvider =>
  settings.provider ??
    ConfigProvider.fromMap(
      new Map(
        (Object.entries(settings.values) as Array<[SettingKey, Setting]>).map((
          [key, found]
        ) => [SETTINGS[key].env, found.value])
      )
    )

/** The first problem a Config reports (its message reads after the setting's name). */
const firstProblem = (error: ConfigError.ConfigError): string =>
  ConfigError.reduceWithContext(error, undefined, {
    andCase: (_, left: string, right: string) => left || right,
    orCase: (_, left: string, right: string) => left || right,
    missingDataCase: () => "is missing",
    invalidDataCase: (_, __, message) => message,
    sourceUnavailableCase: (_, __, message) => `could not be read: ${message}`,
    unsupportedCase: (_, __, message) => `is not supported: ${message}`
  })

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

const issue = (settings: Settings, key: SettingKey): string | undefined => {
  const found = settings.values[key]
  if (found === undefined) {
    const blank = settings.empty?.[key]
    return blank === undefined ? "is missing" : `is set but empty (${blank})`
  }
  // The database is checked where it is opened (service.ts), with the file system.
  if (SETTINGS[key].kind === "database") return undefined
  // Read through the connector's Config for the setting: one set of rules for every application.
  const read = Effect.runSync(
    Effect.either(Effect.withConfigProvider(Standard.string(SETTINGS[key]), provider(settings)))
  )
  if (Either.isRight(read)) return undefined
  const invalid = firstProblem(read.left)
  return found.source === `env ${SETTINGS[key].env}` ? invalid : `${invalid} (${found.source})`
}

/**
 * What is wrong with a setting, as one line naming its variable and what it is for — missing,
 * blank, or wrong on its face (a URL that does not parse, a value outside its set) — or `None`.
 * Never includes a secret's value.
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const settings = ShoplinkConfig.fromSources({ SHOPLINK_PUNCHOUT_BASE_URL: "localhost:4010" }, undefined)
 * console.log(ShoplinkConfig.problem(settings, "vendorApiKey"))
 * // Some("SHOPLINK_VENDOR_API_KEY (the distributor's vendor API key, for Punchout) is missing")
 * console.log(ShoplinkConfig.problem(settings, "punchoutBaseUrl"))
 * // Some("SHOPLINK_PUNCHOUT_BASE_URL (the Punchout API base URL, {base_url}) is not an http(s) URL: …")
 *
 * @since 0.1.0
 */
export const problem = (settings: Settings, key: SettingKey): Option.Option<string> => {
  const found = issue(settings, key)
  return found === undefined
    ? Option.none()
    : Option.some(`${SETTINGS[key].env} (${SETTINGS[key].description}) ${found}`)
}

const problemOf = (keys: ReadonlyArray<SettingKey>, problems: ReadonlyArray<string>): ConfigProblem =>
  keys.length === 1
    ? new ConfigProblem({ message: problems[0]!, fix: howToSet(keys[0]!), problems })
    : new ConfigProblem({
      message: `${problems.length} settings are missing or invalid`,
      fix: `set each in the environment or in ${DEFAULT_CONFIG_FILE} (\`shoplink doctor\` checks them all)`,
      problems
    })

/**
 * The values of several settings at once, or one `ConfigProblem` listing every setting that is
 * missing or wrong on its face (so one run tells the user everything to fix).
 *
 * @example
 * import { Effect } from "effect"
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const settings = ShoplinkConfig.fromSources({ SHOPLINK_PUNCHOUT_BASE_URL: "http://127.0.0.1:4010" }, undefined)
 * const exit = Effect.runSyncExit(ShoplinkConfig.requireAll(settings, ["punchoutBaseUrl", "vendorApiKey"]))
 * // Failure: ConfigProblem with problems ["SHOPLINK_VENDOR_API_KEY (…) is missing"]
 *
 * @since 0.1.0
 */
export const requireAll = <const K extends SettingKey>(
  settings: Settings,
  keys: ReadonlyArray<K>
): Effect.Effect<{ readonly [P in K]: string }, ConfigProblem> => {
  const bad = keys.flatMap((key) => {
    const p = problem(settings, key)
    return Option.isSome(p) ? [[key, p.value] as const] : []
  })
  if (bad.length > 0) return Effect.fail(problemOf(bad.map(([k]) => k), bad.map(([, p]) => p)))
  return Effect.succeed(
    Object.fromEntries(keys.map((key) => [key, settings.values[key]!.value])) as { readonly [P in K]: string }
  )
}

/**
 * Checks that every setting given is plausible (URLs parse, values are in their set) even when the
 * command at hand does not need it: an obviously wrong value fails up front with `ConfigProblem`,
 * not later as a transport error.
 *
 * @example
 * import { Effect } from "effect"
 * import { ShoplinkConfig } from "@shoplink/cli"
 * const settings = ShoplinkConfig.fromSources({ SHOPLINK_WEBHOOK_ORDER_URL: "not a url" }, undefined)
 * const exit = Effect.runSyncExit(ShoplinkConfig.validate(settings)) // Failure: ConfigProblem
 *
 * @since 0.1.0
 */
export const validate = (settings: Settings): Effect.Effect<Settings, ConfigProblem> => {
  const wrong = (Object.keys(settings.values) as Array<SettingKey>).flatMap((key) => {
    const p = problem(settings, key)
    return Option.isSome(p) ? [[key, p.value] as const] : []
  })
  return wrong.length === 0
    ? Effect.succeed(settings)
    : Effect.fail(problemOf(wrong.map(([k]) => k), wrong.map(([, p]) => p)))
}

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
export const required = (settings: Settings, key: SettingKey): Effect.Effect<string, ConfigProblem> =>
  Effect.map(requireAll(settings, [key]), (values) => values[key])

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
 * Shows a setting for humans: secrets as `<redacted>…` plus at most their last 4 characters; a
 * keyring (`SHOPLINK_SECRET_KEYS`) as `<redacted>` and its key ids, none of its key material.
 *
 * @example
 * import { ShoplinkConfig } from "@shoplink/cli"
 * console.log(ShoplinkConfig.display("vendorApiKey", "sbx-vendor-key-0001")) // "<redacted>…0001"
 * const keyring = `k2:${Buffer.alloc(32, 2).toString("base64")},k1:${Buffer.alloc(32, 1).toString("base64")}`
 * console.log(ShoplinkConfig.display("secretKeys", keyring)) // "<redacted>, key ids: k2 (seals), k1"
 *
 * @since 0.1.0
 */
export const display = (key: SettingKey, value: string): string => {
  if (SETTINGS[key].kind === "keyring") {
    // Only a well-formed keyring is split (keyringIds gives none otherwise): an entry without its
    // colon would be all key.
    const [current, ...older] = Table.keyringIds(value)
    return current === undefined ? "<redacted>" : `<redacted>, key ids: ${[`${current} (seals)`, ...older].join(", ")}`
  }
  return SETTINGS[key].secret ? mask(value) : value
}

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
