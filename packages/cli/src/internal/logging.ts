// The CLI's log lines: stdout is each command's output (tables, --json), so log lines go to stderr,
// one logfmt line per event. One logger value, installed by `main` and again by the commands that
// quieten the stores (`quiet`): the same value twice is one logger, so nothing is written twice.
import * as Logger from "effect/Logger"

export const stderrLogger: Logger.Logger<unknown, void> = Logger.withConsoleError(Logger.logfmtLogger)

/** Effect's default logger replaced by `stderrLogger`. */
export const layer = Logger.replace(Logger.defaultLogger, stderrLogger)
