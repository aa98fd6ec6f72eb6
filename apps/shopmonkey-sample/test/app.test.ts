import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FAKE_SHOPMONKEY_FIXTURES } from "@shoplink/adapter-shopmonkey/testing"
import { startApp } from "../src/app.js"
import { startEmbedded } from "../src/embedded.js"

const dist = (file: string) => join(import.meta.dirname, "..", "dist", file)
const get = (url: string, init?: RequestInit) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual", ...init })
    return { status: response.status, location: response.headers.get("location"), text: await response.text() }
  })

const app = Effect.gen(function*() {
  const embedded = yield* startEmbedded
  const running = yield* startApp({
    ...embedded.settings,
    port: 0,
    host: "127.0.0.1",
    publicBaseUrl: undefined,
    smsVendorName: "Sample tests",
    databaseFile: join(mkdtempSync(join(tmpdir(), "sample-test-")), "db.sqlite"),
    shopId: "shop"
  })
  return { embedded, running }
})

describe("shopmonkey-sample", () => {
  it("pnpm demo runs the whole flow headless and exits 0 with a readable transcript", () => {
    const result = spawnSync(process.execPath, [dist("demo.js")], { encoding: "utf8", timeout: 60_000 })
    expect(result.stderr).toBe("")
    expect(result.status).toBe(0)
    for (let step = 1; step <= 7; step++) expect(result.stdout).toContain(`[${step}/7]`)
    expect(result.stdout).toContain("2 parts quoted and added to RO 1042.")
    expect(result.stdout).toMatch(/distributor order \d+: Order submitted/)
    expect(result.stdout).toContain('ReserveOrder API0200: "In shopping cart", P.O. "PO RO1042"')
    expect(result.stdout).toContain("RO 1042 has 2 quoted and 2 ordered parts")
    // The session token never appears: URLs are printed with it redacted.
    expect(result.stdout).toContain("token=<redacted>")
    expect(result.stdout).not.toMatch(/token=[0-9a-f]{8}-/)
  })

  it("pnpm start on the embedded default prints the URL to open and serves the repair orders", async () => {
    const child = spawn(process.execPath, [dist("main.js")], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = ""
        child.stdout.on("data", (chunk) => {
          out += chunk
          const match = /Open (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
          if (match) resolve(match[1]!)
        })
        child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)))
      })
      const page = await fetch(url).then((r) => r.text())
      expect(page.match(/data-testid="repair-order"/g)).toHaveLength(5)
      expect(page).toContain("2019 Ford F-150")
    } finally {
      child.kill("SIGTERM")
    }
    const code = await new Promise((resolve) => child.on("exit", (c, signal) => resolve(c ?? signal)))
    expect([0, 130, 143, "SIGTERM"]).toContain(code)
  })

  it.scoped("Order parts answers a 303 to the catalog for the RO's vehicle; unknown ROs answer 404", () =>
    Effect.gen(function*() {
      const { embedded, running } = yield* app
      const { vin } = FAKE_SHOPMONKEY_FIXTURES.orders
      const launched = yield* get(`${running.url}/ro/${vin.id}/order-parts`, { method: "POST" })
      expect(launched.status).toBe(303)
      const target = new URL(launched.location!)
      expect(`${target.origin}${target.pathname}`).toBe(`${embedded.sandbox.url}/punchout/v1/ShowCatalog`)
      expect(target.searchParams.get("vin")).toBe(vin.vehicle.vin)
      expect(target.searchParams.get("referenceID")).toBe("1042")

      const page = yield* get(`${running.url}/ro/${vin.id}`)
      expect(page.status).toBe(200)
      expect(page.text).toContain("RO 1042 · 2019 Ford F-150")
      expect(page.text.match(/None yet\./g)).toHaveLength(2)

      const missing = yield* get(`${running.url}/ro/ord_404`)
      expect(missing.status).toBe(404)
      const missingLaunch = yield* get(`${running.url}/ro/ord_404/order-parts`, { method: "POST" })
      expect(missingLaunch.status).toBe(404)
    }))
})
