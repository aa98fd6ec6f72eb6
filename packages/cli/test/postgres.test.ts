// `shoplink shops`, `keys` and `inbox` on a PostgreSQL database (a scaled-out service's), run as a
// user would, against a real server: a database of its own, dropped afterwards.
import { describe, expect, it } from "@effect/vitest"
import { Migrations, SecretBox } from "@shoplink/connector-runtime"
import { testDatabase } from "@shoplink/vitest-config/postgres"
import { Effect } from "effect"
import pg from "pg"
import { join } from "node:path"
import { parseJson, runCli, runCliInProcess, scratchDir } from "./support/cli.js"

const TOKEN = "distributor-token-must-not-be-stored-5521"
const SMS_KEY = "sms-key-must-not-be-stored-7713"

const database = Effect.acquireRelease(Effect.promise(testDatabase), (db) => Effect.promise(db.drop))

/** Every text column of every row of the shoplink_* tables, to search for secrets. */
const everything = (url: string) =>
  Effect.promise(async () => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      const tables = await client.query("SELECT tablename FROM pg_tables WHERE tablename LIKE 'shoplink_%'")
      // One query at a time: a pg.Client runs them in turn anyway (and warns when asked not to).
      const rows: Array<unknown> = []
      for (const t of tables.rows) rows.push((await client.query(`SELECT * FROM "${t.tablename}"`)).rows)
      return JSON.stringify(rows)
    } finally {
      await client.end()
    }
  })

describe("shoplink on PostgreSQL", () => {
  it.scoped("shops add → list → remove, keys create → list, inbox list; nothing secret stored or printed", () =>
    Effect.gen(function*() {
      const db = yield* database
      const withPassword = new URL(db.url)
      withPassword.password = "not-checked-by-trust-auth"
      const env = { SHOPLINK_DATABASE_URL: withPassword.toString(), SHOPLINK_SECRET_KEYS: SecretBox.generateKey("k1") }
      const added = yield* runCli(
        [
          "shops",
          "add",
          "shop_pg",
          "--name",
          "Main Street Auto",
          "--account",
          "100200",
          "--username",
          "parts@mainstreet.example",
          "--country",
          "US",
          "--sms-secret",
          "apiKey"
        ],
        env,
        { stdin: JSON.stringify({ apiToken: TOKEN, sms: { apiKey: SMS_KEY } }) }
      )
      expect(added.stderr).toBe("")
      expect(added.code).toBe(0)
      expect(added.stdout).toContain("added shop shop_pg")
      const listed = yield* runCli(["shops", "list", "--json"], env)
      expect(listed.code).toBe(0)
      expect(parseJson(listed.stdout)).toEqual([expect.objectContaining({ id: "shop_pg", smsSecrets: ["apiKey"] })])
      const key = yield* runCli(["keys", "create", "sms-backend"], env)
      expect(key.code).toBe(0)
      const inbox = yield* runCli(["inbox", "list", "--json"], env)
      expect(inbox.code).toBe(0)
      expect(parseJson(inbox.stdout)).toEqual([])
      const stored = yield* everything(db.url)
      expect(stored).toContain("shop_pg")
      for (const secret of [TOKEN, SMS_KEY]) expect(stored).not.toContain(secret)
      for (const output of [added, listed, key, inbox]) {
        expect(`${output.stdout}${output.stderr}`).not.toContain("not-checked-by-trust-auth")
      }
      const removed = yield* runCli(["shops", "remove", "shop_pg"], env)
      expect(removed.code).toBe(0)
      expect(parseJson((yield* runCli(["shops", "list", "--json"], env)).stdout)).toEqual([])
    }))

  it.effect("a database URL that cannot be used: one line, exit non-zero, no password", () =>
    Effect.gen(function*() {
      const env = { SHOPLINK_SECRET_KEYS: SecretBox.generateKey("k1") }
      const scheme = yield* runCli(["shops", "list"], {
        ...env,
        SHOPLINK_DATABASE_URL: "mysql://root:hunter2@db/shoplink"
      })
      expect(scheme.code).toBe(2)
      expect(scheme.stderr).toContain("unsupported scheme \"mysql:\"")
      const refused = yield* runCli(["shops", "list"], {
        ...env,
        SHOPLINK_DATABASE_URL: "postgres://postgres:hunter2@127.0.0.1:9/shoplink"
      })
      expect(refused.code).not.toBe(0)
      expect(refused.stderr).toContain(
        "database postgres://postgres:***@127.0.0.1:9/shoplink: nothing answers at that host and port"
      )
      for (const output of [scheme, refused]) expect(`${output.stdout}${output.stderr}`).not.toContain("hunter2")
    }))

  it.scoped("db migrate: a new database gets every migration, a second run finds it up to date; on PostgreSQL and on a SQLite file", () =>
    Effect.gen(function*() {
      const db = yield* database
      for (const url of [db.url, join(scratchDir(), "shoplink.db")]) {
        const first = yield* runCliInProcess(["db", "migrate", "--json"], { SHOPLINK_DATABASE_URL: url })
        expect(first.stderr).toBe("")
        expect(first.code).toBe(0)
        const report = parseJson(first.stdout) as {
          version: number
          applied: ReadonlyArray<{ version: number; name: string }>
        }
        expect(report.version).toBe(Migrations.latest)
        expect(report.applied.map((m) => m.version)).toEqual(Array.from({ length: Migrations.latest }, (_, i) => i + 1))
        expect(report.applied[0]).toEqual({ version: 1, name: "initial_schema" })
        const again = yield* runCliInProcess(["db", "migrate"], { SHOPLINK_DATABASE_URL: url })
        expect(again.code).toBe(0)
        expect(again.stdout).toMatch(new RegExp(`is up to date \\(version ${Migrations.latest}\\)\\n$`))
      }
    }))
})
