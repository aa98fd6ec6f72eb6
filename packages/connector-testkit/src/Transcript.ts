/**
 * The frame of a scripted demo (`pnpm demo` of the sample apps): numbered steps with their details
 * printed as a readable transcript, a scratch folder that lives as long as the demo, and a runner
 * that keeps the service's logs out of the transcript unless something goes wrong and exits 0, or 1
 * with "Demo failed: …". Import it as `@shoplink/connector-testkit/Transcript` (no vitest needed).
 *
 * @since 0.1.0
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import type * as Scope from "effect/Scope"
import * as WebClient from "./WebClient.js"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/**
 * A transcript of `steps` numbered steps.
 *
 * @example
 * import type { Transcript } from "@shoplink/connector-testkit"
 * const finish = (t: Transcript.Transcript) => t.line(`Done in ${t.elapsed()}`)
 *
 * @since 0.1.0
 */
export interface Transcript {
  /** `[n/steps] text`, after a blank line. */
  readonly heading: (text: string) => Effect.Effect<void>
  /** An indented line under the current step. */
  readonly detail: (text: string) => Effect.Effect<void>
  /** A line as it is. */
  readonly line: (text: string) => Effect.Effect<void>
  /** Seconds since the transcript began, like `1.7 s`. */
  readonly elapsed: () => string
}

/**
 * A transcript of `steps` steps, its clock started now.
 *
 * @example
 * import { Effect } from "effect"
 * import * as Transcript from "@shoplink/connector-testkit/Transcript"
 * const demo = Effect.gen(function*() {
 *   const t = Transcript.make(2)
 *   yield* t.heading("Starting the sandbox")
 *   yield* t.detail("sandbox http://127.0.0.1:4000")
 * })
 *
 * @since 0.1.0
 */
export const make = (steps: number): Transcript => {
  let step = 0
  const started = Date.now()
  return {
    heading: (text) => Console.log(`\n[${++step}/${steps}] ${text}`),
    detail: (text) => Console.log(`      ${text}`),
    line: (text) => Console.log(text),
    elapsed: () => `${((Date.now() - started) / 1000).toFixed(1)} s`
  }
}

/**
 * A fresh folder under the system's temporary one, removed when the scope closes.
 *
 * @example
 * import { Effect } from "effect"
 * import * as Transcript from "@shoplink/connector-testkit/Transcript"
 * const database = Effect.map(Transcript.scratchDirectory("acme-demo-"), (dir) => `${dir}/demo.sqlite`)
 *
 * @since 0.1.0
 */
export const scratchDirectory = (prefix: string): Effect.Effect<string, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), prefix))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )

/**
 * Runs a demo to its end in a scope, with log lines below Error left out, then exits the process:
 * 0, or 1 after printing `Demo failed: <reason>` to stderr.
 *
 * @example
 * import { Effect } from "effect"
 * import * as Transcript from "@shoplink/connector-testkit/Transcript"
 * Transcript.run(Effect.gen(function*() {
 *   const t = Transcript.make(1)
 *   yield* t.heading("Nothing to show")
 * }))
 *
 * @since 0.1.0
 */
export const run = <E>(program: Effect.Effect<void, E, Scope.Scope>): void => {
  Effect.runPromise(Effect.scoped(program).pipe(Logger.withMinimumLogLevel(LogLevel.Error))).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`\nDemo failed: ${error instanceof Error ? error.message : String(error)}`)
      process.exit(1)
    }
  )
}

/**
 * Signs each user in to the service at `baseUrl` with a scripted browser of their own, and says
 * in the transcript which repair orders each one's list shows; resolves with the browsers, in the
 * users' order.
 *
 * @example
 * import { Effect } from "effect"
 * import * as Transcript from "@shoplink/connector-testkit/Transcript"
 * declare const users: readonly [
 *   { email: string; password: string; shopName: string },
 *   { email: string; password: string; shopName: string }
 * ]
 * const signedIn = Effect.gen(function*() {
 *   const t = Transcript.make(1)
 *   yield* t.heading("Signing in")
 *   const [ava, ben] = yield* Transcript.signInEach(t, "http://127.0.0.1:3000", users)
 * })
 *
 * @since 0.1.0
 */
export const signInEach = <
  const Users extends ReadonlyArray<{ readonly email: string; readonly password: string; readonly shopName: string }>
>(
  transcript: Transcript,
  baseUrl: string,
  users: Users
): Effect.Effect<{ readonly [K in keyof Users]: WebClient.WebClient }> =>
  Effect.forEach(users, (user) =>
    Effect.gen(function*() {
      const client = yield* Effect.promise(() => WebClient.signedIn(baseUrl, user.email, user.password))
      const listed = yield* Effect.promise(() => client.repairOrders())
      yield* transcript.detail(`${user.email} (${user.shopName}): ${listed.length} repair orders, ${listed.join(", ")}`)
      return client
    })).pipe(
      // One browser per user, in the users' order: the tuple's shape.
      Effect.map((clients) => clients as unknown as { readonly [K in keyof Users]: WebClient.WebClient })
    )
