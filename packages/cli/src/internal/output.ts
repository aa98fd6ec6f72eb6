// Terminal output: tables for people, JSON for scripts, a spinner on stderr only when it is a TTY
// (so piped output and tests see clean text).
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import { ExitCode, exitCodeOf } from "../ExitCode.js"
import { SETTINGS } from "./settingsTable.js"

export const out = (line: string): Effect.Effect<void> => Effect.sync(() => process.stdout.write(`${line}\n`))
export const err = (line: string): Effect.Effect<void> => Effect.sync(() => process.stderr.write(`${line}\n`))

export const json = (value: unknown): Effect.Effect<void> => out(JSON.stringify(value, null, 2))

export type Cell = string | number | boolean | undefined | null

const cell = (value: Cell): string => (value === undefined || value === null ? "" : String(value))

/** Left-aligned columns separated by two spaces; numbers right-aligned. */
export const table = (headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<Cell>>): string => {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => cell(r[i]).length)))
  const isNumber = (v: Cell) => typeof v === "number" || (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v))
  // Quantities and amounts read best right-aligned; IDs that look numeric stay in a mixed column.
  const numeric = headers.map((_, i) =>
    rows.length > 0 && rows.every((r) => isNumber(r[i]) || r[i] === "" || r[i] === undefined) &&
    rows.some((r) => typeof r[i] === "number" || /\./.test(String(r[i])))
  )
  const line = (values: ReadonlyArray<string>) =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd()
  return [
    line(headers),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map((r) => line(headers.map((_, i) => cell(r[i]))))
  ]
    .join("\n")
}

/** Key/value lines, keys padded. */
export const fields = (pairs: ReadonlyArray<readonly [string, Cell]>): string => {
  const width = Math.max(...pairs.map(([k]) => k.length))
  return pairs.map(([k, v]) => `${k.padEnd(width)}  ${cell(v)}`).join("\n")
}

export const money = (value: number | undefined): string => (value === undefined ? "" : value.toFixed(2))

const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

/** Runs `effect` with a spinner on stderr when stderr is a terminal; nothing otherwise. */
export const withSpinner = (label: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  if (process.stderr.isTTY !== true) return effect
  return Effect.acquireUseRelease(
    Effect.sync(() => {
      let i = 0
      return setInterval(() => {
        process.stderr.write(`\r${frames[i++ % frames.length]} ${label}`)
      }, 80)
    }),
    () => effect,
    (timer) =>
      Effect.sync(() => {
        clearInterval(timer)
        process.stderr.write(`\r${" ".repeat(label.length + 2)}\r`)
      })
  )
}

const hasString = (u: unknown, key: string): string | undefined =>
  typeof u === "object" && u !== null && key in u && typeof (u as Record<string, unknown>)[key] === "string"
    ? (u as Record<string, string>)[key]
    : undefined

// The connector stores' errors carry no fix of their own.
const fixByTag: Readonly<Record<string, string>> = {
  ShopExists: "pass --replace to replace its details and secrets",
  ShopNotFound: "`shoplink shops list` shows the shops in this database",
  ApiKeyNotFound: "`shoplink keys list` shows the keys in this database"
}

const fixFor = (error: unknown, code: number): string | undefined => {
  const fix = hasString(error, "fix")
  if (fix !== undefined) return fix
  // A client's hint names the credentials that call used (masked) and what to check.
  const hint = hasString(error, "hint")
  if (hint !== undefined) return hint
  if (hasString(error, "_tag") === "DropShipAddressRejected") {
    return typeof error === "object" && error !== null && "recommendedAddress" in error &&
        error.recommendedAddress !== undefined
      ? "rerun with --accept-recommendation to ship to the recommended address, or correct --ship-to"
      : "correct the address in --ship-to"
  }
  if (ConfigError.isConfigError(error)) return "set each variable named above (`shoplink doctor` checks them all)"
  const byTag = fixByTag[hasString(error, "_tag") ?? ""]
  if (byTag !== undefined) return byTag
  switch (code) {
    case ExitCode.Auth:
      return "check the vendor key, OMS key and customer token (`shoplink doctor` checks each)"
    case ExitCode.Transport:
      return "check the base URL and your network (`shoplink doctor` tries each API)"
    default:
      return undefined
  }
}

const settingByEnv = new Map(Object.values(SETTINGS).map((d) => [d.env, d]))

/**
 * One line per problem in an Effect `ConfigError` (an And/Or tree of MissingData, InvalidData, …),
 * naming the variable and what it is for. Invalid secrets are reported without their message, which
 * may quote the value.
 */
export const configErrorLines = (error: ConfigError.ConfigError): ReadonlyArray<string> => {
  const lines = ConfigError.reduceWithContext(error, undefined, {
    andCase: (_, left: ReadonlyArray<string>, right: ReadonlyArray<string>) => [...left, ...right],
    orCase: (_, left: ReadonlyArray<string>, right: ReadonlyArray<string>) => [...left, ...right],
    missingDataCase: (_, path) => [`${name(path)} is missing`],
    invalidDataCase: (
      _,
      path,
      message
    ) => [`${name(path)} is invalid${settingByEnv.get(path.join("_"))?.secret === true ? "" : `: ${message}`}`],
    sourceUnavailableCase: (_, path, message) => [`${name(path)} could not be read: ${message}`],
    unsupportedCase: (_, path, message) => [`${name(path)} is not supported: ${message}`]
  })
  return [...new Set(lines)]
}

const name = (path: ReadonlyArray<string>): string => {
  const env = path.join("_")
  const definition = settingByEnv.get(env)
  return definition === undefined ? env : `${env} (${definition.description})`
}

/** What `describeError` reports: JSON with `--json`, else a line, its problems and its fix. */
export interface Described {
  readonly exitCode: number
  readonly tag: string
  readonly id?: string
  readonly message: string
  readonly problems?: ReadonlyArray<string>
  readonly fix?: string
}

/** A one-line summary of any failure, never including secrets (clients already redact theirs). */
export const describeError = (error: unknown): Described => {
  const code = exitCodeOf(error)
  const tag = hasString(error, "_tag") ?? "Error"
  const fix = fixFor(error, code)
  const withFix = fix !== undefined ? { fix } : {}
  if (ConfigError.isConfigError(error)) {
    const problems = configErrorLines(error)
    const message = problems.length === 1 ? problems[0]! : `${problems.length} settings are missing or invalid`
    return { exitCode: code, tag, message, ...(problems.length > 1 ? { problems } : {}), ...withFix }
  }
  const problems =
    typeof error === "object" && error !== null && "problems" in error && Array.isArray(error.problems) &&
      error.problems.length > 1
      ? { problems: error.problems as ReadonlyArray<string> }
      : {}
  const id = code === ExitCode.Auth || code === ExitCode.Distributor ? hasString(error, "code") : undefined
  const full = error instanceof Error || hasString(error, "message") !== undefined
    ? String((error as { message: unknown }).message)
    : String(error)
  // The hint is the fix line; the message keeps what happened.
  const hint = hasString(error, "hint")
  const message = hint !== undefined && full.endsWith(` — ${hint}`) ? full.slice(0, -(hint.length + 3)) : full
  // Message errors repeat their ID in front of the text; the ID has its own field.
  if (id !== undefined && message.startsWith(`${id}: `)) {
    return { exitCode: code, tag, id, message: message.slice(id.length + 2), ...withFix }
  }
  // Schema parse trees end with the rule that failed; that line is what a person needs.
  const lines = message.split("\n")
  if (lines.length > 1) {
    const last = lines[lines.length - 1]!.replace(/^[\s└├─│]+/, "")
    return { exitCode: code, tag, ...(id !== undefined ? { id } : {}), message: last, ...problems, ...withFix }
  }
  return { exitCode: code, tag, ...(id !== undefined ? { id } : {}), message, ...problems, ...withFix }
}

/** Prints the failure to stderr (JSON when asked) and returns the exit code. */
export const reportError = (error: unknown, asJson: boolean): Effect.Effect<number> => {
  const d = describeError(error)
  if (asJson) return Effect.as(err(JSON.stringify({ error: d })), d.exitCode)
  const head = d.id !== undefined ? `error ${d.id} (${d.tag}): ${d.message}` : `error (${d.tag}): ${d.message}`
  const lines = [head, ...(d.problems ?? []).map((p) => `  ${p}`), ...(d.fix !== undefined ? [`  fix: ${d.fix}`] : [])]
  return Effect.as(err(lines.join("\n")), d.exitCode)
}
