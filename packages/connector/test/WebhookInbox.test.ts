import { describe, expect, it } from "@effect/vitest"
import { WebhookInbox } from "@shoplink/connector"
import { SqlClient } from "@effect/sql"
import { Effect, Exit, Fiber, Layer, TestClock } from "effect"
import { scratchDatabase, sqlite } from "./fixtures.js"

const delivery = (contentKey: string, kind: WebhookInbox.DeliveryKind = "order"): WebhookInbox.Delivery => ({
  kind,
  contentKey,
  shopId: "shop_1",
  repairOrderId: "ro_1042",
  body: JSON.stringify({ referenceID: "ro_1042", key: contentKey })
})

const inbox = WebhookInbox.WebhookInbox

// The same behaviour is required of every implementation.
const suite = (name: string, layer: () => Layer.Layer<WebhookInbox.WebhookInbox, unknown>) =>
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
        const b = yield* box.receive(delivery("b", "quote"))
        expect((yield* box.due(10)).map((e) => e.id)).toEqual([a.entry.id, b.entry.id])
        expect((yield* box.due(1)).map((e) => e.id)).toEqual([a.entry.id])

        const now = b.entry.receivedAt
        yield* box.markFailed(a.entry.id, { error: "SMS answered 503", retryAt: now + 60_000 })
        expect((yield* box.due(10)).map((e) => e.id)).toEqual([b.entry.id])
        yield* TestClock.adjust("61 seconds")
        expect((yield* box.due(10)).map((e) => e.id)).toEqual([a.entry.id, b.entry.id])
        const failed = yield* box.get(a.entry.id)
        expect(failed).toMatchObject({ status: "pending", attempts: 1, lastError: "SMS answered 503" })
      }).pipe(Effect.provide(layer())))

    it.effect("applied entries leave the line; dead ones keep their last error and can be replayed", () =>
      Effect.gen(function*() {
        const box = yield* inbox
        const { entry } = yield* box.receive(delivery("order:1:3"))
        const other = yield* box.receive(delivery("order:2:3"))
        yield* box.markApplied(other.entry.id)
        yield* box.markFailed(entry.id, { error: "first", retryAt: 0 })
        yield* box.markFailed(entry.id, { error: "repair order deleted", retryAt: undefined })
        expect(yield* box.due(10)).toEqual([])
        const dead = yield* box.list({ status: "dead" })
        expect(dead).toHaveLength(1)
        expect(dead[0]).toMatchObject({ id: entry.id, attempts: 2, lastError: "repair order deleted" })
        const applied = yield* box.get(other.entry.id)
        expect(applied.status).toBe("applied")
        expect(applied.appliedAt).toBeTypeOf("number")

        const replayed = yield* box.replay(entry.id)
        expect(replayed).toMatchObject({ status: "pending", attempts: 0 })
        expect((yield* box.due(10)).map((e) => e.id)).toEqual([entry.id])
        const missing = yield* Effect.exit(box.replay("no-such-id"))
        expect(Exit.isFailure(missing)).toBe(true)
      }).pipe(Effect.provide(layer())))
  })

suite("WebhookInbox.layerMemory", () => WebhookInbox.layerMemory)
suite("WebhookInbox.layerSql", () => WebhookInbox.layerSql.pipe(Layer.provide(sqlite(scratchDatabase()))))

describe("WebhookInbox.layerSql across a restart", () => {
  it.effect("a received entry is still there, pending, after the database is reopened; dedupe still holds", () =>
    Effect.gen(function*() {
      const file = scratchDatabase()
      const open = () => WebhookInbox.layerSql.pipe(Layer.provide(sqlite(file)))
      const { entry } = yield* Effect.flatMap(inbox, (box) => box.receive(delivery("order:10423:3"))).pipe(Effect.provide(open()))
      const [due, again] = yield* Effect.flatMap(inbox, (box) =>
        Effect.all([box.due(10), box.receive(delivery("order:10423:3"))])).pipe(Effect.provide(open()))
      expect(due.map((e) => e.id)).toEqual([entry.id])
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
        if (result._tag === "Left") expect(result.left).toMatchObject({ _tag: "InboxError", reason: expect.stringContaining("poisoned") })
      }
      yield* sql`DROP TRIGGER reject_poison`
      expect(yield* box.list()).toHaveLength(0)
      expect((yield* box.receive(delivery("order:1:3"))).duplicate).toBe(false)
    }).pipe(Effect.provide(layer())))
})
