/**
 * The durable inbox between receiving a webhook and applying it to the shop system. A delivery is
 * written here before the receiver answers 2xx, deduplicated by its content key, and then applied
 * by the worker, which records each failure and dead-letters an entry that keeps failing.
 * Replay puts a dead entry back in line; discard deletes it. SQLite (one process) or PostgreSQL
 * (several processes sharing the database; `claim` leases entries on the database's clock) keeps it
 * across restarts; memory is for tests. `claim` hands out a repair order's entries one at a time,
 * in the order received; a dead letter does not hold its repair order up. What `purge` removes
 * and when: `Retention`.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { retryBusy, shortenBusyTimeout } from "./internal/sqliteBusy.js"
import * as metrics from "./internal/metrics.js"
import { localWakeups, makeListener, type PgConnectionConfig } from "./internal/pgListener.js"
import { run as runMigrations } from "./Migrations.js"

/**
 * Which webhook a delivery came from.
 *
 * @example
 * import type { WebhookInbox } from "@shoplink/connector-runtime"
 * const kind: WebhookInbox.DeliveryKind = "order"
 *
 * @since 0.1.0
 */
export type DeliveryKind = "order" | "quote"

/**
 * `pending` (waiting or retrying), `applied`, or `dead` (gave up; see `lastError`, replay to retry).
 *
 * @example
 * import type { WebhookInbox } from "@shoplink/connector-runtime"
 * const status: WebhookInbox.EntryStatus = "dead"
 *
 * @since 0.1.0
 */
export type EntryStatus = "pending" | "applied" | "dead"

/**
 * A delivery as received.
 *
 * @example
 * import type { WebhookInbox } from "@shoplink/connector-runtime"
 * const delivery: WebhookInbox.Delivery = {
 *   kind: "order", contentKey: "order:shop_1:ro_8f2:10423:3", shopId: "shop_1", repairOrderId: "ro_8f2", body: "{}"
 * }
 *
 * @since 0.1.0
 */
export interface Delivery {
  readonly kind: DeliveryKind
  /** Dedupe key: the same content delivered twice has the same key. */
  readonly contentKey: string
  readonly shopId: string
  readonly repairOrderId: string
  /** The raw body, exactly as received. */
  readonly body: string
}

/**
 * An inbox entry. Times are epoch milliseconds: of the database's clock on PostgreSQL, of the
 * Effect Clock elsewhere. On PostgreSQL a held entry's `nextAttemptAt` is the end of its lease.
 *
 * @example
 * import type { WebhookInbox } from "@shoplink/connector-runtime"
 * const isDue = (entry: WebhookInbox.InboxEntry, now: number) =>
 *   entry.status === "pending" && entry.nextAttemptAt <= now
 *
 * @since 0.1.0
 */
export interface InboxEntry extends Delivery {
  readonly id: string
  readonly status: EntryStatus
  readonly attempts: number
  readonly lastError: string | undefined
  readonly receivedAt: number
  readonly nextAttemptAt: number
  readonly appliedAt: number | undefined
}

/**
 * The inbox could not be read or written.
 *
 * @example
 * import { WebhookInbox } from "@shoplink/connector-runtime"
 * new WebhookInbox.InboxError({ reason: "disk I/O error" })
 *
 * @since 0.1.0
 */
export class InboxError extends Schema.TaggedError<InboxError>()("InboxError", { reason: Schema.String }) {}

/**
 * No entry has that id.
 *
 * @example
 * import { WebhookInbox } from "@shoplink/connector-runtime"
 * new WebhookInbox.EntryNotFound({ id: "4b1c" })
 *
 * @since 0.1.0
 */
export class EntryNotFound extends Schema.TaggedError<EntryNotFound>()("EntryNotFound", { id: Schema.String }) {}

/**
 * The entry is not a dead letter (only dead letters are discarded).
 *
 * @example
 * import { WebhookInbox } from "@shoplink/connector-runtime"
 * new WebhookInbox.EntryNotDead({ id: "4b1c", status: "pending" })
 *
 * @since 0.1.0
 */
export class EntryNotDead extends Schema.TaggedError<EntryNotDead>()("EntryNotDead", {
  id: Schema.String,
  status: Schema.Literal("pending", "applied", "dead")
}) {}

/**
 * What `purge` removes: the bodies of entries applied before `clearBodiesAppliedBefore`, and
 * whole entries applied before `deleteAppliedBefore` (epoch milliseconds). Pending and dead
 * entries are never touched.
 *
 * @example
 * import type { WebhookInbox } from "@shoplink/connector-runtime"
 * const day = 86_400_000
 * const cutoffs = (now: number): WebhookInbox.PurgeCutoffs => ({
 *   clearBodiesAppliedBefore: now - 30 * day,
 *   deleteAppliedBefore: now - 90 * day
 * })
 *
 * @since 0.1.0
 */
export interface PurgeCutoffs {
  readonly clearBodiesAppliedBefore: number
  readonly deleteAppliedBefore: number
}

/**
 * What `purge` did.
 *
 * @example
 * import type { WebhookInbox } from "@shoplink/connector-runtime"
 * const report = (r: WebhookInbox.PurgeResult) => `${r.bodiesCleared} bodies cleared, ${r.deleted} entries deleted`
 *
 * @since 0.1.0
 */
export interface PurgeResult {
  readonly bodiesCleared: number
  readonly deleted: number
}

/**
 * The backlog: how many entries are pending and when the oldest of them was received.
 *
 * @example
 * import type { WebhookInbox } from "@shoplink/connector-runtime"
 * const ageMillis = (b: WebhookInbox.Backlog, now: number) =>
 *   b.oldestReceivedAt === undefined ? 0 : now - b.oldestReceivedAt
 *
 * @since 0.1.0
 */
export interface Backlog {
  readonly size: number
  readonly oldestReceivedAt: number | undefined
}

/**
 * The inbox's operations.
 *
 * @example
 * import type { WebhookInbox } from "@shoplink/connector-runtime"
 * const pendingCount = (inbox: WebhookInbox.Operations) => inbox.list({ status: "pending" })
 *
 * @since 0.1.0
 */
export interface Operations {
  /** Stores a delivery unless one with the same content key exists; says which happened. */
  readonly receive: (
    delivery: Delivery
  ) => Effect.Effect<{ readonly entry: InboxEntry; readonly duplicate: boolean }, InboxError>
  /**
   * Claims entries to apply now for this inbox instance (the worker's one fetcher calls it), oldest
   * first: for each repair order, its oldest pending entry, if its next attempt is due and nobody
   * holds it — this instance included: an entry it already holds is never handed out again until
   * it is marked or released. A repair order whose oldest pending entry is held or waits for a
   * retry has none: its later entries wait behind it. At most `limit` entries. On PostgreSQL the
   * claim is a lease on the database's clock (see `layerSqlWith`); elsewhere (one process) the
   * instance remembers what it holds.
   */
  readonly claim: (limit: number) => Effect.Effect<ReadonlyArray<InboxEntry>, InboxError>
  /**
   * Extends the leases of claimed entries still being applied (PostgreSQL; elsewhere a no-op) and
   * answers those this instance still holds: an entry missing from the answer was taken over by
   * another process (its lease ran out) or settled.
   */
  readonly heartbeat: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>, InboxError>
  /** Hands claimed entries back without an attempt (a worker stopping): due again at once. */
  readonly release: (ids: ReadonlyArray<string>) => Effect.Effect<void, InboxError>
  /**
   * Records the entry as applied and releases it; answers whether that counted. With leases
   * (PostgreSQL) it counts only while the entry is pending and no other process holds it: a mark
   * from a worker that lost its lease is refused (`false`, with a warning) and the new holder
   * applies the entry again.
   */
  readonly markApplied: (id: string) => Effect.Effect<boolean, InboxError>
  /**
   * Records a failed attempt and releases the entry: retry after `retryIn` (on the database's clock
   * on PostgreSQL), or dead-letter when it is undefined. Answers whether it counted, as `markApplied`.
   */
  readonly markFailed: (
    id: string,
    failure: { readonly error: string; readonly retryIn: Duration.DurationInput | undefined }
  ) => Effect.Effect<boolean, InboxError>
  /** Puts a dead (or any) entry back in line now, with its attempt count reset. */
  readonly replay: (id: string) => Effect.Effect<InboxEntry, InboxError | EntryNotFound>
  /** Deletes a dead letter for good: it will not be applied. */
  readonly discard: (id: string) => Effect.Effect<void, InboxError | EntryNotFound | EntryNotDead>
  readonly get: (id: string) => Effect.Effect<InboxEntry, InboxError | EntryNotFound>
  /** Entries oldest first, optionally only those of a status, a repair order, or received since a time. */
  readonly list: (filter?: ListFilter) => Effect.Effect<ReadonlyArray<InboxEntry>, InboxError>
  /**
   * One page of entries, newest first, by keyset on (`receivedAt`, `id`): each page costs the same
   * however many entries there are (the console's indexes of migration 5 on SQL). Pass the page's
   * `next` as `after` for the following one.
   */
  readonly page: (query: PageQuery) => Effect.Effect<Page, InboxError>
  /** Clears the bodies of old applied entries (the body becomes `""`) and deletes older ones. */
  readonly purge: (cutoffs: PurgeCutoffs) => Effect.Effect<PurgeResult, InboxError>
  /** How many entries are pending, and the oldest one's receipt time. */
  readonly backlog: Effect.Effect<Backlog, InboxError>
  /**
   * Emits when an entry may have become due sooner than the next poll (a new entry was stored,
   * or one replayed, possibly by another process), so a worker can look at once. Optional: absent, a worker polls
   * only. A hint, never a guarantee — a worker still polls, and the stream never fails (an
   * implementation logs its own trouble and retries). `layerSql` feeds it from this instance's own
   * receives and, on PostgreSQL, from LISTEN on channel `shoplink_inbox` over a connection of its
   * own that reconnects with backoff after any error (see `wakeupsListening`).
   */
  readonly wakeups?: Stream.Stream<void>
  /**
   * Whether the wake-ups from other processes are flowing: `false` while the PostgreSQL LISTEN
   * connection is down (the worker polls meanwhile; readiness reports it as degraded). Absent
   * where there is no such connection.
   */
  readonly wakeupsListening?: Effect.Effect<boolean>
  /**
   * How long a claim lasts without a heartbeat, where claims are leases (PostgreSQL). A worker
   * beats at least three times per lease.
   */
  readonly lease?: Duration.Duration
}

/**
 * Which entries `list` returns (all conditions given must hold).
 *
 * @example
 * import type { WebhookInbox } from "@shoplink/connector-runtime"
 * const recent: WebhookInbox.ListFilter = { shopId: "shop_1", repairOrderId: "ro_8f2", receivedSince: 0 }
 *
 * @since 0.1.0
 */
export interface ListFilter {
  readonly status?: EntryStatus
  readonly shopId?: string
  readonly repairOrderId?: string
  /** Epoch milliseconds; entries received at or after it. */
  readonly receivedSince?: number
}

/**
 * Which page `page` answers: the filter (all conditions given must hold), how many entries at most
 * (1 to 500), and where the previous page ended.
 *
 * @example
 * import type { WebhookInbox } from "@shoplink/connector-runtime"
 * const retrying: WebhookInbox.PageQuery = { status: "pending", retrying: true, shopId: "shop_1", limit: 50 }
 *
 * @since 0.1.0
 */
export interface PageQuery {
  readonly status?: EntryStatus
  /** With `status: "pending"`: `true` only entries that failed at least once, `false` only those never tried. */
  readonly retrying?: boolean
  readonly shopId?: string
  /** Needs `shopId` (a repair order id is the shop's own). */
  readonly repairOrderId?: string
  readonly limit: number
  /** The `next` of the previous page: entries received before it (or at its time with a smaller id). */
  readonly after?: PageCursor
}

/**
 * Where a page ended: its last entry's receipt time and id.
 *
 * @example
 * import type { WebhookInbox } from "@shoplink/connector-runtime"
 * const cursor: WebhookInbox.PageCursor = { receivedAt: 1767225600000, id: "9a1c6f0e-3d0b-4c61-9d0e-2f6b1f8e4a11" }
 *
 * @since 0.1.0
 */
export interface PageCursor {
  readonly receivedAt: number
  readonly id: string
}

/**
 * A page of entries, newest first, and the cursor of the next one (absent on the last page).
 *
 * @example
 * import type { WebhookInbox } from "@shoplink/connector-runtime"
 * const ids = (page: WebhookInbox.Page) => page.entries.map((entry) => entry.id)
 *
 * @since 0.1.0
 */
export interface Page {
  readonly entries: ReadonlyArray<InboxEntry>
  readonly next: PageCursor | undefined
}

const statusLiteral = (status: EntryStatus): EntryStatus =>
  status === "applied" ? "applied" : status === "dead" ? "dead" : "pending"

const pageLimit = (limit: number) => Math.max(1, Math.min(500, Math.floor(Number.isFinite(limit) ? limit : 50)))

const matchesPage = (query: PageQuery) => (e: InboxEntry) =>
  (query.status === undefined || e.status === query.status) &&
  (query.retrying === undefined || (query.retrying ? e.attempts > 0 : e.attempts === 0)) &&
  (query.shopId === undefined || e.shopId === query.shopId) &&
  (query.repairOrderId === undefined || e.repairOrderId === query.repairOrderId) &&
  (query.after === undefined || e.receivedAt < query.after.receivedAt ||
    (e.receivedAt === query.after.receivedAt && e.id < query.after.id))

const toPage = (rows: ReadonlyArray<InboxEntry>, limit: number): Page => {
  const entries = rows.slice(0, limit)
  const last = entries.at(-1)
  return {
    entries,
    next: rows.length > limit && last !== undefined ? { receivedAt: last.receivedAt, id: last.id } : undefined
  }
}

const matches = (filter: ListFilter | undefined) => (e: InboxEntry) =>
  (filter?.status === undefined || e.status === filter.status) &&
  (filter?.shopId === undefined || e.shopId === filter.shopId) &&
  (filter?.repairOrderId === undefined || e.repairOrderId === filter.repairOrderId) &&
  (filter?.receivedSince === undefined || e.receivedAt >= filter.receivedSince)

/**
 * The service tag.
 *
 * @example
 * import { Effect } from "effect"
 * import { WebhookInbox } from "@shoplink/connector-runtime"
 * const deadLetters = Effect.flatMap(WebhookInbox.WebhookInbox, (inbox) => inbox.list({ status: "dead" }))
 *
 * @since 0.1.0
 */
export class WebhookInbox extends Context.Tag("@shoplink/connector-runtime/WebhookInbox")<WebhookInbox, Operations>() {}

const repairOrderKey = (entry: { readonly shopId: string; readonly repairOrderId: string }) =>
  `${entry.shopId}\u0000${entry.repairOrderId}`

// Fields spelled out: on Node 20 `{ ...delivery, id, … }` costs microseconds per delivery.
const newEntry = (delivery: Delivery, now: number): InboxEntry => ({
  kind: delivery.kind,
  contentKey: delivery.contentKey,
  shopId: delivery.shopId,
  repairOrderId: delivery.repairOrderId,
  body: delivery.body,
  id: crypto.randomUUID(),
  status: "pending",
  attempts: 0,
  lastError: undefined,
  receivedAt: now,
  nextAttemptAt: now,
  appliedAt: undefined
})

/**
 * An in-memory inbox (state lives as long as the layer).
 *
 * @example
 * import { WebhookInbox } from "@shoplink/connector-runtime"
 * const layer = WebhookInbox.layerMemory
 *
 * @since 0.1.0
 */
export const layerMemory: Layer.Layer<WebhookInbox> = Layer.effect(
  WebhookInbox,
  Effect.gen(function*() {
    const entries = yield* Ref.make(new Map<string, InboxEntry>())
    const find = (id: string) =>
      Ref.get(entries).pipe(
        Effect.flatMap((map) => Option.fromNullable(map.get(id))),
        Effect.catchTag("NoSuchElementException", () => new EntryNotFound({ id }))
      )
    const update = (id: string, f: (entry: InboxEntry) => InboxEntry) =>
      Ref.update(entries, (map) => {
        const entry = map.get(id)
        return entry === undefined ? map : new Map(map).set(id, f(entry))
      })
    // What this instance's worker holds (claimed, not yet marked or released).
    const held = new Set<string>()
    // A mark counts while the entry is pending (one process: nobody else can hold it).
    const settle = (id: string, f: (entry: InboxEntry) => InboxEntry) =>
      Ref.modify(entries, (map): readonly [boolean, Map<string, InboxEntry>] => {
        held.delete(id)
        const entry = map.get(id)
        return entry === undefined || entry.status !== "pending" ? [false, map] : [true, new Map(map).set(id, f(entry))]
      })
    return WebhookInbox.of({
      receive: (delivery) =>
        Effect.flatMap(
          Clock.currentTimeMillis,
          (now) =>
            Ref.modify(
              entries,
              (
                map
              ): readonly [{ readonly entry: InboxEntry; readonly duplicate: boolean }, Map<string, InboxEntry>] => {
                for (const entry of map.values()) {
                  if (entry.contentKey === delivery.contentKey) return [{ entry, duplicate: true }, map]
                }
                const entry = newEntry(delivery, now)
                return [{ entry, duplicate: false }, new Map(map).set(entry.id, entry)]
              }
            )
        ),
      claim: (limit) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Ref.get(entries).pipe(Effect.map((map) => {
            // The sort is stable: entries received in the same millisecond keep their order.
            const pending = [...map.values()].filter((e) => e.status === "pending").sort((a, b) =>
              a.receivedAt - b.receivedAt
            )
            const seen = new Set<string>()
            const heads: Array<InboxEntry> = []
            for (const entry of pending) {
              if (heads.length >= limit) break
              const ro = repairOrderKey(entry)
              if (seen.has(ro)) continue
              seen.add(ro)
              if (entry.nextAttemptAt <= now && !held.has(entry.id)) heads.push(entry)
            }
            for (const entry of heads) held.add(entry.id)
            return heads
          }))),
      heartbeat: (ids) => Effect.sync(() => ids.filter((id) => held.has(id))),
      release: (ids) => Effect.sync(() => ids.forEach((id) => held.delete(id))),
      markApplied: (id) =>
        Effect.flatMap(
          Clock.currentTimeMillis,
          (now) =>
            settle(
              id,
              (e) => ({ ...e, status: "applied", attempts: e.attempts + 1, appliedAt: now, lastError: undefined })
            )
        ),
      markFailed: (id, { error, retryIn }) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          settle(id, (e) => ({
            ...e,
            attempts: e.attempts + 1,
            lastError: error,
            status: retryIn === undefined ? "dead" : "pending",
            nextAttemptAt: retryIn === undefined ? e.nextAttemptAt : now + Duration.toMillis(Duration.decode(retryIn))
          }))),
      replay: (id) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const entry = yield* find(id)
          const replayed: InboxEntry = { ...entry, status: "pending", attempts: 0, nextAttemptAt: now }
          yield* update(id, () => replayed)
          return replayed
        }),
      discard: (id) =>
        Effect.flatMap(find(id), (entry) =>
          entry.status !== "dead"
            ? Effect.fail(new EntryNotDead({ id, status: entry.status }))
            : Ref.update(entries, (map) => {
              const next = new Map(map)
              next.delete(id)
              return next
            })),
      get: find,
      list: (filter) =>
        Ref.get(entries).pipe(Effect.map((map) =>
          [...map.values()]
            .filter(matches(filter))
            .sort((a, b) => a.receivedAt - b.receivedAt)
        )),
      page: (query) =>
        Ref.get(entries).pipe(Effect.map((map) => {
          const limit = pageLimit(query.limit)
          const rows = [...map.values()]
            .filter(matchesPage(query))
            .sort((a, b) => b.receivedAt - a.receivedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
          return toPage(rows.slice(0, limit + 1), limit)
        })),
      purge: ({ clearBodiesAppliedBefore, deleteAppliedBefore }) =>
        Ref.modify(entries, (map): readonly [PurgeResult, Map<string, InboxEntry>] => {
          let bodiesCleared = 0
          let deleted = 0
          const next = new Map<string, InboxEntry>()
          for (const [id, entry] of map) {
            if (entry.status !== "applied" || entry.appliedAt === undefined) next.set(id, entry)
            else if (entry.appliedAt < deleteAppliedBefore) deleted++
            else if (entry.appliedAt < clearBodiesAppliedBefore && entry.body !== "") {
              bodiesCleared++
              next.set(id, { ...entry, body: "" })
            } else next.set(id, entry)
          }
          return [{ bodiesCleared, deleted }, next]
        }),
      backlog: Ref.get(entries).pipe(Effect.map((map) => {
        let size = 0
        let oldestReceivedAt: number | undefined
        for (const entry of map.values()) {
          if (entry.status !== "pending") continue
          size++
          if (oldestReceivedAt === undefined || entry.receivedAt < oldestReceivedAt) oldestReceivedAt = entry.receivedAt
        }
        return { size, oldestReceivedAt }
      }))
    })
  })
)

const Row = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("order", "quote"),
  content_key: Schema.String,
  shop_id: Schema.String,
  repair_order_id: Schema.String,
  body: Schema.String,
  status: Schema.Literal("pending", "applied", "dead"),
  attempts: Schema.Number,
  last_error: Schema.NullOr(Schema.String),
  received_at: Schema.Number,
  next_attempt_at: Schema.Number,
  applied_at: Schema.NullOr(Schema.Number)
})

const fromRow = (row: typeof Row.Type): InboxEntry => ({
  id: row.id,
  kind: row.kind,
  contentKey: row.content_key,
  shopId: row.shop_id,
  repairOrderId: row.repair_order_id,
  body: row.body,
  status: row.status,
  attempts: row.attempts,
  lastError: row.last_error ?? undefined,
  receivedAt: row.received_at,
  nextAttemptAt: row.next_attempt_at,
  appliedAt: row.applied_at ?? undefined
})

// SqlError's message is generic ("Failed to execute statement"); the driver's reason is in its cause.
const inboxError = (error: { readonly message: string; readonly cause?: unknown }) =>
  new InboxError({
    reason: error.cause instanceof Error && error.cause.message !== ""
      ? `${error.message}: ${error.cause.message}`
      : error.message
  })
// The worker reads a few rows per apply: rows of the expected shape are taken as they are (a check
// per field, no decoder), anything else goes through the Schema for its exact error.
const decodeRowsStrictly = Schema.decodeUnknown(Schema.Array(Row))
const isRow = (u: unknown): u is typeof Row.Type => {
  if (typeof u !== "object" || u === null) return false
  const r = u as Record<string, unknown>
  return typeof r["id"] === "string" && (r["kind"] === "order" || r["kind"] === "quote") &&
    typeof r["content_key"] === "string" &&
    typeof r["shop_id"] === "string" && typeof r["repair_order_id"] === "string" && typeof r["body"] === "string" &&
    (r["status"] === "pending" || r["status"] === "applied" || r["status"] === "dead") &&
    typeof r["attempts"] === "number" &&
    (r["last_error"] === null || typeof r["last_error"] === "string") && typeof r["received_at"] === "number" &&
    typeof r["next_attempt_at"] === "number" && (r["applied_at"] === null || typeof r["applied_at"] === "number")
}
const decodeRows = (rows: unknown) =>
  Array.isArray(rows) && rows.every(isRow)
    ? Effect.succeed(rows as ReadonlyArray<typeof Row.Type>)
    : decodeRowsStrictly(rows)

/** Rows a purge statement touches at most. */
const PURGE_CHUNK = 500

/** The PostgreSQL channel notified (on commit) when a receive stored a new entry, or a replay put one back in line. */
const WAKEUP_CHANNEL = "shoplink_inbox"

/**
 * Settings of `layerSqlWith`.
 *
 * @example
 * import type { WebhookInbox } from "@shoplink/connector-runtime"
 * const options: WebhookInbox.SqlOptions = { lease: "5 minutes" }
 *
 * @since 0.1.0
 */
export interface SqlOptions {
  /**
   * PostgreSQL: how long a claim lasts without a heartbeat (default 30 seconds), on the
   * database's clock. The worker extends the leases of entries still being applied every
   * `InboxWorker.Options.heartbeatInterval` (5 seconds by default), so a slow apply keeps its
   * entry; a process that stops (killed, frozen, cut off) loses its entries this long after its
   * last heartbeat, and another process takes them over. SQLite (one process) ignores it.
   */
  readonly lease?: Duration.DurationInput
  /**
   * PostgreSQL: the longest a `receive` waits for the database (default 5 seconds, as SQLite's
   * busy retries): a lock held on the table or an exhausted pool then fails the receive with an
   * `InboxError` (the receiver answers 503) and its statement is cancelled.
   */
  readonly receiveTimeout?: Duration.DurationInput
}

type SqlFailure = { readonly message: string; readonly cause?: unknown }
type Received = { readonly entry: InboxEntry; readonly duplicate: boolean }

// What both dialects share; the statements that differ are built per dialect below.
interface Dialect {
  readonly run: <A>(statement: Effect.Effect<A, SqlFailure>) => Effect.Effect<A, InboxError>
  readonly select: (
    rows: Effect.Effect<ReadonlyArray<unknown>, SqlFailure>
  ) => Effect.Effect<ReadonlyArray<InboxEntry>, InboxError>
  /** Receipt order (SQLite: time, then rowid; PostgreSQL: the identity column). */
  readonly order: Statement.Fragment
  /** A row's cheapest key, for the purge's chunked statements. */
  readonly rowKey: Statement.Fragment
  /** Tells the workers an entry is due now (after a replay). */
  readonly wakeWorkers: Effect.Effect<void, InboxError>
  /** The next attempt time of a replayed entry. */
  readonly replayNextAttempt: Effect.Effect<Statement.Fragment>
}

const sharedOperations = (
  sql: SqlClient.SqlClient,
  { order, replayNextAttempt, rowKey, run, select, wakeWorkers }: Dialect
) => {
  const get = (id: string) =>
    select(sql`SELECT * FROM shoplink_inbox WHERE id = ${id}`).pipe(
      Effect.flatMap((rows) => rows[0] === undefined ? Effect.fail(new EntryNotFound({ id })) : Effect.succeed(rows[0]))
    )
  const inChunks = (statement: () => Effect.Effect<ReadonlyArray<unknown>, SqlFailure>) =>
    Effect.gen(function*() {
      let total = 0
      while (true) {
        const rows = yield* run(statement())
        total += rows.length
        if (rows.length < PURGE_CHUNK) return total
        yield* Effect.yieldNow()
      }
    })
  return {
    get,
    replay: (id: string) =>
      Effect.gen(function*() {
        yield* get(id)
        const next = yield* replayNextAttempt
        yield* run(
          sql`UPDATE shoplink_inbox SET status = 'pending', attempts = 0, next_attempt_at = ${next} WHERE id = ${id}`
        )
        yield* wakeWorkers
        return yield* get(id)
      }),
    discard: (id: string) =>
      Effect.gen(function*() {
        const deleted = yield* run(sql`DELETE FROM shoplink_inbox WHERE id = ${id} AND status = 'dead' RETURNING id`)
        if (deleted.length > 0) return
        const entry = yield* get(id)
        return yield* new EntryNotDead({ id, status: entry.status })
      }),
    list: (filter?: ListFilter) =>
      Effect.gen(function*() {
        const conditions = [
          filter?.status === undefined ? undefined : sql`status = ${filter.status}`,
          filter?.shopId === undefined ? undefined : sql`shop_id = ${filter.shopId}`,
          filter?.repairOrderId === undefined ? undefined : sql`repair_order_id = ${filter.repairOrderId}`,
          filter?.receivedSince === undefined ? undefined : sql`received_at >= ${filter.receivedSince}`
        ].filter((c) => c !== undefined)
        return yield* select(sql`SELECT * FROM shoplink_inbox WHERE ${sql.and(conditions)} ORDER BY ${order}`)
      }),
    // Newest first on (received_at, id): each filter has an index of migration 5 in that order
    // (all, each status, a shop, a repair order), so a page reads from the cursor on, never the
    // whole backlog. The status is written as a literal (one of three): a partial index is used
    // only for a condition the planner can see.
    page: (query: PageQuery) =>
      Effect.gen(function*() {
        const limit = pageLimit(query.limit)
        const conditions = [
          query.status === undefined ? undefined : sql`status = ${sql.literal(`'${statusLiteral(query.status)}'`)}`,
          query.retrying === undefined ? undefined : query.retrying ? sql`attempts > 0` : sql`attempts = 0`,
          query.shopId === undefined ? undefined : sql`shop_id = ${query.shopId}`,
          query.repairOrderId === undefined ? undefined : sql`repair_order_id = ${query.repairOrderId}`,
          query.after === undefined
            ? undefined
            : sql`(received_at, id) < (${query.after.receivedAt}, ${query.after.id})`
        ].filter((c) => c !== undefined)
        const rows = yield* select(sql`SELECT * FROM shoplink_inbox WHERE ${sql.and(conditions)}
          ORDER BY received_at DESC, id DESC LIMIT ${limit + 1}`)
        return toPage(rows, limit)
      }),
    // In chunks, each its own short statement: a purge of a large backlog never holds the
    // write lock (or, SQLite being synchronous, the event loop) for long.
    purge: ({ clearBodiesAppliedBefore, deleteAppliedBefore }: PurgeCutoffs) =>
      Effect.gen(function*() {
        const deleted = yield* inChunks(() =>
          sql`DELETE FROM shoplink_inbox WHERE ${rowKey} IN (
                SELECT ${rowKey} FROM shoplink_inbox WHERE status = 'applied' AND applied_at < ${deleteAppliedBefore} LIMIT ${PURGE_CHUNK})
              RETURNING id`
        )
        const bodiesCleared = yield* inChunks(() =>
          sql`UPDATE shoplink_inbox SET body = '' WHERE ${rowKey} IN (
                SELECT ${rowKey} FROM shoplink_inbox
                WHERE status = 'applied' AND body <> '' AND applied_at < ${clearBodiesAppliedBefore} LIMIT ${PURGE_CHUNK})
              RETURNING id`
        )
        return { bodiesCleared, deleted }
      }),
    // PostgreSQL answers COUNT and MIN of a BIGINT as strings.
    backlog: run(
      sql<
        { readonly size: number | string; readonly oldest: number | string | null }
      >`SELECT COUNT(*) AS size, MIN(received_at) AS oldest
        FROM shoplink_inbox WHERE status = 'pending'`
    ).pipe(Effect.map((rows): Backlog => {
      const oldest = rows[0]?.oldest ?? null
      return { size: Number(rows[0]?.size ?? 0), oldestReceivedAt: oldest === null ? undefined : Number(oldest) }
    }))
  }
}

// ---------------------------------------------------------------------------------------------
// SQLite: one process. Group-committed receives; `claim` remembers what it handed out in memory.
// ---------------------------------------------------------------------------------------------

/** Group-commit batches up to this many rows are one INSERT (SQLite commits it atomically). */
const SINGLE_STATEMENT_ROWS = 16

const makeSqlite = (
  sql: SqlClient.SqlClient,
  wakeupsEnabled: boolean
): Effect.Effect<Operations, InboxError, Scope.Scope> =>
  Effect.gen(function*() {
    // The schema is the migrations' (see Migrations); the busy timeout is this connection's.
    yield* shortenBusyTimeout(sql)

    // Receives (and replays) of this process wake its worker at once.
    const local = wakeupsEnabled ? localWakeups() : undefined
    // Every statement retries while another connection holds the lock (see internal/sqliteBusy).
    const run = <A>(statement: Effect.Effect<A, SqlFailure>) => statement.pipe(retryBusy, Effect.mapError(inboxError))
    const select = (rows: Effect.Effect<ReadonlyArray<unknown>, SqlFailure>) =>
      rows.pipe(retryBusy, Effect.flatMap(decodeRows), Effect.map((rs) => rs.map(fromRow)), Effect.mapError(inboxError))
    const shared = sharedOperations(sql, {
      run,
      select,
      order: sql.literal("received_at, rowid"),
      rowKey: sql.literal("rowid"),
      wakeWorkers: Effect.sync(() => local?.signal()),
      replayNextAttempt: Effect.map(Clock.currentTimeMillis, (now) => sql`${now}`)
    })

    // What this instance's worker holds (claimed, not yet marked or released): one process, so
    // memory is enough.
    const held = new Set<string>()
    const mark = (id: string, statement: Effect.Effect<ReadonlyArray<unknown>, SqlFailure>) =>
      Effect.map(run(statement.pipe(Effect.ensuring(Effect.sync(() => held.delete(id))))), (rows) => rows.length > 0)
    const columns =
      "(id, kind, content_key, shop_id, repair_order_id, body, status, attempts, last_error, received_at, next_attempt_at, applied_at)"
    const insertText = (rows: number) =>
      `INSERT INTO shoplink_inbox ${columns} VALUES ${
        Array(rows).fill("(?, ?, ?, ?, ?, ?, 'pending', 0, NULL, ?, ?, NULL)").join(", ")
      }
       ON CONFLICT (content_key) DO NOTHING RETURNING content_key`
    // Batches of up to SINGLE_STATEMENT_ROWS are one statement of their exact size; larger ones are
    // cut into power-of-two chunks in a transaction. Either way only a few dozen statement texts
    // ever reach the client's prepared-statement cache (200 by default).
    const chunkSizes = [64, 32, 16, 8, 4, 2, 1]
    const insertBatch = (entries: ReadonlyArray<InboxEntry>, exact: boolean) =>
      Effect.gen(function*() {
        const inserted = new Set<string>()
        let offset = 0
        while (offset < entries.length) {
          const size = exact ? entries.length : chunkSizes.find((n) => n <= entries.length - offset)!
          const chunk = entries.slice(offset, offset + size)
          offset += size
          const rows = yield* sql.unsafe<{ readonly content_key: string }>(
            insertText(size),
            chunk.flatMap((
              e
            ) => [e.id, e.kind, e.contentKey, e.shopId, e.repairOrderId, e.body, e.receivedAt, e.nextAttemptAt])
          )
          for (const row of rows) inserted.add(row.content_key)
        }
        // A key that did not insert was stored before; a key repeated within the batch inserted
        // once, for its first delivery.
        const firstByKey = new Map<string, InboxEntry>()
        for (const entry of entries) if (!firstByKey.has(entry.contentKey)) firstByKey.set(entry.contentKey, entry)
        const conflicted = [...firstByKey.keys()].filter((key) => !inserted.has(key))
        const existing = new Map<string, InboxEntry>()
        if (conflicted.length > 0) {
          const rows = yield* decodeRows(
            yield* sql`SELECT * FROM shoplink_inbox WHERE ${sql.in("content_key", conflicted)}`
          )
          for (const row of rows) existing.set(row.content_key, fromRow(row))
        }
        return yield* Effect.forEach(entries, (entry): Effect.Effect<Received, { readonly message: string }> => {
          if (inserted.has(entry.contentKey)) {
            const first = firstByKey.get(entry.contentKey)!
            return Effect.succeed(first === entry ? { entry, duplicate: false } : { entry: first, duplicate: true })
          }
          const stored = existing.get(entry.contentKey)
          return stored === undefined
            ? Effect.fail({ message: `insert of ${entry.contentKey} conflicted but no entry was found` })
            : Effect.succeed({ entry: stored, duplicate: true })
        })
      })

    // The group-commit writer. Deliveries queue in memory; one flush per turn of the event loop
    // (setImmediate runs after every socket read of that turn) writes all of them in one
    // transaction, so a burst costs one disk sync, and each caller resumes only after the commit.
    type Waiting = {
      readonly entry: InboxEntry
      readonly resume: (result: Effect.Effect<Received, InboxError>) => void
    }
    const runtime = yield* Effect.runtime<never>()
    let waiting: Array<Waiting> = []
    let flushing = false
    let scheduled = false
    let closed = false
    const schedule = () => {
      if (scheduled || flushing || waiting.length === 0) return
      scheduled = true
      setImmediate(flush)
    }
    const flush = () => {
      scheduled = false
      const batch = waiting.slice(0, 256)
      waiting = waiting.slice(batch.length)
      flushing = true
      const entries = batch.map((w) => w.entry)
      // A batch that fits one statement is written by that statement alone: SQLite commits it
      // atomically (one sync), without the BEGIN and COMMIT round trips of a transaction.
      const write = entries.length <= SINGLE_STATEMENT_ROWS
        ? insertBatch(entries, true)
        : sql.withTransaction(insertBatch(entries, false))
      Runtime.runCallback(runtime)(retryBusy(write), {
        onExit: (exit) => {
          flushing = false
          if (Exit.isSuccess(exit)) {
            batch.forEach((w, i) => w.resume(Effect.succeed(exit.value[i]!)))
            local?.signal()
          } else {
            const failure = Cause.failureOption(exit.cause)
            const error = Option.isSome(failure)
              ? inboxError(failure.value)
              : new InboxError({ reason: Cause.pretty(exit.cause) })
            batch.forEach((w) => w.resume(Effect.fail(error)))
          }
          schedule()
        }
      })
    }
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        closed = true
        const left = waiting
        waiting = []
        left.forEach((w) => w.resume(Effect.fail(new InboxError({ reason: "the inbox was closed" }))))
      })
    )

    return WebhookInbox.of({
      ...shared,
      receive: (delivery) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.async<Received, InboxError>((resume) => {
            if (closed) return resume(Effect.fail(new InboxError({ reason: "the inbox was closed" })))
            const waiter: Waiting = { entry: newEntry(delivery, now), resume }
            waiting.push(waiter)
            schedule()
            // An interrupted caller leaves the queue; once its batch is in flight it is stored
            // anyway, and the sender's retry is then answered as a duplicate.
            return Effect.sync(() => {
              waiting = waiting.filter((w) => w !== waiter)
            })
          })),
      ...(local === undefined ? {} : { wakeups: local.stream }),
      // The head of each repair order's line (no earlier pending entry of the same repair order),
      // if due and not held by this instance, oldest first: the pending indexes walk the backlog in
      // order and find each entry's predecessor. One process: due times are this process's clock.
      claim: (limit) =>
        Effect.gen(function*() {
          if (limit <= 0) return []
          const now = yield* Clock.currentTimeMillis
          const rows = yield* select(sql`SELECT * FROM shoplink_inbox AS i
                     WHERE i.status = 'pending' AND i.next_attempt_at <= ${now}
                       AND NOT EXISTS (
                         SELECT 1 FROM shoplink_inbox AS p
                         WHERE p.status = 'pending' AND p.shop_id = i.shop_id AND p.repair_order_id = i.repair_order_id
                           AND p.received_at <= i.received_at AND (p.received_at < i.received_at OR p.rowid < i.rowid))
                     ORDER BY i.received_at, i.rowid LIMIT ${limit + held.size}`)
          const claimed = rows.filter((e) => !held.has(e.id)).slice(0, limit)
          for (const entry of claimed) held.add(entry.id)
          return claimed
        }),
      heartbeat: (ids) => Effect.sync(() => ids.filter((id) => held.has(id))),
      release: (ids) => Effect.sync(() => ids.forEach((id) => held.delete(id))),
      markApplied: (id) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          mark(
            id,
            sql`UPDATE shoplink_inbox SET status = 'applied', attempts = attempts + 1, applied_at = ${now}, last_error = NULL
              WHERE id = ${id} AND status = 'pending' RETURNING id`
          )),
      markFailed: (id, { error, retryIn }) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          mark(
            id,
            retryIn === undefined
              ? sql`UPDATE shoplink_inbox SET status = 'dead', attempts = attempts + 1, last_error = ${error}
                  WHERE id = ${id} AND status = 'pending' RETURNING id`
              : sql`UPDATE shoplink_inbox SET attempts = attempts + 1, last_error = ${error},
                  next_attempt_at = ${now + Duration.toMillis(Duration.decode(retryIn))}
                  WHERE id = ${id} AND status = 'pending' RETURNING id`
          ))
    })
  })

// ---------------------------------------------------------------------------------------------
// PostgreSQL: several processes on one database. `claim` leases entries on the database clock.
// ---------------------------------------------------------------------------------------------

// pg hands BIGINT columns over as strings (they may not fit a double); inbox times are epoch
// milliseconds, far below 2^53, so Number() is exact. Anything else is left for the decoder to reject.
const bigints = ["received_at", "next_attempt_at", "applied_at", "seq", "lease_until"] as const
const normalizePgRow = (row: unknown): unknown => {
  if (typeof row !== "object" || row === null) return row
  const r = row as Record<string, unknown>
  for (const column of bigints) {
    const value = r[column]
    if (typeof value === "string" && /^-?\d+$/.test(value)) r[column] = Number(value)
  }
  return r
}

/** What PgClient adds to SqlClient that the inbox uses (no import: @effect/sql-pg is an optional peer). */
interface PgConfigured {
  readonly config: PgConnectionConfig
}
const hasPgConfig = (sql: SqlClient.SqlClient): sql is SqlClient.SqlClient & PgConfigured =>
  typeof (sql as Partial<PgConfigured>).config === "object" && (sql as Partial<PgConfigured>).config !== null

/** Settles coalesced into one statement, at most. */
const SETTLE_BATCH = 256

/**
 * Calls of `one` made in the same turn of the event loop run as one call of `many` (one statement),
 * one batch in flight at a time; each caller resumes with its own answer.
 */
const batched = <I, O>(
  runtime: Runtime.Runtime<never>,
  many: (items: ReadonlyArray<I>) => Effect.Effect<ReadonlyArray<O>, InboxError>
) => {
  type Waiting = { readonly item: I; readonly resume: (result: Effect.Effect<O, InboxError>) => void }
  let waiting: Array<Waiting> = []
  let flushing = false
  let scheduled = false
  const schedule = () => {
    if (scheduled || flushing || waiting.length === 0) return
    scheduled = true
    setImmediate(flush)
  }
  const flush = () => {
    scheduled = false
    const batch = waiting.slice(0, SETTLE_BATCH)
    waiting = waiting.slice(batch.length)
    flushing = true
    Runtime.runCallback(runtime)(many(batch.map((w) => w.item)), {
      onExit: (exit) => {
        flushing = false
        if (Exit.isSuccess(exit)) batch.forEach((w, i) => w.resume(Effect.succeed(exit.value[i]!)))
        else {
          const failure = Cause.failureOption(exit.cause)
          const error = Option.isSome(failure) ? failure.value : new InboxError({ reason: Cause.pretty(exit.cause) })
          batch.forEach((w) => w.resume(Effect.fail(error)))
        }
        schedule()
      }
    })
  }
  // Once in a batch, a settle is written even if its caller was interrupted meanwhile.
  return (item: I): Effect.Effect<O, InboxError> =>
    Effect.async<O, InboxError>((resume) => {
      waiting.push({ item, resume })
      schedule()
    })
}

type Settlement =
  | { readonly id: string; readonly status: "applied" }
  | {
    readonly id: string
    readonly status: "pending" | "dead"
    readonly error: string
    readonly delayMillis: number | null
  }

const makePg = (sql: SqlClient.SqlClient, options: PgOptions): Effect.Effect<Operations, InboxError, Scope.Scope> =>
  Effect.gen(function*() {
    const { leaseMillis, receiveTimeout } = options
    // Whose leases these are: one id per layer instance (one per process, in practice).
    const owner = crypto.randomUUID()
    const run = <A>(statement: Effect.Effect<A, SqlFailure>) => Effect.mapError(statement, inboxError)
    const decode = (rows: ReadonlyArray<unknown>) =>
      decodeRows(rows.map(normalizePgRow)).pipe(Effect.map((rs) => rs.map(fromRow)), Effect.mapError(inboxError))
    const select = (rows: Effect.Effect<ReadonlyArray<unknown>, SqlFailure>) => Effect.flatMap(run(rows), decode)
    // Every time is the database's: epoch milliseconds of now() (the transaction's start; each of
    // these statements is its own transaction). No process's clock is read or compared.
    const now = sql.literal("(EXTRACT(EPOCH FROM now()) * 1000)::bigint")
    const runtime = yield* Effect.runtime<never>()

    // Wake-ups: LISTEN over a connection of our own (when the client says how to connect), and this
    // process's own receives directly. Other processes are told by one NOTIFY at a time: receives
    // that commit while one is on its way share the next (never one NOTIFY per delivery).
    const listener = hasPgConfig(sql) ? yield* makeListener(sql.config, WAKEUP_CHANNEL) : undefined
    const local = listener === undefined ? localWakeups() : undefined
    const signalLocal = listener?.signal ?? local!.signal
    let notifying = false
    let notifyAgain = false
    const notify = (): void => {
      if (notifying) {
        notifyAgain = true
        return
      }
      notifying = true
      Runtime.runCallback(runtime)(Effect.ignore(sql`SELECT pg_notify(${WAKEUP_CHANNEL}, '1')`), {
        onExit: () => {
          notifying = false
          if (notifyAgain) {
            notifyAgain = false
            notify()
          }
        }
      })
    }
    const wakeWorkers = Effect.sync(() => {
      signalLocal()
      notify()
    })
    const shared = sharedOperations(sql, {
      run,
      select,
      order: sql.literal("seq"),
      rowKey: sql.literal("id"),
      wakeWorkers,
      // A replayed entry someone holds keeps its lease (it is being applied); otherwise due now.
      replayNextAttempt: Effect.succeed(
        sql`CASE WHEN status = 'pending' AND lease_owner IS NOT NULL THEN next_attempt_at ELSE ${now} END`
      )
    })

    // Said in the marking fiber (its logger, its annotations), not in the batch's.
    const refusedUnlessCounted = (id: string) => (counted: boolean) =>
      counted ?
        Effect.void :
        Effect.logWarning("inbox entry not marked: another worker holds its lease, or it is no longer pending").pipe(
          Effect.annotateLogs({ entryId: id }),
          Effect.zipRight(Metric.increment(metrics.markRefused))
        )

    // One statement settles a batch: only entries still pending and held by this instance (or by
    // nobody) change; the others' ids are missing from the answer, and their marks refused.
    const settleMany = (items: ReadonlyArray<Settlement>): Effect.Effect<ReadonlyArray<boolean>, InboxError> =>
      Effect.gen(function*() {
        // Driven by the primary key (`id = ANY`): each row finds its settlement by position.
        const at = sql`array_position(${items.map((s) => s.id)}::text[], i.id)`
        const rows = yield* run(sql<{ readonly id: string }>`UPDATE shoplink_inbox AS i SET
              status = (${items.map((s) => s.status)}::text[])[${at}],
              attempts = i.attempts + 1,
              last_error = (${items.map((s) => (s.status === "applied" ? null : s.error))}::text[])[${at}],
              applied_at = CASE WHEN (${
          items.map((s) => s.status)
        }::text[])[${at}] = 'applied' THEN ${now} ELSE i.applied_at END,
              next_attempt_at = COALESCE(${now} + (${
          items.map((s) => (s.status === "applied" ? null : s.delayMillis))
        }::bigint[])[${at}],
                                         i.next_attempt_at),
              lease_owner = NULL, lease_until = NULL
            WHERE i.id = ANY(${items.map((s) => s.id)}::text[]) AND i.status = 'pending'
              AND (i.lease_owner IS NULL OR i.lease_owner = ${owner})
            RETURNING i.id`)
        const counted = new Set(rows.map((r) => r.id))
        return items.map((s) => counted.has(s.id))
      })
    const settle = batched(runtime, settleMany)

    // Hands claims back when the layer closes (after the worker stopped), so another process
    // need not wait for the leases to run out.
    const releaseAll = sql`UPDATE shoplink_inbox SET lease_owner = NULL, lease_until = NULL, next_attempt_at = ${now}
      WHERE lease_owner = ${owner} AND status = 'pending'`
    yield* Effect.addFinalizer(() => releaseAll.pipe(Effect.timeoutOption("2 seconds"), Effect.ignore))

    const timeoutMessage = `the database did not answer within ${Duration.format(receiveTimeout)}`
    const timeoutMillis = Duration.toMillis(receiveTimeout)
    // `Effect.timeoutFail` (a race with a sleeping fiber) cost about 140 µs of CPU per receive; this
    // is one fiber (the caller's context, so its span and logs) and one timer. At the deadline the
    // fiber is interrupted, which cancels the statement, and the caller fails with InboxError.
    const bounded = <A>(effect: Effect.Effect<A, InboxError>): Effect.Effect<A, InboxError> =>
      Effect.flatMap(Effect.runtime<never>(), (caller) =>
        Effect.async<A, InboxError>((resume) => {
          let done = false
          const finish = (result: Effect.Effect<A, InboxError>) => {
            if (done) return
            done = true
            clearTimeout(timer)
            resume(result)
          }
          const cancel = Runtime.runCallback(caller)(effect, { onExit: finish })
          const timer = setTimeout(() => {
            if (done) return
            cancel()
            finish(Effect.fail(new InboxError({ reason: timeoutMessage })))
          }, timeoutMillis)
          return Effect.sync(() => {
            if (done) return
            done = true
            clearTimeout(timer)
            cancel()
          })
        }))
    return WebhookInbox.of({
      ...shared,
      wakeups: listener?.stream ?? local!.stream,
      lease: Duration.millis(leaseMillis),
      ...(listener === undefined ? {} : { wakeupsListening: listener.listening }),
      // One statement, so committed before it returns. A receive waits for the database at most
      // `receiveTimeout` (a lock held on the table, a full pool): then it is interrupted (the
      // statement cancelled) and fails, and the receiver answers 503 so the sender retries.
      receive: (delivery) =>
        Effect.gen(function*() {
          const entry = newEntry(delivery, 0)
          const inserted = yield* run(sql<{ readonly received_at: string | number }>`INSERT INTO shoplink_inbox
              (id, kind, content_key, shop_id, repair_order_id, body, status, attempts, received_at, next_attempt_at)
              VALUES (${entry.id}, ${entry.kind}, ${entry.contentKey}, ${entry.shopId}, ${entry.repairOrderId}, ${entry.body},
                      'pending', 0, ${now}, ${now})
              ON CONFLICT (content_key) DO NOTHING RETURNING received_at`)
          if (inserted.length > 0) {
            const at = Number(inserted[0]!.received_at)
            yield* wakeWorkers
            return { entry: { ...entry, receivedAt: at, nextAttemptAt: at }, duplicate: false }
          }
          const stored = yield* select(sql`SELECT * FROM shoplink_inbox WHERE content_key = ${entry.contentKey}`)
          return stored[0] === undefined
            ? yield* new InboxError({ reason: `insert of ${entry.contentKey} conflicted but no entry was found` })
            : { entry: stored[0], duplicate: true }
        }).pipe(bounded),
      // Claims due heads (the oldest pending entry of a repair order: `is_head`, kept by triggers)
      // straight from the partial index `shoplink_inbox_claim` (next_attempt_at, seq), oldest due
      // first; SKIP LOCKED passes over rows another process is claiming right now. The lease is on
      // the database's clock and moves `next_attempt_at` to its end: a held entry is not due again
      // (for anyone, this instance included) until its lease runs out without a heartbeat.
      // One call of the function migration 6 creates (its plan keeps to that walk and stops after
      // `limit` heads, whatever the table's size).
      claim: (limit) =>
        limit <= 0 ? Effect.succeed([]) : Effect.gen(function*() {
          const rows = yield* run(sql`SELECT * FROM shoplink_inbox_claim(${limit}, ${owner}, ${leaseMillis})`)
          // RETURNING follows no ORDER BY.
          const sorted = rows.map(normalizePgRow).sort((a, b) =>
            (a as { seq: number }).seq - (b as { seq: number }).seq
          )
          return yield* decode(sorted)
        }),
      heartbeat: (ids) =>
        ids.length === 0 ? Effect.succeed([]) : run(sql<{ readonly id: string }>`UPDATE shoplink_inbox
            SET lease_until = ${now} + ${leaseMillis}, next_attempt_at = ${now} + ${leaseMillis}
            WHERE id = ANY(${ids}::text[]) AND status = 'pending' AND lease_owner = ${owner}
            RETURNING id`).pipe(Effect.map((rows) => rows.map((r) => r.id))),
      release: (ids) =>
        ids.length === 0 ? Effect.void : run(sql`UPDATE shoplink_inbox
            SET lease_owner = NULL, lease_until = NULL, next_attempt_at = ${now}
            WHERE id = ANY(${ids}::text[]) AND status = 'pending' AND lease_owner = ${owner}`).pipe(
          Effect.zipRight(wakeWorkers)
        ),
      markApplied: (id) => Effect.tap(settle({ id, status: "applied" }), refusedUnlessCounted(id)),
      markFailed: (id, { error, retryIn }) =>
        settle(
          retryIn === undefined
            ? { id, status: "dead", error, delayMillis: null }
            : {
              id,
              status: "pending",
              error,
              delayMillis: Math.max(0, Math.round(Duration.toMillis(Duration.decode(retryIn))))
            }
        ).pipe(Effect.tap(refusedUnlessCounted(id)))
    })
  })

interface PgOptions {
  readonly leaseMillis: number
  readonly receiveTimeout: Duration.Duration
}

/**
 * An inbox in the `shoplink_inbox` table of the `SqlClient` in context (see `Migrations`), on
 * SQLite or PostgreSQL. The content key is UNIQUE, so two receivers racing on one delivery still
 * store it once. `layerSql` is this with the default lease.
 *
 * **SQLite** (one process). Receives are group-committed: deliveries arriving together are
 * inserted in one transaction (one disk sync), and each `receive` completes only after that
 * transaction has committed — so the receiver still answers 2xx only for what is durably stored.
 * Due times are this process's Effect Clock (one process), and what its worker holds is kept in
 * memory. It sets the connection's `busy_timeout` to 50 ms (for every store on that connection) and
 * retries a statement that finds the database locked by another connection on an Effect
 * schedule, for up to 5 seconds: a lock held elsewhere never holds the event loop for long.
 *
 * **PostgreSQL** (several processes on one database). Each receive is one committed statement,
 * waiting for the database at most `receiveTimeout` (5 seconds; then `InboxError`, a 503). It wakes
 * this process's worker directly and the other processes through `NOTIFY shoplink_inbox`, at most
 * one in flight (receives committing meanwhile share the next); `wakeups` listens on a connection
 * of its own that reconnects with backoff (`wakeupsListening` says whether it is up). Every time
 * is the database's `now()`. `claim` takes due heads (the oldest pending entry of each repair
 * order, `is_head`, kept by triggers) from a partial index, `FOR UPDATE SKIP LOCKED`, leased to
 * this layer instance for `lease`; `heartbeat` extends the leases. While a repair order's oldest
 * pending entry is held, none of its later entries can be claimed, so each repair order is still
 * applied in order across processes. `markApplied` and `markFailed` (batched into one statement per
 * turn of the event loop) count only while no other instance holds the entry (else they log a
 * warning and answer `false`), and release it. An expired lease (a killed process) makes the entry
 * claimable again. Closing the layer releases its leases.
 *
 * @example
 * import type { SqlClient } from "@effect/sql"
 * import { Layer } from "effect"
 * import { WebhookInbox } from "@shoplink/connector-runtime"
 * declare const database: Layer.Layer<SqlClient.SqlClient>
 * const layer = WebhookInbox.layerSqlWith({ lease: "5 minutes" }).pipe(Layer.provide(database))
 *
 * @since 0.1.0
 */
export const layerSqlWith = (options: SqlOptions = {}): Layer.Layer<WebhookInbox, InboxError, SqlClient.SqlClient> =>
  Layer.scoped(
    WebhookInbox,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Effect.mapError(runMigrations, inboxError)
      return yield* sql.onDialectOrElse({
        pg: () =>
          makePg(sql, {
            leaseMillis: Math.max(1, Math.round(Duration.toMillis(Duration.decode(options.lease ?? "30 seconds")))),
            receiveTimeout: Duration.decode(options.receiveTimeout ?? "5 seconds")
          }),
        orElse: () => makeSqlite(sql, true)
      })
    })
  )

/**
 * `layerSqlWith()`: an inbox in the `shoplink_inbox` table of the `SqlClient` in context, on
 * SQLite or PostgreSQL, with the default lease of 30 seconds (see `layerSqlWith`).
 *
 * @example
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Layer } from "effect"
 * import { WebhookInbox } from "@shoplink/connector-runtime"
 * const layer = WebhookInbox.layerSql.pipe(Layer.provide(SqliteClient.layer({ filename: "shoplink.db" })))
 *
 * @since 0.1.0
 */
export const layerSql: Layer.Layer<WebhookInbox, InboxError, SqlClient.SqlClient> = layerSqlWith()
