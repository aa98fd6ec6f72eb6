// Metrics without false alarms: an idle runtime (worker running, nothing to do) scraped twice a few
// seconds apart shows no counter rising — in particular Effect's own `effect_fiber_failures`, which
// counts every interrupted fiber (a race's loser) and would trip any alert on it.
import { HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@shoplink/http-node"
import { ConnectorRuntime, Observability } from "@shoplink/connector-runtime"
import { Effect, Layer, Redacted } from "effect"
import { createServer } from "node:http"
import { scratchDatabase } from "./fixtures.js"
import { makeMemorySms } from "./support/memorySms.js"

const secretKeys = Redacted.make("k1:" + Buffer.alloc(32, 5).toString("base64"))

/** Every counter series of a Prometheus text (`name{labels}` → value). */
const counters = (text: string): Map<string, number> => {
  const types = new Map<string, string>()
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(match[1]!, match[2]!)
  const series = new Map<string, number>()
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/.exec(line)
    if (match !== null && types.get(match[1]!) === "counter") {
      series.set(`${match[1]}${match[2] ?? ""}`, Number(match[3]))
    }
  }
  return series
}

describe("Idle metrics", () => {
  it.scopedLive("an idle runtime's counters stay put between two scrapes of /metrics seconds apart (effect_fiber_failures included)", () =>
    Effect.gen(function*() {
      const sms = makeMemorySms([{ id: "ro_a", number: "1042", vehicle: {} }])
      const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
      const base = `http://127.0.0.1:${server.address._tag === "TcpAddress" ? server.address.port : 0}`
      const runtime = yield* ConnectorRuntime.make(sms.layer, {
        publicBaseUrl: base,
        smsVendorName: "Shoplink Tests",
        punchout: { baseUrl: "http://127.0.0.1:9", vendorApiKey: Redacted.make("unused") },
        storage: { sqlite: scratchDatabase() },
        secretKeys,
        // The samples' polling interval: the idle loop runs 10 times a second.
        worker: { pollInterval: "100 millis" }
      }).pipe(Effect.provide(yield* Layer.build(UndiciHttpClient.layer)))
      yield* runtime.serve(
        server,
        HttpRouter.concatAll(runtime.healthRouter, runtime.adminRouter).pipe(HttpRouter.toHttpApp, Effect.flatten)
      )
      const key = Redacted.value((yield* runtime.apiKeys.create("prometheus")).key)
      const scrape = Effect.promise(async () => {
        const response = await fetch(`${base}/metrics`, {
          headers: { authorization: `Bearer ${key}`, connection: "close" }
        })
        expect(response.status).toBe(200)
        return counters(await response.text())
      })
      // Settled: start-up is done and the worker has gone round its idle loop for a while.
      yield* Effect.sleep("1 second")
      // The registry itself, twice, 3 seconds apart (read in this fiber: no request of ours counted).
      const first = yield* scrape
      yield* Effect.sleep("200 millis")
      const before = counters(yield* Observability.prometheus)
      yield* Effect.sleep("3 seconds")
      const after = counters(yield* Observability.prometheus)
      const second = yield* scrape
      expect([...after].filter(([name, value]) => value > (before.get(name) ?? 0))).toEqual([])
      // Over HTTP, as Prometheus scrapes it: the scrapes' own fibers start and succeed, none fails.
      expect(second.get("effect_fiber_failures") ?? 0).toBe(first.get("effect_fiber_failures") ?? 0)
      for (const [name, value] of second) {
        if (name.startsWith("shoplink_")) expect(value, name).toBe(first.get(name) ?? 0)
      }
    }))
})
