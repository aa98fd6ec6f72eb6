/**
 * A connector is a value: its id, name, declared capabilities and the Layer that provides its
 * `ShopSystem`. The runtime, the conformance test-kit and the generator all read this shape.
 *
 * @since 0.1.0
 */
import type * as Layer from "effect/Layer"
import type { Capability, ShopSystem } from "./ShopSystem.js"

/**
 * The version of the contract between the runtime and adapters. A change an existing adapter must
 * react to bumps it (and is a major release of @shoplink/connector; docs/releasing.md).
 *
 * @example
 * import { Connector } from "@shoplink/connector"
 * Connector.CONTRACT_VERSION // 1
 *
 * @since 0.1.0
 */
export const CONTRACT_VERSION = 1 as const

/**
 * A defined connector.
 *
 * @example
 * import type { Connector } from "@shoplink/connector"
 * type AnyConnector = Connector.Connector<unknown, unknown>
 *
 * @since 0.1.0
 */
export interface Connector<E = never, R = never> {
  readonly contractVersion: typeof CONTRACT_VERSION
  /** Lower-case kebab-case id, also the npm package suffix (`@shoplink/adapter-<id>`). */
  readonly id: string
  /** Human name of the shop-management system. */
  readonly name: string
  readonly capabilities: ReadonlySet<Capability>
  readonly layer: Layer.Layer<ShopSystem, E, R>
}

/**
 * Defines a connector, checking its id and capabilities. Throws a `TypeError` for a malformed
 * definition, at import time, so a broken adapter never reaches a running service.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { Connector, ShopSystem } from "@shoplink/connector"
 *
 * export const example = Connector.defineConnector({
 *   id: "example-sms",
 *   name: "Example SMS",
 *   capabilities: ["readRepairOrder"],
 *   layer: Layer.succeed(ShopSystem.ShopSystem, {
 *     capabilities: new Set<ShopSystem.Capability>(["readRepairOrder"]),
 *     loadRepairOrder: ({ repairOrderId }) => Effect.succeed({ id: repairOrderId, number: "1", vehicle: {} }),
 *     applyQuote: () => Effect.succeed({ added: 0, alreadyPresent: 0 }),
 *     applyOrder: () => Effect.succeed({ added: 0, alreadyPresent: 0 })
 *   })
 * })
 *
 * @since 0.1.0
 */
export const defineConnector = <E, R>(definition: {
  readonly id: string
  readonly name: string
  readonly capabilities: ReadonlyArray<Capability>
  readonly layer: Layer.Layer<ShopSystem, E, R>
}): Connector<E, R> => {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(definition.id)) {
    throw new TypeError(`connector id must be lower-case kebab-case, got ${JSON.stringify(definition.id)}`)
  }
  if (definition.name.trim() === "") throw new TypeError("connector name must not be empty")
  if (!definition.capabilities.includes("readRepairOrder")) {
    throw new TypeError(`connector ${definition.id} must support readRepairOrder: launching needs the repair order`)
  }
  return Object.freeze({
    contractVersion: CONTRACT_VERSION,
    id: definition.id,
    name: definition.name,
    capabilities: new Set(definition.capabilities),
    layer: definition.layer
  })
}
