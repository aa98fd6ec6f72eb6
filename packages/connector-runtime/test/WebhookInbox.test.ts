import { describe, expect, it } from "@effect/vitest"
import { WebhookInbox } from "@shoplink/connector-runtime"
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Exit, Fiber, Layer, TestClock } from "effect"
import { postgres, scratchDatabase, sqlite } from "./fixtures.js"

const delivery = (
  contentKey: string,
  kind: WebhookInbox.DeliveryKind = "order",
  repairOrderId = "ro_1042"
): WebhookInbox.Delivery => ({
  kind,
  contentKey,
  shopId: "shop_1",
  repairOrderId,
  body: JSON.stringify({ referenceID: repairOrderId, key: contentKey })
})

const inbox = WebhookInbox.WebhookInbox

/** What `claim` would hand out now, handed back at once (a look, not a claim). */
const due = (box: WebhookInbox.Operations, limit: number) =>
  Effect.tap(box.claim(limit), (entries) => box.release(entries.map((e) => e.id)))

/**
 * How time passes for an implementation: the Effect Clock (memory, SQLite: one process) or the
 * database's own (PostgreSQL), where a retry of `retry` milliseconds is waited out in real time.
 */
interface Time {
  readonly retry: number
  readonly advance: (millis: number) => Effect.Effect<void>
  /** Whether the implementation's times follow the Effect Clock (TestClock). */
  readonly effectClock: boolean
}
const effectClock: Time = { retry: 60_000, advance: (millis) => TestClock.adjust(millis), effectClock: true }
const databaseClock: Time = {
  retry: 1_000,
  advance: (millis) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, millis))),
  effectClock: false
}

// The same behaviour is required of every implementation.
const suite = (name: string, layer: () => Layer.Layer<WebhookInbox.WebhookInbox, unknown>, time: Time = effectClock) =>
  describe(name, () => {
    it.effect("stores a delivery once: the same content key is a duplicate", () =>
      Effect.gen(function*() {
        const box = yield* inbox
        const first = yield* box.receive(delivery("order:10423:3"))
        const second = yield* box.receive(delivery("order:10423:3"))
        expect(first.duplicate).toBe(false)
        expect(second.duplicate).toBe(true)
        expect(second.entry.id).toBe(first.entry.id)
        expect(yield* box.list()).toHaveLength(1)
        expect(first.entry).toMatchObject({ status: "pending", attempts: 0, body: delivery("order:10423:3").body })
      }).pipe(Effect.provide(layer())))

    it.effect("concurrent receives (a burst with repeats) store each content key once and answer each caller", () =>
      Effect.gen(function*() {
        const box = yield* inbox
        const keys = Array.from({ length: 50 }, (_, i) => `order:${i % 20}:3`)
        const results = yield* Effect.forEach(keys, (key) => box.receive(delivery(key)), { concurrency: "unbounded" })
        expect(results.filter((r) => !r.duplicate)).toHaveLength(20)
        expect(yield* box.list()).toHaveLength(20)
        const idByKey = new Map((yield* box.list()).map((e) => [e.contentKey, e.id]))
        for (const [i, r] of results.entries()) expect(r.entry.id).toBe(idByKey.get(keys[i]!))
      }).pipe(Effect.provide(layer())))

    it.effect("hands out due entries oldest first, and only when their retry time has come", () =>
      Effect.gen(function*() {
        const box = yield* inbox
        const a = yield* box.receive(delivery("a"))
        yield* TestClock.adjust("1 second")
        const b = yield* box.receive(delivery("b", "quote", "ro_2001"))
        expect((yield* due(box, 10)).map((e) => e.id)).toEqual([a.entry.id, b.entry.id])
        expect((yield* due(box, 1)).map((e) => e.id)).toEqual([a.entry.id])

        yield* box.markFailed(a.entry.id, { error: "SMS answered 503", retryIn: time.retry })
        expect((yield* due(box, 10)).map((e) => e.id)).toEqual([b.entry.id])
        yield* time.advance(time.retry + 100)
        expect((yield* due(box, 10)).map((e) => e.id)).toEqual([a.entry.id, b.entry.id])
        const failed = yield* box.get(a.entry.id)
        expect(failed).toMatchObject({ status: "pending", attempts: 1, lastError: "SMS answered 503" })
      }).pipe(Effect.provide(layer())))

    it.effect("hands out one repair order's entries in receive order: a later one waits behind a pending or retrying one, not behind a dead one", () =>
      Effect.gen(function*() {
        const box = yield* inbox
        // Received in one millisecond: the order of receipt still decides.
        const first = yield* box.receive(delivery("ro1:first"))
        const other = yield* box.receive(delivery("ro2:first", "order", "ro_2001"))
        const second = yield* box.receive(delivery("ro1:second"))
        const third = yield* box.receive(delivery("ro1:third"))
        const ids = (entries: ReadonlyArray<WebhookInbox.InboxEntry>) => entries.map((e) => e.id)
        expect(ids(yield* due(box, 10))).toEqual([first.entry.id, other.entry.id])
        // The first waits for its retry: the repair order's later entries wait with it.
        yield* box.markFailed(first.entry.id, { error: "SMS answered 503", retryIn: time.retry })
        expect(ids(yield* due(box, 10))).toEqual([other.entry.id])
        yield* time.advance(time.retry + 100)
        expect(ids(yield* due(box, 10))).toEqual([first.entry.id, other.entry.id])
        // Applied: the next in line is the second.
        yield* box.markApplied(first.entry.id)
        expect(ids(yield* due(box, 10))).toEqual([other.entry.id, second.entry.id])
        // Dead: it no longer holds the repair order up.
        yield* box.markFailed(second.entry.id, { error: "repair order closed", retryIn: undefined })
        expect(ids(yield* due(box, 10))).toEqual([other.entry.id, third.entry.id])
        // Replayed: back in line at its place, ahead of the third.
        yield* box.replay(second.entry.id)
        expect(ids(yield* due(box, 10))).toEqual([other.entry.id, second.entry.id])
        expect(ids(yield* due(box, 1))).toEqual([other.entry.id])
      }).pipe(Effect.provide(layer())))

    it.effect("discard deletes a dead letter only; backlog counts the pending entries", () =>
      Effect.gen(function*() {
        const box = yield* inbox
        const dead = yield* box.receive(delivery("order:1:3"))
        yield* TestClock.adjust("1 second")
        const pending = yield* box.receive(delivery("order:2:3", "order", "ro_2001"))
        expect(yield* box.backlog).toEqual({ size: 2, oldestReceivedAt: dead.entry.receivedAt })
        yield* box.markFailed(dead.entry.id, { error: "repair order deleted", retryIn: undefined })
        expect(yield* box.backlog).toEqual({ size: 1, oldestReceivedAt: pending.entry.receivedAt })
        const refused = yield* Effect.flip(box.discard(pending.entry.id))
        expect(refused).toMatchObject({ _tag: "EntryNotDead", status: "pending" })
        yield* box.discard(dead.entry.id)
        expect((yield* box.list()).map((e) => e.id)).toEqual([pending.entry.id])
        expect(yield* Effect.flip(box.discard(dead.entry.id))).toMatchObject({ _tag: "EntryNotFound" })
        yield* box.markApplied(pending.entry.id)
        expect(yield* box.backlog).toEqual({ size: 0, oldestReceivedAt: undefined })
      }).pipe(Effect.provide(layer())))

    // Applied times 40 days apart on the Effect Clock; PostgreSQL (the database's clock) has its own
    // version of this test in WebhookInboxPg.test.ts, which ages the rows in SQL.
    if (time.effectClock) {
      it.effect("purge clears the bodies of old applied entries and deletes older ones; pending and dead entries stay whole", () =>
        Effect.gen(function*() {
          const box = yield* inbox
          const day = 86_400_000
          const received = yield* Effect.forEach(
            ["old", "middle", "recent", "dead", "pending"],
            (name) => box.receive(delivery(`order:${name}:3`, "order", `ro_${name}`))
          )
          const [old, middle, recent, dead, pending] = received.map((r) => r.entry)
          yield* box.markApplied(old!.id)
          yield* box.markFailed(dead!.id, { error: "gone", retryIn: undefined })
          yield* TestClock.adjust(`${40 * day} millis`)
          yield* box.markApplied(middle!.id)
          yield* TestClock.adjust(`${40 * day} millis`)
          yield* box.markApplied(recent!.id)
          const now = yield* Clock.currentTimeMillis
          // Bodies older than 30 days cleared, entries older than 60 days deleted.
          const cutoffs = { clearBodiesAppliedBefore: now - 30 * day, deleteAppliedBefore: now - 60 * day }
          expect(yield* box.purge(cutoffs)).toEqual({ bodiesCleared: 1, deleted: 1 })
          expect(yield* box.purge(cutoffs)).toEqual({ bodiesCleared: 0, deleted: 0 })
          const left = new Map((yield* box.list()).map((e) => [e.id, e]))
          expect(left.has(old!.id)).toBe(false)
          expect(left.get(middle!.id)).toMatchObject({ status: "applied", body: "" })
          expect(left.get(recent!.id)).toMatchObject({ status: "applied", body: recent!.body })
          expect(left.get(dead!.id)).toMatchObject({ status: "dead", body: dead!.body })
          expect(left.get(pending!.id)).toMatchObject({ status: "pending", body: pending!.body })
        }).pipe(Effect.provide(layer())))
    }

    it.effect("applied entries leave the line; dead ones keep their last error and can be replayed", () =>
      Effect.gen(function*() {
        const box = yield* inbox
        const { entry } = yield* box.receive(delivery("order:1:3"))
        const other = yield* box.receive(delivery("order:2:3"))
        yield* box.markApplied(other.entry.id)
        yield* box.markFailed(entry.id, { error: "first", retryIn: 0 })
        yield* box.markFailed(entry.id, { error: "repair order deleted", retryIn: undefined })
        expect(yield* due(box, 10)).toEqual([])
        const dead = yield* box.list({ status: "dead" })
        expect(dead).toHaveLength(1)
        expect(dead[0]).toMatchObject({ id: entry.id, attempts: 2, lastError: "repair order deleted" })
        const applied = yield* box.get(other.entry.id)
        expect(applied.status).toBe("applied")
        expect(applied.appliedAt).toBeTypeOf("number")

        const replayed = yield* box.replay(entry.id)
        expect(replayed).toMatchObject({ status: "pending", attempts: 0 })
        expect((yield* due(box, 10)).map((e) => e.id)).toEqual([entry.id])
        const missing = yield* Effect.exit(box.replay("no-such-id"))
        expect(Exit.isFailure(missing)).toBe(true)
      }).pipe(Effect.provide(layer())))
  })

suite("WebhookInbox.layerMemory", () => WebhookInbox.layerMemory)
suite("WebhookInbox.layerSql (SQLite)", () => WebhookInbox.layerSql.pipe(Layer.provide(sqlite(scratchDatabase()))))
suite("WebhookInbox.layerSql (PostgreSQL)", () => WebhookInbox.layerSql.pipe(Layer.provide(postgres())), databaseClock)

describe("WebhookInbox.layerSql across a restart", () => {
  it.effect("a received entry is still there, pending, after the database is reopened; dedupe still holds", () =>
    Effect.gen(function*() {
      const file = scratchDatabase()
      const open = () => WebhookInbox.layerSql.pipe(Layer.provide(sqlite(file)))
      const { entry } = yield* Effect.flatMap(inbox, (box) => box.receive(delivery("order:10423:3"))).pipe(
        Effect.provide(open())
      )
      const [looked, again] = yield* Effect.flatMap(
        inbox,
        (box) => Effect.all([due(box, 10), box.receive(delivery("order:10423:3"))])
      ).pipe(Effect.provide(open()))
      expect(looked.map((e) => e.id)).toEqual([entry.id])
      expect(again.duplicate).toBe(true)
    }))
})

describe("WebhookInbox.layerSql group commit", () => {
  const layer = () => WebhookInbox.layerSql.pipe(Layer.provideMerge(sqlite(scratchDatabase())))

  it.effect("a burst larger than one insert chunk lands in one piece, each caller answered with its own entry", () =>
    Effect.gen(function*() {
      const box = yield* inbox
      // 300 waiting deliveries: more than one flush (256) and chunks of every size (64 … 1).
      const keys = Array.from({ length: 300 }, (_, i) => `order:${i}:3`)
      const results = yield* Effect.forEach(keys, (key) => box.receive(delivery(key)), { concurrency: "unbounded" })
      expect(results.map((r) => [r.entry.contentKey, r.duplicate])).toEqual(keys.map((key) => [key, false]))
      expect(new Set(results.map((r) => r.entry.id)).size).toBe(300)
      expect(yield* box.list()).toHaveLength(300)
    }).pipe(Effect.provide(layer())))

  it.effect("a receive interrupted before its batch is written leaves nothing behind", () =>
    Effect.gen(function*() {
      const box = yield* inbox
      const fiber = yield* Effect.fork(box.receive(delivery("order:1:3")))
      yield* Fiber.interrupt(fiber)
      yield* box.receive(delivery("order:2:3"))
      expect((yield* box.list()).map((e) => e.contentKey)).toEqual(["order:2:3"])
    }).pipe(Effect.provide(layer())))

  it.effect("a failed transaction fails every delivery of the batch with InboxError and stores none", () =>
    Effect.gen(function*() {
      const box = yield* inbox
      const sql = yield* SqlClient.SqlClient
      // A trigger that rejects one key makes the whole batch's transaction roll back.
      yield* sql`CREATE TRIGGER reject_poison BEFORE INSERT ON shoplink_inbox
        WHEN NEW.content_key = 'order:poison:3' BEGIN SELECT RAISE(ABORT, 'poisoned'); END`
      const results = yield* Effect.forEach(
        ["order:1:3", "order:poison:3", "order:2:3"],
        (key) => Effect.either(box.receive(delivery(key))),
        { concurrency: "unbounded" }
      )
      for (const result of results) {
        expect(result._tag).toBe("Left")
        if (result._tag === "Left") {
          expect(result.left).toMatchObject({ _tag: "InboxError", reason: expect.stringContaining("poisoned") })
        }
      }
      yield* sql`DROP TRIGGER reject_poison`
      expect(yield* box.list()).toHaveLength(0)
      expect((yield* box.receive(delivery("order:1:3"))).duplicate).toBe(false)
    }).pipe(Effect.provide(layer())))
})
