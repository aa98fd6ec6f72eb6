// Versioned migrations on SQLite and PostgreSQL: a fresh database gets the whole schema, a second
// run is a no-op, processes starting together apply it once, and a database a newer release
// migrated is left alone with a warning.
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { ApiKeys, LaunchRegistry, Migrations, Storage, WebhookInbox } from "@shoplink/connector-runtime"
import { Context, Effect, Layer, Logger } from "effect"
import { pgOn, postgres, scratchDatabase, TestDatabaseUrl } from "./fixtures.js"

const TABLES = [
  "shoplink_api_keys",
  "shoplink_inbox",
  "shoplink_launches",
  "shoplink_migrations",
  "shoplink_parts",
  "shoplink_repair_order_states",
  "shoplink_sessions",
  "shoplink_shop_secrets",
  "shoplink_shops"
]
// Every version this release knows, as `run` answers and `shoplink_migrations` records them.
const ALL = [[1, "initial_schema"]]

// --- What a database holds ---

const sqliteTables = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<
      { readonly name: string }
    >`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'shoplink%' ORDER BY name`
).pipe(
  Effect.map((rows) => rows.map((r) => r.name))
)

const pgTables = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<{ readonly name: string }>`SELECT tablename AS name FROM pg_tables
    WHERE schemaname = current_schema() AND tablename LIKE 'shoplink%' ORDER BY tablename`
).pipe(
  Effect.map((rows) => rows.map((r) => r.name))
)

const recorded = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<{ readonly migration_id: number; readonly name: string }>`SELECT migration_id, name FROM ${
      sql(Migrations.table)
    }
    ORDER BY migration_id`.withoutTransform
).pipe(Effect.map((rows) => rows.map((r) => [r.migration_id, r.name])))

const sqliteIndexes = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<
      { readonly name: string }
    >`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'shoplink%' AND sql IS NOT NULL
    ORDER BY name`
).pipe(Effect.map((rows) => rows.map((r) => r.name)))

const pgIndexes = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<{ readonly name: string }>`SELECT indexname AS name FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename LIKE 'shoplink%' AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key'
    ORDER BY indexname`
).pipe(Effect.map((rows) => rows.map((r) => r.name)))

// The named indexes both dialects have; PostgreSQL adds the inbox's claim index.
const INDEXES = [
  "shoplink_inbox_applied",
  "shoplink_inbox_applied_bodies",
  "shoplink_inbox_console",
  "shoplink_inbox_console_applied",
  "shoplink_inbox_console_dead",
  "shoplink_inbox_console_pending",
  "shoplink_inbox_console_ro",
  "shoplink_inbox_console_shop",
  "shoplink_inbox_pending",
  "shoplink_inbox_pending_ro",
  "shoplink_launches_callback",
  "shoplink_launches_expiry",
  "shoplink_sessions_email",
  "shoplink_sessions_expiry"
]

/** The inbox's functions and triggers on PostgreSQL (the heads of its lines and the claim). */
const pgRoutines = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all({
    functions: sql<{ readonly name: string }>`SELECT proname AS name FROM pg_proc
      WHERE pronamespace = current_schema()::regnamespace AND proname LIKE 'shoplink%' ORDER BY proname`,
    triggers: sql<{ readonly name: string }>`SELECT tgname AS name FROM pg_trigger
      WHERE NOT tgisinternal AND tgrelid = 'shoplink_inbox'::regclass ORDER BY tgname`
  })).pipe(
    Effect.map(({ functions, triggers }) => ({
      functions: functions.map((r) => r.name),
      triggers: triggers.map((r) => r.name)
    }))
  )

// --- Both dialects ---

const dialects: ReadonlyArray<{
  readonly name: string
  readonly database: () => Layer.Layer<SqlClient.SqlClient>
  readonly tables: typeof sqliteTables
  readonly indexes: typeof sqliteIndexes
  readonly extraIndexes: ReadonlyArray<string>
}> = [
  {
    name: "sqlite",
    database: () => Storage.sqlite(scratchDatabase()),
    tables: sqliteTables,
    indexes: sqliteIndexes,
    extraIndexes: []
  },
  {
    name: "postgres",
    database: () => postgres(),
    tables: pgTables,
    indexes: pgIndexes,
    extraIndexes: ["shoplink_inbox_claim"]
  }
]

describe("Migrations", () => {
  it("knows version 1 and records it in shoplink_migrations", () => {
    expect(Migrations.latest).toBe(1)
    expect(Migrations.table).toBe("shoplink_migrations")
  })

  for (const { database, extraIndexes, indexes, name, tables } of dialects) {
    it.effect(`${name}: a fresh database gets every table and index; a second run is a no-op; version 1 is recorded`, () =>
      Effect.gen(function*() {
        expect(yield* Migrations.run).toEqual(ALL)
        expect(yield* tables).toEqual(TABLES)
        expect(yield* indexes).toEqual([...INDEXES, ...extraIndexes].sort())
        expect(yield* recorded).toEqual(ALL)
        expect(yield* Migrations.run).toEqual([])
        expect(yield* recorded).toEqual(ALL)
        // The layer, and every store, run it again: still nothing to do.
        yield* Effect.provide(Effect.void, Migrations.layer)
        expect(yield* recorded).toEqual(ALL)
      }).pipe(Effect.provide(database()), Effect.orDie))

    it.effect(`${name}: a database a newer release migrated is left alone, with a warning`, () =>
      Effect.gen(function*() {
        yield* Migrations.run
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO ${sql(Migrations.table)} (migration_id, name) VALUES (${
          Migrations.latest + 1
        }, 'future')`
        const warnings: Array<unknown> = []
        const logger = Logger.make(({ logLevel, message }) => {
          if (logLevel._tag === "Warning") warnings.push(message)
        })
        expect(yield* Migrations.run.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))).toEqual([])
        expect(warnings).toEqual([["database schema is newer than this release"]])
        expect(yield* recorded).toEqual([...ALL, [Migrations.latest + 1, "future"]])
        expect(yield* tables).toEqual(TABLES)
      }).pipe(Effect.provide(database()), Effect.orDie))
  }

  it.effect("postgres: the inbox's head triggers and claim function are in place", () =>
    Effect.gen(function*() {
      yield* Migrations.run
      expect(yield* pgRoutines).toEqual({
        functions: ["shoplink_inbox_after", "shoplink_inbox_before", "shoplink_inbox_claim"],
        triggers: ["shoplink_inbox_after", "shoplink_inbox_before"]
      })
    }).pipe(Effect.provide(postgres()), Effect.orDie))
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
        Layer.build(
          Layer.mergeAll(WebhookInbox.layerSql, LaunchRegistry.layerSql, ApiKeys.layerSql).pipe(
            Layer.provide(pgOn(url))
          )
        ),
        Layer.build(
          Layer.mergeAll(WebhookInbox.layerSql, LaunchRegistry.layerSql, ApiKeys.layerSql).pipe(
            Layer.provide(pgOn(url))
          )
        )
      ], { concurrency: 2 })
    }).pipe(Effect.scoped, Effect.provide(postgres()), Effect.orDie))

  it.live("sqlite: two connections on one file migrating at once both succeed; the schema is applied once", () =>
    Effect.gen(function*() {
      const file = scratchDatabase()
      const [one, two] = yield* Effect.all([Layer.build(Storage.sqlite(file)), Layer.build(Storage.sqlite(file))])
      const results = yield* Effect.all([Effect.provide(Migrations.run, one), Effect.provide(Migrations.run, two)], {
        concurrency: 2
      })
      expect(results.flat()).toEqual(ALL)
      expect(yield* Effect.provide(recorded, two)).toEqual(ALL)
      expect(yield* Effect.provide(sqliteTables, one)).toEqual(TABLES)
    }).pipe(Effect.scoped, Effect.orDie))
})
