// SQLite locks without blocking the event loop. better-sqlite3 is synchronous: while SQLite waits
// for a lock another connection (another process) holds, the whole event loop waits with it, up to
// the connection's busy timeout (5 s by default). The stores that write on the hot path (the inbox,
// the launch registry) lower that wait to BUSY_TIMEOUT_MILLIS and retry a statement that still
// finds the database locked on an Effect Schedule, which sleeps without holding the event loop.
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"

/** How long one attempt may wait for a lock inside SQLite (and so hold the event loop). */
const BUSY_TIMEOUT_MILLIS = 50

/** How long a statement keeps retrying a locked database before its error surfaces. */
const BUSY_RETRY_BUDGET = Duration.seconds(5)

/**
 * Sets the connection's busy timeout to BUSY_TIMEOUT_MILLIS (SQLite only; other dialects have no
 * such wait). It is a property of the connection: every store on it sees the shorter wait.
 */
export const shortenBusyTimeout = (sql: SqlClient.SqlClient): Effect.Effect<void> =>
  sql.onDialectOrElse({
    sqlite: () => Effect.ignore(sql.unsafe(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MILLIS}`)),
    orElse: () => Effect.void
  })

/** Whether a failure is SQLite saying the database (or a table) is locked by someone else. */
export const isBusy = (error: unknown): boolean => {
  const cause = typeof error === "object" && error !== null && "cause" in error
    ? (error as { readonly cause: unknown }).cause
    : error
  const code = typeof cause === "object" && cause !== null && "code" in cause
    ? (cause as { readonly code: unknown }).code
    : undefined
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
}

/** 10 ms, doubling, at most 200 ms between attempts, jittered; given up after the budget. */
export const busySchedule = Schedule.exponential("10 millis").pipe(
  Schedule.union(Schedule.spaced("200 millis")),
  Schedule.jittered,
  Schedule.upTo(BUSY_RETRY_BUDGET)
)

/** Retries `effect` while it fails because the database is locked (see `isBusy`). */
export const retryBusy = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.retry(effect, { schedule: busySchedule, while: isBusy })
