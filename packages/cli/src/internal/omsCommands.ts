// `shoplink oms …`: the Order Management API for the configured customer.
import type { OrderManagementClient } from "@shoplink/order-management"
import { OrderManagement } from "@shoplink/protocol"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { readFileSync } from "node:fs"
import { loadSettings, today, withOms } from "./common.js"
import { UsageError } from "./errors.js"
import { err, fields, json, money, out, table, withSpinner } from "./output.js"
import type * as Spec from "./spec.js"

// Marketing copy comes as HTML: show a readable one-line excerpt in tables (--json keeps it whole).
const plainText = (html: string | undefined) => {
  const text = (html ?? "").replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim()
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}

const day = (name: string, value: string) => {
  const parsed = OrderManagement.parseYyyymmdd(value)
  return parsed === undefined
    ? Effect.fail(
      new UsageError({
        message: `--${name} must be a date as yyyymmdd, got "${value}"`,
        fix: `e.g. --${name} 20260601`
      })
    )
    : Effect.succeed(parsed)
}

export const account = (args: Spec.ArgsOf<typeof Spec.omsAccount>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const submitDate = Option.isSome(args.date) ? yield* day("date", args.date.value) : yield* today
    const response = yield* withOms(settings, args.env, (c) => c.accountDetails({ submitDate })).pipe(
      withSpinner("reading account")
    )
    if (args.json) return yield* json(Schema.encodeSync(OrderManagement.AccountDetailsResponse)(response))
    const address = response.defaultShippingAddress
    yield* out(fields([
      ["account", response.customerAccountNo],
      ["name", response.accountName],
      ["country", response.country],
      ["active", response.active ? "yes" : "no"],
      ["P.O. required", response.poRequired ? "yes" : "no"],
      [
        "ship to",
        address ? `${address.name}, ${address.addressLine1}, ${address.city} ${address.state} ${address.zipCode}` : ""
      ]
    ]))
  })

export const price = (args: Spec.ArgsOf<typeof Spec.omsPrice>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const response = yield* withOms(settings, args.env, (c) =>
      c.priceAndAvailability({ items: [{ productID: args.productId, brandCode: args.brand, quantity: args.qty }] }))
      .pipe(
        withSpinner("getting price and availability")
      )
    if (args.json) {
      return yield* json(Schema.encodeSync(OrderManagement.PriceAndAvailabilityResponse)(response))
    }
    yield* out(table(
      ["PRODUCT", "BRAND", "DESCRIPTION", "PRICE", "LIST", "CORE", "WAREHOUSE", "AVAIL", "DAYS"],
      response.items.flatMap((item) => {
        const head = [
          item.productID,
          item.brandCode,
          item.productDesc,
          money(item.price),
          money(item.listPrice),
          money(item.corePrice)
        ]
        return item.warehouses.length === 0
          ? [[...head, "", "", ""]]
          : item.warehouses.map((w) => [...head, w.warehouseCode, w.quantityAvailable ?? "", w.deliveryDays ?? ""])
      })
    ))
  })

const formatAddress = (a: OrderManagement.ShippingAddress) =>
  [a.name, a.addressLine1, a.addressLine2, `${a.city} ${a.state} ${a.zipCode}`, a.country].filter((p) =>
    p !== undefined && p !== ""
  ).join(", ")

type AddressInput = NonNullable<Parameters<OrderManagementClient.CustomerClient["createOrder"]>[0]["shippingAddress"]>

/** The drop-ship address file; the client checks the fields before sending. */
const readAddress = (path: string) =>
  Effect.try({
    try: () => {
      const json = JSON.parse(readFileSync(path, "utf8")) as unknown
      if (typeof json !== "object" || json === null || Array.isArray(json)) throw new Error("expected a JSON object")
      return json as AddressInput
    },
    catch: (error) =>
      new UsageError({
        message: `--ship-to ${path}: ${(error as Error).message}`,
        fix:
          "give a JSON file such as {\"name\":\"…\",\"addressLine1\":\"…\",\"city\":\"…\",\"state\":\"TX\",\"zipCode\":\"…\",\"country\":\"US\",\"phoneNumber\":\"…\"}"
      })
  })

const printOrder = (response: OrderManagement.OrderDetailsResponse) =>
  Effect.gen(function*() {
    const h = response.orderHeader
    yield* out(fields([
      ["order", h.orderNo ?? ""],
      ["status", [h.orderStatus, h.orderStatusText].filter((s) => s !== undefined && s !== "").join(" ")],
      ["P.O.", h.customerPO ?? ""],
      ["comment", h.comment ?? ""],
      ["date", h.orderDate ?? ""],
      ["total", money(h.orderTotal)]
    ]))
    if (response.orderLines.length > 0) {
      yield* out("")
      yield* out(table(
        ["LINE", "PRODUCT", "BRAND", "DESCRIPTION", "QTY", "SHIPPED", "PRICE", "WAREHOUSE"],
        response.orderLines.map((l) => [
          l.lineNo ?? "",
          l.productID,
          l.brandCode,
          l.productDesc,
          l.quantity,
          l.quantityShipped ?? "",
          money(l.price),
          l.warehouseCode
        ])
      ))
    }
  })

export const orderCreate = (args: Spec.ArgsOf<typeof Spec.omsOrderCreate>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const shippingAddress = Option.isSome(args.shipTo) ? yield* readAddress(args.shipTo.value) : undefined
    const response = yield* withOms(settings, args.env, (c) =>
      c.createOrder({
        orderLines: [{
          productID: args.product,
          brandCode: args.brand,
          quantity: args.qty,
          ...(Option.isSome(args.warehouse) ? { warehouseCode: args.warehouse.value } : {})
        }],
        ...(Option.isSome(args.po) ? { customerPO: args.po.value } : {}),
        ...(Option.isSome(args.comment) ? { comment: args.comment.value } : {}),
        ...(args.submit ? { submit: true } : {}),
        ...(shippingAddress !== undefined ? { shippingAddress } : {})
      }).pipe(
        Effect.catchTag("DropShipAddressRejected", (rejected) => {
          const recommended = rejected.recommendedAddress
          if (recommended === undefined) return Effect.fail(rejected)
          if (!args.acceptRecommendation) {
            return Effect.zipRight(err(`recommended address: ${formatAddress(recommended)}`), Effect.fail(rejected))
          }
          return Effect.zipRight(
            err(`API0327: using the recommended address ${formatAddress(recommended)}`),
            c.resubmitWithRecommendation(rejected)
          )
        })
      )).pipe(withSpinner("creating order"))
    if (args.json) return yield* json(Schema.encodeSync(OrderManagement.CreateOrderResponse)(response))
    yield* printOrder(response)
  })

export const orderGet = (args: Spec.ArgsOf<typeof Spec.omsOrderGet>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const response = yield* withOms(settings, args.env, (c) => c.orderDetails({ orderNo: args.orderNo })).pipe(
      withSpinner("reading order")
    )
    if (args.json) return yield* json(Schema.encodeSync(OrderManagement.OrderDetailsResponse)(response))
    yield* printOrder(response)
  })

export const invoiceList = (args: Spec.ArgsOf<typeof Spec.omsInvoiceList>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    if (Option.isNone(args.invoice) && (Option.isNone(args.from) || Option.isNone(args.to))) {
      return yield* new UsageError({
        message: "give --invoice, or both --from and --to",
        fix: "e.g. --from 20260501 --to 20260531"
      })
    }
    const settings = yield* loadSettings(args)
    const fromDate = Option.isSome(args.from) ? yield* day("from", args.from.value) : undefined
    const toDate = Option.isSome(args.to) ? yield* day("to", args.to.value) : undefined
    const response = yield* withOms(settings, args.env, (c) =>
      c.invoiceDetails({
        ...(Option.isSome(args.invoice) ? { invoiceNo: args.invoice.value } : {}),
        ...(fromDate !== undefined ? { fromDate } : {}),
        ...(toDate !== undefined ? { toDate } : {})
      })).pipe(withSpinner("reading invoices"))
    if (args.json) return yield* json(Schema.encodeSync(OrderManagement.InvoiceDetailsResponse)(response))
    if (response.invoices.length === 0) return yield* out("no invoices")
    yield* out(table(
      ["INVOICE", "DATE", "ORDER", "TOTAL", "LINES"],
      response.invoices.map((i) => [
        i.invoiceNo,
        OrderManagement.formatYyyymmdd(i.invoiceDate),
        i.orderNo,
        money(i.invoiceTotal),
        i.lines.length
      ])
    ))
  })

export const product = (args: Spec.ArgsOf<typeof Spec.omsProduct>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const request = Option.isSome(args.productId) && Option.isSome(args.brand)
      ? Effect.succeed({ productID: args.productId.value, brandCode: args.brand.value } as const)
      : Option.isSome(args.search) && Option.isNone(args.productId)
      ? Effect.succeed({ searchText: args.search.value } as const)
      : Effect.fail(
        new UsageError({
          message: "give a productID with --brand, or --search",
          fix: "e.g. shoplink oms product 51515 --brand WIX"
        })
      )
    const input = yield* request
    const response = yield* withOms(
      settings,
      args.env,
      (c) => "productID" in input ? c.productDetails(input) : c.searchProducts(input)
    ).pipe(withSpinner("reading product details"))
    if (args.json) return yield* json(Schema.encodeSync(OrderManagement.ProductDetailsResponse)(response))
    if (response.details.length === 0) return yield* out("no products")
    yield* out(
      table(
        ["BRAND", "CATEGORY", "DESCRIPTION"],
        response.details.map((d) => [d.brand, d.category, plainText(d.description)])
      )
    )
  })

export const assets = (args: Spec.ArgsOf<typeof Spec.omsAssets>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const response = yield* withOms(
      settings,
      args.env,
      (c) => c.productDigitalAsset({ productID: args.productId, brandCode: args.brand })
    ).pipe(
      withSpinner("reading digital assets")
    )
    if (args.json) return yield* json(Schema.encodeSync(OrderManagement.DigitalAssetsResponse)(response))
    if (response.assets.length === 0) return yield* out("no assets")
    yield* out(table(["ASSET", "TYPE", "LANGUAGE"], response.assets.map((a) => [a.assetName, a.assetType, a.language])))
  })
