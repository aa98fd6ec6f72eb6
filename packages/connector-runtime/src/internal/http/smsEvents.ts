// `POST {basePath}/sms-webhooks/{key}`: an SMS's repair-order webhook for one shop (capability
// `receiveRepairOrderEvents`). The key names the shop (`SmsWebhooks`); the adapter decodes which
// repair orders the body names, and each is read back from the SMS: its state is what the SMS
// answers, never what the body says, so a forged body can only cause a read. Answers 204 when
// every named repair order was read and recorded; 404 (empty) for a key that is not one, or when
// SMS webhooks are off; 400 for a body that is not the SMS's; 503 when the SMS or the store could
// not answer (the SMS may deliver again).
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { ShopSystem } from "@shoplink/connector/ShopSystem"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type * as RepairOrderStates from "../../RepairOrderStates.js"
import * as SmsWebhooks from "../../SmsWebhooks.js"
import * as metrics from "../metrics.js"
import { NOT_UTF8, utf8Text } from "../nodeWebhooks.js"
import { jsonError, noStore, readLimited } from "./responses.js"

const empty = (status: number) => HttpServerResponse.empty({ status, headers: noStore })

const counted = (outcome: string) => Metric.increment(Metric.tagged(metrics.smsEvents, "outcome", outcome))

interface Deps {
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>
  readonly sms: ShopSystem["Type"]
  readonly states: RepairOrderStates.Operations
  readonly maxBodyBytes: number
  /** The absolute URL of the route with a key. */
  readonly urlOf: (key: string) => string
}

/** The route's handler, and the runtime's `smsWebhookUrl` and `subscribeRepairOrderEvents`. */
export const smsWebhooks = (deps: Deps) => ({
  handler: handler(deps),
  ...subscriptions(deps)
})

const handler = (deps: Deps) =>
  Effect.gen(function*() {
    const { maxBodyBytes, secrets, sms, states } = deps
    const events = sms.capabilities.has("receiveRepairOrderEvents") ? sms.repairOrderEvents : undefined
    const { key } = yield* HttpRouter.params
    const shop = events === undefined ? Option.none() : SmsWebhooks.verify(secrets, key ?? "")
    if (events === undefined || Option.isNone(shop)) {
      yield* counted("refused")
      return empty(404)
    }
    const shopId = shop.value
    const request = yield* HttpServerRequest.HttpServerRequest
    const bytes = yield* readLimited(request, maxBodyBytes).pipe(Effect.orElseSucceed(() => undefined))
    if (bytes === undefined) return jsonError(413, "body too large")
    const body = utf8Text(bytes)
    if (body === undefined) return jsonError(400, NOT_UTF8)
    const decoded = yield* Effect.either(events.decode({ shopId, body }))
    if (decoded._tag === "Left") {
      yield* Effect.logWarning("SMS webhook refused").pipe(Effect.annotateLogs({ shopId, reason: decoded.left.reason }))
      yield* counted("undecodable")
      return jsonError(400, "the body is not a repair-order webhook of this SMS")
    }
    for (const event of decoded.right) {
      const ref = { shopId, repairOrderId: event.repairOrderId }
      const read = yield* Effect.either(sms.loadRepairOrder(ref))
      let state: RepairOrderStates.State
      if (read._tag === "Right") {
        state = read.right.closed === true ? "closed" : "open"
      } else if (read.left._tag === "RepairOrderNotFound") {
        // Not this shop's (another tenant of the same SMS partner), or gone: recorded as deleted
        // only when the SMS says so or the runtime already follows it.
        const known = yield* Effect.either(states.get(ref))
        if (known._tag === "Left") return yield* unavailable(shopId, known.left.message)
        if (event.action !== "deleted" && Option.isNone(known.right)) continue
        state = "deleted"
      } else {
        return yield* unavailable(shopId, read.left.message)
      }
      const checkedAt = yield* Clock.currentTimeMillis
      const recorded = yield* Effect.either(states.record({ ...ref, state, action: event.action, checkedAt }))
      if (recorded._tag === "Left") return yield* unavailable(shopId, recorded.left.message)
      yield* Effect.logInfo("repair order state").pipe(
        Effect.annotateLogs({ shopId, repairOrderId: event.repairOrderId, action: event.action, state })
      )
      yield* counted(state)
    }
    return empty(204)
  }).pipe(Effect.withSpan("ConnectorRuntime.smsWebhook"))

const unavailable = (shopId: string, reason: string) =>
  Effect.zipRight(
    Effect.zipRight(
      Effect.logWarning("SMS webhook not recorded; the SMS may deliver it again").pipe(
        Effect.annotateLogs({ shopId, reason })
      ),
      counted("unavailable")
    ),
    Effect.succeed(jsonError(503, "the shop system could not be read; deliver again later"))
  )

const subscriptions = (deps: Deps) => {
  const url = (shopId: string) => {
    const secret = deps.secrets[0]
    return secret === undefined
      ? Effect.fail(new SmsWebhooks.SmsWebhooksDisabled({ reason: "no smsWebhookSecrets configured" }))
      : Effect.succeed(deps.urlOf(SmsWebhooks.keyFor(secret, shopId)))
  }
  const subscribe = (shopId: string) =>
    Effect.gen(function*() {
      const events = deps.sms.capabilities.has("receiveRepairOrderEvents") ? deps.sms.repairOrderEvents : undefined
      if (events === undefined) {
        return yield* new SmsWebhooks.SmsWebhooksDisabled({
          reason: "the adapter does not receive repair-order events"
        })
      }
      const address = yield* url(shopId)
      yield* events.subscribe({ shopId, url: address })
      return address
    }).pipe(Effect.withSpan("ConnectorRuntime.subscribeRepairOrderEvents", { attributes: { shopId } }))
  return { url, subscribe }
}
