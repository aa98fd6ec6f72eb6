// What every route handler needs: the state, the sandbox clock, the base URL and the webhook
// sender, plus small response and body helpers.
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { reject, type Result } from "./domain/result.js"
import { httpStatusOf, type MessageFailure } from "./failure.js"
import type { SandboxState } from "./state.js"
import { errorEnvelope } from "./wire.js"

export type WebhookEvent = "order" | "quote"

export interface Ctx {
  readonly state: SandboxState
  /** Epoch milliseconds on the sandbox clock (Effect Clock + admin offset). */
  readonly now: Effect.Effect<number>
  readonly baseUrl: () => string
  /** Required as `Authorization: Bearer …` on `/__sandbox/` when set. */
  readonly adminToken: Redacted.Redacted<string> | undefined
  /** Queues a webhook delivery in the background; never blocks the caller. */
  readonly deliver: (event: WebhookEvent, url: string, body: unknown) => Effect.Effect<void>
}

export const json = (body: unknown, status = 200) => HttpServerResponse.unsafeJson(body, { status })

export const envelope = (
  failure: MessageFailure,
  reference: { readonly referenceID?: string | undefined; readonly spelling?: "referenceID" | "referenceId" } = {},
  extra: Record<string, unknown> = {}
) => {
  const status = httpStatusOf(failure.id)
  return json({ ...errorEnvelope(failure, status, reference), ...extra }, status)
}

const NOT_AN_OBJECT = "Invalid API parameters: the body must be a JSON object"

/** Reads a JSON object body; malformed JSON or a non-object is API0288. */
export const readJsonObject: Effect.Effect<
  Record<string, unknown>,
  MessageFailure,
  HttpServerRequest.HttpServerRequest
> = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const text = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
  if (text.trim() === "") return yield* reject("API0288", NOT_AN_OBJECT)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return yield* reject("API0288", "Invalid API parameters: malformed JSON body")
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return yield* reject("API0288", NOT_AN_OBJECT)
  }
  return parsed as Record<string, unknown>
})

/**
 * Decodes a body with a protocol schema: a missing field is API0203 (missing selection criteria),
 * anything else API0288 (invalid parameters); the text names the field.
 */
const decoders = new WeakMap<object, (input: unknown) => unknown>()

export const decodeWith = <A, I>(schema: Schema.Schema<A, I>, input: unknown): Result<A> => {
  let decode = decoders.get(schema)
  if (decode === undefined) {
    decode = Schema.decodeUnknownEither(schema, { errors: "all" })
    decoders.set(schema, decode)
  }
  const result = decode(input) as ReturnType<ReturnType<typeof Schema.decodeUnknownEither<A, I>>>
  if (result._tag === "Right") return Either.right(result.right)
  const issues = ParseResult.ArrayFormatter.formatErrorSync(result.left)
  // In a union every branch reports; only when all that is wrong is absence is it API0203.
  const missing = issues.find((i) => i._tag === "Missing")
  if (missing !== undefined && issues.every((i) => i._tag === "Missing")) {
    return reject("API0203", `Missing selection criteria: ${missing.path.join(".")}`)
  }
  const first = issues.find((i) => i._tag !== "Missing")
  return reject(
    "API0288",
    `Invalid API parameters: ${first === undefined ? "" : `${first.path.join(".")} ${first.message}`}`.trim()
  )
}

/** A raw quantity that is a number or numeric string ≤ 0 (API0231 before schema decoding). */
export const nonPositiveQuantity = (value: unknown): boolean => {
  if (typeof value === "number") return value <= 0
  if (typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value))) return Number(value) <= 0
  return false
}
