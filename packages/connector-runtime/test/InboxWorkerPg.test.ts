// Background workers in two processes sharing one PostgreSQL inbox (each an inbox layer with a
// PgClient of its own), in real time: every delivery applied once, each repair order in the order
// received, never two of one repair order in flight; and a worker that polls rarely still applies a
// new delivery at once, woken by the receive's NOTIFY.
import { describe, expect, it } from "@effect/vitest"
import { ShopSystem } from "@shoplink/connector"
import { InboxWorker, WebhookInbox } from "@shoplink/connector-runtime"
import { Context, Effect, Exit, Fiber, Layer, Logger, LogLevel, Scope } from "effect"
import { performance } from "node:perf_hooks"
import { pgOn, postgres, TestDatabaseUrl } from "./fixtures.js"
import { makeSlowSms, quoteDelivery } from "./support/slowSms.js"
import { eventually } from "./support/eventually.js"

const quiet = Logger.withMinimumLogLevel(LogLevel.None)

/** A process: an inbox on the test database through a PgClient of its own. */
const openProcess = Effect.gen(function*() {
  const url = yield* TestDatabaseUrl
  const scope = yield* Scope.make()
  const context = yield* Layer.buildWithScope(WebhookInbox.layerSql.pipe(Layer.provide(pgOn(url))), scope)
  return { context, inbox: Context.get(context, WebhookInbox.WebhookInbox), close: Scope.close(scope, Exit.void) }
})

/** The shop system `sms` as one worker sees it, counting the writes that worker made. */
const countedBy = (sms: Layer.Layer<ShopSystem.ShopSystem>, count: { n: number }) =>
  Layer.effect(
    ShopSystem.ShopSystem,
    Effect.map(ShopSystem.ShopSystem, (system) => ({
      ...system,
      applyQuote: (write: Parameters<typeof system.applyQuote>[0]) =>
        system.applyQuote(write).pipe(Effect.tap(() => count.n++))
    }))
  ).pipe(Layer.provide(sms))

describe("InboxWorker.run on PostgreSQL, two processes", () => {
  it.live("apply every delivery once, each repair order in the order received, one at a time across both", () =>
    Effect.gen(function*() {
      const ROS = 10
      const PER_RO = 10
      const sms = makeSlowSms({ latency: () => 1 + Math.floor(Math.random() * 10) })
      const one = yield* openProcess
      const two = yield* openProcess
      const received = new Map<string, Array<string>>()
      const receive = (round: number) =>
        Effect.forEach(Array.from({ length: ROS }, (_, r) => r), (r) =>
          Effect.gen(function*() {
            const delivery = quoteDelivery("shop_1", `ro_${r}`, round)
            // Receivers in both processes, as behind a load balancer.
            yield* (r % 2 === 0 ? one : two).inbox.receive(delivery)
            received.set(delivery.repairOrderId, [...(received.get(delivery.repairOrderId) ?? []), delivery.productID])
          }))
      for (let round = 0; round < PER_RO / 2; round++) yield* receive(round)
      const counts = [{ n: 0 }, { n: 0 }] as const
      const workers = yield* Effect.forEach(
        [one, two],
        (p, i) =>
          Effect.fork(
            InboxWorker.run({ concurrency: 4, pollInterval: "20 millis" }).pipe(
              Effect.provide(Layer.merge(Layer.succeedContext(p.context), countedBy(sms.layer, counts[i]!))),
              quiet
            )
          )
      )
      for (let round = PER_RO / 2; round < PER_RO; round++) {
        yield* receive(round)
        yield* Effect.sleep(`${Math.floor(Math.random() * 10)} millis`)
      }
      yield* eventually(Effect.map(one.inbox.backlog, (b) => b.size === 0))
      yield* Effect.forEach(workers, Fiber.interrupt)
      const entries = yield* one.inbox.list()
      yield* one.close
      yield* two.close

      expect(entries.map((e) => [e.status, e.attempts])).toEqual(entries.map(() => ["applied", 1]))
      for (const [ro, productIDs] of received) expect(sms.order.get(ro), ro).toEqual(productIDs)
      // Nothing applied twice: one write per delivery, each line added once.
      expect(sms.stats.writes).toBe(ROS * PER_RO)
      expect(sms.added.size).toBe(ROS * PER_RO)
      expect([...sms.added.values()].every((n) => n === 1)).toBe(true)
      expect(sms.stats.maxInFlightPerRo).toBe(1)
      // Both processes did part of the work.
      expect(counts[0].n + counts[1].n).toBe(ROS * PER_RO)
      expect(counts[0].n).toBeGreaterThan(0)
      expect(counts[1].n).toBeGreaterThan(0)
    }).pipe(Effect.provide(postgres())))

  // Woken, not polled: well under the 10-second poll (the bound leaves room for a loaded machine;
  // a quiet one takes a few milliseconds).
  it.live("a worker polling every 10 seconds applies a delivery another process received within 2 s of its commit (LISTEN/NOTIFY)", () =>
    Effect.gen(function*() {
      const worker = yield* openProcess
      const receiver = yield* openProcess
      const started: Array<number> = []
      const sms = makeSlowSms({ latency: () => 0 })
      const timed = Layer.effect(
        ShopSystem.ShopSystem,
        Effect.map(ShopSystem.ShopSystem, (system) => ({
          ...system,
          applyQuote: (write: Parameters<typeof system.applyQuote>[0]) =>
            Effect.suspend(() => {
              started.push(performance.now())
              return system.applyQuote(write)
            })
        }))
      ).pipe(Layer.provide(sms.layer))
      const fiber = yield* Effect.fork(
        InboxWorker.run({ concurrency: 2, pollInterval: "10 seconds" }).pipe(
          Effect.provide(Layer.merge(Layer.succeedContext(worker.context), timed)),
          quiet
        )
      )
      // Let the worker look once (nothing due: its lanes go idle for 10 s) and start listening.
      yield* Effect.sleep("1 second")
      const latencies: Array<number> = []
      for (let n = 0; n < 3; n++) {
        yield* receiver.inbox.receive(quoteDelivery("shop_1", `ro_${n}`, 0))
        const committed = performance.now()
        yield* eventually(Effect.sync(() => started.length > n), 5)
        latencies.push(started[n]! - committed)
        yield* eventually(Effect.map(worker.inbox.backlog, (b) => b.size === 0), 5)
        yield* Effect.sleep("200 millis")
      }
      yield* Fiber.interrupt(fiber)
      yield* worker.close
      yield* receiver.close
      expect(sms.stats.writes).toBe(3)
      expect(Math.max(...latencies)).toBeLessThan(2_000)
    }).pipe(Effect.provide(postgres())))
})
