// `shoplink webhook listen`: a local receiver that prints the quote and order webhooks the ordering
// pages post, decoded with @shoplink/punchout's decoders, and answers 200 at once.
import { Settings } from "@shoplink/connector-runtime"
import { Punchout } from "@shoplink/protocol"
import { Webhooks } from "@shoplink/punchout"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { LocalFailure } from "./errors.js"
import { err, fields, money, out, table } from "./output.js"
import { SETTINGS } from "./settingsTable.js"
import type * as Spec from "./spec.js"

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })

type Decoded =
  | { readonly kind: "order"; readonly payload: Punchout.OrderWebhook }
  | { readonly kind: "quote"; readonly payload: Punchout.QuoteWebhook }

/** The path picks the decoder (`…/order`, `…/quote`); any other path tries order, then quote. */
const decode = (
  path: string,
  body: Uint8Array,
  contentType: string | undefined
): Either.Either<Decoded, Webhooks.WebhookDecodeError> => {
  const options = { contentType }
  const asOrder = () =>
    Either.map(Webhooks.decodeOrderWebhook(body, options), (payload) => ({ kind: "order" as const, payload }))
  const asQuote = () =>
    Either.map(Webhooks.decodeQuoteWebhook(body, options), (payload) => ({ kind: "quote" as const, payload }))
  if (/\/order\/?$/.test(path)) return asOrder()
  if (/\/quote\/?$/.test(path)) return asQuote()
  return Either.orElse(asOrder(), () => asQuote())
}

const human = (decoded: Decoded): string => {
  const at = DateTime.formatIso(DateTime.unsafeNow())
  if (decoded.kind === "quote") {
    const q = decoded.payload
    return [
      `${at}  quote webhook  referenceID=${q.referenceID || "-"}  ${q.quotes.length} line(s)`,
      table(
        ["PRODUCT", "BRAND", "DESCRIPTION", "QTY", "PRICE", "AVAIL"],
        q.quotes.map((l) => [l.productID, l.brandID, l.productDesc, l.quantityReq, money(l.price), l.quantityAvail])
      ),
      ""
    ].join("\n")
  }
  const o = decoded.payload.order
  return [
    `${at}  order webhook  referenceID=${decoded.payload.referenceID || "-"}`,
    fields([
      ["order", o.orderID],
      ["status", `${o.status}${o.statusDescription ? ` (${o.statusDescription})` : ""}`],
      ["comment", o.comment]
    ]),
    table(
      ["PRODUCT", "BRAND", "DESCRIPTION", "QTY", "PRICE"],
      o.orderLines.map((l) => [l.productID, l.brandID, l.productDesc, l.quantity, money(l.price)])
    ),
    ""
  ].join("\n")
}

const machine = (decoded: Decoded): string =>
  JSON.stringify(
    decoded.kind === "order"
      ? { kind: "order", payload: Schema.encodeSync(Punchout.OrderWebhook)(decoded.payload) }
      : { kind: "quote", payload: Schema.encodeSync(Punchout.QuoteWebhook)(decoded.payload) }
  )

const handler = (asJson: boolean) => (req: IncomingMessage, res: ServerResponse) => {
  const path = new URL(req.url ?? "/", "http://localhost").pathname
  if (req.method !== "POST") {
    res.writeHead(405, { allow: "POST", "content-type": "text/plain" }).end("POST webhooks here\n")
    return
  }
  readBody(req).then(
    (body) => {
      const decoded = decode(path, body, req.headers["content-type"])
      if (Either.isRight(decoded)) {
        process.stdout.write(`${asJson ? machine(decoded.right) : human(decoded.right)}\n`)
        res.writeHead(200, { "content-type": "application/json" }).end("{\"received\":true}")
      } else {
        const e = decoded.left
        process.stderr.write(
          `${
            asJson
              ? JSON.stringify({ error: { path, reason: e.reason, field: e.field, message: e.message } })
              : `rejected POST ${path}: ${e.message}`
          }\n`
        )
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: e.reason }))
      }
    },
    () => res.writeHead(400).end()
  )
}

export const listen = (args: Spec.ArgsOf<typeof Spec.webhookListen>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    // Header, request and keep-alive timeouts (SHOPLINK_HEADERS_TIMEOUT, SHOPLINK_REQUEST_TIMEOUT,
    // SHOPLINK_KEEP_ALIVE_TIMEOUT; default 10 s, 30 s, 5 s): a slow client gets a 408.
    const server = createServer(yield* Settings.serverTimeouts, handler(args.json))
    const port = yield* Effect.acquireRelease(
      Effect.async<number, LocalFailure>((resume) => {
        server.once(
          "error",
          (error) =>
            resume(
              Effect.fail(
                new LocalFailure({
                  message: `cannot listen on ${args.host}:${args.port}: ${error.message}`,
                  fix: "pick another --port"
                })
              )
            )
        )
        server.listen(args.port, args.host, () => {
          const address = server.address()
          resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : args.port))
        })
      }),
      () =>
        Effect.async<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    const base = `http://${args.host}:${port}`
    const banner = { listening: base, order: `${base}/order`, quote: `${base}/quote` }
    if (args.json) yield* out(JSON.stringify(banner))
    else {
      yield* out(`Listening for webhooks on ${base}  (Ctrl-C stops)`)
      yield* out(`  ${SETTINGS.webhookOrderUrl.env}=${banner.order}`)
      yield* out(`  ${SETTINGS.webhookQuoteUrl.env}=${banner.quote}`)
      yield* out("")
    }
    yield* err(`waiting for POSTs on ${base}`)
    return yield* Effect.never
  }).pipe(Effect.scoped)
