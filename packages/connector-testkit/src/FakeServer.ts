/**
 * The plumbing every fake SMS server shares: a real HTTP server on 127.0.0.1 (port 0 by default)
 * with Shoplink's server timeouts, a route table (`"GET /v3/order/:id"`), a `before` hook for what
 * applies to every request (authentication, injected faults), offset paging, and a log of the
 * requests answered. A fake writes only its SMS's routes and envelopes.
 *
 * @since 0.1.0
 */
import { ServerTimeouts } from "@shoplink/http"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A request as a route sees it: the path's `:params` decoded, the query, the raw body text.
 *
 * @example
 * import type * as FakeServer from "@shoplink/connector-testkit/FakeServer"
 * const idOf = (request: FakeServer.Request) => request.params.id
 *
 * @since 0.1.0
 */
export interface Request {
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  readonly params: Readonly<Record<string, string>>
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

/**
 * An answer: a status, a body sent as JSON (omitted: no body), extra headers.
 *
 * @example
 * import type * as FakeServer from "@shoplink/connector-testkit/FakeServer"
 * const notFound: FakeServer.Response = { status: 404, body: { message: "not found" } }
 *
 * @since 0.1.0
 */
export interface Response {
  readonly status: number
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * A route: `"<METHOD> <path>"` (segments starting with `:` are parameters) and its handler, given
 * the request and what `before` returned for it.
 *
 * @example
 * import type * as FakeServer from "@shoplink/connector-testkit/FakeServer"
 * const routes: ReadonlyArray<FakeServer.Route<undefined>> = [
 *   { route: "GET /v1/ping", handle: () => ({ status: 200, body: { ok: true } }) }
 * ]
 *
 * @since 0.1.0
 */
export interface Route<C> {
  readonly route: string
  readonly handle: (request: Request, context: C) => Response | Promise<Response>
}

/**
 * Settings of a fake server: its routes, a `before` hook that answers instead (a `Response`) or
 * gives the routes their context (`{ context }`), and what the request log keeps of each request.
 *
 * @example
 * import type * as FakeServer from "@shoplink/connector-testkit/FakeServer"
 * const options: FakeServer.Options<string, { readonly path: string }> = {
 *   before: (request) => request.headers.authorization === "Bearer k" ? { context: "k" } : { status: 401 },
 *   routes: [{ route: "GET /v1/ping", handle: (_request, key) => ({ status: 200, body: { key } }) }],
 *   record: (request) => ({ path: request.path })
 * }
 *
 * @since 0.1.0
 */
export interface Options<C, L> {
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly routes: ReadonlyArray<Route<C>>
  readonly before: (
    request: Request
  ) => Response | { readonly context: C } | Promise<Response | { readonly context: C }>
  /** The log entry of an answered request (its status included); default nothing is logged. */
  readonly record?: ((request: Request, status: number, context: C | undefined) => L) | undefined
  /** The answer when no route matches (default 404 `{ message: "no route for …" }`). */
  readonly notFound?: ((request: Request) => Response) | undefined
}

/**
 * A running fake server.
 *
 * @example
 * import type * as FakeServer from "@shoplink/connector-testkit/FakeServer"
 * const statuses = (server: FakeServer.FakeServer<{ readonly status: number }>) =>
 *   server.requests().map((r) => r.status)
 *
 * @since 0.1.0
 */
export interface FakeServer<L> {
  /** `http://host:port`, no trailing slash. */
  readonly url: string
  /** The log, oldest first (a copy). */
  readonly requests: () => ReadonlyArray<L>
  readonly close: () => Promise<void>
}

const compile = <C>(route: Route<C>) => {
  const [method, path = ""] = route.route.split(" ")
  const segments = path.split("/").filter((s) => s !== "")
  return {
    method,
    match: (parts: ReadonlyArray<string>): Record<string, string> | undefined => {
      if (parts.length !== segments.length) return undefined
      const params: Record<string, string> = {}
      for (const [i, segment] of segments.entries()) {
        if (segment.startsWith(":")) params[segment.slice(1)] = parts[i]!
        else if (segment !== parts[i]) return undefined
      }
      return params
    },
    handle: route.handle
  }
}

const readBody = (request: Http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

/**
 * Starts a fake server (a Promise: fakes offer both a Promise and a scoped Effect API).
 *
 * @example
 * import * as FakeServer from "@shoplink/connector-testkit/FakeServer"
 * const server = await FakeServer.start({
 *   before: () => ({ context: undefined }),
 *   routes: [{ route: "GET /v1/ping", handle: () => ({ status: 200, body: { ok: true } }) }]
 * })
 * await fetch(`${server.url}/v1/ping`)
 * await server.close()
 *
 * @since 0.1.0
 */
export const start = async <C, L = never>(options: Options<C, L>): Promise<FakeServer<L>> => {
  const routes = options.routes.map(compile)
  const log: Array<L> = []
  const notFound = options.notFound ??
    ((r: Request): Response => ({ status: 404, body: { message: `no route for ${r.method} ${r.path}` } }))

  const answer = async (request: Request): Promise<{ response: Response; context: C | undefined }> => {
    const before = await options.before(request)
    if (!("context" in before)) return { response: before, context: undefined }
    const parts = request.path.split("/").filter((s) => s !== "").map(decodeURIComponent)
    for (const route of routes) {
      if (route.method !== request.method) continue
      const params = route.match(parts)
      if (params !== undefined) {
        return { response: await route.handle({ ...request, params }, before.context), context: before.context }
      }
    }
    return { response: notFound(request), context: before.context }
  }

  const server = Http.createServer(ServerTimeouts.nodeServerOptions(), (incoming, outgoing) => {
    const url = new URL(incoming.url ?? "/", "http://fake")
    readBody(incoming)
      .then((body) => {
        const request: Request = {
          method: incoming.method ?? "GET",
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          params: {},
          headers: incoming.headers,
          body
        }
        return answer(request).then(
          (answered) => ({ request, ...answered }),
          (error: unknown): { request: Request; context: C | undefined; response: Response } => ({
            request,
            context: undefined,
            response: { status: 500, body: { message: error instanceof Error ? error.message : "internal error" } }
          })
        )
      })
      .then(({ context, request, response }) => {
        const json = response.body === undefined ? undefined : JSON.stringify(response.body)
        outgoing.writeHead(response.status, {
          ...(json === undefined ? {} : { "content-type": "application/json; charset=utf-8" }),
          ...response.headers
        })
        outgoing.end(json)
        if (options.record !== undefined) log.push(options.record(request, response.status, context))
      }, () => outgoing.destroy())
  })
  const host = options.host ?? "127.0.0.1"
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host}:${port}`,
    requests: () => [...log],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/**
 * One page of `items` from `offset`, `size` at most, with the total and whether more follow: what
 * every SMS's paging is made of (`limit`/`skip`, `page`/`size`), each fake adding its envelope.
 *
 * @example
 * import * as FakeServer from "@shoplink/connector-testkit/FakeServer"
 * FakeServer.page([1, 2, 3, 4, 5], { offset: 2, size: 2 }) // { items: [3, 4], total: 5, hasMore: true }
 *
 * @since 0.1.0
 */
export const page = <A>(
  items: ReadonlyArray<A>,
  window: { readonly offset: number; readonly size: number }
): { readonly items: ReadonlyArray<A>; readonly total: number; readonly hasMore: boolean } => {
  const offset = Math.max(0, Math.floor(window.offset))
  const slice = items.slice(offset, offset + Math.max(0, Math.floor(window.size)))
  return { items: slice, total: items.length, hasMore: offset + slice.length < items.length }
}
