// Failures the CLI itself raises (beyond configuration problems and the clients' errors).
import { Data } from "effect"

/** Arguments that parse but make no sense together. Exit code 2. */
export class UsageError extends Data.TaggedError("UsageError")<{
  readonly message: string
  readonly fix?: string
}> {}

/** A local action failed (opening the browser, binding a port). Exit code 1. */
export class LocalFailure extends Data.TaggedError("LocalFailure")<{
  readonly message: string
  readonly fix?: string
}> {}
