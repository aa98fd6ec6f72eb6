import { describe, expect, it } from "@effect/vitest"
import { ConfigError, Either } from "effect"
import { spawnSync } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ServiceMain, SignIn } from "@shoplink/service-pages"

const { configErrorLines } = ServiceMain
const parseUsers = (text: string) => SignIn.parseUsers(text, { hashHint: "`shoplink-hash-password`" })

const main = join(import.meta.dirname, "..", "dist", "main.js")

/**
 * Runs the built service with only `env` (plus PATH, and port 0 so that a setting checked after
 * listening never meets a port another program holds) set; it must stop before serving.
 */
const start = (env: Record<string, string>) =>
  spawnSync(process.execPath, [main], {
    cwd: mkdtempSync(join(tmpdir(), "sample-settings-")),
    env: { PATH: process.env["PATH"] ?? "", PORT: "0", ...env },
    encoding: "utf8",
    timeout: 30_000
  })

const HASH = "scrypt:16384:8:1:AAAAAAAAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

/** A users file with one valid user. */
const usersFile = () => {
  const file = join(mkdtempSync(join(tmpdir(), "sample-users-")), "users.json")
  writeFileSync(
    file,
    JSON.stringify([{ email: "ava@mainstreet.example", name: "Ava", shopId: "main-street", passwordHash: HASH }])
  )
  return file
}

describe("shopmonkey-sample configuration errors", () => {
  it("SHOPLINK_PUNCHOUT_BASE_URL without the rest: one line per missing variable, what it is for, no secret", () => {
    const secret = "vendor-secret-value-4242"
    const result = start({ SHOPLINK_PUNCHOUT_BASE_URL: "http://127.0.0.1:9", SHOPLINK_VENDOR_API_KEY: secret })
    expect(result.status).toBe(2)
    expect(result.stdout).toBe("")
    const lines = result.stderr.trimEnd().split("\n")
    expect(lines[0]).toBe("Configuration error, 2 settings to fix:")
    expect(lines.slice(1, 3)).toEqual([
      "  SHOPLINK_SECRET_KEYS (the keyring sealing the service's stored secrets) is missing",
      "  SHOPLINK_USERS_FILE (a JSON file of the users who may sign in to the service's pages) is missing"
    ])
    expect(result.stderr).toContain("unset them all for the embedded default")
    // Neither the Effect error tree on one line nor any value.
    expect(result.stderr).not.toContain("Missing data at")
    expect(result.stderr).not.toContain(secret)
    expect(result.stderr).not.toContain("<redacted>")
    for (const line of lines) expect(line.length).toBeLessThan(100)
  })

  it("real-service mode without SHOPLINK_SECRET_KEYS does not start: exit 2 and one line naming it", () => {
    const result = start({
      SHOPLINK_PUNCHOUT_BASE_URL: "http://127.0.0.1:9",
      SHOPLINK_VENDOR_API_KEY: "vendor-key",
      SHOPLINK_SHOPMONKEY_BASE_URL: "http://127.0.0.1:9/v3",
      SHOPLINK_USERS_FILE: usersFile()
    })
    expect(result.status).toBe(2)
    expect(result.stdout).toBe("")
    const lines = result.stderr.trimEnd().split("\n")
    expect(lines[0]).toBe("Configuration error, 1 setting to fix:")
    expect(lines.filter((line) => line.startsWith("  "))).toEqual([
      "  SHOPLINK_SECRET_KEYS (the keyring sealing the service's stored secrets) is missing"
    ])
  })

  it("a malformed SHOPLINK_SECRET_KEYS is named with the problem, never the key", () => {
    const key = "k1:c2hvcnQta2V5LXZhbHVl"
    const result = start({
      SHOPLINK_PUNCHOUT_BASE_URL: "http://127.0.0.1:9",
      SHOPLINK_VENDOR_API_KEY: "vendor-key",
      SHOPLINK_SECRET_KEYS: key,
      SHOPLINK_USERS_FILE: usersFile()
    })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(
      "  SHOPLINK_SECRET_KEYS (the keyring sealing the service's stored secrets) is invalid: key k1 is 15 bytes; AES-256 needs 32"
    )
    expect(result.stderr).not.toContain("c2hvcnQta2V5LXZhbHVl")
  })

  it("an invalid value is named with the reason", () => {
    const result = start({ PORT: "eighty" })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain("  PORT (the port this service listens on) is invalid: ")
  })

  it("SHOPLINK_DATABASE_URL of another scheme is named with the problem, its password masked, before anything is opened", () => {
    const result = start({ SHOPLINK_DATABASE_URL: "mysql://root:hunter2@db.internal/shoplink" })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(
      `SHOPLINK_DATABASE_URL (the connector service's database, a SQLite file or a postgres:// URL) is invalid: unsupported scheme "mysql:"`
    )
    expect(result.stderr).not.toContain("hunter2")
  })

  it("SHOPLINK_DATABASE_URL where nothing answers: one line at start-up, password masked", () => {
    const result = start({ SHOPLINK_DATABASE_URL: "postgres://shoplink:hunter2@127.0.0.1:9/shoplink" })
    expect(result.status).toBe(1)
    expect(result.stderr.trim()).toBe(
      "Could not start: database postgres://shoplink:***@127.0.0.1:9/shoplink: nothing answers at that host and port (is PostgreSQL running there?)"
    )
  })

  it("walks And/Or trees into one line per problem and never repeats an invalid secret's message", () => {
    const error = ConfigError.And(
      ConfigError.MissingData(["SHOPLINK_PUNCHOUT_BASE_URL"], "Expected SHOPLINK_PUNCHOUT_BASE_URL to exist"),
      ConfigError.Or(
        ConfigError.InvalidData(["SHOPLINK_VENDOR_API_KEY"], "Expected a key but received hunter2"),
        ConfigError.InvalidData(["SHOPLINK_SECRET_KEYS"], "key k1 is 16 bytes; AES-256 needs 32")
      )
    )
    expect(configErrorLines(error)).toEqual([
      "SHOPLINK_PUNCHOUT_BASE_URL (the Punchout API base URL) is missing",
      "SHOPLINK_VENDOR_API_KEY (the distributor's vendor API key, for Punchout) is invalid",
      "SHOPLINK_SECRET_KEYS (the keyring sealing the service's stored secrets) is invalid: key k1 is 16 bytes; AES-256 needs 32"
    ])
  })

  it("the standard settings' problems read after the variable's name (SettingsTable.problemOf)", () => {
    expect(configErrorLines(ConfigError.InvalidData(["SHOPLINK_PUBLIC_BASE_URL"], "is not a URL: \"parts\""))).toEqual([
      "SHOPLINK_PUBLIC_BASE_URL (where the distributor and browsers reach the service's public routes (webhooks, callback page)) is not a URL: \"parts\""
    ])
  })

  it("the users file: emails lower-cased, a hash from hash-password required, duplicates refused", () => {
    const ok = parseUsers(
      JSON.stringify([{ email: " Ava@MainStreet.example", shopId: "main-street", passwordHash: HASH }])
    )
    expect(ok).toEqual(
      Either.right([{
        email: "ava@mainstreet.example",
        name: "ava@mainstreet.example",
        shopId: "main-street",
        passwordHash: HASH
      }])
    )
    expect(parseUsers("[{\"email\":\"a@b\",\"shopId\":\"s\",\"passwordHash\":\"hunter2\"}]")).toEqual(
      Either.left("user 1: passwordHash must come from `shoplink-hash-password` (scrypt:…)")
    )
    expect(Either.isLeft(parseUsers(JSON.stringify([
      { email: "a@b", shopId: "s", passwordHash: HASH },
      { email: "A@b", shopId: "t", passwordHash: HASH }
    ])))).toBe(true)
    expect(parseUsers("nope")).toEqual(
      Either.left("not JSON: expected [{ \"email\", \"name\", \"shopId\", \"passwordHash\" }, …]")
    )
  })
})
