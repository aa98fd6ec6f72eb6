// The settings the CLI reads, as plain data. Kept free of imports so `shoplink --help` can list
// them without loading Effect (ShoplinkConfig re-exports this table).

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
  | "database"
  | "secretKeys"

export interface SettingDefinition {
  readonly env: string
  readonly file: readonly [string, string] | readonly [string]
  readonly secret: boolean
  readonly description: string
  /**
   * `url`: an absolute http(s) URL; `baseUrl`: one without a query or fragment (paths are appended);
   * `keyring`: `id:base64key[,id:base64key…]`, each key 32 bytes (the connector's SecretBox keyring).
   */
  readonly kind?: "url" | "baseUrl" | "keyring"
  /** The only values accepted. */
  readonly oneOf?: ReadonlyArray<string>
}

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
    description: "your product's name on the ordering pages; default \"shoplink-cli\""
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
  database: {
    env: "SHOPLINK_DATABASE_URL",
    file: ["service", "database"],
    // A postgres:// URL may carry a password.
    secret: true,
    description: "the connector service's database, a SQLite file or a postgres:// URL: its shops, sealed secrets, API keys and inbox"
  },
  secretKeys: {
    env: "SHOPLINK_SECRET_KEYS",
    file: ["service", "secretKeys"],
    secret: true,
    description: "the keyring sealing the service's stored secrets: id:base64key[,…], the first seals",
    kind: "keyring"
  }
}

export const DEFAULT_CONFIG_FILE = "shoplink.config.json"

/** Why a value is wrong on its face, or undefined when it is plausible. Never quotes secrets. */
export const invalidValue = (definition: SettingDefinition, value: string): string | undefined => {
  if (definition.kind === "keyring") return invalidKeyring(value)
  if (definition.kind !== undefined) {
    let url: URL
    try {
      url = new URL(value)
    } catch {
      return `is not a URL: "${value}"`
    }
    // Credentials in a URL are secrets: say so without quoting it.
    if (url.username !== "" || url.password !== "") return "must not carry credentials (user:password@)"
    if (url.protocol !== "http:" && url.protocol !== "https:") return `is not an http(s) URL: "${value}"`
    if (definition.kind === "baseUrl" && (url.search !== "" || url.hash !== "")) {
      return `must not have a query or fragment (paths are appended to it): "${value}"`
    }
    return undefined
  }
  if (definition.oneOf !== undefined && !definition.oneOf.includes(value)) {
    const options = definition.oneOf
    // No setting with a fixed set of values is a secret, so the value may be quoted.
    return `is "${value}"; expected ${options.slice(0, -1).join(", ")} or ${options[options.length - 1]}`
  }
  return undefined
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/
const KEY_BYTES = 32

/**
 * Why a keyring (`id:base64key[,id:base64key…]`) is malformed, or undefined. The same rules and
 * words as the connector's `SecretBox.parseKeyring` (a unit test holds them together), checked
 * here without loading it; never quotes a key.
 */
export const invalidKeyring = (text: string): string | undefined => {
  const entries = text.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "")
  if (entries.length === 0) return "is invalid: no key given"
  const seen = new Set<string>()
  for (const [index, entry] of entries.entries()) {
    const colon = entry.indexOf(":")
    const id = colon === -1 ? "" : entry.slice(0, colon)
    if (!KEY_ID.test(id)) {
      return `is invalid: entry ${index + 1} must read id:base64key, with an id of letters, digits, - or _`
    }
    const encoded = entry.slice(colon + 1)
    const bytes = Buffer.from(encoded, "base64").length
    if (!/^[A-Za-z0-9+/=_-]+$/.test(encoded) || bytes !== KEY_BYTES) {
      return `is invalid: key ${id} is ${bytes} bytes; AES-256 needs ${KEY_BYTES} (base64 of 32 random bytes)`
    }
    if (seen.has(id)) return `is invalid: key id ${id} appears twice`
    seen.add(id)
  }
  return undefined
}

/** The key ids of a well-formed keyring, the sealing one first (ids are not secret). */
export const keyringIds = (text: string): ReadonlyArray<string> =>
  text.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "").map((entry) => entry.slice(0, entry.indexOf(":")))
