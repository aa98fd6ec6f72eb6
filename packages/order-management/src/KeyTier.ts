/**
 * Which tier (test or production) an API key belongs to. The spec only says each tier has its own
 * key (Authentication rule 4), not how to tell them apart, so the tier is either configured or
 * guessed by a classifier; a mismatch with the environment is a configuration error before any
 * request.
 *
 * @since 0.1.0
 */
import { OrderManagement } from "@shoplink/protocol"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import { configurationError } from "./internal/configurationError.js"
import type { ConfigurationError } from "./OrderManagementError.js"

/**
 * A key tier.
 *
 * @example
 * import type { KeyTier } from "@shoplink/order-management"
 * const tier: KeyTier.KeyTier = "test"
 *
 * @since 0.1.0
 */
export type KeyTier = "test" | "production"

/**
 * Guesses the tier of a key; `undefined` when it cannot tell.
 *
 * @example
 * import type { KeyTier } from "@shoplink/order-management"
 * const alwaysTest: KeyTier.KeyClassifier = () => "test"
 *
 * @since 0.1.0
 */
export type KeyClassifier = (apiKey: Redacted.Redacted<string>) => KeyTier | undefined

const testWord = /(^|[^a-z])(test|qua|qa|sandbox)([^a-z]|$)/i
const prodWord = /(^|[^a-z])(prod|prd|production|live)([^a-z]|$)/i

/**
 * The default classifier: a key containing the word `test`, `qua`, `qa` or `sandbox` is a test
 * key, one containing `prod`, `prd`, `production` or `live` a production key (so the sandbox's
 * `sbx-oms-test-…` / `sbx-oms-prod-…` are recognised); anything else, or both, is unknown and
 * not checked.
 *
 * @example
 * import { Redacted } from "effect"
 * import { KeyTier } from "@shoplink/order-management"
 * KeyTier.classifyByName(Redacted.make("sbx-oms-prod-key-0001")) // "production"
 * KeyTier.classifyByName(Redacted.make("5f1c9a")) // undefined
 *
 * @since 0.1.0
 */
export const classifyByName: KeyClassifier = (apiKey) => {
  const key = Redacted.value(apiKey)
  const test = testWord.test(key)
  const prod = prodWord.test(key)
  return test === prod ? undefined : test ? "test" : "production"
}

/**
 * Checks a key against an environment: fails with `ConfigurationError` when the key's tier
 * (configured, else classified) is not the environment's.
 *
 * @example
 * import { Either, Redacted } from "effect"
 * import { KeyTier } from "@shoplink/order-management"
 * const result = KeyTier.check({ environment: "US_PRD", apiKey: Redacted.make("sbx-oms-test-key-0001") })
 * Either.isLeft(result) // true
 *
 * @since 0.1.0
 */
export const check = (options: {
  readonly environment: OrderManagement.Environment
  readonly apiKey: Redacted.Redacted<string>
  readonly keyTier?: KeyTier | undefined
  readonly classifyKey?: KeyClassifier | undefined
}): Either.Either<void, ConfigurationError> => {
  const wanted: KeyTier = OrderManagement.ENVIRONMENTS[options.environment].tier
  const tier = options.keyTier ?? (options.classifyKey ?? classifyByName)(options.apiKey)
  if (tier === undefined || tier === wanted) return Either.void
  return Either.left(
    configurationError("apiKey", `a ${tier} key cannot be used with the ${wanted} environment ${options.environment}`)
  )
}
