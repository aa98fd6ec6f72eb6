/**
 * The stores' schema, versioned: migrations applied by `@effect/sql`'s `Migrator` on SQLite and on
 * PostgreSQL, each version recorded in `shoplink_migrations`. Every store's `layerSql` runs them
 * first; `layer` runs them on their own (a deploy step). Processes starting at once take turns
 * (PostgreSQL: an advisory lock; SQLite: a short retry). How to add one: docs/architecture.md,
 * "Adding a migration".
 *
 * @since 0.1.0
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type * as SqlError from "@effect/sql/SqlError"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { busySchedule, isBusy } from "./internal/sqliteBusy.js"

/**
 * The table the applied versions are recorded in (`migration_id`, `name`, `created_at`).
 *
 * @example
 * import { SqlClient } from "@effect/sql"
 * import { Effect } from "effect"
 * import { Migrations } from "@shoplink/connector-runtime"
 * const applied = Effect.flatMap(SqlClient.SqlClient, (sql) =>
 *   sql`SELECT migration_id, name FROM ${sql(Migrations.table)} ORDER BY migration_id`)
 *
 * @since 0.1.0
 */
export const table = "shoplink_migrations"

// --- The migrations. Keys are "<version>_<name>"; see "Adding a migration" above. ---

type Statements = ReadonlyArray<Effect.Effect<unknown, SqlError.SqlError>>

// The inbox of webhook deliveries (`WebhookInbox`). Partial indexes: the pending ones hold only the
// backlog (what the worker's claim and the backlog gauge read), the applied ones serve retention.
// The delivery console reads keyset pages, newest first, each ordered by (received_at, id): all
// entries, each status (partial indexes too: an index led by `status` would be picked by the
// claim, the gauge and the purge over their own), a shop, a repair order.
//
// SQLite (one process, one writer) orders the backlog by `received_at`; its worker holds its claims
// in memory. PostgreSQL orders it by the `seq` identity (receivers in several processes have
// clocks of their own) and keeps claims in the table: each repair order's line has one head
// (`is_head`: its oldest pending entry), kept by triggers under a per-repair-order advisory lock,
// and a claim (`shoplink_inbox_claim`) takes due heads from one small partial index, moving
// `next_attempt_at` and `lease_until` to the lease's end on the database's clock, so a held entry
// is not due until its lease runs out.
const inbox = (sql: SqlClient.SqlClient): Statements =>
  sql.onDialectOrElse({
    pg: (): Statements => [
      sql`CREATE TABLE shoplink_inbox (
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
        lease_until BIGINT,
        is_head BOOLEAN NOT NULL DEFAULT false
      )`,
      sql`CREATE INDEX shoplink_inbox_pending ON shoplink_inbox (seq) WHERE status = 'pending'`,
      sql`CREATE INDEX shoplink_inbox_pending_ro ON shoplink_inbox (shop_id, repair_order_id, seq) WHERE status = 'pending'`,
      sql`CREATE INDEX shoplink_inbox_claim ON shoplink_inbox (next_attempt_at, seq) WHERE status = 'pending' AND is_head`,
      // Whether a pending entry heads its line is decided under the repair order's advisory lock,
      // each statement with a fresh snapshot (PL/pgSQL, READ COMMITTED): two receives of one
      // repair order, or a receive and the settling of the head, take turns and see each other.
      sql.unsafe(`CREATE FUNCTION shoplink_inbox_before() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.status <> 'pending' THEN
            NEW.is_head := false;
          ELSIF TG_OP = 'INSERT' OR OLD.status <> 'pending' THEN
            PERFORM pg_advisory_xact_lock(1936223339, hashtext(NEW.shop_id || chr(1) || NEW.repair_order_id));
            NEW.is_head := NOT EXISTS (
              SELECT 1 FROM shoplink_inbox
              WHERE status = 'pending' AND shop_id = NEW.shop_id AND repair_order_id = NEW.repair_order_id AND id <> NEW.id);
            -- A replayed entry goes back to its place: ahead of a later head nobody holds.
            IF TG_OP = 'UPDATE' AND NOT NEW.is_head THEN
              UPDATE shoplink_inbox SET is_head = false
              WHERE status = 'pending' AND is_head AND shop_id = NEW.shop_id AND repair_order_id = NEW.repair_order_id
                AND seq > NEW.seq AND lease_owner IS NULL;
              NEW.is_head := FOUND;
            END IF;
          END IF;
          RETURN NEW;
        END $$`),
      sql.unsafe(`CREATE FUNCTION shoplink_inbox_after() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF OLD.status = 'pending' AND OLD.is_head AND (TG_OP = 'DELETE' OR NEW.status <> 'pending') THEN
            PERFORM pg_advisory_xact_lock(1936223339, hashtext(OLD.shop_id || chr(1) || OLD.repair_order_id));
            UPDATE shoplink_inbox SET is_head = true WHERE id = (
              SELECT id FROM shoplink_inbox
              WHERE status = 'pending' AND shop_id = OLD.shop_id AND repair_order_id = OLD.repair_order_id
              ORDER BY seq LIMIT 1);
          END IF;
          RETURN NULL;
        END $$`),
      sql`CREATE TRIGGER shoplink_inbox_before BEFORE INSERT OR UPDATE OF status ON shoplink_inbox
          FOR EACH ROW EXECUTE FUNCTION shoplink_inbox_before()`,
      sql`CREATE TRIGGER shoplink_inbox_after AFTER UPDATE OF status OR DELETE ON shoplink_inbox
          FOR EACH ROW EXECUTE FUNCTION shoplink_inbox_after()`,
      // The claim as one function, so it is one round trip with a plan of its own: sorts and bitmap
      // scans are off inside it, which leaves the ordered walk of `shoplink_inbox_claim` that stops
      // after `p_limit` heads. Without that, on a table of a few thousand rows PostgreSQL reads
      // every due head and sorts them, a cost that grows with the repair orders waiting. Times are
      // the database's clock, in epoch milliseconds.
      sql.unsafe(`CREATE FUNCTION shoplink_inbox_claim(p_limit integer, p_owner text, p_lease bigint)
        RETURNS SETOF shoplink_inbox LANGUAGE sql VOLATILE
        SET enable_sort = off SET enable_bitmapscan = off
        AS $$
          WITH picked AS (
            SELECT id FROM shoplink_inbox
            WHERE status = 'pending' AND is_head AND next_attempt_at <= (EXTRACT(EPOCH FROM now()) * 1000)::bigint
            ORDER BY next_attempt_at, seq LIMIT p_limit
            FOR UPDATE SKIP LOCKED)
          UPDATE shoplink_inbox AS i SET lease_owner = p_owner,
            lease_until = (EXTRACT(EPOCH FROM now()) * 1000)::bigint + p_lease,
            next_attempt_at = (EXTRACT(EPOCH FROM now()) * 1000)::bigint + p_lease
          FROM picked WHERE i.id = picked.id
          RETURNING i.*
        $$`)
    ],
    orElse: (): Statements => [
      sql`CREATE TABLE shoplink_inbox (
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
      sql`CREATE INDEX shoplink_inbox_pending ON shoplink_inbox (received_at) WHERE status = 'pending'`,
      sql`CREATE INDEX shoplink_inbox_pending_ro ON shoplink_inbox (shop_id, repair_order_id, received_at) WHERE status = 'pending'`
    ]
  })

// Everything else is the same on both dialects but for the integer type: PostgreSQL stores epoch
// milliseconds and cents as BIGINT (SQLite's INTEGER is already 64 bits).
const initialSchema = Effect.flatMap(SqlClient.SqlClient, (sql) => {
  const int64 = sql.onDialectOrElse({ pg: () => sql.literal("BIGINT"), orElse: () => sql.literal("INTEGER") })
  const statements: Statements = [
    ...inbox(sql),
    sql`CREATE INDEX shoplink_inbox_applied ON shoplink_inbox (applied_at) WHERE status = 'applied'`,
    sql`CREATE INDEX shoplink_inbox_applied_bodies ON shoplink_inbox (applied_at) WHERE status = 'applied' AND body <> ''`,
    sql`CREATE INDEX shoplink_inbox_console ON shoplink_inbox (received_at, id)`,
    sql`CREATE INDEX shoplink_inbox_console_pending ON shoplink_inbox (received_at, id) WHERE status = 'pending'`,
    sql`CREATE INDEX shoplink_inbox_console_dead ON shoplink_inbox (received_at, id) WHERE status = 'dead'`,
    sql`CREATE INDEX shoplink_inbox_console_applied ON shoplink_inbox (received_at, id) WHERE status = 'applied'`,
    sql`CREATE INDEX shoplink_inbox_console_shop ON shoplink_inbox (shop_id, received_at, id)`,
    sql`CREATE INDEX shoplink_inbox_console_ro ON shoplink_inbox (shop_id, repair_order_id, received_at, id)`,
    // Launch keys (`LaunchRegistry`): only the SHA-256 digests of the launch key and of the
    // callback key are kept; the callback key is a key of its own, so the URL a browser sees
    // cannot post deliveries.
    sql`CREATE TABLE shoplink_launches (
      key_digest TEXT PRIMARY KEY,
      shop_id TEXT NOT NULL,
      repair_order_id TEXT NOT NULL,
      repair_order_number TEXT NOT NULL,
      repair_order_url TEXT,
      created_at ${int64} NOT NULL,
      expires_at ${int64} NOT NULL,
      callback_digest TEXT
    )`,
    sql`CREATE INDEX shoplink_launches_expiry ON shoplink_launches (expires_at)`,
    sql`CREATE UNIQUE INDEX shoplink_launches_callback ON shoplink_launches (callback_digest)`,
    // Shops (`ShopStore`): their secrets sealed by `SecretBox`, each beside its key id.
    sql`CREATE TABLE shoplink_shops (
      shop_id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      account_no TEXT NOT NULL,
      username TEXT NOT NULL,
      country TEXT NOT NULL,
      status TEXT NOT NULL,
      revoked_reason TEXT,
      revoked_at ${int64},
      created_at ${int64} NOT NULL,
      updated_at ${int64} NOT NULL
    )`,
    sql`CREATE TABLE shoplink_shop_secrets (
      shop_id TEXT NOT NULL REFERENCES shoplink_shops (shop_id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      key_id TEXT NOT NULL,
      ciphertext TEXT NOT NULL,
      PRIMARY KEY (shop_id, name)
    )`,
    // Vendor API keys (`ApiKeys`): digests only.
    sql`CREATE TABLE shoplink_api_keys (
      key_id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      digest TEXT NOT NULL,
      created_at ${int64} NOT NULL,
      revoked_at ${int64}
    )`,
    // The parts ledger (`PartsLedger`): quoted and ordered part lines the runtime keeps for shop
    // systems that cannot take them, one row per line, keyed by its idempotency key within its
    // repair order.
    sql`CREATE TABLE shoplink_parts (
      shop_id TEXT NOT NULL,
      repair_order_id TEXT NOT NULL,
      line_key TEXT NOT NULL,
      seq INTEGER NOT NULL,
      position INTEGER NOT NULL,
      kind TEXT NOT NULL,
      order_id TEXT,
      status TEXT,
      status_description TEXT,
      product_id TEXT NOT NULL,
      brand_id TEXT NOT NULL,
      description TEXT NOT NULL,
      quantity INTEGER NOT NULL,
      cost_cents ${int64} NOT NULL,
      list_cents ${int64} NOT NULL,
      core_cents ${int64} NOT NULL,
      part_terminology_id INTEGER NOT NULL,
      category_id TEXT NOT NULL,
      recorded_at ${int64} NOT NULL,
      updated_at ${int64} NOT NULL,
      PRIMARY KEY (shop_id, repair_order_id, line_key)
    )`,
    // What the SMS's webhooks said of a repair order, read back from the SMS (`RepairOrderStates`):
    // one row per repair order, the newest reading.
    sql`CREATE TABLE shoplink_repair_order_states (
      shop_id TEXT NOT NULL,
      repair_order_id TEXT NOT NULL,
      state TEXT NOT NULL,
      action TEXT NOT NULL,
      checked_at ${int64} NOT NULL,
      PRIMARY KEY (shop_id, repair_order_id)
    )`,
    // Sign-in sessions (`SessionStore` of @shoplink/service-pages): any instance serves any
    // signed-in user, and a restart signs nobody out. The row is keyed by the SHA-256 of the
    // session id (the cookie is the only copy of the id); the CSRF token is derived from the id,
    // so nothing here can be replayed. Revoked by deleting the row.
    sql`CREATE TABLE shoplink_sessions (
      id_digest TEXT PRIMARY KEY,
      email TEXT NOT NULL,
      name TEXT NOT NULL,
      shop_id TEXT NOT NULL,
      shop_name TEXT NOT NULL,
      role TEXT,
      created_at ${int64} NOT NULL,
      expires_at ${int64} NOT NULL,
      last_seen_at ${int64} NOT NULL
    )`,
    sql`CREATE INDEX shoplink_sessions_expiry ON shoplink_sessions (expires_at)`,
    sql`CREATE INDEX shoplink_sessions_email ON shoplink_sessions (email)`
  ]
  return Effect.all(statements, { discard: true })
})

const migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> = {
  "0001_initial_schema": initialSchema
}

// --- Running them ---

/**
 * The newest version this release knows: what `run` brings a database to.
 *
 * @example
 * import { Migrations } from "@shoplink/connector-runtime"
 * console.log(`schema version ${Migrations.latest}`)
 *
 * @since 0.1.0
 */
export const latest: number = Math.max(...Object.keys(migrations).map((key) => Number.parseInt(key, 10)))

/**
 * The migrations could not be applied: the database refused a statement, a migration failed (its
 * transaction rolled back, the database left at the previous version), or another process kept
 * the database locked. One line, with the database's own message.
 *
 * @example
 * import { Migrations } from "@shoplink/connector-runtime"
 * new Migrations.MigrationError({ reason: "Migration \"1_initial_schema\" failed: disk I/O error" }).message
 *
 * @since 0.1.0
 */
export class MigrationError extends Schema.TaggedError<MigrationError>()("MigrationError", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

// A run that found another process's migration in progress (the Migrator's "locked": it answers
// [] without waiting): retried until that one has committed.
class StillPending extends Data.TaggedError("StillPending")<{ readonly version: number }> {}

// The message and those of its causes (a failed migration wraps a SqlError wrapping the driver's).
const describe = (error: Error): string => {
  const parts: Array<string> = []
  for (let e: unknown = error; e instanceof Error && parts.length < 4; e = e.cause) {
    if (e.message !== "" && !parts.includes(e.message)) parts.push(e.message)
  }
  return parts.join(": ")
}

// No schema dump (it would need pg_dump and a file system); the table lock it takes on PostgreSQL
// is kept, under our advisory lock.
const migrator = Migrator.make({})({ loader: Migrator.fromRecord(migrations), table })

// The advisory lock key processes migrating one PostgreSQL database take turns under.
const PG_LOCK = 0x73686c6b // "shlk"

const applyPending = (sql: SqlClient.SqlClient) =>
  Effect.gen(function*() {
    const applied = yield* migrator
    const rows = yield* sql<{ readonly version: number | null }>`SELECT MAX(migration_id) AS version FROM ${sql(table)}`
      .withoutTransform
    const version = Number(rows[0]?.version ?? 0)
    if (version < latest) return yield* new StillPending({ version })
    if (version > latest) {
      // A newer release migrated this database (a rollback?): its additions are left in place.
      yield* Effect.logWarning("database schema is newer than this release").pipe(
        Effect.annotateLogs({ databaseVersion: version, knownVersion: latest })
      )
    }
    return applied
  })

const attempt = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.onDialectOrElse({
    // All in one transaction under the advisory lock. The migrations table is made here, not by
    // the Migrator: its "does it exist" probe races between processes, and its failed probe
    // would abort this transaction. Same columns as the Migrator's own.
    pg: () =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(${PG_LOCK})`
        const found = yield* sql<{ readonly found: string | null }>`SELECT to_regclass(${table}::text)::text AS found`
          .withoutTransform
        if ((found[0]?.found ?? null) === null) {
          yield* sql`CREATE TABLE ${sql(table)} (
            migration_id integer PRIMARY KEY,
            created_at timestamp with time zone NOT NULL DEFAULT now(),
            name text NOT NULL
          )`
        }
        return yield* applyPending(sql)
      })),
    orElse: () => applyPending(sql)
  }))

/**
 * Applies the migrations the database of the `SqlClient` in context has not had yet, in order, and
 * answers those it applied (`[version, name]`; none when it was up to date). Safe to run from
 * several processes at once and as often as wanted: every store's `layerSql` runs it first.
 *
 * @example
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Effect } from "effect"
 * import { Migrations } from "@shoplink/connector-runtime"
 * const program = Migrations.run.pipe(
 *   Effect.tap((applied) => Effect.log(`applied ${applied.length} migration(s)`)),
 *   Effect.provide(SqliteClient.layer({ filename: "shoplink.db" }))
 * )
 *
 * @since 0.1.0
 */
export const run: Effect.Effect<
  ReadonlyArray<readonly [version: number, name: string]>,
  MigrationError,
  SqlClient.SqlClient
> = attempt.pipe(
  // SQLite only: another process holding the file's write lock (busy), or migrating right now.
  Effect.retry({ schedule: busySchedule, while: (error) => error._tag === "StillPending" || isBusy(error) }),
  Effect.tap((applied) =>
    applied.length === 0 ? Effect.void : Effect.logInfo("applied database migrations").pipe(
      Effect.annotateLogs({
        migrations: applied.map(([version, name]) => `${version}_${name}`).join(", "),
        version: latest
      })
    )
  ),
  Effect.catchTags({
    StillPending: (pending) =>
      Effect.fail(
        new MigrationError({
          reason: `database still at version ${pending.version} of ${latest}: another process kept it locked`
        })
      ),
    SqlError: (error) => Effect.fail(new MigrationError({ reason: describe(error) })),
    MigrationError: (error) => Effect.fail(new MigrationError({ reason: describe(error) }))
  }),
  // The Migrator turns a failing migration into a defect; it is a typed failure here.
  Effect.catchAllDefect((defect) =>
    defect instanceof Migrator.MigrationError
      ? Effect.fail(new MigrationError({ reason: describe(defect) }))
      : Effect.die(defect)
  )
)

/**
 * `run` as a layer: built once the database is at `latest`. For a deploy step, or to migrate once
 * before the stores (which would otherwise each find nothing to do).
 *
 * @example
 * import { Layer } from "effect"
 * import { Migrations, Storage } from "@shoplink/connector-runtime"
 * const migrated = Migrations.layer.pipe(Layer.provide(Storage.sqlite("/var/lib/shoplink/shoplink.db")))
 *
 * @since 0.1.0
 */
export const layer: Layer.Layer<never, MigrationError, SqlClient.SqlClient> = Layer.effectDiscard(run)
