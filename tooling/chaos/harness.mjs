// What `pnpm chaos` (run.mjs) and its bench (bench.mjs) share: processes, ports, the PostgreSQL
// server, and the quote webhook they post.
import { spawn } from "node:child_process"
import { createServer } from "node:net"
import { DEFAULT_TEST_DATABASE_URL, startThrowawayCluster } from "@shoplink/vitest-config/postgres"
import pg from "pg"

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** A loopback port free right now. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

const serverAnswers = async (url) => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * Makes sure SHOPLINK_TEST_DATABASE_URL (default 127.0.0.1:5432) answers, starting a throwaway
 * cluster when it does not; returns that cluster (to `stop()` at the end) or undefined.
 */
export const ensureServer = async (log) => {
  const server = process.env.SHOPLINK_TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL
  if (await serverAnswers(server)) return undefined
  const cluster = await startThrowawayCluster()
  process.env.SHOPLINK_TEST_DATABASE_URL = cluster.url
  log(`no server at ${server}: started a throwaway cluster`)
  return cluster
}

/** Every child process started, so the caller can kill them all whatever happens. */
export const children = new Set()
export const killAll = () => {
  for (const child of children) child.kill("SIGKILL")
  children.clear()
}

/** A node process that is ready once it prints `readyLine` (a regexp); `output()` is all it printed. */
export const startProcess = (name, args, env, readyLine) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    children.add(child)
    let output = ""
    let ready = false
    child.stdout.on("data", (chunk) => {
      output += chunk
      const match = readyLine.exec(output)
      if (match && !ready) {
        ready = true
        resolve({ name, child, match, output: () => output, stop: () => stop(child) })
      }
    })
    child.stderr.on("data", (chunk) => (output += chunk))
    child.once("exit", (code, signal) => {
      if (!ready) reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output.slice(-2000)}`))
    })
  })

/** Kills `child` with SIGKILL and waits for it to be gone. */
export const stop = (child) =>
  new Promise((resolve) => {
    children.delete(child)
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGKILL")
  })

/** A quote webhook for repair order `ro`; its product id carries the delivery's number `n`. */
export const quoteBody = (ro, n) =>
  JSON.stringify({
    referenceID: ro,
    quotes: [{
      acaPartTerminologyID: 5340, productID: `${ro}#${n}`, brandID: "WIX", categoryID: "FLT", productDesc: "Oil Filter",
      orderByTime: 1763769600000, dispatchTime: 1763773200000, quantityAvail: 12, quantityReq: 1,
      price: 6.49, listPrice: 9.99, corePrice: 0, weight: 0.8, quality: "", makeId: 0, subtotal: 6.49
    }]
  })
