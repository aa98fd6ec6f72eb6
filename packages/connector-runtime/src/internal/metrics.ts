// The runtime's metrics, defined once: the receiver and the worker update them, and the exporters
// (OpenTelemetry, the Prometheus text endpoint) read them from Effect's metric registry.
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"

/** Deliveries accepted (stored before the 2xx), by kind. */
export const received = Metric.counter("shoplink_deliveries_received_total", {
  description: "Webhook deliveries stored in the inbox",
  incremental: true
})

/** Deliveries acknowledged as duplicates of a stored one. */
export const duplicate = Metric.counter("shoplink_deliveries_duplicate_total", {
  description: "Webhook deliveries acknowledged as duplicates",
  incremental: true
})

/** Entries applied to the shop system. */
export const applied = Metric.counter("shoplink_deliveries_applied_total", {
  description: "Inbox entries applied to the shop system",
  incremental: true
})

/** Failed applies that will be tried again. */
export const retried = Metric.counter("shoplink_deliveries_retried_total", {
  description: "Inbox entries whose apply failed and will be retried",
  incremental: true
})

/** Entries given up on (dead letters). */
export const dead = Metric.counter("shoplink_deliveries_dead_total", {
  description: "Inbox entries dead-lettered",
  incremental: true
})

/** Pending entries (the backlog). */
export const backlogSize = Metric.gauge("shoplink_inbox_backlog", {
  description: "Inbox entries waiting to be applied"
})

/** Age of the oldest pending entry, in seconds. */
export const backlogOldestAge = Metric.gauge("shoplink_inbox_backlog_oldest_age_seconds", {
  description: "Age of the oldest inbox entry waiting to be applied"
})

/** How long each shop-system call took, in seconds, by operation. */
export const smsCallDuration = Metric.histogram(
  "shoplink_sms_call_duration_seconds",
  MetricBoundaries.fromIterable([0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]),
  "Duration of shop-system calls"
)

/** Times the inbox's LISTEN connection (PostgreSQL wake-ups) was lost or could not be opened. */
export const listenLost = Metric.counter("shoplink_inbox_listen_lost_total", {
  description: "Times the inbox's LISTEN connection was lost (the worker polls until it is back)",
  incremental: true
})

/** Times the inbox's LISTEN connection came back after a loss. */
export const listenRecovered = Metric.counter("shoplink_inbox_listen_recovered_total", {
  description: "Times the inbox's LISTEN connection recovered after a loss",
  incremental: true
})

/** 1 while the inbox's LISTEN connection is up, 0 while it is down. */
export const listenUp = Metric.gauge("shoplink_inbox_listen_up", {
  description: "Whether the inbox's LISTEN connection is up"
})

/** Marks refused because the worker had lost the entry's lease (another process holds it). */
export const markRefused = Metric.counter("shoplink_inbox_marks_refused_total", {
  description: "Inbox marks refused because the worker no longer held the entry's lease",
  incremental: true
})

/** Writes not made because the lease could not be confirmed right before them (a frozen worker woke). */
export const writesFenced = Metric.counter("shoplink_inbox_writes_fenced_total", {
  description: "Inbox entries not written because the worker could not confirm its lease right before the write",
  incremental: true
})

/** Adapter defects (a throw, a die) contained as an entry's failed attempt. */
export const defects = Metric.counter("shoplink_inbox_apply_defects_total", {
  description: "Adapter defects (throws, dies, interruptions) recorded as failed attempts",
  incremental: true
})

/** SMS repair-order webhooks, by outcome: the state recorded, or why none was. */
export const smsEvents = Metric.counter("shoplink_sms_events_total", {
  description:
    "SMS repair-order webhook events: the state recorded (open, closed, deleted) or refused, undecodable, unavailable",
  incremental: true
})
