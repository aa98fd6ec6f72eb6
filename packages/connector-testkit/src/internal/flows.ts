// What a person does in the ordering pages (through the sandbox's test driver), and what the SMS
// should hold afterwards, computed from the webhook the sandbox really sent.
import { Money } from "@shoplink/connector"
import { type InboxWorker, type PunchoutLauncher, type WebhookInbox } from "@shoplink/connector-runtime"
import { Punchout } from "@shoplink/protocol"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { makeSandboxAdminClient, type RunningSandbox, SANDBOX_FIXTURES, type WebhookDelivery } from "@shoplink/sandbox"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import type { SmsLine } from "../ConformanceHarness.js"
import type { ConformanceRuntime } from "../ConformanceRuntime.js"

/** A failure of the conformance flow itself, with a message meant for the adapter author. */
export class FlowError extends Error {
  override readonly name = "ConformanceFlowError"
}

const fail = (message: string) => Effect.die(new FlowError(message))

export const tokenOf = (url: Redacted.Redacted<string>): string =>
  new URL(Redacted.value(url)).searchParams.get("token") ?? ""

export const fetchText = (url: string, init?: RequestInit) =>
  Effect.promise(async () => {
    const response = await fetch(url, init)
    return { status: response.status, text: await response.text() }
  })

/** What the sandbox holds about a session (its catalog page's vehicle and reference), through its typed admin API. */
export const sandboxSession = (sandbox: RunningSandbox, token: string) =>
  makeSandboxAdminClient({ url: sandbox.url }).pipe(
    Effect.flatMap((admin) => admin.session({ path: { token } })),
    Effect.provide(FetchHttpClient.layer),
    Effect.orDie
  )

export const postJson = (url: string, body: string, contentType = "application/json") =>
  fetchText(url, { method: "POST", headers: { "content-type": contentType }, body })

export type ExportKind = "quote" | "order"

export interface Exported {
  readonly delivery: WebhookDelivery
  readonly expected: ReadonlyArray<SmsLine>
  /** For an order: the distributor's order and status from the webhook. */
  readonly order: { readonly orderID: string; readonly status: string } | undefined
  readonly redirect: string | undefined
}

/** The lines an SMS must hold after this webhook, from its own body, in cents. */
export const expectedLines = (event: ExportKind, body: unknown): Effect.Effect<Pick<Exported, "expected" | "order">> =>
  event === "quote"
    ? Effect.map(Schema.decodeUnknown(Punchout.QuoteWebhook)(body).pipe(Effect.orDie), (quote) => ({
      order: undefined,
      expected: quote.quotes.map((q): SmsLine => ({
        kind: "quoted",
        productID: q.productID,
        brandID: q.brandID,
        description: q.productDesc,
        quantity: q.quantityReq,
        costCents: Money.toCents(q.price),
        listCents: Money.toCents(q.listPrice),
        coreCents: Money.toCents(q.corePrice)
      }))
    }))
    : Effect.map(Schema.decodeUnknown(Punchout.OrderWebhook)(body).pipe(Effect.orDie), ({ order }) => ({
      order: { orderID: order.orderID, status: order.status },
      expected: order.orderLines.map((l): SmsLine => ({
        kind: "ordered",
        productID: l.productID,
        brandID: l.brandID,
        description: l.productDesc,
        quantity: l.quantity,
        costCents: Money.toCents(l.price),
        listCents: Money.toCents(l.listPrice),
        coreCents: Money.toCents(l.corePrice)
      }))
    }))

/**
 * One worker pass, with the TestClock moving while it runs: an adapter whose client backs off
 * (Effect.sleep, Schedule) inside a write would otherwise wait forever on the TestClock. Between
 * steps the event loop runs once, so the pass's I/O proceeds.
 */
export const drain = (runtime: ConformanceRuntime): Effect.Effect<InboxWorker.PassResult, WebhookInbox.InboxError> =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(runtime.drain)
    for (let step = 0; step < 2_000 && Option.isNone(yield* Fiber.poll(fiber)); step++) {
      yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
      yield* TestClock.adjust("100 millis")
    }
    return yield* Fiber.join(fiber)
  })

/**
 * "applyQuote failed: not implemented: …": the adapter operation and what it answered, without the
 * operation twice when the adapter's own error already starts with it.
 */
export const operationFailure = (operation: string, error: string): string =>
  `${operation} failed: ${error.startsWith(`${operation}: `) ? error.slice(operation.length + 2) : error}`

/** Why the worker could not apply an entry, in the adapter's words. */
export const entryFailure = (entry: WebhookInbox.InboxEntry): string =>
  operationFailure(entry.kind === "quote" ? "applyQuote" : "applyOrder", entry.lastError ?? "no error recorded")

/**
 * One worker pass that must apply `expected` deliveries and fail none; otherwise the check fails
 * naming the adapter operation and its error, not only the pass's counts.
 */
export const drainApplied = (
  runtime: ConformanceRuntime,
  expected = 1
): Effect.Effect<InboxWorker.PassResult, WebhookInbox.InboxError> =>
  Effect.gen(function*() {
    const pass = yield* drain(runtime)
    if (pass.applied === expected && pass.retrying === 0 && pass.dead === 0) return pass
    const failures = (yield* runtime.inbox.list()).filter((e) => e.status !== "applied" && e.lastError !== undefined)
      .map(entryFailure)
    return yield* fail(
      failures.length > 0
        ? failures.join("; ")
        : `the worker applied ${pass.applied} of ${expected} deliveries (${pass.retrying} retrying, ${pass.dead} dead)`
    )
  })

/** Launches the catalog; a failure names the adapter operation ("loadRepairOrder failed: …"). */
export const launchOrFail = (
  runtime: ConformanceRuntime,
  repairOrderId: string
): Effect.Effect<PunchoutLauncher.Launched> =>
  runtime.launch(repairOrderId).pipe(
    Effect.catchAll((error) =>
      fail(
        error._tag === "ShopSystemError" || error._tag === "RepairOrderNotFound"
          ? operationFailure("loadRepairOrder", error.message)
          : `launching the catalog for repair order ${repairOrderId} failed: ${error.message}`
      )
    )
  )

/** Lines in a stable order, for comparing as multisets. */
export const sorted = (lines: ReadonlyArray<SmsLine>): ReadonlyArray<SmsLine> =>
  [...lines]
    // Only the fields the suite compares: a harness may return more.
    .map(({ brandID, coreCents, costCents, description, kind, listCents, productID, quantity }) => ({
      kind,
      productID,
      brandID,
      description,
      quantity,
      costCents,
      listCents,
      coreCents
    }))
    .sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)

/**
 * Launches the catalog for a repair order, puts two oil filters and one part with a core charge
 * (a starter motor) in the cart, presses Export ("quote") or Export and Submit ("order"), and
 * waits for the webhook's first attempt.
 */
export const exportParts = (
  sandbox: RunningSandbox,
  runtime: ConformanceRuntime,
  repairOrderId: string,
  kind: ExportKind
): Effect.Effect<Exported> =>
  Effect.gen(function*() {
    const launched = yield* launchOrFail(runtime, repairOrderId)
    const token = tokenOf(launched.url)
    const driver = sandbox.admin.driver
    const orDie = Effect.mapError((error: { readonly message: string }) =>
      new FlowError(`sandbox driver: ${error.message}`)
    )
    yield* driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 2 }).pipe(orDie, Effect.orDie)
    // The sandbox searches only with a vehicle: reuse the one the launch chose.
    const launchParams = new URL(Redacted.value(launched.url)).searchParams
    const vehicle = Object.fromEntries(
      ["vin", "licensePlate", "licensePlateState", "baseVehicleID"].flatMap((k) => {
        const v = launchParams.get(k)
        return v === null ? [] : [[k, v] as const]
      })
    )
    let withCore: { readonly productID: string; readonly brandID: string } | undefined
    for (const searchTerm of ["starter motor", "alternator", "battery"]) {
      const { results } = yield* driver.search(token, { ...vehicle, searchTerm }).pipe(orDie, Effect.orDie)
      withCore = results.find((r) => r.price !== undefined && r.available > 0)
      if (withCore !== undefined) break
    }
    if (withCore === undefined) {
      return yield* fail("the sandbox has no stocked part with a core charge for this vehicle")
    }
    yield* driver.addToCart(token, { productID: withCore.productID, brandID: withCore.brandID, quantity: 1 }).pipe(
      orDie,
      Effect.orDie
    )
    const before = (yield* sandbox.admin.deliveries()).length
    const pressed = yield* driver.press(token, kind === "quote" ? "export" : "exportAndSubmit").pipe(
      orDie,
      Effect.orDie
    )
    const all = yield* sandbox.admin.awaitDeliveries(before + 1)
    const delivery = all.slice(before).find((d) => d.event === kind)
    if (delivery === undefined) {
      return yield* fail(`pressing ${kind === "quote" ? "Export" : "Export and Submit"} sent no ${kind} webhook`)
    }
    if (!delivery.ok) {
      return yield* fail(
        `the runtime's receiver did not accept the ${kind} webhook (HTTP ${delivery.status ?? delivery.error})`
      )
    }
    const expected = yield* expectedLines(kind, delivery.body)
    return { delivery, ...expected, redirect: pressed.redirect }
  })
