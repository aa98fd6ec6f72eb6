// The fake shop system of `pnpm chaos`, an OS process of its own. Like a real SMS API it stores
// what it is sent and does not deduplicate: the adapter (node.mjs) reads the repair order's lines
// and writes only the keys not there yet, as the real adapters do. So a line stored twice means
// two workers applied one delivery at the same time, which leases must prevent.
//   GET  /ro/:id/lines        → the idempotency keys already on the repair order
//   POST /ro/:id/lines        ← { keys: [...], seq, writer } appends them (seq: the delivery's
//                             number; writer: the worker's pid), each stamped with Date.now();
//                             answers 599 { defect: true } and stores nothing while the repair
//                             order is broken (the adapter turns that into a throw)
//   GET  /report              → { [ro]: [{ key, seq, writer, at }] } in the order written
//   POST /defect              ← { ro, on }: break a repair order (on: true) or mend it (on: false)
//   GET  /defects             → { defects } 599s answered so far
// For `bench.mjs` (both off by default, as `pnpm chaos` runs it):
//   CHAOS_SMS_LATENCY_MS=100  each write (POST) is stored and answered after that many ms; reads
//                             answer at once, so an apply takes about that long
//   CHAOS_SMS_HOLD=1          /ro/… requests wait until POST /release (start the clock there)
//   POST /release             lets held requests through; GET /stats → { lines, releasedAt, lastAt,
//                             writeMs } (performance.now() of this process, in ms; lastAt: the last
//                             write answered; writeMs: the writes' durations summed, so writeMs over
//                             lastAt − releasedAt is the mean number of writes in flight)
import { createServer } from "node:http"

const LATENCY_MS = Number(process.env.CHAOS_SMS_LATENCY_MS ?? 0)
let release
const held = process.env.CHAOS_SMS_HOLD === "1" ? new Promise((resolve) => (release = resolve)) : undefined
let releasedAt
let lastAt
let stored = 0
let writeMs = 0

const lines = new Map() // ro → [{ key, seq, writer, at }]
const broken = new Set()
let defects = 0
const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x")
  const match = /^\/ro\/([^/]+)\/lines$/.exec(url.pathname)
  const reply = (status, body) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
  if (req.method === "GET" && url.pathname === "/report") return reply(200, Object.fromEntries(lines))
  if (req.method === "GET" && url.pathname === "/stats") {
    return reply(200, { lines: stored, releasedAt, lastAt, writeMs })
  }
  if (req.method === "POST" && url.pathname === "/release") {
    releasedAt ??= performance.now()
    release?.()
    return reply(200, { released: true })
  }
  if (req.method === "GET" && url.pathname === "/defects") return reply(200, { defects })
  if (req.method === "POST" && url.pathname === "/defect") {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      const { ro, on } = JSON.parse(body)
      if (on) broken.add(ro)
      else broken.delete(ro)
      reply(200, { broken: [...broken] })
    })
    return
  }
  if (match === null) return reply(404, { error: "not found" })
  const ro = decodeURIComponent(match[1])
  const handle = () => {
    if (req.method === "GET") return reply(200, { keys: (lines.get(ro) ?? []).map((l) => l.key) })
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      const began = performance.now()
      const store = () => {
        const { keys, seq, writer } = JSON.parse(body)
        if (broken.has(ro)) {
          defects++
          return reply(599, { defect: true })
        }
        const list = lines.get(ro) ?? lines.set(ro, []).get(ro)
        const at = Date.now()
        for (const key of keys) list.push({ key, seq, writer, at })
        stored += keys.length
        lastAt = performance.now()
        writeMs += lastAt - Math.max(began, releasedAt ?? 0)
        reply(200, { added: keys.length })
      }
      if (LATENCY_MS > 0) setTimeout(store, LATENCY_MS)
      else store()
    })
  }
  if (held === undefined) handle()
  else held.then(handle)
})
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`))
process.on("SIGTERM", () => server.close(() => process.exit(0)))
