// The full program behind the `shoplink` bin, loaded only when a command actually runs.
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { run } from "../Cli.js"
import * as Logging from "./logging.js"

export const main = (argv: ReadonlyArray<string>): void =>
  // Log lines once, on stderr (Logging): not also through runMain's pretty logger.
  NodeRuntime.runMain(run(argv).pipe(Effect.provide(NodeContext.layer), Effect.provide(Logging.layer)), {
    disableErrorReporting: true,
    disablePrettyLogger: true,
    teardown: (exit, onExit) => {
      if (Exit.isSuccess(exit)) onExit(exit.value as number)
      else onExit(Cause.isInterruptedOnly(exit.cause) ? 0 : 1)
    }
  })
