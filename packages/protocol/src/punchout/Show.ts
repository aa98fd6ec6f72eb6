/**
 * Query parameters of the browser commands ShowCatalog and ShowOrder, with the spec's rules:
 * `searchTerm` needs a vehicle (vin, licensePlate or baseVehicleID); `licensePlate` needs
 * `licensePlateState`; the earlier names `licenseState` and `baseVehicleId` are refused with a
 * message naming their replacements.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { NonBlank } from "../internal/fields.js"
import { ReferenceId, StateCode } from "../Values.js"
import { Vin } from "../Vin.js"

/**
 * The parameter names ShowCatalog replaced on 2025-04-22, and their current names.
 *
 * @example
 * import { Punchout } from "@shoplink/protocol"
 * Punchout.LEGACY_SHOW_CATALOG_PARAMETERS.licenseState // "licensePlateState"
 *
 * @since 0.1.0
 */
export const LEGACY_SHOW_CATALOG_PARAMETERS = {
  licenseState: "licensePlateState",
  baseVehicleId: "baseVehicleID"
} as const

/**
 * An ACES base vehicle ID: digits.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(Punchout.BaseVehicleId)("5678")
 *
 * @since 0.1.0
 * @category schemas
 */
export const BaseVehicleId = Schema.String.pipe(
  Schema.filter((s) =>
    /^\d{1,10}$/.test(s) || `baseVehicleID must be an ACES base vehicle ID (digits), got ${JSON.stringify(s)}`
  )
).annotations({
  identifier: "BaseVehicleId",
  arbitrary: () => (fc) => fc.integer({ min: 1, max: 999_999 }).map(String)
})

const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

const ShowCatalogFields = Schema.Struct({
  token: Schema.Redacted(NonBlank("token")),
  searchTerm: optional(NonBlank("searchTerm")),
  vin: optional(Vin),
  licensePlate: optional(NonBlank("licensePlate")),
  licensePlateState: optional(StateCode),
  baseVehicleID: optional(BaseVehicleId),
  referenceID: optional(ReferenceId)
})

/**
 * What is wrong with a combination of ShowCatalog parameters, or `undefined`.
 *
 * @example
 * import { Punchout } from "@shoplink/protocol"
 * Punchout.showCatalogRuleProblem({ searchTerm: "brake pads" })
 * // "searchTerm needs a vehicle: give vin, licensePlate with licensePlateState, or baseVehicleID"
 *
 * @since 0.1.0
 */
export const showCatalogRuleProblem = (params: {
  readonly searchTerm?: string | undefined
  readonly vin?: string | undefined
  readonly licensePlate?: string | undefined
  readonly licensePlateState?: string | undefined
  readonly baseVehicleID?: string | undefined
}): string | undefined => {
  if (params.licensePlate !== undefined && params.licensePlateState === undefined) {
    return "licensePlate must be accompanied by licensePlateState"
  }
  if (params.licensePlateState !== undefined && params.licensePlate === undefined) {
    return "licensePlateState is only used with licensePlate"
  }
  const hasVehicle = params.vin !== undefined || params.licensePlate !== undefined || params.baseVehicleID !== undefined
  if (params.searchTerm !== undefined && !hasVehicle) {
    return "searchTerm needs a vehicle: give vin, licensePlate with licensePlateState, or baseVehicleID"
  }
  return undefined
}

/**
 * ShowCatalog parameters (token `Redacted` in code).
 *
 * @example
 * import { Redacted, Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.encodeSync(Punchout.ShowCatalogParams)({
 *   token: Redacted.make("0f9c"), searchTerm: "brake pads", vin: "1M8GDM9AXKP042788" as any
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const ShowCatalogParams = ShowCatalogFields.pipe(
  Schema.filter((params) => showCatalogRuleProblem(params) ?? true)
).annotations({
  identifier: "ShowCatalogParams",
  arbitrary: () => (fc) =>
    fc.record({
      token: fc.uuid(),
      vin: fc.option(fc.constantFrom("1M8GDM9AXKP042788", "1HGCM82633A004352"), { nil: undefined }),
      referenceID: fc.option(fc.string(), { nil: undefined })
    }).map(({ referenceID, token, vin }) => ({
      token: Schema.decodeSync(Schema.Redacted(Schema.String))(token),
      ...(vin === undefined ? {} : { vin: vin as Vin, searchTerm: "brake pads" }),
      ...(referenceID === undefined ? {} : { referenceID })
    }))
})
/** @since 0.1.0 */
export type ShowCatalogParams = typeof ShowCatalogParams.Type

/**
 * ShowCatalog parameters read from a query string's name/value record, refusing the earlier
 * names `licenseState` and `baseVehicleId` with a message that names the current ones.
 *
 * @example
 * import { Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * const query = Object.fromEntries(new URLSearchParams("token=0f9c&baseVehicleID=5678"))
 * Schema.decodeUnknownSync(Punchout.ShowCatalogQuery)(query).baseVehicleID // "5678"
 *
 * @since 0.1.0
 * @category schemas
 */
export const ShowCatalogQuery = Schema.transformOrFail(
  Schema.Record({ key: Schema.String, value: Schema.String }),
  Schema.typeSchema(ShowCatalogParams),
  {
    strict: true,
    decode: (query, options, ast) => {
      const legacy = Object.entries(LEGACY_SHOW_CATALOG_PARAMETERS).find(([old]) => old in query)
      if (legacy !== undefined) {
        return ParseResult.fail(
          new ParseResult.Type(
            ast,
            query,
            `parameter ${legacy[0]} was renamed ${legacy[1]} (2025-04-22): send ${legacy[1]}`
          )
        )
      }
      return ParseResult.decodeUnknown(ShowCatalogParams)(query, options)
    },
    encode: (params, options) =>
      ParseResult.encode(ShowCatalogParams)(params, options).pipe(
        Effect.map((encoded) =>
          Object.fromEntries(Object.entries(encoded).filter(([, v]) => v !== undefined)) as Record<string, string>
        )
      )
  }
).annotations({ identifier: "ShowCatalogQuery" })

/**
 * ShowOrder parameters: the token, the order number (spelled `orderId`), and an optional reference.
 *
 * @example
 * import { Redacted, Schema } from "effect"
 * import { Punchout } from "@shoplink/protocol"
 * Schema.encodeSync(Punchout.ShowOrderParams)({ token: Redacted.make("0f9c"), orderId: "10423" })
 *
 * @since 0.1.0
 * @category schemas
 */
export const ShowOrderParams = Schema.Struct({
  token: Schema.Redacted(NonBlank("token")),
  orderId: NonBlank("orderId"),
  referenceID: optional(ReferenceId)
}).annotations({ identifier: "ShowOrderParams" })
/** @since 0.1.0 */
export type ShowOrderParams = typeof ShowOrderParams.Type
