// Operating the runtime: JSON log lines, OTLP export of spans and metrics to a local collector,
// the Prometheus text at /metrics behind a vendor API key — and no secret in any of them across
// launch → export → apply against the sandbox.
import { HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@shoplink/http-node"
import { ConnectorRuntime, Logging, Observability, Prometheus, Settings, Telemetry } from "@shoplink/connector-runtime"
import { SANDBOX_FIXTURES, startSandbox } from "@shoplink/sandbox"
import { Config, ConfigProvider, Effect, Either, Layer, Metric, MetricBoundaries, Redacted } from "effect"
import { createServer } from "node:http"
import { vi } from "vitest"
import { scratchDatabase } from "./fixtures.js"
import { makeMemorySms } from "./support/memorySms.js"

const [ford] = SANDBOX_FIXTURES.vehicles
const secretKeys = Redacted.make("k1:" + Buffer.alloc(32, 9).toString("base64"))
const linkSecret = Redacted.make("launch-link-secret-for-observability")
const SMS_KEY = "sms-key-of-shop-a-4711"

/** A bare OTLP/HTTP collector: records every POST (path, content type, raw body). */
const startCollector = Effect.gen(function*() {
  const requests: Array<{ readonly path: string; readonly contentType: string; readonly body: Buffer }> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      requests.push({
        path: req.url ?? "",
        contentType: String(req.headers["content-type"] ?? ""),
        body: Buffer.concat(chunks)
      })
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  yield* Effect.acquireRelease(
    Effect.async<void>((resume) => void server.listen(0, "127.0.0.1", () => resume(Effect.void))),
    () => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  )
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return { url: `http://127.0.0.1:${port}`, requests }
})

const request = (url: string, init: RequestInit = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual", ...init })
    return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() }
  })

const eventually = <A>(probe: Effect.Effect<A | undefined>, what: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 250; i++) {
      const value = yield* probe
      if (value !== undefined) return value
      yield* Effect.sleep("20 millis")
    }
    return yield* Effect.dieMessage(`timed out waiting for ${what}`)
  })

/**
 * Runtime on SQLite with its worker running, all routers served, shop A onboarded; then a launch
 * over the API, an Export and Submit at the distributor, the webhook, and the worker's apply.
 * Returns every secret that crossed the runtime.
 */
const launchExportApply = (sandbox: Effect.Effect.Success<ReturnType<typeof startSandbox>>) =>
  Effect.gen(function*() {
    const sms = makeMemorySms([{ id: "ro_a", number: "1042", vehicle: { vin: ford!.vin } }])
    const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" })
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    const base = `http://127.0.0.1:${port}`
    const runtime = yield* ConnectorRuntime.make(sms.layer, {
      publicBaseUrl: base,
      smsVendorName: "Shoplink Tests",
      punchout: { baseUrl: sandbox.url, vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey) },
      storage: { sqlite: scratchDatabase() },
      secretKeys,
      launchLinkSecrets: [linkSecret],
      worker: { pollInterval: "20 millis" }
    }).pipe(Effect.provide(yield* Layer.build(UndiciHttpClient.layer)))
    yield* runtime.serve(
      server,
      HttpRouter.concatAll(runtime.publicRouter, runtime.apiRouter, runtime.healthRouter, runtime.adminRouter).pipe(
        HttpRouter.toHttpApp,
        Effect.flatten
      )
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
      sms: { apiKey: Redacted.make(SMS_KEY) }
    })
    const vendorKey = Redacted.value((yield* runtime.apiKeys.create("sms-backend")).key)

    const launched = yield* request(`${base}/shoplink/launch`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${vendorKey}` },
      body: JSON.stringify({ shopId: "shop_a", repairOrderId: "ro_a" })
    })
    expect(launched.status).toBe(200)
    const token = new URL(JSON.parse(launched.text).url).searchParams.get("token")!
    // What the distributor does is the sandbox's, not the runtime's: not traced.
    const distributor = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.withTracerEnabled(effect, false)
    yield* distributor(sandbox.admin.driver.addToCart(token, { ...SANDBOX_FIXTURES.products.oilFilter, quantity: 1 }))
    yield* distributor(sandbox.admin.driver.press(token, "exportAndSubmit"))
    const [delivery] = yield* distributor(sandbox.admin.awaitDeliveries(1))
    expect(delivery!.status).toBe(200)
    yield* eventually(Effect.sync(() => sms.read.lines("ro_a").length > 0 ? true : undefined), "the apply")
    const launchKey = /\/webhooks\/([^/]+)\//.exec(delivery!.url)![1]!
    return {
      base,
      runtime,
      vendorKey,
      secrets: [
        launchKey,
        token,
        vendorKey,
        us.apiToken,
        sandbox.credentials.vendorApiKey,
        SMS_KEY,
        Redacted.value(secretKeys).slice(3),
        Redacted.value(linkSecret)
      ]
    }
  })

describe("Observability: logs", () => {
  it.scopedLive("JSON lines parse, carry shop, repair order and entry on delivery lines, and hold no secret across launch → export → apply", () => {
    const lines: Array<string> = []
    const spy = vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => {
      lines.push(args.map(String).join(" "))
    })
    return Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const { base, secrets, vendorKey } = yield* launchExportApply(sandbox)

      // /metrics: the vendor API key, or 401.
      for (const authorization of [undefined, "Bearer not-a-key", `Bearer slk_0000000000_${"A".repeat(43)}`]) {
        const refused = yield* request(
          `${base}/metrics`,
          authorization === undefined ? {} : { headers: { authorization } }
        )
        expect(refused.status).toBe(401)
        expect(refused.text).not.toContain("shoplink_")
      }
      const metrics = yield* request(`${base}/metrics`, { headers: { authorization: `Bearer ${vendorKey}` } })
      expect(metrics.status).toBe(200)
      expect(metrics.contentType).toContain("text/plain; version=0.0.4")
      expect(metrics.text).toContain("# TYPE shoplink_deliveries_received_total counter")
      const received = /^shoplink_deliveries_received_total\{kind="order"\} (\d+)$/m.exec(metrics.text)
      expect(Number(received?.[1])).toBeGreaterThanOrEqual(1)
      expect(metrics.text).toMatch(
        /^shoplink_sms_call_duration_seconds_count\{operation="applyOrder",outcome="ok"\} [1-9]/m
      )
      expect(metrics.text).toMatch(
        /^shoplink_sms_call_duration_seconds_bucket\{operation="loadRepairOrder",outcome="ok",le="\+Inf"\} [1-9]/m
      )
      for (const secret of secrets) expect(metrics.text).not.toContain(secret)

      expect(lines.length).toBeGreaterThan(3)
      const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
      for (const record of records) {
        expect(record).toMatchObject({
          time: expect.any(String),
          level: expect.any(String),
          message: expect.any(String)
        })
        expect(["trace", "debug", "info", "warning", "error", "fatal"]).toContain(record["level"])
      }
      const deliveryLines = records.filter((r) => /^webhook (received|already received)$/.test(String(r["message"])))
      expect(deliveryLines.length).toBeGreaterThanOrEqual(1)
      for (const line of deliveryLines) {
        expect(line).toMatchObject({
          kind: "order",
          shopId: "shop_a",
          repairOrderId: "ro_a",
          entryId: expect.stringMatching(/^[0-9a-f-]{36}$/)
        })
      }
      expect(records.some((r) => r["message"] === "punchout launched" && r["shopId"] === "shop_a")).toBe(true)
      // Lines logged inside a span say which trace they belong to.
      expect(deliveryLines.every((r) => typeof r["traceId"] === "string" && typeof r["spanId"] === "string")).toBe(true)
      for (const secret of secrets) {
        expect(lines.filter((line) => line.includes(secret))).toEqual([])
      }
      expect(lines.join("\n")).not.toContain("token=")
    }).pipe(
      Effect.provide(Observability.layerLogger({ format: "json", level: "trace" })),
      Effect.ensuring(Effect.sync(() => spy.mockRestore()))
    )
  })

  it.effect("levels and formats: warning drops info; none drops everything; logfmt is one line; bad settings are config errors", () =>
    Effect.gen(function*() {
      const written: Array<string> = []
      const spy = vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) =>
        void written.push(args.map(String).join(" "))
      )
      const logSome = Effect.gen(function*() {
        yield* Effect.logDebug("debug line")
        yield* Effect.logInfo("info line")
        yield* Effect.logWarning("warning line").pipe(
          Effect.annotateLogs({ shopId: "shop_1", message: "an annotation named message" })
        )
        yield* Effect.logError("error line", { detail: 12n })
      })
      yield* logSome.pipe(Effect.provide(Observability.layerLogger({ format: "json", level: "warning" })))
      const json = written.splice(0).map((line) => JSON.parse(line))
      expect(json.map((r) => [r.level, r.message])).toEqual([["warning", "warning line"], ["error", "error line"]])
      expect(json[0]).toMatchObject({ shopId: "shop_1", "annotation.message": "an annotation named message" })
      expect(json[1]).toMatchObject({ details: { detail: "12" } })
      yield* logSome.pipe(Effect.provide(Observability.layerLogger({ format: "json", level: "none" })))
      expect(written.splice(0)).toEqual([])
      yield* logSome.pipe(Effect.provide(Observability.layerLogger({ format: "logfmt", level: "debug" })))
      const logfmt = written.splice(0)
      expect(logfmt, logfmt.join("\n")).toHaveLength(4)
      expect(logfmt[0]).toMatch(/level=DEBUG .*message="debug line"/)
      spy.mockRestore()

      const settings = (env: Record<string, string>) =>
        Effect.either(
          Effect.withConfigProvider(
            Config.unwrap(Settings.observability),
            ConfigProvider.fromMap(new Map(Object.entries(env)))
          )
        )
      expect(yield* settings({})).toEqual(Either.right({ logFormat: "auto", logLevel: "info", telemetry: undefined }))
      expect(
        yield* settings({ SHOPLINK_LOG_FORMAT: "JSON", SHOPLINK_LOG_LEVEL: "Warn", OTEL_EXPORTER_OTLP_ENDPOINT: "" })
      ).toEqual(
        Either.right({ logFormat: "json", logLevel: "warning", telemetry: undefined })
      )
      const otlp = yield* settings({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=abc%3D,bad"
      })
      expect(Either.isRight(otlp) && otlp.right.telemetry).toMatchObject({
        endpoint: "http://collector:4318",
        protocol: "http/protobuf",
        serviceName: "shoplink",
        headers: { "x-api-key": expect.anything() }
      })
      expect(
        Either.isRight(otlp) && Redacted.value(otlp.right.telemetry!.headers!["x-api-key"] as Redacted.Redacted<string>)
      ).toBe("abc=")
      for (
        const bad of [{ SHOPLINK_LOG_LEVEL: "verbose" }, { SHOPLINK_LOG_FORMAT: "xml" }, {
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://c",
          OTEL_EXPORTER_OTLP_PROTOCOL: "grpc"
        }]
      ) {
        const refused = yield* settings(bad)
        expect(Either.isLeft(refused), JSON.stringify(bad)).toBe(true)
        if (Either.isLeft(refused)) expect(String(refused.left)).toContain(Object.keys(bad).at(-1)!)
      }
    }))
})

describe("Observability: OpenTelemetry", () => {
  it.scopedLive("spans (launch, receive, each SMS call) and metrics reach an OTLP collector, with no launch key, token or API key in them", () =>
    Effect.gen(function*() {
      const collector = yield* startCollector
      const sandbox = yield* startSandbox()
      const client = yield* Layer.build(UndiciHttpClient.layer)
      const telemetry = Observability.layerTelemetry({
        endpoint: `${collector.url}/`,
        protocol: "http/json",
        serviceName: "shoplink-test",
        traceExportInterval: "100 millis",
        metricExportInterval: "100 millis"
      }).pipe(Layer.provide(Layer.succeedContext(client)))
      // The runtime's Scope closes first, then the exporters flush what is left.
      const { secrets } = yield* Effect.scoped(launchExportApply(sandbox)).pipe(Effect.provide(telemetry))

      const traces = collector.requests.filter((r) => r.path === "/v1/traces")
      const metrics = collector.requests.filter((r) => r.path === "/v1/metrics")
      expect(traces.length).toBeGreaterThan(0)
      expect(metrics.length).toBeGreaterThan(0)
      expect(collector.requests.every((r) => r.contentType.startsWith("application/json"))).toBe(true)
      type Attribute = { readonly key: string; readonly value: Record<string, unknown> }
      const spans = traces.flatMap((r) =>
        JSON.parse(r.body.toString("utf8")).resourceSpans.flatMap((rs: any) =>
          rs.scopeSpans.flatMap((ss: any) => ss.spans)
        )
      ) as Array<{ readonly name: string; readonly attributes: ReadonlyArray<Attribute> }>
      const attributes = (span: { readonly attributes: ReadonlyArray<Attribute> }) =>
        Object.fromEntries(span.attributes.map((a) => [a.key, Object.values(a.value)[0]]))
      const names = new Set(spans.map((s) => s.name))
      for (
        const name of [
          "ConnectorRuntime.launch",
          "ShopSystem.loadRepairOrder",
          "WebhookReceiver.receive",
          "ShopSystem.applyOrder"
        ]
      ) {
        expect(names, name).toContain(name)
      }
      const receive = spans.find((s) => s.name === "WebhookReceiver.receive")!
      expect(attributes(receive)).toMatchObject({
        kind: "order",
        shopId: "shop_a",
        repairOrderId: "ro_a",
        duplicate: false
      })
      expect(attributes(spans.find((s) => s.name === "ShopSystem.applyOrder")!)).toMatchObject({
        shopId: "shop_a",
        repairOrderId: "ro_a"
      })
      const resource = JSON.parse(traces[0]!.body.toString("utf8")).resourceSpans[0].resource
        .attributes as ReadonlyArray<Attribute>
      expect(resource).toContainEqual({ key: "service.name", value: { stringValue: "shoplink-test" } })

      const metricNames = new Set(
        metrics.flatMap((r) =>
          JSON.parse(r.body.toString("utf8")).resourceMetrics.flatMap((rm: any) =>
            rm.scopeMetrics.flatMap((sm: any) => sm.metrics.map((m: any) => m.name))
          )
        )
      )
      expect(metricNames).toContain("shoplink_deliveries_received_total")
      expect(metricNames).toContain("shoplink_sms_call_duration_seconds")

      for (const { body, path } of collector.requests) {
        const text = body.toString("utf8")
        for (const secret of secrets) expect(text.includes(secret), `${path} holds a secret`).toBe(false)
      }
    }))

  it.scopedLive("layerConfig(Settings.observability): OTEL_EXPORTER_OTLP_ENDPOINT turns on OTLP/protobuf export; SHOPLINK_LOG_* set the logger", () =>
    Effect.gen(function*() {
      const collector = yield* startCollector
      const client = yield* Layer.build(UndiciHttpClient.layer)
      const written: Array<string> = []
      const spy = vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) =>
        void written.push(args.map(String).join(" "))
      )
      const env = ConfigProvider.fromMap(
        new Map([
          ["OTEL_EXPORTER_OTLP_ENDPOINT", collector.url],
          ["OTEL_SERVICE_NAME", "acme-shoplink"],
          ["SHOPLINK_LOG_FORMAT", "json"],
          ["SHOPLINK_LOG_LEVEL", "warning"]
        ])
      )
      const observability = Observability.layerConfig(Settings.observability).pipe(
        Layer.provide(Layer.succeedContext(client)),
        Layer.provide(Layer.setConfigProvider(env))
      )
      yield* Effect.gen(function*() {
        yield* Effect.logInfo("not written")
        yield* Effect.logWarning("written").pipe(Effect.withSpan("env-test-span"))
      }).pipe(Effect.scoped, Effect.provide(observability), Effect.ensuring(Effect.sync(() => spy.mockRestore())))
      expect(written.map((line) => JSON.parse(line).message)).toEqual(["written"])
      const traces = collector.requests.filter((r) => r.path === "/v1/traces")
      expect(traces.length).toBeGreaterThan(0)
      expect(traces[0]!.contentType).toBe("application/x-protobuf")
      expect(Buffer.concat(traces.map((r) => r.body)).includes("env-test-span")).toBe(true)
      expect(Buffer.concat(traces.map((r) => r.body)).includes("acme-shoplink")).toBe(true)
    }))
})

describe("Observability: Prometheus text", () => {
  it.effect("counters, gauges and histograms with labels, escaped, in the 0.0.4 text format", () =>
    Effect.gen(function*() {
      const counter = Metric.counter("obs_test_requests_total", { description: "Requests\nseen", incremental: true })
      const gauge = Metric.gauge("obs_test.depth")
      const histogram = Metric.histogram("obs_test_seconds", MetricBoundaries.fromIterable([0.1, 1]))
      yield* Metric.increment(Metric.tagged(counter, "path", "a\"b\\c"))
      yield* Metric.incrementBy(Metric.tagged(counter, "path", "/x"), 2)
      yield* Metric.set(gauge, 7)
      yield* Metric.update(histogram, 0.05)
      yield* Metric.update(histogram, 0.5)
      yield* Metric.update(histogram, 5)
      const text = (yield* Observability.prometheus).split("\n")
      const block = (name: string) => text.filter((line) => line.includes(name))
      expect(block("obs_test_requests_total")).toEqual([
        "# HELP obs_test_requests_total Requests\\nseen",
        "# TYPE obs_test_requests_total counter",
        "obs_test_requests_total{path=\"/x\"} 2",
        "obs_test_requests_total{path=\"a\\\"b\\\\c\"} 1"
      ])
      expect(block("obs_test_depth")).toEqual(["# TYPE obs_test_depth gauge", "obs_test_depth 7"])
      expect(block("obs_test_seconds")).toEqual([
        "# TYPE obs_test_seconds histogram",
        "obs_test_seconds_bucket{le=\"0.1\"} 1",
        "obs_test_seconds_bucket{le=\"1\"} 2",
        "obs_test_seconds_bucket{le=\"+Inf\"} 3",
        "obs_test_seconds_sum 5.55",
        "obs_test_seconds_count 3"
      ])
      expect(Observability.renderPrometheus([])).toBe("")
    }))

  it.effect("a failed import of @effect/opentelemetry is a typed, one-line error", () =>
    Effect.sync(() => {
      const error = new Observability.TelemetryUnavailable({ reason: "Cannot find package '@effect/opentelemetry'" })
      expect(error._tag).toBe("TelemetryUnavailable")
      expect(error.message.split("\n")).toHaveLength(1)
    }))
})

describe("Observability after the split into Logging, Telemetry and Prometheus", () => {
  it("still exports every name of the three modules, as the same values", () => {
    for (const part of [Logging, Telemetry, Prometheus]) {
      for (const [name, value] of Object.entries(part)) {
        expect(Observability[name as keyof typeof Observability], name).toBe(value)
      }
    }
  })
})
