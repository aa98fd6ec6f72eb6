// What never reaches a log line, a span or an error message: launch keys (the path segment after
// `webhooks/` or `callback/`), link signatures and tokens in a query string, bearer credentials and
// the secret half of vendor API keys. `redactText` works on any text (a rendered cause, a log
// line); `redactUrl` on a request URL, where it also drops the query string and any path segment
// that looks like a random secret.
import * as Cause from "effect/Cause"
import * as Exit from "effect/Exit"
import * as Tracer from "effect/Tracer"
import { keyedSegments } from "./routes.js"

// A key after any keyed route's segment (`webhooks/`, `callback/`), singular or plural, escaped or not.
const KEYED_SEGMENT = new RegExp(
  String.raw`(\/|%2F)(${keyedSegments.map((name) => `${name.replace(/s$/, "")}s?`).join("|")})(\/|%2F)` +
    String.raw`(?!:key(?:[/?#"'\s\\&]|%2F|$))[^/?#\s"'\\<>&%]+(?:%[0-9A-Fa-f]{2}[^/?#\s"'\\<>&%]*)*`,
  "gi"
)
const SECRET_PARAM =
  /([?&;]|&amp;|%3F|%26)(sig|signature|token|key|secret|password|api_key|apikey|access_token|refresh_token|code)(=|%3D)[^&#\s"'\\<>]*/gi
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi
const API_KEY = /\b(slk_[a-z0-9]{10}_)[A-Za-z0-9_-]{8,}/g

/** `text` with launch keys, signatures, tokens and credentials replaced. */
export const redactText = (text: string): string => {
  if (text.length === 0) return text
  return text
    .replace(KEYED_SEGMENT, (_, slash: string, name: string, slash2: string) => `${slash}${name}${slash2}:key`)
    .replace(SECRET_PARAM, (_, sep: string, name: string, eq: string) => `${sep}${name}${eq}…`)
    .replace(BEARER, (_, scheme: string) => `${scheme} <redacted>`)
    .replace(API_KEY, "$1…")
}

// A segment that looks like a random secret: long, base64url, mixed case (a UUID or a number does not).
const RANDOM_RUN = /[A-Za-z0-9_-]{20,}/g
const looksRandom = (segment: string) =>
  (segment.match(RANDOM_RUN) ?? []).some((run) => /[a-z]/.test(run) && /[A-Z]/.test(run))

/**
 * A request URL (path and query, or a full URL) as logs and spans may carry it: the path with keys
 * and random-looking segments replaced, and the query string, if any, as `?…`.
 */
export const redactUrl = (url: string): string => {
  const query = url.search(/[?#]/)
  const path = query === -1 ? url : url.slice(0, query)
  const cleaned = redactText(path)
    .split("/")
    .map((segment) => looksRandom(segment) ? ":redacted" : segment)
    .join("/")
  return query === -1 ? cleaned : `${cleaned}?…`
}

/** A cause whose rendering holds nothing `redactText` would replace (each error rebuilt if needed). */
export const redactCause = <E>(cause: Cause.Cause<E>, scrub: (text: string) => string = redactText): Cause.Cause<E> => {
  if (Cause.isEmpty(cause) || Cause.isInterruptedOnly(cause)) return cause
  const rendered = Cause.pretty(cause, { renderErrorCause: true })
  if (scrub(rendered) === rendered) return cause
  const errors = Cause.prettyErrors(cause).map((pretty) => {
    const error = new Error(scrub(pretty.message))
    error.name = pretty.name
    error.stack = scrub(pretty.stack ?? `${pretty.name}: ${pretty.message}`)
    return Cause.die(error) as Cause.Cause<E>
  })
  return errors.length === 0
    ? Cause.die(new Error(scrub(rendered)))
    : errors.reduce((all, one) => Cause.sequential(all, one))
}

const redactValue = (value: unknown): unknown => typeof value === "string" ? redactText(value) : value

/**
 * A tracer whose spans pass every name, attribute, event and failure through `redactText` before
 * the wrapped tracer records them.
 */
export const redactingTracer = (tracer: Tracer.Tracer): Tracer.Tracer =>
  Tracer.make({
    context: (f, fiber) => tracer.context(f, fiber),
    span(name, parent, context, links, startTime, kind, options) {
      const span = tracer.span(redactText(name), parent, context, links, startTime, kind, options)
      const attribute = span.attribute.bind(span)
      const event = span.event.bind(span)
      const end = span.end.bind(span)
      const mutable = span as { -readonly [K in keyof Tracer.Span]: Tracer.Span[K] }
      mutable.attribute = (key, value) => attribute(key, redactValue(value))
      mutable.event = (eventName, time, attributes) =>
        event(
          redactText(eventName),
          time,
          attributes === undefined
            ? undefined
            : Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, redactValue(v)]))
        )
      mutable.end = (endTime, exit) =>
        end(endTime, Exit.isFailure(exit) ? Exit.failCause(redactCause(exit.cause)) : exit)
      return span
    }
  })
