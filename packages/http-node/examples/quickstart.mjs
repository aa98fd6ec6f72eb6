// Runnable: `node examples/quickstart.mjs` after a build (from packages/http-node). Starts a local
// echo server, POSTs JSON to it through UndiciHttpClient.layer and prints what came back.
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { createServer } from "node:http"
import { UndiciHttpClient } from "@shoplink/http-node"

const server = createServer((req, res) => {
  let body = ""
  req.on("data", (chunk) => (body += chunk))
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" })
    res.end(JSON.stringify({ method: req.method, url: req.url, body: JSON.parse(body || "null") }))
  })
})
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
const baseUrl = `http://127.0.0.1:${server.address().port}`

const program = Effect.gen(function*() {
  const client = yield* HttpClient.HttpClient
  const response = yield* client.execute(
    HttpClientRequest.post(`${baseUrl}/quotes`).pipe(
      HttpClientRequest.setUrlParam("page", "1"),
      HttpClientRequest.bodyUnsafeJson({ productID: "51515", quantity: 2 })
    )
  )
  return { status: response.status, body: yield* response.json }
})

try {
  console.log(await Effect.runPromise(program.pipe(Effect.provide(UndiciHttpClient.layer))))
} finally {
  server.close()
}
