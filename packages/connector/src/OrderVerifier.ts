/**
 * Optional check of a received order against the distributor's Order Management API before it is
 * applied: the order webhook is not signed (the spec shows no request authentication), so a
 * connector that holds Order Management credentials can confirm that the order exists for the
 * shop's account and has really been submitted. Provide this service to turn it on; the
 * `InboxWorker` consults it for order deliveries when it is present.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { OrderManagementClient } from "@shoplink/order-management"
import { CredentialStore } from "./CredentialStore.js"

/**
 * The outcome of a check: `Verified`; `Rejected` (the distributor does not confirm the order — the
 * entry is dead-lettered in `enforce` mode); or `Unavailable` (could not check now — retried).
 *
 * @example
 * import type { OrderVerifier } from "@shoplink/connector"
 * const ok = (v: OrderVerifier.Verdict) => v._tag === "Verified"
 *
 * @since 0.1.0
 */
export type Verdict =
  | { readonly _tag: "Verified" }
  | { readonly _tag: "Rejected"; readonly reason: string }
  | { readonly _tag: "Unavailable"; readonly reason: string }

/**
 * The service.
 *
 * @example
 * import { Effect } from "effect"
 * import { OrderVerifier } from "@shoplink/connector"
 * const check = Effect.flatMap(OrderVerifier.OrderVerifier, (v) => v.verify({ shopId: "shop_1", orderID: "10423" }))
 *
 * @since 0.1.0
 */
export class OrderVerifier extends Context.Tag("@shoplink/connector/OrderVerifier")<OrderVerifier, {
  /** `warn` logs a rejection and applies anyway; `enforce` dead-letters it. */
  readonly mode: "enforce" | "warn"
  readonly verify: (order: { readonly shopId: string; readonly orderID: string }) => Effect.Effect<Verdict>
}>() {}

// Order Management IDs that mean "no such order for this account".
const NOT_FOUND = new Set(["API0230", "API0246", "API0255", "API0256"])
// Status reports of an order that has been submitted (or is further along).
const SUBMITTED = new Set(["API0283", "API0284", "API0285", "API0286"])

/**
 * Verifies with `orderDetails`, using the shop's customer credentials from the `CredentialStore`
 * (the same customer API token serves both APIs; docs/assumptions.md) and assuming the punchout
 * `orderID` is the Order Management order number.
 *
 * @example
 * import { Layer } from "effect"
 * import { OrderVerifier } from "@shoplink/connector"
 * const verifier = OrderVerifier.layerOrderManagement({ mode: "enforce" }) // needs OrderManagementClient, CredentialStore
 *
 * @since 0.1.0
 */
export const layerOrderManagement = (options: { readonly mode?: "enforce" | "warn" } = {}): Layer.Layer<
  OrderVerifier,
  never,
  OrderManagementClient.OrderManagementClient | CredentialStore
> =>
  Layer.effect(
    OrderVerifier,
    Effect.gen(function*() {
      const oms = yield* OrderManagementClient.OrderManagementClient
      const credentials = yield* CredentialStore
      return OrderVerifier.of({
        mode: options.mode ?? "enforce",
        verify: ({ orderID, shopId }) =>
          Effect.gen(function*() {
            const customer = yield* credentials.get(shopId)
            const details = yield* oms.forCustomer({ accountNo: customer.accountNo, apiToken: customer.apiToken }).orderDetails({ orderNo: orderID })
            const status = details.orderHeader.orderStatus ?? details.status.message.ID
            return status !== undefined && SUBMITTED.has(status)
              ? { _tag: "Verified" } as const
              : { _tag: "Rejected", reason: `order ${orderID} is not submitted at the distributor (status ${status ?? "unknown"})` } as const
          }).pipe(
            Effect.catchAll((error): Effect.Effect<Verdict> => {
              const code = "code" in error && typeof error.code === "string" ? error.code : undefined
              if (code !== undefined && NOT_FOUND.has(code)) {
                return Effect.succeed({ _tag: "Rejected", reason: `order ${orderID} is unknown to the distributor (${code})` })
              }
              return Effect.succeed({ _tag: "Unavailable", reason: error.message })
            }),
            Effect.withSpan("OrderVerifier.verify")
          )
      })
    })
  )
