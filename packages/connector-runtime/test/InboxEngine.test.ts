// The inbox engine's promises, each against the breakage it fixes (issue #24): one entry's write
// never runs twice inside one worker; an adapter's throw, die or interruption is that entry's
// failed attempt and the worker keeps running; wake-ups come back after the LISTEN connection is
// killed; a worker whose clock is 30 s ahead neither takes over a live lease nor applies a retry
// early. Real PostgreSQL and SQLite, real time.
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { ShopSystem } from "@shoplink/connector"
import { InboxWorker, OrderVerifier, WebhookInbox } from "@shoplink/connector-runtime"
import { Clock, Context, Deferred, Duration, Effect, Exit, Fiber, Layer, Logger, LogLevel, Metric, Scope } from "effect"
import { performance } from "node:perf_hooks"
import { pgOn, postgres, scratchDatabase, sqlite, TestDatabaseUrl } from "./fixtures.js"
import { eventually } from "./support/eventually.js"
import { quoteDelivery } from "./support/slowSms.js"

const quiet = Logger.withMinimumLogLevel(LogLevel.None)

/** A process: an inbox on the test database through a PgClient of its own. */
const openPg = (options: WebhookInbox.SqlOptions = {}, logger?: Layer.Layer<never>) =>
  Effect.gen(function*() {
    const url = yield* TestDatabaseUrl
    const scope = yield* Scope.make()
    const layer = WebhookInbox.layerSqlWith(options).pipe(Layer.provideMerge(pgOn(url)))
    const context = yield* Layer.buildWithScope(logger === undefined ? layer : Layer.provide(layer, logger), scope)
    return { context, inbox: Context.get(context, WebhookInbox.WebhookInbox), close: Scope.close(scope, Exit.void) }
  })

/**
 * A no-op shop system counting calls per entry (by its one line's productID, unique per delivery),
 * with a hook to make a call misbehave.
 */
const countingSms = (
  misbehave: (write: ShopSystem.QuoteWrite, call: number) => Effect.Effect<void> = () => Effect.void
) => {
  const calls = new Map<string, number>()
  const times: Array<number> = []
  const write = (w: ShopSystem.QuoteWrite) =>
    Effect.suspend(() => {
      const key = w.lines[0]?.productID ?? ""
      const call = calls.get(key) ?? 0
      calls.set(key, call + 1)
      times.push(performance.now())
      return Effect.as(misbehave(w, call), { added: w.lines.length, alreadyPresent: 0 })
    })
  const layer = Layer.succeed(ShopSystem.ShopSystem, {
    capabilities: new Set(ShopSystem.ALL_CAPABILITIES),
    loadRepairOrder: ({ repairOrderId }) => Effect.succeed({ id: repairOrderId, number: repairOrderId, vehicle: {} }),
    applyQuote: write,
    applyOrder: () => Effect.succeed({ added: 0, alreadyPresent: 0 })
  })
  return { layer, calls, times }
}

const counter = (name: string) =>
  Effect.map(Metric.snapshot, (pairs) => {
    let total = 0
    for (const pair of pairs) {
      if (pair.metricKey.name === name && pair.metricState !== undefined && "count" in pair.metricState) {
        total += Number((pair.metricState as { readonly count: number | bigint }).count)
      }
    }
    return total
  })

/** A Clock `offset` ahead of the real one (sleeps are real). */
const skewed = (offset: Duration.DurationInput): Clock.Clock => {
  const real = Clock.make()
  const millis = Duration.toMillis(Duration.decode(offset))
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => real.unsafeCurrentTimeMillis() + millis,
    currentTimeMillis: Effect.sync(() => real.unsafeCurrentTimeMillis() + millis),
    unsafeCurrentTimeNanos: () => real.unsafeCurrentTimeNanos() + BigInt(millis) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => real.unsafeCurrentTimeNanos() + BigInt(millis) * 1_000_000n),
    sleep: (duration) => real.sleep(duration)
  }
}

const ENTRIES = 1_500
const ROS = 150

// At concurrency 10 over many entries, every entry's write runs exactly once in the one worker.
const noDoubleApply = (inbox: WebhookInbox.Operations, context: Context.Context<WebhookInbox.WebhookInbox>) =>
  Effect.gen(function*() {
    const sms = countingSms()
    for (let n = 0; n < ENTRIES / ROS; n++) {
      yield* Effect.forEach(
        Array.from({ length: ROS }, (_, r) => r),
        (r) => inbox.receive(quoteDelivery("shop_1", `ro_${r}`, n)),
        {
          concurrency: 10,
          discard: true
        }
      )
    }
    const worker = yield* Effect.fork(
      InboxWorker.run({ concurrency: 10, pollInterval: "20 millis" }).pipe(
        Effect.provide(Layer.merge(Layer.succeedContext(context), sms.layer)),
        quiet
      )
    )
    yield* eventually(Effect.map(inbox.backlog, (b) => b.size === 0), 120)
    yield* Fiber.interrupt(worker)
    expect(sms.calls.size).toBe(ENTRIES)
    const twice = [...sms.calls].filter(([, n]) => n !== 1)
    expect(twice).toEqual([])
    const entries = yield* inbox.list()
    expect(entries.filter((e) => e.status !== "applied" || e.attempts !== 1)).toEqual([])
  })

describe("InboxWorker.run: each entry applied once in one process (concurrency 10)", () => {
  it.live("PostgreSQL", () =>
    Effect.gen(function*() {
      const process = yield* openPg()
      yield* noDoubleApply(process.inbox, process.context)
      yield* process.close
    }).pipe(Effect.provide(postgres())), 180_000)

  it.live("SQLite", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(WebhookInbox.layerSql.pipe(Layer.provide(sqlite(scratchDatabase()))))
      yield* noDoubleApply(Context.get(context, WebhookInbox.WebhookInbox), context)
    }).pipe(Effect.scoped), 180_000)

  it.live("memory", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(WebhookInbox.layerMemory)
      yield* noDoubleApply(Context.get(context, WebhookInbox.WebhookInbox), context)
    }).pipe(Effect.scoped), 180_000)
})

describe("InboxWorker.run: an adapter's defect is that entry's failed attempt, never the worker's end", () => {
  for (
    const [name, misbehave] of [
      ["a throw", () =>
        Effect.sync(() => {
          throw new TypeError("Cannot read properties of undefined (reading 'lines')")
        })],
      ["a die", () => Effect.die(new Error("adapter bug"))],
      ["an interruption", () => Effect.interrupt]
    ] as const
  ) {
    it.live(`${name} in one repair order's write: the others flow, it is retried with its cause recorded, then applied`, () =>
      Effect.gen(function*() {
        const context = yield* Layer.build(WebhookInbox.layerMemory)
        const inbox = Context.get(context, WebhookInbox.WebhookInbox)
        // ro_bad's first two calls misbehave; then it recovers.
        const sms = countingSms((w, call) => w.repairOrderId === "ro_bad" && call < 2 ? misbehave() : Effect.void)
        const defectsBefore = yield* counter("shoplink_inbox_apply_defects_total")
        const bad = (yield* inbox.receive(quoteDelivery("shop_1", "ro_bad", 0))).entry
        const worker = yield* Effect.fork(
          InboxWorker.run({ concurrency: 4, pollInterval: "20 millis", baseDelay: "50 millis", maxDelay: "100 millis" })
            .pipe(
              Effect.provide(Layer.merge(Layer.succeedContext(context), sms.layer)),
              quiet
            )
        )
        yield* eventually(Effect.map(inbox.get(bad.id), (e) => e.attempts >= 1))
        const failed = yield* inbox.get(bad.id)
        expect(failed.lastError).toMatch(name === "an interruption" ? /interrupted/ : /adapter defect/)
        // Meanwhile, and after, the other repair orders flow through the same worker.
        for (let r = 0; r < 20; r++) yield* inbox.receive(quoteDelivery("shop_1", `ro_${r}`, 0))
        yield* eventually(Effect.map(inbox.backlog, (b) => b.size === 0))
        expect(yield* Fiber.poll(worker)).toMatchObject({ _tag: "None" })
        expect(yield* inbox.get(bad.id)).toMatchObject({ status: "applied", attempts: 3 })
        expect(sms.calls.get("ro_bad#0")).toBe(3)
        expect(yield* counter("shoplink_inbox_apply_defects_total")).toBe(defectsBefore + 2)
        yield* Fiber.interrupt(worker)
      }).pipe(Effect.scoped))
  }

  it.live("a defect on every attempt dead-letters the entry after maxAttempts, with its cause", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(WebhookInbox.layerMemory)
      const inbox = Context.get(context, WebhookInbox.WebhookInbox)
      const sms = countingSms((w) => w.repairOrderId === "ro_bad" ? Effect.die(new Error("always")) : Effect.void)
      const bad = (yield* inbox.receive(quoteDelivery("shop_1", "ro_bad", 0))).entry
      const worker = yield* Effect.fork(
        InboxWorker.run({
          concurrency: 2,
          pollInterval: "20 millis",
          baseDelay: "10 millis",
          maxDelay: "20 millis",
          maxAttempts: 3
        }).pipe(
          Effect.provide(Layer.merge(Layer.succeedContext(context), sms.layer)),
          quiet
        )
      )
      yield* eventually(Effect.map(inbox.get(bad.id), (e) => e.status === "dead"))
      expect(yield* inbox.get(bad.id)).toMatchObject({
        status: "dead",
        attempts: 3,
        lastError: "adapter defect: Error: always"
      })
      const ok = (yield* inbox.receive(quoteDelivery("shop_1", "ro_ok", 0))).entry
      yield* eventually(Effect.map(inbox.get(ok.id), (e) => e.status === "applied"))
      yield* Fiber.interrupt(worker)
    }).pipe(Effect.scoped))
})

describe("InboxWorker.run on PostgreSQL: faults", () => {
  it.live(
    "after pg_terminate_backend of the LISTEN connection: a log line, the metric, and a new entry applied at once (poll 10 s)",
    () =>
      Effect.gen(function*() {
        const logs: Array<string> = []
        const capture = Logger.replace(
          Logger.defaultLogger,
          Logger.make(({ logLevel, message }) => {
            logs.push(`${logLevel.label} ${String(message)}`)
          })
        )
        const worker = yield* openPg({}, capture)
        const receiver = yield* openPg()
        const sms = countingSms()
        const lostBefore = yield* counter("shoplink_inbox_listen_lost_total")
        const recoveredBefore = yield* counter("shoplink_inbox_listen_recovered_total")
        const fiber = yield* Effect.fork(
          InboxWorker.run({ concurrency: 2, pollInterval: "10 seconds" }).pipe(
            Effect.provide(Layer.merge(Layer.succeedContext(worker.context), sms.layer)),
            quiet
          )
        )
        yield* eventually(worker.inbox.wakeupsListening!, 5)
        yield* Effect.sleep("300 millis")
        // Kill the LISTEN backend from another connection.
        const killed = yield* Context.get(receiver.context, SqlClient.SqlClient)<
          { readonly pid: number }
        >`SELECT pg_terminate_backend(pid), pid
        FROM pg_stat_activity WHERE application_name = 'shoplink-inbox-listen' AND datname = current_database()`.pipe(
          Effect.map((rows) => rows.length)
        )
        expect(killed).toBe(1)
        const killedAt = performance.now()
        yield* eventually(Effect.sync(() => logs.some((l) => l.startsWith("WARN inbox wake-ups (LISTEN) lost"))), 5)
        yield* eventually(
          Effect.sync(() => logs.some((l) => l.startsWith("INFO inbox wake-ups (LISTEN) recovered"))),
          5
        )
        expect(performance.now() - killedAt).toBeLessThan(5_000)
        expect(yield* counter("shoplink_inbox_listen_lost_total")).toBe(lostBefore + 1)
        expect(yield* counter("shoplink_inbox_listen_recovered_total")).toBe(recoveredBefore + 1)
        // Woken by the receiver's NOTIFY over the new connection, well before the 10 s poll.
        yield* Effect.sleep("300 millis")
        yield* receiver.inbox.receive(quoteDelivery("shop_1", "ro_1", 0))
        const committed = performance.now()
        yield* eventually(Effect.sync(() => sms.times.length > 0), 5)
        expect(sms.times[0]! - committed).toBeLessThan(1_000)
        yield* Fiber.interrupt(fiber)
        yield* worker.close
        yield* receiver.close
      }).pipe(Effect.provide(postgres())),
    60_000
  )

  it.live(
    "a mark that cannot reach the database (a killed connection, a restart) is tried again: the entry is applied once",
    () =>
      Effect.gen(function*() {
        const worker = yield* openPg({ lease: "5 seconds" })
        const other = yield* openPg({ lease: "5 seconds" })
        // The first two marks fail as a dropped connection does; the database never saw them.
        let failures = 0
        const flaky: WebhookInbox.Operations = {
          ...worker.inbox,
          markApplied: (id) =>
            Effect.suspend(() => {
              if (failures >= 2) return worker.inbox.markApplied(id)
              failures++
              return Effect.fail(new WebhookInbox.InboxError({ reason: "Connection terminated unexpectedly" }))
            })
        }
        const sms = countingSms()
        const fiber = yield* Effect.fork(
          InboxWorker.run({ concurrency: 2, pollInterval: "50 millis" }).pipe(
            Effect.provide(
              Layer.merge(
                Layer.succeedContext(Context.add(worker.context, WebhookInbox.WebhookInbox, flaky)),
                sms.layer
              )
            ),
            quiet
          )
        )
        const entry = (yield* other.inbox.receive(quoteDelivery("shop_1", "ro_1", 0))).entry
        yield* eventually(Effect.map(other.inbox.get(entry.id), (e) => e.status === "applied"), 20)
        // Another worker, running past the lease, finds nothing to apply again.
        const second = countingSms()
        const rival = yield* Effect.fork(
          InboxWorker.run({ concurrency: 2, pollInterval: "50 millis" }).pipe(
            Effect.provide(Layer.merge(Layer.succeedContext(other.context), second.layer)),
            quiet
          )
        )
        yield* Effect.sleep("6 seconds")
        expect(failures).toBe(2)
        expect([...sms.calls.values()]).toEqual([1])
        expect(second.calls.size).toBe(0)
        expect(yield* other.inbox.get(entry.id)).toMatchObject({ status: "applied", attempts: 1 })
        yield* Fiber.interrupt(rival)
        yield* Fiber.interrupt(fiber)
        yield* worker.close
        yield* other.close
      }).pipe(Effect.provide(postgres())),
    60_000
  )

  it.live(
    "a worker whose Effect Clock is 30 s ahead takes over no live lease and applies no retry early; it applies what is due",
    () =>
      Effect.gen(function*() {
        const holder = yield* openPg({ lease: "5 seconds" })
        const skewedProcess = yield* openPg({ lease: "5 seconds" })
        const held = (yield* holder.inbox.receive(quoteDelivery("shop_1", "ro_held", 0))).entry
        const retrying = (yield* holder.inbox.receive(quoteDelivery("shop_1", "ro_retry", 0))).entry
        const claimed = yield* holder.inbox.claim(10)
        expect(claimed.map((e) => e.id).sort()).toEqual([held.id, retrying.id].sort())
        yield* holder.inbox.markFailed(retrying.id, { error: "SMS answered 503", retryIn: "10 seconds" })
        const sms = countingSms()
        const fiber = yield* Effect.fork(
          InboxWorker.run({ concurrency: 4, pollInterval: "50 millis" }).pipe(
            Effect.provide(Layer.merge(Layer.succeedContext(skewedProcess.context), sms.layer)),
            Effect.withClock(skewed("30 seconds")),
            quiet
          )
        )
        const fresh = (yield* holder.inbox.receive(quoteDelivery("shop_1", "ro_fresh", 0))).entry
        yield* eventually(Effect.map(holder.inbox.get(fresh.id), (e) => e.status === "applied"), 10)
        yield* Effect.sleep("1500 millis")
        expect(sms.calls.has("ro_held#0")).toBe(false)
        expect(sms.calls.has("ro_retry#0")).toBe(false)
        expect(yield* holder.inbox.get(held.id)).toMatchObject({ status: "pending", attempts: 0 })
        expect(yield* holder.inbox.get(retrying.id)).toMatchObject({ status: "pending", attempts: 1 })
        expect(yield* holder.inbox.markApplied(held.id)).toBe(true)
        yield* Fiber.interrupt(fiber)
        yield* holder.close
        yield* skewedProcess.close
      }).pipe(Effect.provide(postgres())),
    60_000
  )

  it.live(
    "a worker frozen past its lease writes nothing when it wakes: the entry is applied once, by the worker that took it over",
    () =>
      Effect.gen(function*() {
        const frozen = yield* openPg({ lease: "1 second" })
        const other = yield* openPg({ lease: "1 second" })
        // The frozen process: its heartbeats go unanswered (as a stopped process's do) while its
        // order verification, the step before the write, takes two and a half leases.
        const unanswered: WebhookInbox.Operations = {
          ...frozen.inbox,
          heartbeat: () => Effect.fail(new WebhookInbox.InboxError({ reason: "Connection terminated unexpectedly" }))
        }
        const verifying = yield* Deferred.make<void>()
        const woke = yield* Deferred.make<void>()
        const verifier = Layer.succeed(OrderVerifier.OrderVerifier, {
          mode: "enforce",
          verify: () =>
            Deferred.succeed(verifying, undefined).pipe(
              Effect.zipRight(Effect.sleep("2500 millis")),
              Effect.zipRight(Deferred.succeed(woke, undefined)),
              Effect.as({ _tag: "Verified" as const })
            )
        })
        const orderSms = () => {
          const writes: Array<string> = []
          const layer = Layer.succeed(ShopSystem.ShopSystem, {
            capabilities: new Set(ShopSystem.ALL_CAPABILITIES),
            loadRepairOrder: ({ repairOrderId }) =>
              Effect.succeed({ id: repairOrderId, number: repairOrderId, vehicle: {} }),
            applyQuote: () => Effect.succeed({ added: 0, alreadyPresent: 0 }),
            applyOrder: (w) =>
              Effect.sync(() => writes.push(w.repairOrderId)).pipe(
                Effect.as({ added: w.lines.length, alreadyPresent: 0 })
              )
          })
          return { writes, layer }
        }
        const a = orderSms()
        const b = orderSms()
        const fencedBefore = yield* counter("shoplink_inbox_writes_fenced_total")
        const entry = (yield* other.inbox.receive({
          kind: "order",
          contentKey: "order:shop_1:ro_frozen:10423",
          shopId: "shop_1",
          repairOrderId: "ro_frozen",
          body: JSON.stringify({
            referenceID: "ro_frozen",
            order: {
              orderID: "10423",
              orderCreateTime: 1763769600000,
              comment: "",
              status: 3,
              statusDescription: "Order submitted",
              orderLines: [{
                acaPartTerminologyID: 5340,
                productID: "51515",
                brandID: "WIX",
                categoryID: "FLT",
                productDesc: "Oil Filter",
                dispatchTime: 1763773200000,
                quantity: 2,
                price: 6.49,
                listPrice: 9.99,
                corePrice: 0,
                weight: 0.8,
                quality: "",
                requestedProductId: "",
                status: "3",
                statusDescription: "Order submitted"
              }]
            }
          })
        })).entry
        const first = yield* Effect.fork(
          InboxWorker.run({ concurrency: 1, pollInterval: "50 millis", heartbeatInterval: "200 millis" }).pipe(
            Effect.provide(
              Layer.mergeAll(
                Layer.succeedContext(Context.add(frozen.context, WebhookInbox.WebhookInbox, unanswered)),
                a.layer,
                verifier
              )
            ),
            quiet
          )
        )
        yield* Deferred.await(verifying)
        // The other worker claims it once the lease has run out, and applies it.
        const second = yield* Effect.fork(
          InboxWorker.run({ concurrency: 1, pollInterval: "50 millis", heartbeatInterval: "200 millis" }).pipe(
            Effect.provide(Layer.merge(Layer.succeedContext(other.context), b.layer)),
            quiet
          )
        )
        yield* eventually(Effect.map(other.inbox.get(entry.id), (e) => e.status === "applied"), 10)
        // The frozen worker wakes with the order verified, after its lease ran out: it writes nothing.
        yield* Deferred.await(woke)
        yield* Effect.sleep("500 millis")
        expect(b.writes).toEqual(["ro_frozen"])
        expect(a.writes).toEqual([])
        // At least once: on a busy machine the frozen worker may claim it again (its lease handed
        // back) and be fenced a second time before the other worker's apply.
        expect(yield* counter("shoplink_inbox_writes_fenced_total")).toBeGreaterThanOrEqual(fencedBefore + 1)
        expect(yield* other.inbox.get(entry.id)).toMatchObject({ status: "applied", attempts: 1 })
        yield* Fiber.interrupt(first)
        yield* Fiber.interrupt(second)
        yield* frozen.close
        yield* other.close
      }).pipe(Effect.provide(postgres())),
    60_000
  )

  it.live(
    "a heartbeat keeps a slow apply (three leases long) from being taken over by another worker",
    () =>
      Effect.gen(function*() {
        const one = yield* openPg({ lease: "1 second" })
        const two = yield* openPg({ lease: "1 second" })
        const slow = countingSms((w) => w.repairOrderId === "ro_slow" ? Effect.sleep("3 seconds") : Effect.void)
        const other = countingSms()
        const entry = (yield* one.inbox.receive(quoteDelivery("shop_1", "ro_slow", 0))).entry
        const first = yield* Effect.fork(
          InboxWorker.run({ concurrency: 2, pollInterval: "50 millis", heartbeatInterval: "200 millis" }).pipe(
            Effect.provide(Layer.merge(Layer.succeedContext(one.context), slow.layer)),
            quiet
          )
        )
        yield* eventually(Effect.sync(() => slow.calls.get("ro_slow#0") === 1), 5)
        const second = yield* Effect.fork(
          InboxWorker.run({ concurrency: 2, pollInterval: "50 millis", heartbeatInterval: "200 millis" }).pipe(
            Effect.provide(Layer.merge(Layer.succeedContext(two.context), other.layer)),
            quiet
          )
        )
        yield* eventually(Effect.map(one.inbox.get(entry.id), (e) => e.status === "applied"), 10)
        expect(other.calls.size).toBe(0)
        expect(slow.calls.get("ro_slow#0")).toBe(1)
        expect(yield* one.inbox.get(entry.id)).toMatchObject({ attempts: 1 })
        yield* Fiber.interrupt(first)
        yield* Fiber.interrupt(second)
        yield* one.close
        yield* two.close
      }).pipe(Effect.provide(postgres())),
    60_000
  )
})
