// Scrubs secrets from text that may end up in errors or logs (response excerpts, parse messages).
import * as Redacted from "effect/Redacted"

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi
const SECRET_QUERY = /\b(token|apitoken|apikey)=[^&\s"'<>]*/gi
const SECRET_FIELD = /("(?:token|apiToken|apiKey|APIToken|APIKey)"\s*:\s*)"[^"]*"/g

/** Replaces the known secrets, anything shaped like a session token, and secret-named fields. */
export const redactText = (text: string, secrets: ReadonlyArray<Redacted.Redacted<string>> = []): string => {
  let out = text
  for (const secret of secrets) {
    const value = Redacted.value(secret)
    if (value.length > 0) out = out.split(value).join("<redacted>")
  }
  return out
    .replace(SECRET_FIELD, "$1\"<redacted>\"")
    .replace(SECRET_QUERY, "$1=<redacted>")
    .replace(UUID, "<redacted>")
}

/** The start of a body, redacted, for error messages. */
export const excerpt = (body: string, secrets: ReadonlyArray<Redacted.Redacted<string>> = [], max = 200): string => {
  const redacted = redactText(body, secrets)
  return redacted.length > max ? `${redacted.slice(0, max)}…` : redacted
}
