// `shoplink inbox list | show | replay | discard` against a real SQLite file: the first run through
// the built bin, as a user would, the rest in-process (see support/cli.ts). The inbox is seeded
// through @shoplink/connector: deliveries received, then one worker pass with an SMS that fails for
// some repair orders, which dead-letters them.
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { ShopSystem } from "@shoplink/connector"
import { InboxWorker, Storage, WebhookInbox } from "@shoplink/connector-runtime"
import { Effect, Fiber, Layer, Logger, LogLevel } from "effect"
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { parseJson, runCli, runCliInProcess, scratchDir } from "./support/cli.js"

const line = {
  acaPartTerminologyID: 5340,
  productID: "51515",
  brandID: "WIX",
  categoryID: "FLT",
  productDesc: "Oil Filter",
  dispatchTime: 1763773200000,
  quantity: 2,
  price: 6.49,
  listPrice: 9.99,
  corePrice: 0,
  weight: 0.8,
  quality: "",
  requestedProductId: "",
  status: "3",
  statusDescription: "Order submitted"
}

// Token-like values a body should never carry; `show` masks them anyway.
const SESSION_TOKEN = "sess-tok-must-not-print-7731"
const URL_TOKEN = "urltok-must-not-print-5512"
const ERROR_KEY = "sk_live_must_not_print_0042"

const orderBody = (orderID: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    referenceID: "RO-1042",
    order: {
      orderID,
      orderCreateTime: 1763769600000,
      comment: "PO 77",
      status: 3,
      statusDescription: "Order submitted",
      orderLines: [line]
    },
    ...extra
  })

const quoteBody = JSON.stringify({
  referenceID: "RO-2001",
  quotes: [{ ...line, orderByTime: 1763769600000, quantityAvail: 12, quantityReq: 1, makeId: 0, subtotal: 6.49 }]
})

/** An SMS that fails for ro_gone (no such repair order) and ro_422 (refused), writes the rest. */
const sms = (fixed: boolean) => {
  const write = (
    w: { readonly shopId: string; readonly repairOrderId: string; readonly lines: ReadonlyArray<unknown> }
  ) =>
    !fixed && w.repairOrderId === "ro_gone"
      ? Effect.fail(new ShopSystem.RepairOrderNotFound({ shopId: w.shopId, repairOrderId: w.repairOrderId }))
      : !fixed && w.repairOrderId === "ro_422"
      ? Effect.fail(
        new ShopSystem.ShopSystemError({
          operation: "applyQuote",
          reason: `SMS answered 422 for https://sms.example/v3/parts?api_key=${ERROR_KEY}&ro=ro_422`,
          retryable: false
        })
      )
      : Effect.succeed({ added: w.lines.length, alreadyPresent: 0 })
  return Layer.succeed(ShopSystem.ShopSystem, {
    capabilities: new Set(ShopSystem.ALL_CAPABILITIES),
    loadRepairOrder: ({ repairOrderId }) => Effect.succeed({ id: repairOrderId, number: "1042", vehicle: {} }),
    applyQuote: write,
    applyOrder: write
  })
}

/** Runs `f` on the inbox in `file`, in this process (the service's side). */
const onInbox = <A, E, R>(file: string, f: Effect.Effect<A, E, R>) =>
  f.pipe(Effect.provide(WebhookInbox.layerSql.pipe(Layer.provideMerge(Storage.sqlite(file)))))

/** One worker pass with the SMS as it is (`fixed`: every write succeeds). */
const workerPass = (file: string, fixed: boolean) =>
  onInbox(
    file,
    InboxWorker.processDue({ maxAttempts: 1 }).pipe(
      Effect.provide(sms(fixed)),
      Logger.withMinimumLogLevel(LogLevel.None)
    )
  )

const receive = (kind: WebhookInbox.DeliveryKind, shopId: string, repairOrderId: string, body: string) =>
  Effect.flatMap(
    WebhookInbox.WebhookInbox,
    (inbox) =>
      Effect.map(
        inbox.receive({
          kind,
          contentKey: `${kind}:${shopId}:${repairOrderId}:${body.length}`,
          shopId,
          repairOrderId,
          body
        }),
        (r) => r.entry.id
      )
  )

/**
 * A database with five entries, oldest first: applied (shop_1/ro_ok), dead (shop_1/ro_gone, a body
 * with token-like values), dead (shop_2/ro_422, a quote), dead (shop_2/ro_junk, a body that is not
 * JSON), pending (shop_1/ro_late, received after the worker's pass).
 */
const seed = () =>
  Effect.gen(function*() {
    const dir = scratchDir()
    const file = join(dir, "shoplink.db")
    const ids = yield* onInbox(
      file,
      Effect.gen(function*() {
        const applied = yield* receive("order", "shop_1", "ro_ok", orderBody("10001"))
        const gone = yield* receive(
          "order",
          "shop_1",
          "ro_gone",
          orderBody("10002", {
            sessionToken: SESSION_TOKEN,
            links: { self: `https://distributor.example/orders/10002?token=${URL_TOKEN}` }
          })
        )
        const refused = yield* receive("quote", "shop_2", "ro_422", quoteBody)
        const junk = yield* receive("order", "shop_2", "ro_junk", "this is { not json")
        return { applied, gone, refused, junk }
      })
    )
    expect(yield* workerPass(file, false)).toEqual({ applied: 1, retrying: 0, dead: 3 })
    const pending = yield* onInbox(file, receive("order", "shop_1", "ro_late", orderBody("10005")))
    return { dir, file, env: { SHOPLINK_DATABASE_URL: file }, ids: { ...ids, pending } }
  })

interface EntryJson {
  readonly id: string
  readonly kind: string
  readonly shopId: string
  readonly repairOrderId: string
  readonly status: string
  readonly attempts: number
  readonly lastError: string | null
  readonly receivedAt: string
  readonly nextAttemptAt: string | null
  readonly appliedAt: string | null
  readonly body?: unknown
}

const noTokens = (text: string) => {
  for (const token of [SESSION_TOKEN, URL_TOKEN, ERROR_KEY]) expect(text).not.toContain(token)
}

describe("shoplink inbox list", () => {
  it.live(
    "every entry newest first, filtered by shop, repair order and status; text under 100 columns and --json",
    () =>
      Effect.gen(function*() {
        const { env, ids } = yield* seed()
        const all = yield* runCli(["inbox", "list"], env)
        expect(all.stderr).toBe("")
        expect(all.code).toBe(0)
        const lines = all.stdout.trimEnd().split("\n")
        expect(lines[0]).toMatch(/^ID +KIND +SHOP +RO +STATUS +ATTEMPTS +RECEIVED +LAST ERROR$/)
        expect(lines).toHaveLength(2 + 5)
        for (const l of lines) expect(l.length, l).toBeLessThan(100)
        // Newest first, one line each, ids by their first 8 characters.
        expect(lines.slice(2).map((l) => l.slice(0, 8))).toEqual(
          [ids.pending, ids.junk, ids.refused, ids.gone, ids.applied].map((id) => id.slice(0, 8))
        )
        expect(all.stdout).toMatch(
          new RegExp(
            `^${ids.gone.slice(0, 8)} +order +shop_1 +ro_gone +dead +1 +\\d+s ago +repair order ro_gone not f\\S* .*$`,
            "m"
          )
        )
        expect(all.stdout).toMatch(
          new RegExp(`^${ids.applied.slice(0, 8)} +order +shop_1 +ro_ok +applied +1 +\\d+s ago$`, "m")
        )
        expect(all.stdout).toMatch(
          new RegExp(`^${ids.pending.slice(0, 8)} +order +shop_1 +ro_late +pending +0 +\\d+s ago$`, "m")
        )
        // A long last error is cut to the line, and what looks like a key is masked.
        const refusedLine = lines.find((l) => l.startsWith(ids.refused.slice(0, 8)))!
        expect(refusedLine).toMatch(/ applyQuote: SMS answered 422 .*…$/)
        noTokens(all.stdout)

        const byStatus = yield* runCliInProcess(["inbox", "list", "--status", "dead"], env)
        expect(byStatus.stdout.trimEnd().split("\n").slice(2).map((l) => l.slice(0, 8))).toEqual(
          [ids.junk, ids.refused, ids.gone].map((id) => id.slice(0, 8))
        )
        const byShop = parseJson<Array<EntryJson>>(
          (yield* runCliInProcess(["inbox", "list", "--shop", "shop_2", "--json"], env)).stdout
        )
        expect(byShop.map((e) => e.id)).toEqual([ids.junk, ids.refused])
        const byRo = yield* runCliInProcess(["inbox", "list", "--ro", "ro_gone"], env)
        expect(byRo.stdout.trimEnd().split("\n")).toHaveLength(3)
        expect(byRo.stdout).toContain(" ro_gone ")
        const combined = parseJson<Array<EntryJson>>(
          (yield* runCliInProcess(["inbox", "list", "--shop", "shop_1", "--status", "pending", "--json"], env)).stdout
        )
        expect(combined.map((e) => e.id)).toEqual([ids.pending])
        const none = yield* runCliInProcess(["inbox", "list", "--shop", "shop_9", "--status", "dead"], env)
        expect(none.code).toBe(0)
        expect(none.stdout).toBe(`no inbox entries with status dead, shop shop_9 in ${env.SHOPLINK_DATABASE_URL}\n`)
        expect(parseJson((yield* runCliInProcess(["inbox", "list", "--ro", "nope", "--json"], env)).stdout)).toEqual([])

        // --json: every field, full ids, ISO-8601 times, no bodies.
        const listed = parseJson<Array<EntryJson>>((yield* runCliInProcess(["inbox", "list", "--json"], env)).stdout)
        expect(listed).toHaveLength(5)
        expect(listed.find((e) => e.id === ids.gone)).toEqual({
          id: ids.gone,
          kind: "order",
          shopId: "shop_1",
          repairOrderId: "ro_gone",
          status: "dead",
          attempts: 1,
          lastError: "repair order ro_gone not found for shop shop_1",
          receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          nextAttemptAt: null,
          appliedAt: null,
          contentKey: expect.any(String)
        })
        expect(listed.find((e) => e.id === ids.applied)).toMatchObject({
          status: "applied",
          lastError: null,
          appliedAt: expect.any(String)
        })
        expect(listed.find((e) => e.id === ids.pending)).toMatchObject({
          status: "pending",
          attempts: 0,
          nextAttemptAt: expect.any(String)
        })
        expect(listed.find((e) => e.id === ids.refused)!.lastError).toBe(
          "applyQuote: SMS answered 422 for https://sms.example/v3/parts?api_key=<redacted>&ro=ro_422"
        )
        noTokens(JSON.stringify(listed))

        // --limit: the newest n, and a note on stderr saying how many there are.
        const limited = yield* runCliInProcess(["inbox", "list", "--limit", "2", "--json"], env)
        expect(parseJson<Array<EntryJson>>(limited.stdout).map((e) => e.id)).toEqual([ids.pending, ids.junk])
        expect(limited.stderr).toBe("showing the 2 newest of 5 entries; --limit 5 shows them all\n")
        const zero = yield* runCliInProcess(["inbox", "list", "--limit", "0"], env)
        expect(zero.code).toBe(2)
        expect(zero.stderr).toContain("--limit: 0 is not a positive number")
        const status = yield* runCliInProcess(["inbox", "list", "--status", "deadd"], env)
        expect(status.code).toBe(2)
        expect(status.stderr).toContain("--status: 'deadd' is not one of pending, applied, dead; did you mean `dead`?")
      }),
    { timeout: 240_000 }
  )
})

describe("shoplink inbox show", () => {
  it.live(
    "the entry with its body pretty-printed, token-like values redacted; text and --json; by full id or prefix",
    () =>
      Effect.gen(function*() {
        const { env, file, ids } = yield* seed()
        const text = yield* runCliInProcess(["inbox", "show", ids.gone], env)
        expect(text.stderr).toBe("")
        expect(text.code).toBe(0)
        expect(text.stdout).toMatch(new RegExp(`^entry +${ids.gone}$`, "m"))
        expect(text.stdout).toMatch(/^kind +order webhook$/m)
        expect(text.stdout).toMatch(/^shop +shop_1$/m)
        expect(text.stdout).toMatch(/^repair order +ro_gone$/m)
        expect(text.stdout).toMatch(/^status +dead$/m)
        expect(text.stdout).toMatch(/^attempts +1$/m)
        expect(text.stdout).toMatch(/^last error +repair order ro_gone not found for shop shop_1$/m)
        expect(text.stdout).toMatch(/^received +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/m)
        expect(text.stdout).toContain(
          "\nbody\n{\n  \"referenceID\": \"RO-1042\",\n  \"order\": {\n    \"orderID\": \"10002\","
        )
        expect(text.stdout).toContain("\"sessionToken\": \"<redacted>\"")
        expect(text.stdout).toContain("https://distributor.example/orders/10002?token=<redacted>")
        expect(text.stdout).toContain(`Fix the cause of the last error, then: shoplink inbox replay ${ids.gone}`)
        noTokens(text.stdout)

        // The first 8 characters, as `list` shows them, name it too (and upper case is fine).
        const byPrefix = yield* runCliInProcess(["inbox", "show", ids.gone.slice(0, 8).toUpperCase()], env)
        expect(byPrefix.code).toBe(0)
        expect(byPrefix.stdout).toBe(text.stdout)

        const json = parseJson<EntryJson & { body: any }>(
          (yield* runCliInProcess(["inbox", "show", ids.gone, "--json"], env)).stdout
        )
        expect(json).toMatchObject({
          id: ids.gone,
          status: "dead",
          attempts: 1,
          lastError: "repair order ro_gone not found for shop shop_1"
        })
        expect(json.body.order.orderLines[0]).toMatchObject({ productID: "51515", brandID: "WIX", quantity: 2 })
        expect(json.body.sessionToken).toBe("<redacted>")
        expect(json.body.links.self).toBe("https://distributor.example/orders/10002?token=<redacted>")

        // A body that is not JSON is shown as received; applied and pending entries show their times.
        const junk = yield* runCliInProcess(["inbox", "show", ids.junk], env)
        expect(junk.stdout).toContain("\nbody (not JSON; as received)\nthis is { not json\n")
        expect(junk.stdout).toMatch(/^last error +stored body does not decode: /m)
        expect(parseJson<EntryJson>((yield* runCliInProcess(["inbox", "show", ids.junk, "--json"], env)).stdout).body)
          .toBe("this is { not json")
        const applied = yield* runCliInProcess(["inbox", "show", ids.applied], env)
        expect(applied.stdout).toMatch(/^applied +\d{4}-/m)
        expect(applied.stdout).not.toContain("last error")
        expect(applied.stdout).not.toContain("inbox replay")
        expect((yield* runCliInProcess(["inbox", "show", ids.pending], env)).stdout).toMatch(/^next attempt +\d{4}-/m)
        // Retention empties the bodies of entries applied long ago: show says so.
        yield* onInbox(
          file,
          Effect.flatMap(
            WebhookInbox.WebhookInbox,
            (inbox) => inbox.purge({ clearBodiesAppliedBefore: Date.now() + 1000, deleteAppliedBefore: 0 })
          )
        )
        const purged = yield* runCliInProcess(["inbox", "show", ids.applied], env)
        expect(purged.code).toBe(0)
        expect(purged.stdout).toContain(
          "\nbody  (none kept: the service's retention clears the bodies of entries applied long ago)\n"
        )
        const quote = parseJson<EntryJson & { body: any }>(
          (yield* runCliInProcess(["inbox", "show", ids.refused, "--json"], env)).stdout
        )
        expect(quote).toMatchObject({ kind: "quote", shopId: "shop_2", repairOrderId: "ro_422" })
        expect(quote.body.quotes).toHaveLength(1)
      }),
    { timeout: 240_000 }
  )
})

describe("shoplink inbox replay", () => {
  it.live(
    "a dead entry becomes pending, and the service's next pass applies it; pending is a no-op, applied is refused",
    () =>
      Effect.gen(function*() {
        const { env, file, ids } = yield* seed()
        const replayed = yield* runCliInProcess(["inbox", "replay", ids.gone], env)
        expect(replayed.stderr).toBe("")
        expect(replayed.code).toBe(0)
        expect(replayed.stdout).toBe(
          `replayed inbox entry ${ids.gone} (order, shop shop_1, repair order ro_gone): pending again; the service applies it shortly\n`
        )
        const after = parseJson<EntryJson>((yield* runCliInProcess(["inbox", "show", ids.gone, "--json"], env)).stdout)
        expect(after).toMatchObject({ status: "pending", attempts: 0, nextAttemptAt: expect.any(String) })
        // The cause is fixed (the repair order exists again): the worker applies it.
        expect(yield* workerPass(file, true)).toEqual({ applied: 2, retrying: 0, dead: 0 })
        expect(parseJson<EntryJson>((yield* runCliInProcess(["inbox", "show", ids.gone, "--json"], env)).stdout).status)
          .toBe("applied")

        // Replaying again: applied now, so refused; a pending entry is already in line.
        const applied = yield* runCliInProcess(["inbox", "replay", ids.gone], env)
        expect(applied.code).toBe(1)
        expect(applied.stderr).toContain(`error (EntryNotDead): inbox entry ${ids.gone} was applied at `)
        expect(applied.stderr).toContain(": only a dead entry is replayed")
        yield* onInbox(file, receive("order", "shop_1", "ro_later", orderBody("10006")))
        const pendingId = parseJson<Array<EntryJson>>(
          (yield* runCliInProcess(["inbox", "list", "--status", "pending", "--json"], env)).stdout
        )[0]!.id
        const pending = yield* runCliInProcess(["inbox", "replay", pendingId, "--json"], env)
        expect(pending.code).toBe(0)
        expect(parseJson(pending.stdout)).toMatchObject({
          replayed: false,
          entry: { id: pendingId, status: "pending" }
        })
        expect((yield* runCliInProcess(["inbox", "replay", pendingId], env)).stdout).toContain("is already pending")

        // --all-dead, optionally for one shop.
        const shop = yield* runCliInProcess(["inbox", "replay", "--all-dead", "--shop", "shop_2", "--json"], env)
        expect(shop.code).toBe(0)
        const body = parseJson<{ replayed: number; entries: Array<EntryJson> }>(shop.stdout)
        expect(body.replayed).toBe(2)
        expect(body.entries.map((e) => e.id).sort()).toEqual([ids.junk, ids.refused].sort())
        expect(body.entries.every((e) => e.status === "pending" && e.attempts === 0)).toBe(true)
        const nothing = yield* runCliInProcess(["inbox", "replay", "--all-dead", "--shop", "shop_2"], env)
        expect(nothing.stdout).toBe(`no dead inbox entries with shop shop_2 in ${file}: nothing to replay\n`)
      }),
    { timeout: 240_000 }
  )

  it.live(
    "--wait follows the entry: applied is exit 0, dead again is exit 1 with the reason",
    () =>
      Effect.gen(function*() {
        const { env, file, ids } = yield* seed()
        // The service's worker, as it runs beside the CLI: a pass every 100 ms.
        const service = (fixed: boolean) =>
          Effect.forever(Effect.zipRight(workerPass(file, fixed), Effect.sleep("100 millis")))
        const fixedWorker = yield* Effect.fork(service(true))
        const applied = yield* runCliInProcess(["inbox", "replay", ids.gone, "--wait"], env)
        yield* Fiber.interrupt(fixedWorker)
        expect(applied.stderr).toBe("")
        expect(applied.code).toBe(0)
        expect(applied.stdout).toMatch(
          new RegExp(
            `^replayed inbox entry ${ids.gone}; waiting for the service to apply it…\napplied at \\d{4}-.* after 1 attempt\\(s\\)\n$`
          )
        )

        const brokenWorker = yield* Effect.fork(service(false))
        const dead = yield* runCliInProcess(["inbox", "replay", ids.refused, "--wait", "--json"], env)
        yield* Fiber.interrupt(brokenWorker)
        expect(dead.code).toBe(1)
        expect(parseJson<{ entry: EntryJson }>(dead.stdout).entry).toMatchObject({
          id: ids.refused,
          status: "dead",
          attempts: 1
        })
        expect(dead.stderr).toContain(
          `inbox entry ${ids.refused} failed again and is dead: applyQuote: SMS answered 422`
        )
        noTokens(dead.stderr)
        const both = yield* runCliInProcess(["inbox", "replay", "--all-dead", "--wait"], env)
        expect(both.code).toBe(2)
      }),
    { timeout: 240_000 }
  )

  it.live(
    "--all-dead replays every dead entry; an id and --all-dead together, or neither, is a usage error",
    () =>
      Effect.gen(function*() {
        const { env, ids } = yield* seed()
        const all = yield* runCliInProcess(["inbox", "replay", "--all-dead"], env)
        expect(all.code).toBe(0)
        expect(all.stdout).toContain("replayed 3 dead inbox entries: pending again")
        for (const id of [ids.gone, ids.refused, ids.junk]) expect(all.stdout).toContain(id)
        expect(parseJson((yield* runCliInProcess(["inbox", "list", "--status", "dead", "--json"], env)).stdout))
          .toEqual([])

        for (
          const [args, message] of [
            [["inbox", "replay"], "missing argument <entry-id> (or --all-dead)"],
            [["inbox", "replay", ids.gone, "--all-dead"], "give an entry id or --all-dead, not both"],
            [["inbox", "replay", ids.gone, "--shop", "shop_1"], "--shop and --ro go with --all-dead"]
          ] as const
        ) {
          const result = yield* runCliInProcess(args, env)
          expect(result.code, args.join(" ")).toBe(2)
          expect(result.stderr).toContain(`error (UsageError): ${message}`)
        }
      }),
    { timeout: 240_000 }
  )
})

describe("shoplink inbox discard", () => {
  it.live(
    "a dead entry is deleted and what was deleted printed; pending and applied ones are refused",
    () =>
      Effect.gen(function*() {
        const { env, file, ids } = yield* seed()
        const discarded = yield* runCliInProcess(["inbox", "discard", ids.gone], env)
        expect(discarded.stderr).toBe("")
        expect(discarded.code).toBe(0)
        expect(discarded.stdout).toContain(
          `discarded dead inbox entry ${ids.gone} from ${file}; it will not be applied\n`
        )
        expect(discarded.stdout).toMatch(/^repair order +ro_gone$/m)
        expect(discarded.stdout).toMatch(/^last error +repair order ro_gone not found for shop shop_1$/m)
        noTokens(discarded.stdout)
        const listed = parseJson<Array<EntryJson>>((yield* runCliInProcess(["inbox", "list", "--json"], env)).stdout)
        expect(listed.map((e) => e.id)).not.toContain(ids.gone)
        expect(listed).toHaveLength(4)
        const again = yield* runCliInProcess(["inbox", "discard", ids.gone], env)
        expect(again.code).toBe(1)
        expect(again.stderr).toContain(`error (EntryNotFound): no inbox entry ${ids.gone}`)

        const json = yield* runCliInProcess(["inbox", "discard", ids.junk.slice(0, 8), "--json"], env)
        expect(json.code).toBe(0)
        expect(parseJson(json.stdout)).toMatchObject({
          discarded: { id: ids.junk, status: "dead", body: "this is { not json" }
        })

        for (const [id, status] of [[ids.pending, "pending"], [ids.applied, "applied"]] as const) {
          const refused = yield* runCliInProcess(["inbox", "discard", id], env)
          expect(refused.code, status).toBe(1)
          expect(refused.stderr).toContain(
            `error (EntryNotDead): inbox entry ${id} is ${status}: only a dead entry can be discarded`
          )
        }
        expect(parseJson<Array<EntryJson>>((yield* runCliInProcess(["inbox", "list", "--json"], env)).stdout))
          .toHaveLength(3)
      }),
    { timeout: 240_000 }
  )
})

describe("shoplink inbox: bad ids and a missing database", () => {
  it.live(
    "a malformed, unknown or ambiguous id is one line and exit 1 for every command; a missing database is exit 2",
    () =>
      Effect.gen(function*() {
        const { dir, env, file, ids } = yield* seed()
        const unknown = "0badc0de-0000-4000-8000-000000000000"
        for (const command of [["show"], ["replay"], ["discard"]]) {
          const malformed = yield* runCliInProcess(["inbox", ...command, "not-an-id"], env)
          expect(malformed.code, command[0]).toBe(1)
          expect(malformed.stdout).toBe("")
          expect(malformed.stderr.split("\n")[0]).toBe(
            "error (EntryNotFound): 'not-an-id' is not an inbox entry id: ids are UUIDs, e.g. 3f1c2a4e-9b7d-4e21-8c55-0d6f1a2b3c4d (or their first 8+ characters)"
          )
          expect(malformed.stderr).toContain("fix: `shoplink inbox list` shows the entries and their ids")
          const missing = yield* runCliInProcess(["inbox", ...command, unknown], env)
          expect(missing.code, command[0]).toBe(1)
          expect(missing.stderr.split("\n")[0]).toBe(`error (EntryNotFound): no inbox entry ${unknown}`)
          const json = yield* runCliInProcess(["inbox", ...command, unknown.slice(0, 10), "--json"], env)
          expect(json.code).toBe(1)
          expect(parseJson<{ error: unknown }>(json.stderr).error).toMatchObject({
            exitCode: 1,
            tag: "EntryNotFound",
            message: `no inbox entry ${unknown.slice(0, 10)}`
          })
        }
        // Too short to be a prefix as `list` shows ids.
        expect((yield* runCliInProcess(["inbox", "show", ids.gone.slice(0, 6)], env)).stderr).toContain(
          "is not an inbox entry id"
        )

        // Two ids sharing their first 8 characters: the prefix is ambiguous, the full ids work.
        yield* onInbox(
          file,
          Effect.flatMap(
            SqlClient.SqlClient,
            (sql) =>
              sql`UPDATE shoplink_inbox SET id = 'abcdef01-0000-4000-8000-00000000000' || rowid WHERE repair_order_id IN ('ro_ok', 'ro_late')`
          )
        )
        const ambiguous = yield* runCliInProcess(["inbox", "show", "abcdef01"], env)
        expect(ambiguous.code).toBe(1)
        expect(ambiguous.stderr).toContain(
          "error (EntryNotFound): abcdef01 is the start of 2 entries' ids: abcdef01-0000-4000-8000-00000000000"
        )
        expect(ambiguous.stderr).toContain("fix: give more of the id, or all of it")

        // A database file that does not exist: exit 2, and it is not created.
        const nowhere = join(dir, "typo.db")
        for (
          const args of [["inbox", "list"], ["inbox", "show", ids.gone], ["inbox", "replay", ids.gone], [
            "inbox",
            "replay",
            "--all-dead"
          ], ["inbox", "discard", ids.gone]]
        ) {
          const result = yield* runCliInProcess(args, { SHOPLINK_DATABASE_URL: nowhere })
          expect(result.code, args.join(" ")).toBe(2)
          expect(result.stderr).toContain(
            `SHOPLINK_DATABASE_URL (the connector service's database, a SQLite file or a postgres:// URL`
          )
          expect(result.stderr).toContain(`names a file that does not exist: ${nowhere}`)
          const option = yield* runCliInProcess([...args, "--database", nowhere], env)
          expect(option.code).toBe(2)
          expect(option.stderr).toContain(
            `--database (the connector service's database, a SQLite file or a postgres:// URL`
          )
        }
        const none = yield* runCliInProcess(["inbox", "list"], {})
        expect(none.code).toBe(2)
        expect(none.stderr).toContain("fix: pass --database <file> or set SHOPLINK_DATABASE_URL")
        expect(readdirSync(dir).some((f) => f.startsWith("typo"))).toBe(false)
      }),
    { timeout: 300_000 }
  )
})

describe("inbox redaction", () => {
  it("masks credential-named keys and credentials in text, and leaves a webhook's own fields alone", async () => {
    const { redactJson, redactText } = await import("../src/internal/inboxCommands.js")
    expect(redactJson({
      referenceID: "RO-1042",
      order: { orderID: "10423", comment: "PO 77", orderLines: [{ productID: "51515", brandID: "WIX", price: 6.49 }] },
      apiToken: "t0k3n",
      nested: [{ password: 1234, Authorization: "Bearer abcdefghijkl", sessionId: "s-1", empty: "" }],
      customerApiKey: null
    })).toEqual({
      referenceID: "RO-1042",
      order: { orderID: "10423", comment: "PO 77", orderLines: [{ productID: "51515", brandID: "WIX", price: 6.49 }] },
      apiToken: "<redacted>",
      nested: [{ password: "<redacted>", Authorization: "<redacted>", sessionId: "<redacted>", empty: "" }],
      customerApiKey: null
    })
    expect(redactText("GET https://x.example/a?token=abc123&page=2#top")).toBe(
      "GET https://x.example/a?token=<redacted>&page=2#top"
    )
    expect(redactText("401 for Authorization: Bearer abcdefghijklmnop")).toBe(
      "401 for Authorization: Bearer <redacted>"
    )
    expect(redactText("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl here")).toBe("jwt <redacted> here")
    expect(redactText("key slk_3f9a0c2b7d_AbCdEfGhIjKlMnOpQrStUv")).toBe("key <redacted>")
    expect(redactText(`refused: {"apiKey":"sk_live_123456"} and token=xyz12345`)).toBe(
      `refused: {"apiKey":"<redacted>"} and token=<redacted>`
    )
    expect(redactText("repair order ro_8f2 not found for shop shop_1")).toBe(
      "repair order ro_8f2 not found for shop shop_1"
    )
  })
})
