/**
 * Order Management environments: Test (`US_QUA`, `CA_QUA`) on the test host and Production
 * (`US_PRD`, `CA_PRD`) on the production host; the base path is the host plus
 * `/web/services/<environment>`.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { OMS_SERVICES } from "../internal/paths.js"
import type { CountryCode } from "../Values.js"

/**
 * What each environment is: its country and whether it is a test or production environment. The
 * environment names are written here only; {@link Environment} is read from these keys.
 *
 * @example
 * import { OrderManagement } from "@shoplink/protocol"
 * OrderManagement.ENVIRONMENTS.CA_PRD // { country: "CA", tier: "production" }
 *
 * @since 0.1.0
 */
export const ENVIRONMENTS = {
  US_QUA: { country: "US", tier: "test" },
  CA_QUA: { country: "CA", tier: "test" },
  US_PRD: { country: "US", tier: "production" },
  CA_PRD: { country: "CA", tier: "production" }
} as const satisfies Record<string, { country: CountryCode; tier: "test" | "production" }>

const names = Object.keys(ENVIRONMENTS) as unknown as readonly [
  keyof typeof ENVIRONMENTS,
  ...Array<keyof typeof ENVIRONMENTS>
]

/**
 * An environment name: a key of {@link ENVIRONMENTS} (`US_QUA`, `CA_QUA`, `US_PRD`, `CA_PRD`).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.Environment)("US_QUA")
 *
 * @since 0.1.0
 * @category schemas
 */
export const Environment = Schema.Literal(...names).annotations({
  identifier: "Environment",
  message: () => ({ message: `environment must be one of ${names.join(", ")}`, override: true })
})
/** @since 0.1.0 */
export type Environment = typeof Environment.Type

/**
 * The environment's path below its host.
 *
 * @example
 * import { OrderManagement } from "@shoplink/protocol"
 * OrderManagement.basePath("US_QUA") // "/web/services/US_QUA"
 *
 * @since 0.1.0
 */
export const basePath = (environment: Environment): string => `${OMS_SERVICES}/${environment}`

/**
 * The environment's full base URL, choosing the test or production host.
 *
 * @example
 * import { OrderManagement } from "@shoplink/protocol"
 * OrderManagement.baseUrl("CA_PRD", { testBaseUrl: "https://test.example", prodBaseUrl: "https://api.example/" })
 * // "https://api.example/web/services/CA_PRD"
 *
 * @since 0.1.0
 */
export const baseUrl = (
  environment: Environment,
  hosts: { readonly testBaseUrl: string; readonly prodBaseUrl: string }
): string => {
  const host = ENVIRONMENTS[environment].tier === "test" ? hosts.testBaseUrl : hosts.prodBaseUrl
  return `${host.replace(/\/+$/, "")}${basePath(environment)}`
}
