// The suite must fail adapters that get something wrong: each broken adapter below has one
// mistake, and the check responsible for it must fail (while the reference passes the same check
// in reference.test.ts).
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { makeSuite } from "../src/internal/checks.js"
import type { Connector } from "@shoplink/connector"
import { ReferenceHarness, type ReferenceSms } from "../src/reference.js"
import { brokenConnector, listsNothing, overclaiming } from "./support/broken.js"

const failsCheck = (
  connector: Connector.Connector<never, ReferenceSms.ReferenceSms>,
  checkName: string,
  expectedMessage: RegExp
) =>
  Effect.gen(function*() {
    const suite = makeSuite({ connector, sms: ReferenceHarness.harness })
    const check = suite.checks.find((c) => c.name.startsWith(checkName))
    expect(check, `a check named "${checkName}…"`).toBeDefined()
    expect(check!.status).toBe("checked")
    const exit = yield* Effect.exit(Effect.flatMap(suite.environment, check!.run))
    expect(Exit.isFailure(exit), `${connector.id} fails "${checkName}"`).toBe(true)
    if (Exit.isFailure(exit)) expect(String(exit.cause)).toMatch(expectedMessage)
  })

describe("the suite catches broken adapters", () => {
  it.scoped("writes that are not idempotent: a replayed delivery adds the lines twice", () =>
    failsCheck(brokenConnector("notIdempotent"), "restart:", /deeply equal/))

  it.scoped("the wrong money field: cost written as the list price", () =>
    failsCheck(brokenConnector("costIsList"), "export: quoted lines", /deeply equal/))

  it.scoped("an outage reported as final: dead-lettered instead of retried", () =>
    failsCheck(brokenConnector("allFailuresFinal"), "SMS outage:", /is retried, not dead-lettered/))

  it.scoped("a failure swallowed as success: the lines never arrive", () =>
    failsCheck(brokenConnector("swallowsFailures"), "SMS outage:", /deeply equal/))

  it.scoped("a vehicle identifier lost in mapping: the launch falls back to another one", () =>
    failsCheck(
      brokenConnector("dropsPlate"),
      "launch: the catalog opens for the vehicle by licensePlate",
      /only a licensePlate/
    ))

  it.scoped("the distributor order not recorded", () =>
    failsCheck(
      brokenConnector("ordersWithoutPurchaseOrder"),
      "export and submit: the distributor orderID",
      /orderID|expected/
    ))

  it.scoped("listRepairOrders declared but not implemented", () => failsCheck(listsNothing, "list:", /implements it/))

  it.scoped("capabilities declared but not offered by the service", () =>
    failsCheck(overclaiming, "report:", /capabilities agree/))
})
