import type * as Http from "node:http"

/** A request the fault server received, once its body arrived. */
export interface Recorded {
  readonly method: string
  readonly url: URL
  /** `url.pathname`. */
  readonly path: string
  /** `url.searchParams`. */
  readonly query: URLSearchParams
  readonly headers: Http.IncomingHttpHeaders
  readonly body: Buffer
  /** The body as UTF-8. */
  readonly text: string
}

export interface HandlerContext {
  /** Requests so far, this one included. */
  readonly n: number
  /** Requests so far to the same path, this one included. */
  readonly nForPath: number
  readonly raw: Http.IncomingMessage
}

export type FaultHandler = (request: Recorded, response: Http.ServerResponse, context: HandlerContext) => void

export interface FaultServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string
  readonly port: number
  readonly requests: Array<Recorded>
  /** Requests so far to a path ending in `suffix` (all when omitted). */
  readonly count: (suffix?: string) => number
  /** Requests whose headers have arrived (their body may still be coming). */
  readonly started: () => number
  /** TCP connections accepted so far. */
  readonly connections: () => number
  /** TCP connections closed so far (an aborted request closes its socket). */
  readonly closedConnections: () => number
  /** Resolves once `condition` holds; checked on every request, connection and close. */
  readonly waitFor: (condition: (server: FaultServer) => boolean) => Promise<void>
  /** Closes every connection and the server. */
  readonly close: () => Promise<void>
}

/** Starts a fault server on 127.0.0.1 (port 0 unless given). */
export declare const startFaultServer: (
  handler: FaultHandler,
  options?: { readonly port?: number }
) => Promise<FaultServer>
/** A loopback port on which nothing listens (connecting is refused with ECONNREFUSED). */
export declare const closedPort: () => Promise<number>
export declare const sendJson: (
  res: Http.ServerResponse,
  status: number,
  body: unknown,
  headers?: Http.OutgoingHttpHeaders
) => void
export declare const sendHtml: (
  res: Http.ServerResponse,
  status: number,
  html?: string,
  headers?: Http.OutgoingHttpHeaders
) => void
export declare const sendText: (
  res: Http.ServerResponse,
  status: number,
  text: string,
  headers?: Http.OutgoingHttpHeaders
) => void
export declare const sendPartial: (res: Http.ServerResponse, text: string, declaredLength?: number) => void
export declare const resetConnection: (res: Http.ServerResponse) => void

/** A status envelope of the distributor's APIs. */
export declare const envelope: (options?: {
  readonly code?: number
  readonly text?: string
  readonly id?: string
  readonly serverVersion?: string
  readonly extra?: Record<string, unknown>
}) => {
  readonly serverVersion: string
  readonly status: { readonly code: number; readonly message: { readonly text: string; readonly ID?: string } }
  readonly [key: string]: unknown
}
/** A Punchout quote line as the wire carries it. */
export declare const quoteLine: (overrides?: Record<string, unknown>) => Record<string, unknown>
/** A Punchout order as the wire carries it (in the shopping cart). */
export declare const order: (overrides?: Record<string, unknown>) => Record<string, unknown>
