/**
 * `ExitCode`: the `shoplink` process exit codes, and how an error maps to one, so scripts can tell
 * a typo from a bad key from a distributor refusal from a network problem.
 *
 * @since 0.1.0
 */
import * as ValidationError from "@effect/cli/ValidationError"
import { MessageError } from "@shoplink/protocol"

/**
 * The exit codes: 0 ok, 1 anything else, 2 usage or configuration error, 3 authentication error,
 * 4 distributor error (a message ID other than auth), 5 transport error.
 *
 * @example
 * import { ExitCode } from "@shoplink/cli"
 * console.log(ExitCode.ExitCode.Auth) // 3
 *
 * @since 0.1.0
 */
export const ExitCode = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
  Auth: 3,
  Distributor: 4,
  Transport: 5
} as const

/**
 * One of the exit codes.
 *
 * @example
 * import type { ExitCode } from "@shoplink/cli"
 * const code: ExitCode.Code = 4
 *
 * @since 0.1.0
 */
export type Code = (typeof ExitCode)[keyof typeof ExitCode]

const tagOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string"
    ? error._tag
    : undefined

const usageTags = new Set(["ConfigProblem", "UsageError", "InvalidInput", "ConfigurationError"])
const transportTags = new Set(["PunchoutTransportError", "RequestFailed"])
const distributorTags = new Set(["DropShipAddressRejected", "OrderAlreadySubmittedAfterRetry"])

/**
 * The exit code for an error: CLI parse errors, configuration problems and inputs refused before
 * sending are usage errors; message IDs of the `auth` retry class are auth errors; other message IDs
 * are distributor errors; failures to exchange a request are transport errors.
 *
 * @example
 * import { ExitCode } from "@shoplink/cli"
 * import { InvalidApiKey, OrderLocked } from "@shoplink/protocol"
 * ExitCode.exitCodeOf(new InvalidApiKey({ httpStatus: 401 })) // 3
 * ExitCode.exitCodeOf(new OrderLocked({ httpStatus: 200 })) // 4
 *
 * @since 0.1.0
 */
export const exitCodeOf = (error: unknown): Code => {
  if (ValidationError.isValidationError(error)) return ExitCode.Usage
  if (MessageError.isMessageError(error)) {
    return error.retryClass === "auth" ? ExitCode.Auth : ExitCode.Distributor
  }
  const tag = tagOf(error)
  if (tag === undefined) return ExitCode.Failure
  if (usageTags.has(tag)) return ExitCode.Usage
  if (transportTags.has(tag)) return ExitCode.Transport
  if (distributorTags.has(tag)) return ExitCode.Distributor
  return ExitCode.Failure
}

/**
 * The exit codes as help text (shown in every `--help`).
 *
 * @example
 * import { ExitCode } from "@shoplink/cli"
 * console.log(ExitCode.describe())
 *
 * @since 0.1.0
 */
export const describe = (): ReadonlyArray<readonly [Code, string]> => [
  [0, "ok"],
  [1, "anything else (an unreadable answer, an unexpected failure)"],
  [2, "usage or configuration error (bad arguments, missing setting, input refused before sending)"],
  [3, "authentication error (vendor key, OMS key or customer token refused)"],
  [4, "distributor error: the service answered a message ID (printed, e.g. API0258)"],
  [5, "transport error (connection refused, reset, timeout, 5xx without an answer)"]
]
