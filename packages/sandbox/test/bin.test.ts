// The built `shoplink-sandbox` bin (turbo builds before testing): prints its URLs and
// credentials, serves, and stops cleanly on SIGTERM.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))

describe("shoplink-sandbox bin", () => {
  it.live("starts on --port 0 with --seed, prints URLs and credentials, exits 0 on SIGTERM", () =>
    Effect.gen(function*() {
      const child = spawn(process.execPath, [bin, "--port", "0", "--seed", "7"], { stdio: ["ignore", "pipe", "pipe"] })
      const output = yield* Effect.async<string>((resume) => {
        let text = ""
        child.stdout.on("data", (chunk) => {
          text += chunk
          if (text.includes("Ctrl-C")) resume(Effect.succeed(text))
        })
        child.on("exit", () => resume(Effect.succeed(text)))
      })
      expect(output).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(seed 7\)/)
      expect(output).toContain("sbx-vendor-key-0001")
      expect(output).toContain("sbx-token-ca-300400")
      const url = /listening on (\S+)/.exec(output)![1]!
      const docs = yield* Effect.promise(() => fetch(`${url}/docs`).then((r) => r.status))
      expect(docs).toBe(200)
      const code = yield* Effect.async<number | null>((resume) => {
        child.on("exit", (c) => resume(Effect.succeed(c)))
        child.kill("SIGTERM")
      })
      expect(code).toBe(0)
    }))

  it.live("refuses a bad --port with a usage message and exit code 2", () =>
    Effect.gen(function*() {
      const child = spawn(process.execPath, [bin, "--port", "abc"], { stdio: ["ignore", "pipe", "pipe"] })
      const [code, stderr] = yield* Effect.async<[number | null, string]>((resume) => {
        let err = ""
        child.stderr.on("data", (c) => (err += c))
        child.on("exit", (c) => resume(Effect.succeed([c, err])))
      })
      expect(code).toBe(2)
      expect(stderr).toContain("usage: shoplink-sandbox")
    }))
})
