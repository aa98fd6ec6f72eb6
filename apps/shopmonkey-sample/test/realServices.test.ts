// Real-service mode (`pnpm start` with SHOPLINK_PUNCHOUT_BASE_URL): the shops come from the
// database, onboarded beforehand the way `shoplink shops add` does it (the connector's ShopStore on
// the same SQLite file, sealed with SHOPLINK_SECRET_KEYS); users from SHOPLINK_USERS_FILE. Here the
// "real" distributor and Shopmonkey are the sandbox and the fake, on loopback.
import { describe, expect, it } from "@effect/vitest"
import { ShopmonkeyShopSystem } from "@shoplink/adapter-shopmonkey"
import { startFakeShopmonkey } from "@shoplink/adapter-shopmonkey/testing"
import { SecretBox, ShopStore, Storage } from "@shoplink/connector-runtime"
import { startSandbox } from "@shoplink/sandbox"
import { Effect, Either, Layer, Redacted } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SignIn } from "@shoplink/service-pages"
import { WebClient } from "@shoplink/connector-testkit"

const main = join(import.meta.dirname, "..", "dist", "main.js")

describe("shopmonkey-sample with real services configured", () => {
  it.live("serves the shops onboarded in its database to the users of SHOPLINK_USERS_FILE", () =>
    Effect.scoped(Effect.gen(function*() {
      const sandbox = yield* startSandbox()
      const fake = yield* startFakeShopmonkey()
      const dir = yield* Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(join(tmpdir(), "sample-real-"))),
        (d) => Effect.sync(() => rmSync(d, { recursive: true, force: true }))
      )
      const database = join(dir, "shoplink.sqlite")
      const keys = SecretBox.generateKey("k1")
      // What `shoplink shops add maple-garage … --sms-secret apiKey < secrets.json` stores.
      const { ca } = sandbox.credentials.customers
      yield* Effect.flatMap(ShopStore.ShopStore, (store) =>
        store.add({
          id: "maple-garage",
          name: "Maple Garage",
          distributor: {
            accountNo: ca.accountNo,
            username: ca.username,
            country: "CA",
            apiToken: Redacted.make(ca.apiToken)
          },
          sms: { [ShopmonkeyShopSystem.API_KEY_SECRET]: Redacted.make(fake.companies[1]!.apiKey) }
        })).pipe(
          Effect.provide(ShopStore.layerSql.pipe(
            Layer.provide(Storage.sqlite(database)),
            Layer.provide(SecretBox.layer(Either.getOrThrow(SecretBox.parseKeyring(keys))))
          ))
        )
      const usersFile = join(dir, "users.json")
      const passwordHash = yield* Effect.promise(() => SignIn.hashPassword("correct horse battery staple"))
      writeFileSync(
        usersFile,
        JSON.stringify([{ email: "ben@maplegarage.example", name: "Ben", shopId: "maple-garage", passwordHash }])
      )

      const child = yield* Effect.acquireRelease(
        Effect.sync(() =>
          spawn(process.execPath, [main], {
            cwd: dir,
            env: {
              PATH: process.env["PATH"] ?? "",
              PORT: "0",
              SHOPLINK_PUNCHOUT_BASE_URL: sandbox.url,
              SHOPLINK_VENDOR_API_KEY: sandbox.credentials.vendorApiKey,
              SHOPLINK_SHOPMONKEY_BASE_URL: fake.url,
              SHOPLINK_DATABASE_URL: database,
              SHOPLINK_SECRET_KEYS: keys,
              SHOPLINK_USERS_FILE: usersFile
            },
            stdio: ["ignore", "pipe", "pipe"]
          })
        ),
        (c) =>
          Effect.async<void>((resume) => {
            if (c.exitCode !== null) return resume(Effect.void)
            c.once("exit", () => resume(Effect.void))
            c.kill("SIGTERM")
          })
      )
      const { out, url } = yield* Effect.promise(() =>
        new Promise<{ out: string; url: string }>((resolve, reject) => {
          let out = ""
          let err = ""
          child.stderr.on("data", (chunk) => (err += chunk))
          child.stdout.on("data", (chunk) => {
            out += chunk
            const match = /Open (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
            if (match) resolve({ out, url: match[1]! })
          })
          child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}${err}`)))
        })
      )
      expect(out).toContain(`Distributor: ${sandbox.url}`)
      expect(out).not.toContain("No shops in the database yet")
      expect(out).not.toContain(keys.split(":")[1]!)

      const ben = WebClient.make(url)
      expect((yield* Effect.promise(() => ben.signIn("ben@maplegarage.example", "wrong password here"))).status).toBe(
        401
      )
      expect(
        (yield* Effect.promise(() => ben.signIn("ben@maplegarage.example", "correct horse battery staple"))).status
      ).toBe(303)
      const list = yield* Effect.promise(() => ben.get("/"))
      expect([...list.text.matchAll(/data-testid="repair-order" data-ro="(\d+)"/g)].map((m) => m[1])).toEqual([
        "5201",
        "5202",
        "5203"
      ])
      const launched = yield* Effect.promise(() => ben.post("/ro/ord_5201/order-parts"))
      expect(launched.status).toBe(303)
      expect(launched.location).toContain(`${sandbox.url}/punchout/v1/ShowCatalog`)
    })))
})
