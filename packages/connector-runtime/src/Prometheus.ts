/**
 * Effect's metric registry as Prometheus text (exposition format 0.0.4), which the runtime serves
 * at `GET /metrics`.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import type * as MetricPair from "effect/MetricPair"
import * as MetricState from "effect/MetricState"
import * as Option from "effect/Option"

const metricName = (name: string) => {
  const cleaned = name.replace(/[^a-zA-Z0-9_:]/g, "_")
  return /^[a-zA-Z_:]/.test(cleaned) ? cleaned : `_${cleaned}`
}
const labelName = (name: string) => {
  const cleaned = name.replace(/[^a-zA-Z0-9_]/g, "_")
  return /^[a-zA-Z_]/.test(cleaned) ? cleaned : `_${cleaned}`
}
const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, "\\\"").replace(/\n/g, "\\n")
const escapeHelp = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")
const number = (value: number | bigint) => {
  if (typeof value === "bigint") return value.toString()
  if (Number.isNaN(value)) return "NaN"
  if (value === Infinity) return "+Inf"
  if (value === -Infinity) return "-Inf"
  return String(value)
}
const labels = (pairs: ReadonlyArray<readonly [string, string]>) =>
  pairs.length === 0 ? "" : `{${pairs.map(([k, v]) => `${labelName(k)}="${escapeLabel(v)}"`).join(",")}}`

/**
 * Renders metric pairs (`Metric.snapshot`) as Prometheus text (exposition format 0.0.4): counters,
 * gauges, histograms (cumulative `_bucket{le}`, `_sum`, `_count`), summaries and frequencies (a
 * counter labelled `key`). Metric tags become labels.
 *
 * @example
 * import { Effect, Metric } from "effect"
 * import { Prometheus } from "@shoplink/connector-runtime"
 * const text = Effect.map(Metric.snapshot, Prometheus.renderPrometheus)
 *
 * @since 0.1.0
 */
export const renderPrometheus = (pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const families = new Map<string, { type: string; help: string | undefined; lines: Array<string> }>()
  const family = (name: string, type: string, help: Option.Option<string>) => {
    let found = families.get(name)
    if (found === undefined) {
      found = { type, help: Option.getOrUndefined(help), lines: [] }
      families.set(name, found)
    }
    return found
  }
  // Series in a stable order; within a histogram or summary, buckets and quantiles stay in
  // increasing order, as the format requires.
  const sorted = pairs
    .map((pair) => ({
      pair,
      sortKey: `${metricName(pair.metricKey.name)}${labels(pair.metricKey.tags.map((t) => [t.key, t.value] as const))}`
    }))
    .sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0))
  for (const { pair: { metricKey, metricState } } of sorted) {
    const name = metricName(metricKey.name)
    const tags = metricKey.tags.map((tag) => [tag.key, tag.value] as const)
    if (MetricState.isCounterState(metricState)) {
      family(name, "counter", metricKey.description).lines.push(`${name}${labels(tags)} ${number(metricState.count)}`)
    } else if (MetricState.isGaugeState(metricState)) {
      family(name, "gauge", metricKey.description).lines.push(`${name}${labels(tags)} ${number(metricState.value)}`)
    } else if (MetricState.isHistogramState(metricState)) {
      const lines = family(name, "histogram", metricKey.description).lines
      for (const [boundary, count] of metricState.buckets) {
        lines.push(`${name}_bucket${labels([...tags, ["le", number(boundary)]])} ${number(count)}`)
      }
      if (!metricState.buckets.some(([boundary]) => boundary === Infinity)) {
        lines.push(`${name}_bucket${labels([...tags, ["le", "+Inf"]])} ${number(metricState.count)}`)
      }
      lines.push(
        `${name}_sum${labels(tags)} ${number(metricState.sum)}`,
        `${name}_count${labels(tags)} ${number(metricState.count)}`
      )
    } else if (MetricState.isSummaryState(metricState)) {
      const lines = family(name, "summary", metricKey.description).lines
      for (const [quantile, value] of metricState.quantiles) {
        if (Option.isSome(value)) {
          lines.push(`${name}${labels([...tags, ["quantile", String(quantile)]])} ${number(value.value)}`)
        }
      }
      lines.push(
        `${name}_sum${labels(tags)} ${number(metricState.sum)}`,
        `${name}_count${labels(tags)} ${number(metricState.count)}`
      )
    } else if (MetricState.isFrequencyState(metricState)) {
      const lines = family(name, "counter", metricKey.description).lines
      for (const [key, count] of metricState.occurrences) {
        lines.push(`${name}${labels([...tags, ["key", key]])} ${number(count)}`)
      }
    }
  }
  const out: Array<string> = []
  for (const [name, { help, lines, type }] of families) {
    if (help !== undefined && help !== "") out.push(`# HELP ${name} ${escapeHelp(help)}`)
    out.push(`# TYPE ${name} ${type}`, ...lines)
  }
  return out.length === 0 ? "" : `${out.join("\n")}\n`
}

/**
 * Effect's metric registry (every `Metric` the process updated: the runtime's
 * `shoplink_deliveries_*_total` counters, backlog gauges and shop-system call histogram, and any
 * of the application's) as Prometheus text. The runtime serves it at `GET /metrics` in its
 * `adminRouter`.
 *
 * @example
 * import { Effect } from "effect"
 * import { Prometheus } from "@shoplink/connector-runtime"
 * const print = Effect.flatMap(Prometheus.prometheus, (text) => Effect.sync(() => process.stdout.write(text)))
 *
 * @since 0.1.0
 */
export const prometheus: Effect.Effect<string> = Effect.map(Metric.snapshot, renderPrometheus)
