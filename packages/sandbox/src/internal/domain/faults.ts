// The faults aggregate: faults armed by the admin API, taken by the HTTP edge (endpoint faults)
// and by the order operations (an order locked or in use).
import * as Either from "effect/Either"
import { reject, type Result } from "./result.js"

/**
 * A fault to inject. `endpoint` is a command or endpoint name (`create`, `GetProductQuotes`,
 * `createOrder`, `priceAndAvailability_v2`, …) or `*` for any; `times` defaults to 1.
 *
 * @example
 * import type { Fault } from "@shoplink/sandbox"
 * const busy: Fault = { kind: "message", endpoint: "SubmitOrder", id: "API0258", times: 2 }
 * const slow: Fault = { kind: "latency", endpoint: "*", millis: 1500 }
 *
 * @since 0.1.0
 */
export type Fault =
  | { readonly kind: "latency"; readonly endpoint: string; readonly millis: number; readonly times?: number }
  | { readonly kind: "httpStatus"; readonly endpoint: string; readonly status: number; readonly times?: number }
  | { readonly kind: "connectionReset"; readonly endpoint: string; readonly times?: number }
  | { readonly kind: "message"; readonly endpoint: string; readonly id: string; readonly times?: number }
  | { readonly kind: "orderLocked"; readonly orderID: string; readonly times?: number }
  | { readonly kind: "orderInUse"; readonly orderID: string; readonly times?: number }

type ArmedFault = Fault & { remaining: number }

export class Faults {
  private armed: Array<ArmedFault> = []

  inject(fault: Fault): void {
    this.armed.push({ ...fault, remaining: fault.times ?? 1 })
  }

  clear(): void {
    this.armed = []
  }

  /** Takes the next armed endpoint fault matching an endpoint name. */
  takeEndpointFault(endpoint: string): Fault | undefined {
    if (this.armed.length === 0) return undefined
    const armed = this.armed.find((f) =>
      f.kind !== "orderLocked" && f.kind !== "orderInUse" &&
      (f.endpoint === "*" || f.endpoint.toLowerCase() === endpoint.toLowerCase()) && f.remaining > 0
    )
    if (armed === undefined) return undefined
    armed.remaining--
    this.armed = this.armed.filter((f) => f.remaining > 0)
    return armed
  }

  /** Consumes an armed order fault (locked / in use) for an order: API0258 / API0273. */
  checkOrder(orderID: string): Result<void> {
    const armed = this.armed.find((f) =>
      (f.kind === "orderLocked" || f.kind === "orderInUse") && f.orderID === orderID && f.remaining > 0
    )
    if (armed === undefined) return Either.void
    armed.remaining--
    this.armed = this.armed.filter((f) => f.remaining > 0)
    return reject(armed.kind === "orderLocked" ? "API0258" : "API0273")
  }
}
