import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either, Schema } from "effect"
import { Epoch } from "../src/index.js"

const seconds = 1763769600
const millis = 1763769600000
const iso = "2025-11-22T00:00:00.000Z"

describe("Epoch codecs", () => {
  it.each(
    [
      ["EpochSeconds", Epoch.EpochSeconds],
      ["EpochMillis", Epoch.EpochMillis]
    ] as const
  )("%s: 10-digit seconds and 13-digit milliseconds are the same instant", (_, schema) => {
    const fromSeconds = Schema.decodeUnknownSync(schema)(seconds)
    const fromMillis = Schema.decodeUnknownSync(schema)(millis)
    expect(DateTime.formatIso(fromSeconds)).toBe(iso)
    expect(DateTime.Equivalence(fromSeconds, fromMillis)).toBe(true)
  })

  it("numeric strings are accepted (spaces around them too)", () => {
    const decode = Schema.decodeUnknownSync(Epoch.EpochMillis)
    expect(DateTime.formatIso(decode(String(seconds)))).toBe(iso)
    expect(DateTime.formatIso(decode(String(millis)))).toBe(iso)
    expect(DateTime.formatIso(decode(` ${millis} `))).toBe(iso)
  })

  it("encode writes back the unit it was read in", () => {
    for (const schema of [Epoch.EpochSeconds, Epoch.EpochMillis]) {
      const codec = Schema.decodeUnknownSync(schema)
      expect(Schema.encodeSync(schema)(codec(seconds))).toBe(seconds)
      expect(Schema.encodeSync(schema)(codec(millis))).toBe(millis)
      expect(Schema.encodeSync(schema)(codec(String(millis)))).toBe(millis)
    }
    expect(Epoch.unitRead(Schema.decodeUnknownSync(Epoch.EpochSeconds)(millis))).toBe("milliseconds")
    expect(Epoch.unitRead(Schema.decodeUnknownSync(Epoch.EpochMillis)(seconds))).toBe("seconds")
  })

  it("values made in code use the field's default unit", () => {
    const at = DateTime.unsafeMake(millis + 123)
    expect(Schema.encodeSync(Epoch.EpochSeconds)(at)).toBe(seconds)
    expect(Schema.encodeSync(Epoch.EpochMillis)(at)).toBe(millis + 123)
    // A value moved in code is a new value: it takes the default unit too.
    const read = Schema.decodeUnknownSync(Epoch.EpochSeconds)(millis)
    expect(Schema.encodeSync(Epoch.EpochSeconds)(DateTime.add(read, { hours: 1 }))).toBe(seconds + 3600)
    expect(Epoch.unitRead(at)).toBeUndefined()
  })

  it.each(
    [
      ["empty string", ""],
      ["words", "tomorrow"],
      ["hexadecimal", "0x10"],
      ["exponent", "1e3"],
      ["Infinity text", "Infinity"],
      ["ISO date", "2025-11-22T00:00:00Z"],
      ["negative", -5],
      ["negative text", "-1763769600"],
      ["NaN", Number.NaN],
      ["Infinity", Number.POSITIVE_INFINITY],
      ["out of range", 1.5e300],
      ["null", null],
      ["boolean", true],
      ["object", { seconds }]
    ] as const
  )("garbage is refused: %s", (_, input) => {
    const result = Schema.decodeUnknownEither(Epoch.EpochSeconds)(input)
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect(String(result.left)).toContain("Epoch(seconds)")
  })

  it("unitOf, toEpoch and fromEpoch", () => {
    expect(Epoch.unitOf(seconds)).toBe("seconds")
    expect(Epoch.unitOf(millis)).toBe("milliseconds")
    expect(Epoch.unitOf(Epoch.MILLISECONDS_THRESHOLD - 1)).toBe("seconds")
    expect(Epoch.unitOf(Epoch.MILLISECONDS_THRESHOLD)).toBe("milliseconds")
    expect(Epoch.toEpoch(DateTime.unsafeMake(millis + 999), "seconds")).toBe(seconds)
    expect(Epoch.toEpoch(DateTime.unsafeMake(millis + 999), "milliseconds")).toBe(millis + 999)
    expect(Epoch.fromEpoch("abc")).toBeUndefined()
    expect(Epoch.fromEpoch(0)?.pipe(DateTime.formatIso)).toBe("1970-01-01T00:00:00.000Z")
  })
})
