// Every `shoplink` command, argument and option as plain data: the one place these facts live.
// The @effect/cli parser (Cli.ts), the help text (helpText.ts) and the argument pre-check
// (router.ts) are all derived from it. No runtime imports, so `--help` costs no Effect start-up.
import type * as Option from "effect/Option"

/** An option (`--name`). The handler's key is the camelCase of the flag (`showToken` ↔ `--show-token`). */
export interface OptionSpec {
  readonly kind: "boolean" | "text" | "integer" | "choice"
  readonly description: string
  /** The value's name in help (`--brand <code>`). */
  readonly placeholder?: string
  readonly choices?: ReadonlyArray<string>
  readonly default?: string | number
  /** May be left out: the handler gets an `Option`. Without `default` or `optional` it is required. */
  readonly optional?: boolean
  /** May be given any number of times (text only): the handler gets every value, in order. */
  readonly repeated?: boolean
}

/** A positional argument. */
export interface ArgSpec {
  readonly name: string
  readonly description: string
  readonly optional?: boolean
}

export interface LeafSpec {
  readonly name: string
  /** One line, shown in command lists. */
  readonly summary: string
  /** Shown at the top of the command's own help (defaults to the summary). */
  readonly description?: string
  readonly notes?: ReadonlyArray<string>
  readonly examples: ReadonlyArray<string>
  /** Takes the global options --json and --config. */
  readonly global?: boolean
  readonly options: { readonly [key: string]: OptionSpec }
  readonly args: { readonly [key: string]: ArgSpec }
}

export interface GroupSpec {
  readonly name: string
  readonly summary: string
  readonly description?: string
  readonly examples: ReadonlyArray<string>
  readonly subcommands: ReadonlyArray<CommandSpec>
}

export type CommandSpec = LeafSpec | GroupSpec

export const isGroup = (spec: CommandSpec): spec is GroupSpec => "subcommands" in spec

type Base<O extends OptionSpec> = O["kind"] extends "integer" ? number
  : O extends { readonly choices: ReadonlyArray<infer C> } ? C
  : string

type OptionValue<O extends OptionSpec> = O["kind"] extends "boolean" ? boolean
  : O extends { readonly repeated: true } ? ReadonlyArray<Base<O>>
  : O extends { readonly default: string | number } ? Base<O>
  : O extends { readonly optional: true } ? Option.Option<Base<O>>
  : Base<O>

type ArgValue<A extends ArgSpec> = A extends { readonly optional: true } ? Option.Option<string> : string

/** What the global options give a handler. */
export interface GlobalArgs {
  readonly json: boolean
  readonly config: Option.Option<string>
}

/** The parsed arguments a leaf's handler receives. */
export type ArgsOf<L extends LeafSpec> =
  & { readonly [K in keyof L["options"]]: OptionValue<L["options"][K]> }
  & { readonly [K in keyof L["args"]]: ArgValue<L["args"][K]> }
  & (L extends { readonly global: true } ? GlobalArgs : unknown)

// `const` keeps the literal types (choices, `optional: true`) that ArgsOf reads.
const leaf = <const L extends LeafSpec>(spec: L): L => spec
const group = <const G extends GroupSpec>(spec: G): G => spec

/** `showToken` → `show-token`. */
export const flagOf = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

export const GLOBAL_OPTIONS = {
  json: {
    kind: "boolean",
    description: "print JSON (the distributor's wire shapes) instead of tables; errors as JSON on stderr"
  },
  config: {
    kind: "text",
    placeholder: "file",
    optional: true,
    description: "JSON config file (default ./shoplink.config.json when present); environment variables win"
  }
} as const satisfies { readonly [key: string]: OptionSpec }

// ---------------------------------------------------------------------------------------------
// doctor

const environments = ["US_QUA", "CA_QUA", "US_PRD", "CA_PRD"] as const

const env = {
  kind: "choice",
  choices: environments,
  placeholder: "env",
  optional: true,
  description: "Order Management environment: US_QUA, CA_QUA, US_PRD or CA_PRD (default SHOPLINK_OMS_ENVIRONMENT)"
} as const

export const doctor = leaf({
  name: "doctor",
  summary: "Check settings, reach each API, validate every credential",
  description:
    "Check the configuration, reach each API, and validate the vendor key, the OMS key and the customer's credentials. Each check prints PASS, FAIL (with the fix) or SKIP; secrets are never printed.",
  notes: [
    "Config file shape: { \"punchout\": { \"baseUrl\", \"vendorApiKey\" }, \"oms\": { \"environment\", \"apiKey\", \"testBaseUrl\", \"prodBaseUrl\" }, \"customer\": { \"accountNo\", \"username\", \"country\", \"apiToken\" }, \"smsVendorName\", \"webhooks\": { \"order\", \"quote\", \"callback\" } }. Environment variables win over the file.",
    "Exit code: that of the first failing check (2 configuration, 3 auth, 4 distributor, 5 transport)."
  ],
  examples: [
    "shoplink doctor",
    "shoplink doctor --config ./shoplink.config.json --env CA_QUA",
    "shoplink doctor --json"
  ],
  global: true,
  options: { env },
  args: {}
})

// ---------------------------------------------------------------------------------------------
// punchout

const showToken = {
  kind: "boolean",
  description: "print the session token in full (it grants access to the customer's cart for 12 hours)"
} as const
const open = {
  kind: "boolean",
  description: "open the URL in the browser (SHOPLINK_BROWSER or the system opener)"
} as const
const qty = { kind: "integer", placeholder: "n", default: 1, description: "quantity, a positive whole number" } as const
const comment = {
  kind: "text",
  placeholder: "text",
  optional: true,
  description: "order comment / P.O. (1-20 characters)"
} as const
const orderId = { name: "orderID", description: "the order ID CreateOrder returned" } as const
const optionalText = <const P extends string, const D extends string>(placeholder: P, description: D) =>
  ({ kind: "text", placeholder, optional: true, description }) as const

export const punchoutSessionCreate = leaf({
  name: "create",
  summary: "Create a session; show its expiry and URL template",
  description: "Create a punchout session for the configured customer and show its expiry and URL template.",
  notes: ["The token is masked unless --show-token is given."],
  examples: ["shoplink punchout session create", "shoplink punchout session create --json --show-token"],
  global: true,
  options: { showToken },
  args: {}
})

export const punchoutSessionUrl = leaf({
  name: "url",
  summary: "Create a session and print its ShowCatalog URL",
  description: "Create a session and print its ShowCatalog URL (the ordering page entry).",
  examples: ["shoplink punchout session url --open", "shoplink punchout session url --show-token"],
  global: true,
  options: { showToken, open },
  args: {}
})

export const punchoutQuotes = leaf({
  name: "quotes",
  summary: "GetProductQuotes: price and availability",
  description: "GetProductQuotes: price and availability for a search term or one product.",
  examples: ["shoplink punchout quotes \"oil filter\"", "shoplink punchout quotes 51515 --brand WIX --qty 2 --json"],
  global: true,
  options: {
    brand: optionalText("brand", "brand ID: look up exactly this product (the term is its product ID)"),
    qty
  },
  args: { term: { name: "term", description: "search term, or a product ID with --brand" } }
})

export const punchoutOrderCreate = leaf({
  name: "create",
  summary: "CreateOrder: put one product in the cart",
  description: "CreateOrder: put one product in the customer's cart (not submitted).",
  notes: ["CreateOrder is never retried once the request may have reached the service."],
  examples: ["shoplink punchout order create --product 51515 --brand WIX --qty 2 --comment \"PO 77\""],
  global: true,
  options: {
    product: { kind: "text", placeholder: "id", description: "product ID" },
    brand: { kind: "text", placeholder: "brand", description: "brand ID" },
    qty,
    comment
  },
  args: {}
})

export const punchoutOrderSubmit = leaf({
  name: "submit",
  summary: "SubmitOrder: submit an order created earlier",
  examples: ["shoplink punchout order submit 10000001"],
  global: true,
  options: {},
  args: { orderId }
})

export const punchoutOrderReserve = leaf({
  name: "reserve",
  summary: "ReserveOrder: keep an order in the cart, reset its expiry",
  examples: ["shoplink punchout order reserve 10000001 --comment \"PO 77\""],
  global: true,
  options: { comment },
  args: { orderId }
})

export const punchoutCatalog = leaf({
  name: "catalog",
  summary: "Print (or --open) the ShowCatalog URL for a vehicle",
  description: "Print the ShowCatalog URL for a vehicle (and open it with --open).",
  notes: [
    "Give one vehicle: --vin, --plate with --state, or --base-vehicle.",
    "The URL carries the session token: it is masked unless --show-token is given; --open passes the full URL to the browser."
  ],
  examples: [
    "shoplink punchout catalog --vin 1FTEW1EP5KFA12345 --search \"oil filter\"",
    "shoplink punchout catalog --plate 8ABC123 --state CA --open",
    "shoplink punchout catalog --base-vehicle 5678 --show-token"
  ],
  global: true,
  options: {
    showToken,
    open,
    search: optionalText("text", "search term (needs a vehicle)"),
    vin: optionalText("vin", "vehicle VIN (17 characters)"),
    plate: optionalText("plate", "license plate (with --state)"),
    state: optionalText("state", "license plate state, e.g. CA"),
    baseVehicle: optionalText("id", "ACES base vehicle ID")
  },
  args: {}
})

export const punchout = group({
  name: "punchout",
  summary: "The Vendor Punchout API: sessions, quotes, orders, ordering pages",
  description: "The Vendor Punchout API: sessions, quotes, orders, the ordering pages.",
  examples: ["shoplink punchout quotes \"oil filter\"", "shoplink punchout catalog --base-vehicle 5678 --open"],
  subcommands: [
    group({
      name: "session",
      summary: "Punchout sessions",
      examples: ["shoplink punchout session create", "shoplink punchout session url --open"],
      subcommands: [punchoutSessionCreate, punchoutSessionUrl]
    }),
    punchoutQuotes,
    group({
      name: "order",
      summary: "Punchout orders: create, submit, reserve",
      examples: [
        "shoplink punchout order create --product 51515 --brand WIX",
        "shoplink punchout order submit 10000001"
      ],
      subcommands: [punchoutOrderCreate, punchoutOrderSubmit, punchoutOrderReserve]
    }),
    punchoutCatalog
  ]
})

// ---------------------------------------------------------------------------------------------
// oms

const day = <const D extends string>(description: D) =>
  ({ kind: "text", placeholder: "yyyymmdd", optional: true, description }) as const
const productId = { name: "productID", description: "product ID" } as const
const brandCode = { kind: "text", placeholder: "code", description: "brand code, e.g. WIX" } as const

export const omsAccount = leaf({
  name: "account",
  summary: "accountDetails: check the customer's account",
  description: "accountDetails: check the customer's account with the Order Management API.",
  examples: ["shoplink oms account", "shoplink oms account --env CA_QUA --json"],
  global: true,
  options: { env, date: day("submit date (default today)") },
  args: {}
})

export const omsPrice = leaf({
  name: "price",
  summary: "priceAndAvailability: price and stock per warehouse",
  description: "priceAndAvailability: the customer's price and stock per warehouse.",
  examples: ["shoplink oms price 51515 --brand WIX --qty 2", "shoplink oms price 51515 --brand WIX --json"],
  global: true,
  options: { env, brand: brandCode, qty },
  args: { productId }
})

export const omsOrderCreate = leaf({
  name: "create",
  summary: "createOrder: place an order for one product",
  description: "createOrder: place an order for one product.",
  notes: ["createOrder is never retried once the request may have reached the service."],
  examples: [
    "shoplink oms order create --product 51515 --brand WIX --qty 2 --po PO-77",
    "shoplink oms order create --product 51515 --brand WIX --submit --json",
    "shoplink oms order create --product 51515 --brand WIX --ship-to ./address.json --accept-recommendation"
  ],
  global: true,
  options: {
    env,
    product: { kind: "text", placeholder: "id", description: "product ID" },
    brand: brandCode,
    qty,
    warehouse: optionalText("code", "warehouse code"),
    po: optionalText("text", "customer P.O."),
    comment: optionalText("text", "order comment"),
    submit: { kind: "boolean", description: "submit the order at once" },
    shipTo: optionalText(
      "file",
      "drop-ship: a JSON file with the shipping address (name, addressLine1, addressLine2, city, state, zipCode, country, phoneNumber, emailAddress)"
    ),
    acceptRecommendation: {
      kind: "boolean",
      description: "when the drop-ship address is refused with a recommended one (API0327), order again with it"
    }
  },
  args: {}
})

export const omsOrderGet = leaf({
  name: "get",
  summary: "orderDetails: one order and its lines",
  examples: ["shoplink oms order get 50000001"],
  global: true,
  options: { env },
  args: { orderNo: { name: "orderNo", description: "order number" } }
})

export const omsInvoiceList = leaf({
  name: "list",
  summary: "invoiceDetails: one invoice, or those of a date range",
  description: "invoiceDetails: one invoice, or the invoices of a date range.",
  examples: [
    "shoplink oms invoice list --from 20260501 --to 20260531",
    "shoplink oms invoice list --invoice 70000001 --json"
  ],
  global: true,
  options: {
    env,
    invoice: optionalText("number", "one invoice number"),
    from: day("first day"),
    to: day("last day")
  },
  args: {}
})

export const omsProduct = leaf({
  name: "product",
  summary: "productDetails: marketing details, or a product search",
  description: "productDetails: marketing details of a product, or a product search.",
  examples: ["shoplink oms product 51515 --brand WIX", "shoplink oms product --search \"oil filter\" --json"],
  global: true,
  options: {
    env,
    brand: optionalText("code", "brand code (with a productID)"),
    search: optionalText("text", "search text instead of a product ID")
  },
  args: { productId: { name: "productID", description: "product ID (with --brand)", optional: true } }
})

export const omsAssets = leaf({
  name: "assets",
  summary: "productDigitalAsset: images and documents of a product",
  examples: ["shoplink oms assets 51515 --brand WIX"],
  global: true,
  options: { env, brand: brandCode },
  args: { productId }
})

export const oms = group({
  name: "oms",
  summary: "The Order Management API (every command takes --env)",
  description:
    "The Order Management API. Every command takes --env US_QUA|CA_QUA|US_PRD|CA_PRD (default SHOPLINK_OMS_ENVIRONMENT).",
  examples: ["shoplink oms account", "shoplink oms price 51515 --brand WIX --env CA_QUA"],
  subcommands: [
    omsAccount,
    omsPrice,
    group({
      name: "order",
      summary: "Order Management orders",
      examples: ["shoplink oms order create --product 51515 --brand WIX", "shoplink oms order get 50000001"],
      subcommands: [omsOrderCreate, omsOrderGet]
    }),
    group({
      name: "invoice",
      summary: "Invoices",
      examples: ["shoplink oms invoice list --from 20260501 --to 20260531"],
      subcommands: [omsInvoiceList]
    }),
    omsProduct,
    omsAssets
  ]
})

// ---------------------------------------------------------------------------------------------
// webhook, sandbox

const port = <const N extends number>(fallback: N) =>
  ({ kind: "integer", placeholder: "port", default: fallback, description: "port (0 picks a free one)" }) as const
const host = { kind: "text", placeholder: "host", default: "127.0.0.1", description: "interface to listen on" } as const

export const webhookListen = leaf({
  name: "listen",
  summary: "Receive and print the webhooks of the ordering pages",
  description:
    "Receive and print the quote and order webhooks the ordering pages post. Point new sessions at it with SHOPLINK_WEBHOOK_ORDER_URL / SHOPLINK_WEBHOOK_QUOTE_URL (the defaults match --port 8787).",
  notes: [
    "POST …/order is decoded as an order webhook, …/quote as a quote webhook; other paths try both. Decoded webhooks answer 200, others 400."
  ],
  examples: ["shoplink webhook listen", "shoplink webhook listen --port 9000 --json"],
  options: {
    json: { kind: "boolean", description: "print one JSON object per webhook (NDJSON)" },
    port: port(8787),
    host
  },
  args: {}
})

export const webhook = group({
  name: "webhook",
  summary: "Webhooks from the ordering pages",
  examples: ["shoplink webhook listen --port 8787"],
  subcommands: [webhookListen]
})

export const sandboxStart = leaf({
  name: "start",
  summary: "Start the local sandbox distributor",
  description:
    "Start the local sandbox distributor (@shoplink/sandbox) and print the environment that points shoplink at it.",
  examples: ["shoplink sandbox start", "shoplink sandbox start --port 0 --seed 7"],
  options: {
    json: { kind: "boolean", description: "print the URLs and settings as one JSON object" },
    port: port(4010),
    host,
    seed: { kind: "integer", placeholder: "n", default: 1, description: "catalog seed (prices, stock, fitment)" }
  },
  args: {}
})

export const sandbox = group({
  name: "sandbox",
  summary: "The local sandbox distributor",
  examples: ["shoplink sandbox start --port 4010"],
  subcommands: [sandboxStart]
})

// ---------------------------------------------------------------------------------------------
// shops, secrets, keys: the connector service's database (SHOPLINK_DATABASE_URL, SHOPLINK_SECRET_KEYS)

const database = optionalText(
  "file|url",
  "the service's database: a SQLite file, which must exist, or a postgres:// URL (default SHOPLINK_DATABASE_URL)"
)
const newDatabase = optionalText(
  "file|url",
  "the service's database: a SQLite file, created when missing, or a postgres:// URL (default SHOPLINK_DATABASE_URL)"
)
const countries = ["US", "US QA", "CA", "CA QA"] as const

export const shopsAdd = leaf({
  name: "add",
  summary: "Onboard a shop: distributor credentials and SMS secrets, sealed",
  description:
    "Onboard a shop in the service's database: its distributor customer credentials and its SMS secrets, sealed with the first key of SHOPLINK_SECRET_KEYS (AES-256-GCM).",
  notes: [
    "Secrets are never taken from the command line. The distributor API token and the SMS secrets are read as JSON, { \"apiToken\": \"…\", \"sms\": { \"apiKey\": \"…\" } }, from --secrets-file <file>, or from stdin when it is not a terminal (`… < secrets.json`); on a terminal you are prompted for each, without echo.",
    "--sms-secret names the SMS secrets the shop must have (Shopmonkey's is apiKey): each must be in the JSON, and no other. Without it, every secret under \"sms\" is stored.",
    "Invalid input (a bad id, an empty token) is refused with exit 2 and changes nothing. An existing shop is refused unless --replace, which also clears a revocation."
  ],
  examples: [
    "shoplink shops add shop_1 --name \"Main Street Auto\" --account 100200 --username parts@mainstreet.example --country US --sms-secret apiKey < secrets.json",
    "shoplink shops add shop_1 --name \"Main Street Auto\" --account 100200 --username parts@mainstreet.example --country US --secrets-file ./shop_1.json --replace"
  ],
  global: true,
  options: {
    name: { kind: "text", placeholder: "text", description: "the shop's name" },
    account: { kind: "text", placeholder: "accountNo", description: "the shop's distributor account number" },
    username: { kind: "text", placeholder: "username", description: "the shop's distributor username" },
    country: {
      kind: "choice",
      choices: countries,
      placeholder: "country",
      description: "the shop's distributor country: US, US QA, CA or CA QA"
    },
    smsSecret: {
      kind: "text",
      placeholder: "name",
      repeated: true,
      description: "an SMS secret the shop must have, by name (repeatable; the value comes from the JSON)"
    },
    secretsFile: optionalText("file", "the secrets JSON ({ \"apiToken\", \"sms\": { name: value } }); - reads stdin"),
    replace: {
      kind: "boolean",
      description: "replace an existing shop's details and secrets (and clear a revocation)"
    },
    database: newDatabase
  },
  args: { id: { name: "id", description: "the shop's id: 1-64 letters, digits, '.', '_' or '-'" } }
})

export const shopsList = leaf({
  name: "list",
  summary: "List the shops: account, country, status, SMS secret names",
  description:
    "List the shops in the service's database: account, username, country, status (and why and when a shop was revoked) and the names of its SMS secrets, never their values.",
  examples: ["shoplink shops list", "shoplink shops list --json --database /var/lib/shoplink/shoplink.db"],
  global: true,
  options: { database },
  args: {}
})

export const shopsRemove = leaf({
  name: "remove",
  summary: "Remove a shop and its secrets",
  description: "Remove a shop and its sealed secrets from the service's database.",
  notes: ["An unknown id is an error (exit 1, ShopNotFound)."],
  examples: ["shoplink shops remove shop_1"],
  global: true,
  options: { database },
  args: { id: { name: "id", description: "the shop's id (`shoplink shops list` shows them)" } }
})

export const shops = group({
  name: "shops",
  summary: "The shops the connector service serves (needs SHOPLINK_SECRET_KEYS)",
  description:
    "The shops the connector service serves, in its database (SHOPLINK_DATABASE_URL or --database). Secrets are sealed with SHOPLINK_SECRET_KEYS.",
  examples: [
    "shoplink shops add shop_1 --name \"Main Street Auto\" --account 100200 --username u --country US < secrets.json",
    "shoplink shops list"
  ],
  subcommands: [shopsAdd, shopsList, shopsRemove]
})

export const secretsGenerateKey = leaf({
  name: "generate-key",
  summary: "Print a new key for SHOPLINK_SECRET_KEYS (a secret)",
  description:
    "Print a new random AES-256 key as a SHOPLINK_SECRET_KEYS entry, id:base64key, on stdout. It is a secret: keep it where the service's other secrets live, never in a file you commit.",
  notes: [
    "SHOPLINK_SECRET_KEYS is id:base64key[,id:base64key…]; the first key seals, every key opens. To rotate, put the new entry first, keep the old one after it, run `shoplink secrets rotate`, then drop the old one."
  ],
  examples: ["shoplink secrets generate-key", "shoplink secrets generate-key --id k2027"],
  options: {
    id: optionalText("id", "the key's id: 1-32 letters, digits, '-' or '_' (default k<yyyymmdd>)")
  },
  args: {}
})

export const secretsRotate = leaf({
  name: "rotate",
  summary: "Re-seal every stored secret under the first key",
  description:
    "Re-seal every stored secret under the first key of SHOPLINK_SECRET_KEYS, then report how many were re-sealed and how many each key still seals.",
  notes: [
    "Before rotating, put the new key first in SHOPLINK_SECRET_KEYS (the old one after it) here and in the service, and restart the service, or it keeps sealing with the old key. When every secret is under the first key, the report says the other keys can be removed. Safe to run again: an interrupted rotation leaves every secret readable."
  ],
  examples: ["shoplink secrets rotate", "shoplink secrets rotate --json --database /var/lib/shoplink/shoplink.db"],
  global: true,
  options: { database },
  args: {}
})

export const secrets = group({
  name: "secrets",
  summary: "The keyring that seals stored secrets (SHOPLINK_SECRET_KEYS)",
  examples: ["shoplink secrets generate-key --id k2027", "shoplink secrets rotate"],
  subcommands: [secretsGenerateKey, secretsRotate]
})

export const keysCreate = leaf({
  name: "create",
  summary: "Create a vendor API key for the service's API (shown once)",
  description:
    "Create a vendor API key for the connector service's API (what an SMS backend presents to launch punchouts). The key is printed once, on stdout; only its digest is stored.",
  examples: ["shoplink keys create sms-backend", "KEY=$(shoplink keys create sms-backend)"],
  global: true,
  options: { database: newDatabase },
  args: { name: { name: "name", description: "a label for the key, e.g. who uses it" } }
})

export const keysList = leaf({
  name: "list",
  summary: "List the vendor API keys (never the keys themselves)",
  examples: ["shoplink keys list", "shoplink keys list --json"],
  global: true,
  options: { database },
  args: {}
})

export const keysRevoke = leaf({
  name: "revoke",
  summary: "Revoke a vendor API key",
  description: "Revoke a vendor API key: the service refuses it from then on. Revoked keys stay listed.",
  notes: ["An unknown id is an error (exit 1, ApiKeyNotFound)."],
  examples: ["shoplink keys revoke 3f9a0c2b7d"],
  global: true,
  options: { database },
  args: { id: { name: "id", description: "the key's id (`shoplink keys list` shows them)" } }
})

export const keys = group({
  name: "keys",
  summary: "Vendor API keys for the connector service's API",
  examples: ["shoplink keys create sms-backend", "shoplink keys list"],
  subcommands: [keysCreate, keysList, keysRevoke]
})

// ---------------------------------------------------------------------------------------------
// inbox: the service's webhook inbox (dead letters), in its database

const statuses = ["pending", "applied", "dead"] as const
const entryId = {
  name: "entry-id",
  description: "the entry's id (a UUID, as the callback page and `inbox show` print it), or its first 8+ characters"
} as const
const shopFilter = optionalText("id", "only this shop's entries")
const roFilter = optionalText("id", "only the entries of this repair order")

export const inboxList = leaf({
  name: "list",
  summary: "List the inbox's webhook deliveries: status, attempts, last error",
  description:
    "List the webhook deliveries in the service's inbox, newest first: kind, shop, repair order, status (pending, applied, dead), attempts, when received and the last error.",
  notes: [
    "The ID column shows each id's first 8 characters; `inbox show`, `replay` and `discard` take them, or the full id. --json prints every field (full ids, ISO-8601 times), without the bodies.",
    "A dead entry gave up after its last attempt: `shoplink inbox show <entry-id>` says why; once the cause is fixed, `shoplink inbox replay <entry-id>` puts it back in line."
  ],
  examples: [
    "shoplink inbox list --status dead",
    "shoplink inbox list --shop shop_1 --ro ro_8f2 --json",
    "shoplink inbox list --limit 200 --database /var/lib/shoplink/shoplink.db"
  ],
  global: true,
  options: {
    shop: shopFilter,
    ro: roFilter,
    status: {
      kind: "choice",
      choices: statuses,
      placeholder: "status",
      optional: true,
      description: "only entries in this status: pending, applied or dead"
    },
    limit: { kind: "integer", placeholder: "n", default: 50, description: "at most this many entries, the newest" },
    database
  },
  args: {}
})

export const inboxShow = leaf({
  name: "show",
  summary: "Show one delivery: its body, attempts, last error, times",
  description:
    "Show one webhook delivery of the inbox: shop, repair order, status, attempts, last error, times, and the distributor's webhook body, pretty-printed (anything token-like redacted).",
  examples: ["shoplink inbox show 3f1c2a4e", "shoplink inbox show 3f1c2a4e-9b7d-4e21-8c55-0d6f1a2b3c4d --json"],
  global: true,
  options: { database },
  args: { id: entryId }
})

export const inboxReplay = leaf({
  name: "replay",
  summary: "Put a dead delivery back in line (or every dead one: --all-dead)",
  description:
    "Put a dead-lettered delivery back in line: it becomes pending with its attempts reset, and the service's worker applies it again within moments (the service must be running). Fix what made it fail first.",
  notes: [
    "Only a dead entry is replayed: a pending one is already in line (nothing is done), an applied one is refused. --all-dead replays every dead entry, or those of --shop / --ro."
  ],
  examples: [
    "shoplink inbox replay 3f1c2a4e",
    "shoplink inbox replay 3f1c2a4e --wait",
    "shoplink inbox replay --all-dead --shop shop_1"
  ],
  global: true,
  options: {
    allDead: {
      kind: "boolean",
      description: "replay every dead entry (with --shop / --ro: only theirs) instead of one"
    },
    wait: {
      kind: "boolean",
      description:
        "follow the entry until the service applied it (exit 0) or gave up on it again (exit 1), at most 5 minutes"
    },
    shop: optionalText("id", "with --all-dead: only this shop's dead entries"),
    ro: optionalText("id", "with --all-dead: only the dead entries of this repair order"),
    database
  },
  args: { id: { ...entryId, optional: true } }
})

export const inboxDiscard = leaf({
  name: "discard",
  summary: "Delete a dead delivery for good (prints what it deleted)",
  description:
    "Delete a dead-lettered delivery from the inbox for good, when it should never be applied (a test order, a repair order that no longer exists). Asks no confirmation; prints what it deleted.",
  notes: ["Only a dead entry can be discarded: a pending or applied one is refused."],
  examples: ["shoplink inbox discard 3f1c2a4e", "shoplink inbox discard 3f1c2a4e --json"],
  global: true,
  options: { database },
  args: { id: entryId }
})

export const inbox = group({
  name: "inbox",
  summary: "The service's webhook inbox: dead letters, replay, discard",
  description:
    "The connector service's webhook inbox, in its database (SHOPLINK_DATABASE_URL or --database): every delivery of the ordering pages, whether it was applied to the shop system, and the dead letters that were not.",
  examples: ["shoplink inbox list --status dead", "shoplink inbox show 3f1c2a4e", "shoplink inbox replay 3f1c2a4e"],
  subcommands: [inboxList, inboxShow, inboxReplay, inboxDiscard]
})

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// db: the service's database schema

export const dbMigrate = leaf({
  name: "migrate",
  summary: "Apply the database migrations this release has and the database lacks",
  description:
    "Apply the connector's database migrations that the service's database (a SQLite file or a postgres:// URL) has not had yet, and print the version it is at. The service applies them itself when it starts; this runs them as a deploy step, before the new release starts.",
  notes: [
    "Safe to run while other processes start or run: on PostgreSQL they take turns under a lock. A database at a newer version than this release knows is left alone, with a warning."
  ],
  examples: [
    "shoplink db migrate",
    "shoplink db migrate --json --database postgres://shoplink@db.internal:5432/shoplink"
  ],
  global: true,
  options: { database: newDatabase },
  args: {}
})

// ---------------------------------------------------------------------------------------------
// parts: the part lines the service keeps for shop systems that cannot take them

export const partsList = leaf({
  name: "list",
  summary: "List the parts the service keeps for a repair order (SMSs without part writes)",
  description:
    "List the quoted and ordered part lines the connector service keeps for one repair order of a shop, when the shop system cannot take part lines (its adapter declares no writeQuotedParts or writeOrderedParts): kind, distributor order and status, brand, part number, description, quantity and unit prices.",
  notes: [
    "The same lines are on the service's parts page ({basePath}/parts?shop=…&ro=…, with a vendor API key or a signed link) and its CSV download. --csv prints that CSV; --json prints every field (money in cents, ISO-8601 times)."
  ],
  examples: [
    "shoplink parts list --shop shop_1 --ro 1042",
    "shoplink parts list --shop shop_1 --ro 1042 --csv > ro-1042-parts.csv",
    "shoplink parts list --shop shop_1 --ro 1042 --json --database /var/lib/shoplink/shoplink.db"
  ],
  global: true,
  options: {
    shop: { kind: "text", placeholder: "id", description: "the shop's id, as onboarded" },
    ro: { kind: "text", placeholder: "id", description: "the repair order's id in the shop system" },
    csv: { kind: "boolean", description: "print CSV (the parts page's download) instead of a table" },
    database
  },
  args: {}
})

export const parts = group({
  name: "parts",
  summary: "The parts the service keeps for shop systems that cannot take part lines",
  examples: ["shoplink parts list --shop shop_1 --ro 1042"],
  subcommands: [partsList]
})

export const db = group({
  name: "db",
  summary: "The connector service's database schema",
  examples: ["shoplink db migrate"],
  subcommands: [dbMigrate]
})

export const root = group({
  name: "shoplink",
  summary: "Check credentials and try the distributor's Punchout and Order Management APIs.",
  examples: [
    "shoplink doctor",
    "shoplink punchout quotes \"oil filter\" --qty 2",
    "shoplink oms price 51515 --brand WIX --env US_QUA --json",
    "shoplink webhook listen --port 8787"
  ],
  subcommands: [doctor, punchout, oms, webhook, sandbox, shops, secrets, keys, inbox, parts, db]
})

/** Every leaf with its full path (`path` is that of `spec`; the root's is empty), depth first. */
export const leaves = (
  spec: CommandSpec = root,
  path: ReadonlyArray<string> = []
): ReadonlyArray<{ readonly path: ReadonlyArray<string>; readonly spec: LeafSpec }> =>
  isGroup(spec) ? spec.subcommands.flatMap((child) => leaves(child, [...path, child.name])) : [{ path, spec }]
