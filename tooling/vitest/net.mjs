// Loopback helpers shared by the packages' tests.
import { createServer } from "node:net"

/**
 * A loopback port on which nothing listens: bound, then released, so connecting is refused
 * (ECONNREFUSED), the one failure where a request provably never reached a server.
 *
 * @returns {Promise<number>}
 */
export const closedPort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
