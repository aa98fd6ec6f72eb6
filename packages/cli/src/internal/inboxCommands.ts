// `shoplink inbox list | show | replay | discard`: the connector service's webhook inbox, in its
// database. Dead letters are deliveries the worker gave up on; replay puts one back in line (the
// running service applies it), discard deletes it for good.
import type { WebhookInbox } from "@shoplink/connector-runtime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { EntryNotDead, EntryNotFound, LocalFailure, UsageError } from "./errors.js"
import { err, fields, json, out, table } from "./output.js"
import { iso, type Service, service, withInbox } from "./service.js"
import type * as Spec from "./spec.js"

// ---------------------------------------------------------------------------------------------
// Redaction. A body is the distributor's webhook JSON and holds no secret of ours; still, anything
// that looks like a credential is masked before it reaches a terminal or a log.

const REDACTED = "<redacted>"

/** Object keys whose values are credentials, whatever their shape. */
const secretKey = /token|secret|passw(or)?d|api[-_]?key|authori[sz]ation|signature|credential|cookie|session/i

/** Credentials inside free text: URL parameters, auth headers, JWTs, Shoplink API keys. */
const secretText: ReadonlyArray<readonly [RegExp, string]> = [
  [/([?&;](?:[\w.-]*(?:token|key|secret|signature|sig|password|auth|session)[\w.-]*)=)[^&#\s"']+/gi, `$1${REDACTED}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
  [/\bslk_[a-z0-9]+_[A-Za-z0-9_-]{16,}/g, REDACTED],
  [
    /("?(?:[\w-]*(?:token|secret|password|api[-_]?key)[\w-]*)"?\s*[:=]\s*"?)(?!<redacted>)[^\s",}&;]{4,}/gi,
    `$1${REDACTED}`
  ]
]

/** `text` with anything token-like masked. */
export const redactText = (text: string): string =>
  secretText.reduce((acc, [pattern, replacement]) => acc.replace(pattern, replacement), text)

/** A JSON value with the values of credential-named keys, and credentials in strings, masked. */
export const redactJson = (value: unknown): unknown => {
  if (typeof value === "string") return redactText(value)
  if (Array.isArray(value)) return value.map(redactJson)
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map((
        [key, v]
      ) => [key, secretKey.test(key) && v !== null && v !== "" ? REDACTED : redactJson(v)])
    )
  }
  return value
}

/**
 * The body for display: parsed and redacted when it is JSON, else the redacted text. Retention
 * empties the bodies of entries applied long ago.
 */
const bodyOf = (body: string): { readonly json: boolean; readonly value: unknown } => {
  if (body === "") return { json: false, value: "" }
  try {
    return { json: true, value: redactJson(JSON.parse(body)) }
  } catch {
    return { json: false, value: redactText(body) }
  }
}

// ---------------------------------------------------------------------------------------------
// Shapes

/** An entry as `--json` prints it: instants as ISO-8601, absent values as null. */
const entryJson = (entry: WebhookInbox.InboxEntry) => ({
  id: entry.id,
  kind: entry.kind,
  shopId: entry.shopId,
  repairOrderId: entry.repairOrderId,
  status: entry.status,
  attempts: entry.attempts,
  lastError: entry.lastError === undefined ? null : redactText(entry.lastError),
  receivedAt: iso(entry.receivedAt),
  nextAttemptAt: entry.status === "pending" ? iso(entry.nextAttemptAt) : null,
  appliedAt: entry.appliedAt === undefined ? null : iso(entry.appliedAt),
  contentKey: entry.contentKey
})

const withBody = (entry: WebhookInbox.InboxEntry) => ({ ...entryJson(entry), body: bodyOf(entry.body).value })

/** The table's lines stay under 100 columns. */
const WIDTH = 99

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim()

/** `text` cut to `width` columns, the cut marked with "…". */
const clip = (
  text: string,
  width: number
) => (text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`)

/** As `list` shows ids: the first 8 characters (commands take them). */
const shortId = (id: string) => id.slice(0, 8)

/** How long ago, as a table shows it (`45s ago`, `12m ago`, `5h ago`, `3d ago`; older: the date). */
const age = (epochMillis: number, now: number) => {
  const seconds = Math.max(0, Math.floor((now - epochMillis) / 1000))
  if (seconds < 60) return `${seconds}s ago`
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`
  if (seconds < 48 * 3600) return `${Math.floor(seconds / 3600)}h ago`
  if (seconds < 60 * 86400) return `${Math.floor(seconds / 86400)}d ago`
  return iso(epochMillis).slice(0, 10)
}

const listTable = (entries: ReadonlyArray<WebhookInbox.InboxEntry>, now: number): string => {
  const headers = ["ID", "KIND", "SHOP", "RO", "STATUS", "ATTEMPTS", "RECEIVED", "LAST ERROR"]
  const rows = entries.map((e) =>
    [
      shortId(e.id),
      e.kind,
      // Identifiers whole (a cut one cannot be typed back); the last error takes what is left.
      e.shopId,
      e.repairOrderId,
      e.status,
      e.attempts,
      age(e.receivedAt, now),
      e.lastError === undefined ? "" : oneLine(redactText(e.lastError))
    ] as const
  )
  // The last error gets what the other columns leave of the line.
  const used = headers.slice(0, -1).reduce(
    (sum, header, i) => sum + Math.max(header.length, ...rows.map((r) => String(r[i]).length)) + 2,
    0
  )
  const room = Math.max(12, WIDTH - used)
  return table(headers, rows.map((r) => [...r.slice(0, -1), clip(r[7], room)]))
}

const details = (entry: WebhookInbox.InboxEntry): string =>
  fields([
    ["entry", entry.id],
    ["kind", `${entry.kind} webhook`],
    ["shop", entry.shopId],
    ["repair order", entry.repairOrderId],
    ["status", entry.status],
    ["attempts", entry.attempts],
    ...(entry.lastError === undefined ? [] : [["last error", redactText(entry.lastError)] as const]),
    ["received", iso(entry.receivedAt)],
    ...(entry.status === "pending" ? [["next attempt", iso(entry.nextAttemptAt)] as const] : []),
    ...(entry.appliedAt === undefined ? [] : [["applied", iso(entry.appliedAt)] as const]),
    ["content key", entry.contentKey]
  ])

// ---------------------------------------------------------------------------------------------
// Entry ids: a UUID, or its first 8+ characters as `list` shows them.

const UUID_SHAPE = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"

/** Whether `id` (lower case) is a UUID or the start of one, at least 8 characters long. */
const isIdOrPrefix = (id: string) =>
  id.length >= 8 && id.length <= UUID_SHAPE.length &&
  [...id].every((c, i) => (UUID_SHAPE[i] === "-" ? c === "-" : /[0-9a-f]/.test(c)))

const listFix = "`shoplink inbox list` shows the entries and their ids"

/** The entry `raw` names, or EntryNotFound (a malformed id, an unknown one, an ambiguous prefix). */
const resolve = (
  inbox: WebhookInbox.Operations,
  raw: string
): Effect.Effect<WebhookInbox.InboxEntry, EntryNotFound | WebhookInbox.InboxError> => {
  const id = raw.trim().toLowerCase()
  if (!isIdOrPrefix(id)) {
    return Effect.fail(
      new EntryNotFound({
        message: `'${
          clip(oneLine(raw), 40)
        }' is not an inbox entry id: ids are UUIDs, e.g. 3f1c2a4e-9b7d-4e21-8c55-0d6f1a2b3c4d (or their first 8+ characters)`,
        fix: listFix
      })
    )
  }
  if (id.length === UUID_SHAPE.length) {
    return inbox.get(id).pipe(
      Effect.catchTag(
        "EntryNotFound",
        () => Effect.fail(new EntryNotFound({ message: `no inbox entry ${id}`, fix: listFix }))
      )
    )
  }
  return Effect.flatMap(inbox.list(), (entries) => {
    const matching = entries.filter((e) => e.id.startsWith(id))
    if (matching.length === 1) return Effect.succeed(matching[0]!)
    return Effect.fail(
      matching.length === 0
        ? new EntryNotFound({ message: `no inbox entry ${id}`, fix: listFix })
        : new EntryNotFound({
          message: `${id} is the start of ${matching.length} entries' ids: ${
            matching.slice(0, 3).map((e) => e.id).join(", ")
          }${matching.length > 3 ? ", …" : ""}`,
          fix: "give more of the id, or all of it"
        })
    )
  })
}

// ---------------------------------------------------------------------------------------------
// Commands

const describeFilter = (filter: WebhookInbox.ListFilter) =>
  [
    filter.status === undefined ? undefined : `status ${filter.status}`,
    filter.shopId === undefined ? undefined : `shop ${filter.shopId}`,
    filter.repairOrderId === undefined ? undefined : `repair order ${filter.repairOrderId}`
  ].filter((s) => s !== undefined).join(", ")

const filterOf = (args: {
  readonly shop: Option.Option<string>
  readonly ro: Option.Option<string>
  readonly status?: Option.Option<WebhookInbox.EntryStatus>
}): WebhookInbox.ListFilter => ({
  ...Option.match(Option.map(args.shop, (s) => s.trim()), { onNone: () => ({}), onSome: (shopId) => ({ shopId }) }),
  ...Option.match(Option.map(args.ro, (s) => s.trim()), {
    onNone: () => ({}),
    onSome: (repairOrderId) => ({ repairOrderId })
  }),
  ...(args.status === undefined
    ? {}
    : Option.match(args.status, { onNone: () => ({}), onSome: (status) => ({ status }) }))
})

export const list = (args: Spec.ArgsOf<typeof Spec.inboxList>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    if (args.limit < 1) {
      return yield* new UsageError({
        message: `--limit: ${args.limit} is not a positive number`,
        fix: "e.g. --limit 50"
      })
    }
    const db = yield* service(args, "existing")
    const filter = filterOf(args)
    const all = yield* withInbox(db, (inbox) => inbox.list(filter))
    // Newest first: dead letters are looked into soon after they happen.
    const shown = all.slice(-args.limit).reverse()
    if (all.length > shown.length) {
      yield* err(`showing the ${shown.length} newest of ${all.length} entries; --limit ${all.length} shows them all`)
    }
    if (args.json) return yield* json(shown.map(entryJson))
    const matching = describeFilter(filter)
    if (shown.length === 0) {
      return yield* out(`no inbox entries${matching === "" ? "" : ` with ${matching}`} in ${db.file}`)
    }
    yield* out(listTable(shown, Date.now()))
  })

export const show = (args: Spec.ArgsOf<typeof Spec.inboxShow>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const db = yield* service(args, "existing")
    const entry = yield* withInbox(db, (inbox) => resolve(inbox, args.id))
    if (args.json) return yield* json(withBody(entry))
    const body = bodyOf(entry.body)
    yield* out(details(entry))
    yield* out("")
    if (entry.body === "") {
      yield* out("body  (none kept: the service's retention clears the bodies of entries applied long ago)")
    } else {
      yield* out(body.json ? "body" : "body (not JSON; as received)")
      yield* out(body.json ? JSON.stringify(body.value, null, 2) : String(body.value))
    }
    if (entry.status === "dead") {
      yield* out("")
      yield* out(`Fix the cause of the last error, then: shoplink inbox replay ${entry.id}`)
    }
  })

const replayOne = (db: Service, args: Spec.ArgsOf<typeof Spec.inboxReplay>, raw: string) =>
  Effect.gen(function*() {
    const { entry, replayed } = yield* withInbox(db, (inbox) =>
      Effect.gen(function*() {
        const entry = yield* resolve(inbox, raw)
        if (entry.status === "pending") return { entry, replayed: false }
        if (entry.status === "applied") {
          return yield* new EntryNotDead({
            message: `inbox entry ${entry.id} was applied${
              entry.appliedAt === undefined ? "" : ` at ${iso(entry.appliedAt)}`
            }: only a dead entry is replayed`,
            fix: "nothing to do: it was applied to the shop system (`shoplink inbox show` shows when)"
          })
        }
        return { entry: yield* inbox.replay(entry.id), replayed: true }
      }))
    if (!args.wait) {
      if (args.json) return yield* json({ replayed, entry: entryJson(entry) })
      return yield* out(
        replayed
          ? `replayed inbox entry ${entry.id} (${entry.kind}, shop ${entry.shopId}, repair order ${entry.repairOrderId}): pending again; the service applies it shortly`
          : `inbox entry ${entry.id} is already pending (${entry.attempts} attempt(s) so far, next at ${
            iso(entry.nextAttemptAt)
          }): nothing to replay`
      )
    }
    if (!args.json) {
      yield* out(
        `${replayed ? "replayed" : "already pending:"} inbox entry ${entry.id}; waiting for the service to apply it…`
      )
    }
    const settled = yield* withInbox(db, (inbox) => followEntry(inbox, entry.id))
    if (args.json) yield* json({ replayed, entry: entryJson(settled) })
    if (settled.status === "applied") {
      if (!args.json) {
        yield* out(
          `applied at ${
            settled.appliedAt === undefined ? "?" : iso(settled.appliedAt)
          } after ${settled.attempts} attempt(s)`
        )
      }
      return
    }
    return yield* new LocalFailure(
      settled.status === "dead"
        ? {
          message: `inbox entry ${settled.id} failed again and is dead: ${
            oneLine(redactText(settled.lastError ?? "no error recorded"))
          }`,
          fix: "fix what the error names, then replay it again"
        }
        : {
          message: `inbox entry ${settled.id} is still pending after ${
            WAIT_LIMIT_SECONDS / 60
          } minutes (${settled.attempts} attempt(s))`,
          fix: "check that the service is running (`/readyz`), then `shoplink inbox show` it"
        }
    )
  })

const WAIT_LIMIT_SECONDS = 300

/** The entry once it is no longer pending, or as it is when the wait limit passes. */
const followEntry = (inbox: WebhookInbox.Operations, id: string) =>
  Effect.gen(function*() {
    const deadline = Date.now() + WAIT_LIMIT_SECONDS * 1000
    while (true) {
      const entry = yield* inbox.get(id)
      if (entry.status !== "pending" || Date.now() >= deadline) return entry
      yield* Effect.sleep("250 millis")
    }
  })

const replayAllDead = (db: Service, args: Spec.ArgsOf<typeof Spec.inboxReplay>) =>
  Effect.gen(function*() {
    const filter: WebhookInbox.ListFilter = { ...filterOf(args), status: "dead" }
    const replayed = yield* withInbox(db, (inbox) =>
      Effect.flatMap(inbox.list(filter), (dead) => Effect.forEach(dead, (entry) => inbox.replay(entry.id))))
    if (args.json) {
      return yield* json({ replayed: replayed.length, entries: replayed.map(entryJson) })
    }
    if (replayed.length === 0) {
      const matching = describeFilter(filterOf(args))
      return yield* out(
        `no dead inbox entries${matching === "" ? "" : ` with ${matching}`} in ${db.file}: nothing to replay`
      )
    }
    yield* out(
      `replayed ${replayed.length} dead inbox entr${
        replayed.length === 1 ? "y" : "ies"
      }: pending again; the service applies them shortly`
    )
    yield* out(
      table(
        ["ID", "KIND", "SHOP", "RO"],
        replayed.map((e) => [e.id, e.kind, clip(e.shopId, 20), clip(e.repairOrderId, 24)])
      )
    )
  })

export const replay = (args: Spec.ArgsOf<typeof Spec.inboxReplay>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const filtered = Option.isSome(args.shop) || Option.isSome(args.ro)
    if (Option.isSome(args.id) && args.allDead) {
      return yield* new UsageError({
        message: "give an entry id or --all-dead, not both",
        fix: "e.g. shoplink inbox replay --all-dead --shop shop_1"
      })
    }
    if (Option.isNone(args.id) && !args.allDead) {
      return yield* new UsageError({
        message: "missing argument <entry-id> (or --all-dead)",
        fix: "`shoplink inbox list --status dead` shows the dead entries; see `shoplink inbox replay --help`"
      })
    }
    if (args.wait && args.allDead) {
      return yield* new UsageError({
        message: "--wait follows one entry, not --all-dead",
        fix: "e.g. shoplink inbox replay 3f1c2a4e --wait"
      })
    }
    if (filtered && !args.allDead) {
      return yield* new UsageError({
        message: "--shop and --ro go with --all-dead",
        fix: "e.g. shoplink inbox replay --all-dead --shop shop_1"
      })
    }
    const db = yield* service(args, "existing")
    return yield* Option.isSome(args.id) ? replayOne(db, args, args.id.value) : replayAllDead(db, args)
  })

const notDead = (id: string, status: WebhookInbox.EntryStatus) =>
  new EntryNotDead({
    message: `inbox entry ${id} is ${status}: only a dead entry can be discarded`,
    fix: status === "pending"
      ? "the service is still trying it; `shoplink inbox show` shows its last error"
      : "nothing to do: it was applied"
  })

export const discard = (args: Spec.ArgsOf<typeof Spec.inboxDiscard>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const db = yield* service(args, "existing")
    const entry = yield* withInbox(db, (inbox) =>
      Effect.gen(function*() {
        const entry = yield* resolve(inbox, args.id)
        // The inbox refuses anything but a dead letter, in the same statement that deletes it.
        yield* inbox.discard(entry.id).pipe(
          Effect.catchTags({
            EntryNotDead: (error) => Effect.fail(notDead(entry.id, error.status)),
            EntryNotFound: () => Effect.fail(new EntryNotFound({ message: `no inbox entry ${entry.id}`, fix: listFix }))
          })
        )
        return entry
      }))
    if (args.json) return yield* json({ discarded: withBody(entry) })
    yield* out(`discarded dead inbox entry ${entry.id} from ${db.file}; it will not be applied`)
    yield* out(details(entry))
  })
