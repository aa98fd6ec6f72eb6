/**
 * URLs of the browser commands ShowCatalog and ShowOrder: the session's template filled with the
 * command, the token and the parameters, after the spec's rules are checked (searchTerm needs a
 * vehicle; licensePlate needs licensePlateState; VIN shape). Only the current parameter names are
 * ever written; the earlier `licenseState` and `baseVehicleId` are refused with their replacements.
 * The URL carries the session token, so it is returned `Redacted`: unwrap it only to open it.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { Punchout, Violation } from "@shoplink/protocol"
import { commandUrlObject } from "./internal/urls.js"
import { InvalidInput } from "./PunchoutError.js"
import type { PunchoutSession } from "./PunchoutSession.js"

/**
 * ShowCatalog parameters. Give a vehicle (`vin`, `licensePlate` + `licensePlateState`, or
 * `baseVehicleID`) with a `searchTerm`.
 *
 * @example
 * import type { ShowUrls } from "@shoplink/punchout"
 * const params: ShowUrls.ShowCatalogInput = {
 *   searchTerm: "brake pads",
 *   licensePlate: "8ABC123",
 *   licensePlateState: "CA"
 * }
 *
 * @since 0.1.0
 */
export interface ShowCatalogInput {
  readonly searchTerm?: string
  readonly vin?: string
  readonly licensePlate?: string
  readonly licensePlateState?: string
  readonly baseVehicleID?: string
  readonly referenceID?: string
}

/**
 * ShowOrder parameters.
 *
 * @example
 * import type { ShowUrls } from "@shoplink/punchout"
 * const params: ShowUrls.ShowOrderInput = { orderId: "10423", referenceID: "RO-1042" }
 *
 * @since 0.1.0
 */
export interface ShowOrderInput {
  readonly orderId: string
  readonly referenceID?: string
}

const invalid = (command: "ShowCatalog" | "ShowOrder", field: string, rule: string) =>
  new InvalidInput({ operation: command, field, rule })

const invalidParams = (command: "ShowCatalog" | "ShowOrder") => (error: ParseResult.ParseError) => {
  const violation = Violation.first(error)
  return invalid(command, violation.field, violation.rule)
}

const build = (
  session: PunchoutSession,
  command: "ShowCatalog" | "ShowOrder",
  encoded: Readonly<Record<string, string | undefined>>
): Redacted.Redacted<string> => {
  const url = commandUrlObject(session, command)
  for (const [name, value] of Object.entries(encoded)) {
    if (value !== undefined) url.searchParams.set(name, value)
  }
  return Redacted.make(url.toString())
}

const withoutUndefined = (record: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined))

/**
 * The ShowCatalog URL for a session, or `InvalidInput` naming the broken rule.
 *
 * @example
 * import { Either, Redacted } from "effect"
 * import { ShowUrls, type PunchoutSession } from "@shoplink/punchout"
 * const open = (session: PunchoutSession.PunchoutSession) =>
 *   ShowUrls.showCatalogUrl(session, { searchTerm: "brake pads", vin: "1M8GDM9AXKP042788" }).pipe(
 *     Either.map((url) => Redacted.value(url)) // hand to the browser; never log it
 *   )
 *
 * @since 0.1.0
 */
export const showCatalogUrl = (
  session: PunchoutSession,
  params: ShowCatalogInput = {}
): Either.Either<Redacted.Redacted<string>, InvalidInput> => {
  for (const [legacy, current] of Object.entries(Punchout.LEGACY_SHOW_CATALOG_PARAMETERS)) {
    if (legacy in params) {
      return Either.left(invalid("ShowCatalog", legacy, `was renamed ${current} (2025-04-22): pass ${current}`))
    }
  }
  const input = withoutUndefined({
    ...params,
    ...(params.vin === undefined ? {} : { vin: params.vin.trim().toUpperCase() }),
    token: session.token
  })
  return Schema.encodeUnknownEither(Punchout.ShowCatalogParams, { onExcessProperty: "error" })(input).pipe(
    Either.mapLeft(invalidParams("ShowCatalog")),
    Either.map(({ token: _token, ...rest }) => build(session, "ShowCatalog", rest))
  )
}

/**
 * The ShowOrder URL for a session and order number.
 *
 * @example
 * import { Either, Redacted } from "effect"
 * import { ShowUrls, type PunchoutSession } from "@shoplink/punchout"
 * const open = (session: PunchoutSession.PunchoutSession) =>
 *   ShowUrls.showOrderUrl(session, { orderId: "10423" }).pipe(Either.map(Redacted.value))
 *
 * @since 0.1.0
 */
export const showOrderUrl = (
  session: PunchoutSession,
  params: ShowOrderInput
): Either.Either<Redacted.Redacted<string>, InvalidInput> =>
  Schema.encodeUnknownEither(Punchout.ShowOrderParams, { onExcessProperty: "error" })(
    withoutUndefined({ ...params, token: session.token })
  ).pipe(
    Either.mapLeft(invalidParams("ShowOrder")),
    Either.map(({ token: _token, ...rest }) => build(session, "ShowOrder", rest))
  )
