// Scratch SQLite files and PostgreSQL databases for the store tests; removed after each test file.
import { PgClient } from "@effect/sql-pg"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { testDatabase } from "@shoplink/vitest-config/postgres"
import { Context, Effect, Layer, Redacted } from "effect"
import { scratchFile } from "./support/scratch.js"

/** A fresh database file path, in the current test file's scratch folder (support/scratch.ts). */
export const scratchDatabase = () => scratchFile("db", ".sqlite")

/** A SqliteClient layer on that file; build it again on the same path to simulate a restart. */
export const sqlite = (filename: string) => SqliteClient.layer({ filename })

/**
 * A PgClient on a new database of its own on the test server (see @shoplink/vitest-config/postgres),
 * dropped when the layer's scope closes. `layerOn(url)` opens another client on the same database
 * (a second process's view, or a restart).
 */
export const postgres = () =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const database = yield* Effect.acquireRelease(Effect.promise(testDatabase), (db) => Effect.promise(db.drop))
    return Layer.merge(pgOn(database.url), Layer.succeed(TestDatabaseUrl, database.url))
  }))

/** The URL of the database `postgres()` made, for a second client on it. */
export class TestDatabaseUrl extends Context.Tag("test/TestDatabaseUrl")<TestDatabaseUrl, string>() {}

/** A PgClient layer on `url`. */
export const pgOn = (url: string) => PgClient.layer({ url: Redacted.make(url), maxConnections: 4 }).pipe(Layer.orDie)
