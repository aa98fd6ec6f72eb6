// What the runtime's own handlers share: headers that keep an answer out of caches and Referers,
// JSON errors, the 401 of a missing or wrong vendor API key, the query, the signed-link check and
// a body read to a limit.
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
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

/** The runtime's `launchLink` and `partsLink`: a link of `purpose`, or `disabled()` without secrets. */
export const mintLink = <E>(
  settings: LinkSettings & {
    readonly publicBaseUrl: string
    readonly basePath: string
    readonly disabled: () => E
  }
) =>
(purpose: LaunchLinks.Purpose) =>
(grant: { readonly shopId: string; readonly repairOrderId: string; readonly expiresIn?: Duration.DurationInput }) =>
  Effect.gen(function*() {
    const secret = settings.secrets[0]
    if (secret === undefined) return yield* Effect.fail(settings.disabled())
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const expiresAt = now + Math.floor(Duration.toSeconds(Duration.decode(grant.expiresIn ?? "15 minutes")))
    const { repairOrderId, shopId } = grant
    return LaunchLinks.url(
      settings.publicBaseUrl,
      settings.basePath,
      secret,
      { shopId, repairOrderId, expiresAt },
      purpose
    )
  })

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

/** The body, read until `maxBytes`: `undefined` when it is longer. */
export const readLimited = (request: HttpServerRequest.HttpServerRequest, maxBytes: number) =>
  Effect.gen(function*() {
    const pull = yield* Stream.toPull(request.stream)
    const chunks: Array<Uint8Array> = []
    let size = 0
    while (true) {
      const next = yield* Effect.either(pull)
      if (Either.isLeft(next)) {
        if (Option.isNone(next.left)) return Buffer.concat(chunks)
        return yield* Effect.fail(next.left.value)
      }
      for (const chunk of next.right) {
        size += chunk.byteLength
        if (size > maxBytes) return undefined
        chunks.push(chunk)
      }
    }
  })
