// From a distributor webhook to what the shop system writes: content keys for dedupe, and part
// lines with stable idempotency keys and exact cents.
import { Punchout } from "@shoplink/protocol"
import { createHash } from "node:crypto"
import { toCents } from "../Money.js"
import type { OrderWrite, PartLine, QuoteWrite } from "../ShopSystem.js"

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
export const quoteDigest = (quote: Punchout.QuoteWebhook): string =>
  createHash("sha256")
    .update(JSON.stringify(quote.quotes.map((q) => [q.productID, q.brandID, q.quantityReq, q.price, q.listPrice, q.corePrice])))
    .digest("hex")
    .slice(0, 32)

/** Dedupe key of a quote delivery: the launch's repair order and the digest of its lines. */
export const quoteContentKey = (shopId: string, repairOrderId: string, quote: Punchout.QuoteWebhook): string =>
  `quote:${shopId}:${repairOrderId}:${quoteDigest(quote)}`

/**
 * A digest of what an order delivery would write: its status and every line, in order, with the
 * fields that reach the shop system.
 */
export const orderDigest = (webhook: Punchout.OrderWebhook): string => {
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
 * a redelivery whose lines changed is a new delivery and an identical one is a duplicate. (Keys
 * written before the digest was added end at the status: an identical redelivery of such an old
 * delivery is stored once more and applied again, which writes nothing new, since the line keys
 * below did not change.)
 */
export const orderContentKey = (shopId: string, repairOrderId: string, order: Punchout.OrderWebhook): string =>
  `order:${shopId}:${repairOrderId}:${order.order.orderID}:${order.order.status}:${orderDigest(order)}`

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
