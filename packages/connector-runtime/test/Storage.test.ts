// Storage: one setting picks SQLite or PostgreSQL, and a database that cannot be opened says why in
// one line at start-up, never with its password. Against the real PostgreSQL test server.
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Storage } from "@shoplink/connector-runtime"
import { closedPort } from "@shoplink/vitest-config/net"
import { Cause, Context, Effect, Exit, Layer, Option, Redacted } from "effect"
import { postgres, TestDatabaseUrl } from "./fixtures.js"

const open = (url: string) =>
  Effect.gen(function*() {
    const location = yield* Storage.fromUrl(url)
    return yield* Effect.scoped(Effect.gen(function*() {
      const sql = Context.get(yield* Layer.build(Storage.layer(location)), SqlClient.SqlClient)
      yield* Effect.orDie(sql`SELECT 1`)
    }))
  })

const failure = (url: string) =>
  Effect.gen(function*() {
    const exit = yield* Effect.exit(open(url))
    if (Exit.isSuccess(exit)) throw new Error(`${url} opened`)
    const error = Option.getOrUndefined(Cause.failureOption(exit.cause))
    expect(error?._tag).toBe("StorageUnavailable")
    expect(error!.message.split("\n")).toHaveLength(1)
    return error!.message
  })

describe("Storage.fromUrl", () => {
  it.effect("postgres:// and postgresql:// are PostgreSQL; sqlite: and plain paths are SQLite files", () =>
    Effect.gen(function*() {
      const pg = yield* Storage.fromUrl("postgres://shoplink:pw@db.internal:5432/shoplink")
      expect("postgres" in pg && Redacted.value(pg.postgres)).toBe("postgres://shoplink:pw@db.internal:5432/shoplink")
      expect("postgres" in (yield* Storage.fromUrl("postgresql://db/shoplink"))).toBe(true)
      expect(yield* Storage.fromUrl("sqlite:/var/lib/shoplink.db")).toEqual({ sqlite: "/var/lib/shoplink.db" })
      expect(yield* Storage.fromUrl("./shoplink.db")).toEqual({ sqlite: "./shoplink.db" })
    }))

  it.effect("a wrong scheme or an empty value is refused before anything is opened, with the password masked", () =>
    Effect.gen(function*() {
      for (
        const [url, problem] of [
          ["mysql://root:hunter2@db/shoplink", `database mysql://root:***@db/shoplink: unsupported scheme "mysql:"`],
          ["postgress://u:hunter2@db/x", `database postgress://u:***@db/x: unsupported scheme "postgress:"`],
          ["  ", "the setting is empty"]
        ] as const
      ) {
        const error = yield* Effect.flip(Storage.fromUrl(url))
        expect(error.message).toContain(problem)
        expect(error.message).not.toContain("hunter2")
      }
    }))
})

describe("Storage.postgres at start-up", () => {
  it.effect("a port where nothing listens: one line saying so, no password", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(closedPort)
      const message = yield* failure(`postgres://postgres:hunter2@127.0.0.1:${port}/shoplink`)
      expect(message).toBe(
        `database postgres://postgres:***@127.0.0.1:${port}/shoplink: nothing answers at that host and port (is PostgreSQL running there?)`
      )
    }))

  it.effect("a host that does not resolve", () =>
    Effect.gen(function*() {
      expect(yield* failure("postgres://postgres@no-such-host.invalid:5432/shoplink")).toContain(
        "the host name does not resolve"
      )
    }))

  it.layer(postgres())((it) => {
    it.effect("a user the server refuses, and a database that does not exist; the right URL opens", () =>
      Effect.gen(function*() {
        const url = new URL(yield* TestDatabaseUrl)
        const stranger = new URL(url)
        stranger.username = "no_such_role"
        stranger.password = "hunter2"
        const refused = yield* failure(stranger.toString())
        expect(refused).toContain("the server refused the user name or password")
        expect(refused).not.toContain("hunter2")
        const missing = new URL(url)
        missing.pathname = "/shoplink_no_such_database"
        expect(yield* failure(missing.toString())).toContain("the database does not exist")
        yield* open(url.toString())
      }))
  })
})
