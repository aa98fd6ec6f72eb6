/**
 * The customer a call acts for: its account number and the API token the customer created for
 * this partner (the spec's Authentication rules 3 and 5). The token is `Redacted` and only ever
 * leaves the process as the `APIToken` query parameter.
 *
 * @since 0.1.0
 */
import * as Redacted from "effect/Redacted"

/**
 * Customer credentials.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { Customer } from "@shoplink/order-management"
 * const customer: Customer.Customer = { accountNo: "100200", apiToken: Redacted.make("sbx-token-us-100200") }
 *
 * @since 0.1.0
 */
export interface Customer {
  readonly accountNo: string
  readonly apiToken: Redacted.Redacted<string>
}

/**
 * Builds customer credentials, wrapping a plain token in `Redacted`.
 *
 * @example
 * import { Customer } from "@shoplink/order-management"
 * const customer = Customer.make("100200", "sbx-token-us-100200")
 * String(customer.apiToken) // "<redacted>"
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (accountNo: string, apiToken: string | Redacted.Redacted<string>): Customer => ({
  accountNo,
  apiToken: Redacted.isRedacted(apiToken) ? apiToken : Redacted.make(apiToken)
})
