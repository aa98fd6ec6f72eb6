// Versioned migrations on SQLite and PostgreSQL: a fresh database gets the whole schema, a second
// run is a no-op, processes starting together apply it once, and a database written by the release
// before migrations (tables made by the stores themselves) is adopted with every row kept.
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { ApiKeys, LaunchRegistry, Migrations, SecretBox, ShopStore, Storage, WebhookInbox } from "@shoplink/connector-runtime"
import { Context, Effect, Either, Layer, Redacted, TestClock } from "effect"
import { createHash } from "node:crypto"
import { pgOn, postgres, scratchDatabase, sqlite, TestDatabaseUrl } from "./fixtures.js"

// --- The release before migrations: its DDL, verbatim from the stores' `layerSql` (git HEAD before #16) ---

const previousSqlite = [
  `CREATE TABLE IF NOT EXISTS shoplink_inbox (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      content_key TEXT NOT NULL UNIQUE,
      shop_id TEXT NOT NULL,
      repair_order_id TEXT NOT NULL,
      body TEXT NOT NULL,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      last_error TEXT,
      received_at INTEGER NOT NULL,
      next_attempt_at INTEGER NOT NULL,
      applied_at INTEGER
    )`,
  `DROP INDEX IF EXISTS shoplink_inbox_due`,
  `CREATE INDEX IF NOT EXISTS shoplink_inbox_pending ON shoplink_inbox (received_at) WHERE status = 'pending'`,
  `CREATE INDEX IF NOT EXISTS shoplink_inbox_pending_ro
          ON shoplink_inbox (shop_id, repair_order_id, received_at) WHERE status = 'pending'`,
  `CREATE INDEX IF NOT EXISTS shoplink_inbox_applied ON shoplink_inbox (applied_at) WHERE status = 'applied'`,
  `CREATE INDEX IF NOT EXISTS shoplink_inbox_applied_bodies ON shoplink_inbox (applied_at) WHERE status = 'applied' AND body <> ''`,
  `CREATE TABLE IF NOT EXISTS shoplink_launches (
          key_digest TEXT PRIMARY KEY,
          shop_id TEXT NOT NULL,
          repair_order_id TEXT NOT NULL,
          repair_order_number TEXT NOT NULL,
          repair_order_url TEXT,
          created_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL
        )`,
  `CREATE INDEX IF NOT EXISTS shoplink_launches_expiry ON shoplink_launches (expires_at)`,
  `CREATE TABLE IF NOT EXISTS shoplink_shops (
          shop_id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          account_no TEXT NOT NULL,
          username TEXT NOT NULL,
          country TEXT NOT NULL,
          status TEXT NOT NULL,
          revoked_reason TEXT,
          revoked_at INTEGER,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        )`,
  `CREATE TABLE IF NOT EXISTS shoplink_shop_secrets (
          shop_id TEXT NOT NULL REFERENCES shoplink_shops (shop_id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          key_id TEXT NOT NULL,
          ciphertext TEXT NOT NULL,
          PRIMARY KEY (shop_id, name)
        )`,
  `CREATE TABLE IF NOT EXISTS shoplink_api_keys (
        key_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        digest TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      )`
]

const previousPg = [
  `CREATE TABLE IF NOT EXISTS shoplink_inbox (
        id TEXT PRIMARY KEY,
        seq BIGINT GENERATED ALWAYS AS IDENTITY,
        kind TEXT NOT NULL,
        content_key TEXT NOT NULL UNIQUE,
        shop_id TEXT NOT NULL,
        repair_order_id TEXT NOT NULL,
        body TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        last_error TEXT,
        received_at BIGINT NOT NULL,
        next_attempt_at BIGINT NOT NULL,
        applied_at BIGINT,
        lease_owner TEXT,
        lease_until BIGINT
      )`,
  `CREATE INDEX IF NOT EXISTS shoplink_inbox_pending ON shoplink_inbox (seq) WHERE status = 'pending'`,
  `CREATE INDEX IF NOT EXISTS shoplink_inbox_pending_ro
          ON shoplink_inbox (shop_id, repair_order_id, seq) WHERE status = 'pending'`,
  `CREATE INDEX IF NOT EXISTS shoplink_inbox_applied ON shoplink_inbox (applied_at) WHERE status = 'applied'`,
  `CREATE INDEX IF NOT EXISTS shoplink_inbox_applied_bodies ON shoplink_inbox (applied_at) WHERE status = 'applied' AND body <> ''`,
  `CREATE TABLE IF NOT EXISTS shoplink_launches (
          key_digest TEXT PRIMARY KEY,
          shop_id TEXT NOT NULL,
          repair_order_id TEXT NOT NULL,
          repair_order_number TEXT NOT NULL,
          repair_order_url TEXT,
          created_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL
        )`,
  `CREATE INDEX IF NOT EXISTS shoplink_launches_expiry ON shoplink_launches (expires_at)`,
  `CREATE TABLE IF NOT EXISTS shoplink_shops (
          shop_id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          account_no TEXT NOT NULL,
          username TEXT NOT NULL,
          country TEXT NOT NULL,
          status TEXT NOT NULL,
          revoked_reason TEXT,
          revoked_at BIGINT,
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL
        )`,
  `CREATE TABLE IF NOT EXISTS shoplink_shop_secrets (
          shop_id TEXT NOT NULL REFERENCES shoplink_shops (shop_id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          key_id TEXT NOT NULL,
          ciphertext TEXT NOT NULL,
          PRIMARY KEY (shop_id, name)
        )`,
  `CREATE TABLE IF NOT EXISTS shoplink_api_keys (
          key_id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          digest TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          revoked_at BIGINT
        )`
]

const TABLES = [
  "shoplink_api_keys",
  "shoplink_inbox",
  "shoplink_launches",
  "shoplink_migrations",
  "shoplink_parts",
  "shoplink_sessions",
  "shoplink_shop_secrets",
  "shoplink_shops"
]
// Every version this release knows, as `run` answers and `shoplink_migrations` records them.
const ALL = [[1, "initial_schema"], [2, "parts_ledger"], [3, "launch_callback_keys"], [4, "inbox_engine"], [5, "sessions_and_console"], [6, "inbox_claim"]]

const createPrevious = (statements: ReadonlyArray<string>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.forEach(statements, (s) => sql.unsafe(s), { discard: true }))

// --- What a database holds ---

const sqliteTables = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'shoplink%' ORDER BY name`).pipe(
    Effect.map((rows) => rows.map((r) => r.name))
  )

const pgTables = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly name: string }>`SELECT tablename AS name FROM pg_tables
    WHERE schemaname = current_schema() AND tablename LIKE 'shoplink%' ORDER BY tablename`).pipe(
    Effect.map((rows) => rows.map((r) => r.name))
  )

/** The shoplink tables and indexes as SQLite records them, the migrations table aside, whitespace normalized. */
const sqliteSchema = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly type: string; readonly name: string; readonly sql: string | null }>`SELECT type, name, sql FROM sqlite_master
    WHERE tbl_name LIKE 'shoplink%' AND tbl_name <> ${Migrations.table} ORDER BY name`).pipe(
    Effect.map((rows) => rows.map((r) => ({ ...r, sql: r.sql?.replace(/IF NOT EXISTS /i, "").replace(/\s+/g, " ") ?? null })))
  )

/** Columns, indexes and constraints of the shoplink tables (the migrations table aside) on PostgreSQL. */
const pgSchema = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all({
    columns: sql`SELECT table_name, column_name, ordinal_position, data_type, is_nullable, is_identity, column_default
      FROM information_schema.columns WHERE table_schema = current_schema() AND table_name LIKE 'shoplink%'
        AND table_name <> ${Migrations.table}
      ORDER BY table_name, ordinal_position`,
    indexes: sql`SELECT tablename, indexname, indexdef FROM pg_indexes
      WHERE schemaname = current_schema() AND tablename LIKE 'shoplink%' AND tablename <> ${Migrations.table}
      ORDER BY indexname`,
    constraints: sql`SELECT conrelid::regclass::text AS table_name, conname, pg_get_constraintdef(oid) AS definition
      FROM pg_constraint WHERE conrelid::regclass::text LIKE 'shoplink%' AND conrelid::regclass::text <> ${Migrations.table}
      ORDER BY conname`
  }))

const recorded = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly migration_id: number; readonly name: string }>`SELECT migration_id, name FROM ${sql(Migrations.table)}
    ORDER BY migration_id`.withoutTransform).pipe(Effect.map((rows) => rows.map((r) => [r.migration_id, r.name])))

// What migrations after the first add, dropped to compare version 1 with the schema before migrations.
const withoutLaterTables = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.gen(function*() {
    yield* sql`DROP TABLE shoplink_parts`
    // Migration 5: sign-in sessions and the console's inbox indexes.
    yield* sql`DROP TABLE shoplink_sessions`
    for (const index of ["console", "console_pending", "console_dead", "console_applied", "console_shop", "console_ro"]) {
      yield* sql.unsafe(`DROP INDEX shoplink_inbox_${index}`)
    }
    // Migration 3: the callback key.
    yield* sql`DROP INDEX shoplink_launches_callback`
    yield* sql`ALTER TABLE shoplink_launches DROP COLUMN callback_digest`
    // Migration 4 (the inbox engine) on PostgreSQL: the claim index, the head triggers, `is_head`.
    if (sql.onDialectOrElse({ pg: () => true, orElse: () => false })) {
      yield* sql`DROP TRIGGER shoplink_inbox_before ON shoplink_inbox`
      yield* sql`DROP TRIGGER shoplink_inbox_after ON shoplink_inbox`
      yield* sql`DROP FUNCTION shoplink_inbox_before()`
      yield* sql`DROP FUNCTION shoplink_inbox_after()`
      yield* sql`DROP INDEX shoplink_inbox_claim`
      yield* sql`ALTER TABLE shoplink_inbox DROP COLUMN is_head`
    }
  }))

// --- Both dialects ---

const dialects: ReadonlyArray<{
  readonly name: string
  readonly database: () => Layer.Layer<SqlClient.SqlClient>
  readonly tables: typeof sqliteTables
}> = [
  { name: "sqlite", database: () => Storage.sqlite(scratchDatabase()), tables: sqliteTables },
  { name: "postgres", database: () => postgres(), tables: pgTables }
]

describe("Migrations", () => {
  it("knows versions 1 to 5 and records them in shoplink_migrations", () => {
    expect(Migrations.latest).toBe(6)
    expect(Migrations.table).toBe("shoplink_migrations")
  })

  for (const { database, name, tables } of dialects) {
    it.effect(`${name}: a fresh database gets every table; a second run is a no-op; version 1 is recorded`, () =>
      Effect.gen(function*() {
        expect(yield* Migrations.run).toEqual(ALL)
        expect(yield* tables).toEqual(TABLES)
        expect(yield* recorded).toEqual(ALL)
        expect(yield* Migrations.run).toEqual([])
        expect(yield* recorded).toEqual(ALL)
        // The layer, and every store, run it again: still nothing to do.
        yield* Effect.provide(Effect.void, Migrations.layer)
        expect(yield* recorded).toEqual(ALL)
      }).pipe(Effect.provide(database()), Effect.orDie))
  }

  it.effect("sqlite: migration 1 is exactly the schema the release before migrations created", () =>
    Effect.gen(function*() {
      const previous = yield* Effect.zipRight(createPrevious(previousSqlite), sqliteSchema).pipe(Effect.provide(sqlite(scratchDatabase())))
      const migrated = yield* Effect.zipRight(Effect.zipRight(Migrations.run, withoutLaterTables), sqliteSchema).pipe(
        Effect.provide(sqlite(scratchDatabase()))
      )
      expect(migrated).toEqual(previous)
      expect(migrated.map((r) => r.name)).toContain("shoplink_inbox_pending_ro")
    }).pipe(Effect.orDie))

  it.effect("postgres: migration 1 is exactly the schema the release before migrations created", () =>
    Effect.gen(function*() {
      const other = yield* Layer.build(postgres())
      const previous = yield* Effect.zipRight(createPrevious(previousPg), pgSchema).pipe(Effect.provide(other))
      const migrated = yield* Effect.zipRight(Effect.zipRight(Migrations.run, withoutLaterTables), pgSchema)
      expect(migrated).toEqual(previous)
      expect(migrated.indexes.length).toBeGreaterThanOrEqual(10)
    }).pipe(Effect.scoped, Effect.provide(postgres()), Effect.orDie))
})

// --- Upgrading a file of the release before migrations ---

const TOKEN = "sbx-token-us-100200-very-secret"
const SMS_KEY = "shopmonkey-key-7f3a9c-very-secret"
const LAUNCH_KEY = "bGF1bmNoLWtleS1mcm9tLXRoZS1vbGQtcmVsZWFzZQ"
const API_KEY = `slk_0123456789_${"A".repeat(43)}`
const keyring = Either.getOrThrow(SecretBox.parseKeyring(SecretBox.generateKey("k1")))
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

/** Rows as the release before migrations wrote them: inbox entries pending, applied and dead, a launch, a shop with sealed secrets, an API key. */
const writePreviousRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const box = yield* SecretBox.SecretBox
  const entry = (id: string, status: string, extra: { attempts: number; lastError: string | null; appliedAt: number | null }) =>
    sql`INSERT INTO shoplink_inbox (id, kind, content_key, shop_id, repair_order_id, body, status, attempts, last_error, received_at,
        next_attempt_at, applied_at)
      VALUES (${id}, 'order', ${`order:${id}:1`}, 'shop_1', ${`ro_${id}`}, ${JSON.stringify({ id })}, ${status}, ${extra.attempts},
        ${extra.lastError}, 1000, 1000, ${extra.appliedAt})`
  yield* entry("pending", "pending", { attempts: 0, lastError: null, appliedAt: null })
  yield* entry("applied", "applied", { attempts: 1, lastError: null, appliedAt: 2000 })
  yield* entry("dead", "dead", { attempts: 5, lastError: "distributor said no", appliedAt: null })
  yield* sql`INSERT INTO shoplink_launches (key_digest, shop_id, repair_order_id, repair_order_number, repair_order_url, created_at, expires_at)
    VALUES (${sha256(LAUNCH_KEY)}, 'shop_1', 'ro_1', '1042', NULL, 500, 4000000000000)`
  yield* sql`INSERT INTO shoplink_shops (shop_id, name, account_no, username, country, status, revoked_reason, revoked_at, created_at, updated_at)
    VALUES ('shop_1', 'Main Street Auto', '100200', 'parts@mainstreet.example', 'US', 'active', NULL, NULL, 700, 700)`
  for (const [name, value] of [["distributor.apiToken", TOKEN], ["sms.apiKey", SMS_KEY]] as const) {
    const sealed = yield* box.seal(Redacted.make(value), `shop_1/${name}`)
    yield* sql`INSERT INTO shoplink_shop_secrets (shop_id, name, key_id, ciphertext) VALUES ('shop_1', ${name}, ${sealed.keyId}, ${sealed.ciphertext})`
  }
  yield* sql`INSERT INTO shoplink_api_keys (key_id, name, digest, created_at, revoked_at)
    VALUES ('0123456789', 'sms-backend', ${sha256(API_KEY)}, 800, NULL)`
})

const stores = (file: string) =>
  Layer.mergeAll(WebhookInbox.layerSql, LaunchRegistry.layerSql, ShopStore.layerSql, ApiKeys.layerSql).pipe(
    Layer.provideMerge(Storage.sqlite(file)),
    Layer.provide(SecretBox.layer(keyring))
  )

describe("Migrations: upgrading a SQLite file of the release before migrations", () => {
  it.effect("every inbox entry, launch, shop and API key is still there and usable", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(10_000) // after the entries were received, so the pending one is due
      const file = scratchDatabase()
      yield* Effect.zipRight(createPrevious(previousSqlite), writePreviousRows).pipe(
        Effect.provide(Layer.merge(sqlite(file), SecretBox.layer(keyring)))
      )

      yield* Effect.gen(function*() {
        expect(yield* recorded).toEqual(ALL)
        const inbox = yield* WebhookInbox.WebhookInbox
        const entries = yield* inbox.list()
        expect(entries.map((e) => [e.id, e.status]).sort()).toEqual([["applied", "applied"], ["dead", "dead"], ["pending", "pending"]])
        expect(yield* inbox.get("dead")).toMatchObject({ attempts: 5, lastError: "distributor said no" })
        expect(yield* inbox.get("applied")).toMatchObject({ appliedAt: 2000 })
        // A stored content key is still a duplicate; `claim` hands out the pending entry only.
        const again = yield* inbox.receive({ kind: "order", contentKey: "order:pending:1", shopId: "shop_1", repairOrderId: "ro_pending", body: "{}" })
        expect(again).toMatchObject({ duplicate: true, entry: { id: "pending" } })
        expect((yield* inbox.claim(10)).map((e) => e.id)).toEqual(["pending"])

        const launch = yield* Effect.flatMap(LaunchRegistry.LaunchRegistry, (r) => r.resolve(LAUNCH_KEY))
        expect(launch).toMatchObject({ shopId: "shop_1", repairOrderNumber: "1042", createdAt: 500 })

        const shops = yield* ShopStore.ShopStore
        expect(yield* shops.get("shop_1")).toMatchObject({ name: "Main Street Auto", smsSecrets: ["apiKey"], createdAt: 700 })
        expect(Redacted.value((yield* shops.customerCredentials("shop_1")).apiToken)).toBe(TOKEN)
        expect(Redacted.value((yield* shops.smsCredentials("shop_1"))["apiKey"]!)).toBe(SMS_KEY)

        const keys = yield* ApiKeys.ApiKeys
        expect(yield* keys.verify(`Bearer ${API_KEY}`)).toMatchObject({ id: "0123456789", name: "sms-backend" })
      }).pipe(Effect.provide(stores(file)))

      // And after a restart: nothing applied again, nothing lost.
      yield* Effect.gen(function*() {
        expect(yield* Migrations.run).toEqual([])
        expect(yield* recorded).toEqual(ALL)
        expect(yield* Effect.flatMap(WebhookInbox.WebhookInbox, (i) => i.list())).toHaveLength(3)
      }).pipe(Effect.provide(stores(file)))
    }).pipe(Effect.orDie))

  it.effect("the inbox index of still earlier files (shoplink_inbox_due) is dropped", () =>
    Effect.gen(function*() {
      const file = scratchDatabase()
      const indexes = Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ readonly name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'shoplink_inbox' AND sql IS NOT NULL
          ORDER BY name`).pipe(Effect.map((rows) => rows.map((r) => r.name)))
      const before = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(previousSqlite[0]!)
        yield* sql`CREATE INDEX shoplink_inbox_due ON shoplink_inbox (status, next_attempt_at)`
        return yield* indexes
      }).pipe(Effect.provide(sqlite(file)))
      expect(before).toEqual(["shoplink_inbox_due"])
      const after = yield* Effect.zipRight(Migrations.run, indexes).pipe(Effect.provide(sqlite(file)))
      expect(after).toEqual([
        "shoplink_inbox_applied",
        "shoplink_inbox_applied_bodies",
        "shoplink_inbox_console",
        "shoplink_inbox_console_applied",
        "shoplink_inbox_console_dead",
        "shoplink_inbox_console_pending",
        "shoplink_inbox_console_ro",
        "shoplink_inbox_console_shop",
        "shoplink_inbox_pending",
        "shoplink_inbox_pending_ro"
      ])
    }).pipe(Effect.orDie))
})

// --- Several processes at once ---

describe("Migrations: several processes starting at once", () => {
  it.live("postgres: two clients migrating concurrently both succeed; the schema is applied once", () =>
    Effect.gen(function*() {
      const url = yield* TestDatabaseUrl
      const [one, two] = yield* Effect.all([Layer.build(pgOn(url)), Layer.build(pgOn(url))])
      const runOn = (context: Context.Context<SqlClient.SqlClient>) => Effect.provide(Migrations.run, context)
      const results = yield* Effect.all([runOn(one), runOn(two), runOn(one), runOn(two)], { concurrency: "unbounded" })
      expect(results.filter((applied) => applied.length > 0)).toEqual([ALL])
      expect(yield* Effect.provide(recorded, two)).toEqual(ALL)
      expect(yield* Effect.provide(pgTables, one)).toEqual(TABLES)
      // The stores, each process its own, start together on the migrated database.
      yield* Effect.all([
        Layer.build(Layer.mergeAll(WebhookInbox.layerSql, LaunchRegistry.layerSql, ApiKeys.layerSql).pipe(Layer.provide(pgOn(url)))),
        Layer.build(Layer.mergeAll(WebhookInbox.layerSql, LaunchRegistry.layerSql, ApiKeys.layerSql).pipe(Layer.provide(pgOn(url))))
      ], { concurrency: 2 })
    }).pipe(Effect.scoped, Effect.provide(postgres()), Effect.orDie))

  it.live("postgres: a database of the release before migrations is adopted by two processes at once, rows kept", () =>
    Effect.gen(function*() {
      const url = yield* TestDatabaseUrl
      yield* createPrevious(previousPg)
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO shoplink_inbox (id, kind, content_key, shop_id, repair_order_id, body, status, attempts, received_at, next_attempt_at)
        VALUES ('e1', 'order', 'order:e1:1', 'shop_1', 'ro_1', '{}', 'pending', 0, 1000, 1000)`
      const [one, two] = yield* Effect.all([Layer.build(pgOn(url)), Layer.build(pgOn(url))])
      const results = yield* Effect.all([Effect.provide(Migrations.run, one), Effect.provide(Migrations.run, two)], { concurrency: 2 })
      expect(results.flat()).toEqual(ALL)
      expect(yield* recorded).toEqual(ALL)
      const inbox = yield* Effect.provide(WebhookInbox.WebhookInbox, yield* Layer.build(WebhookInbox.layerSql.pipe(Layer.provide(pgOn(url)))))
      expect((yield* inbox.claim(10)).map((e) => e.id)).toEqual(["e1"])
    }).pipe(Effect.scoped, Effect.provide(postgres()), Effect.orDie))

  it.live("sqlite: two connections on one file migrating at once both succeed; the schema is applied once", () =>
    Effect.gen(function*() {
      const file = scratchDatabase()
      const [one, two] = yield* Effect.all([Layer.build(Storage.sqlite(file)), Layer.build(Storage.sqlite(file))])
      const results = yield* Effect.all([Effect.provide(Migrations.run, one), Effect.provide(Migrations.run, two)], { concurrency: 2 })
      expect(results.flat()).toEqual(ALL)
      expect(yield* Effect.provide(recorded, two)).toEqual(ALL)
      expect(yield* Effect.provide(sqliteTables, one)).toEqual(TABLES)
    }).pipe(Effect.scoped, Effect.orDie))
})
