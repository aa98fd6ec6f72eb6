import { expect, layer } from "@effect/vitest"
import { SandboxServer } from "@shoplink/sandbox"
import { Effect } from "effect"
import { parseJson, runCli, sandboxEnv, startCli } from "./support/cli.js"

const jsonLines = (stdout: string) =>
  stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => parseJson<Record<string, any>>(l))

// Live clock: webhooks and sessions cross process boundaries on the real clock.
layer(SandboxServer.layer(), { excludeTestServices: true })("shoplink webhook listen", (it) => {
  it.scoped("prints the quote and order webhooks of the ordering pages, then stops on SIGINT with exit 0", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const listener = yield* startCli(["webhook", "listen", "--port", "0", "--json"], {})
      const banner = jsonLines(yield* listener.waitForStdout((s) => s.includes("\"listening\"")))[0]!
      expect(banner.order).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/order$/)

      // A session whose webhooks point at the listener; the test plays the person on the page.
      const created = yield* runCli(["punchout", "session", "create", "--json", "--show-token"], {
        ...sandboxEnv(sandbox),
        SHOPLINK_WEBHOOK_ORDER_URL: banner.order,
        SHOPLINK_WEBHOOK_QUOTE_URL: banner.quote
      })
      expect(created.code).toBe(0)
      const token = parseJson<{ token: string }>(created.stdout).token
      const driver = sandbox.admin.driver
      yield* driver.search(token, { searchTerm: "oil filter", baseVehicleID: "5678" })
      const { orderID } = yield* driver.addToCart(token, { productID: "51515", brandID: "WIX", quantity: 3 })
      yield* driver.press(token, "export")
      const quote = jsonLines(yield* listener.waitForStdout((s) => s.includes("\"kind\":\"quote\"")))
        .find((l) => l.kind === "quote")!
      expect(quote.payload.quotes).toEqual([
        expect.objectContaining({ productID: "51515", brandID: "WIX", quantityReq: 3 })
      ])

      yield* driver.press(token, "exportAndSubmit")
      const order = jsonLines(yield* listener.waitForStdout((s) => s.includes("\"kind\":\"order\"")))
        .find((l) => l.kind === "order")!
      expect(order.payload.order).toMatchObject({ orderID, status: 3 })
      expect(order.payload.order.orderLines[0]).toMatchObject({ productID: "51515", quantity: 3 })

      // Every delivery was answered 200.
      const deliveries = yield* sandbox.admin.awaitDeliveries(2)
      expect(deliveries.map((d) => [d.event, d.url, d.status])).toEqual([
        ["quote", banner.quote, 200],
        ["order", banner.order, 200]
      ])
      expect(yield* listener.stop("SIGINT")).toBe(0)
    }))

  it.scoped("sandbox start prints settings that work for the other commands", () =>
    Effect.gen(function*() {
      const started = yield* startCli(["sandbox", "start", "--port", "0", "--json"], {})
      const stdout = yield* started.waitForStdout((s) =>
        s.trimEnd().endsWith("}") && s.includes("SHOPLINK_CUSTOMER_API_TOKEN")
      )
      const info = parseJson<{ url: string; env: Record<string, string> }>(stdout)
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const quotes = yield* runCli(["punchout", "quotes", "51515", "--brand", "WIX", "--json"], info.env)
      expect(quotes.code).toBe(0)
      expect(parseJson<{ quotes: ReadonlyArray<unknown> }>(quotes.stdout).quotes).toHaveLength(1)
      expect(yield* started.stop("SIGTERM")).toBe(0)
    }))
})
