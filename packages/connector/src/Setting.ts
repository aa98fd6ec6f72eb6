/**
 * A setting an application reads: its environment variable, its path in a JSON config file,
 * whether it is a secret and what a valid value looks like, and the `Config` that reads it. Adapters
 * declare their own settings this way (`SHOPLINK_SHOPMONKEY_BASE_URL`); the runtime's standard
 * table (`SettingsTable` of @shoplink/connector-runtime) uses the same shape and rules.
 *
 * @since 0.1.0
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"

/**
 * What a valid value looks like:
 *
 * - `url`: an absolute http(s) URL, without credentials;
 * - `baseUrl`: the same, without a query or fragment (paths are appended to it);
 * - `keyring`: `id:base64key[,id:base64key…]`, each key 32 bytes (`SecretBox`);
 * - `database`: a `postgres://` URL or a SQLite file path (`Storage.fromUrl` checks it).
 *
 * @example
 * import type { Setting } from "@shoplink/connector"
 * const kind: Setting.Kind = "baseUrl"
 *
 * @since 0.1.0
 */
export type Kind = "url" | "baseUrl" | "keyring" | "database"

/**
 * How one setting is read and described.
 *
 * @example
 * import type { Setting } from "@shoplink/connector"
 * const baseUrl: Setting.SettingDefinition = {
 *   env: "ACME_BASE_URL",
 *   file: ["acme", "baseUrl"],
 *   secret: false,
 *   description: "the Acme API base URL",
 *   kind: "baseUrl"
 * }
 *
 * @since 0.1.0
 */
export interface SettingDefinition {
  /** The environment variable. */
  readonly env: string
  /** The path in a JSON config file (the CLI's `shoplink.config.json`). */
  readonly file: readonly [string, string] | readonly [string]
  /** Never printed, never quoted in a message. */
  readonly secret: boolean
  /** What it is for, one line. */
  readonly description: string
  readonly kind?: Kind | undefined
  /** The only values accepted. */
  readonly oneOf?: ReadonlyArray<string> | undefined
}

/**
 * Why a value of `definition` is wrong on its face, as a phrase that follows the setting's name
 * (`is not a URL: "…"`, `must not have a query or fragment …`, `is "USA"; expected …`), or
 * `undefined` when it is plausible. Never quotes a secret. `keyring` and `database` values are
 * checked by the runtime, which knows their formats.
 *
 * @example
 * import { Setting } from "@shoplink/connector"
 * const definition = { env: "X", file: ["x"], secret: false, description: "x", kind: "baseUrl" } as const
 * Setting.problemOf(definition, "localhost:4010") // 'is not an http(s) URL: "localhost:4010"'
 *
 * @since 0.1.0
 */
export const problemOf = (definition: SettingDefinition, value: string): string | undefined => {
  if (definition.kind === "url" || definition.kind === "baseUrl") {
    let url: URL
    try {
      url = new URL(value)
    } catch {
      return definition.secret ? "is not a URL" : `is not a URL: "${value}"`
    }
    // Credentials in a URL are secrets: say so without quoting it.
    if (url.username !== "" || url.password !== "") return "must not carry credentials (user:password@)"
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return definition.secret
        ? "is not an http(s) URL"
        : `is not an http(s) URL: "${value}"`
    }
    if (definition.kind === "baseUrl" && (url.search !== "" || url.hash !== "")) {
      return `must not have a query or fragment (paths are appended to it)${definition.secret ? "" : `: "${value}"`}`
    }
    return undefined
  }
  if (definition.oneOf !== undefined && !definition.oneOf.includes(value)) {
    const options = definition.oneOf
    const expected = `${options.slice(0, -1).join(", ")} or ${options[options.length - 1]}`
    return definition.secret ? `is invalid; expected ${expected}` : `is "${value}"; expected ${expected}`
  }
  return undefined
}

/**
 * A setting of `definition` as text: trimmed, blank counted as unset (`MissingData`), and checked
 * by `check` (default `problemOf`); a wrong value is `InvalidData` with the check's phrase, which
 * never quotes a secret.
 *
 * @example
 * import { Setting } from "@shoplink/connector"
 * const baseUrl = Setting.string({
 *   env: "ACME_BASE_URL",
 *   file: ["acme", "baseUrl"],
 *   secret: false,
 *   description: "the Acme API base URL",
 *   kind: "baseUrl"
 * })
 *
 * @since 0.1.0
 */
export const string = (
  definition: SettingDefinition,
  check: (definition: SettingDefinition, value: string) => string | undefined = problemOf
): Config.Config<string> =>
  Config.string(definition.env).pipe(
    Config.mapOrFail((raw) => {
      const value = raw.trim()
      if (value === "") return Either.left(ConfigError.MissingData([], "is set but empty"))
      const problem = check(definition, value)
      return problem === undefined ? Either.right(value) : Either.left(ConfigError.InvalidData([], problem))
    })
  )

/**
 * A secret setting: `string`, as `Redacted`.
 *
 * @example
 * import { Setting } from "@shoplink/connector"
 * const apiKey = Setting.redacted({
 *   env: "ACME_API_KEY",
 *   file: ["acme", "apiKey"],
 *   secret: true,
 *   description: "the Acme API key"
 * })
 *
 * @since 0.1.0
 */
export const redacted = (
  definition: SettingDefinition,
  check?: (definition: SettingDefinition, value: string) => string | undefined
): Config.Config<Redacted.Redacted<string>> => Config.map(string(definition, check), Redacted.make)
