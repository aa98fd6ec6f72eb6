// Small field schemas shared by both wire models.
import * as Schema from "effect/Schema"

/** An absolute http(s) URL. */
export const HttpUrl = Schema.String.pipe(
  Schema.filter((s) => {
    try {
      const url = new URL(s)
      return url.protocol === "http:" || url.protocol === "https:" || `must be an http(s) URL, got ${JSON.stringify(s)}`
    } catch {
      return `must be an absolute http(s) URL, got ${JSON.stringify(s)}`
    }
  })
).annotations({
  identifier: "HttpUrl",
  arbitrary: () => (fc) => fc.webUrl({ withQueryParameters: false, withFragments: false })
})

/** An identifier the spec types as string that a server might send as a number. */
export const IdString = Schema.Union(Schema.String, Schema.Number.pipe(Schema.int())).pipe(
  Schema.transform(Schema.String, {
    strict: true,
    decode: (value) => String(value),
    encode: (value) => value
  })
).annotations({ identifier: "IdString" })

/** A string that must not be blank. */
export const NonBlank = (field: string) =>
  Schema.String.pipe(Schema.filter((s) => s.trim().length > 0 || `${field} must not be empty`))

/**
 * An identifier: a string (an integer number is read as its digits) that is not blank and has at
 * most `max` characters. Bounded so a hostile body cannot pass a 200 KB key downstream.
 */
export const BoundedId = (field: string, max: number) =>
  IdString.pipe(
    Schema.filter((s) =>
      s.trim().length === 0
        ? `${field} must not be empty`
        : s.length <= max || `${field} must be at most ${max} characters, got ${s.length}`
    )
  ).annotations({
    arbitrary: () => (fc) => fc.stringMatching(new RegExp(`^[A-Za-z0-9-]{1,${Math.min(max, 12)}}$`))
  })
