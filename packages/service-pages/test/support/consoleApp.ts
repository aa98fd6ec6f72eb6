// A service like the samples, on loopback: a runtime on a SQLite file (no worker: tests drain),
// ServicePages on the runtime's session store, and the delivery console; plus a cookie-keeping
// client. Start it twice on one file to restart the service.
import { HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { UndiciHttpClient } from "@shoplink/http-node"
import { ConnectorRuntime } from "@shoplink/connector-runtime"
import { DeliveryConsole, ServicePages, SessionStore, SignIn } from "@shoplink/service-pages"
import { Effect, Layer, Redacted } from "effect"
import { createServer } from "node:http"
import { makeMemorySms } from "../../../connector-runtime/test/support/memorySms.js"

export const PASSWORD = "correct horse battery"
export const secretKeys = Redacted.make("k1:" + Buffer.alloc(32, 9).toString("base64"))
const cheap = { N: 1024, r: 8, p: 1 }

export const quoteBody = (productID = "51515") =>
  JSON.stringify({
    referenceID: "ro_a",
    quotes: [{
      acaPartTerminologyID: 5340,
      productID,
      brandID: "WIX",
      categoryID: "FLT",
      productDesc: "Oil Filter <b>",
      orderByTime: 1763769600000,
      dispatchTime: 1763773200000,
      quantityAvail: 12,
      quantityReq: 2,
      price: 6.49,
      listPrice: 9.99,
      corePrice: 0,
      weight: 0.8,
      quality: "",
      makeId: 0,
      subtotal: 12.98
    }]
  })

const users = Effect.promise(async () => [
  {
    email: "olga@ops.example",
    name: "Olga",
    shopId: "shop_a",
    role: "operator" as const,
    passwordHash: await SignIn.hashPassword(PASSWORD, { cost: cheap })
  },
  {
    email: "ava@example.com",
    name: "Ava",
    shopId: "shop_a",
    passwordHash: await SignIn.hashPassword(PASSWORD, { cost: cheap })
  }
])

export const startConsoleApp = (database: string, options: { readonly sessions?: SignIn.SessionOptions } = {}) =>
  Effect.gen(function*() {
    const sms = makeMemorySms([{ id: "ro_a", number: "1042", vehicle: { vin: "1FTEW1E56KFA12345" } }])
    const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
    const url = `http://127.0.0.1:${server.address._tag === "TcpAddress" ? server.address.port : 0}`
    const runtime = yield* ConnectorRuntime.make(sms.layer, {
      publicBaseUrl: url,
      smsVendorName: "Shoplink Tests",
      punchout: { baseUrl: "http://127.0.0.1:9", vendorApiKey: Redacted.make("vendor-key") },
      storage: { sqlite: database },
      secretKeys,
      worker: false,
      retention: false
    }).pipe(Effect.provide(yield* Layer.build(UndiciHttpClient.layer)))
    const pages = yield* ServicePages.make({
      users: yield* users,
      shopName: (shopId) => Effect.succeed(shopId === "shop_a" ? "Main Street Auto" : undefined),
      appBaseUrl: url,
      smsName: "Acme SMS",
      passwordCost: cheap,
      sessionStore: SessionStore.forDatabase(runtime.database, options.sessions)
    })
    const app = HttpRouter.concat(pages.router, DeliveryConsole.router(runtime, pages, { pageSize: 50 }))
    yield* runtime.serve(server, app.pipe(HttpRouter.toHttpApp, Effect.flatten))
    return { url, runtime, pages, sms }
  })

/** A browser's cookie jar, its Origin on POSTs and the last page's CSRF token. */
export const client = (url: string) => {
  const cookies = new Map<string, string>()
  let csrf = ""
  const send = (path: string, init: RequestInit = {}) =>
    Effect.promise(async () => {
      const headers = new Headers(init.headers)
      if (cookies.size > 0) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "))
      const response = await fetch(`${url}${path}`, { ...init, headers, redirect: "manual" })
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(";")
        const [name, value] = [pair!.slice(0, pair!.indexOf("=")), pair!.slice(pair!.indexOf("=") + 1)]
        if (value === "") cookies.delete(name)
        else cookies.set(name, value)
      }
      const text = await response.text()
      csrf = /name="csrf" value="([^"]*)"/.exec(text)?.[1] ?? csrf
      const answered: Record<string, string> = Object.fromEntries(response.headers)
      return { status: response.status, location: response.headers.get("location"), headers: answered, text }
    })
  const post = (path: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    send(path, {
      method: "POST",
      headers: { origin: url, "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ csrf, ...fields })
    })
  const signIn = (email: string) =>
    Effect.gen(function*() {
      yield* send("/sign-in")
      return yield* post("/sign-in", { email, password: PASSWORD, next: "/console" })
    })
  return { cookies, send, post, signIn, setUrl: (next: string) => void (url = next) }
}
