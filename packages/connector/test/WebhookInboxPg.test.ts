// The PostgreSQL inbox shared by several processes: each process is an inbox layer with a
// PgClient of its own on one database. `due` claims entries under a lease, so two processes never
// hold one entry, a repair order's later entries wait while its oldest is leased by anyone, and an
// entry whose holder went quiet is claimed again once the lease runs out. (The contract every inbox
// meets, PostgreSQL included, is in WebhookInbox.test.ts.)
import { describe, expect, it } from "@effect/vitest"
import { WebhookInbox } from "@shoplink/connector"
import { Context, Effect, Exit, Layer, Logger, Scope, Stream, TestClock } from "effect"
import { pgOn, postgres, TestDatabaseUrl } from "./fixtures.js"

const delivery = (repairOrderId: string, n: number): WebhookInbox.Delivery => ({
  kind: "quote",
  contentKey: `quote:shop_1:${repairOrderId}:${n}`,
  shopId: "shop_1",
  repairOrderId,
  body: JSON.stringify({ referenceID: repairOrderId, n })
})

/** Another process on the test database: an inbox layer with its own PgClient, closed with `close`. */
const openProcess = (options: WebhookInbox.SqlOptions = {}) =>
  Effect.gen(function*() {
    const url = yield* TestDatabaseUrl
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(WebhookInbox.layerSqlWith(options).pipe(Layer.provide(pgOn(url))), scope)
    return { inbox: Context.get(context, WebhookInbox.WebhookInbox), close: Scope.close(scope, Exit.void) }
  })

/** Runs `body` with the two processes, on a fresh database dropped afterwards. */
const withTwo = <A, E>(
  body: (a: WebhookInbox.Operations, b: WebhookInbox.Operations, closeA: Effect.Effect<void>) => Effect.Effect<A, E>,
  options: WebhookInbox.SqlOptions = {}
) =>
  Effect.gen(function*() {
    const a = yield* openProcess(options)
    const b = yield* openProcess(options)
    return yield* body(a.inbox, b.inbox, a.close).pipe(Effect.ensuring(Effect.zip(a.close, b.close)))
  }).pipe(Effect.provide(postgres()))

/** Waits (real time) until `check` holds, dying after 5 seconds. */
const eventually = (check: () => boolean) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 5_000
    while (!check()) {
      if (Date.now() > deadline) return yield* Effect.dieMessage("condition not met within 5 s")
      yield* Effect.sleep("10 millis")
    }
  })

const ids = (entries: ReadonlyArray<WebhookInbox.InboxEntry>) => entries.map((e) => e.id)

describe("WebhookInbox.layerSql on PostgreSQL, two processes", () => {
  it.effect("claiming concurrently in a loop, they never get the same entry and together claim every entry once, each repair order in order", () =>
    withTwo((a, b) =>
      Effect.gen(function*() {
        const ROS = 40
        const PER_RO = 5
        const received: Array<WebhookInbox.InboxEntry> = []
        for (let n = 0; n < PER_RO; n++) {
          for (let r = 0; r < ROS; r++) received.push((yield* (r % 2 === 0 ? a : b).receive(delivery(`ro_${r}`, n))).entry)
        }
        // Every claim in the order it was made; a claimer applies what it got before asking again.
        const claims: Array<{ readonly by: string; readonly entry: WebhookInbox.InboxEntry }> = []
        const claimer = (by: string, box: WebhookInbox.Operations) =>
          Effect.gen(function*() {
            while (true) {
              const got = yield* box.due(7)
              if (got.length === 0) {
                if ((yield* box.backlog).size === 0) return
                yield* Effect.yieldNow()
                continue
              }
              for (const entry of got) claims.push({ by, entry })
              yield* Effect.forEach(got, (entry) => box.markApplied(entry.id), { concurrency: "unbounded", discard: true })
            }
          })
        yield* Effect.all([claimer("a", a), claimer("b", b)], { concurrency: "unbounded", discard: true })

        const claimed = claims.map((c) => c.entry.id)
        expect(new Set(claimed).size).toBe(claimed.length)
        expect([...claimed].sort()).toEqual(ids(received).sort())
        expect(claims.some((c) => c.by === "a")).toBe(true)
        expect(claims.some((c) => c.by === "b")).toBe(true)
        for (let r = 0; r < ROS; r++) {
          const ro = `ro_${r}`
          expect(claims.filter((c) => c.entry.repairOrderId === ro).map((c) => c.entry.id), ro)
            .toEqual(received.filter((e) => e.repairOrderId === ro).map((e) => e.id))
        }
        // Every mark counted (each was made by the lease holder): applied once, leases released.
        const entries = yield* a.list()
        expect(entries.every((e) => e.status === "applied" && e.attempts === 1)).toBe(true)
        expect(yield* b.due(10)).toEqual([])
      })))

  it.effect("a repair order's later entry cannot be claimed while its oldest is leased; once that is applied, it can", () =>
    withTwo((a, b) =>
      Effect.gen(function*() {
        const e1 = (yield* a.receive(delivery("ro_1", 1))).entry
        const e2 = (yield* b.receive(delivery("ro_1", 2))).entry
        const other = (yield* b.receive(delivery("ro_2", 1))).entry
        // A delivery stored by one process is a duplicate for the other.
        const again = yield* b.receive(delivery("ro_1", 1))
        expect(again).toMatchObject({ duplicate: true, entry: { id: e1.id } })

        expect(ids(yield* a.due(10))).toEqual([e1.id, other.id])
        // Everything is A's: e1 and the other repair order's head leased, e2 behind e1.
        expect(yield* b.due(10)).toEqual([])
        // A asks again: its own claims come back.
        expect(ids(yield* a.due(10))).toEqual([e1.id, other.id])

        // Waiting for a retry keeps the line held, leased or not.
        yield* a.markFailed(e1.id, { error: "SMS answered 503", retryAt: 60_000 })
        expect(yield* b.due(10)).toEqual([])
        yield* TestClock.adjust("1 minute")
        expect(ids(yield* b.due(10))).toEqual([e1.id])
        yield* b.markApplied(e1.id)
        expect(ids(yield* b.due(10))).toEqual([e2.id])
        expect(ids(yield* a.due(10))).toEqual([other.id])
        yield* b.markApplied(e2.id)
        yield* a.markApplied(other.id)
        expect((yield* a.list()).map((e) => [e.id, e.status, e.attempts])).toEqual([
          [e1.id, "applied", 2],
          [e2.id, "applied", 1],
          [other.id, "applied", 1]
        ])
      })))

  it.effect("an entry whose holder went quiet is claimed by the other once the lease runs out; the old holder's marks are then no-ops", () =>
    withTwo((a, b) =>
      Effect.gen(function*() {
        const entry = (yield* a.receive(delivery("ro_1", 1))).entry
        const later = (yield* a.receive(delivery("ro_1", 2))).entry
        expect(ids(yield* a.due(10))).toEqual([entry.id])
        // A stops here (hung, or killed without closing): B waits out the lease.
        yield* TestClock.adjust("499 millis")
        expect(yield* b.due(10)).toEqual([])
        yield* TestClock.adjust("1 millis")
        expect(ids(yield* b.due(10))).toEqual([entry.id])
        // A comes back and reports: too late, B holds the entry now.
        const logs: Array<string> = []
        const capture = Logger.add(Logger.make(({ logLevel, message }) => logs.push(`${logLevel.label} ${String(message)}`)))
        yield* a.markApplied(entry.id).pipe(Effect.provide(capture))
        yield* a.markFailed(entry.id, { error: "late", retryAt: undefined }).pipe(Effect.provide(capture))
        expect(logs).toHaveLength(2)
        expect(logs.every((line) => line.startsWith("WARN inbox entry not marked"))).toBe(true)
        expect(yield* a.get(entry.id)).toMatchObject({ status: "pending", attempts: 0, lastError: undefined })
        // Nor can A take the repair order's next entry meanwhile.
        expect(yield* a.due(10)).toEqual([])
        yield* b.markApplied(entry.id)
        expect(yield* a.get(entry.id)).toMatchObject({ status: "applied", attempts: 1 })
        expect(ids(yield* a.due(10))).toEqual([later.id])
      }), { lease: "500 millis" }))

  it.effect("a process that closes its inbox hands its claims back at once", () =>
    withTwo((a, b, closeA) =>
      Effect.gen(function*() {
        const entry = (yield* a.receive(delivery("ro_1", 1))).entry
        expect(ids(yield* a.due(10))).toEqual([entry.id])
        expect(yield* b.due(10)).toEqual([])
        yield* closeA
        expect(ids(yield* b.due(10))).toEqual([entry.id])
      })))

  it.live("wakeups: a receive that stored a new entry, or a replay, in either process wakes the listeners; a duplicate does not", () =>
    withTwo((a, b) =>
      Effect.gen(function*() {
        let woken = 0
        expect(a.wakeups).toBeDefined()
        yield* Effect.forkScoped(Stream.runForEach(a.wakeups!, () => Effect.sync(() => woken++)))
        yield* Effect.sleep("500 millis")
        const { entry } = yield* b.receive(delivery("ro_1", 1))
        yield* eventually(() => woken === 1)
        yield* b.receive(delivery("ro_1", 1))
        yield* Effect.sleep("300 millis")
        expect(woken).toBe(1)
        yield* b.markFailed(entry.id, { error: "repair order closed", retryAt: undefined })
        yield* b.replay(entry.id)
        yield* eventually(() => woken === 2)
      }).pipe(Effect.scoped)))

  it.effect("times come back as numbers of the Effect Clock, the backlog too", () =>
    withTwo((a) =>
      Effect.gen(function*() {
        yield* TestClock.adjust("3 seconds")
        const { entry } = yield* a.receive(delivery("ro_1", 1))
        yield* TestClock.adjust("1 second")
        yield* a.markApplied(entry.id)
        yield* a.receive(delivery("ro_1", 2))
        expect(yield* a.get(entry.id)).toMatchObject({ receivedAt: 3000, nextAttemptAt: 3000, appliedAt: 4000 })
        expect(yield* a.backlog).toEqual({ size: 1, oldestReceivedAt: 4000 })
      })))
})
