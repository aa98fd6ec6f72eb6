/**
 * A customer's credentials, the options of a new session, and the session the service grants.
 *
 * @since 0.1.0
 */
import type * as DateTime from "effect/DateTime"
import type * as Redacted from "effect/Redacted"
import type { Punchout, Values } from "@shoplink/protocol"

/**
 * A distributor customer the vendor acts for. `apiToken` is the token the customer created in
 * the ordering application (Settings, API Tokens).
 *
 * @example
 * import { Redacted } from "effect"
 * import type { PunchoutSession } from "@shoplink/punchout"
 * const customer: PunchoutSession.Customer = {
 *   accountNo: "100200", username: "parts@mainstreet-auto.example", country: "US",
 *   apiToken: Redacted.make("sbx-token-us-100200")
 * }
 *
 * @since 0.1.0
 */
export interface Customer {
  readonly accountNo: string
  readonly username: string
  readonly country: Values.Country
  readonly apiToken: Redacted.Redacted<string>
}

/**
 * What a session shows and where the service sends exported orders and quotes.
 *
 * @example
 * import type { PunchoutSession } from "@shoplink/punchout"
 * const options: PunchoutSession.CreateSessionOptions = {
 *   smsVendorName: "Acme SMS",
 *   referenceID: "RO-1042",
 *   webhooks: { order: "https://sms.example/hooks/order", quote: "https://sms.example/hooks/quote" },
 *   exportButtons: { export: { visible: true }, exportAndSave: { visible: true } }
 * }
 *
 * @since 0.1.0
 */
export interface CreateSessionOptions {
  readonly smsVendorName: string
  readonly referenceID?: string
  readonly webhooks: {
    readonly order: string
    readonly quote: string
    readonly callback?: string
  }
  readonly exportButtons?: Punchout.ExportButtons
}

/**
 * A live punchout session. The token, and the URL template that embeds it, are `Redacted`, so a
 * logged or printed session never shows them.
 *
 * @example
 * import { DateTime } from "effect"
 * import type { PunchoutSession } from "@shoplink/punchout"
 * const expiresIn = (session: PunchoutSession.PunchoutSession, now: DateTime.Utc) =>
 *   DateTime.distance(now, session.expiresAt)
 *
 * @since 0.1.0
 */
export interface PunchoutSession {
  /** The customer key the session belongs to (see `customerKey`). */
  readonly customerKey: string
  readonly token: Redacted.Redacted<string>
  /** The URL with the literal `{command}` placeholder and the `token` parameter. */
  readonly urlTemplate: Redacted.Redacted<string>
  readonly expiresAt: DateTime.Utc
  readonly serverVersion?: string | undefined
}

/**
 * The key that identifies a customer in the session pool: country, account number and username.
 *
 * @example
 * import { PunchoutSession } from "@shoplink/punchout"
 * PunchoutSession.customerKey({ accountNo: "100200", username: "a@b.example", country: "US" })
 * // "US/100200/a@b.example"
 *
 * @since 0.1.0
 */
export const customerKey = (customer: Pick<Customer, "accountNo" | "username" | "country">): string =>
  `${customer.country}/${customer.accountNo}/${customer.username.toLowerCase()}`
