/**
 * How a secret is shown to a person when an error must say which one was refused: never whole,
 * at most its last four characters, and those only when it is long enough for that to be safe.
 *
 * @since 0.1.0
 */
import * as Redacted from "effect/Redacted"

/**
 * `<redacted>…` and the secret's last four characters (12 or more characters), else `<redacted>`.
 *
 * @example
 * import { Redacted } from "effect"
 * import { Mask } from "@shoplink/http"
 * Mask.secret(Redacted.make("sk-test-0123456789abcd")) // "<redacted>…abcd"
 * Mask.secret("short") // "<redacted>"
 *
 * @since 0.1.0
 */
export const secret = (value: Redacted.Redacted<string> | string): string => {
  const text = Redacted.isRedacted(value) ? Redacted.value(value) : value
  return text.length >= 12 ? `<redacted>…${text.slice(-4)}` : "<redacted>"
}
