/**
 * `ExitCode`: the `shoplink` process exit codes, and how an error maps to one, so scripts can tell
 * a typo from a bad key from a distributor refusal from a network problem.
 *
 * @since 0.1.0
 */
import * as ValidationError from "@effect/cli/ValidationError"
import { MessageError } from "@shoplink/protocol"
import { EXIT_CODE_TEXT, EXIT_CODES } from "./internal/exitCodes.js"

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
export const ExitCode = EXIT_CODES

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

// InvalidShop: onboarding input the shop store refuses before storing anything (`shops add`).
const usageTags = new Set(["UsageError", "InvalidInput", "InvalidShop"])

/**
 * Whether an error says the configuration is wrong: the CLI's own `ConfigProblem`, Effect's
 * `ConfigError`, and the clients' configuration errors raised when their layer is built
 * (`OrderManagementError.ConfigurationError`, and any `…ConfigurationError` class). Matched by
 * `_tag` so that a client's new configuration error class maps to exit code 2 without a CLI change.
 *
 * @example
 * import { ExitCode } from "@shoplink/cli"
 * import { OrderManagementError } from "@shoplink/order-management"
 * const error = new OrderManagementError.ConfigurationError({ setting: "apiKey", problem: "is empty" })
 * ExitCode.isConfigurationError(error) // true
 * ExitCode.isConfigurationError(new Error("boom")) // false
 *
 * @since 0.1.0
 */
export const isConfigurationError = (error: unknown): boolean => {
  const tag = tagOf(error)
  return tag !== undefined && (tag === "ConfigProblem" || tag === "ConfigError" || tag.endsWith("ConfigurationError"))
}
// @shoplink/http's transport errors: no answer, or no answer in time. An answer that is not the
// API's counts as a transport failure when its status is transient (a gateway's 502, a 408).
const transportTags = new Set(["RequestFailed", "Timeout"])
const transientStatus = (error: unknown): boolean => {
  const status = (error as { readonly httpStatus?: unknown }).httpStatus
  return typeof status === "number" && (status === 408 || status >= 500)
}
const distributorTags = new Set(["DropShipAddressRejected", "OrderAlreadySubmittedAfterRetry"])

/**
 * The exit code for an error: CLI parse errors, configuration problems and inputs refused before
 * sending (or before storing, `InvalidShop`) are usage errors; message IDs of the `auth` retry class
 * are auth errors; other message IDs are distributor errors; failures to exchange a request are
 * transport errors. Anything else is 1, among them an id that names no record (`ShopNotFound`,
 * `ApiKeyNotFound`, `EntryNotFound`: the tag tells them apart in `--json` output) and an inbox entry
 * in the wrong state (`EntryNotDead`).
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
  if (isConfigurationError(error)) return ExitCode.Usage
  const tag = tagOf(error)
  if (tag === undefined) return ExitCode.Failure
  if (usageTags.has(tag)) return ExitCode.Usage
  if (transportTags.has(tag) || (tag === "UnexpectedResponse" && transientStatus(error))) return ExitCode.Transport
  if (distributorTags.has(tag)) return ExitCode.Distributor
  return ExitCode.Failure
}

/**
 * The exit codes as help text (shown in `shoplink --help`).
 *
 * @example
 * import { ExitCode } from "@shoplink/cli"
 * console.log(ExitCode.describe())
 *
 * @since 0.1.0
 */
export const describe = (): ReadonlyArray<readonly [Code, string]> => EXIT_CODE_TEXT
