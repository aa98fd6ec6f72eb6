// The runtime half of the consumer smoke test, copied into a fresh npm project outside the
// workspace and run there with plain node: everything it imports comes from the installed tarballs.
// Starts the sandbox through the installed `shoplink-sandbox` bin, creates a punchout session with
// the sandbox credentials, gets quotes, decodes a quote webhook body, and stops the sandbox.
import { FetchHttpClient } from "@effect/platform"
import { Punchout } from "@shoplink/protocol"
import { PunchoutClient, Webhooks } from "@shoplink/punchout"
import { SANDBOX_CREDENTIALS } from "@shoplink/sandbox"
import { Effect, Either, Redacted, Schema } from "effect"
import { spawn } from "node:child_process"
import { join } from "node:path"

const STARTUP_TIMEOUT_MS = 30_000

/** Spawns the installed bin on a free port and resolves with its URL, read from its banner. */
const startSandboxBin = () =>
  new Promise((resolve, reject) => {
    const bin = join(process.cwd(), "node_modules", ".bin", "shoplink-sandbox")
    const child = spawn(bin, ["--port", "0"], { stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    const timer = setTimeout(() => {
      child.kill("SIGTERM")
      reject(new Error(`shoplink-sandbox printed no URL within ${STARTUP_TIMEOUT_MS} ms:\n${output}`))
    }, STARTUP_TIMEOUT_MS)
    const onData = (chunk) => {
      output += chunk
      const match = /listening on (http:\/\/[^\s]+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve({ url: match[1], child })
      }
    }
    child.stdout.setEncoding("utf8").on("data", onData)
    child.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk))
    child.on("error", (error) => {
      clearTimeout(timer)
      reject(new Error(`could not run ${bin}: ${error.message}`))
    })
    child.on("exit", (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`shoplink-sandbox exited early (code ${code}, signal ${signal}):\n${output}`))
    })
  })

const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.removeAllListeners("exit")
    child.on("exit", () => resolve())
    child.kill("SIGTERM")
  })

const { url, child } = await startSandboxBin()
console.log(`sandbox bin started at ${url}`)
try {
  const us = SANDBOX_CREDENTIALS.customers.us
  const customer = {
    accountNo: us.accountNo,
    username: us.username,
    country: "US",
    apiToken: Redacted.make(us.apiToken)
  }
  const program = Effect.gen(function*() {
    const client = yield* PunchoutClient.PunchoutClient
    const session = yield* client.createSession(customer, {
      smsVendorName: "Consumer Smoke",
      referenceID: "SMOKE-1",
      webhooks: { order: "https://sms.example/hooks/order", quote: "https://sms.example/hooks/quote" }
    })
    const { quotes } = yield* client.getProductQuotes(session, { productID: "51515", brandID: "WIX", quantity: 1 })
    return quotes
  })
  const quotes = await Effect.runPromise(program.pipe(
    Effect.provide(
      PunchoutClient.layer({ baseUrl: url, vendorApiKey: Redacted.make(SANDBOX_CREDENTIALS.vendorApiKey) })
    ),
    Effect.provide(FetchHttpClient.layer)
  ))
  if (quotes.length === 0) throw new Error("GetProductQuotes answered no quotes for WIX 51515")
  for (const quote of quotes) {
    console.log(`quote: ${quote.brandID} ${quote.productID} ${quote.price} (${quote.quantityAvail} available)`)
  }

  // The body the service would post to the quote webhook, made from the quotes just received.
  const encoded = Schema.encodeSync(Schema.Array(Punchout.QuoteLine))(quotes)
  const body = new TextEncoder().encode(JSON.stringify({ referenceID: "SMOKE-1", quotes: encoded }))
  const decoded = Webhooks.decodeQuoteWebhook(body)
  if (Either.isLeft(decoded)) throw new Error(`decodeQuoteWebhook failed: ${decoded.left.message}`)
  if (decoded.right.quotes.length !== quotes.length || decoded.right.referenceID !== "SMOKE-1") {
    throw new Error("decodeQuoteWebhook returned a different webhook than the one sent")
  }
  console.log(`quote webhook decoded: ${decoded.right.quotes.length} quote(s) for ${decoded.right.referenceID}`)
} finally {
  await stop(child)
  console.log("sandbox bin stopped")
}
