// What the service needs to run, read from the environment. With none of the distributor and
// Shopmonkey variables set, it runs on the embedded default: the sandbox and the fake Shopmonkey
// started in-process (see embedded.ts).
import { Config, Option, type Redacted } from "effect"
import type { CredentialStore } from "@shoplink/connector"

export interface Settings {
  readonly port: number
  readonly host: string
  /** Where the distributor and browsers reach this service (defaults to http://host:port). */
  readonly publicBaseUrl: string | undefined
  readonly smsVendorName: string
  readonly databaseFile: string
  readonly punchoutBaseUrl: string
  readonly vendorApiKey: Redacted.Redacted<string>
  readonly shopmonkeyBaseUrl: string
  readonly shopmonkeyApiKey: Redacted.Redacted<string>
  /** The shop this service acts for, and its distributor customer credentials. */
  readonly shopId: string
  readonly customer: CredentialStore.CustomerCredentials
}

const country = Config.literal("US", "US QA", "CA", "CA QA")("SHOPLINK_CUSTOMER_COUNTRY")

/** The service's own settings (port, host, database), present in both modes. */
export const serviceConfig = Config.all({
  port: Config.integer("PORT").pipe(Config.withDefault(3000)),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  publicBaseUrl: Config.option(Config.string("SHOPLINK_PUBLIC_BASE_URL")).pipe(Config.map(Option.getOrUndefined)),
  smsVendorName: Config.string("SHOPLINK_SMS_VENDOR_NAME").pipe(Config.withDefault("Shopmonkey (Shoplink sample)")),
  databaseFile: Config.string("SHOPLINK_DATABASE").pipe(Config.withDefault("shoplink-sample.sqlite")),
  shopId: Config.string("SHOPLINK_SHOP_ID").pipe(Config.withDefault("default"))
})

/** The real distributor and the real Shopmonkey, when configured. */
export const externalConfig = Config.all({
  punchoutBaseUrl: Config.string("SHOPLINK_PUNCHOUT_BASE_URL"),
  vendorApiKey: Config.redacted("SHOPLINK_VENDOR_API_KEY"),
  shopmonkeyBaseUrl: Config.string("SHOPLINK_SHOPMONKEY_BASE_URL").pipe(Config.withDefault("https://api.shopmonkey.cloud/v3")),
  shopmonkeyApiKey: Config.redacted("SHOPLINK_SHOPMONKEY_API_KEY"),
  customer: Config.all({
    accountNo: Config.string("SHOPLINK_CUSTOMER_ACCOUNT_NO"),
    username: Config.string("SHOPLINK_CUSTOMER_USERNAME"),
    country,
    apiToken: Config.redacted("SHOPLINK_CUSTOMER_API_TOKEN")
  })
})

/** Whether any external setting is present: then all of them must be. */
export const externalRequested = Config.option(Config.string("SHOPLINK_PUNCHOUT_BASE_URL")).pipe(
  Config.zipWith(Config.option(Config.string("SHOPLINK_SHOPMONKEY_API_KEY")), (a, b) => Option.isSome(a) || Option.isSome(b))
)
