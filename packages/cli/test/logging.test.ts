// The CLI's log lines: each event once, one logfmt line on stderr (stdout is the command's output),
// never again through runMain's pretty logger.
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Migrations, SecretBox, Storage } from "@shoplink/connector-runtime"
import { Effect } from "effect"
import { join } from "node:path"
import { runCli, scratchDir } from "./support/cli.js"

describe("shoplink log lines", () => {
  it.live("a warning (a database migrated by a newer release) is one logfmt line on stderr, nothing on stdout", () =>
    Effect.gen(function*() {
      const file = join(scratchDir(), "shoplink.db")
      const env = { SHOPLINK_DATABASE_URL: file, SHOPLINK_SECRET_KEYS: SecretBox.generateKey("k1") }
      const migrated = yield* runCli(["db", "migrate"], env)
      expect(migrated.stderr).toBe("")
      expect(migrated.code).toBe(0)
      // As if a newer release had migrated it.
      yield* Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`INSERT INTO ${sql(Migrations.table)} (migration_id, name) VALUES (99, 'future')`
      ).pipe(
        Effect.provide(Storage.sqlite(file)),
        Effect.orDie
      )
      const listed = yield* runCli(["shops", "list"], env)
      expect(listed.code).toBe(0)
      expect(listed.stdout).toContain("no shops in")
      expect(listed.stdout).not.toContain("newer than this release")
      const lines = listed.stderr.split("\n").filter((line) => line.includes("newer than this release"))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/^timestamp=\S+ level=WARN .*message="database schema is newer than this release"/)
      // No pretty block (runMain's logger) anywhere.
      expect(listed.stderr).not.toMatch(/^\[\d\d:\d\d:\d\d/m)
    }))
})
