// What `pnpm chaos` (run.mjs) and its bench (bench.mjs) share: processes, ports, the PostgreSQL
// server, and the quote webhook they post.
import { spawn, spawnSync } from "node:child_process"
import { chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DEFAULT_TEST_DATABASE_URL, postgresBinaries, startThrowawayCluster } from "@shoplink/vitest-config/postgres"
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

/**
 * A PostgreSQL cluster of this run's own (Debian's initdb/pg_ctl, as the `postgres` user when run
 * as root, in a temporary folder on a free port), which `restart("fast" | "immediate")` restarts:
 * never the machine's shared server. `options`: extra `-c name=value` settings. Returns its URL
 * (database `postgres`), `restart`, `startedAt()` (pg_postmaster_start_time, to prove a restart),
 * `log()` (the server log) and `stop()` (stops it and removes the folder).
 */
export const startOwnCluster = async (settings = {}) => {
  const bin = postgresBinaries()
  if (bin === undefined) throw new Error("PostgreSQL is not installed: run `apt-get install postgresql`")
  const dir = mkdtempSync(join(tmpdir(), "shoplink-chaos-pg-"))
  const data = join(dir, "data")
  const logFile = join(dir, "log")
  const asRoot = process.getuid?.() === 0
  const run = (command, args) => {
    const result = asRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", join(bin, command), ...args], { encoding: "utf8" })
      : spawnSync(join(bin, command), args, { encoding: "utf8" })
    if (result.status !== 0) {
      throw new Error(
        `${command} ${args.at(-1)} failed: ${
          (result.stderr || result.stdout || String(result.error)).trim().split("\n").at(-1)
        }`
      )
    }
  }
  if (asRoot) {
    const uid = Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim())
    const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim())
    chownSync(dir, uid, gid)
  }
  const port = await freePort()
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c max_connections=300",
    ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)
  ].join(" ")
  const start = () => run("pg_ctl", ["-D", data, "-w", "-t", "60", "-l", logFile, "-o", options, "start"])
  start()
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  const startedAt = async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 })
    await client.connect()
    try {
      return String((await client.query("SELECT pg_postmaster_start_time()::text AS t")).rows[0].t)
    } finally {
      await client.end().catch(() => {})
    }
  }
  return {
    url,
    port,
    dir,
    startedAt,
    log: () => readFileSync(logFile, "utf8"),
    /**
     * Stops the server with `mode` (fast: disconnects clients and checkpoints; immediate: as a crash)
     * and starts it again.
     */
    restart: (mode) => {
      run("pg_ctl", ["-D", data, "-m", mode, "-w", "-t", "60", "stop"])
      start()
    },
    stop: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
}

/** A new database on `serverUrl`'s server; `drop()` removes it with its connections. */
export const newDatabase = async (serverUrl) => {
  const name = `shoplink_run_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE "${name}"`)
  } finally {
    await admin.end().catch(() => {})
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl })
      await client.connect()
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      } finally {
        await client.end().catch(() => {})
      }
    }
  }
}

/** Every child process started, so the caller can kill them all whatever happens. */
export const children = new Set()
export const killAll = () => {
  for (const child of children) child.kill("SIGKILL")
  children.clear()
}

/**
 * On Ctrl-C or SIGTERM: the processes this run started and its own cluster (`currentCluster()`,
 * possibly not started yet) go too, and the run exits 130.
 */
export const cleanUpOnInterrupt = (currentCluster) => {
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      killAll()
      try {
        currentCluster()?.stop()
      } finally {
        process.exit(130)
      }
    })
  }
}

/** A node process that is ready once it prints `readyLine` (a regexp); `output()` is all it printed. */
export const startProcess = (name, args, env, readyLine, wrapper = []) =>
  new Promise((resolve, reject) => {
    const [command, ...rest] = [...wrapper, process.execPath, ...args]
    const child = spawn(command, rest, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
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
      acaPartTerminologyID: 5340,
      productID: `${ro}#${n}`,
      brandID: "WIX",
      categoryID: "FLT",
      productDesc: "Oil Filter",
      orderByTime: 1763769600000,
      dispatchTime: 1763773200000,
      quantityAvail: 12,
      quantityReq: 1,
      price: 6.49,
      listPrice: 9.99,
      corePrice: 0,
      weight: 0.8,
      quality: "",
      makeId: 0,
      subtotal: 6.49
    }]
  })
