/**
 * What the runtime last learned of a repair order from its SMS's webhooks (capability
 * `receiveRepairOrderEvents`): open, closed or deleted, read back from the SMS, never taken from
 * the delivery. The worker keeps the lines of a delivery for a closed or deleted repair order in
 * the parts ledger instead of writing them onto the repair order; the parts page says why.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { run as runMigrations } from "./Migrations.js"

/**
 * A repair order's state as its SMS answered when the runtime read it back.
 *
 * @example
 * import { RepairOrderStates } from "@shoplink/connector-runtime"
 * RepairOrderStates.State.literals // ["open", "closed", "deleted"]
 *
 * @since 0.1.0
 */
export const State = Schema.Literal("open", "closed", "deleted")

/**
 * @example
 * import type { RepairOrderStates } from "@shoplink/connector-runtime"
 * const state: RepairOrderStates.State = "closed"
 *
 * @since 0.1.0
 */
export type State = typeof State.Type

/**
 * One recorded state: of which repair order, what the SMS's event said (`created`, `updated`,
 * `deleted`) and when the runtime read the repair order back (epoch milliseconds).
 *
 * @example
 * import type { RepairOrderStates } from "@shoplink/connector-runtime"
 * const seen: RepairOrderStates.Recorded = {
 *   shopId: "shop_1", repairOrderId: "ro_8f2", state: "closed", action: "updated", checkedAt: 1767225600000
 * }
 *
 * @since 0.1.0
 */
export interface Recorded {
  readonly shopId: string
  readonly repairOrderId: string
  readonly state: State
  readonly action: string
  readonly checkedAt: number
}

/**
 * The store failed (its database). One line, with the database's message.
 *
 * @example
 * import { RepairOrderStates } from "@shoplink/connector-runtime"
 * new RepairOrderStates.RepairOrderStatesError({ reason: "database is locked" }).message
 *
 * @since 0.1.0
 */
export class RepairOrderStatesError extends Schema.TaggedError<RepairOrderStatesError>()("RepairOrderStatesError", {
  reason: Schema.String
}) {
  override get message(): string {
    return `repair order states: ${this.reason}`
  }
}

/**
 * The store's operations. `record` keeps the newest reading: one checked earlier than the stored
 * one (two deliveries read back out of order) changes nothing.
 *
 * @example
 * import type { RepairOrderStates } from "@shoplink/connector-runtime"
 * const isClosed = (states: RepairOrderStates.Operations) =>
 *   states.get({ shopId: "shop_1", repairOrderId: "ro_8f2" })
 *
 * @since 0.1.0
 */
export interface Operations {
  readonly record: (recorded: Recorded) => Effect.Effect<void, RepairOrderStatesError>
  readonly get: (ref: {
    readonly shopId: string
    readonly repairOrderId: string
  }) => Effect.Effect<Option.Option<Recorded>, RepairOrderStatesError>
  /** Deletes the readings taken before `checkedBefore` (epoch ms; `Retention`); answers how many. */
  readonly purge: (checkedBefore: number) => Effect.Effect<number, RepairOrderStatesError>
}

/**
 * The service tag.
 *
 * @example
 * import { Effect } from "effect"
 * import { RepairOrderStates } from "@shoplink/connector-runtime"
 * const read = Effect.flatMap(RepairOrderStates.RepairOrderStates, (states) =>
 *   states.get({ shopId: "shop_1", repairOrderId: "ro_8f2" }))
 *
 * @since 0.1.0
 */
export class RepairOrderStates
  extends Context.Tag("@shoplink/connector-runtime/RepairOrderStates")<RepairOrderStates, Operations>()
{}

/**
 * Whether the worker may write a delivery's lines onto the repair order: not when it is closed or deleted.
 *
 * @example
 * import { RepairOrderStates } from "@shoplink/connector-runtime"
 * RepairOrderStates.takesParts("closed") // false
 *
 * @since 0.1.0
 */
export const takesParts = (state: State): boolean => state === "open"

const refOf = (ref: { readonly shopId: string; readonly repairOrderId: string }) =>
  `${ref.shopId}\u0000${ref.repairOrderId}`

/**
 * In memory, for tests and the memory storage.
 *
 * @example
 * import { RepairOrderStates } from "@shoplink/connector-runtime"
 * const layer = RepairOrderStates.layerMemory
 *
 * @since 0.1.0
 */
export const layerMemory: Layer.Layer<RepairOrderStates> = Layer.effect(
  RepairOrderStates,
  Effect.map(Ref.make(new Map<string, Recorded>()), (ref) =>
    RepairOrderStates.of({
      record: (recorded) =>
        Ref.update(ref, (map) => {
          const known = map.get(refOf(recorded))
          if (known !== undefined && known.checkedAt > recorded.checkedAt) return map
          return new Map(map).set(refOf(recorded), recorded)
        }),
      get: (where) => Effect.map(Ref.get(ref), (map) => Option.fromNullable(map.get(refOf(where)))),
      purge: (checkedBefore) =>
        Ref.modify(ref, (map) => {
          const kept = new Map([...map].filter(([, r]) => r.checkedAt >= checkedBefore))
          return [map.size - kept.size, kept]
        })
    }))
)

const Row = Schema.Struct({
  shop_id: Schema.String,
  repair_order_id: Schema.String,
  state: State,
  action: Schema.String,
  checked_at: Schema.Union(Schema.Number, Schema.NumberFromString)
})
const decodeRows = Schema.decodeUnknown(Schema.Array(Row))

const storeError = (error: { readonly message: string }) => new RepairOrderStatesError({ reason: error.message })

/**
 * In the runtime's database (`shoplink_repair_order_states`), SQLite or PostgreSQL.
 *
 * @example
 * import { Layer } from "effect"
 * import { RepairOrderStates, Storage } from "@shoplink/connector-runtime"
 * const layer = RepairOrderStates.layerSql.pipe(Layer.provide(Storage.sqlite("shoplink.db")))
 *
 * @since 0.1.0
 */
export const layerSql: Layer.Layer<RepairOrderStates, RepairOrderStatesError, SqlClient.SqlClient> = Layer.effect(
  RepairOrderStates,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* runMigrations.pipe(Effect.mapError(storeError))
    return RepairOrderStates.of({
      record: (r) =>
        sql`INSERT INTO shoplink_repair_order_states (shop_id, repair_order_id, state, action, checked_at)
          VALUES (${r.shopId}, ${r.repairOrderId}, ${r.state}, ${r.action}, ${r.checkedAt})
          ON CONFLICT (shop_id, repair_order_id) DO UPDATE SET state = excluded.state, action = excluded.action,
            checked_at = excluded.checked_at
          WHERE shoplink_repair_order_states.checked_at <= excluded.checked_at`.pipe(
          Effect.asVoid,
          Effect.mapError(storeError)
        ),
      get: (where) =>
        sql`SELECT * FROM shoplink_repair_order_states
          WHERE shop_id = ${where.shopId} AND repair_order_id = ${where.repairOrderId}`.withoutTransform.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              shopId: row.shop_id,
              repairOrderId: row.repair_order_id,
              state: row.state,
              action: row.action,
              checkedAt: row.checked_at
            }))
          ),
          Effect.mapError(storeError)
        ),
      purge: (checkedBefore) =>
        sql`DELETE FROM shoplink_repair_order_states WHERE checked_at < ${checkedBefore}
          RETURNING repair_order_id`.pipe(Effect.map((rows) => rows.length), Effect.mapError(storeError))
    })
  })
)
