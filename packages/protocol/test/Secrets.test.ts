// Redacted fields never print their value: not through String(), JSON.stringify, util.inspect,
// Effect's loggers or parse errors.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Inspectable, Logger, Redacted, Schema } from "effect"
import { inspect } from "node:util"
import { Punchout } from "../src/index.js"
import { CUSTOMER_API_TOKEN, punchoutSamples, SESSION_TOKEN, VENDOR_API_KEY } from "./fixtures/samples.js"

const secrets = [SESSION_TOKEN, VENDOR_API_KEY, CUSTOMER_API_TOKEN]

const renderings = (value: unknown): ReadonlyArray<string> => [
  String(value),
  `${value as string}`,
  JSON.stringify(value),
  inspect(value, { depth: Infinity }),
  inspect(value, { depth: Infinity, getters: true }),
  Inspectable.format(value),
  Inspectable.toStringUnknown(value)
]

const expectNoSecret = (texts: ReadonlyArray<string>) => {
  for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret)
}

const createRequest = punchoutSamples.find((sample) => sample.name === "create session request")!.wire
const createResponse = punchoutSamples.find((sample) => sample.name === "create session response (success)")!.wire as {
  readonly punchout: unknown
}

const decoded = {
  CreateSessionRequest: Schema.decodeUnknownSync(Punchout.CreateSessionRequest)(createRequest),
  SessionGranted: Schema.decodeUnknownSync(Punchout.SessionGranted)(createResponse.punchout),
  CreateSessionResponse: Schema.decodeUnknownSync(Punchout.CreateSessionResponse)(createResponse),
  ShowCatalogParams: Schema.decodeUnknownSync(Punchout.ShowCatalogParams)({
    token: SESSION_TOKEN,
    baseVehicleID: "5678"
  }),
  ShowCatalogQuery: Schema.decodeUnknownSync(Punchout.ShowCatalogQuery)({
    token: SESSION_TOKEN,
    baseVehicleID: "5678"
  }),
  ShowOrderParams: Schema.decodeUnknownSync(Punchout.ShowOrderParams)({ token: SESSION_TOKEN, orderId: "10423" })
}

describe("secrets never print", () => {
  it.each(Object.entries(decoded))("a decoded %s", (_, value) => {
    expectNoSecret(renderings(value))
  })

  it("the values are still there for the code that needs them", () => {
    expect(Redacted.value(decoded.CreateSessionRequest.apiKey)).toBe(VENDOR_API_KEY)
    expect(Redacted.value(decoded.CreateSessionRequest.apiToken)).toBe(CUSTOMER_API_TOKEN)
    expect(Redacted.value(decoded.SessionGranted.token)).toBe(SESSION_TOKEN)
    expect(decoded.SessionGranted.url).toContain(SESSION_TOKEN)
    expect(Redacted.value(decoded.ShowCatalogParams.token)).toBe(SESSION_TOKEN)
  })

  it("the session URL prints with its token masked, and still encodes in full", () => {
    expect(JSON.stringify(decoded.SessionGranted)).toContain("token=<redacted>")
    expect(inspect(decoded.SessionGranted)).toContain("token=<redacted>")
    expect(Schema.encodeSync(Punchout.SessionGranted)(decoded.SessionGranted)).toEqual(createResponse.punchout)
    expect(Schema.encodeSync(Punchout.CreateSessionResponse)(decoded.CreateSessionResponse)).toEqual(createResponse)
    expect(Punchout.redactSessionUrl(`https://d.example/punchout/v1/{command}?a=1&token=${SESSION_TOKEN}&b=2`)).toBe(
      "https://d.example/punchout/v1/{command}?a=1&token=<redacted>&b=2"
    )
  })

  it.effect("Effect's loggers print them redacted", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const capture = (logger: Logger.Logger<unknown, string>) => Logger.map(logger, (line) => lines.push(line))
      const loggers = Logger.zip(capture(Logger.logfmtLogger), capture(Logger.jsonLogger))
      yield* Effect.forEach(Object.values(decoded), (value) => Effect.log("decoded", value)).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, loggers))
      )
      expect(lines.length).toBe(2 * Object.keys(decoded).length)
      expectNoSecret(lines)
    }))

  it("parse errors of a request with secrets do not show them", () => {
    const result = Schema.decodeUnknownEither(Punchout.CreateSessionRequest)(
      { ...(createRequest as object), accountNo: "", country: "MX" },
      { errors: "all" }
    )
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expectNoSecret([String(result.left), result.left.message])
  })

  it("parse errors of a session with a bad expiration do not show the token", () => {
    const punchout = { ...(createResponse.punchout as object), expiration: "soon" }
    const result = Schema.decodeUnknownEither(Punchout.SessionGranted)(punchout)
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expectNoSecret([String(result.left)])
  })

  it("encoding writes the secrets on the wire only", () => {
    const wire = Schema.encodeSync(Punchout.CreateSessionRequest)(decoded.CreateSessionRequest)
    expect(wire.apiKey).toBe(VENDOR_API_KEY)
    expect(wire.apiToken).toBe(CUSTOMER_API_TOKEN)
    expect(Schema.encodeSync(Punchout.ShowCatalogQuery)(decoded.ShowCatalogParams)).toEqual({
      token: SESSION_TOKEN,
      baseVehicleID: "5678"
    })
  })
})
