// The settings the CLI reads, as plain data. Its only import is the connector's import-free table
// of Shoplink's standard settings, so `shoplink --help` can list them without loading Effect
// (ShoplinkConfig re-exports this table).
import * as Standard from "@shoplink/connector-runtime/SettingsTable"

const { problemOf, SETTINGS: STANDARD } = Standard

/**
 * The CLI's settings: the connector's standard ones it reads (a new standard setting fails to
 * type-check here until it is read or excluded) and its own webhook URLs.
 */
export type SettingKey =
  | Exclude<
    Standard.SettingKey,
    | "publicBaseUrl"
    | "usersFile"
    | "logFormat"
    | "logLevel"
    | "otlpEndpoint"
    | "otlpProtocol"
    | "otlpHeaders"
    | "serviceName"
  >
  | "webhookOrderUrl"
  | "webhookQuoteUrl"
  | "webhookCallbackUrl"

/**
 * How one setting is read: the connector's `SettingsTable.SettingDefinition` (environment variable,
 * config-file path, secret, description, and `kind` / `oneOf` for what a valid value looks like).
 */
export type SettingDefinition = Standard.SettingDefinition

/**
 * Shoplink's standard settings the CLI reads, as @shoplink/connector names them (the one place
 * those names are written), and the CLI's own: the webhook URLs of the sessions it creates.
 */
export const SETTINGS: { readonly [K in SettingKey]: SettingDefinition } = {
  punchoutBaseUrl: STANDARD.punchoutBaseUrl,
  vendorApiKey: STANDARD.vendorApiKey,
  omsEnvironment: STANDARD.omsEnvironment,
  omsApiKey: STANDARD.omsApiKey,
  omsTestBaseUrl: STANDARD.omsTestBaseUrl,
  omsProdBaseUrl: STANDARD.omsProdBaseUrl,
  customerAccountNo: STANDARD.customerAccountNo,
  customerUsername: STANDARD.customerUsername,
  customerCountry: STANDARD.customerCountry,
  customerApiToken: STANDARD.customerApiToken,
  smsVendorName: {
    ...STANDARD.smsVendorName,
    description: `${STANDARD.smsVendorName.description}; default "shoplink-cli"`
  },
  webhookOrderUrl: {
    env: "SHOPLINK_WEBHOOK_ORDER_URL",
    file: ["webhooks", "order"],
    secret: false,
    description: "the order webhook URL for new sessions; default http://127.0.0.1:8787/order",
    kind: "url"
  },
  webhookQuoteUrl: {
    env: "SHOPLINK_WEBHOOK_QUOTE_URL",
    file: ["webhooks", "quote"],
    secret: false,
    description: "the quote webhook URL for new sessions; default http://127.0.0.1:8787/quote",
    kind: "url"
  },
  webhookCallbackUrl: {
    env: "SHOPLINK_WEBHOOK_CALLBACK_URL",
    file: ["webhooks", "callback"],
    secret: false,
    description: "the page the browser returns to after an export; optional",
    kind: "url"
  },
  database: STANDARD.database,
  secretKeys: STANDARD.secretKeys,
  // The timeouts of `shoplink webhook listen`'s server.
  headersTimeout: STANDARD.headersTimeout,
  requestTimeout: STANDARD.requestTimeout,
  keepAliveTimeout: STANDARD.keepAliveTimeout
}

export { DEFAULT_CONFIG_FILE } from "./configFile.js"

/**
 * Why a keyring is malformed (`is invalid: …`), or undefined: the connector's rules
 * (`SettingsTable.problemOf`, which `SecretBox.parseKeyring` shares), never quoting a key.
 */
export const invalidKeyring = (text: string): string | undefined => problemOf(STANDARD.secretKeys, text)

/** The key ids of a well-formed keyring, the sealing one first (ids are not secret); none otherwise. */
export const keyringIds: (text: string) => ReadonlyArray<string> = Standard.keyringIds
