// The fake-server helper over real loopback HTTP: routes with parameters, the before hook
// (answering instead, or giving the routes a context), the request log, paging, and a handler
// that throws answered 500.
import { describe, expect, it } from "@effect/vitest"
import { FakeServer } from "../src/index.js"

describe("FakeServer", () => {
  it("routes by method and path, runs before first, logs what was answered", async () => {
    const server = await FakeServer.start({
      before: (
        request
      ) => (request.headers.authorization === "Bearer k" ? { context: "k" } : { status: 401, body: { message: "no" } }),
      routes: [
        {
          route: "GET /v1/orders/:id",
          handle: (request, key) => ({ status: 200, body: { id: request.params.id, key } })
        },
        {
          route: "POST /v1/orders/:id/lines",
          handle: (request) => ({
            status: 201,
            body: JSON.parse(request.body),
            headers: { "x-id": request.params.id! }
          })
        },
        {
          route: "GET /v1/boom",
          handle: () => {
            throw new Error("broken handler")
          }
        }
      ],
      record: (request, status, context) => ({
        method: request.method,
        path: request.path,
        query: request.query,
        status,
        context
      })
    })
    try {
      const auth = { authorization: "Bearer k" }
      const get = await fetch(`${server.url}/v1/orders/ro%201?x=1`, { headers: auth })
      expect(await get.json()).toEqual({ id: "ro 1", key: "k" })
      const post = await fetch(`${server.url}/v1/orders/7/lines`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ qty: 2 })
      })
      expect([post.status, post.headers.get("x-id"), await post.json()]).toEqual([201, "7", { qty: 2 }])
      expect((await fetch(`${server.url}/v1/orders/7`)).status).toBe(401)
      expect((await fetch(`${server.url}/v1/orders/7`, { method: "DELETE", headers: auth })).status).toBe(404)
      const boom = await fetch(`${server.url}/v1/boom`, { headers: auth })
      expect([boom.status, await boom.json()]).toEqual([500, { message: "broken handler" }])
      expect(server.requests()).toEqual([
        { method: "GET", path: "/v1/orders/ro%201", query: { x: "1" }, status: 200, context: "k" },
        { method: "POST", path: "/v1/orders/7/lines", query: {}, status: 201, context: "k" },
        { method: "GET", path: "/v1/orders/7", query: {}, status: 401, context: undefined },
        { method: "DELETE", path: "/v1/orders/7", query: {}, status: 404, context: "k" },
        { method: "GET", path: "/v1/boom", query: {}, status: 500, context: undefined }
      ])
    } finally {
      await server.close()
    }
  })

  it("pages by offset and size", () => {
    expect(FakeServer.page([1, 2, 3, 4, 5], { offset: 2, size: 2 })).toEqual({ items: [3, 4], total: 5, hasMore: true })
    expect(FakeServer.page([1, 2, 3], { offset: 2, size: 10 })).toEqual({ items: [3], total: 3, hasMore: false })
    expect(FakeServer.page([1, 2, 3], { offset: 9, size: 10 })).toEqual({ items: [], total: 3, hasMore: false })
  })
})
