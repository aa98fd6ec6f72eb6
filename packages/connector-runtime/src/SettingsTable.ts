/**
 * Shoplink's standard application settings as plain data: for each, its environment variable, its
 * path in a JSON config file, whether it is a secret, what it is for, and what a valid value looks
 * like. This is the one place those names are written: the libraries read none of them (every
 * service takes `layerConfig(Config.Config.Wrap<Options>)`), and applications (the sample apps,
 * the `shoplink` CLI) build their `Config`s from this table through the `Settings` module.
 *
 * The module imports nothing (not even Effect), so a command's `--help` can list the settings
 * cheaply: import it as `@shoplink/connector-runtime/SettingsTable`. The same rules check values
 * here and in `Settings` (`problemOf`), and `SecretBox.parseKeyring` reads keyrings with
 * `readKeyring`.
 *
 * @since 0.1.0
 */

import { problemOf as settingProblemOf, type Kind, type SettingDefinition } from "@shoplink/connector/Setting"

export type { Kind, SettingDefinition }

/**
 * The standard settings' keys.
 *
 * @example
 * import type { SettingsTable } from "@shoplink/connector-runtime"
 * const key: SettingsTable.SettingKey = "secretKeys"
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
  | "publicBaseUrl"
  | "usersFile"
  | "database"
  | "secretKeys"
  | "logFormat"
  | "logLevel"
  | "otlpEndpoint"
  | "otlpProtocol"
  | "otlpHeaders"
  | "serviceName"
  | "headersTimeout"
  | "requestTimeout"
  | "keepAliveTimeout"

/**
 * Every standard setting. The `OTEL_*` names are OpenTelemetry's own conventions.
 *
 * @example
 * import { SettingsTable } from "@shoplink/connector-runtime"
 * for (const [key, d] of Object.entries(SettingsTable.SETTINGS)) console.log(key, d.env, d.file.join("."))
 *
 * @since 0.1.0
 */
export const SETTINGS: { readonly [K in SettingKey]: SettingDefinition } = {
  punchoutBaseUrl: {
    env: "SHOPLINK_PUNCHOUT_BASE_URL",
    file: ["punchout", "baseUrl"],
    secret: false,
    description: "the Punchout API base URL, {base_url}",
    kind: "baseUrl"
  },
  vendorApiKey: {
    env: "SHOPLINK_VENDOR_API_KEY",
    file: ["punchout", "vendorApiKey"],
    secret: true,
    description: "the distributor's vendor API key, for Punchout"
  },
  omsEnvironment: {
    env: "SHOPLINK_OMS_ENVIRONMENT",
    file: ["oms", "environment"],
    secret: false,
    description: "the Order Management environment: US_QUA, CA_QUA, US_PRD or CA_PRD",
    oneOf: ["US_QUA", "CA_QUA", "US_PRD", "CA_PRD"]
  },
  omsApiKey: {
    env: "SHOPLINK_OMS_API_KEY",
    file: ["oms", "apiKey"],
    secret: true,
    description: "the Order Management APIKey of the environment's tier"
  },
  omsTestBaseUrl: {
    env: "SHOPLINK_OMS_TEST_BASE_URL",
    file: ["oms", "testBaseUrl"],
    secret: false,
    description: "the Order Management test host, {test_base_url}, for US_QUA / CA_QUA",
    kind: "baseUrl"
  },
  omsProdBaseUrl: {
    env: "SHOPLINK_OMS_PROD_BASE_URL",
    file: ["oms", "prodBaseUrl"],
    secret: false,
    description: "the Order Management production host, {prod_base_url}, for US_PRD / CA_PRD",
    kind: "baseUrl"
  },
  // One customer's distributor credentials: what the CLI works as (a service keeps each shop's
  // in its database, and the sample apps refuse these).
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
    description: "the customer's username, for Punchout"
  },
  customerCountry: {
    env: "SHOPLINK_CUSTOMER_COUNTRY",
    file: ["customer", "country"],
    secret: false,
    description: "the customer's country: US, US QA, CA or CA QA, for Punchout",
    oneOf: ["US", "US QA", "CA", "CA QA"]
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
    description: "your product's name on the distributor's ordering pages"
  },
  publicBaseUrl: {
    env: "SHOPLINK_PUBLIC_BASE_URL",
    file: ["service", "publicBaseUrl"],
    secret: false,
    description: "where the distributor and browsers reach the service's public routes (webhooks, callback page)",
    kind: "baseUrl"
  },
  usersFile: {
    env: "SHOPLINK_USERS_FILE",
    file: ["service", "usersFile"],
    secret: false,
    description: "a JSON file of the users who may sign in to the service's pages"
  },
  database: {
    env: "SHOPLINK_DATABASE_URL",
    file: ["service", "database"],
    // A postgres:// URL may carry a password.
    secret: true,
    description:
      "the connector service's database, a SQLite file or a postgres:// URL: its shops, sealed secrets, API keys and inbox",
    kind: "database"
  },
  secretKeys: {
    env: "SHOPLINK_SECRET_KEYS",
    file: ["service", "secretKeys"],
    secret: true,
    description: "the keyring sealing the service's stored secrets: id:base64key[,…], the first seals",
    kind: "keyring"
  },
  logFormat: {
    env: "SHOPLINK_LOG_FORMAT",
    file: ["log", "format"],
    secret: false,
    description: "json, logfmt, pretty, or auto (pretty on a terminal, logfmt otherwise; the default)"
  },
  logLevel: {
    env: "SHOPLINK_LOG_LEVEL",
    file: ["log", "level"],
    secret: false,
    description: "trace, debug, info (the default), warning, error or none"
  },
  otlpEndpoint: {
    env: "OTEL_EXPORTER_OTLP_ENDPOINT",
    file: ["telemetry", "endpoint"],
    secret: false,
    description: "the OpenTelemetry collector's base URL; unset or empty, nothing is exported"
  },
  otlpProtocol: {
    env: "OTEL_EXPORTER_OTLP_PROTOCOL",
    file: ["telemetry", "protocol"],
    secret: false,
    description: "http/protobuf (the default) or http/json"
  },
  otlpHeaders: {
    env: "OTEL_EXPORTER_OTLP_HEADERS",
    file: ["telemetry", "headers"],
    secret: true,
    description: "name=value,name2=value2 (URL-encoded values) sent with every export"
  },
  serviceName: {
    env: "OTEL_SERVICE_NAME",
    file: ["telemetry", "serviceName"],
    secret: false,
    description: "the service.name resource attribute (default shoplink)"
  },
  // The HTTP server's timeouts (ServerTimeouts of @shoplink/http): seconds, or a duration.
  headersTimeout: {
    env: "SHOPLINK_HEADERS_TIMEOUT",
    file: ["server", "headersTimeout"],
    secret: false,
    description:
      "how long a client may take to send a request's headers, in seconds or as a duration (default 10 seconds; then 408)"
  },
  requestTimeout: {
    env: "SHOPLINK_REQUEST_TIMEOUT",
    file: ["server", "requestTimeout"],
    secret: false,
    description: "how long a client may take to send a whole request, headers and body (default 30 seconds; then 408)"
  },
  keepAliveTimeout: {
    env: "SHOPLINK_KEEP_ALIVE_TIMEOUT",
    file: ["server", "keepAliveTimeout"],
    secret: false,
    description: "how long an idle keep-alive connection stays open (default 5 seconds)"
  }
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/

/**
 * The bytes of an AES-256 key.
 *
 * @example
 * import { SettingsTable } from "@shoplink/connector-runtime"
 * SettingsTable.KEY_BYTES // 32
 *
 * @since 0.1.0
 */
export const KEY_BYTES = 32

/**
 * A keyring read from `id:base64key[,id:base64key…]` (the first seals), or the one problem found,
 * which never quotes a key. `SecretBox.parseKeyring` and every application check keyrings with it.
 *
 * @example
 * import { SettingsTable } from "@shoplink/connector-runtime"
 * const keyring = SettingsTable.readKeyring("k1:c2hvcnQ=")
 * keyring // { problem: "key k1 is 5 bytes; AES-256 needs 32 (base64 of 32 random bytes)" }
 *
 * @since 0.1.0
 */
export const readKeyring = (
  text: string
): { readonly problem: string } | {
  readonly entries: ReadonlyArray<{ readonly id: string; readonly key: Uint8Array }>
} => {
  const parts = text.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "")
  if (parts.length === 0) return { problem: "no key given" }
  const entries: Array<{ readonly id: string; readonly key: Uint8Array }> = []
  for (const [index, entry] of parts.entries()) {
    const colon = entry.indexOf(":")
    const id = colon === -1 ? "" : entry.slice(0, colon)
    if (!KEY_ID.test(id)) {
      return { problem: `entry ${index + 1} must read id:base64key, with an id of letters, digits, - or _` }
    }
    const encoded = entry.slice(colon + 1)
    const key = Buffer.from(encoded, "base64")
    if (!/^[A-Za-z0-9+/=_-]+$/.test(encoded) || key.length !== KEY_BYTES) {
      return { problem: `key ${id} is ${key.length} bytes; AES-256 needs ${KEY_BYTES} (base64 of 32 random bytes)` }
    }
    if (entries.some((e) => e.id === id)) return { problem: `key id ${id} appears twice` }
    entries.push({ id, key: new Uint8Array(key) })
  }
  return { entries }
}

/**
 * The key ids of a keyring, the sealing one first (ids are not secret), or none when it is
 * malformed.
 *
 * @example
 * import { SettingsTable } from "@shoplink/connector-runtime"
 * SettingsTable.keyringIds(`k2:${Buffer.alloc(32).toString("base64")}`) // ["k2"]
 *
 * @since 0.1.0
 */
export const keyringIds = (text: string): ReadonlyArray<string> => {
  const read = readKeyring(text)
  return "entries" in read ? read.entries.map((e) => e.id) : []
}

/**
 * Why a value of `definition` is wrong on its face, as a phrase that follows the setting's name
 * (`is not a URL: "…"`, `must not have a query or fragment …`, `is invalid: key k1 is 16 bytes …`,
 * `is "USA"; expected …`), or `undefined` when it is plausible. Never quotes a secret. A
 * `database` is checked by `Storage.fromUrl` instead.
 *
 * @example
 * import { SettingsTable } from "@shoplink/connector-runtime"
 * const punchoutBaseUrl = SettingsTable.SETTINGS.punchoutBaseUrl
 * SettingsTable.problemOf(punchoutBaseUrl, "localhost:4010") // 'is not an http(s) URL: "localhost:4010"'
 *
 * @since 0.1.0
 */
export const problemOf = (definition: SettingDefinition, value: string): string | undefined => {
  if (definition.kind === "keyring") {
    const read = readKeyring(value)
    return "problem" in read ? `is invalid: ${read.problem}` : undefined
  }
  return settingProblemOf(definition, value)
}
