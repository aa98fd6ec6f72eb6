// Printable forms of a call with the credentials replaced, for logs, spans, errors and support.
import type { SupportReport } from "../OrderManagementError.js"

export const REDACTED = "<redacted>"

/** The URL as it may be shown anywhere: `APIToken` replaced, other parameters kept. */
export const redactedUrl = (baseUrl: string, path: string, query: Readonly<Record<string, string>>): string => {
  const params = new URLSearchParams({ APIToken: REDACTED, ...query })
  // URLSearchParams would write "%3Credacted%3E"; keep the marker readable.
  return `${baseUrl}${path}?${params.toString().replace("APIToken=%3Credacted%3E", `APIToken=${REDACTED}`)}`
}

/** The API0500 support report: call, headers and payload without credentials. */
export const supportReport = (options: {
  readonly method: string
  readonly basePath: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  readonly body: unknown
}): SupportReport => ({
  method: options.method,
  path: `${options.basePath}${options.path}`,
  query: { APIToken: REDACTED, ...options.query },
  headers: { APIKey: REDACTED, accept: "application/json" },
  payload: options.body ?? null
})
