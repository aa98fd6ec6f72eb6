// The one fault server and the wire fixtures every package's tests share: a bare node:http server
// on 127.0.0.1:0 for the faults the sandbox cannot produce (resets, HTML gateways, hangs, stalled
// bodies, malformed JSON), recording every request and connection, answering as each test scripts
// it. Promise-based so it needs no Effect here; packages wrap it in their scope (see the `support`
// folders of punchout, order-management, http-node and adapter-shopmonkey tests).
import * as Http from "node:http"
import { closedPort } from "./net.mjs"

export { closedPort }

/**
 * Starts a fault server. `handler(request, response, context)` answers each request once its body
 * has arrived; `context.n` counts all requests so far, `context.nForPath` those to the same path,
 * `context.raw` is node's IncomingMessage.
 *
 * @param {import("./faults.d.mts").FaultHandler} handler
 * @param {{ port?: number }} [options]
 * @returns {Promise<import("./faults.d.mts").FaultServer>}
 */
export const startFaultServer = (handler, options = {}) =>
  new Promise((resolve, reject) => {
    const requests = []
    const waiters = new Set()
    let started = 0
    let connections = 0
    let closedConnections = 0
    const wake = () => {
      for (const waiter of [...waiters]) waiter()
    }
    const server = Http.createServer((req, res) => {
      started++
      wake()
      const chunks = []
      req.on("data", (chunk) => chunks.push(chunk))
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://127.0.0.1")
        const body = Buffer.concat(chunks)
        const recorded = {
          method: req.method ?? "GET",
          url,
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body,
          text: body.toString("utf8")
        }
        requests.push(recorded)
        const nForPath = requests.filter((r) => r.path === recorded.path).length
        try {
          handler(recorded, res, { n: requests.length, nForPath, raw: req })
        } finally {
          wake()
        }
      })
    })
    server.on("connection", (socket) => {
      connections++
      wake()
      socket.on("close", () => {
        closedConnections++
        wake()
      })
    })
    server.once("error", reject)
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      const fault = {
        url: `http://127.0.0.1:${port}`,
        port,
        requests,
        count: (suffix) => requests.filter((r) => suffix === undefined || r.path.endsWith(suffix)).length,
        started: () => started,
        connections: () => connections,
        closedConnections: () => closedConnections,
        waitFor: (condition) =>
          new Promise((done) => {
            if (condition(fault)) return done()
            const waiter = () => {
              if (!condition(fault)) return
              waiters.delete(waiter)
              done()
            }
            waiters.add(waiter)
          }),
        close: () =>
          new Promise((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      }
      resolve(fault)
    })
  })

/** Answers JSON. */
export const sendJson = (res, status, body, headers = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify(body))
}

/** Answers an HTML page, a gateway's 502 by default. */
export const sendHtml = (res, status, html = "<html><body><h1>502 Bad Gateway</h1></body></html>", headers = {}) => {
  res.writeHead(status, { "content-type": "text/html", ...headers })
  res.end(html)
}

/** Answers text with a content type (default text/html), or nothing when `text` is empty. */
export const sendText = (res, status, text, headers = {}) => {
  res.writeHead(status, { "content-type": "text/html", ...headers })
  res.end(text)
}

/** Sends the status line, headers and the start of a body announced longer, then stalls. */
export const sendPartial = (res, text, declaredLength = 1000) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": String(declaredLength) })
  res.write(text)
}

/** Destroys the connection before any answer (a reset the client sees after sending). */
export const resetConnection = (res) => {
  res.socket?.destroy()
}

/**
 * A status envelope of the distributor's APIs: `{ serverVersion, status: { code, message: { text, ID? } }, ...extra }`.
 */
export const envelope = ({ code = 200, text = "Successful", id, serverVersion = "fault-1", extra = {} } = {}) => ({
  serverVersion,
  status: { code, message: { text, ...(id === undefined ? {} : { ID: id }) } },
  ...extra
})

/** A Punchout quote line as the wire carries it. */
export const quoteLine = (overrides = {}) => ({
  acaPartTerminologyID: 1684,
  productID: "51515",
  brandID: "WIX",
  categoryID: "FLT",
  productDesc: "Oil Filter",
  orderByTime: 1763769600000,
  dispatchTime: 1763773200000,
  quantityAvail: 12,
  quantityReq: 1,
  price: 6.49,
  listPrice: 9.99,
  corePrice: 0,
  weight: 0.8,
  quality: "",
  makeId: 0,
  subtotal: 6.49,
  ...overrides
})

/** A Punchout order as the wire carries it (in the shopping cart). */
export const order = (overrides = {}) => ({
  orderID: "10423",
  orderCreateTime: 1763769600000,
  orderLines: [],
  comment: "",
  status: "0",
  statusDescription: "In shopping cart",
  ...overrides
})
