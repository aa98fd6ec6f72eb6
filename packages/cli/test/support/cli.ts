// Runs the built CLI (`node dist/bin.js`) as a subprocess, as a user would; or, for suites that run
// it a hundred times, the same program in this process (`runCliInProcess`).
import * as NodeContext from "@effect/platform-node/NodeContext"
import type { RunningSandbox } from "@shoplink/sandbox"
import { Effect, Scope } from "effect"
import { run } from "../../src/Cli.js"
import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export const BIN = fileURLToPath(new URL("../../dist/bin.js", import.meta.url))

/** A working directory without a shoplink.config.json. */
export const scratchDir = () => mkdtempSync(join(tmpdir(), "shoplink-cli-test-"))

/** The test process's environment minus any SHOPLINK_* the developer may have exported. */
const baseEnv = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] =>
      e[1] !== undefined && !e[0].startsWith("SHOPLINK_")
    )
  )

export const sandboxEnv = (sandbox: RunningSandbox): Record<string, string> => {
  const c = sandbox.credentials
  return {
    SHOPLINK_PUNCHOUT_BASE_URL: sandbox.url,
    SHOPLINK_VENDOR_API_KEY: c.vendorApiKey,
    SHOPLINK_OMS_ENVIRONMENT: "US_QUA",
    SHOPLINK_OMS_TEST_BASE_URL: sandbox.url,
    SHOPLINK_OMS_API_KEY: c.oms.testApiKey,
    SHOPLINK_CUSTOMER_ACCOUNT_NO: c.customers.us.accountNo,
    SHOPLINK_CUSTOMER_USERNAME: c.customers.us.username,
    SHOPLINK_CUSTOMER_COUNTRY: c.customers.us.country,
    SHOPLINK_CUSTOMER_API_TOKEN: c.customers.us.apiToken
  }
}

/** Every secret of the sandbox, to assert none is ever printed. */
export const sandboxSecrets = (sandbox: RunningSandbox): ReadonlyArray<string> => [
  sandbox.credentials.vendorApiKey,
  sandbox.credentials.oms.testApiKey,
  sandbox.credentials.customers.us.apiToken
]

export interface Result {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export interface RunOptions {
  readonly cwd?: string
  /** Written to the command's stdin (a pipe, then closed); without it stdin is /dev/null. */
  readonly stdin?: string
}

export const runCli = (args: ReadonlyArray<string>, env: Record<string, string>, options: RunOptions = {}) =>
  Effect.async<Result>((resume) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? scratchDir(),
      env: { ...baseEnv(), ...env },
      stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"]
    })
    // The command may exit before reading it (a configuration error): that is not the test's failure.
    if (options.stdin !== undefined) child.stdin!.on("error", () => {}).end(options.stdin)
    let stdout = ""
    let stderr = ""
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    child.once("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
  })

/**
 * The program behind the bin (`Cli.run`, which the bin's `main` runs), in this process: with `env`
 * as its only SHOPLINK_* variables, a scratch working directory, and its stdout and stderr
 * captured. Each `node dist/bin.js` costs about a second of CPU to load; this costs milliseconds,
 * which is what keeps the store suites' hundred invocations affordable. Commands that read stdin
 * and the bin's own fast paths (--help, --version) are tested through `runCli`. The test pool is
 * `forks`, so changing this process's environment and directory touches no other test file.
 */
export const runCliInProcess = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  options: { readonly cwd?: string } = {}
) =>
  Effect.promise(async (): Promise<Result> => {
    const savedEnv = { ...process.env }
    const savedCwd = process.cwd()
    const writes = { stdout: process.stdout.write, stderr: process.stderr.write }
    let stdout = ""
    let stderr = ""
    for (const name of Object.keys(process.env)) if (name.startsWith("SHOPLINK_")) delete process.env[name]
    Object.assign(process.env, env)
    process.chdir(options.cwd ?? scratchDir())
    process.stdout.write =
      ((chunk: string | Uint8Array) => (stdout += String(chunk), true)) as typeof process.stdout.write
    process.stderr.write =
      ((chunk: string | Uint8Array) => (stderr += String(chunk), true)) as typeof process.stderr.write
    try {
      const code = await Effect.runPromise(run(["node", BIN, ...args]).pipe(Effect.provide(NodeContext.layer)))
      return { code, stdout, stderr }
    } catch (defect) {
      // What the bin's teardown does with a defect: exit 1.
      return { code: 1, stdout, stderr: `${stderr}${String(defect)}\n` }
    } finally {
      process.stdout.write = writes.stdout
      process.stderr.write = writes.stderr
      process.chdir(savedCwd)
      for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name]
      Object.assign(process.env, savedEnv)
    }
  })

export interface Running {
  /** Resolves with all stdout so far once `predicate` holds for it. */
  readonly waitForStdout: (predicate: (stdout: string) => boolean) => Effect.Effect<string>
  readonly stderr: () => string
  /** Sends `signal` and resolves with the exit code. */
  readonly stop: (signal: NodeJS.Signals) => Effect.Effect<number | null>
}

/** Starts a long-running command (`webhook listen`, `sandbox start`); killed when the scope closes. */
export const startCli = (
  args: ReadonlyArray<string>,
  env: Record<string, string>
): Effect.Effect<Running, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: scratchDir(),
        env: { ...baseEnv(), ...env },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let stdout = ""
      let stderr = ""
      const waiters = new Set<() => void>()
      const closed = new Promise<number | null>((resolve) => child.once("close", resolve))
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        stdout += d
        for (const w of waiters) w()
      })
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
      const running: Running = {
        waitForStdout: (predicate) =>
          Effect.async<string>((resume) => {
            const check = () => {
              if (predicate(stdout)) {
                waiters.delete(check)
                resume(Effect.succeed(stdout))
              }
            }
            waiters.add(check)
            check()
            return Effect.sync(() => waiters.delete(check))
          }),
        stderr: () => stderr,
        stop: (signal) =>
          Effect.promise(() => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal)
            return closed
          })
      }
      return { child, running }
    }),
    ({ child }) =>
      Effect.sync(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
      })
  ).pipe(Effect.map(({ running }) => running))

export const parseJson = <A = any>(text: string): A => JSON.parse(text) as A
