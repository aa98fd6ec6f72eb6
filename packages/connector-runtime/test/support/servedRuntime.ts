// A runtime served on loopback (port 0) against a fresh sandbox, on memory, SQLite or PostgreSQL (a
// database of its own, dropped with the test's scope), with one shop onboarded (shop_a, the
// sandbox's US customer): what the runtime's end-to-end tests share.
import { HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import type { ShopSystem } from "@shoplink/connector"
import { ConnectorRuntime } from "@shoplink/connector-runtime"
import { UndiciHttpClient } from "@shoplink/http-node"
import { startSandbox } from "@shoplink/sandbox"
import { Context, Effect, Layer, Redacted } from "effect"
import { createServer } from "node:http"
import { postgres, scratchDatabase, TestDatabaseUrl } from "../fixtures.js"

export type TestStorage = "memory" | "sqlite" | "postgres"

export const servedRuntime = (
  storage: TestStorage,
  smsLayer: Layer.Layer<ShopSystem.ShopSystem>,
  options: Partial<ConnectorRuntime.Options> = {}
) =>
  Effect.gen(function*() {
    const pgUrl = storage === "postgres" ? Context.get(yield* Layer.build(postgres()), TestDatabaseUrl) : undefined
    const sandbox = yield* startSandbox()
    const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    const publicBaseUrl = `http://127.0.0.1:${port}`
    const runtime = yield* ConnectorRuntime.make(smsLayer, {
      publicBaseUrl,
      smsVendorName: "Shoplink Tests",
      punchout: { baseUrl: sandbox.url, vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey) },
      storage: pgUrl !== undefined
        ? { postgres: Redacted.make(pgUrl) }
        : storage === "memory"
        ? "memory"
        : { sqlite: scratchDatabase() },
      secretKeys: Redacted.make("k1:" + Buffer.alloc(32, 9).toString("base64")),
      worker: false,
      ...options
    }).pipe(Effect.provide(yield* Layer.build(UndiciHttpClient.layer)))
    yield* runtime.serve(
      server,
      HttpRouter.concat(runtime.publicRouter, runtime.apiRouter).pipe(HttpRouter.toHttpApp, Effect.flatten)
    )
    const { us } = sandbox.credentials.customers
    yield* runtime.shops.add({
      id: "shop_a",
      name: "Main Street Auto",
      distributor: {
        accountNo: us.accountNo,
        username: us.username,
        country: "US",
        apiToken: Redacted.make(us.apiToken)
      },
      sms: { apiKey: Redacted.make("sms-key-of-shop-a-0001") }
    })
    return { sandbox, runtime, publicBaseUrl }
  })
