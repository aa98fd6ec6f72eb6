// The README's example, kept here so `pnpm typecheck` proves it compiles. `examples/quickstart.mjs`
// is the same program in plain JavaScript: `node examples/quickstart.mjs` after a build.
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { UndiciHttpClient } from "@shoplink/http-node"

// A local server that echoes what it receives, so the example runs offline.
const server = createServer((req, res) => {
  let body = ""
  req.on("data", (chunk: Buffer) => (body += chunk))
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" })
    res.end(JSON.stringify({ method: req.method, url: req.url, body: JSON.parse(body || "null") }))
  })
})

const program = (baseUrl: string) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(
      HttpClientRequest.post(`${baseUrl}/quotes`).pipe(
        HttpClientRequest.setUrlParam("page", "1"),
        HttpClientRequest.bodyUnsafeJson({ productID: "51515", quantity: 2 })
      )
    )
    return { status: response.status, body: yield* response.json }
  })

export const main = () =>
  new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)).then(() => {
    const { port } = server.address() as AddressInfo
    return Effect.runPromise(program(`http://127.0.0.1:${port}`).pipe(Effect.provide(UndiciHttpClient.layer)))
      // { status: 200, body: { method: 'POST', url: '/quotes?page=1', body: { productID: '51515', quantity: 2 } } }
      .then(console.log)
      .finally(() => server.close())
  })
