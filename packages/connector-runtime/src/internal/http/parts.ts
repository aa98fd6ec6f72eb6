// `GET {basePath}/parts?shop&ro` (HTML) and `/parts.csv`: the part lines the runtime keeps for one
// repair order (`PartsLedger`), with a vendor API key, or a signed link of purpose `parts` whose
// grant is that repair order of that shop.
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { Html } from "@shoplink/http"
import type * as ApiKeys from "../../ApiKeys.js"
import * as PartsLedger from "../../PartsLedger.js"
import { renderPartsPage } from "../callbackPage.js"
import * as Routes from "../routes.js"
import { checkLink, jsonError, type LinkSettings, noStore, query, unauthorized } from "./responses.js"

/** The parts page's handler in either format. */
export const partsHandler = (deps: {
  readonly basePath: string
  readonly apiKeys: ApiKeys.Operations
  readonly ledger: PartsLedger.Operations
  readonly links: LinkSettings
}) =>
(format: "html" | "csv") =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const params = yield* query
    let ref: { readonly shopId: string; readonly repairOrderId: string }
    if (request.headers["authorization"] !== undefined) {
      const verified = yield* Effect.either(deps.apiKeys.verify(request.headers["authorization"]))
      if (Either.isLeft(verified)) {
        yield* Effect.logWarning("parts page refused").pipe(Effect.annotateLogs({ reason: verified.left.message }))
        return unauthorized()
      }
      const shopId = params["shop"]
      const repairOrderId = params["ro"]
      if (typeof shopId !== "string" || shopId === "" || typeof repairOrderId !== "string" || repairOrderId === "") {
        return jsonError(400, "give the repair order as ?shop=<shop id>&ro=<repair order id>")
      }
      ref = { shopId, repairOrderId }
    } else {
      const grant = yield* checkLink(deps.links, params, "parts")
      if (grant === undefined || Either.isLeft(grant)) {
        if (grant !== undefined) {
          yield* Effect.logWarning("parts link refused").pipe(Effect.annotateLogs({ reason: grant.left.reason }))
        }
        return HttpServerResponse.text(
          "Forbidden: this link is not valid (it may have expired). Open the repair order again.",
          {
            status: 403,
            headers: noStore
          }
        )
      }
      ref = { shopId: grant.right.shopId, repairOrderId: grant.right.repairOrderId }
    }
    const lines = yield* Effect.either(deps.ledger.list(ref))
    if (Either.isLeft(lines)) {
      yield* Effect.logError("parts page: the ledger failed", lines.left)
      return jsonError(503, "try again")
    }
    if (format === "csv") {
      return HttpServerResponse.text(PartsLedger.toCsv(lines.right), {
        contentType: "text/csv; charset=utf-8",
        headers: {
          ...noStore,
          "content-disposition": `attachment; filename="parts-${
            ref.repairOrderId.replace(/[^A-Za-z0-9._-]/g, "_")
          }.csv"`
        }
      })
    }
    // The CSV link carries the page's own credentials (a signed link's parameters) along.
    const csvHref = `${Routes.path("partsCsv", deps.basePath)}?${
      new URLSearchParams(
        Object.entries(params).flatMap(([k, v]): Array<[string, string]> => typeof v === "string" ? [[k, v]] : [])
      ).toString()
    }`
    return Html.page(renderPartsPage(ref, lines.right, csvHref))
  }).pipe(Effect.withSpan("ConnectorRuntime.parts", { attributes: { format } }))
