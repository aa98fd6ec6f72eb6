// A real PostgreSQL server for tests, never a mock.
//
// - The server: SHOPLINK_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
// - When nothing answers there, `postgresGlobalSetup` (a vitest globalSetup) starts a throwaway
//   cluster with Debian's initdb/pg_ctl (/usr/lib/postgresql/*/bin; as the `postgres` user when
//   running as root) in a temporary folder on a free port, points SHOPLINK_TEST_DATABASE_URL at it
//   for the test workers, and stops it and removes the folder at the end.
// - Each test gets a database of its own with a random name (`testDatabase`), dropped afterwards,
//   so a developer's data is never touched.
// - Without PostgreSQL installed, the suite fails with one line saying how to install it.
import { spawnSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"

export const DEFAULT_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres"

const serverUrl = () => process.env.SHOPLINK_TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL

const answers = async (url) => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 })
  try {
    await client.connect()
    await client.query("SELECT 1")
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
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

/** Debian's PostgreSQL binaries, newest major version first; undefined when none is installed. */
export const postgresBinaries = () => {
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))).sort((a, b) =>
    Number(b) - Number(a)
  )
  return versions.length === 0 ? undefined : join(root, versions[0], "bin")
}

const NOT_INSTALLED =
  "PostgreSQL is not installed: run `apt-get install postgresql` (or set SHOPLINK_TEST_DATABASE_URL to a server that accepts postgres with trust auth)"

/** Starts a throwaway cluster; returns its URL and a function that stops it and removes its folder. */
export const startThrowawayCluster = async () => {
  const bin = postgresBinaries()
  if (bin === undefined) throw new Error(NOT_INSTALLED)
  const dir = mkdtempSync(join(tmpdir(), "shoplink-pg-"))
  const data = join(dir, "data")
  const asRoot = process.getuid?.() === 0
  // initdb refuses to run as root: the cluster belongs to the postgres user.
  const run = (command, args) => {
    const result = asRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", join(bin, command), ...args], { encoding: "utf8" })
      : spawnSync(join(bin, command), args, { encoding: "utf8" })
    if (result.status !== 0) {
      throw new Error(
        `${command} failed: ${(result.stderr || result.stdout || String(result.error)).trim().split("\n").at(-1)}`
      )
    }
  }
  if (asRoot) {
    const id = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" })
    const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" })
    if (id.status !== 0) {
      throw new Error(`running as root and there is no postgres user to own a throwaway cluster; ${NOT_INSTALLED}`)
    }
    chownSync(dir, Number(id.stdout.trim()), Number(gid.stdout.trim()))
  }
  const port = await freePort()
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])
  run("pg_ctl", [
    "-D",
    data,
    "-w",
    "-t",
    "30",
    "-l",
    join(dir, "log"),
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    "start"
  ])
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
}

/**
 * vitest globalSetup: makes sure SHOPLINK_TEST_DATABASE_URL answers, starting a throwaway cluster
 * when it does not; the returned teardown stops that cluster.
 */
export const postgresGlobalSetup = async () => {
  if (await answers(serverUrl())) return () => {}
  const cluster = await startThrowawayCluster()
  process.env.SHOPLINK_TEST_DATABASE_URL = cluster.url
  return () => cluster.stop()
}

const withDatabase = (url, name) => {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

/**
 * A new database with a random name on the test server; `drop()` removes it (with its
 * connections). The URL names the database, ready for `SHOPLINK_DATABASE_URL` or a PgClient.
 */
export const testDatabase = async () => {
  const server = serverUrl()
  const name = `shoplink_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`
  const admin = new pg.Client({ connectionString: server, connectionTimeoutMillis: 5_000 })
  try {
    await admin.connect()
  } catch (error) {
    throw new Error(
      `no PostgreSQL server answers at ${server.replace(/\/\/[^@]*@/, "//…@")} (${error.message}); ${
        postgresBinaries() === undefined ? NOT_INSTALLED : "add postgresGlobalSetup to the vitest config's globalSetup"
      }`,
      { cause: error }
    )
  }
  try {
    await admin.query(`CREATE DATABASE "${name}"`)
  } finally {
    await admin.end().catch(() => {})
  }
  return {
    name,
    url: withDatabase(server, name),
    drop: async () => {
      const client = new pg.Client({ connectionString: server, connectionTimeoutMillis: 5_000 })
      await client.connect()
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      } finally {
        await client.end().catch(() => {})
      }
    }
  }
}
