// Scratch SQLite files for the store tests; removed after each test file.
import { SqliteClient } from "@effect/sql-sqlite-node"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"

const dir = mkdtempSync(join(tmpdir(), "shoplink-connector-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let counter = 0
/** A fresh database file path. */
export const scratchDatabase = () => join(dir, `db-${++counter}.sqlite`)

/** A SqliteClient layer on that file; build it again on the same path to simulate a restart. */
export const sqlite = (filename: string) => SqliteClient.layer({ filename })
