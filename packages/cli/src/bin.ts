#!/usr/bin/env node
/**
 * The `shoplink` executable: runs `Cli.run` on Node and exits with its code. Ctrl-C ends long-running
 * commands (`sandbox start`, `webhook listen`) cleanly with exit code 0.
 *
 * @example
 * // npx shoplink doctor
 * // node packages/cli/dist/bin.js punchout quotes "oil filter" --json
 *
 * @since 0.1.0
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Exit } from "effect"
import { run } from "./Cli.js"

// `shoplink … | head` closes the pipe early: that is the reader being done, not a failure.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0)
    throw error
  })
}

NodeRuntime.runMain(run(process.argv).pipe(Effect.provide(NodeContext.layer)), {
  disableErrorReporting: true,
  teardown: (exit, onExit) => {
    if (Exit.isSuccess(exit)) onExit(exit.value as number)
    else onExit(Cause.isInterruptedOnly(exit.cause) ? 0 : 1)
  }
})
