// The OpenAPI documents list every route the sandbox serves, and nothing it does not serve.
import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { startSandbox } from "../src/index.js"
import { ServedApi } from "../src/internal/http.js"
import { call } from "./helpers.js"

const METHODS = ["get", "post", "put", "patch", "delete"] as const

/** `METHOD /path/{param}` of every route the sandbox mounts, read from what it mounts. */
const mounted = (): ReadonlyArray<string> => {
  const routes: Array<string> = []
  HttpApi.reflect(ServedApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => routes.push(`${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, "{$1}")}`)
  })
  return routes
}

const documented = (docs: ReadonlyArray<any>): ReadonlyArray<string> =>
  docs.flatMap((doc) =>
    Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      METHODS.filter((m) => m in ops).map((m) => `${m.toUpperCase()} ${path}`)
    )
  )

const isUnknownRoute = (reply: { status: number; body: any }) =>
  reply.status === 404 && reply.body?.status?.message?.ID === "API0288"

const PARAMS: Record<string, string> = { environment: "US_QUA", orderID: "1", token: "no-such-token", action: "add" }

describe("routes", () => {
  it.scoped("the OpenAPI documents list exactly the routes the sandbox mounts", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const docs = yield* Effect.forEach(
        [sandbox.openApi.punchout, sandbox.openApi.orderManagement, sandbox.openApi.sandbox],
        (url) => Effect.map(call(url), (r) => r.body)
      )
      const listed = documented(docs)
      expect(new Set(listed).size).toBe(listed.length)
      expect([...listed].sort()).toEqual([...mounted()].sort())
      // 7 Punchout routes and 12 Order Management routes, none written twice.
      expect(documented([docs[0]])).toHaveLength(7)
      expect(documented([docs[1]])).toHaveLength(12)
    }))

  it.scoped("every documented operation is served: none answers the unknown-route API0288 404", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      for (const route of mounted()) {
        const [method, template] = route.split(" ") as [string, string]
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => PARAMS[name] ?? "x")
        const reply = yield* call(`${sandbox.url}${path}`, {
          method,
          ...(method === "GET" || method === "DELETE"
            ? {}
            : { headers: { "content-type": "application/json" }, body: "{}" })
        })
        expect(isUnknownRoute(reply), `${route} answered ${reply.status} ${reply.text.slice(0, 120)}`).toBe(false)
      }
    }))

  it.scoped("what is not documented is not served: unknown paths answer API0288 with 404, a wrong method never succeeds", () =>
    Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      for (
        const path of [
          "/nothing",
          "/punchout/v1/Unknown",
          "/punchout/v1/a/b/c",
          "/web/services/US_QUA",
          "/openapi/other.json",
          "/docs/x"
        ]
      ) {
        expect(isUnknownRoute(yield* call(`${sandbox.url}${path}`)), path).toBe(true)
      }
      const listed = new Set(mounted())
      for (const route of listed) {
        const [method, template] = route.split(" ") as [string, string]
        const other = method === "GET" ? "POST" : "GET"
        if (listed.has(`${other} ${template}`)) continue
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => PARAMS[name] ?? "x")
        const reply = yield* call(`${sandbox.url}${path}`, { method: other })
        expect(reply.status >= 400, `${other} ${template} answered ${reply.status}`).toBe(true)
      }
    }))
})
