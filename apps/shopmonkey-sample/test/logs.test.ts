// The built sample as a process, as an operator runs it: with SHOPLINK_LOG_FORMAT=json its stdout is
// one JSON object a line and nothing else, each event written once (start-up, requests, shutdown);
// and a request sent while it starts is answered (503 until the runtime serves), never left hanging.
import { describe, expect, it } from "vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { join } from "node:path"
import { WebClient } from "@shoplink/connector-testkit"
import { closedPort } from "@shoplink/vitest-config/net"

const main = join(import.meta.dirname, "..", "dist", "main.js")

/** The environment without any setting of ours or OpenTelemetry's: the embedded default. */
const cleanEnv = (extra: Record<string, string>) => {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith("SHOPLINK_") && !name.startsWith("OTEL_")) env[name] = value
  }
  return { ...env, ...extra }
}

const exited = (child: ChildProcess) =>
  new Promise<number | string | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? child.signalCode)
    else child.once("exit", (code, signal) => resolve(code ?? signal))
  })

// A port nothing listens on yet, for the sample to take.
const freePort = closedPort

describe("shopmonkey-sample logs and start-up", () => {
  it("SHOPLINK_LOG_FORMAT=json: stdout is one JSON object a line, each event once, with a start-up and a shutdown line; per-shop lines name the shop", async () => {
    const child = spawn(process.execPath, [main], {
      env: cleanEnv({ PORT: "0", SHOPLINK_LOG_FORMAT: "json", SHOPLINK_LOG_LEVEL: "info" }),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (chunk) => (stdout += chunk))
    child.stderr!.on("data", (chunk) => (stderr += chunk))
    try {
      // The start-up line says where it listens; the banner (demo passwords) is on stderr.
      const started = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const check = () => {
          const line = stdout.split("\n").find((l) => l.includes("\"Shopmonkey sample listening\""))
          if (line !== undefined && /password \S+/.test(stderr)) resolve(JSON.parse(line) as Record<string, unknown>)
        }
        child.stdout!.on("data", check)
        child.stderr!.on("data", check)
        child.once("exit", (code) => reject(new Error(`exited ${code}: ${stdout}${stderr}`)))
      })
      const url = String(started["url"])
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(started).toMatchObject({ level: "info", mode: "embedded", shops: 2 })
      const password = /ava@mainstreet\.example\s+password (\S+)/.exec(stderr)![1]!

      // A few requests: a probe, a failed and a good sign-in, pages, an RO of no one's (a "request failed" warning).
      expect((await fetch(`${url}/healthz`)).status).toBe(200)
      const client = WebClient.make(url)
      expect((await client.signIn("ava@mainstreet.example", "not her password")).status).toBe(401)
      expect((await client.signIn("ava@mainstreet.example", password)).status).toBe(303)
      expect((await client.get("/")).status).toBe(200)
      expect((await client.get("/ro/no-such-order")).status).toBe(404)
    } finally {
      child.kill("SIGTERM")
    }
    expect([0, 130, 143]).toContain(await exited(child))

    const lines = stdout.split("\n").filter((line) => line !== "")
    // Nothing but JSON objects, each with its time, level and message.
    const events = lines.map((line) => {
      const event = JSON.parse(line) as Record<string, unknown>
      expect(typeof event).toBe("object")
      expect(event).toMatchObject({ time: expect.any(String), level: expect.any(String), message: expect.any(String) })
      return event
    })
    // Each event once: no line twice, no second rendering of an event (a pretty block, a logfmt line).
    expect(new Set(lines).size).toBe(lines.length)
    expect(stdout).not.toMatch(/^\[\d\d:\d\d:\d\d/m)
    expect(stdout).not.toContain("level=")
    const count = (message: string) => events.filter((e) => e["message"] === message).length
    expect(count("Shopmonkey sample listening")).toBe(1)
    expect(count("Shopmonkey sample stopped")).toBe(1)
    expect(count("signed in")).toBe(1)
    expect(count("sign-in failed")).toBe(1)
    expect(events.at(-1)).toMatchObject({ message: "Shopmonkey sample stopped" })
    // Every line about a shop's request names the shop.
    expect(events.find((e) => e["message"] === "signed in")).toMatchObject({ shopId: "main-street" })
    const failures = events.filter((e) => e["message"] === "request failed")
    expect(failures.length).toBeGreaterThan(0)
    for (const failure of failures) expect(failure).toMatchObject({ shopId: "main-street" })
  })

  it("a request sent while the service starts is answered (503 until the runtime serves, then 200), none within more than a second of serving", async () => {
    const port = await freePort()
    const child = spawn(process.execPath, [main], {
      env: cleanEnv({ PORT: String(port), HOST: "127.0.0.1", SHOPLINK_LOG_FORMAT: "json" }),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let servingAt: number | undefined
    child.stdout!.on("data", (chunk) => {
      stdout += chunk
      if (servingAt === undefined && stdout.includes("\"Shopmonkey sample listening\"")) servingAt = Date.now()
    })
    child.stderr!.resume()
    // Probes in a tight loop from the spawn on, each waiting as long as it takes (no timeout of its
    // own): a connection the service accepted but never answered would hold its probe forever.
    const probes: Array<Promise<{ readonly sentAt: number; readonly status: number; readonly answeredAt: number }>> = []
    const probe = () => {
      const sentAt = Date.now()
      return fetch(`http://127.0.0.1:${port}/healthz`, { headers: { connection: "close" } }).then(
        async (response) => ({ sentAt, status: response.status, answeredAt: (await response.text(), Date.now()) }),
        () => ({ sentAt, status: 0, answeredAt: Date.now() }) // not listening yet: refused at once
      )
    }
    try {
      const deadline = Date.now() + 60_000
      while (Date.now() < deadline) {
        probes.push(probe())
        await new Promise((resolve) => setTimeout(resolve, 15))
        if (servingAt !== undefined && Date.now() - servingAt > 300) break
        if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${stdout}`)
      }
      expect(servingAt).toBeDefined()
      // Every probe sent before serving began is answered within a second of it (load on the
      // machine may add to that, hence the margin on the wait below, not on the assertion).
      const results = await Promise.race([
        Promise.all(probes),
        new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 15_000))
      ])
      expect(results).not.toBe("hung")
      const answered = results as Awaited<(typeof probes)[number]>[]
      for (const result of answered) {
        expect([0, 200, 503]).toContain(result.status)
        if (result.sentAt < servingAt!) expect(result.answeredAt - servingAt!).toBeLessThan(1_000)
      }
      // The port opened before the runtime served: those probes met a 503, not a silent socket.
      expect(answered.some((r) => r.status === 503)).toBe(true)
      expect(answered.at(-1)!.status).toBe(200)
    } finally {
      child.kill("SIGTERM")
    }
    await exited(child)
  })
})
