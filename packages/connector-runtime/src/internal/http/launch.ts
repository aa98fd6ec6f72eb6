// `POST {basePath}/launch` (an SMS backend with a vendor API key; answers the catalog URL as JSON)
// and `GET {basePath}/launch/link?shop&ro&exp&sig` (a browser following a signed link of purpose
// `launch`; redirected to the catalog).
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type * as ApiKeys from "../../ApiKeys.js"
import type * as PunchoutLauncher from "../../PunchoutLauncher.js"
import { checkLink, jsonError, type LinkSettings, noStore, query, unauthorized } from "./responses.js"

const LaunchRequest = Schema.Struct({
  shopId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)),
  repairOrderId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)),
  searchTerm: Schema.optional(Schema.String.pipe(Schema.maxLength(200)))
})
const decodeLaunchRequest = Schema.decodeUnknownEither(LaunchRequest, { onExcessProperty: "ignore" })

/** HTTP status and public message of a launch failure: never a token, never another shop's data. */
const launchFailure = (error: PunchoutLauncher.LaunchError): { readonly status: number; readonly error: string } => {
  switch (error._tag) {
    case "CredentialsNotFound":
    case "RepairOrderNotFound":
      return { status: 404, error: "not found" }
    case "CredentialsRevoked":
    case "RepairOrderClosed":
      return { status: 409, error: error.message }
    case "VehicleRequired":
      return { status: 422, error: error.message }
    case "CapabilityMissing":
      return { status: 501, error: error.message }
    case "InvalidInput":
      return { status: 400, error: error.message }
    default:
      return { status: 502, error: "the distributor or the shop system could not be reached; try again" }
  }
}

const logLaunch = (how: string, launched: PunchoutLauncher.Launched, shopId: string) =>
  Effect.logInfo("punchout launched").pipe(
    Effect.annotateLogs({ how, shopId, repairOrderId: launched.repairOrder.id, vehicle: launched.vehicle })
  )

const logFailure = (
  ref: { readonly shopId: string; readonly repairOrderId: string },
  error: PunchoutLauncher.LaunchError
) =>
  Effect.logWarning("launch failed").pipe(
    Effect.annotateLogs({ shopId: ref.shopId, repairOrderId: ref.repairOrderId, error: error.message })
  )

/** The two launch routes' handlers. */
export const launchHandlers = (deps: {
  readonly launcher: PunchoutLauncher.Operations
  readonly apiKeys: ApiKeys.Operations
  readonly links: LinkSettings
}) => {
  const { apiKeys, launcher, links } = deps

  const byKey = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const verified = yield* Effect.either(apiKeys.verify(request.headers["authorization"]))
    if (Either.isLeft(verified)) {
      yield* Effect.logWarning("launch refused").pipe(Effect.annotateLogs({ reason: verified.left.message }))
      return unauthorized()
    }
    const body = yield* Effect.either(request.json)
    const input = Either.flatMap(body, (json) => Either.mapLeft(decodeLaunchRequest(json), () => undefined))
    if (Either.isLeft(input)) {
      return jsonError(400, "the body must be JSON { shopId, repairOrderId, searchTerm? } with non-empty ids")
    }
    const launched = yield* Effect.either(launcher.launch(input.right))
    if (Either.isLeft(launched)) {
      const failure = launchFailure(launched.left)
      yield* logFailure(input.right, launched.left)
      return jsonError(failure.status, failure.error)
    }
    yield* logLaunch("api", launched.right, input.right.shopId)
    return HttpServerResponse.unsafeJson({
      url: Redacted.value(launched.right.url),
      repairOrder: { id: launched.right.repairOrder.id, number: launched.right.repairOrder.number },
      vehicle: launched.right.vehicle
    }, { headers: noStore })
  }).pipe(Effect.withSpan("ConnectorRuntime.launch", { attributes: { how: "api" } }))

  // A parts link is refused here before anything is launched.
  const byLink = Effect.gen(function*() {
    const forbidden = HttpServerResponse.text(
      "Forbidden: this launch link is not valid (it may have expired). Open the repair order again.",
      {
        status: 403,
        headers: noStore
      }
    )
    const grant = yield* checkLink(links, yield* query, "launch")
    if (grant === undefined) return forbidden
    if (Either.isLeft(grant)) {
      yield* Effect.logWarning("launch link refused").pipe(Effect.annotateLogs({ reason: grant.left.reason }))
      return forbidden
    }
    const { repairOrderId, shopId } = grant.right
    const launched = yield* Effect.either(launcher.launch({ shopId, repairOrderId }))
    if (Either.isLeft(launched)) {
      const failure = launchFailure(launched.left)
      yield* logFailure(grant.right, launched.left)
      // A repair order that is not the shop's is a link for something else: forbidden, not a hint.
      if (failure.status === 404) return forbidden
      return HttpServerResponse.text(failure.error, { status: failure.status, headers: noStore })
    }
    yield* logLaunch("link", launched.right, grant.right.shopId)
    const location = Redacted.value(launched.right.url)
    return HttpServerResponse.empty({ status: 303, headers: { location, ...noStore } })
  }).pipe(Effect.withSpan("ConnectorRuntime.launchLink"))

  return { byKey, byLink }
}
