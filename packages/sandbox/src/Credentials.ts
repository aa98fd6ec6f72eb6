/**
 * The documented test credentials of the sandbox: the same on every start.
 *
 * @since 0.1.0
 */
import type { Values } from "@shoplink/protocol"

/**
 * A customer account the sandbox knows.
 *
 * @example
 * import { SANDBOX_CREDENTIALS, type SandboxCustomer } from "@shoplink/sandbox"
 * const customer: SandboxCustomer = SANDBOX_CREDENTIALS.customers.us
 *
 * @since 0.1.0
 */
export interface SandboxCustomer {
  readonly accountNo: string
  readonly username: string
  readonly apiToken: string
  readonly country: Values.CountryCode
}

/**
 * The shape of {@link SANDBOX_CREDENTIALS}.
 *
 * @example
 * import { SANDBOX_CREDENTIALS, type SandboxCredentials } from "@shoplink/sandbox"
 * const credentials: SandboxCredentials = SANDBOX_CREDENTIALS
 *
 * @since 0.1.0
 */
export interface SandboxCredentials {
  readonly vendorApiKey: string
  readonly oms: { readonly testApiKey: string; readonly prodApiKey: string }
  readonly customers: { readonly us: SandboxCustomer; readonly ca: SandboxCustomer }
}

/**
 * Test credentials (public fixtures, plain strings): a Punchout vendor key, Order Management test
 * and production keys, and a US and a Canadian customer.
 *
 * @example
 * import { SANDBOX_CREDENTIALS } from "@shoplink/sandbox"
 * SANDBOX_CREDENTIALS.customers.us.accountNo // "100200"
 *
 * @since 0.1.0
 */
export const SANDBOX_CREDENTIALS = {
  vendorApiKey: "sbx-vendor-key-0001",
  oms: { testApiKey: "sbx-oms-test-key-0001", prodApiKey: "sbx-oms-prod-key-0001" },
  customers: {
    us: {
      accountNo: "100200",
      username: "parts@mainstreet-auto.example",
      apiToken: "sbx-token-us-100200",
      country: "US"
    },
    ca: {
      accountNo: "300400",
      username: "parts@northern-garage.example",
      apiToken: "sbx-token-ca-300400",
      country: "CA"
    }
  }
} as const satisfies SandboxCredentials

/**
 * A third seeded customer whose account requires a P.O. number (API0259 / API0250). Not part of
 * {@link SANDBOX_CREDENTIALS} so the everyday accounts stay permissive.
 *
 * @example
 * import { SANDBOX_PO_REQUIRED_CUSTOMER } from "@shoplink/sandbox"
 * SANDBOX_PO_REQUIRED_CUSTOMER.accountNo // "100300"
 *
 * @since 0.1.0
 */
export const SANDBOX_PO_REQUIRED_CUSTOMER = {
  accountNo: "100300",
  username: "buyer@fleet-works.example",
  apiToken: "sbx-token-us-100300",
  country: "US"
} as const satisfies SandboxCustomer
