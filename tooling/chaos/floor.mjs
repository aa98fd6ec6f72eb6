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
import Database from "better-sqlite3"
import { createHash } from "node:crypto"
import { createServer } from "node:http"
import pg from "pg"

const kind = process.argv[2]
const MAX_BODY_BYTES = 256 * 1024
const launches = new Map(
  (process.env.FLOOR_KEYS ?? "").split(",").filter(Boolean).map((
    key,
    i
  ) => [key, { shopId: "shop_bench", repairOrderId: `ro${i}` }])
)

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
const TABLE =
  `CREATE TABLE IF NOT EXISTS floor_inbox (content_key TEXT PRIMARY KEY, kind TEXT NOT NULL, shop_id TEXT NOT NULL,
  repair_order_id TEXT NOT NULL, body TEXT NOT NULL, received_at BIGINT NOT NULL)`
const ok = (res) => res.writeHead(200, { "content-type": "application/json" }).end("{\"received\":true}")

let store
if (kind === "pg") {
  const pool = new pg.Pool({
    connectionString: process.env.FLOOR_DATABASE_URL,
    max: Number(process.env.FLOOR_POOL ?? 10)
  })
  await pool.query(TABLE)
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
  const db = new Database(process.env.FLOOR_SQLITE_FILE)
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = FULL")
  db.exec(TABLE)
  const insert = db.prepare(
    "INSERT INTO floor_inbox VALUES (?, 'quote', ?, ?, ?, ?) ON CONFLICT (content_key) DO NOTHING"
  )
  const commit = db.transaction((rows) => {
    for (const row of rows) insert.run(row.key, row.shopId, row.repairOrderId, row.text, Date.now())
  })
  let pending = []
  const flush = () => {
    const batch = pending
    pending = []
    commit(batch)
    for (const row of batch) ok(row.res)
  }
  store = (row, res) => {
    if (pending.length === 0) setImmediate(flush)
    pending.push({ ...row, res })
  }
} else {
  throw new Error(`usage: node floor.mjs pg|sqlite (got ${kind})`)
}

const server = createServer((req, res) => {
  const match = /^\/shoplink\/webhooks\/([^/]+)\/quote$/.exec(req.url ?? "")
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
    if (!isQuoteWebhook(webhook)) return void res.writeHead(400).end()
    store({ key: contentKey(launch, webhook), ...launch, text }, res)
  })
})
server.keepAliveTimeout = 5000
server.listen(
  Number(process.env.PORT ?? 0),
  "127.0.0.1",
  () => process.stdout.write(`ready floor ${server.address().port}\n`)
)
