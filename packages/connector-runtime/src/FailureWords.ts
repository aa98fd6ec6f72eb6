/**
 * What a failure means for the people who meet it (a service writer on a page, an operator in the
 * console): which system failed, whether Shoplink retries by itself, and what to do. Read from the
 * error texts the runtime stores and the adapters write (`ShopSystemError`, the SMS clients'
 * errors, the worker's own), so it works for any stored entry.
 *
 * @since 0.1.0
 */

/**
 * The family of a failure: decides the words and whether retrying can help.
 *
 * @example
 * import { FailureWords } from "@shoplink/connector-runtime"
 * const kind: FailureWords.FailureKind = "unavailable"
 *
 * @since 0.1.0
 */
export type FailureKind =
  | "authentication"
  | "unavailable"
  | "notFound"
  | "rejected"
  | "verification"
  | "unreadable"
  | "internal"

/**
 * A failure in words.
 *
 * @example
 * import { FailureWords } from "@shoplink/connector-runtime"
 * const words: FailureWords.FailureWords = FailureWords.describeFailure(
 *   "Shopmonkey createPart (POST /v3/part) failed: HTTP 503"
 * )
 *
 * @since 0.1.0
 */
export interface FailureWords {
  readonly kind: FailureKind
  /** Who failed or refused: the SMS by name, "the distributor", or "Shoplink". */
  readonly system: string
  /** What happened, in a sentence without its full stop: "Shopmonkey refused this shop's credentials". */
  readonly what: string
  /** Whether waiting (or Shoplink's automatic retries) may cure it. */
  readonly transient: boolean
  /** For a refusal of credentials: what must be connected again. */
  readonly reconnect?: string
}

const SMS_FALLBACK = "the shop-management system"

/** The SMS an adapter's error names ("Shopmonkey createPart (POST /v3/…) failed: …"), if any. */
const smsIn = (error: string): string | undefined =>
  /(?:^|: )([A-Z][A-Za-z0-9]+) [A-Za-z]+ \((?:GET|POST|PUT|PATCH|DELETE) /.exec(error)?.[1] ??
    /\b([A-Z][A-Za-z0-9]+) refused the client credentials\b/.exec(error)?.[1]

const AUTH =
  /\bAPI0(?:202|204|206|207|244)\b|\bAPI key expired\b|\b(?:HttpStatus|HTTP) (?:401|403)\b|refused the client credentials|\bUNAUTHORI[SZ]ED\b|\bUnauthori[sz]ed\b|\b(?:invalid|wrong|expired) (?:api )?(?:key|token|credentials)\b/i
const UNAVAILABLE =
  /timed out|\bTimeout\b|\bTransport\b|\bHttpStatus (?:408|429|5\d\d)\b|\bHTTP (?:408|429|5\d\d)\b|\banswered (?:408|429|5\d\d)\b|\(retryable\)|ECONNREFUSED|ECONNRESET|ENOTFOUND|socket hang up|unavailable|could not be reached/i

/**
 * The failure a stored or raised error text describes. `smsName` names the shop-management system
 * when the text does not (the adapter's name for it, e.g. "Shopmonkey").
 *
 * @example
 * import { FailureWords } from "@shoplink/connector-runtime"
 * FailureWords.describeFailure("request timed out", "Shopmonkey").transient // true
 *
 * @since 0.1.0
 */
export const describeFailure = (error: string | undefined, smsName?: string): FailureWords => {
  const text = error ?? ""
  const sms = smsIn(text) ?? smsName ?? SMS_FALLBACK
  if (/^stored body does not decode|the decoder failed/.test(text)) {
    return {
      kind: "unreadable",
      system: "the distributor",
      what: "the distributor's message could not be read",
      transient: false
    }
  }
  if (/^order verification/.test(text) && AUTH.test(text)) {
    return {
      kind: "authentication",
      system: "the distributor",
      what: "the distributor refused the integration's credentials when asked to confirm the order",
      transient: false,
      reconnect: "The integration's connection to the distributor must be renewed"
    }
  }
  if (/^order verification unavailable/.test(text)) {
    return {
      kind: "unavailable",
      system: "the distributor",
      what: "the distributor could not be reached to confirm the order",
      transient: true
    }
  }
  if (/^order verification failed/.test(text)) {
    return {
      kind: "verification",
      system: "the distributor",
      what: "the distributor did not confirm this order",
      transient: false
    }
  }
  if (/^adapter defect/.test(text)) {
    return {
      kind: "internal",
      system: "Shoplink",
      what: `an internal error stopped Shoplink from writing to ${sms}`,
      transient: true
    }
  }
  if (/^parts ledger/.test(text)) {
    return {
      kind: "unavailable",
      system: "Shoplink",
      what: "Shoplink's database could not keep the parts",
      transient: true
    }
  }
  if (AUTH.test(text)) {
    return {
      kind: "authentication",
      system: sms,
      what: `${sms} refused this shop's credentials`,
      transient: false,
      reconnect: `The shop must be connected to ${sms} again`
    }
  }
  if (UNAVAILABLE.test(text)) {
    return { kind: "unavailable", system: sms, what: `${sms} could not be reached`, transient: true }
  }
  if (/\bnot found\b|\bHttpStatus 404\b|\bRepairOrderNotFound\b/i.test(text)) {
    return { kind: "notFound", system: sms, what: `${sms} no longer has this repair order`, transient: false }
  }
  return { kind: "rejected", system: sms, what: `${sms} did not accept the part lines`, transient: false }
}

/**
 * The short reference of an inbox entry a service writer can read out to an administrator: the
 * first 8 characters of its id, upper case. `shoplink inbox show <reference>` finds it (ids are
 * matched by their first 8+ characters, in any case).
 *
 * @example
 * import { FailureWords } from "@shoplink/connector-runtime"
 * FailureWords.referenceOf("3f2a9c1e-0000-4000-8000-000000000000") // "3F2A9C1E"
 *
 * @since 0.1.0
 */
export const referenceOf = (entryId: string): string => entryId.replace(/-/g, "").slice(0, 8).toUpperCase()

/**
 * What to do about a failure that will not be retried: never a command, always who acts.
 *
 * @example
 * import { FailureWords } from "@shoplink/connector-runtime"
 * FailureWords.whatToDo(FailureWords.describeFailure("HTTP 401", "Tekmetric"), "3F2A9C1E")
 *
 * @since 0.1.0
 */
export const whatToDo = (words: FailureWords, reference: string | undefined): string => {
  const notified = `your administrator has been notified${reference === undefined ? "" : ` (reference ${reference})`}`
  switch (words.kind) {
    case "authentication":
      return `${words.reconnect ?? `The shop must be connected to ${words.system} again`}; ${notified}.`
    case "notFound":
      return `Check the repair order in ${words.system}; ${notified}.`
    default:
      return `${notified.charAt(0).toUpperCase()}${notified.slice(1)} and can send them again once it is fixed.`
  }
}

/**
 * One dead delivery in words: what happened, that it is not retried automatically, and what to do.
 *
 * @example
 * import { FailureWords } from "@shoplink/connector-runtime"
 * FailureWords.deadDeliveryText("HTTP 401", "3f2a9c1e-0000-4000-8000-000000000000", "Tekmetric")
 *
 * @since 0.1.0
 */
export const deadDeliveryText = (error: string | undefined, entryId: string | undefined, smsName?: string): string => {
  const words = describeFailure(error, smsName)
  const retried = words.transient
    ? "Shoplink tried several times and has stopped."
    : "Retrying cannot help, so it is not retried automatically."
  return `${capitalized(words.what)}. ${retried} ${
    whatToDo(words, entryId === undefined ? undefined : referenceOf(entryId))
  }`
}

/**
 * One delivery that failed and will be tried again, in words.
 *
 * @example
 * import { FailureWords } from "@shoplink/connector-runtime"
 * FailureWords.retryingDeliveryText("request timed out", "Shopmonkey")
 *
 * @since 0.1.0
 */
export const retryingDeliveryText = (error: string | undefined, smsName?: string): string => {
  const words = describeFailure(error, smsName)
  return `${capitalized(words.what)}; Shoplink retries automatically, nothing to do.`
}

const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`
