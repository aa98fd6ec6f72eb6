// The built `shoplink-sandbox` bin (turbo builds before testing): prints its URLs and
// credentials, serves, and stops cleanly on SIGTERM.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))

interface Run {
  readonly child: ChildProcess
  readonly stdout: string
  readonly stderr: string
  /** The exit code, or `undefined` while it is still serving. */
  readonly code: number | null | undefined
}

/** Runs the bin until it prints its banner (then it is left running) or exits. */
const run = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.acquireRelease(
    Effect.async<Run>((resume) => {
      const child = spawn(process.execPath, [bin, ...args], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, ...env }
      })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk) => {
        stdout += chunk
        if (stdout.includes("Ctrl-C")) resume(Effect.succeed({ child, stdout, stderr, code: undefined }))
      })
      child.stderr.on("data", (chunk) => (stderr += chunk))
      child.on("exit", (code) => resume(Effect.succeed({ child, stdout, stderr, code })))
    }),
    ({ child }) => Effect.sync(() => child.exitCode === null && child.kill("SIGTERM"))
  )

const stop = (child: ChildProcess) =>
  Effect.async<number | null>((resume) => {
    child.on("exit", (c) => resume(Effect.succeed(c)))
    child.kill("SIGTERM")
  })

const urlOf = (stdout: string) => /listening on (\S+)/.exec(stdout)![1]!

describe("shoplink-sandbox bin", () => {
  it.live("starts on --port 0 with --seed, prints URLs and credentials, exits 0 on SIGTERM", () =>
    Effect.scoped(Effect.gen(function*() {
      const { child, stdout } = yield* run(["--port", "0", "--seed", "7"])
      expect(stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(seed 7\)/)
      expect(stdout).toContain("sbx-vendor-key-0001")
      expect(stdout).toContain("sbx-token-ca-300400")
      const docs = yield* Effect.promise(() => fetch(`${urlOf(stdout)}/docs`).then((r) => r.status))
      expect(docs).toBe(200)
      expect(yield* stop(child)).toBe(0)
    })))

  it.live("accepts the leading -- that `pnpm sandbox -- --port …` passes through", () =>
    Effect.scoped(Effect.gen(function*() {
      const { child, code, stderr, stdout } = yield* run(["--", "--port", "0", "--seed", "9"])
      expect(stderr).toBe("")
      expect(code).toBeUndefined()
      expect(stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(seed 9\)/)
      expect(yield* stop(child)).toBe(0)
    })))

  it.live("refuses a bad --port with a usage message and exit code 2", () =>
    Effect.scoped(Effect.gen(function*() {
      for (const port of ["abc", "70000"]) {
        const { code, stderr } = yield* run(["--port", port])
        expect(code).toBe(2)
        expect(stderr).toContain("usage: shoplink-sandbox")
      }
    })))

  it.live("a port already in use is one line on stderr and a non-zero exit, not a stack trace", () =>
    Effect.scoped(Effect.gen(function*() {
      const taken = yield* Effect.acquireRelease(
        Effect.async<ReturnType<typeof createServer>>((resume) => {
          const server = createServer().listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
        }),
        (server) => Effect.sync(() => server.close())
      )
      const port = (taken.address() as { port: number }).port
      const { code, stderr, stdout } = yield* run(["--port", String(port)])
      expect(code).toBe(1)
      expect(stdout).toBe("")
      expect(stderr.trimEnd().split("\n")).toEqual([
        expect.stringContaining(`port ${port} on 127.0.0.1 is already in use`)
      ])
      expect(stderr).not.toMatch(/\bat \S+ \(|ServeError/)
    })))

  it.live("--host 0.0.0.0 warns that the admin API has no authentication", () =>
    Effect.scoped(Effect.gen(function*() {
      const { child, stderr, stdout } = yield* run(["--host", "0.0.0.0", "--port", "0"], {
        SHOPLINK_SANDBOX_ADMIN_TOKEN: ""
      })
      expect(stderr).toMatch(/^warning: --host 0\.0\.0\.0 exposes the admin API .* no authentication.*--admin-token/)
      // The warning is the truth: without a token the admin API answers anyone.
      expect((yield* Effect.promise(() => fetch(`${urlOf(stdout)}/__sandbox/clock`))).status).toBe(200)
      expect(yield* stop(child)).toBe(0)
      const loopback = yield* run(["--port", "0"])
      expect(loopback.stderr).toBe("")
    })))

  it.live("--admin-token (or SHOPLINK_SANDBOX_ADMIN_TOKEN) makes the admin API require a Bearer token, and silences the warning", () =>
    Effect.scoped(Effect.gen(function*() {
      for (
        const [args, env] of [[["--admin-token", "s3cret"], {}], [[], {
          SHOPLINK_SANDBOX_ADMIN_TOKEN: "s3cret"
        }]] as const
      ) {
        const { child, stderr, stdout } = yield* run(["--host", "0.0.0.0", "--port", "0", ...args], env)
        expect(stderr).toBe("")
        expect(stdout).not.toContain("s3cret")
        const clock = `${urlOf(stdout)}/__sandbox/clock`
        const status = (authorization?: string) =>
          Effect.promise(() =>
            fetch(clock, authorization === undefined ? {} : { headers: { authorization } }).then((r) => r.status)
          )
        expect(yield* status()).toBe(401)
        expect(yield* status("Bearer wrong")).toBe(401)
        expect(yield* status("Bearer s3cret")).toBe(200)
        // Only the admin API is guarded: the distributor's own routes stay as the spec has them.
        expect((yield* Effect.promise(() => fetch(`${urlOf(stdout)}/docs`))).status).toBe(200)
        expect(yield* stop(child)).toBe(0)
      }
    })))
})

describe("shoplink-sandbox bin logs", () => {
  it.live("SHOPLINK_LOG_FORMAT=json: stdout is JSON lines only, a start-up and a shutdown line, each once; the banner is on stderr", () =>
    Effect.promise(async () => {
      const child = spawn(process.execPath, [bin, "--port", "0"], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, SHOPLINK_LOG_FORMAT: "json", SHOPLINK_LOG_LEVEL: "info" }
      })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk) => (stdout += chunk))
      await new Promise<void>((resolve, reject) => {
        child.stderr.on("data", (chunk) => {
          stderr += chunk
          if (stderr.includes("Ctrl-C")) resolve()
        })
        child.on("exit", (code) => reject(new Error(`exited ${code}: ${stdout}${stderr}`)))
      })
      const url = urlOf(stderr)
      expect((await fetch(`${url}/docs`)).status).toBe(200)
      const code = await new Promise<number | null>((resolve) => {
        child.on("exit", (c) => resolve(c))
        child.kill("SIGTERM")
      })
      expect(code).toBe(0)
      const lines = stdout.split("\n").filter((line) => line !== "")
      const events = lines.map((line) =>
        JSON.parse(line) as { readonly message: unknown; readonly annotations?: Record<string, unknown> }
      )
      expect(events.map((e) => e.message)).toEqual(["sandbox listening", "sandbox stopped"])
      expect(events[0]!.annotations).toMatchObject({ url })
    }))
})
