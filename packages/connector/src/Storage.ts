/**
 * Where the runtime's stores live. SQLite is the embedded default: one file, created readable by
 * its owner only (mode 0600, and so are its `-wal` and `-shm` companions), since it holds sealed
 * secrets, launch-key digests and webhook bodies. (Issue #16 adds PostgreSQL for scale-out.)
 *
 * @since 0.2.0
 */
import type { SqlClient } from "@effect/sql"
import type { SqliteClient } from "@effect/sql-sqlite-node"
import { Effect, Layer } from "effect"
import { chmodSync, closeSync, existsSync, openSync } from "node:fs"

/** Creates the file (or tightens an existing one) to 0600 before SQLite opens it. */
const restrict = (filename: string) => {
  if (filename === ":memory:" || filename === "") return
  if (!existsSync(filename)) closeSync(openSync(filename, "a", 0o600))
  for (const file of [filename, `${filename}-wal`, `${filename}-shm`]) {
    if (existsSync(file)) chmodSync(file, 0o600)
  }
}

/**
 * A SQLite `SqlClient` on `filename` in WAL mode, the file (and its WAL and shared-memory files)
 * readable by its owner only.
 *
 * @example
 * import { Layer } from "effect"
 * import { ShopStore, Storage } from "@shoplink/connector"
 * const stores = ShopStore.layerSql.pipe(Layer.provide(Storage.sqlite("/var/lib/shoplink/shoplink.db")))
 *
 * @since 0.2.0
 */
export const sqlite = (filename: string): Layer.Layer<SqliteClient.SqliteClient | SqlClient.SqlClient> =>
  Layer.unwrapEffect(Effect.promise(async () => {
    // Loaded on use: @effect/sql-sqlite-node is an optional peer (not needed on PostgreSQL).
    const { SqliteClient } = await import("@effect/sql-sqlite-node")
    restrict(filename)
    return SqliteClient.layer({ filename }).pipe(
      // SQLite makes the -wal and -shm files on first use, with the process umask: tighten them too.
      Layer.tap(() => Effect.sync(() => restrict(filename)))
    )
  })).pipe(Layer.orDie)
