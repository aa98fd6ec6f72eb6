// Settings that are wrong on their face fail when the client is built, not at the first call.
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import { ConfigurationError } from "../PunchoutError.js"
import { Deadline, Retry } from "@shoplink/http"
import type { PunchoutClientOptions } from "../PunchoutClient.js"

export interface Settings {
  /** No trailing slash. */
  readonly baseUrl: string
  readonly timeout: Duration.Duration
  readonly retry: Retry.RetryPolicy
}

const problem = (setting: string, text: string) =>
  Either.left(new ConfigurationError({ client: "Punchout", setting, problem: text }))

const duration = (input: Duration.DurationInput): Duration.Duration | undefined => {
  try {
    return Duration.decode(input)
  } catch {
    return undefined
  }
}

// A timer cannot wait longer (about 24.8 days).
const MAX_TIMEOUT_MILLIS = Deadline.MAX_MILLIS

export const checkSettings = (options: PunchoutClientOptions): Either.Either<Settings, ConfigurationError> => {
  const rawUrl = typeof options.baseUrl === "string" ? options.baseUrl.trim() : ""
  if (rawUrl === "") return problem("baseUrl", "must not be empty")
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    return problem("baseUrl", `must be an absolute http(s) URL, got ${JSON.stringify(rawUrl.slice(0, 80))}`)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return problem("baseUrl", `must be an http(s) URL, got ${url.protocol}`)
  }
  if (url.search !== "" || url.hash !== "") return problem("baseUrl", "must not have a query or a fragment")
  if (url.username !== "" || url.password !== "") return problem("baseUrl", "must not carry credentials")

  if (!Redacted.isRedacted(options.vendorApiKey)) return problem("vendorApiKey", "must be a Redacted string")
  const key = Redacted.value(options.vendorApiKey)
  if (typeof key !== "string" || key.trim() === "") return problem("vendorApiKey", "must not be empty")

  const timeout = duration(options.requestTimeout ?? "30 seconds")
  if (timeout === undefined || !Duration.isFinite(timeout) || Duration.toMillis(timeout) <= 0) {
    return problem("requestTimeout", "must be a positive duration such as \"10 seconds\"")
  }
  if (Duration.toMillis(timeout) > MAX_TIMEOUT_MILLIS) return problem("requestTimeout", "must be at most 24 days")

  const retry = Retry.validate(options.retry)
  if (Either.isLeft(retry)) return problem(retry.left.setting, retry.left.problem)
  return Either.right({ baseUrl: rawUrl.replace(/\/+$/, ""), timeout, retry: retry.right })
}
