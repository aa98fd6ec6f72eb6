// The checks of the conformance suite as data: a name, what it requires, whether it runs as a
// certification or as an "absent" assertion, and the Effect that performs it. Conformance.ts
// registers them with vitest; the test-kit's own tests run single checks against broken adapters.
import { expect } from "@effect/vitest"
import { ShopSystem } from "@shoplink/connector"
import { type ConnectorRuntime, type InboxWorker, LaunchRegistry, SecretBox } from "@shoplink/connector-runtime"
import { startSandbox } from "@shoplink/sandbox"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import * as TestClock from "effect/TestClock"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { CheckStatus, ConformanceReport, Options } from "../Conformance.js"
import {
  SEED_REPAIR_ORDERS,
  type SmsHarness,
  type SmsLine,
  VEHICLE_IDENTIFIERS,
  type VehicleIdentifier
} from "../ConformanceHarness.js"
import * as ConformanceRuntime from "../ConformanceRuntime.js"
import {
  drain,
  drainApplied,
  entryFailure,
  type ExportKind,
  exportParts,
  fetchText,
  launchOrFail,
  postJson,
  sandboxSession,
  sorted
} from "./flows.js"

export interface Env {
  readonly sandbox: Effect.Effect.Success<ReturnType<typeof startSandbox>>
  readonly harness: SmsHarness<unknown>
  /** The connector's layer on the harness's; the runtime provides the rest (SmsCredentials, …). */
  readonly shopSystem: Layer.Layer<ShopSystem.ShopSystem, unknown, ConnectorRuntime.ProvidedToAdapter>
  readonly shopId: string
  /** The repair order the export checks use. */
  readonly repairOrderId: string
  /**
   * A runtime with the shop onboarded (sandbox credentials, the harness's `smsSecrets`). Every
   * runtime of one environment seals with the same key, so one built again on the same SQLite
   * file is a restart.
   */
  readonly runtime: (
    storage?: ConformanceRuntime.Options<unknown, never>["storage"]
  ) => Effect.Effect<ConformanceRuntime.ConformanceRuntime, unknown, Scope.Scope>
}

export interface Check {
  readonly name: string
  readonly requires: ReadonlyArray<string>
  readonly status: CheckStatus
  readonly run: (env: Env) => Effect.Effect<void, unknown, Scope.Scope>
}

const identifierText = (identifier: VehicleIdentifier, vehicle: ShopSystem.Vehicle): string =>
  identifier === "vin"
    ? `VIN ${vehicle.vin}`
    : identifier === "licensePlate"
    ? `License plate ${vehicle.licensePlate} (${vehicle.licensePlateState})`
    : `Base vehicle ID ${vehicle.baseVehicleId}`

const unescapeHtml = (s: string) =>
  s.replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")

export interface Suite {
  readonly report: ConformanceReport
  /** Every check, the report check last. */
  readonly checks: ReadonlyArray<Check>
  /** A fresh sandbox, fake SMS and adapter layer, for one check. */
  readonly environment: Effect.Effect<Env, unknown, Scope.Scope>
}

export const makeSuite = <E, R>(options: Options<E, R>): Suite => {
  const { connector } = options
  const shopId = options.shopId ?? "shop_1"
  const declared = connector.capabilities
  const certified = new Set([...declared].filter((c) => options.capabilities?.includes(c) ?? true))
  const identifiers = new Set(options.vehicleIdentifiers ?? VEHICLE_IDENTIFIERS)
  const statusOf = (capability: ShopSystem.Capability): CheckStatus =>
    certified.has(capability) ? "checked" : declared.has(capability) ? "excluded" : "absent"
  // Checks about writes use order webhooks when the SMS takes ordered parts, quotes otherwise.
  const writeKind: ExportKind | undefined = certified.has("writeOrderedParts")
    ? "order"
    : certified.has("writeQuotedParts")
    ? "quote"
    : undefined
  const writeStatus: CheckStatus = writeKind !== undefined
    ? "checked"
    : declared.has("writeOrderedParts") || declared.has("writeQuotedParts")
    ? "excluded"
    : "absent"
  const primaryIdentifier = VEHICLE_IDENTIFIERS.find((i) => identifiers.has(i)) ?? "vin"

  const environment: Effect.Effect<Env, unknown, Scope.Scope> = Effect.gen(function*() {
    const sandbox = yield* startSandbox()
    const harness = yield* options.sms.setup({ shopId, repairOrders: SEED_REPAIR_ORDERS })
    // What the harness leaves out (SmsCredentials) the runtime provides from its shop store.
    const shopSystem = connector.layer.pipe(Layer.provide(harness.layer)) as Layer.Layer<
      ShopSystem.ShopSystem,
      unknown,
      ConnectorRuntime.ProvidedToAdapter
    >
    const secretKeys = Redacted.make(SecretBox.generateKey("conformance"))
    return {
      sandbox,
      harness: harness as SmsHarness<unknown>,
      shopSystem,
      shopId,
      repairOrderId: harness.repairOrders[primaryIdentifier],
      runtime: (storage = "memory") =>
        ConformanceRuntime.make({
          sandbox,
          shopSystem,
          shopId,
          storage,
          secretKeys,
          ...(harness.smsSecrets === undefined ? {} : { smsSecrets: harness.smsSecrets })
        })
    }
  })

  // Declared but excluded by options: the test documents the exclusion and checks it is real.
  const excluded = (requires: ReadonlyArray<string>) => (_env: Env) =>
    Effect.sync(() => {
      const left = requires.flatMap((r) => r.split(" or ")).filter((c) =>
        declared.has(c as ShopSystem.Capability) && !certified.has(c as ShopSystem.Capability)
      )
      expect(left, `${requires.join(", ")}: declared by the connector and left out by options`).not.toEqual([])
    })

  const lacks = (capability: ShopSystem.Capability) => (env: Env) =>
    Effect.gen(function*() {
      const sms = (yield* env.runtime()).shopSystem
      expect(sms.capabilities.has(capability), `the ShopSystem service does not offer ${capability}`).toBe(false)
    })

  const checks: Array<Check> = []
  const add = (name: string, requires: ReadonlyArray<string>, status: CheckStatus, runs: {
    readonly checked: Check["run"]
    readonly absent: Check["run"]
  }) =>
    checks.push({
      name,
      requires,
      status,
      run: status === "checked" ? runs.checked : status === "absent" ? runs.absent : excluded(requires)
    })

  // --- Launch: one check per vehicle identifier --------------------------------------------------
  for (const seed of SEED_REPAIR_ORDERS) {
    const identifier = seed.identifier
    const status: CheckStatus = statusOf("readRepairOrder") !== "checked"
      ? statusOf("readRepairOrder")
      : identifiers.has(identifier)
      ? "checked"
      : "absent"
    add(`launch: the catalog opens for the vehicle by ${identifier}`, ["readRepairOrder", identifier], status, {
      checked: (env) =>
        Effect.gen(function*() {
          const runtime = yield* env.runtime()
          const launched = yield* launchOrFail(runtime, env.harness.repairOrders[identifier])
          expect(launched.vehicle, `repair order ${seed.number} has only a ${identifier}`).toBe(identifier)
          expect(launched.repairOrder.number).toBe(seed.number)
          expect(String(launched.url)).not.toContain("token=")
          const catalogUrl = Redacted.value(launched.url)
          const page = yield* fetchText(catalogUrl)
          expect(page.status).toBe(200)
          // What the page shows, read from the sandbox's admin API rather than its HTML.
          const session = yield* sandboxSession(env.sandbox, new URL(catalogUrl).searchParams.get("token") ?? "")
          expect(session.vehicle?.description).toContain(
            `${seed.vehicle.year} ${seed.vehicle.make} ${seed.vehicle.model}`
          )
          expect(session.vehicle?.identifier).toContain(identifierText(identifier, seed.vehicle))
          expect(session.pageReferenceID).toBe(seed.number)
        }),
      absent: (env) =>
        Effect.gen(function*() {
          const runtime = yield* env.runtime()
          const outcome = yield* Effect.either(runtime.launch(env.harness.repairOrders[identifier]))
          if (Either.isLeft(outcome)) {
            // An SMS whose repair orders need a vehicle identifier it can hold may refuse one without,
            // as a ShopSystemError that is not retryable and reads as one line (before any distributor call).
            const error = outcome.left
            expect(error._tag, `launching a repair order without a ${identifier} failed with: ${error.message}`).toBe(
              "ShopSystemError"
            )
            expect(error._tag === "ShopSystemError" && error.retryable, "the refusal is not retryable").toBe(false)
            expect(error.message, "the refusal is one line").not.toContain("\n")
            return
          }
          expect(outcome.right.vehicle, `the adapter declares no ${identifier} support`).not.toBe(identifier)
        })
    })
  }

  add(
    "launch: an unknown repair order fails with RepairOrderNotFound",
    ["readRepairOrder"],
    statusOf("readRepairOrder"),
    {
      checked: (env) =>
        Effect.gen(function*() {
          const runtime = yield* env.runtime()
          const error = yield* Effect.flip(runtime.launch("shoplink-conformance-no-such-ro"))
          expect(error._tag, `loadRepairOrder of a missing repair order failed with: ${error.message}`).toBe(
            "RepairOrderNotFound"
          )
        }),
      absent: lacks("readRepairOrder")
    }
  )

  // --- The repair-order list (what a service's pages show) ---------------------------------------
  add(
    "list: the shop's open repair orders, newest first, at most limit; another shop sees none of them",
    ["listRepairOrders"],
    statusOf("listRepairOrders"),
    {
      checked: (env) =>
        Effect.gen(function*() {
          const sms = (yield* env.runtime()).shopSystem
          expect(typeof sms.listRepairOrders, "the connector declares listRepairOrders: its ShopSystem implements it")
            .toBe("function")
          const list = sms.listRepairOrders!
          const seeded = Object.values(env.harness.repairOrders)
          const all = yield* list({ shopId: env.shopId, limit: 100 })
          const ids = all.map((ro) => ro.id)
          expect(seeded.filter((id) => !ids.includes(id)), "every seeded repair order is listed").toEqual([])
          expect(new Set(ids).size, "no repair order twice").toBe(ids.length)
          for (const seed of SEED_REPAIR_ORDERS) {
            const listed = all.find((ro) => ro.id === env.harness.repairOrders[seed.identifier])
            expect(listed?.number, `repair order ${seed.number} is listed with its number`).toBe(seed.number)
          }
          // Newest first: a shorter list is the start of the longer one.
          const two = yield* list({ shopId: env.shopId, limit: 2 })
          expect(two.map((ro) => ro.id), "limit 2 lists the first two of the full list").toEqual(ids.slice(0, 2))
          expect(yield* list({ shopId: env.shopId, limit: 0 }), "limit 0 lists nothing").toEqual([])
          // A shop that is not onboarded has no SMS account: it fails, or lists none of this shop's.
          const other = yield* Effect.either(list({ shopId: `${env.shopId}-other`, limit: 100 }))
          if (Either.isRight(other)) {
            expect(
              other.right.map((ro) => ro.id).filter((id) => seeded.includes(id)),
              "another shop lists none of this shop's"
            ).toEqual([])
          }
        }),
      absent: lacks("listRepairOrders")
    }
  )

  // --- Repair-order webhooks (a closed or deleted repair order seen at once) ---------------------
  add(
    "repair-order events: a delivery decodes to the repair order it names, junk fails in one line, subscribing twice is harmless",
    ["receiveRepairOrderEvents"],
    statusOf("receiveRepairOrderEvents"),
    {
      checked: (env) =>
        Effect.gen(function*() {
          const sms = (yield* env.runtime()).shopSystem
          const events = sms.repairOrderEvents
          expect(events, "the connector declares receiveRepairOrderEvents: its ShopSystem has repairOrderEvents")
            .toBeDefined()
          const body = env.harness.repairOrderEventBody
          expect(body, "the harness gives repairOrderEventBody(repairOrderId, action), the body the SMS posts")
            .toBeDefined()
          const id = env.repairOrderId
          for (const action of ["updated", "deleted"] as const) {
            const decoded = yield* events!.decode({ shopId: env.shopId, body: body!(id, action) })
            expect(decoded.map((e) => e.repairOrderId), `a ${action} delivery names the repair order`).toContain(id)
            if (action === "deleted") expect(decoded.find((e) => e.repairOrderId === id)?.action).toBe("deleted")
          }
          const junk = yield* Effect.flip(events!.decode({ shopId: env.shopId, body: "not the SMS's body" }))
          expect(junk._tag, "a body that is not the SMS's fails").toBe("ShopSystemError")
          expect(junk.retryable, "a body that is not the SMS's is not retryable").toBe(false)
          expect(junk.message.includes("\n"), "one line").toBe(false)
          const url = "https://shoplink.example/shoplink/sms-webhooks/conformance"
          yield* events!.subscribe({ shopId: env.shopId, url })
          yield* events!.subscribe({ shopId: env.shopId, url })
        }),
      absent: lacks("receiveRepairOrderEvents")
    }
  )

  // --- Export and Export and Submit --------------------------------------------------------------
  add(
    "export: quoted lines on the repair order (part, brand, description, quantity, cost, list, core)",
    ["writeQuotedParts"],
    statusOf("writeQuotedParts"),
    {
      checked: (env) =>
        Effect.gen(function*() {
          const runtime = yield* env.runtime()
          const exported = yield* exportParts(env.sandbox, runtime, env.repairOrderId, "quote")
          expect(exported.expected.some((l) => l.coreCents > 0), "the export includes a part with a core charge").toBe(
            true
          )
          yield* drainApplied(runtime)
          const lines = yield* env.harness.readLines(env.repairOrderId)
          expect(sorted(lines)).toEqual(sorted(exported.expected))
        }),
      absent: (env) =>
        Effect.gen(function*() {
          yield* lacks("writeQuotedParts")(env)
          const runtime = yield* env.runtime()
          yield* exportParts(env.sandbox, runtime, env.repairOrderId, "quote")
          yield* drainApplied(runtime)
          expect(yield* env.harness.readLines(env.repairOrderId)).toEqual([])
        })
    }
  )

  add("export and submit: ordered lines on the repair order", ["writeOrderedParts"], statusOf("writeOrderedParts"), {
    checked: (env) =>
      Effect.gen(function*() {
        const runtime = yield* env.runtime()
        const exported = yield* exportParts(env.sandbox, runtime, env.repairOrderId, "order")
        yield* drainApplied(runtime)
        const lines = yield* env.harness.readLines(env.repairOrderId)
        expect(sorted(lines.filter((l) => l.kind === "ordered"))).toEqual(sorted(exported.expected))
      }),
    absent: (env) =>
      Effect.gen(function*() {
        yield* lacks("writeOrderedParts")(env)
        const runtime = yield* env.runtime()
        yield* exportParts(env.sandbox, runtime, env.repairOrderId, "order")
        yield* drain(runtime)
        expect((yield* env.harness.readLines(env.repairOrderId)).filter((l) => l.kind === "ordered")).toEqual([])
      })
  })

  add(
    "export and submit: the distributor orderID on the repair order",
    ["recordPurchaseOrder"],
    statusOf("recordPurchaseOrder"),
    {
      checked: (env) =>
        Effect.gen(function*() {
          const runtime = yield* env.runtime()
          const exported = yield* exportParts(env.sandbox, runtime, env.repairOrderId, "order")
          yield* drainApplied(runtime)
          const order = yield* env.harness.readOrder(env.repairOrderId)
          expect(order?.orderID).toBe(exported.order?.orderID)
          expect(order?.status ?? "").not.toBe("")
        }),
      absent: (env) =>
        Effect.gen(function*() {
          yield* lacks("recordPurchaseOrder")(env)
          const runtime = yield* env.runtime()
          yield* exportParts(env.sandbox, runtime, env.repairOrderId, "order")
          yield* drain(runtime)
          expect(yield* env.harness.readOrder(env.repairOrderId)).toBeUndefined()
        })
    }
  )

  add(
    "callback: the page after an export links back to the repair order",
    ["linkToRepairOrder"],
    statusOf("linkToRepairOrder"),
    {
      checked: (env) =>
        Effect.gen(function*() {
          const runtime = yield* env.runtime()
          const ro = yield* runtime.shopSystem.loadRepairOrder({ shopId: env.shopId, repairOrderId: env.repairOrderId })
          expect(ro.url, "loadRepairOrder returns the repair order's URL").toMatch(/^https?:\/\//)
          const exported = yield* exportParts(env.sandbox, runtime, env.repairOrderId, "quote")
          const page = yield* fetchText(exported.redirect ?? "")
          expect(page.status).toBe(200)
          const href = /data-testid="repair-order-link" href="([^"]*)"/.exec(page.text)?.[1]
          expect(href === undefined ? undefined : unescapeHtml(href)).toBe(ro.url)
        }),
      absent: (env) =>
        Effect.gen(function*() {
          yield* lacks("linkToRepairOrder")(env)
          const runtime = yield* env.runtime()
          const exported = yield* exportParts(env.sandbox, runtime, env.repairOrderId, "quote")
          const page = yield* fetchText(exported.redirect ?? "")
          expect(page.text).not.toContain("data-testid=\"repair-order-link\"")
        })
    }
  )

  // --- The runtime's fallback for SMSs that cannot take part lines (the parts ledger) -------------
  const ledgerLines = (runtime: ConformanceRuntime.ConformanceRuntime, repairOrderId: string, kind: ExportKind) =>
    Effect.map(
      runtime.runtime.parts.list({ shopId: runtime.shopId, repairOrderId }),
      (lines) =>
        lines.filter((l) => l.kind === kind).map((l): SmsLine => ({
          kind: l.kind === "quote" ? "quoted" : "ordered",
          productID: l.productID,
          brandID: l.brandID,
          description: l.description,
          quantity: l.quantity,
          costCents: l.costCents,
          listCents: l.listCents,
          coreCents: l.coreCents
        }))
    )
  for (const kind of ["quote", "order"] as const) {
    const capability: ShopSystem.Capability = kind === "quote" ? "writeQuotedParts" : "writeOrderedParts"
    const what = kind === "quote" ? "quoted" : "ordered"
    const takes = certified.has(capability) || declared.has(capability)
    const name = takes
      ? `fallback: not used for ${what} parts — they go to the SMS (${capability}), the runtime keeps none`
      : `fallback: ${what} parts the SMS cannot take (no ${capability}) are kept by the runtime, shown on the callback page and the parts page, once`
    add(name, [], "checked", {
      checked: (env) =>
        Effect.gen(function*() {
          const runtime = yield* env.runtime()
          const exported = yield* exportParts(env.sandbox, runtime, env.repairOrderId, kind)
          yield* drainApplied(runtime)
          if (takes) {
            expect(
              yield* ledgerLines(runtime, env.repairOrderId, kind),
              `the SMS takes ${what} parts: the ledger stays empty`
            ).toEqual([])
            return
          }
          expect(
            sorted(yield* ledgerLines(runtime, env.repairOrderId, kind)),
            `the ${what} lines are in the runtime's parts ledger`
          ).toEqual(
            sorted(exported.expected)
          )
          expect((yield* env.harness.readLines(env.repairOrderId)).filter((l) => l.kind === what), "and not in the SMS")
            .toEqual([])
          // Applied again (a replay, a re-claimed lease): each line kept once.
          const [entry] = yield* runtime.inbox.list()
          yield* runtime.inbox.replay(entry!.id)
          yield* drainApplied(runtime)
          expect(sorted(yield* ledgerLines(runtime, env.repairOrderId, kind)), "a second apply keeps no line twice")
            .toEqual(
              sorted(exported.expected)
            )
          // The callback page lists them; the parts page (vendor API key) and its CSV too.
          const page = yield* fetchText(exported.redirect ?? "")
          expect(page.text, "the callback page says the parts are kept").toContain(`${what} and kept with RO`)
          expect((page.text.match(/data-testid="parts-row"/g) ?? []).length).toBe(exported.expected.length)
          const { key } = yield* runtime.runtime.apiKeys.create("conformance")
          const query = new URLSearchParams({ shop: runtime.shopId, ro: env.repairOrderId }).toString()
          const headers = { authorization: `Bearer ${Redacted.value(key)}` }
          expect(
            (yield* fetchText(`${runtime.publicBaseUrl}/shoplink/parts?${query}`)).status,
            "the parts page needs credentials"
          ).toBe(403)
          const parts = yield* fetchText(`${runtime.publicBaseUrl}/shoplink/parts?${query}`, { headers })
          expect(parts.status).toBe(200)
          expect((parts.text.match(/data-testid="parts-row"/g) ?? []).length).toBe(exported.expected.length)
          const csv = yield* fetchText(`${runtime.publicBaseUrl}/shoplink/parts.csv?${query}`, { headers })
          expect(csv.text.trim().split("\r\n"), "the CSV: a header and one row per line").toHaveLength(
            exported.expected.length + 1
          )
          if (kind === "order" && certified.has("recordPurchaseOrder")) {
            expect((yield* env.harness.readOrder(env.repairOrderId))?.orderID, "the order is still recorded in the SMS")
              .toBe(
                exported.order?.orderID
              )
          }
        }),
      absent: () => Effect.void
    })
  }

  // --- Delivery guarantees ------------------------------------------------------------------------
  const noWrites = (what: string) => (env: Env) =>
    Effect.gen(function*() {
      const runtime = yield* env.runtime()
      yield* exportParts(env.sandbox, runtime, env.repairOrderId, "order")
      yield* drain(runtime)
      expect(yield* env.harness.readLines(env.repairOrderId), `no write capability: ${what}`).toEqual([])
    })
  const writeRequires = ["writeOrderedParts or writeQuotedParts"]

  add("webhooks: the same delivery twice is stored and applied once", writeRequires, writeStatus, {
    checked: (env) =>
      Effect.gen(function*() {
        const runtime = yield* env.runtime()
        const exported = yield* exportParts(env.sandbox, runtime, env.repairOrderId, writeKind!)
        const again = yield* postJson(exported.delivery.url, JSON.stringify(exported.delivery.body))
        expect(again.status).toBe(200)
        expect(JSON.parse(again.text)).toEqual({ received: true, duplicate: true })
        yield* drainApplied(runtime)
        yield* drain(runtime)
        expect(yield* runtime.inbox.list()).toHaveLength(1)
        expect(sorted(yield* env.harness.readLines(env.repairOrderId))).toEqual(sorted(exported.expected))
      }),
    absent: noWrites("nothing is written")
  })

  // On PostgreSQL a worker that dies after writing but before marking the entry applied loses its
  // lease, and another worker applies the entry again: the adapter's idempotent writes make that safe.
  add("webhooks: a delivery applied again (as a re-claimed entry is) adds no line twice", writeRequires, writeStatus, {
    checked: (env) =>
      Effect.gen(function*() {
        const runtime = yield* env.runtime()
        const exported = yield* exportParts(env.sandbox, runtime, env.repairOrderId, writeKind!)
        yield* drainApplied(runtime)
        const [entry] = yield* runtime.inbox.list()
        expect(entry?.status).toBe("applied")
        yield* runtime.inbox.replay(entry!.id)
        yield* drainApplied(runtime)
        expect((yield* runtime.inbox.get(entry!.id)).status, "the second apply succeeds").toBe("applied")
        expect(sorted(yield* env.harness.readLines(env.repairOrderId)), "the same lines, none twice").toEqual(
          sorted(exported.expected)
        )
      }),
    absent: noWrites("nothing is written")
  })

  add("webhooks: a malformed body or an unknown key is rejected and nothing is written", [], "checked", {
    checked: (env) =>
      Effect.gen(function*() {
        const runtime = yield* env.runtime()
        const exported = yield* exportParts(env.sandbox, runtime, env.repairOrderId, "quote")
        const quoteUrl = exported.delivery.url
        const orderUrl = quoteUrl.replace(/\/quote$/, "/order")
        const body = JSON.stringify(exported.delivery.body)
        expect((yield* postJson(quoteUrl, "{\"quotes\":[{\"productID\":7}]}")).status).toBe(400)
        expect((yield* postJson(orderUrl, body)).status, "a quote body on the order webhook").toBe(400)
        expect((yield* postJson(quoteUrl, "quotes=1", "application/x-www-form-urlencoded")).status).toBe(400)
        const unknown = `${runtime.publicBaseUrl}/shoplink/webhooks/${LaunchRegistry.newKey()}/quote`
        expect((yield* postJson(unknown, body)).status).toBe(404)
        // Only the genuine delivery is in the inbox, and nothing reached the SMS before the worker ran.
        expect(yield* runtime.inbox.list()).toHaveLength(1)
        for (const id of Object.values(env.harness.repairOrders)) {
          expect(yield* env.harness.readLines(id)).toEqual([])
        }
      }),
    absent: () => Effect.void
  })

  add("SMS outage: a write that fails twice (retryable) then recovers is applied once", writeRequires, writeStatus, {
    checked: (env) =>
      Effect.gen(function*() {
        const runtime = yield* env.runtime()
        const exported = yield* exportParts(env.sandbox, runtime, env.repairOrderId, writeKind!)
        yield* env.harness.failNextWrites(2, true)
        // The worker retries with backoff (its client may retry too): at most a few passes.
        const passes: Array<InboxWorker.PassResult> = []
        for (let i = 0; i < 5 && passes.every((p) => p.applied === 0); i++) {
          if (i > 0) yield* TestClock.adjust("1 minute")
          const pass = yield* drain(runtime)
          passes.push(pass)
          const [entry] = pass.dead === 0 ? [] : yield* runtime.inbox.list({ status: "dead" })
          expect(
            pass.dead,
            `an outage (retryable ShopSystemError) is retried, not dead-lettered${
              entry === undefined ? "" : ` (${entryFailure(entry)})`
            }`
          ).toBe(0)
        }
        const [entry] = yield* runtime.inbox.list()
        expect(
          entry?.status,
          `applied once the SMS recovers (passes: ${JSON.stringify(passes)}${
            entry?.lastError === undefined ? "" : `; ${entryFailure(entry)}`
          })`
        ).toBe("applied")
        const written = (yield* env.harness.readLines(env.repairOrderId)).filter((l) =>
          l.kind === exported.expected[0]?.kind
        )
        expect(sorted(written)).toEqual(sorted(exported.expected))
      }),
    absent: noWrites("nothing is written")
  })

  add(
    "SMS refusal: a write that fails for good is dead-lettered, and replay applies it once",
    writeRequires,
    writeStatus,
    {
      checked: (env) =>
        Effect.gen(function*() {
          const runtime = yield* env.runtime()
          const exported = yield* exportParts(env.sandbox, runtime, env.repairOrderId, writeKind!)
          yield* env.harness.failNextWrites(1, false)
          expect(yield* drain(runtime), "a non-retryable ShopSystemError dead-letters").toMatchObject({
            applied: 0,
            dead: 1
          })
          const [dead] = yield* runtime.inbox.list({ status: "dead" })
          expect(dead?.lastError ?? "").not.toBe("")
          yield* runtime.inbox.replay(dead!.id)
          yield* drainApplied(runtime)
          const written = (yield* env.harness.readLines(env.repairOrderId)).filter((l) =>
            l.kind === exported.expected[0]?.kind
          )
          expect(sorted(written)).toEqual(sorted(exported.expected))
        }),
      absent: noWrites("nothing is written")
    }
  )

  add("restart: a delivery received before a restart is applied once after it", writeRequires, writeStatus, {
    checked: (env) =>
      Effect.gen(function*() {
        const dir = mkdtempSync(join(tmpdir(), "shoplink-conformance-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
        const storage = { sqlite: join(dir, "runtime.sqlite") }

        // First process: receive, then stop before the worker runs.
        const exported = yield* Effect.scoped(
          Effect.gen(function*() {
            const runtime = yield* env.runtime(storage)
            const exported = yield* exportParts(env.sandbox, runtime, env.repairOrderId, writeKind!)
            expect(yield* runtime.inbox.list({ status: "pending" })).toHaveLength(1)
            return exported
          })
        )
        expect(yield* env.harness.readLines(env.repairOrderId), "nothing applied before the restart").toEqual([])

        // Second process on the same database.
        const runtime = yield* env.runtime(storage)
        yield* drainApplied(runtime)
        // The sender retries against the new process: same key, same content → a duplicate.
        const path = new URL(exported.delivery.url).pathname
        const again = yield* postJson(`${runtime.publicBaseUrl}${path}`, JSON.stringify(exported.delivery.body))
        expect(JSON.parse(again.text)).toEqual({ received: true, duplicate: true })
        // A crash after the write but before markApplied means the entry runs again: still once.
        const [entry] = yield* runtime.inbox.list()
        yield* runtime.inbox.replay(entry!.id)
        yield* drainApplied(runtime)
        expect(sorted(yield* env.harness.readLines(env.repairOrderId))).toEqual(sorted(exported.expected))
      }),
    absent: noWrites("nothing is written")
  })

  const report: ConformanceReport = {
    connector: connector.id,
    contractVersion: connector.contractVersion,
    checks: checks.map(({ name, requires, status }) => ({ name, requires, status }))
  }

  checks.push({
    name: "report: declared capabilities match the ShopSystem service; turned-off checks listed",
    requires: [],
    status: "checked",
    run: (env) =>
      Effect.gen(function*() {
        const sms = (yield* env.runtime()).shopSystem
        expect([...sms.capabilities].sort(), "connector.capabilities and the service's capabilities agree").toEqual(
          [...declared].sort()
        )
        for (const check of report.checks.filter((c) => c.status !== "checked")) {
          const missing = check.requires.filter((r) =>
            (ShopSystem.ALL_CAPABILITIES as ReadonlyArray<string>).includes(r)
              ? !certified.has(r as ShopSystem.Capability)
              : r.includes(" or ")
              ? writeKind === undefined
              : !identifiers.has(r as VehicleIdentifier)
          )
          expect(missing, `"${check.name}" is off only for a capability not certified`).not.toEqual([])
        }
      })
  })

  return { report, checks, environment }
}

/** How one registered test of the suite ended, as vitest recorded it. */
export interface CheckOutcome {
  readonly name: string
  readonly state: "passed" | "failed" | "skipped"
  /** The first line of the first error, for a failed check. */
  readonly error?: string | undefined
}

/**
 * The report printed after the suite: counts from what really ran (passed, failed, skipped),
 * "certified" only when every check ran and passed, each failure with its first error line, and
 * the checks turned off by missing or excluded capabilities, and the runtime's fallback checks.
 */
export const formatSummary = (
  report: ConformanceReport,
  connectorName: string,
  outcomes: ReadonlyArray<CheckOutcome>
): string => {
  const count = (state: CheckOutcome["state"]) => outcomes.filter((o) => o.state === state).length
  const [passed, failed, skipped] = [count("passed"), count("failed"), count("skipped")]
  const verdict = failed === 0 && skipped === 0 && passed > 0 ? "certified" : "NOT certified"
  const off = report.checks.filter((c) => c.status !== "checked")
  return [
    `${connectorName} (${report.connector}), contract v${report.contractVersion}: ${verdict}`,
    `  ${passed} of ${outcomes.length} checks passed, ${failed} failed, ${skipped} skipped`,
    ...outcomes.filter((o) => o.state === "failed").map((o) => `  ✗ ${o.name}: ${o.error ?? "failed"}`),
    ...outcomes.filter((o) => o.state === "skipped").map((o) => `  - skipped: ${o.name}`),
    ...off.map((c) => `  - ${c.status}: ${c.name} (needs ${c.requires.join(", ")})`),
    // The runtime's fallback for what the SMS cannot take: certified like any other check.
    ...report.checks.filter((c) => c.status === "checked" && c.name.startsWith("fallback:")).map((c) =>
      `  + checked: ${c.name}`
    )
  ].join("\n")
}
