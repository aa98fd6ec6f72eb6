// Failures the CLI itself raises (beyond configuration problems and the clients' errors).
import * as Data from "effect/Data"

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

/**
 * An inbox entry id that names no entry: not an id at all, unknown, or a prefix of several. Exit
 * code 1, like an unknown shop or key id (exitCodeOf maps every tag it does not know to 1).
 */
export class EntryNotFound extends Data.TaggedError("EntryNotFound")<{
  readonly message: string
  readonly fix?: string
}> {}

/** An inbox entry in the wrong state for the command (replaying an applied one). Exit code 1. */
export class EntryNotDead extends Data.TaggedError("EntryNotDead")<{
  readonly message: string
  readonly fix?: string
}> {}
