/**
 * `UndiciHttpClient`: a lean `HttpClient` for Node on undici's `dispatcher.dispatch`. Each
 * response body is read into memory (up to `maxBodyBytes`) before the response is returned, so a
 * response never holds a connection. It creates no span and sends no trace-context headers, and
 * it enforces `@shoplink/http`'s `Deadline.timeoutAbort` deadlines on the wire.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import { globalValue } from "effect/GlobalValue"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import type { IncomingHttpHeaders } from "node:http"
import { Agent, type Dispatcher, errors } from "undici"
import { type Converted, convert, type DispatchBody } from "./internal/body.js"
import { BufferedResponse } from "./internal/response.js"

/**
 * The default largest response body that is buffered: 8 MiB. A larger body fails the request.
 *
 * @example
 * import { UndiciHttpClient } from "@shoplink/http-node"
 * UndiciHttpClient.defaultMaxBodyBytes // 8388608
 *
 * @since 0.1.0
 */
export const defaultMaxBodyBytes: number = 8 * 1024 * 1024

/**
 * Options of `make`. `dispatcher` is any undici (7+) `Dispatcher` (`Agent`, `Pool`, `ProxyAgent`,
 * a `MockAgent` in tests); without one, a process-wide `Agent` shared by every `make()` is used.
 * `maxBodyBytes` bounds each buffered response body (default `defaultMaxBodyBytes`).
 *
 * @example
 * import { Agent } from "undici"
 * import type { UndiciHttpClient } from "@shoplink/http-node"
 * const options: UndiciHttpClient.MakeOptions = {
 *   dispatcher: new Agent({ connections: 16 }),
 *   maxBodyBytes: 1024 * 1024
 * }
 *
 * @since 0.1.0
 */
export interface MakeOptions {
  readonly dispatcher?: Dispatcher
  readonly maxBodyBytes?: number
}

/**
 * Options of `layerWith`: those of `make`, and `agent`, the options of the `Agent` the layer
 * creates (and destroys with its scope) when no `dispatcher` is given. A given `dispatcher` is
 * not closed by the layer: its owner closes it.
 *
 * @example
 * import type { UndiciHttpClient } from "@shoplink/http-node"
 * const options: UndiciHttpClient.LayerOptions = {
 *   agent: { keepAliveTimeout: 10_000, connections: 32 },
 *   maxBodyBytes: 2 * 1024 * 1024
 * }
 *
 * @since 0.1.0
 */
export interface LayerOptions extends MakeOptions {
  readonly agent?: Agent.Options
}

let sharedAgent: Agent | undefined
// Not undici's global dispatcher: Node's bundled fetch may have installed an older undici there
// that does not speak the handler API used below.
const shared = (): Agent => sharedAgent ??= new Agent()

const interrupted = () => new errors.RequestAbortedError("the request was interrupted")
const expired = () => new errors.RequestAbortedError("the request's deadline passed")

// `@shoplink/http`'s deadline protocol (`Deadline.TransportTypeId`, `Deadline.claim`), reached
// through the same `Symbol.for` keys so that this package needs no import of it: a caller's
// `Deadline.timeoutAbort` leaves a pending deadline for its fiber; the request sent from that fiber
// takes it and is aborted when it expires.
interface TransportDeadline {
  readonly start: (abort: () => void) => void
  readonly end: () => void
}
const DeadlineTransportId: unique symbol = Symbol.for("@shoplink/http/Deadline/Transport") as never
const pendingDeadlines: Map<object, TransportDeadline> = globalValue(
  Symbol.for("@shoplink/http/Deadline/pending"),
  () => new Map<object, TransportDeadline>()
)
const claimDeadline = (fiber: Fiber.RuntimeFiber<unknown, unknown>): TransportDeadline | undefined => {
  const deadline = pendingDeadlines.get(fiber)
  if (deadline !== undefined) pendingDeadlines.delete(fiber)
  return deadline
}

/** One exchange: collects the response and resumes the waiting fiber exactly once. */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined
  private done = false
  private status = 0
  private headers: IncomingHttpHeaders = {}
  private chunks: Array<Buffer> = []
  private size = 0

  constructor(
    private readonly request: HttpClientRequest.HttpClientRequest,
    private readonly maxBodyBytes: number,
    private readonly resume: (
      effect: Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>
    ) => void,
    private readonly deadline: TransportDeadline | undefined
  ) {}

  /** Resumes the waiting fiber once, and tells the deadline the exchange has ended. */
  private finish(effect: Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>): void {
    this.done = true
    this.deadline?.end()
    this.resume(effect)
  }

  /** The caller's deadline passed: abort the request on the wire and fail it. */
  readonly expire = (): void => {
    if (this.done) return
    const cause = expired()
    this.finish(Effect.fail(
      this.status === 0
        ? new HttpClientError.RequestError({
          request: this.request,
          reason: "Transport",
          cause,
          description: "deadline passed"
        })
        : new HttpClientError.ResponseError({
          request: this.request,
          response: new BufferedResponse(this.request, this.status, this.headers),
          reason: "Decode",
          cause,
          description: "deadline passed while the response body was read"
        })
    ))
    this.controller?.abort(cause)
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller
    // Interrupted while queued for a connection: stop before anything is written.
    if (this.done) controller.abort(interrupted())
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (this.done) return
    this.status = statusCode
    this.headers = headers
    const declared = Number(headers["content-length"])
    if (declared > this.maxBodyBytes) this.tooLarge(controller, `declares ${declared} bytes`)
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.done) return
    this.size += chunk.length
    if (this.size > this.maxBodyBytes) return this.tooLarge(controller, `exceeded it after ${this.size} bytes`)
    this.chunks.push(chunk)
  }

  onResponseEnd(): void {
    if (this.done) return
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size)
    this.finish(Effect.succeed(new BufferedResponse(this.request, this.status, this.headers, body)))
  }

  onResponseError(_controller: Dispatcher.DispatchController, cause: Error): void {
    if (this.done) return
    this.finish(Effect.fail(
      this.status === 0
        // No response yet: connect, write or wait failed. `cause` keeps the code (ECONNREFUSED, …).
        ? new HttpClientError.RequestError({
          request: this.request,
          // undici refused the request itself (an invalid header or method): nothing was sent.
          reason: cause instanceof errors.InvalidArgumentError ? "Encode" : "Transport",
          cause
        })
        : new HttpClientError.ResponseError({
          request: this.request,
          response: new BufferedResponse(this.request, this.status, this.headers),
          reason: "Decode",
          cause,
          description: "the response body could not be read"
        })
    ))
  }

  /** The fiber was interrupted: abort the request (now, or once it has a connection). */
  interrupt(): void {
    this.done = true
    this.deadline?.end()
    this.controller?.abort(interrupted())
  }

  private tooLarge(controller: Dispatcher.DispatchController, detail: string): void {
    this.chunks = []
    this.finish(Effect.fail(
      new HttpClientError.ResponseError({
        request: this.request,
        response: new BufferedResponse(this.request, this.status, this.headers),
        reason: "Decode",
        description: `the response body is larger than maxBodyBytes (${this.maxBodyBytes} bytes): it ${detail}`
      })
    ))
    // Aborting mid-body closes the connection; the rest of the body is never read.
    controller.abort(new errors.ResponseExceededMaxSizeError(`response body over ${this.maxBodyBytes} bytes`))
  }
}

const send = (
  fiber: Fiber.RuntimeFiber<unknown, unknown>,
  dispatcher: Dispatcher,
  maxBodyBytes: number,
  request: HttpClientRequest.HttpClientRequest,
  url: URL,
  body: DispatchBody,
  contentType?: string
): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> =>
  Effect.async((resume) => {
    const deadline = claimDeadline(fiber)
    const exchange = new Exchange(request, maxBodyBytes, resume, deadline)
    deadline?.start(exchange.expire)
    try {
      dispatcher.dispatch({
        origin: url.origin,
        // As fetch and node:http do, the fragment stays on the client.
        path: url.pathname + url.search,
        method: request.method,
        headers: contentType === undefined ? request.headers : { ...request.headers, "content-type": contentType },
        body
      }, exchange)
    } catch (cause) {
      // Thrown synchronously for arguments undici refuses (an invalid header, a closed dispatcher).
      exchange.onResponseError(undefined as never, cause as Error)
    }
    return Effect.sync(() => exchange.interrupt())
  })

const unsupported = (request: HttpClientRequest.HttpClientRequest, description: string) =>
  Effect.fail(new HttpClientError.RequestError({ request, reason: "Encode", description }))

/**
 * An `HttpClient` on an undici dispatcher (see `MakeOptions`). Responses are buffered up to
 * `maxBodyBytes`; a larger body fails with a `ResponseError` (reason `Decode`) and the request is
 * aborted. Transport failures are `RequestError`s (reason `Transport`) whose `cause` is undici's
 * error, with its `code` (`ECONNREFUSED`, `UND_ERR_SOCKET`, …). A `Deadline.timeoutAbort` deadline of
 * `@shoplink/http` aborts the request when it passes. Interrupting the calling fiber
 * aborts the request. No span is created and no trace headers are sent.
 *
 * @example
 * import { HttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { Agent } from "undici"
 * import { UndiciHttpClient } from "@shoplink/http-node"
 *
 * const client = UndiciHttpClient.make({ dispatcher: new Agent(), maxBodyBytes: 1024 * 1024 })
 * const program = Effect.flatMap(client.get("http://127.0.0.1:8080/health"), (response) => response.text)
 * const provided = Effect.provideService(program, HttpClient.HttpClient, client)
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: MakeOptions = {}): HttpClient.HttpClient => {
  const dispatcher = options.dispatcher ?? shared()
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes
  const client = HttpClient.makeWith<never, never, HttpClientError.HttpClientError, never>(
    (effect) =>
      Effect.flatMap(
        effect,
        (request) =>
          Effect.withFiberRuntime(
            (fiber): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> => {
              const url = UrlParams.makeUrl(request.url, request.urlParams, request.hash)
              if (url._tag === "Left") {
                return Effect.fail(new HttpClientError.RequestError({ request, reason: "InvalidUrl", cause: url.left }))
              }
              const body: Converted = convert(request.body)
              switch (body._tag) {
                case "Ready":
                  return send(fiber, dispatcher, maxBodyBytes, request, url.right, body.body, body.contentType)
                case "NeedsRuntime":
                  return Effect.flatMap(
                    Effect.runtime<never>(),
                    (runtime: Runtime.Runtime<never>) =>
                      send(fiber, dispatcher, maxBodyBytes, request, url.right, body.body(runtime))
                  )
                case "Unsupported":
                  return unsupported(request, body.description)
              }
            }
          )
      ),
    Effect.succeed
  ) // It enforces the deadlines of `@shoplink/http`'s `Deadline.timeoutAbort` (see above).
  ;(client as unknown as Record<symbol, boolean>)[DeadlineTransportId] = true
  return client
}

/**
 * A layer with its own undici `Agent` (options in `agent`), destroyed when the layer's scope
 * closes; or on a `dispatcher` you own. See `make` for what the client does.
 *
 * @example
 * import { HttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { UndiciHttpClient } from "@shoplink/http-node"
 *
 * const live = UndiciHttpClient.layerWith({ agent: { keepAliveTimeout: 10_000 }, maxBodyBytes: 2 * 1024 * 1024 })
 * const program = Effect.flatMap(HttpClient.HttpClient, (client) => client.get("http://127.0.0.1:8080/health"))
 * Effect.provide(program, live)
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWith = (options: LayerOptions = {}): Layer.Layer<HttpClient.HttpClient> =>
  Layer.scoped(
    HttpClient.HttpClient,
    Effect.map(
      options.dispatcher === undefined
        ? Effect.acquireRelease(
          Effect.sync((): Dispatcher => new Agent(options.agent)),
          (agent) => Effect.promise(() => agent.destroy())
        )
        : Effect.succeed(options.dispatcher),
      (dispatcher) => make({ ...options, dispatcher })
    )
  )

/**
 * The recommended Node transport: an `HttpClient` on its own undici `Agent` (default options),
 * destroyed with the layer's scope; bodies buffered up to `defaultMaxBodyBytes`.
 *
 * @example
 * import { HttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { UndiciHttpClient } from "@shoplink/http-node"
 *
 * const program = Effect.gen(function*() {
 *   const client = yield* HttpClient.HttpClient
 *   const response = yield* client.get("http://127.0.0.1:8080/health")
 *   return yield* response.json
 * })
 * Effect.runPromise(Effect.provide(program, UndiciHttpClient.layer))
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<HttpClient.HttpClient> = layerWith()
