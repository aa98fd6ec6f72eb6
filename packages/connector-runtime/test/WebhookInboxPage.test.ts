// `WebhookInbox.page`, the console's keyset pages, on every inbox (memory, SQLite, PostgreSQL):
// newest first by (receivedAt, id), filters by status, retrying, shop and repair order, and pages
// that together are exactly the filtered entries, each once.
import { describe, expect, it } from "@effect/vitest"
import { WebhookInbox } from "@shoplink/connector-runtime"
import { Context, Effect, Layer, TestClock } from "effect"
import { postgres, scratchDatabase, sqlite } from "./fixtures.js"

const delivery = (shopId: string, repairOrderId: string, n: number): WebhookInbox.Delivery => ({
  kind: "quote",
  contentKey: `quote:${shopId}:${repairOrderId}:${n}`,
  shopId,
  repairOrderId,
  body: "{}"
})

/** Every page of `query`, `limit` at a time. */
const allPages = (
  inbox: WebhookInbox.Operations,
  query: Omit<WebhookInbox.PageQuery, "limit" | "after">,
  limit: number
) =>
  Effect.gen(function*() {
    const seen: Array<WebhookInbox.InboxEntry> = []
    let after: WebhookInbox.PageCursor | undefined
    let pages = 0
    do {
      const page = yield* inbox.page({ ...query, limit, ...(after === undefined ? {} : { after }) })
      expect(page.entries.length).toBeLessThanOrEqual(limit)
      seen.push(...page.entries)
      after = page.next
      pages++
    } while (after !== undefined && pages < 100)
    return seen
  })

const newestFirst = (entries: ReadonlyArray<WebhookInbox.InboxEntry>) =>
  [...entries].sort((a, b) => b.receivedAt - a.receivedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).map((e) => e.id)

const inboxes: ReadonlyArray<readonly [string, () => Layer.Layer<WebhookInbox.WebhookInbox, unknown>]> = [
  ["memory", () => WebhookInbox.layerMemory],
  ["sqlite", () => WebhookInbox.layerSql.pipe(Layer.provide(sqlite(scratchDatabase())))],
  ["postgres", () => WebhookInbox.layerSql.pipe(Layer.provide(postgres()))]
]

for (const [name, layer] of inboxes) {
  describe(`WebhookInbox.page on ${name}`, () => {
    it.scoped(
      "newest first, filtered, and the pages together are the filtered entries, each once",
      () =>
        Effect.gen(function*() {
          const inbox = Context.get(yield* Layer.build(layer()), WebhookInbox.WebhookInbox)
          const ids: Array<string> = []
          for (let n = 0; n < 23; n++) {
            // Several in one millisecond: the id breaks the tie.
            if (n % 3 === 0) yield* TestClock.adjust("1 millis")
            const shop = n % 2 === 0 ? "shop_a" : "shop_b"
            ids.push((yield* inbox.receive(delivery(shop, `ro_${n % 4}`, n))).entry.id)
          }
          // Dead, retrying and applied ones among them.
          for (const [i, id] of ids.entries()) {
            if (i % 5 === 0) yield* inbox.markFailed(id, { error: "refused", retryIn: undefined })
            else if (i % 5 === 1) yield* inbox.markFailed(id, { error: "timed out", retryIn: "1 minute" })
            else if (i % 5 === 2) yield* inbox.markApplied(id)
          }
          const all = yield* inbox.list()
          expect(all).toHaveLength(23)

          const cases: ReadonlyArray<
            readonly [Omit<WebhookInbox.PageQuery, "limit">, (e: WebhookInbox.InboxEntry) => boolean]
          > = [
            [{}, () => true],
            [{ status: "dead" }, (e) => e.status === "dead"],
            [{ status: "pending", retrying: true }, (e) => e.status === "pending" && e.attempts > 0],
            [{ status: "pending", retrying: false }, (e) => e.status === "pending" && e.attempts === 0],
            [{ shopId: "shop_a" }, (e) => e.shopId === "shop_a"],
            [{ shopId: "shop_b", status: "applied" }, (e) => e.shopId === "shop_b" && e.status === "applied"],
            [{ shopId: "shop_a", repairOrderId: "ro_2" }, (e) => e.shopId === "shop_a" && e.repairOrderId === "ro_2"]
          ]
          for (const [query, keep] of cases) {
            const expected = newestFirst(all.filter(keep))
            expect(expected.length).toBeGreaterThan(0)
            for (const limit of [1, 4, 50]) {
              expect((yield* allPages(inbox, query, limit)).map((e) => e.id)).toEqual(expected)
            }
          }
          const last = yield* inbox.page({ limit: 23 })
          expect(last.next).toBeUndefined()
          expect((yield* inbox.page({ limit: 22 })).next).toBeDefined()
        }),
      { timeout: 60_000 }
    )
  })
}
