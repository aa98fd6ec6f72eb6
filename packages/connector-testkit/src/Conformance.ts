/**
 * `runConnectorConformance` — the one suite every adapter runs. It registers vitest tests that
 * drive the real runtime against the sandbox (launch, Export, Export and Submit, webhooks, the
 * worker) and check what landed in the adapter's shop system through the harness's direct reads.
 * A capability the connector does not declare turns its checks into tests asserting it is really
 * absent, and the final "report" test lists them.
 *
 * @since 0.1.0
 */
import { describe, it } from "@effect/vitest"
import type { Connector, ShopSystem } from "@shoplink/connector"
import { Effect } from "effect"
import type { ConformanceSms, VehicleIdentifier } from "./ConformanceHarness.js"
import { makeSuite } from "./internal/checks.js"

/**
 * Options of {@link runConnectorConformance}.
 *
 * @example
 * import type { Conformance } from "@shoplink/connector-testkit"
 * import { ReferenceConnector, ReferenceHarness, type ReferenceSms } from "@shoplink/connector-testkit/reference"
 * const options: Conformance.Options<never, ReferenceSms.ReferenceSms> = {
 *   connector: ReferenceConnector.connector,
 *   sms: ReferenceHarness.harness,
 *   vehicleIdentifiers: ["vin", "licensePlate"]
 * }
 *
 * @since 0.1.0
 */
export interface Options<E, R> {
  readonly connector: Connector.Connector<E, R>
  readonly sms: ConformanceSms<R>
  /**
   * Certify only these of the connector's capabilities (default: all it declares). A declared one
   * left out is reported as `excluded`.
   */
  readonly capabilities?: ReadonlyArray<ShopSystem.Capability>
  /** The vehicle identifiers the SMS can hold (default: all three). The others must launch without them. */
  readonly vehicleIdentifiers?: ReadonlyArray<VehicleIdentifier>
  /** The shop id used for credentials and repair orders (default `shop_1`). */
  readonly shopId?: string
}

/**
 * How a check ran: `checked` (the capability is declared and certified), `absent` (not declared:
 * the test asserts the adapter really lacks it), `excluded` (declared but left out by options).
 *
 * @example
 * import type { Conformance } from "@shoplink/connector-testkit"
 * const status: Conformance.CheckStatus = "absent"
 *
 * @since 0.1.0
 */
export type CheckStatus = "checked" | "absent" | "excluded"

/**
 * One check of the suite.
 *
 * @example
 * import type { Conformance } from "@shoplink/connector-testkit"
 * const entry: Conformance.CheckReport = { name: "export: quoted lines on the repair order", requires: ["writeQuotedParts"], status: "checked" }
 *
 * @since 0.1.0
 */
export interface CheckReport {
  readonly name: string
  /** The capabilities (or vehicle identifier) the check needs; empty when every adapter must pass it. */
  readonly requires: ReadonlyArray<string>
  readonly status: CheckStatus
}

/**
 * What `runConnectorConformance` registered, known before any test runs.
 *
 * @example
 * import type { Conformance } from "@shoplink/connector-testkit"
 * const skipped = (report: Conformance.ConformanceReport) => report.checks.filter((c) => c.status !== "checked")
 *
 * @since 0.1.0
 */
export interface ConformanceReport {
  readonly connector: string
  readonly contractVersion: number
  readonly checks: ReadonlyArray<CheckReport>
}

/**
 * Registers the conformance suite for a connector as a vitest `describe` block, and returns the
 * report of which checks run and which are turned off. Call it at the top level of a test file.
 *
 * @example
 * // test/conformance.test.ts of an adapter package
 * import { runConnectorConformance } from "@shoplink/connector-testkit"
 * import { ReferenceConnector, ReferenceHarness } from "@shoplink/connector-testkit/reference"
 *
 * runConnectorConformance({ connector: ReferenceConnector.connector, sms: ReferenceHarness.harness })
 *
 * @since 0.1.0
 */
export const runConnectorConformance = <E, R>(options: Options<E, R>): ConformanceReport => {
  const { checks, environment, report } = makeSuite(options)
  describe(`${options.connector.name} (${options.connector.id}) conformance`, () => {
    for (const check of checks) {
      const label = check.status === "checked" ? check.name : `${check.name} [${check.status}: ${check.requires.join(", ")}]`
      it.scoped(label, () => Effect.flatMap(environment, check.run))
    }
  })
  return report
}
