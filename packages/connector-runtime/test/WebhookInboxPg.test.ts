// The PostgreSQL inbox shared by several processes: each process is an inbox layer with a
// PgClient of its own on one database. `claim` leases entries on the database's clock, so two
// processes never hold one entry, nor one process an entry twice; a repair order's later entries
// wait while its oldest is held by anyone; a heartbeat keeps a slow apply's entry; an entry whose
// holder went quiet is claimed again once the lease runs out, and the old holder's marks are
// refused. No process's clock matters. (The contract every inbox meets, PostgreSQL included, is
// in WebhookInbox.test.ts.)
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { WebhookInbox } from "@shoplink/connector-runtime"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Logger, Scope, Stream, TestClock } from "effect"
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
    const context = yield* Layer.buildWithScope(
      WebhookInbox.layerSqlWith(options).pipe(Layer.provideMerge(pgOn(url))),
      scope
    )
    return {
      inbox: Context.get(context, WebhookInbox.WebhookInbox),
      sql: Context.get(context, SqlClient.SqlClient),
      close: Scope.close(scope, Exit.void)
    }
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

/** Real time, whatever the test's Effect Clock. */
const realSleep = (millis: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, millis)))

/** Waits (real time) until `check` holds, dying after 5 seconds. */
const eventually = (check: () => boolean) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 5_000
    while (!check()) {
      if (Date.now() > deadline) return yield* Effect.dieMessage("condition not met within 5 s")
      yield* realSleep(10)
    }
  })

const ids = (entries: ReadonlyArray<WebhookInbox.InboxEntry>) => entries.map((e) => e.id)

describe("WebhookInbox.layerSql on PostgreSQL, two processes", () => {
  it.live("claiming concurrently in a loop, they never get the same entry and together claim every entry once, each repair order in order", () =>
    withTwo((a, b) =>
      Effect.gen(function*() {
        const ROS = 40
        const PER_RO = 5
        const received: Array<WebhookInbox.InboxEntry> = []
        for (let n = 0; n < PER_RO; n++) {
          for (let r = 0; r < ROS; r++) {
            received.push((yield* (r % 2 === 0 ? a : b).receive(delivery(`ro_${r}`, n))).entry)
          }
        }
        // Every claim in the order it was made; a claimer applies what it got before asking again.
        const claims: Array<{ readonly by: string; readonly entry: WebhookInbox.InboxEntry }> = []
        const claimer = (by: string, box: WebhookInbox.Operations) =>
          Effect.gen(function*() {
            while (true) {
              const got = yield* box.claim(7)
              if (got.length === 0) {
                if ((yield* box.backlog).size === 0) return
                yield* Effect.yieldNow()
                continue
              }
              for (const entry of got) claims.push({ by, entry })
              const counted = yield* Effect.forEach(got, (entry) => box.markApplied(entry.id), {
                concurrency: "unbounded"
              })
              expect(counted.every((c) => c)).toBe(true)
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
        expect(yield* b.claim(10)).toEqual([])
      })
    ))

  it.live("concurrent receives and settles of the same repair orders in two processes keep one head per repair order: its oldest pending entry", () =>
    Effect.gen(function*() {
      const a = yield* openProcess()
      const b = yield* openProcess()
      const ROS = 10
      const heads = b.sql<{ readonly bad: number }>`SELECT COUNT(*)::int AS bad FROM (
          SELECT shop_id, repair_order_id FROM shoplink_inbox WHERE status = 'pending'
          GROUP BY shop_id, repair_order_id
          HAVING COUNT(*) FILTER (WHERE is_head) <> 1
             OR MIN(seq) <> MIN(seq) FILTER (WHERE is_head)) AS broken`
      // Receives from both processes, all at once, while both claim and settle.
      const receiving = Effect.forEach(
        Array.from({ length: 300 }, (_, n) => n),
        (n) => (n % 2 === 0 ? a : b).inbox.receive(delivery(`ro_${n % ROS}`, n)),
        { concurrency: 16, discard: true }
      )
      const settling = (box: WebhookInbox.Operations) =>
        Effect.gen(function*() {
          for (let round = 0; round < 40; round++) {
            const got = yield* box.claim(5)
            yield* Effect.forEach(got, (e, i) =>
              i % 3 === 0 ? box.markFailed(e.id, { error: "gone", retryIn: undefined }) : box.markApplied(e.id), {
              concurrency: "unbounded"
            })
          }
        })
      yield* Effect.all([receiving, settling(a.inbox), settling(b.inbox)], { concurrency: "unbounded", discard: true })
      expect((yield* heads)[0]!.bad).toBe(0)
      yield* a.close
      yield* b.close
    }).pipe(Effect.provide(postgres())))

  it.live("a repair order's later entry cannot be claimed while its oldest is held; a process never gets an entry it holds again", () =>
    withTwo((a, b) =>
      Effect.gen(function*() {
        const e1 = (yield* a.receive(delivery("ro_1", 1))).entry
        const e2 = (yield* b.receive(delivery("ro_1", 2))).entry
        const other = (yield* b.receive(delivery("ro_2", 1))).entry
        // A delivery stored by one process is a duplicate for the other.
        const again = yield* b.receive(delivery("ro_1", 1))
        expect(again).toMatchObject({ duplicate: true, entry: { id: e1.id } })

        expect(ids(yield* a.claim(10))).toEqual([e1.id, other.id])
        // Everything is A's: e1 and the other repair order's head held, e2 behind e1.
        expect(yield* b.claim(10)).toEqual([])
        // A asks again: what it holds is not handed out again.
        expect(yield* a.claim(10)).toEqual([])

        // Waiting for a retry keeps the line held (on the database's clock).
        expect(yield* a.markFailed(e1.id, { error: "SMS answered 503", retryIn: "700 millis" })).toBe(true)
        expect(yield* b.claim(10)).toEqual([])
        yield* realSleep(900)
        expect(ids(yield* b.claim(10))).toEqual([e1.id])
        expect(yield* b.markApplied(e1.id)).toBe(true)
        expect(ids(yield* b.claim(10))).toEqual([e2.id])
        expect(yield* a.markApplied(other.id)).toBe(true)
        expect(yield* b.markApplied(e2.id)).toBe(true)
        expect((yield* a.list()).map((e) => [e.id, e.status, e.attempts])).toEqual([
          [e1.id, "applied", 2],
          [e2.id, "applied", 1],
          [other.id, "applied", 1]
        ])
      })
    ))

  it.live("an entry whose holder went quiet is claimed by the other once the lease runs out; the old holder's marks are then refused", () =>
    withTwo((a, b) =>
      Effect.gen(function*() {
        const entry = (yield* a.receive(delivery("ro_1", 1))).entry
        const later = (yield* a.receive(delivery("ro_1", 2))).entry
        expect(ids(yield* a.claim(10))).toEqual([entry.id])
        // A stops here (hung, or killed without closing): B waits out the lease.
        expect(yield* b.claim(10)).toEqual([])
        yield* realSleep(700)
        expect(ids(yield* b.claim(10))).toEqual([entry.id])
        // A comes back and reports: too late, B holds the entry now. Its heartbeat says so too.
        expect(yield* a.heartbeat([entry.id])).toEqual([])
        const logs: Array<string> = []
        const capture = Logger.add(
          Logger.make(({ logLevel, message }) => logs.push(`${logLevel.label} ${String(message)}`))
        )
        expect(yield* a.markApplied(entry.id).pipe(Effect.provide(capture))).toBe(false)
        expect(yield* a.markFailed(entry.id, { error: "late", retryIn: undefined }).pipe(Effect.provide(capture))).toBe(
          false
        )
        expect(logs.filter((line) => line.startsWith("WARN inbox entry not marked"))).toHaveLength(2)
        expect(yield* a.get(entry.id)).toMatchObject({ status: "pending", attempts: 0, lastError: undefined })
        // Nor can A take the repair order's next entry meanwhile.
        expect(yield* a.claim(10)).toEqual([])
        expect(yield* b.markApplied(entry.id)).toBe(true)
        expect(yield* a.get(entry.id)).toMatchObject({ status: "applied", attempts: 1 })
        expect(ids(yield* a.claim(10))).toEqual([later.id])
      }), { lease: "500 millis" }))

  it.live("a heartbeat keeps a slow apply's entry: nobody takes it over while its holder beats, however long it takes", () =>
    withTwo((a, b) =>
      Effect.gen(function*() {
        const entry = (yield* a.receive(delivery("ro_1", 1))).entry
        expect(ids(yield* a.claim(10))).toEqual([entry.id])
        // Three leases long, beating every third of one.
        for (let beat = 0; beat < 9; beat++) {
          yield* realSleep(200)
          expect(yield* a.heartbeat([entry.id])).toEqual([entry.id])
          expect(yield* b.claim(10)).toEqual([])
        }
        expect(yield* a.markApplied(entry.id)).toBe(true)
      }), { lease: "600 millis" }))

  it.live("a process that closes its inbox hands its claims back at once", () =>
    withTwo((a, b, closeA) =>
      Effect.gen(function*() {
        const entry = (yield* a.receive(delivery("ro_1", 1))).entry
        expect(ids(yield* a.claim(10))).toEqual([entry.id])
        expect(yield* b.claim(10)).toEqual([])
        yield* closeA
        expect(ids(yield* b.claim(10))).toEqual([entry.id])
      })
    ))

  it.live("purge clears the bodies of old applied entries and deletes older ones; pending and dead entries stay whole", () =>
    Effect.gen(function*() {
      const { close, inbox, sql } = yield* openProcess()
      yield* Effect.gen(function*() {
        const day = 86_400_000
        const received = yield* Effect.forEach(
          ["old", "middle", "recent", "dead", "pending"],
          (name) => inbox.receive(delivery(`ro_${name}`, 1))
        )
        const [old, middle, recent, dead, pending] = received.map((r) => r.entry)
        for (const entry of [old!, middle!, recent!]) expect(yield* inbox.markApplied(entry.id)).toBe(true)
        yield* inbox.markFailed(dead!.id, { error: "gone", retryIn: undefined })
        // Applied 80 and 40 days ago, as the database's clock counts: aged in SQL.
        yield* sql`UPDATE shoplink_inbox SET applied_at = applied_at - ${80 * day} WHERE id = ${old!.id}`
        yield* sql`UPDATE shoplink_inbox SET applied_at = applied_at - ${40 * day} WHERE id = ${middle!.id}`
        const now = Date.now()
        const cutoffs = { clearBodiesAppliedBefore: now - 30 * day, deleteAppliedBefore: now - 60 * day }
        expect(yield* inbox.purge(cutoffs)).toEqual({ bodiesCleared: 1, deleted: 1 })
        expect(yield* inbox.purge(cutoffs)).toEqual({ bodiesCleared: 0, deleted: 0 })
        const left = new Map((yield* inbox.list()).map((e) => [e.id, e]))
        expect(left.has(old!.id)).toBe(false)
        expect(left.get(middle!.id)).toMatchObject({ status: "applied", body: "" })
        expect(left.get(recent!.id)).toMatchObject({ status: "applied", body: recent!.body })
        expect(left.get(dead!.id)).toMatchObject({ status: "dead", body: dead!.body })
        expect(left.get(pending!.id)).toMatchObject({ status: "pending", body: pending!.body })
      }).pipe(Effect.ensuring(close))
    }).pipe(Effect.provide(postgres())))

  it.live("release hands claims back without an attempt", () =>
    withTwo((a, b) =>
      Effect.gen(function*() {
        const entry = (yield* a.receive(delivery("ro_1", 1))).entry
        expect(ids(yield* a.claim(10))).toEqual([entry.id])
        yield* a.release([entry.id])
        expect(ids(yield* b.claim(10))).toEqual([entry.id])
        expect(yield* b.get(entry.id)).toMatchObject({ attempts: 0, status: "pending" })
      })
    ))

  it.live("wakeups: a receive that stored a new entry, or a replay, in either process wakes the listeners; a duplicate does not", () =>
    withTwo((a, b) =>
      Effect.gen(function*() {
        let woken = 0
        expect(a.wakeups).toBeDefined()
        yield* Effect.forkScoped(Stream.runForEach(a.wakeups!, () => Effect.sync(() => woken++)))
        // Connected: one wake-up for whatever may have come before.
        yield* eventually(() => woken === 1)
        expect(yield* a.wakeupsListening!).toBe(true)
        const { entry } = yield* b.receive(delivery("ro_1", 1))
        yield* eventually(() => woken === 2)
        yield* b.receive(delivery("ro_1", 1))
        yield* realSleep(300)
        expect(woken).toBe(2)
        yield* b.markFailed(entry.id, { error: "repair order closed", retryIn: undefined })
        yield* b.replay(entry.id)
        yield* eventually(() => woken === 3)
      }).pipe(Effect.scoped)
    ))

  it.live("wakeups are coalesced: a burst of receives sends far fewer NOTIFYs than deliveries", () =>
    withTwo((a, b) =>
      Effect.gen(function*() {
        let woken = 0
        yield* Effect.forkScoped(Stream.runForEach(a.wakeups!, () => Effect.sync(() => woken++)))
        yield* eventually(() => woken === 1)
        yield* Effect.forEach(Array.from({ length: 200 }, (_, n) => n), (n) => b.receive(delivery(`ro_${n % 20}`, n)), {
          concurrency: 20,
          discard: true
        })
        yield* realSleep(300)
        expect(woken).toBeGreaterThan(1)
        expect(woken).toBeLessThan(100)
      }).pipe(Effect.scoped)
    ))

  it.live("LISTEN recovers: after pg_terminate_backend of its connection, it reconnects within 5 s, logs the loss and the recovery, and wakes again", () =>
    Effect.gen(function*() {
      const logs: Array<string> = []
      const capture = Logger.add(
        Logger.make(({ logLevel, message }) => logs.push(`${logLevel.label} ${String(message)}`))
      )
      const a = yield* openProcess().pipe(Effect.provide(capture))
      const b = yield* openProcess()
      let woken = 0
      yield* Effect.forkScoped(Stream.runForEach(a.inbox.wakeups!, () => Effect.sync(() => woken++)))
      yield* eventually(() => woken === 1)
      const terminated = yield* b.sql<
        { readonly done: boolean }
      >`SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
        WHERE application_name = 'shoplink-inbox-listen' AND datname = current_database()`.pipe(
        Effect.map((rows) => rows.length)
      )
      expect(terminated).toBe(1)
      yield* eventually(() => logs.some((line) => line.startsWith("WARN inbox wake-ups (LISTEN) lost")))
      const lostAt = Date.now()
      yield* eventually(() => logs.some((line) => line.startsWith("INFO inbox wake-ups (LISTEN) recovered")))
      expect(Date.now() - lostAt).toBeLessThan(5_000)
      expect(yield* a.inbox.wakeupsListening!).toBe(true)
      // Reconnected: another process's receive wakes it again.
      const before = woken
      yield* b.inbox.receive(delivery("ro_1", 1))
      yield* eventually(() => woken > before)
      yield* a.close
      yield* b.close
    }).pipe(Effect.scoped, Effect.provide(postgres())))

  it.effect("times are the database's: a process whose Effect Clock is 30 s ahead neither takes over a live lease nor claims a retry early", () =>
    withTwo((a, b) =>
      Effect.gen(function*() {
        // Every process here runs on the TestClock, which the test sets 30 s ahead of the database.
        yield* TestClock.setTime(Date.now() + 30_000)
        const held = (yield* a.receive(delivery("ro_1", 1))).entry
        const retrying = (yield* a.receive(delivery("ro_2", 1))).entry
        expect(Math.abs(held.receivedAt - Date.now())).toBeLessThan(5_000)
        expect(ids(yield* a.claim(10))).toEqual([held.id, retrying.id])
        expect(yield* a.markFailed(retrying.id, { error: "SMS answered 503", retryIn: "10 seconds" })).toBe(true)
        // B is 30 s ahead (its lease and due times would have passed on its clock): nothing for it.
        expect(yield* b.claim(10)).toEqual([])
        yield* TestClock.adjust("1 hour")
        expect(yield* b.claim(10)).toEqual([])
        expect(yield* a.markApplied(held.id)).toBe(true)
        const entry = yield* a.get(retrying.id)
        expect(entry.nextAttemptAt - entry.receivedAt).toBeGreaterThanOrEqual(9_000)
      }), { lease: "5 seconds" }))

  it.live("a receive waits for a locked table at most receiveTimeout, then fails with InboxError", () =>
    Effect.gen(function*() {
      const a = yield* openProcess({ receiveTimeout: "1 second" })
      const other = yield* openProcess()
      // Another connection holds an exclusive lock on the table until told to let go.
      const locked = yield* Deferred.make<void>()
      const letGo = yield* Deferred.make<void>()
      const holder = yield* Effect.fork(other.sql.withTransaction(Effect.gen(function*() {
        yield* other.sql`LOCK TABLE shoplink_inbox IN ACCESS EXCLUSIVE MODE`
        yield* Deferred.succeed(locked, undefined)
        yield* Deferred.await(letGo)
      })))
      yield* Deferred.await(locked)
      const started = Date.now()
      const result = yield* Effect.either(a.inbox.receive(delivery("ro_1", 1)))
      const waited = Date.now() - started
      yield* Deferred.succeed(letGo, undefined)
      yield* Fiber.join(holder)
      expect(result._tag).toBe("Left")
      if (result._tag === "Left") expect(result.left).toMatchObject({ _tag: "InboxError" })
      expect(waited).toBeGreaterThanOrEqual(900)
      expect(waited).toBeLessThan(4_000)
      // The lock gone, the sender's retry is stored.
      expect((yield* a.inbox.receive(delivery("ro_1", 1))).entry.status).toBe("pending")
      yield* a.close
      yield* other.close
    }).pipe(Effect.scoped, Effect.provide(postgres())))

  it.live("times come back as numbers of the database's clock, the backlog too", () =>
    withTwo((a) =>
      Effect.gen(function*() {
        const before = Date.now()
        const { entry } = yield* a.receive(delivery("ro_1", 1))
        yield* a.markApplied(entry.id)
        const after = Date.now()
        const stored = yield* a.get(entry.id)
        expect(stored.receivedAt).toBe(entry.receivedAt)
        expect(stored.receivedAt).toBeGreaterThanOrEqual(before - 1_000)
        expect(stored.appliedAt!).toBeLessThanOrEqual(after + 1_000)
        expect(stored.appliedAt!).toBeGreaterThanOrEqual(stored.receivedAt)
        const second = (yield* a.receive(delivery("ro_1", 2))).entry
        expect(yield* a.backlog).toEqual({ size: 1, oldestReceivedAt: second.receivedAt })
      })
    ))
})
