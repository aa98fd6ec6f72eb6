// `GET /metrics`: Effect's metric registry as Prometheus text, with a vendor API key (the same
// keys as the launch API).
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as ApiKeys from "../../ApiKeys.js"
import { prometheus } from "../../Prometheus.js"
import { jsonError, noStore, unauthorized } from "./responses.js"

/** The scrape handler. */
export const metricsHandler = (apiKeys: ApiKeys.Operations) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const verified = yield* Effect.either(apiKeys.verify(request.headers["authorization"]))
    if (Either.isLeft(verified)) {
      if (verified.left._tag === "ApiKeyStoreError") {
        yield* Effect.logError("metrics: the API key store failed", verified.left)
        return jsonError(503, "try again")
      }
      yield* Effect.logWarning("metrics refused").pipe(Effect.annotateLogs({ reason: verified.left.message }))
      return unauthorized()
    }
    return HttpServerResponse.text(yield* prometheus, {
      contentType: "text/plain; version=0.0.4; charset=utf-8",
      headers: noStore
    })
  })
