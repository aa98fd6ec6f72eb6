// Shared helpers for the sandbox tests: plain fetch against the running server.
import { Effect } from "effect"
import { SANDBOX_CREDENTIALS, type RunningSandbox } from "../src/index.js"

export interface Reply {
  readonly status: number
  readonly body: any
  readonly text: string
  readonly headers: Headers
}

export const call = (url: string, init: RequestInit = {}): Effect.Effect<Reply> =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual", ...init })
    const text = await response.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
    return { status: response.status, body, text, headers: response.headers }
  })

export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  call(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })

export const createBody = (overrides: Record<string, unknown> = {}) => ({
  apiKey: SANDBOX_CREDENTIALS.vendorApiKey,
  apiToken: SANDBOX_CREDENTIALS.customers.us.apiToken,
  accountNo: SANDBOX_CREDENTIALS.customers.us.accountNo,
  username: SANDBOX_CREDENTIALS.customers.us.username,
  country: "US",
  smsVendorName: "Acme SMS",
  referenceID: "RO-1042",
  webhooks: { order: "http://127.0.0.1:9/order", quote: "http://127.0.0.1:9/quote" },
  ...overrides
})

/** Creates a session and returns a function that builds command URLs. */
export const session = (sandbox: RunningSandbox, overrides: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const reply = yield* postJson(sandbox.punchoutCreateUrl, createBody(overrides))
    if (reply.status !== 200) throw new Error(`create failed: ${reply.text}`)
    const template: string = reply.body.punchout.url
    const token: string = reply.body.punchout.token
    return {
      token,
      template,
      command: (name: string, extra = "") => template.replace("{command}", name) + extra,
      create: reply
    }
  })

export const omsHeaders = (apiKey: string = SANDBOX_CREDENTIALS.oms.testApiKey) => ({
  APIKey: apiKey,
  accept: "application/json"
})
