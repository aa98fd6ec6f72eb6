// The built sample as a process with SHOPLINK_LOG_FORMAT=json: stdout is one JSON object a line,
// each event once, framed by one start-up and one shutdown line; the banner is on stderr.
import { describe, expect, it } from "vitest"
import { spawn } from "node:child_process"
import { join } from "node:path"

const main = join(import.meta.dirname, "..", "dist", "main.js")

describe("tekmetric-sample logs", () => {
  it("SHOPLINK_LOG_FORMAT=json: JSON lines only on stdout, a start-up and a shutdown line, each event once", async () => {
    const env: Record<string, string> = {}
    for (const [name, value] of Object.entries(process.env)) {
      if (
        value !== undefined && !name.startsWith("SHOPLINK_") && !name.startsWith("OTEL_") &&
        !name.startsWith("TEKMETRIC_")
      ) env[name] = value
    }
    const child = spawn(process.execPath, [main], {
      env: { ...env, PORT: "0", SHOPLINK_LOG_FORMAT: "json" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stderr.on("data", (chunk) => (stderr += chunk))
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        stdout += chunk
        const line = stdout.split("\n").find((l) => l.includes("\"Tekmetric sample listening\""))
        if (line !== undefined) resolve(String((JSON.parse(line) as { url: unknown }).url))
      })
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${stdout}${stderr}`)))
    })
    expect((await fetch(`${url}/healthz`)).status).toBe(200)
    const code = await new Promise<number | string | null>((resolve) => {
      child.once("exit", (c, signal) => resolve(c ?? signal))
      child.kill("SIGTERM")
    })
    expect([0, 130, 143]).toContain(code)
    const lines = stdout.split("\n").filter((line) => line !== "")
    const messages = lines.map((line) => (JSON.parse(line) as { message: string }).message)
    expect(new Set(lines).size).toBe(lines.length)
    expect(messages.filter((m) => m === "Tekmetric sample listening")).toHaveLength(1)
    expect(messages.at(-1)).toBe("Tekmetric sample stopped")
    expect(stderr).toContain("Tekmetric sample is running. Open ")
  })
})
