// The receive floors of bench.mjs, each an OS process of its own as the receivers are:
// hand-written node:http receivers for the quote webhook that keep the same guarantees as ours
// (size limit, JSON.parse plus a check of the required fields, the content key, the 2xx only after
// the commit) with nothing else.
//   node floor.mjs pg      PostgreSQL (FLOOR_DATABASE_URL): `INSERT … ON CONFLICT DO NOTHING` per
//                          request through a pg.Pool of FLOOR_POOL (10) connections, autocommit
//   node floor.mjs sqlite  SQLite (FLOOR_SQLITE_FILE, better-sqlite3, WAL, synchronous = FULL): the
//                          project's durable floor (packages/connector-runtime/bench/receiver.bench.mjs),
//                          one transaction per event-loop turn
// Launch keys: FLOOR_KEYS (comma-separated; the i-th is repair order `ro{i}`), looked up in memory.
// Prints `ready floor <port>` (PORT, default a free one).
// The floor itself (`receiveFloor`: the node:http handler; `sqliteFloorStore`: the batched SQLite
// commit) is exported, and packages/connector-runtime/bench/receiver.bench.mjs runs the same code
// in process for the order webhook: one hand-written floor.
import Database from "better-sqlite3"
import { createHash } from "node:crypto"
import { realpathSync } from "node:fs"
import { createServer } from "node:http"
import { pathToFileURL } from "node:url"
import pg from "pg"

/** The receivers' body limit, which the floor keeps too. */
export const MAX_BODY_BYTES = 256 * 1024

/** The floor's inbox table (`name`), the columns of the runtime's. */
export const floorTable = (name) =>
  `CREATE TABLE IF NOT EXISTS ${name} (content_key TEXT PRIMARY KEY, kind TEXT NOT NULL, shop_id TEXT NOT NULL,
  repair_order_id TEXT NOT NULL, body TEXT NOT NULL, received_at BIGINT NOT NULL)`

/** The 2xx of a stored delivery. */
export const ok = (res) => res.writeHead(200, { "content-type": "application/json" }).end("{\"received\":true}")

/**
 * The hand-written receiver of `POST /shoplink/webhooks/<key>/<kind>`: 404 for an unknown launch
 * key, 413 past MAX_BODY_BYTES, 400 for a body that is not JSON or that `isWebhook` refuses, then
 * `store({ key: contentKey(launch, webhook), shopId, repairOrderId, text }, res)`, which answers.
 */
export const receiveFloor = ({ contentKey, isWebhook, kind, launches, store }) => {
  const route = new RegExp(`^/shoplink/webhooks/([^/]+)/${kind}$`)
  return createServer((req, res) => {
    const match = route.exec(req.url ?? "")
    const launch = match === null ? undefined : launches.get(match[1])
    if (req.method !== "POST" || launch === undefined) return void res.writeHead(404).end()
    const chunks = []
    let size = 0
    req.on("data", (c) => {
      size += c.length
      if (size > MAX_BODY_BYTES) return void res.writeHead(413, { connection: "close" }).end()
      chunks.push(c)
    })
    req.on("end", () => {
      if (size > MAX_BODY_BYTES) return
      const text = Buffer.concat(chunks).toString("utf8")
      let webhook
      try {
        webhook = JSON.parse(text)
      } catch {
        return void res.writeHead(400).end()
      }
      if (!isWebhook(webhook)) return void res.writeHead(400).end()
      store({ key: contentKey(launch, webhook), ...launch, text }, res)
    })
  })
}

/**
 * The durable SQLite floor's store: WAL, synchronous = FULL, `INSERT … ON CONFLICT DO NOTHING` in
 * one transaction per event-loop turn, each 2xx after its commit.
 */
export const sqliteFloorStore = (db, { kind, table }) => {
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = FULL")
  db.exec(floorTable(table))
  const insert = db.prepare(`INSERT INTO ${table} VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (content_key) DO NOTHING`)
  const commit = db.transaction((rows) => {
    for (const row of rows) insert.run(row.key, kind, row.shopId, row.repairOrderId, row.text, Date.now())
  })
  let pending = []
  const flush = () => {
    const batch = pending
    pending = []
    commit(batch)
    for (const row of batch) ok(row.res)
  }
  return (row, res) => {
    if (pending.length === 0) setImmediate(flush)
    pending.push({ ...row, res })
  }
}

const isQuoteWebhook = (value) =>
  typeof value === "object" && value !== null && typeof value.referenceID === "string" && Array.isArray(value.quotes) &&
  value.quotes.every((q) =>
    typeof q === "object" && q !== null && typeof q.productID === "string" && typeof q.brandID === "string" &&
    typeof q.quantityReq === "number" && typeof q.price === "number"
  )
const contentKey = (launch, quote) =>
  `quote:${launch.shopId}:${launch.repairOrderId}:${
    createHash("sha256").update(
      JSON.stringify(
        quote.quotes.map((q) => [q.productID, q.brandID, q.quantityReq, q.price, q.listPrice, q.corePrice])
      )
    ).digest("hex").slice(0, 32)
  }`

const main = async (kind) => {
  const launches = new Map(
    (process.env.FLOOR_KEYS ?? "").split(",").filter(Boolean).map((
      key,
      i
    ) => [key, { shopId: "shop_bench", repairOrderId: `ro${i}` }])
  )
  let store
  if (kind === "pg") {
    const pool = new pg.Pool({
      connectionString: process.env.FLOOR_DATABASE_URL,
      max: Number(process.env.FLOOR_POOL ?? 10)
    })
    await pool.query(floorTable("floor_inbox"))
    store = (row, res) =>
      pool.query("INSERT INTO floor_inbox VALUES ($1, 'quote', $2, $3, $4, $5) ON CONFLICT (content_key) DO NOTHING", [
        row.key,
        row.shopId,
        row.repairOrderId,
        row.text,
        Date.now()
      ])
        .then(() => ok(res), () => res.writeHead(503).end())
  } else if (kind === "sqlite") {
    store = sqliteFloorStore(new Database(process.env.FLOOR_SQLITE_FILE), { kind: "quote", table: "floor_inbox" })
  } else {
    throw new Error(`usage: node floor.mjs pg|sqlite (got ${kind})`)
  }
  const server = receiveFloor({ kind: "quote", launches, isWebhook: isQuoteWebhook, contentKey, store })
  server.keepAliveTimeout = 5000
  server.listen(
    Number(process.env.PORT ?? 0),
    "127.0.0.1",
    () => process.stdout.write(`ready floor ${server.address().port}\n`)
  )
}

// Run as a process (bench.mjs); imported, it only exports.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  await main(process.argv[2])
}
