/**
 * `runConnectorConformance` — the one suite every adapter runs. It registers vitest tests that
 * drive the real runtime against the sandbox (launch, Export, Export and Submit, webhooks, the
 * worker) and check what landed in the adapter's shop system through the harness's direct reads.
 * A capability the connector does not declare turns its checks into tests asserting it is really
 * absent. After the suite, a summary counts what really happened — passed, failed, skipped — with
 * each failure's first line, and lists the checks turned off.
 *
 * @since 0.1.0
 */
import { afterAll, describe, it } from "@effect/vitest"
import type { Connector, ShopSystem } from "@shoplink/connector"
import type { ConnectorRuntime } from "@shoplink/connector-runtime"
import * as Effect from "effect/Effect"
import type { ConformanceSms, VehicleIdentifier } from "./ConformanceHarness.js"
import { type CheckOutcome, formatSummary, makeSuite } from "./internal/checks.js"

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
  /**
   * The fake SMS for each check. Its layer provides what the connector's layer needs except what
   * the runtime provides (`ConnectorRuntime.ProvidedToAdapter`, e.g. `SmsCredentials`: the harness
   * returns the shop's `smsSecrets` and the runtime serves them from its shop store).
   */
  readonly sms: ConformanceSms<Exclude<R, ConnectorRuntime.ProvidedToAdapter>>
  /**
   * Certify only these of the connector's capabilities (default: all it declares). A declared one
   * left out is reported as `excluded`.
   */
  readonly capabilities?: ReadonlyArray<ShopSystem.Capability>
  /** The vehicle identifiers the SMS can hold (default: all three). The others must launch without them. */
  readonly vehicleIdentifiers?: ReadonlyArray<VehicleIdentifier>
  /** The shop id onboarded (sandbox credentials, `smsSecrets`) and given to the harness (default `shop_1`). */
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
 * const entry: Conformance.CheckReport = {
 *   name: "export: quoted lines on the repair order",
 *   requires: ["writeQuotedParts"],
 *   status: "checked"
 * }
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
 * When the block has run, it prints a summary from vitest's own results: "certified" only if every
 * check passed, otherwise how many passed, failed and were skipped, and why each failed.
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
      const label = check.status === "checked"
        ? check.name
        : `${check.name} [${check.status}: ${check.requires.join(", ")}]`
      it.scoped(label, () => Effect.flatMap(environment, check.run))
    }
    // Counted from what vitest recorded, so a failed, timed-out or filtered-out test counts as such.
    afterAll((suite) => {
      const outcomes = suite.tasks.map((task): CheckOutcome => {
        const state = task.result?.state
        if (state === "pass") return { name: task.name, state: "passed" }
        if (state === "fail") {
          const message = task.result?.errors?.[0]?.message ?? "failed"
          return { name: task.name, state: "failed", error: message.split("\n")[0] }
        }
        return { name: task.name, state: "skipped" }
      })
      console.info(formatSummary(report, options.connector.name, outcomes))
    })
  })
  return report
}
