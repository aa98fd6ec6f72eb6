// Request bodies in the shapes undici's dispatcher sends. Most bodies convert without an Effect;
// only a Stream body needs the caller's runtime (to run the stream with its context).
import type * as HttpBody from "@effect/platform/HttpBody"
import type * as Runtime from "effect/Runtime"
import * as Stream from "effect/Stream"
import { Readable } from "node:stream"
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web"
import { type Dispatcher, FormData as UndiciFormData } from "undici"

export type DispatchBody = Exclude<Dispatcher.DispatchOptions["body"], undefined>

/** A body that needs the runtime, or one that is ready, or why it cannot be sent. */
export type Converted =
  | { readonly _tag: "Ready"; readonly body: DispatchBody; readonly contentType?: string }
  | { readonly _tag: "NeedsRuntime"; readonly body: (runtime: Runtime.Runtime<never>) => DispatchBody }
  | { readonly _tag: "Unsupported"; readonly description: string }

const ready = (body: DispatchBody): Converted => ({ _tag: "Ready", body })
const EMPTY: Converted = ready(null)

const isNodeReadable = (u: object): u is Readable =>
  typeof (u as Readable).pipe === "function" && typeof (u as Readable).on === "function"

// Raw is "whatever the platform implementation accepts": the shapes undici (or Node) can send.
const raw = (body: unknown): Converted => {
  if (body === null || body === undefined) return EMPTY
  if (typeof body === "string" || body instanceof Uint8Array) return ready(body)
  if (body instanceof ArrayBuffer) return ready(Buffer.from(body))
  if (typeof body === "object") {
    if (isNodeReadable(body)) return ready(body)
    if (body instanceof ReadableStream) return ready(Readable.fromWeb(body as NodeWebReadableStream))
    if (body instanceof Blob) return ready(Readable.fromWeb(body.stream() as NodeWebReadableStream))
    if (Symbol.asyncIterator in body || Symbol.iterator in body) {
      return ready(Readable.from(body as AsyncIterable<Uint8Array>, { objectMode: false }))
    }
  }
  const kind = typeof body === "object" ? (body.constructor?.name ?? "object") : typeof body
  return { _tag: "Unsupported", description: `a Raw body of type ${kind} cannot be sent` }
}

// undici (7) only encodes its own FormData class; Node's global FormData comes from the undici
// bundled with Node, whose Response does the multipart encoding (and picks the boundary).
const formData = (form: FormData): Converted => {
  if (form instanceof UndiciFormData) return ready(form as unknown as DispatchBody)
  if (form instanceof globalThis.FormData) {
    const encoded = new Response(form)
    const contentType = encoded.headers.get("content-type") ?? "multipart/form-data"
    return {
      _tag: "Ready",
      body: encoded.body === null ? null : Readable.fromWeb(encoded.body as NodeWebReadableStream),
      contentType
    }
  }
  return { _tag: "Unsupported", description: "a FormData body must be Node's global FormData or undici's" }
}

export const convert = (body: HttpBody.HttpBody): Converted => {
  switch (body._tag) {
    case "Empty":
      return EMPTY
    case "Uint8Array":
      return ready(body.body)
    case "Raw":
      return raw(body.body)
    case "FormData":
      return formData(body.formData)
    case "Stream": {
      const stream = body.stream
      return {
        _tag: "NeedsRuntime",
        // Destroying the Readable (undici does on abort) ends the iteration, which interrupts the stream.
        body: (runtime) => Readable.from(Stream.toAsyncIterableRuntime(stream, runtime), { objectMode: false })
      }
    }
  }
}
