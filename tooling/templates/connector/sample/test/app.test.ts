// The sample on its embedded default (the distributor sandbox and the fake __title__ in-process, as
// `pnpm --filter __name__-sample start` runs with no configuration): it starts and answers
// /readyz; its pages need a signed-in user; the demo shop's user sees its repair orders and Order
// parts opens the distributor's catalog for the vehicle. As generated they fail, saying what is
// left: the service starts once the adapter declares listRepairOrders, and lists and launches once
// the adapter and the fake's routes are written (`pnpm --filter @shoplink/adapter-__name__ test`).
import { describe, expect, it } from "@effect/vitest"
import * as WebClient from "@shoplink/connector-testkit/WebClient"
import { Effect, Logger, LogLevel } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startApp } from "../src/app.js"
import { loopbackSettings, startEmbedded } from "../src/embedded.js"

const call = <A>(f: () => Promise<A>) => Effect.promise(f)

// The service's logs (the refusals these tests provoke are warnings) stay out of the test output.
const quiet = Logger.withMinimumLogLevel(LogLevel.Error)

const setup = Effect.gen(function*() {
  const embedded = yield* startEmbedded()
  const dir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "__name__-sample-"))),
    (d) => Effect.sync(() => rmSync(d, { recursive: true, force: true }))
  )
  const app = yield* startApp(loopbackSettings(embedded.settings, join(dir, "db.sqlite")), embedded.fake.url).pipe(
    Effect.catchAll((error) => Effect.dieMessage(`the __title__ sample does not start: ${error.message}`))
  )
  return { ...embedded, app }
})

const numbers = (html: string) => [...html.matchAll(/data-testid="repair-order" data-ro="([^"]+)"/g)].map((m) => m[1])

describe("__name__-sample", () => {
  it.live("starts on the embedded default and answers /healthz and /readyz 200", () =>
    quiet(Effect.scoped(Effect.gen(function*() {
      const { app } = yield* setup
      expect((yield* call(() => fetch(`${app.url}/healthz`))).status).toBe(200)
      expect((yield* call(() => fetch(`${app.url}/readyz`))).status).toBe(200)
    }))))

  it.live("its pages need a signed-in user, and every action the page's CSRF token", () =>
    quiet(Effect.scoped(Effect.gen(function*() {
      const { app, repairOrders: [ro], user } = yield* setup
      const anonymous = WebClient.make(app.url)
      const list = yield* call(() => anonymous.get("/"))
      expect(list.status).toBe(303)
      expect(list.location).toBe("/sign-in?next=%2F")
      expect((yield* call(() => anonymous.post(`/ro/${ro!.id}/order-parts`, {}, { csrf: "A".repeat(43) }))).status)
        .toBe(403)
      expect((yield* call(() => anonymous.signIn(user.email, "not-the-password"))).status).toBe(401)
      const ava = WebClient.make(app.url)
      expect((yield* call(() => ava.signIn(user.email, user.password))).status).toBe(303)
      expect((yield* call(() => ava.post(`/ro/${ro!.id}/order-parts`, {}, { csrf: "wrong" }))).status).toBe(403)
    }))))

  it.live("the demo shop's user sees its repair orders; Order parts opens the catalog for the vehicle", () =>
    quiet(Effect.scoped(Effect.gen(function*() {
      const { app, repairOrders, user } = yield* setup
      const ava = yield* call(() => WebClient.signedIn(app.url, user.email, user.password))
      const list = yield* call(() => ava.get("/"))
      expect(list.status, list.text).toBe(200)
      expect(numbers(list.text).sort()).toEqual(repairOrders.map((ro) => ro.number).sort())
      const [withVin] = repairOrders
      const catalog = yield* call(() => ava.orderParts(withVin!.id))
      expect(catalog.searchParams.get("vin")).toBe(withVin!.vehicle.vin)
      expect(catalog.searchParams.get("referenceID")).toBe(withVin!.number)
    }))))
})
