// The background worker on a real SQLite inbox, in real time: repair orders applied concurrently
// and each one's deliveries in the order received; a hung shop-system call holds only its own
// repair order and times out as a retryable failure of that entry; a restart mid-apply loses and
// doubles nothing; a database locked by another connection never holds the event loop for long.
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { ShopSystem } from "@shoplink/connector"
import { InboxWorker, WebhookInbox } from "@shoplink/connector-runtime"
import { Duration, Effect, Exit, Fiber, Layer, Logger, LogLevel, Metric, Scope, TestClock } from "effect"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { scratchDatabase, sqlite } from "./fixtures.js"
import { makeSlowSms, quoteDelivery } from "./support/slowSms.js"
import { eventually } from "./support/eventually.js"

const quiet = Logger.withMinimumLogLevel(LogLevel.None)

/** Builds the SQLite inbox (and its client) on `file` in a scope of its own: closing it is a crash. */
const openInbox = (file: string) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(WebhookInbox.layerSql.pipe(Layer.provideMerge(sqlite(file))), scope)
    return {
      context,
      inbox: yield* Effect.provide(WebhookInbox.WebhookInbox, context),
      close: Scope.close(scope, Exit.void)
    }
  })

/** A counter of Effect's metric registry, by name and `kind` label (0 when not yet counted). */
const counter = (name: string, kind: string) =>
  Effect.map(Metric.snapshot, (pairs) => {
    for (const pair of pairs) {
      if (pair.metricKey.name !== name) continue
      if (!pair.metricKey.tags.some((tag) => tag.key === "kind" && tag.value === kind)) continue
      const state = pair.metricState as unknown as { readonly count?: number }
      return Number(state.count ?? 0)
    }
    return 0
  })
const retried = counter("shoplink_deliveries_retried_total", "quote")
const appliedCount = counter("shoplink_deliveries_applied_total", "quote")

/** A gauge of Effect's metric registry, by name. */
const gauge = (name: string) =>
  Effect.map(Metric.snapshot, (pairs) => {
    const pair = pairs.find((p) => p.metricKey.name === name)
    return Number((pair?.metricState as unknown as { readonly value?: number } | undefined)?.value ?? Number.NaN)
  })

describe("InboxWorker.run: concurrency, in order per repair order", () => {
  it.live("applies repair orders concurrently and each repair order's deliveries in the order received", () =>
    Effect.gen(function*() {
      const ROS = 12
      const PER_RO = 15
      const sms = makeSlowSms({ latency: () => 1 + Math.floor(Math.random() * 15) })
      const { close, context, inbox } = yield* openInbox(scratchDatabase())
      const received = new Map<string, Array<string>>()
      const receive = (round: number) =>
        Effect.forEach(Array.from({ length: ROS }, (_, r) => r), (r) =>
          Effect.gen(function*() {
            const delivery = quoteDelivery("shop_1", `ro_${r}`, round)
            yield* inbox.receive(delivery)
            received.set(delivery.repairOrderId, [...(received.get(delivery.repairOrderId) ?? []), delivery.productID])
          }))
      // Half of the deliveries wait in the inbox when the worker starts, the rest arrive while it runs.
      for (let round = 0; round < Math.ceil(PER_RO / 2); round++) yield* receive(round)
      const appliedBefore = yield* appliedCount
      const worker = yield* Effect.fork(
        InboxWorker.run({ concurrency: 8, pollInterval: "20 millis" }).pipe(
          Effect.provide(Layer.merge(Layer.succeedContext(context), sms.layer)),
          quiet
        )
      )
      for (let round = Math.ceil(PER_RO / 2); round < PER_RO; round++) {
        yield* receive(round)
        yield* Effect.sleep(`${Math.floor(Math.random() * 10)} millis`)
      }
      yield* eventually(Effect.map(inbox.backlog, (b) => b.size === 0))
      yield* Fiber.interrupt(worker)
      yield* close

      for (const [ro, productIDs] of received) expect(sms.order.get(ro), ro).toEqual(productIDs)
      expect(sms.stats.writes).toBe(ROS * PER_RO)
      expect(sms.stats.maxInFlightPerRo).toBe(1)
      expect(sms.stats.maxInFlight).toBeGreaterThan(1)
      expect(sms.stats.maxInFlight).toBeLessThanOrEqual(8)
      expect([...sms.added.values()].every((n) => n === 1)).toBe(true)
      expect((yield* appliedCount) - appliedBefore).toBe(ROS * PER_RO)
    }))

  it.scoped("sets the backlog gauges as it works (TestClock)", () =>
    Effect.gen(function*() {
      // Every write fails retryably and is retried an hour later: the entries stay pending.
      const { context, inbox } = yield* openInbox(scratchDatabase())
      const failing = Layer.succeed(ShopSystem.ShopSystem, {
        capabilities: new Set(ShopSystem.ALL_CAPABILITIES),
        loadRepairOrder: ({ repairOrderId }) => Effect.succeed({ id: repairOrderId, number: "1", vehicle: {} }),
        applyQuote: () =>
          Effect.fail(new ShopSystem.ShopSystemError({ operation: "applyQuote", reason: "SMS down", retryable: true })),
        applyOrder: () =>
          Effect.fail(new ShopSystem.ShopSystemError({ operation: "applyOrder", reason: "SMS down", retryable: true }))
      })
      for (const ro of ["ro_1", "ro_2", "ro_3"]) yield* inbox.receive(quoteDelivery("shop_1", ro, 0))
      yield* Effect.forkScoped(
        InboxWorker.run({ concurrency: 2, pollInterval: "1 second", baseDelay: "1 hour", maxDelay: "1 hour" }).pipe(
          Effect.provide(Layer.merge(Layer.succeedContext(context), failing)),
          quiet
        )
      )
      yield* TestClock.adjust("1 second")
      expect(yield* gauge("shoplink_inbox_backlog")).toBe(3)
      yield* TestClock.adjust("10 seconds")
      expect(yield* gauge("shoplink_inbox_backlog")).toBe(3)
      expect(yield* gauge("shoplink_inbox_backlog_oldest_age_seconds")).toBeGreaterThanOrEqual(5)
      expect((yield* inbox.list()).map((e) => [e.status, e.attempts])).toEqual([["pending", 1], ["pending", 1], [
        "pending",
        1
      ]])
    }))

  it.live("a hung call times out as a retryable failure of its entry only; other repair orders are not held up", () =>
    Effect.gen(function*() {
      const sms = makeSlowSms({ latency: () => 20, hangs: (ro, call) => ro === "ro_hung" && call === 0 })
      const { close, context, inbox } = yield* openInbox(scratchDatabase())
      const hung = yield* Effect.forEach([0, 1, 2], (n) => inbox.receive(quoteDelivery("shop_1", "ro_hung", n)))
      for (let n = 0; n < 5; n++) {
        for (let r = 0; r < 5; r++) yield* inbox.receive(quoteDelivery("shop_1", `ro_${r}`, n))
      }
      const retriedBefore = yield* retried
      const started = Date.now()
      const worker = yield* Effect.fork(
        InboxWorker.run({
          concurrency: 4,
          pollInterval: "20 millis",
          operationTimeout: "2 seconds",
          baseDelay: "100 millis"
        }).pipe(
          Effect.provide(Layer.merge(Layer.succeedContext(context), sms.layer)),
          quiet
        )
      )
      // 5 repair orders × 5 writes of 20 ms on the 3 lanes the hung call leaves: well under a second.
      yield* eventually(Effect.map(inbox.list({ status: "applied" }), (applied) => applied.length === 25), 10)
      const othersDone = Date.now() - started
      expect(othersDone).toBeLessThan(1500)
      // Meanwhile the hung repair order's first entry is still in flight and its later ones wait.
      expect(yield* inbox.get(hung[0]!.entry.id)).toMatchObject({ status: "pending", attempts: 0 })
      expect(sms.order.get("ro_hung")).toBeUndefined()

      // After the timeout: a retryable failure of that entry, retried, then everything in order.
      yield* eventually(Effect.map(inbox.get(hung[0]!.entry.id), (e) => e.attempts >= 1), 10)
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900)
      yield* eventually(Effect.map(inbox.backlog, (b) => b.size === 0), 10)
      const first = yield* inbox.get(hung[0]!.entry.id)
      expect(first).toMatchObject({ status: "applied", attempts: 2 })
      expect(sms.order.get("ro_hung")).toEqual(["ro_hung#0", "ro_hung#1", "ro_hung#2"])
      expect((yield* retried) - retriedBefore).toBe(1)
      yield* Fiber.interrupt(worker)
      yield* close
    }))

  it.live("the timeout's failure is recorded on the entry (retryable), and only on that entry", () =>
    Effect.gen(function*() {
      const sms = makeSlowSms({ latency: () => 5, hangs: (ro, call) => ro === "ro_hung" && call === 0 })
      const { close, context, inbox } = yield* openInbox(scratchDatabase())
      const hung = yield* inbox.receive(quoteDelivery("shop_1", "ro_hung", 0))
      const other = yield* inbox.receive(quoteDelivery("shop_1", "ro_other", 0))
      const pass = yield* InboxWorker.processDue({ operationTimeout: "300 millis", baseDelay: "1 minute" }).pipe(
        Effect.provide(Layer.merge(Layer.succeedContext(context), sms.layer)),
        quiet
      )
      expect(pass).toEqual({ applied: 1, retrying: 1, dead: 0 })
      expect(yield* inbox.get(hung.entry.id)).toMatchObject({
        status: "pending",
        attempts: 1,
        lastError: "applyQuote timed out after 300ms"
      })
      expect(yield* inbox.get(other.entry.id)).toMatchObject({ status: "applied", attempts: 1 })
      yield* close
    }))
})

describe("InboxWorker.run across a restart", () => {
  it.live("interrupted with applies in flight and restarted on the same file: every entry applied, no line added twice", () =>
    Effect.gen(function*() {
      const file = scratchDatabase()
      // Lines are written before the latency: an apply cut off then has written but not been marked.
      const sms = makeSlowSms({ latency: () => 10 + Math.floor(Math.random() * 30), writeFirst: true })
      const first = yield* openInbox(file)
      const ids: Array<string> = []
      for (let n = 0; n < 10; n++) {
        for (let r = 0; r < 10; r++) {
          ids.push((yield* first.inbox.receive(quoteDelivery("shop_1", `ro_${r}`, n))).entry.id)
        }
      }
      const worker = yield* Effect.fork(
        InboxWorker.run({ concurrency: 8, pollInterval: "20 millis" }).pipe(
          Effect.provide(Layer.merge(Layer.succeedContext(first.context), sms.layer)),
          quiet
        )
      )
      yield* eventually(Effect.map(first.inbox.list({ status: "applied" }), (applied) => applied.length >= 30))
      const inFlight = sms.stats.inFlight
      // The crash: the worker stops mid-apply and the database is closed under it.
      yield* Fiber.interrupt(worker)
      yield* first.close
      expect(inFlight).toBeGreaterThan(0)
      const writesBefore = sms.stats.writes

      const second = yield* openInbox(file)
      const pending = (yield* second.inbox.list({ status: "pending" })).length
      expect(pending).toBeGreaterThan(0)
      const restarted = yield* Effect.fork(
        InboxWorker.run({ concurrency: 8, pollInterval: "20 millis" }).pipe(
          Effect.provide(Layer.merge(Layer.succeedContext(second.context), sms.layer)),
          quiet
        )
      )
      yield* eventually(Effect.map(second.inbox.backlog, (b) => b.size === 0))
      yield* Fiber.interrupt(restarted)
      const entries = yield* second.inbox.list()
      yield* second.close

      expect(entries.map((e) => e.status)).toEqual(ids.map(() => "applied"))
      // Each delivery's line is in the SMS once; the only writes repeated are those cut off by the crash.
      expect(sms.added.size).toBe(100)
      expect([...sms.added.values()].every((n) => n === 1)).toBe(true)
      expect(sms.stats.writes - writesBefore).toBe(pending)
      expect(sms.stats.writes).toBeLessThanOrEqual(100 + inFlight)
      for (let r = 0; r < 10; r++) {
        const seen = sms.order.get(`ro_${r}`)!
        // In order, a write cut off by the crash possibly repeated once right after itself.
        expect(seen.filter((p, i) => seen[i - 1] !== p)).toEqual(Array.from({ length: 10 }, (_, n) => `ro_${r}#${n}`))
      }
    }))
})

describe("InboxWorker and WebhookInbox on a database another connection has locked", () => {
  it.live("wait for the lock without holding the event loop (short busy timeout, retried on the Effect scheduler)", () =>
    Effect.gen(function*() {
      const file = scratchDatabase()
      const sms = makeSlowSms({ latency: () => 1 })
      const { close, context, inbox } = yield* openInbox(file)
      const before = yield* inbox.receive(quoteDelivery("shop_1", "ro_1", 0))

      // A second connection (another process, say) takes the write lock and keeps it for a second.
      const otherScope = yield* Scope.make()
      const other = yield* Effect.provide(SqlClient.SqlClient, yield* Layer.buildWithScope(sqlite(file), otherScope))
      yield* other.unsafe("BEGIN EXCLUSIVE")

      const delay = monitorEventLoopDelay({ resolution: 10 })
      delay.enable()
      const started = Date.now()
      const receiving = yield* Effect.fork(inbox.receive(quoteDelivery("shop_1", "ro_2", 0)))
      const applying = yield* Effect.fork(
        InboxWorker.processDue().pipe(
          Effect.provide(Layer.merge(Layer.succeedContext(context), sms.layer)),
          quiet
        )
      )
      yield* Effect.sleep("1 second")
      yield* other.unsafe("COMMIT")
      const received = yield* Fiber.join(receiving)
      const pass = yield* Fiber.join(applying)
      const waited = Date.now() - started
      delay.disable()
      yield* Scope.close(otherScope, Exit.void)

      expect(received.duplicate).toBe(false)
      expect(pass.applied).toBeGreaterThanOrEqual(1)
      expect(yield* inbox.get(before.entry.id)).toMatchObject({ status: "applied" })
      // Both waited for the lock (about a second) …
      expect(waited).toBeGreaterThanOrEqual(900)
      // … while the event loop never stalled for long (SQLite's default would hold it the whole second).
      expect(Duration.toMillis(Duration.nanos(BigInt(Math.round(delay.max))))).toBeLessThan(250)
      yield* close
    }))
})
