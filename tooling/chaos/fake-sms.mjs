// The fake shop system of `pnpm chaos`, an OS process of its own. Like a real SMS API it stores
// what it is sent and does not deduplicate: the adapter (node.mjs) reads the repair order's lines
// and writes only the keys not there yet, as the real adapters do. So a line stored twice means
// two workers applied one delivery at the same time, which leases must prevent.
//   GET  /ro/:id/lines        → the idempotency keys already on the repair order
//   POST /ro/:id/lines        ← { keys: [...], seq } appends them (seq: the delivery's number)
//   GET  /report              → { [ro]: [{ key, seq }] } in the order written
import { createServer } from "node:http"

const lines = new Map() // ro → [{ key, seq }]
const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x")
  const match = /^\/ro\/([^/]+)\/lines$/.exec(url.pathname)
  const reply = (status, body) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
  if (req.method === "GET" && url.pathname === "/report") return reply(200, Object.fromEntries(lines))
  if (match === null) return reply(404, { error: "not found" })
  const ro = decodeURIComponent(match[1])
  if (req.method === "GET") return reply(200, { keys: (lines.get(ro) ?? []).map((l) => l.key) })
  let body = ""
  req.on("data", (chunk) => (body += chunk))
  req.on("end", () => {
    const { keys, seq } = JSON.parse(body)
    const list = lines.get(ro) ?? lines.set(ro, []).get(ro)
    for (const key of keys) list.push({ key, seq })
    reply(200, { added: keys.length })
  })
})
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`))
process.on("SIGTERM", () => server.close(() => process.exit(0)))
