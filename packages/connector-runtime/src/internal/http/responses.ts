// What the runtime's own handlers share: headers that keep an answer out of caches and Referers,
// JSON errors, the 401 of a missing or wrong vendor API key, the query, and the signed-link check.
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as LaunchLinks from "../../LaunchLinks.js"

export const noStore = { "cache-control": "no-store", "referrer-policy": "no-referrer" }

export const jsonError = (status: number, error: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson({ error }, { status, headers: { ...noStore, ...headers } })

export const unauthorized = () => jsonError(401, "unauthorized", { "www-authenticate": "Bearer realm=\"shoplink\"" })

type Query = Readonly<Record<string, string | ReadonlyArray<string>>>

/** The query string as a record; a malformed one reads as empty (a link check then refuses it). */
export const query = HttpServerRequest.schemaSearchParams(
  Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Array(Schema.String)) })
).pipe(Effect.orElseSucceed((): Query => ({})))

/** The secrets signed links are checked against (none: links are off) and their longest lifetime. */
export interface LinkSettings {
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>
  readonly maxLifetimeSeconds: number
}

/** The request's signed link checked for `purpose`, or `undefined` when links are off. */
export const checkLink = (links: LinkSettings, params: Query, purpose: LaunchLinks.Purpose) =>
  Effect.map(
    Clock.currentTimeMillis,
    (now) =>
      links.secrets.length === 0 ? undefined : LaunchLinks.verify(links.secrets, params, {
        purpose,
        nowSeconds: Math.floor(now / 1000),
        maxLifetimeSeconds: links.maxLifetimeSeconds
      })
  )
