// Sign-in sessions in the database: a restart of the service (a new runtime on the same SQLite
// file) signs nobody out, sign-out revokes on every instance, expired and idle sessions are
// refused, and the table holds neither the session id nor the CSRF token. Both dialects.
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { SessionStore } from "@shoplink/service-pages"
import { Context, Effect, Layer } from "effect"
import { postgres, scratchDatabase, sqlite } from "../../connector-runtime/test/fixtures.js"
import { client, startConsoleApp } from "./support/consoleApp.js"

const user = { email: "Ava@Example.com", name: "Ava", shopId: "shop_1", shopName: "Main Street Auto" }

describe("SessionStore over HTTP", () => {
  it.live(
    "sign in, restart the service on the same SQLite file: the cookie still works; sign-out revokes it everywhere",
    () =>
      Effect.gen(function*() {
        const database = scratchDatabase()
        const first = yield* Effect.scoped(Effect.gen(function*() {
          const { url } = yield* startConsoleApp(database)
          const browser = client(url)
          expect((yield* browser.signIn("olga@ops.example")).location).toBe("/console")
          expect((yield* browser.send("/console")).status).toBe(200)
          return browser
        }))
        // The first service has stopped (its scope closed); a new one starts on the same file.
        yield* Effect.scoped(Effect.gen(function*() {
          const { url } = yield* startConsoleApp(database)
          first.setUrl(url)
          const cookie = first.cookies.get("shoplink_session")
          expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/)
          const page = yield* first.send("/console")
          expect(page.status).toBe(200)
          expect(page.text).toContain("Olga")
          // Its CSRF token is the same after the restart (derived from the id): sign-out works.
          const signedOut = yield* first.post("/sign-out")
          expect([signedOut.status, signedOut.location]).toEqual([303, "/sign-in"])
          // The old cookie, presented again, is worthless.
          first.cookies.set("shoplink_session", cookie!)
          expect((yield* first.send("/console")).location).toBe("/sign-in?next=%2Fconsole")
        }))
      }),
    { timeout: 60_000 }
  )

  it.live("an expired session is refused, and its row deleted", () =>
    Effect.scoped(Effect.gen(function*() {
      let now = Date.now()
      const database = scratchDatabase()
      const { url } = yield* startConsoleApp(database, {
        sessions: { lifetimeMillis: 60_000, idleMillis: 30_000, now: () => now }
      })
      const browser = client(url)
      yield* browser.signIn("olga@ops.example")
      now += 20_000
      expect((yield* browser.send("/console")).status).toBe(200)
      now += 20_000
      expect((yield* browser.send("/console")).status).toBe(200)
      now += 21_000
      expect((yield* browser.send("/console")).location).toBe("/sign-in?next=%2Fconsole")
      const db = yield* SqlClient.SqlClient.pipe(Effect.provide(yield* Layer.build(sqlite(database))))
      expect(yield* db`SELECT * FROM shoplink_sessions`).toEqual([])
    })), { timeout: 60_000 })
})

for (const [name, database] of [["sqlite", () => sqlite(scratchDatabase())], ["postgres", postgres]] as const) {
  describe(`SessionStore on ${name}`, () => {
    it.scoped(
      "ids hashed at rest, CSRF token not stored, lifetime and idle expiry, revocation of one or all of a user's sessions",
      () =>
        Effect.gen(function*() {
          const context = yield* Layer.build(database())
          let now = 1_767_225_600_000
          const store = yield* SessionStore.sql({ lifetimeMillis: 100_000, idleMillis: 10_000, now: () => now }).pipe(
            Effect.provide(context)
          )
          const sql = Context.get(context, SqlClient.SqlClient)
          expect(store.kind).toBe("database")

          const a = yield* store.create(user)
          const b = yield* store.create({ ...user, role: "operator" })
          expect(a.id).not.toBe(b.id)
          expect(a.session.csrfToken).not.toBe(b.session.csrfToken)
          const rows = yield* sql`SELECT * FROM shoplink_sessions`
          const dump = JSON.stringify(rows)
          for (const secret of [a.id, b.id, a.session.csrfToken, b.session.csrfToken]) {
            expect(dump).not.toContain(secret)
          }
          expect(rows.map((r) => (r as { email: string }).email)).toEqual(["ava@example.com", "ava@example.com"])

          // Another instance (another store on the same database) serves the same session.
          const other = SessionStore.makeSql(sql, { lifetimeMillis: 100_000, idleMillis: 10_000, now: () => now })
          expect(yield* other.get(a.id)).toEqual(a.session)
          expect((yield* other.get(b.id))?.role).toBe("operator")
          expect(yield* other.get("not-an-id")).toBeUndefined()
          expect(yield* other.get(undefined)).toBeUndefined()

          // Idle: used every 8 s it lives on; left 10 s, it is gone.
          for (let i = 0; i < 5; i++) {
            now += 8_000
            expect(yield* store.get(a.id)).toBeDefined()
          }
          now += 10_000
          expect(yield* store.get(a.id)).toBeUndefined()
          expect(yield* store.get(b.id)).toBeUndefined()

          // Lifetime: gone after 100 s however busy.
          const c = yield* store.create(user)
          for (let i = 0; i < 11; i++) {
            now += 9_000
            expect(yield* store.get(c.id)).toBeDefined()
          }
          now += 9_000
          expect(yield* store.get(c.id)).toBeUndefined()

          // Revocation: one session, then all of a user's.
          const d = yield* store.create(user)
          const e = yield* store.create(user)
          const f = yield* store.create({ ...user, email: "ben@example.com" })
          yield* store.remove(d.id)
          expect(yield* store.get(d.id)).toBeUndefined()
          expect(yield* store.removeUser("AVA@example.com")).toBe(1)
          expect(yield* store.get(e.id)).toBeUndefined()
          expect(yield* store.get(f.id)).toBeDefined()
        }),
      { timeout: 60_000 }
    )
  })
}

describe("SessionStore.memory", () => {
  it.effect("the same contract in memory", () =>
    Effect.gen(function*() {
      let now = 0
      const store = SessionStore.memory({ lifetimeMillis: 100_000, idleMillis: 10_000, now: () => now })
      const a = yield* store.create(user)
      expect((yield* store.get(a.id))?.shopId).toBe("shop_1")
      now += 11_000
      expect(yield* store.get(a.id)).toBeUndefined()
      const b = yield* store.create(user)
      expect(yield* store.removeUser("ava@example.com")).toBe(1)
      expect(yield* store.get(b.id)).toBeUndefined()
    }))
})
