// The delivery console over real HTTP on loopback (a runtime on SQLite): who gets in (an operator's
// session, a vendor API key; nobody else), replay and discard with CSRF, escaping, and keyset pages
// that read an index at 100,000 entries.
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { WebhookInbox } from "@shoplink/connector-runtime"
import { DeliveryConsole, SignIn } from "@shoplink/service-pages"
import { Effect, Either, Layer, Redacted } from "effect"
import { scratchDatabase, sqlite } from "../../connector-runtime/test/fixtures.js"
import { client, quoteBody, startConsoleApp } from "./support/consoleApp.js"

const deadDelivery = (runtime: Effect.Effect.Success<ReturnType<typeof startConsoleApp>>["runtime"], key: string) =>
  Effect.gen(function*() {
    const { entry } = yield* runtime.inbox.receive({
      kind: "quote",
      contentKey: key,
      shopId: "shop_a",
      repairOrderId: "ro_a",
      body: quoteBody()
    })
    yield* runtime.inbox.markFailed(entry.id, {
      error: "Acme SMS refused the line: RO 1042 is closed",
      retryIn: undefined
    })
    return entry.id
  })

const rowsOf = (text: string) =>
  [...text.matchAll(/data-testid="console-delivery" data-id="([^"]+)" data-state="([^"]+)"/g)].map((m) => ({
    id: m[1]!,
    state: m[2]!
  }))
const nextLink = (text: string) => /href="([^"]+)" data-testid="console-next"/.exec(text)?.[1]?.replaceAll("&amp;", "&")

describe("DeliveryConsole", () => {
  it("a users file may give a user the operator role, and nothing else", () => {
    const hash = "scrypt:1024:8:1:AAAAAAAAAAAAAAAAAAAAAA:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"
    const users = SignIn.parseUsers(JSON.stringify([
      { email: "Olga@Ops.example", shopId: "shop_a", passwordHash: hash, role: "operator" },
      { email: "ava@example.com", shopId: "shop_a", passwordHash: hash }
    ]))
    expect(Either.getOrThrow(users).map((u) => [u.email, u.role])).toEqual([["olga@ops.example", "operator"], [
      "ava@example.com",
      undefined
    ]])
    expect(SignIn.parseUsers(JSON.stringify([{ email: "x@y.z", shopId: "s", passwordHash: hash, role: "admin" }])))
      .toEqual(Either.left("user 1: role must be \"operator\" or absent"))
  })

  it.scoped("a vendor API key reads and acts without a session; a wrong key is 401; no credentials is sign-in", () =>
    Effect.gen(function*() {
      const { runtime, sms, url } = yield* startConsoleApp(scratchDatabase())
      const id = yield* deadDelivery(runtime, "quote:shop_a:ro_a:1")
      const key = Redacted.value((yield* runtime.apiKeys.create("operator")).key)
      const http = client(url)
      const bearer = { authorization: `Bearer ${key}` }

      const anonymous = yield* http.send("/console")
      expect([anonymous.status, anonymous.location]).toEqual([303, "/sign-in?next=%2Fconsole"])
      for (const wrong of ["Bearer slk_0000000000_" + "A".repeat(43), "Bearer nope", "bearer  " + key.slice(1)]) {
        const refused = yield* http.send("/console", { headers: { authorization: wrong } })
        expect(refused.status).toBe(401)
        expect(refused.headers["www-authenticate"]).toBe("Bearer realm=\"shoplink\"")
        expect(refused.text).not.toContain(id)
      }
      // Another scheme is no API key: the browser is sent to sign in.
      expect((yield* http.send("/console", { headers: { authorization: "Basic eDp5" } })).location).toBe(
        "/sign-in?next=%2Fconsole"
      )
      // A POST without credentials is refused before anything happens.
      expect((yield* http.post(`/console/deliveries/${id}/replay`)).status).toBe(403)

      const list = yield* http.send("/console?state=dead", { headers: bearer })
      expect(list.status).toBe(200)
      expect(list.headers["content-security-policy"]).toContain("default-src 'none'")
      expect(list.headers["x-frame-options"]).toBe("DENY")
      expect(rowsOf(list.text)).toEqual([{ id, state: "dead" }])
      expect(list.text).not.toContain("<script")

      const shown = yield* http.send(`/console/deliveries/${id}`, { headers: bearer })
      expect(shown.text).toContain(
        "Given up after 1 attempt. Last error: Acme SMS refused the line: RO 1042 is closed."
      )
      // The line decoded from the stored body, escaped.
      expect(shown.text).toContain("Oil Filter &lt;b&gt;")
      expect(shown.text).not.toContain("Oil Filter <b>")
      expect(shown.text).toContain("$6.49")

      const replayed = yield* http.send(`/console/deliveries/${id}/replay`, { method: "POST", headers: bearer })
      expect([replayed.status, replayed.location]).toEqual([303, `/console/deliveries/${id}?done=replayed`])
      expect(yield* runtime.inbox.get(id)).toMatchObject({ status: "pending", attempts: 0 })
      yield* runtime.drain
      expect((yield* runtime.inbox.get(id)).status).toBe("applied")
      expect(sms.read.lines("ro_a").map((l) => l.productID)).toEqual(["51515"])
      const applied = yield* http.send(`/console/deliveries/${id}`, { headers: bearer })
      expect(/data-testid="console-state">([a-z]+)</.exec(applied.text)?.[1]).toBe("applied")

      // Discard only a dead delivery.
      expect((yield* http.send(`/console/deliveries/${id}/discard`, { method: "POST", headers: bearer })).status).toBe(
        409
      )
      const other = yield* deadDelivery(runtime, "quote:shop_a:ro_a:2")
      const discarded = yield* http.send(`/console/deliveries/${other}/discard`, { method: "POST", headers: bearer })
      expect([discarded.status, discarded.location]).toEqual([303, "/console?shop=shop_a"])
      expect(yield* Effect.flip(runtime.inbox.get(other))).toBeInstanceOf(WebhookInbox.EntryNotFound)
      expect((yield* http.send("/console/deliveries/no-such-entry", { headers: bearer })).status).toBe(404)

      // The shops with their credential status.
      yield* runtime.shops.add({
        id: "shop_a",
        name: "Main Street Auto",
        distributor: { accountNo: "100200", username: "msa", country: "US", apiToken: Redacted.make("token-a") },
        sms: {}
      })
      yield* runtime.shops.add({
        id: "shop_b",
        name: "Maple <Garage>",
        distributor: { accountNo: "300400", username: "mg", country: "CA", apiToken: Redacted.make("token-b") },
        sms: {}
      })
      yield* runtime.shops.markRevoked("shop_b", "the distributor refused the token")
      const shops = yield* http.send("/console/shops", { headers: bearer })
      expect([...shops.text.matchAll(/data-shop="([^"]+)" data-status="([^"]+)"/g)].map((m) => [m[1], m[2]])).toEqual([
        ["shop_a", "active"],
        ["shop_b", "revoked"]
      ])
      expect(shops.text).toContain("onboard again")
      expect(shops.text).toContain("Maple &lt;Garage&gt;")
    }))

  it.scoped("an operator's session gets in, a service writer's does not; actions need the session's CSRF token", () =>
    Effect.gen(function*() {
      const { runtime, url } = yield* startConsoleApp(scratchDatabase())
      const id = yield* deadDelivery(runtime, "quote:shop_a:ro_a:1")

      const writer = client(url)
      expect((yield* writer.signIn("ava@example.com")).location).toBe("/console")
      expect((yield* writer.send("/console")).status).toBe(403)
      expect((yield* writer.post(`/console/deliveries/${id}/replay`)).status).toBe(403)
      expect((yield* runtime.inbox.get(id)).status).toBe("dead")

      const operator = client(url)
      yield* operator.signIn("olga@ops.example")
      const list = yield* operator.send("/console")
      expect(list.status).toBe(200)
      expect(list.text).toContain("data-testid=\"signed-in-as\"")
      expect((yield* operator.send(`/console/deliveries/${id}`)).text).toContain("data-testid=\"console-replay\"")
      // Without the CSRF token, or from another origin: refused, nothing replayed.
      expect((yield* operator.post(`/console/deliveries/${id}/replay`, { csrf: "wrong" })).status).toBe(403)
      expect((yield* operator.post(`/console/deliveries/${id}/replay`, {}, { origin: "https://evil.example" })).status)
        .toBe(403)
      expect((yield* runtime.inbox.get(id)).status).toBe("dead")
      const replayed = yield* operator.post(`/console/deliveries/${id}/replay`)
      expect(replayed.status).toBe(303)
      expect((yield* runtime.inbox.get(id)).status).toBe("pending")
    }))

  it.scoped(
    "100,000 entries on SQLite: every filter's page query reads an index in order, and the next page continues where the last ended",
    () =>
      Effect.gen(function*() {
        const database = scratchDatabase()
        const { runtime, url } = yield* startConsoleApp(database)
        const key = Redacted.value((yield* runtime.apiKeys.create("operator")).key)
        const db = yield* SqlClient.SqlClient.pipe(Effect.provide(yield* Layer.build(sqlite(database))))
        // 100,000 entries over 10 shops and 5,000 repair orders, a few hundred dead and retrying,
        // many received in the same millisecond (the id breaks the tie).
        yield* db`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
        INSERT INTO shoplink_inbox (id, kind, content_key, shop_id, repair_order_id, body, status, attempts, last_error, received_at, next_attempt_at, applied_at)
        SELECT printf('e%06d', i), 'quote', 'bulk:' || i, 'shop_' || (i % 10), 'ro_' || (i % 5000), '',
          CASE WHEN i % 37 = 0 THEN 'dead' WHEN i % 211 = 0 THEN 'pending' ELSE 'applied' END,
          CASE WHEN i % 37 = 0 THEN 8 WHEN i % 422 = 0 THEN 2 ELSE 1 END,
          CASE WHEN i % 37 = 0 THEN 'refused' ELSE NULL END,
          1767225600000 + (i / 3), 1767225600000 + (i / 3), 1767225600000 + (i / 3)
        FROM n`
        expect((yield* db<{ readonly n: number }>`SELECT COUNT(*) AS n FROM shoplink_inbox`)[0]!.n).toBe(100_000)

        // The plans of the page query (`WebhookInbox.page`'s statement) for each filter, mid-way.
        const plan = (where: string) =>
          db.unsafe<{ readonly detail: string }>(
            `EXPLAIN QUERY PLAN SELECT * FROM shoplink_inbox
          WHERE ${where} AND (received_at, id) < (?, ?) ORDER BY received_at DESC, id DESC LIMIT 51`,
            [1767225600000 + 20_000, "e060000"]
          )
        const plans = {
          all: plan("1 = 1"),
          status: plan("status = 'dead'"),
          retrying: plan("status = 'pending' AND attempts > 0"),
          applied: plan("status = 'applied'"),
          shop: plan("shop_id = 'shop_3'"),
          shopDead: plan("shop_id = 'shop_3' AND status = 'dead'"),
          repairOrder: plan("shop_id = 'shop_3' AND repair_order_id = 'ro_3'")
        }
        const expected = {
          all: "shoplink_inbox_console ",
          status: "shoplink_inbox_console_dead",
          retrying: "shoplink_inbox_console_pending",
          applied: "shoplink_inbox_console_applied",
          shop: "shoplink_inbox_console_shop",
          shopDead: "shoplink_inbox_console_shop",
          repairOrder: "shoplink_inbox_console_ro"
        }
        for (const [name, plan] of Object.entries(plans)) {
          const detail = (yield* plan).map((r) => r.detail).join(" | ")
          expect(`${name}: ${detail} `).toContain(`USING INDEX ${expected[name as keyof typeof expected]}`)
          expect(detail).not.toContain("TEMP B-TREE")
          expect(detail).not.toMatch(/^SCAN shoplink_inbox$/)
        }

        // The worker's claim, the backlog gauge and the purge keep their own partial indexes.
        const kept = {
          claim: [
            `SELECT * FROM shoplink_inbox AS i WHERE i.status = 'pending' AND i.next_attempt_at <= ? AND NOT EXISTS (
          SELECT 1 FROM shoplink_inbox AS p WHERE p.status = 'pending' AND p.shop_id = i.shop_id AND p.repair_order_id = i.repair_order_id
            AND p.received_at <= i.received_at AND (p.received_at < i.received_at OR p.rowid < i.rowid))
          ORDER BY i.received_at, i.rowid LIMIT 64`,
            "shoplink_inbox_pending"
          ],
          backlog: [
            "SELECT COUNT(*) AS size, MIN(received_at) AS oldest FROM shoplink_inbox WHERE status = 'pending' AND ? > 0",
            "shoplink_inbox_pending"
          ],
          purge: [
            "SELECT rowid FROM shoplink_inbox WHERE status = 'applied' AND applied_at < ? LIMIT 500",
            "shoplink_inbox_applied"
          ]
        } as const
        for (const [name, [text, index]] of Object.entries(kept)) {
          const detail = (yield* db.unsafe<{ readonly detail: string }>(`EXPLAIN QUERY PLAN ${text}`, [1767225600000]))
            .map((r) => r.detail).join(" | ")
          expect(`${name}: ${detail}`).toMatch(
            new RegExp(`^${name}: [A-Z]+ (i|shoplink_inbox) USING (COVERING )?INDEX ${index}\\b`)
          )
        }

        // The same through the console: page 1, then "Older" continues right after its last row.
        const bearer = { authorization: `Bearer ${key}` }
        const http = client(url)
        const first = yield* http.send("/console", { headers: bearer })
        const firstRows = rowsOf(first.text)
        expect(firstRows).toHaveLength(50)
        expect(firstRows[0]!.id).toBe("e100000")
        const older = nextLink(first.text)
        expect(older).toBeDefined()
        const second = rowsOf((yield* http.send(older!, { headers: bearer })).text)
        expect(second).toHaveLength(50)
        // Newest first by (received_at, id): ids e100000 … descending, received three to a millisecond.
        const expectedIds = Array.from({ length: 100 }, (_, i) => 100_000 - i).sort((a, b) =>
          Math.floor(b / 3) - Math.floor(a / 3) || b - a
        )
        expect([...firstRows, ...second].map((r) => r.id)).toEqual(
          expectedIds.map((i) => `e${String(i).padStart(6, "0")}`)
        )

        // Filtered: the dead entries of one shop, page after page to the end: each once, newest first.
        let page = yield* http.send("/console?shop=shop_1&state=dead", { headers: bearer })
        const dead = [...rowsOf(page.text)]
        for (let link = nextLink(page.text); link !== undefined; link = nextLink(page.text)) {
          page = yield* http.send(link, { headers: bearer })
          dead.push(...rowsOf(page.text))
        }
        const expectedDead = yield* db<
          { readonly id: string }
        >`SELECT id FROM shoplink_inbox WHERE shop_id = 'shop_1' AND status = 'dead'
        ORDER BY received_at DESC, id DESC`
        expect(expectedDead.length).toBeGreaterThan(100)
        expect(dead.map((r) => r.id)).toEqual(expectedDead.map((r) => r.id))
        expect(dead.every((r) => r.state === "dead")).toBe(true)

        // The inbox's own page: retrying entries only.
        const retrying = yield* runtime.inbox.page({ status: "pending", retrying: true, limit: 500 })
        expect(retrying.entries.length).toBeGreaterThan(0)
        expect(retrying.entries.every((e) => DeliveryConsole.stateOf(e) === "retrying")).toBe(true)
      }),
    { timeout: 120_000 }
  )
})
