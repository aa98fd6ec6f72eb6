// `shoplink webhook listen`: a local receiver that prints the quote and order webhooks the ordering
// pages post, decoded with @shoplink/punchout's decoders, and answers 200 at once.
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Punchout } from "@shoplink/protocol"
import { Webhooks } from "@shoplink/punchout"
import { DateTime, Effect, Either, Schema } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { LocalFailure } from "./errors.js"
import { help } from "./help.js"
import { err, fields, money, out, table } from "./output.js"

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
const decode = (path: string, body: Uint8Array, contentType: string | undefined): Either.Either<Decoded, Webhooks.WebhookDecodeError> => {
  const options = { contentType }
  const asOrder = () => Either.map(Webhooks.decodeOrderWebhook(body, options), (payload) => ({ kind: "order" as const, payload }))
  const asQuote = () => Either.map(Webhooks.decodeQuoteWebhook(body, options), (payload) => ({ kind: "quote" as const, payload }))
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
          `${asJson ? JSON.stringify({ error: { path, reason: e.reason, field: e.field, message: e.message } }) : `rejected POST ${path}: ${e.message}`}\n`
        )
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: e.reason }))
      }
    },
    () => res.writeHead(400).end()
  )
}

export const webhookListenCommand = Command.make(
  "listen",
  {
    json: Options.boolean("json").pipe(Options.withDescription("print one JSON object per webhook (NDJSON)")),
    port: Options.integer("port").pipe(Options.withDescription("port (0 picks a free one)"), Options.withDefault(8787)),
    host: Options.text("host").pipe(Options.withDescription("interface"), Options.withDefault("127.0.0.1"))
  },
  (args) =>
    Effect.gen(function*() {
      const server = createServer(handler(args.json))
      const port = yield* Effect.acquireRelease(
        Effect.async<number, LocalFailure>((resume) => {
          server.once("error", (error) =>
            resume(Effect.fail(new LocalFailure({ message: `cannot listen on ${args.host}:${args.port}: ${error.message}`, fix: "pick another --port" }))))
          server.listen(args.port, args.host, () => {
            const address = server.address()
            resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : args.port))
          })
        }),
        () => Effect.async<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
      )
      const base = `http://${args.host}:${port}`
      const banner = { listening: base, order: `${base}/order`, quote: `${base}/quote` }
      if (args.json) yield* out(JSON.stringify(banner))
      else {
        yield* out(`Listening for webhooks on ${base}  (Ctrl-C stops)`)
        yield* out(`  SHOPLINK_WEBHOOK_ORDER_URL=${banner.order}`)
        yield* out(`  SHOPLINK_WEBHOOK_QUOTE_URL=${banner.quote}`)
        yield* out("")
      }
      yield* err(`waiting for POSTs on ${base}`)
      return yield* Effect.never
    }).pipe(Effect.scoped)
).pipe(Command.withDescription(help(
  "Receive and print the quote and order webhooks the ordering pages post. Point new sessions at it with SHOPLINK_WEBHOOK_ORDER_URL / SHOPLINK_WEBHOOK_QUOTE_URL (the defaults match --port 8787).",
  ["shoplink webhook listen", "shoplink webhook listen --port 9000 --json"],
  ["POST …/order is decoded as an order webhook, …/quote as a quote webhook; other paths try both. Decoded webhooks answer 200, others 400."]
)))

export const webhookCommand = Command.make("webhook").pipe(
  Command.withDescription(help("Webhooks from the ordering pages.", ["shoplink webhook listen --port 8787"])),
  Command.withSubcommands([webhookListenCommand])
)
