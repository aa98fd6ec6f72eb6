#!/usr/bin/env node
// Deployment smoke test (`pnpm test:deploy`, run by .ci/run): what docs/deploying.md tells an
// operator to do must work.
//   1. `pnpm --filter shopmonkey-sample --config.inject-workspace-packages=true deploy --prod <dir>`:
//      a self-contained folder (the app's dist, its production dependencies, workspace packages as
//      they would be published);
//   2. start `node dist/main.js` from that folder, outside the workspace, on a free port;
//   3. wait for `GET /readyz` to answer 200, and check `/healthz`;
//   4. SIGTERM, and the process exits by itself.
// Any failure exits non-zero naming the step.
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { root } from "./workspace.mjs"

const log = (message) => console.log(`[deploy] ${message}`)
const fail = (step, message) => {
  console.error(`[deploy] FAILED at "${step}": ${message}`)
  process.exitCode = 1
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

const pnpm = process.env.npm_execpath && process.env.npm_execpath.includes("pnpm")
  ? [process.execPath, process.env.npm_execpath]
  : ["npx", "-y", "pnpm@10.34.8"]

const dir = mkdtempSync(join(tmpdir(), "shoplink-deploy-"))
const target = join(dir, "shopmonkey-sample")
let child
try {
  const started = Date.now()
  const deploy = spawnSync(pnpm[0], [
    ...pnpm.slice(1),
    "--filter",
    "shopmonkey-sample",
    "--config.inject-workspace-packages=true",
    "deploy",
    "--prod",
    target
  ], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" }
  })
  if (deploy.status !== 0) {
    throw Object.assign(new Error(`${deploy.stdout}${deploy.stderr}`.trim().split("\n").slice(-20).join("\n")), {
      step: "pnpm deploy"
    })
  }
  log(`pnpm deploy: ok (${((Date.now() - started) / 1000).toFixed(1)} s) into ${target}`)

  const port = await freePort()
  let output = ""
  child = spawn(process.execPath, ["dist/main.js"], {
    cwd: target,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })))

  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  let ready
  while (Date.now() < deadline) {
    // Each probe is bounded, as a load balancer's is: a hung answer must not hang the smoke test.
    ready = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      async (r) => ({ status: r.status, body: await r.text() }),
      (error) => ({ status: 0, body: String(error?.cause?.message ?? error?.message ?? error) })
    )
    if (ready?.status === 200) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  if (ready?.status !== 200) {
    throw Object.assign(
      new Error(
        `GET /readyz did not answer 200 within 30 s (last: ${
          ready ? `${ready.status} ${ready.body}` : "no probe"
        })\n${output}`
      ),
      { step: "readyz" }
    )
  }
  log(`GET /readyz: 200 ${ready.body} (${((Date.now() - started) / 1000).toFixed(1)} s since deploy began)`)
  const health = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) })
  if (health.status !== 200) {
    throw Object.assign(new Error(`GET /healthz answered ${health.status}`), { step: "healthz" })
  }

  child.kill("SIGTERM")
  const result = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(undefined), 15_000))])
  if (result === undefined) throw Object.assign(new Error("still running 15 s after SIGTERM"), { step: "shutdown" })
  log(`SIGTERM: exited (${result.code ?? result.signal})`)
  log("passed")
} catch (error) {
  fail(error.step ?? "deploy", error.message)
  child?.kill("SIGKILL")
} finally {
  rmSync(dir, { recursive: true, force: true })
}
