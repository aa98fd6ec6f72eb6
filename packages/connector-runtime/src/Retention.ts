/**
 * Retention: what the runtime keeps, and for how long (punchout sessions are evicted by the
 * `SessionPool` itself). A fiber on the Effect `Clock` purges, at start and then every `interval`
 * (default 1 hour):
 *
 * | What | Kept | Then |
 * |---|---|---|
 * | applied inbox entries | with their body for `appliedBodies` (default 30 days) after being applied | body cleared |
 * | applied inbox entries | `appliedEntries` (default 90 days) after being applied | deleted |
 * | pending inbox entries | until applied or dead-lettered | — |
 * | dead letters | until replayed or discarded (`WebhookInbox.discard`, `shoplink inbox discard`) | — |
 * | launch keys | until they expire, plus `launchKeys` (default 7 days) | deleted |
 * | repair-order states | `repairOrderStates` (default 90 days) after the last reading | deleted |
 *
 * A cleared body reads `""`; the entry (ids, status, times) stays. A late delivery for an expired
 * launch key is answered 410 while the key is kept, 404 after.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import { LaunchRegistry, type LaunchRegistryError } from "./LaunchRegistry.js"
import { RepairOrderStates, type RepairOrderStatesError } from "./RepairOrderStates.js"
import { type InboxError, WebhookInbox } from "./WebhookInbox.js"

/**
 * Retention settings.
 *
 * @example
 * import type { Retention } from "@shoplink/connector-runtime"
 * const options: Retention.Options = {
 *   interval: "1 hour",
 *   appliedBodies: "7 days",
 *   appliedEntries: "30 days",
 *   launchKeys: "1 day"
 * }
 *
 * @since 0.1.0
 */
export interface Options {
  /** How often the purge runs (default 1 hour); it also runs once at start. */
  readonly interval?: Duration.DurationInput
  /** How long an applied entry keeps its body (default 30 days). */
  readonly appliedBodies?: Duration.DurationInput
  /** How long an applied entry is kept at all (default 90 days). */
  readonly appliedEntries?: Duration.DurationInput
  /** How long a launch key is kept after it expired (default 7 days). */
  readonly launchKeys?: Duration.DurationInput
  /**
   * How long a repair order's state, as its SMS's webhooks last had it read back, is kept
   * (default 90 days): long after the last order a catalog opened before its close could send.
   */
  readonly repairOrderStates?: Duration.DurationInput
}

/**
 * What one purge did.
 *
 * @example
 * import type { Retention } from "@shoplink/connector-runtime"
 * const changed = (r: Retention.PurgeResult) => r.bodiesCleared + r.entriesDeleted + r.launchKeysDeleted > 0
 *
 * @since 0.1.0
 */
export interface PurgeResult {
  readonly bodiesCleared: number
  readonly entriesDeleted: number
  readonly launchKeysDeleted: number
  /** Repair-order states deleted (0 without a `RepairOrderStates` in context). */
  readonly repairOrderStatesDeleted: number
}

/**
 * Purges once, now (by the Effect `Clock`): old applied bodies cleared, older applied entries,
 * long-expired launch keys and old repair-order states deleted. Pending entries and dead letters are never touched.
 *
 * @example
 * import { Effect } from "effect"
 * import { Retention } from "@shoplink/connector-runtime"
 * const purged = Retention.purge({ appliedBodies: "30 days" }).pipe(Effect.map((r) => r.entriesDeleted))
 *
 * @since 0.1.0
 */
export const purge = (
  options: Options = {}
): Effect.Effect<
  PurgeResult,
  InboxError | LaunchRegistryError | RepairOrderStatesError,
  WebhookInbox | LaunchRegistry
> =>
  Effect.gen(function*() {
    const inbox = yield* WebhookInbox
    const registry = yield* LaunchRegistry
    const now = yield* Clock.currentTimeMillis
    const millis = (input: Duration.DurationInput | undefined, fallback: Duration.DurationInput) =>
      Duration.toMillis(Duration.decode(input ?? fallback))
    const entries = yield* inbox.purge({
      clearBodiesAppliedBefore: now - millis(options.appliedBodies, "30 days"),
      deleteAppliedBefore: now - millis(options.appliedEntries, "90 days")
    })
    const launchKeysDeleted = yield* registry.purgeExpired(now - millis(options.launchKeys, "7 days"))
    // Optional, so a runtime assembled without it (and its tests) purges the rest.
    const states = yield* Effect.serviceOption(RepairOrderStates)
    const repairOrderStatesDeleted = Option.isSome(states)
      ? yield* states.value.purge(now - millis(options.repairOrderStates, "90 days"))
      : 0
    const result = {
      bodiesCleared: entries.bodiesCleared,
      entriesDeleted: entries.deleted,
      launchKeysDeleted,
      repairOrderStatesDeleted
    }
    yield* Effect.annotateCurrentSpan(result)
    if (result.bodiesCleared + result.entriesDeleted + result.launchKeysDeleted + repairOrderStatesDeleted > 0) {
      yield* Effect.logInfo("retention purged").pipe(Effect.annotateLogs(result))
    }
    return result
  }).pipe(Effect.withSpan("Retention.purge"))

/**
 * Purges at start and then every `interval`, forever; a failed purge is logged and tried again at
 * the next interval.
 *
 * @example
 * import { Effect } from "effect"
 * import { Retention } from "@shoplink/connector-runtime"
 * const background = Effect.forkScoped(Retention.run({ interval: "15 minutes" }))
 *
 * @since 0.1.0
 */
export const run = (options: Options = {}): Effect.Effect<never, never, WebhookInbox | LaunchRegistry> =>
  purge(options).pipe(
    Effect.catchAll((error) => Effect.logError("retention purge failed", error)),
    Effect.repeat(Schedule.spaced(options.interval ?? "1 hour")),
    Effect.andThen(Effect.never)
  )

/**
 * A layer that runs the retention fiber for the layer's lifetime.
 *
 * @example
 * import { Layer } from "effect"
 * import { LaunchRegistry, Retention, WebhookInbox } from "@shoplink/connector-runtime"
 * const retention = Retention.layer({ appliedBodies: "7 days" }).pipe(
 *   Layer.provide(Layer.merge(WebhookInbox.layerMemory, LaunchRegistry.layerMemory))
 * )
 *
 * @since 0.1.0
 */
export const layer = (options: Options = {}): Layer.Layer<never, never, WebhookInbox | LaunchRegistry> =>
  Layer.scopedDiscard(Effect.forkScoped(run(options)))
