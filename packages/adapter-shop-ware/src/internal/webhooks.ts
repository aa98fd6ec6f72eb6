// The fake Shop-Ware's webhooks: the partner-level subscriptions of `/api/v1/webhooks` (list,
// create, get, update, delete; v1:18892–19140) and their deliveries. A delivery is a POST of
// `{ event, object_type, action, id }` (the AsyncAPI document's payload) with `Content-Type:
// application/json`, no signature and no tenant (Shop-Ware documents neither). Deliveries run in the
// background; each is logged with the status answered or the transport error, and `settle()` waits
// for all of them, so tests need no sleeps. A delivery never fails the fake.
import type * as FakeServer from "@shoplink/connector-testkit/FakeServer"
import type { Handler } from "./openapi.js"
import type {
  FakePartner,
  FakeShopWareDelivery,
  FakeShopWareWebhook,
  FakeShopWareWebhookBody
} from "../FakeShopWare.js"

/** How long a delivery waits for the receiver before it is recorded as failed. */
const DELIVERY_TIMEOUT_MS = 10_000

// `object_type.event_action` (v1:18987–18991): the object types and actions the document lists.
const EVENT = /^[a-z_]+\.(created|updated|deleted|merged)$/

interface Subscription {
  readonly id: number
  readonly partnerId: number
  url: string
  events: ReadonlyArray<string>
  format: string | null
}

interface Delivery {
  readonly webhookId: number | undefined
  readonly url: string
  readonly body: unknown
  status: number | undefined
  error: string | undefined
}

// A URL the fake can post to: http or https (Shop-Ware asks for HTTPS; the fake takes loopback http).
const validUrl = (value: unknown): value is string => {
  if (typeof value !== "string") return false
  try {
    const url = new URL(value)
    return url.protocol === "https:" || url.protocol === "http:"
  } catch {
    return false
  }
}

const validEvents = (value: unknown): value is ReadonlyArray<string> =>
  Array.isArray(value) && value.length > 0 && value.every((e) => typeof e === "string" && EVENT.test(e))

const validFormat = (value: unknown): value is string | null | undefined =>
  value === undefined || value === null || value === "zapier"

/**
 * The webhook state of one fake: the handlers of the `/api/v1/webhooks` operations (`partnerOf`
 * gives the authenticated partner of a request; the body arrives checked against the document's
 * request schema) and the controls the fake exposes.
 */
export const makeWebhooks = <C>(options: {
  readonly partnerOf: (context: C) => FakePartner
  readonly error: (status: number, message: string) => FakeServer.Response
}) => {
  const subscriptions = new Map<number, Subscription>()
  const log: Array<Delivery> = []
  const pending = new Set<Promise<void>>()
  let nextId = 1
  const { error } = options
  // What the API answers of a subscription (the control `webhooks()` adds the partner).
  const publicOf = (s: Subscription): Omit<FakeShopWareWebhook, "partnerId"> => ({
    id: s.id,
    url: s.url,
    events: [...s.events],
    format: s.format
  })
  const owned = (raw: string | undefined, context: C) => {
    const s = raw !== undefined && /^\d+$/.test(raw) ? subscriptions.get(Number(raw)) : undefined
    return s !== undefined && s.partnerId === options.partnerOf(context).partnerId ? s : undefined
  }

  const deliver = (webhookId: number | undefined, url: string, body: unknown): Promise<FakeShopWareDelivery> => {
    const entry: Delivery = { webhookId, url, body, status: undefined, error: undefined }
    log.push(entry)
    const sent = (async () => {
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: typeof body === "string" ? body : JSON.stringify(body),
          redirect: "manual",
          signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS)
        })
        entry.status = response.status
        await response.arrayBuffer().catch(() => undefined)
      } catch (cause) {
        const reason = cause instanceof Error && cause.cause instanceof Error ? cause.cause : cause
        entry.error = reason instanceof Error ? reason.message || reason.name : String(reason)
      }
    })()
    const tracked = sent.finally(() => pending.delete(tracked))
    pending.add(tracked)
    return tracked.then(() => ({ ...entry }))
  }

  const handlers: Record<string, Handler<C>> = {
    "GET /api/v1/webhooks": (_request, context) => {
      const partnerId = options.partnerOf(context).partnerId
      return { status: 200, body: [...subscriptions.values()].filter((s) => s.partnerId === partnerId).map(publicOf) }
    },
    "POST /api/v1/webhooks": (_request, context, input) => {
      if (!validUrl(input["url"])) return error(422, "url must be an http(s) URL")
      if (!validEvents(input["events"])) return error(422, "events must be a non-empty list of object_type.action")
      if (!validFormat(input["format"])) return error(422, "format must be null or zapier")
      const subscription: Subscription = {
        id: nextId++,
        partnerId: options.partnerOf(context).partnerId,
        url: input["url"],
        events: [...input["events"]],
        format: input["format"] ?? null
      }
      subscriptions.set(subscription.id, subscription)
      return { status: 201, body: publicOf(subscription) }
    },
    "GET /api/v1/webhooks/{id}": ({ params }, context) => {
      const s = owned(params.id, context)
      return s === undefined ? error(404, "Not Found") : { status: 200, body: publicOf(s) }
    },
    "PUT /api/v1/webhooks/{id}": ({ params }, context, input) => {
      const s = owned(params.id, context)
      if (s === undefined) return error(404, "Not Found")
      if (input["url"] !== undefined && !validUrl(input["url"])) return error(422, "url must be an http(s) URL")
      if (input["events"] !== undefined && !validEvents(input["events"])) {
        return error(422, "events must be a non-empty list of object_type.action")
      }
      if (!validFormat(input["format"])) return error(422, "format must be null or zapier")
      if (input["url"] !== undefined) s.url = input["url"]
      if (input["events"] !== undefined) s.events = [...input["events"]]
      if (input["format"] !== undefined) s.format = input["format"]
      return { status: 200, body: publicOf(s) }
    },
    "DELETE /api/v1/webhooks/{id}": ({ params }, context) => {
      const s = owned(params.id, context)
      if (s === undefined) return error(404, "Not Found")
      subscriptions.delete(s.id)
      return { status: 200, body: {} }
    }
  }

  return {
    handlers,
    /** Posts `objectType.action` about `id` to every subscription of `partnerIds` that has the event. */
    publish: (partnerIds: ReadonlySet<number>, objectType: string, action: string, id: number): void => {
      const event = `${objectType}.${action}`
      const body: FakeShopWareWebhookBody = { event, object_type: objectType, action, id }
      for (const s of subscriptions.values()) {
        if (partnerIds.has(s.partnerId) && s.events.includes(event)) void deliver(s.id, s.url, body)
      }
    },
    postWebhook: (url: string, body: unknown) => deliver(undefined, url, body),
    webhooks: (): ReadonlyArray<FakeShopWareWebhook> =>
      [...subscriptions.values()].map((s) => ({ ...publicOf(s), partnerId: s.partnerId })),
    deliveries: (): ReadonlyArray<FakeShopWareDelivery> => log.map((d) => ({ ...d })),
    settle: async (): Promise<void> => {
      while (pending.size > 0) await Promise.all([...pending])
    }
  }
}
