import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { FAKE_SHOPMONKEY_FIXTURES, FAKE_SHOPMONKEY_SECOND_COMPANY } from "@shoplink/adapter-shopmonkey/testing"
import { WebClient } from "@shoplink/connector-testkit"
import { call, signedIn, startSample } from "./support.js"

const dist = (file: string) => join(import.meta.dirname, "..", "dist", file)

describe("shopmonkey-sample", () => {
  it("pnpm demo runs the whole flow for two shops headless and exits 0 with a readable transcript", () => {
    const result = spawnSync(process.execPath, [dist("demo.js")], { encoding: "utf8", timeout: 60_000 })
    expect(result.stderr).toBe("")
    expect(result.status).toBe(0)
    for (let step = 1; step <= 8; step++) expect(result.stdout).toContain(`[${step}/8]`)
    expect(result.stdout).toContain(
      "ava@mainstreet.example (Main Street Auto): 5 repair orders, RO 1042, RO 1043, RO 1044, RO 1045, RO 1046"
    )
    expect(result.stdout).toContain(
      "ben@maplegarage.example (Maple Garage): 3 repair orders, RO 5201, RO 5202, RO 5203"
    )
    expect(result.stdout).toContain(
      "ava@mainstreet.example opening Maple Garage's RO 5201: 404; Order parts on it: 404"
    )
    expect(result.stdout).toContain("without signing in: GET / → 303 /sign-in?next=%2F; Order parts → 403")
    expect(result.stdout).toContain("2 parts quoted and added to RO 1042.")
    expect(result.stdout).toMatch(/distributor order \d+: Order submitted/)
    expect(result.stdout).toContain("Shopmonkey company 1 (Main Street Auto): 4 parts, on RO 1042")
    expect(result.stdout).toContain("Shopmonkey company 2 (Maple Garage): 1 part, on RO 5201")
    expect(result.stdout).toContain("ReserveOrder API0200: \"In shopping cart\", P.O. \"PO RO1042\"")
    expect(result.stdout).toMatch(
      /RO 1042 \(Main Street Auto\) has 2 quoted and 2 ordered parts .*RO 5201 \(Maple Garage\) has 1 ordered part .*no part crossed shops\./
    )
    // The session token never appears: URLs are printed with it redacted.
    expect(result.stdout).toContain("token=<redacted>")
    expect(result.stdout).not.toMatch(/token=[0-9a-f]{8}-/)
  })

  it("pnpm start on the embedded default prints the users to sign in as, serves their repair orders after sign-in, and removes its database folder on SIGTERM", async () => {
    // A temporary directory of its own, to see what the service leaves in it.
    const tmp = mkdtempSync(join(tmpdir(), "sample-start-"))
    const leftovers = () => readdirSync(tmp).filter((name) => name.startsWith("shoplink-sample-"))
    const child = spawn(process.execPath, [dist("main.js")], {
      env: { ...process.env, PORT: "0", TMPDIR: tmp },
      stdio: ["ignore", "pipe", "pipe"]
    })
    try {
      const { out, url } = await new Promise<{ out: string; url: string }>((resolve, reject) => {
        let out = ""
        child.stdout.on("data", (chunk) => {
          out += chunk
          const match = /Open (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
          if (match) resolve({ out, url: match[1]! })
        })
        child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)))
      })
      expect(out).toContain("shop main-street  Main Street Auto: Shopmonkey company 1, distributor account 100200 (US)")
      expect(out).toContain("shop maple-garage Maple Garage: Shopmonkey company 2, distributor account 300400 (CA)")
      const password = /ava@mainstreet\.example\s+password (\S+)/.exec(out)?.[1]
      expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/)
      expect(out).toMatch(/ben@maplegarage\.example\s+password [A-Za-z0-9_-]{16}/)
      // The distributor token is not printed any more: it is sealed in the shop store.
      expect(out).not.toContain("sbx-token-")

      const anonymous = await fetch(url, { redirect: "manual" })
      expect(anonymous.status).toBe(303)
      expect(anonymous.headers.get("location")).toBe("/sign-in?next=%2F")
      const client = WebClient.make(url)
      expect((await client.signIn("ava@mainstreet.example", password!)).status).toBe(303)
      const page = (await client.get("/")).text
      expect(page.match(/data-testid="repair-order"/g)).toHaveLength(5)
      expect(page).toContain("2019 Ford F-150")
      expect(leftovers()).toHaveLength(1)
    } finally {
      child.kill("SIGTERM")
    }
    const code = await new Promise((resolve) => child.on("exit", (c, signal) => resolve(c ?? signal)))
    expect([0, 130, 143]).toContain(code)
    expect(leftovers()).toEqual([])
    rmSync(tmp, { recursive: true, force: true })
  })

  it("pnpm start honours SHOPLINK_LOG_FORMAT=json and OTEL_EXPORTER_OTLP_ENDPOINT: JSON log lines with the shop, spans to the collector, no secret in either", async () => {
    // A local OTLP collector: records each export's path and body.
    const exports: Array<{ path: string; body: string }> = []
    const collector = createServer((req, res) => {
      let body = ""
      req.on("data", (chunk) => (body += chunk))
      req.on("end", () => {
        exports.push({ path: req.url ?? "", body })
        res.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve))
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`
    const child = spawn(process.execPath, [dist("main.js")], {
      env: {
        ...process.env,
        PORT: "0",
        SHOPLINK_LOG_FORMAT: "json",
        SHOPLINK_LOG_LEVEL: "info",
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    child.stdout.on("data", (chunk) => (out += chunk))
    child.stderr.on("data", (chunk) => (out += chunk))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        // With JSON logs the banner (the URL, the demo passwords) is on stderr.
        const found = () => {
          const match = /Open (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
          if (match) resolve(match[1]!)
        }
        child.stdout.on("data", found)
        child.stderr.on("data", found)
        child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)))
      })
      const password = /ava@mainstreet\.example\s+password (\S+)/.exec(out)![1]!
      const client = WebClient.make(url)
      expect((await client.signIn("ava@mainstreet.example", password)).status).toBe(303)
      await client.get("/") // a page with forms: the session's CSRF token
      const launched = await client.post(`/ro/${FAKE_SHOPMONKEY_FIXTURES.orders.vin.id}/order-parts`)
      expect(launched.status).toBe(303)
      const token = new URL(launched.location!).searchParams.get("token")!
      child.kill("SIGTERM")
      await new Promise((resolve) => child.on("exit", resolve))
      // Every log line is one JSON object; the launch line names the shop; no session token anywhere.
      const logLines = out.split("\n").filter((line) => line.startsWith("{"))
      const logs = logLines.map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(logs.find((line) => line["message"] === "punchout launched")).toMatchObject({
        level: "info",
        shopId: "main-street"
      })
      expect(out).not.toContain(token)
      // Closing the service flushes the exporter: the launch's spans reached the collector.
      const traces = exports.filter((e) => e.path === "/v1/traces").map((e) => e.body).join("\n")
      expect(traces).toContain("PunchoutLauncher")
      expect(traces).not.toContain(token)
    } finally {
      child.kill("SIGTERM")
      collector.close()
    }
  })

  it.scoped("Order parts opens the catalog in a new tab, and a vehicle without VIN or plate says what it needs before launching", () =>
    Effect.gen(function*() {
      const { app } = yield* startSample()
      const ava = yield* signedIn(app.url, "ava")
      const { noVehicle, plate, vin, yearMakeModel } = FAKE_SHOPMONKEY_FIXTURES.orders
      const list = yield* call(() => ava.get("/"))
      const row = (number: string) =>
        new RegExp(`<tr data-testid="repair-order" data-ro="${number}">[\\s\\S]*?</tr>`).exec(list.text)?.[0] ?? ""
      for (const ro of [vin, plate, yearMakeModel, noVehicle]) {
        expect(row(ro.number)).toContain(
          `<form method="post" action="/ro/${ro.id}/order-parts" target="_blank"><input type="hidden" name="csrf" value="${ava.csrf()}">`
        )
      }
      const hint =
        "No VIN or license plate with its state: the catalog will open without this vehicle. Add one to the vehicle in Shopmonkey first."
      expect(row(vin.number)).not.toContain("vehicle-hint")
      expect(row(plate.number)).not.toContain("vehicle-hint")
      expect(row(yearMakeModel.number)).toContain(`<p class="hint" data-testid="vehicle-hint">${hint}</p>`)
      expect(row(noVehicle.number)).toContain(`data-testid="vehicle-hint"`)
      const page = yield* call(() => ava.get(`/ro/${yearMakeModel.id}`))
      expect(page.text).toContain(`<button data-testid="order-parts">`)
      expect(page.text).toContain(`target="_blank">`)
      expect(page.text).toContain(hint)
    }))

  it.scoped("Order parts answers a 303 to the catalog for the RO's vehicle (shop A by VIN, shop B by plate); unknown ROs answer 404", () =>
    Effect.gen(function*() {
      const { app, embedded } = yield* startSample()
      const ava = yield* signedIn(app.url, "ava")
      const ben = yield* signedIn(app.url, "ben")
      const { vin } = FAKE_SHOPMONKEY_FIXTURES.orders
      const launched = yield* call(() => ava.post(`/ro/${vin.id}/order-parts`))
      expect(launched.status).toBe(303)
      expect(launched.headers.get("referrer-policy")).toBe("no-referrer")
      expect(launched.headers.get("cache-control")).toBe("no-store")
      const target = new URL(launched.location!)
      expect(`${target.origin}${target.pathname}`).toBe(`${embedded.sandbox.url}/punchout/v1/ShowCatalog`)
      expect(target.searchParams.get("vin")).toBe(vin.vehicle.vin)
      expect(target.searchParams.get("referenceID")).toBe("1042")

      // Shop B's RO with a plate: the catalog opens on that vehicle, found by plate and state.
      const b = FAKE_SHOPMONKEY_SECOND_COMPANY.orders.plate
      yield* call(() => ben.get("/"))
      const launchedB = yield* call(() => ben.post(`/ro/${b.id}/order-parts`))
      expect(launchedB.status).toBe(303)
      const { token: tokenB, ...paramsB } = Object.fromEntries(new URL(launchedB.location!).searchParams)
      expect(paramsB).toMatchObject({ licensePlate: "JEEP21", licensePlateState: "CO", referenceID: "5202" })
      const searched = yield* embedded.sandbox.admin.driver.search(tokenB!, { ...paramsB, searchTerm: "battery" })
      expect(searched.vehicle).toBe("2021 Jeep Wrangler")

      const page = yield* call(() => ava.get(`/ro/${vin.id}`))
      expect(page.status).toBe(200)
      expect(page.text).toContain("RO 1042 · 2019 Ford F-150")
      expect(page.text.match(/None yet\./g)).toHaveLength(2)

      const missing = yield* call(() => ava.get("/ro/ord_404"))
      expect(missing.status).toBe(404)
      const missingLaunch = yield* call(() => ava.post("/ro/ord_404/order-parts"))
      expect(missingLaunch.status).toBe(404)
    }))
})
