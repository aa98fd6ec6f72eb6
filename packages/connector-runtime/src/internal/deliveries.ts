// From a distributor webhook to what the shop system writes: content keys for dedupe, and part
// lines with stable idempotency keys and exact cents.
import { Punchout } from "@shoplink/protocol"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import { toCents } from "@shoplink/connector/Money"
import type { OrderWrite, PartLine, QuoteWrite } from "@shoplink/connector/ShopSystem"

interface PricedLine {
  readonly productID: string
  readonly brandID: string
  readonly productDesc: string
  readonly price: number
  readonly listPrice: number
  readonly corePrice: number
  readonly acaPartTerminologyID: number
  readonly categoryID: string
}

const partLine = (line: PricedLine, quantity: number, idempotencyKey: string): PartLine => ({
  idempotencyKey,
  productID: line.productID,
  brandID: line.brandID,
  description: line.productDesc,
  quantity,
  costCents: toCents(line.price),
  listCents: toCents(line.listPrice),
  coreCents: toCents(line.corePrice),
  partTerminologyId: line.acaPartTerminologyID,
  categoryID: line.categoryID
})

/** A digest of what a quote says (products, quantities, prices), independent of key order. */
const quoteDigest = (quote: Punchout.QuoteWebhook): string =>
  createHash("sha256")
    .update(
      JSON.stringify(
        quote.quotes.map((q) => [q.productID, q.brandID, q.quantityReq, q.price, q.listPrice, q.corePrice])
      )
    )
    .digest("hex")
    .slice(0, 32)

/**
 * What a content key ends with when its delivery came in on the webhook key of the launch
 * `launchId` (`LaunchRegistry.Launch["id"]`): the callback page of a launch shows the deliveries
 * received on that launch's webhook key and nothing else. The same content redelivered on the same
 * key is a duplicate; on another launch's key it is that launch's delivery (applied again, which
 * writes nothing new: the line keys do not depend on the launch).
 */
const launchSuffix = (launchId: string | undefined) => launchId === undefined ? "" : `~${launchId}`

/** Whether a stored delivery came in on the webhook key of the launch `launchId`. */
export const receivedOnLaunch = (entry: { readonly contentKey: string }, launchId: string): boolean =>
  entry.contentKey.endsWith(`~${launchId}`)

/** Dedupe key of a quote delivery: the launch's repair order, the digest of its lines, and the launch. */
export const quoteContentKey = (
  shopId: string,
  repairOrderId: string,
  quote: Punchout.QuoteWebhook,
  launchId?: string
): string => `quote:${shopId}:${repairOrderId}:${quoteDigest(quote)}${launchSuffix(launchId)}`

/**
 * A digest of what an order delivery would write: its status and every line, in order, with the
 * fields that reach the shop system.
 */
const orderDigest = (webhook: Punchout.OrderWebhook): string => {
  const { order } = webhook
  return createHash("sha256")
    .update(JSON.stringify([
      order.status,
      order.statusDescription,
      order.orderLines.map((l) => [
        l.productID,
        l.brandID,
        l.productDesc,
        l.quantity,
        l.price,
        l.listPrice,
        l.corePrice,
        l.acaPartTerminologyID,
        l.categoryID
      ])
    ]))
    .digest("hex")
    .slice(0, 32)
}

/**
 * Dedupe key of an order delivery: the order number, its status and the digest of its content, so
 * a redelivery whose lines changed is a new delivery and an identical one is a duplicate, then the
 * launch it came in on. (Keys written before the digest was added end at the status, and keys
 * written before the launch was added end at the digest: an identical redelivery of such an old
 * delivery is stored once more and applied again, which writes nothing new, since the line keys
 * below did not change.)
 */
export const orderContentKey = (
  shopId: string,
  repairOrderId: string,
  order: Punchout.OrderWebhook,
  launchId?: string
): string =>
  `order:${shopId}:${repairOrderId}:${order.order.orderID}:${order.order.status}:${orderDigest(order)}${
    launchSuffix(launchId)
  }`

export const quoteWrite = (shopId: string, repairOrderId: string, quote: Punchout.QuoteWebhook): QuoteWrite => {
  const digest = quoteDigest(quote)
  return {
    shopId,
    repairOrderId,
    lines: quote.quotes.map((q, i) => partLine(q, q.quantityReq, `quote:${digest}:${i}`))
  }
}

export const orderWrite = (shopId: string, repairOrderId: string, webhook: Punchout.OrderWebhook): OrderWrite => ({
  shopId,
  repairOrderId,
  orderID: webhook.order.orderID,
  status: webhook.order.status,
  statusDescription: webhook.order.statusDescription,
  // Keyed by order and position, not status or content: a later status or a redelivery of the same
  // order adds only the lines not yet there (the contract only adds lines; it never edits one).
  lines: webhook.order.orderLines.map((l, i) => partLine(l, l.quantity, `order:${webhook.order.orderID}:${i}`))
})

const decodeOrder = Schema.decodeUnknownEither(Schema.parseJson(Punchout.OrderWebhook))
const decodeQuote = Schema.decodeUnknownEither(Schema.parseJson(Punchout.QuoteWebhook))

/**
 * What applying a stored delivery writes, by kind (public as `InboxWorker.DeliveryWrite`).
 *
 * @example
 * import type { InboxWorker } from "@shoplink/connector-runtime"
 * const lineCount = (w: InboxWorker.DeliveryWrite) => w.write.lines.length
 *
 * @since 0.1.0
 */
export type DeliveryWrite =
  | { readonly kind: "quote"; readonly write: QuoteWrite }
  | { readonly kind: "order"; readonly write: OrderWrite }

/**
 * What applying a stored delivery writes (the same lines and idempotency keys the worker hands the
 * shop system), or `undefined` when its body does not decode or was cleared by retention.
 */
export const writeOf = (
  entry: {
    readonly kind: "order" | "quote"
    readonly shopId: string
    readonly repairOrderId: string
    readonly body: string
  }
): DeliveryWrite | undefined => {
  try {
    if (entry.kind === "order") {
      const body = decodeOrder(entry.body)
      return Either.isRight(body)
        ? { kind: "order", write: orderWrite(entry.shopId, entry.repairOrderId, body.right) }
        : undefined
    }
    const body = decodeQuote(entry.body)
    return Either.isRight(body)
      ? { kind: "quote", write: quoteWrite(entry.shopId, entry.repairOrderId, body.right) }
      : undefined
  } catch {
    return undefined
  }
}

/**
 * The idempotency keys of the part lines a stored delivery writes (none when its body does not
 * decode, or was cleared by retention): how the callback page picks a launch's lines out of the
 * parts kept for its repair order.
 */
export const lineKeysOf = (
  entry: {
    readonly kind: "order" | "quote"
    readonly shopId: string
    readonly repairOrderId: string
    readonly body: string
  }
): ReadonlyArray<string> => writeOf(entry)?.write.lines.map((line) => line.idempotencyKey) ?? []
