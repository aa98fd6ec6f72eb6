// The embedded default with the sample service on loopback (real HTTP, a real SQLite file), and
// signed-in clients of its two demo users.
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Settings, startApp } from "../src/app.js"
import { loopbackSettings, startEmbedded } from "../src/embedded.js"
import { WebClient } from "@shoplink/connector-testkit"
import type { ServiceApp } from "@shoplink/service-pages"

export const PASSWORDS = ["ava-password-for-tests", "ben-password-for-tests"] as const

export const startSample = (overrides: Partial<Settings> = {}) =>
  Effect.gen(function*() {
    const embedded = yield* startEmbedded({ passwords: PASSWORDS })
    const dir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "sample-test-"))),
      (d) => Effect.sync(() => rmSync(d, { recursive: true, force: true }))
    )
    const app: ServiceApp.RunningApp = yield* startApp(
      loopbackSettings(embedded, {
        smsVendorName: "Sample tests",
        database: { sqlite: join(dir, "db.sqlite") },
        ...overrides
      })
    ).pipe(Effect.orDie)
    return { embedded, app, dir }
  })

/** A client signed in as the demo user of shop A (`ava`) or shop B (`ben`). */
export const signedIn = (baseUrl: string, who: "ava" | "ben") =>
  Effect.promise(async () => {
    const client = WebClient.make(baseUrl)
    const [email, password] = who === "ava"
      ? ["ava@mainstreet.example", PASSWORDS[0]]
      : ["ben@maplegarage.example", PASSWORDS[1]]
    const answer = await client.signIn(email, password)
    if (answer.status !== 303) throw new Error(`sign-in of ${email} answered ${answer.status}`)
    // A page with forms, so the client holds the session's CSRF token.
    await client.get("/")
    return client
  })

export const call = <A>(f: () => Promise<A>) => Effect.promise(f)
