// The message catalogue against the spec's Errors table, the error classes made from its rows,
// fromReport and Envelope.classify.
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck, Schema } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Protocol from "../src/index.js"
import { Envelope, MessageCatalog, MessageError, MessageErrors } from "../src/index.js"

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))
const specCandidates = [`${repoRoot}docs/spec/order-management-api.md`]

interface SpecRow {
  readonly id: string
  readonly text: string
  readonly meaning: string
}

const readSpecErrorsTable = (): ReadonlyArray<SpecRow> => {
  const path = specCandidates.find((candidate) => existsSync(candidate))
  if (path === undefined) throw new Error(`order-management-api.md not found; looked at:\n${specCandidates.join("\n")}`)
  const markdown = readFileSync(path, "utf8")
  const section = markdown.split(/^## /m).find((part) => part.startsWith("Errors"))
  if (section === undefined) throw new Error(`${path} has no "## Errors" section`)
  return section.split("\n")
    .map((line) => /^\|\s*(API\d{4})\s*\|(.*)\|(.*)\|\s*$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ id: match[1]!, text: match[2]!.trim(), meaning: match[3]!.trim() }))
}

const entries = Object.entries(MessageCatalog.messages) as ReadonlyArray<
  readonly [MessageCatalog.MessageId, MessageCatalog.MessageEntry]
>

describe("MessageCatalog.messages matches the spec's Errors table", () => {
  const rows = readSpecErrorsTable()

  it("the table was read", () => {
    expect(rows.length).toBeGreaterThanOrEqual(60)
    expect(rows[0]).toEqual({ id: "API0200", text: "Successful", meaning: "Call executed" })
  })

  it("every spec ID is in the catalogue with the spec's text and meaning", () => {
    const problems: Array<string> = []
    for (const row of rows) {
      const entry = MessageCatalog.isMessageId(row.id) ? MessageCatalog.messages[row.id] : undefined
      if (entry === undefined) problems.push(`${row.id} is missing`)
      else {
        if (entry.text !== row.text) {
          problems.push(`${row.id} text ${JSON.stringify(entry.text)} ≠ spec ${JSON.stringify(row.text)}`)
        }
        if (entry.meaning !== row.meaning) {
          problems.push(`${row.id} meaning ${JSON.stringify(entry.meaning)} ≠ spec ${JSON.stringify(row.meaning)}`)
        }
        if (entry.api !== "order-management") problems.push(`${row.id} is not marked order-management`)
      }
    }
    expect(problems).toEqual([])
  })

  it("the catalogue has no order-management ID the spec lacks", () => {
    const specIds = new Set(rows.map((row) => row.id))
    const extra = entries.filter(([id, entry]) => entry.api === "order-management" && !specIds.has(id)).map(([id]) =>
      id
    )
    expect(extra).toEqual([])
  })

  it("the only Punchout ID is UNAUTHORIZED", () => {
    expect(entries.filter(([, entry]) => entry.api === "punchout").map(([id]) => id)).toEqual(["UNAUTHORIZED"])
    expect(MessageCatalog.messages.UNAUTHORIZED.text).toBe("Unauthorized")
  })

  it("success and status kinds", () => {
    expect(entries.filter(([, entry]) => entry.kind === "success").map(([id]) => id)).toEqual(["API0200"])
    expect(entries.filter(([, entry]) => entry.kind === "status").map(([id]) => id)).toEqual([
      "API0282",
      "API0283",
      "API0284",
      "API0285",
      "API0286"
    ])
    for (const id of ["API0200", "API0282", "API0283", "API0284", "API0285", "API0286"]) {
      expect(MessageCatalog.isSuccessId(id)).toBe(true)
    }
    for (const id of ["API0258", "UNAUTHORIZED", "API9999", ""]) expect(MessageCatalog.isSuccessId(id)).toBe(false)
    expect(MessageCatalog.isMessageId("toString")).toBe(false)
  })
})

describe("MessageCatalog rows: HTTP status and related field", () => {
  it("HTTP statuses: 401/403/404/429/500 where listed, 200 for success and status reports, else by retry class", () => {
    const listed: Record<number, ReadonlyArray<string>> = {
      401: ["UNAUTHORIZED", "API0206", "API0207"],
      403: ["API0204", "API0227"],
      404: ["API0202", "API0244", "API0256", "API0270", "API0289"],
      429: ["API0208"],
      500: ["API0276", "API0297", "API0327", "API0500"]
    }
    const expected = (id: string, entry: MessageCatalog.MessageEntry): number => {
      for (const [status, ids] of Object.entries(listed)) if (ids.includes(id)) return Number(status)
      if (entry.kind !== "error") return 200
      return entry.retry === "state" || entry.retry === "retryable" ? 409 : entry.retry === "server" ? 500 : 400
    }
    expect(entries.filter(([id, entry]) => entry.httpStatus !== expected(id, entry)).map(([id]) => id)).toEqual([])
    expect(MessageCatalog.messages.API0258.httpStatus).toBe(409)
    expect(MessageCatalog.messages.API0275.httpStatus).toBe(400)
  })

  it("related request fields: at most one row per field, found by idForField", () => {
    const withField = entries.flatMap(([id, entry]) => (entry.field === undefined ? [] : [[entry.field, id] as const]))
    expect(Object.fromEntries(withField)).toEqual({
      vehicleGroupId: "API0226",
      quantity: "API0231",
      fromDate: "API0263",
      toDate: "API0264",
      vin: "API0267",
      submitDate: "API0269",
      categoryCode: "API0303",
      searchText: "API0304"
    })
    expect(new Set(withField.map(([field]) => field)).size).toBe(withField.length)
    for (const [field, id] of withField) expect(MessageCatalog.idForField(field)).toBe(id)
    expect(MessageCatalog.idForField("customerAccountNo")).toBeUndefined()
    expect(MessageCatalog.idForField("toString")).toBeUndefined()
  })
})

describe("error classes made from the catalogue rows", () => {
  const errorEntries = entries.filter(([id]) => id !== "API0200")

  it("there is one class per non-success ID, and none for API0200", () => {
    expect(Object.keys(MessageErrors.catalogErrorClasses).sort()).toEqual(errorEntries.map(([id]) => id).sort())
  })

  it.each(errorEntries.map(([id, entry]) => [id, entry.errorName, entry] as const))(
    "%s → %s",
    (id, errorName, entry) => {
      const ErrorClass = MessageErrors.catalogErrorClasses[id as keyof typeof MessageErrors.catalogErrorClasses]
      expect(ErrorClass.code).toBe(id)
      // Exported by name at the top level and in MessageErrors.
      expect((Protocol as Record<string, unknown>)[errorName]).toBe(ErrorClass)
      expect((MessageErrors as Record<string, unknown>)[errorName]).toBe(ErrorClass)
      const error = new ErrorClass({ httpStatus: 409, referenceID: "RO-1" })
      expect(error._tag).toBe(errorName)
      expect(error.code).toBe(id)
      expect(error.text).toBe(entry.text)
      expect(error.retryClass).toBe(entry.retry)
      expect(error.message).toBe(`${id}: ${entry.text} (HTTP 409, referenceID RO-1)`)
      expect(error).toBeInstanceOf(Error)
      expect(MessageError.isMessageError(error)).toBe(true)
      expect(MessageError.hasRetryClass(entry.retry)(error)).toBe(true)
    }
  )

  it("retry classes of the codes clients act on", () => {
    const retryOf = (id: MessageCatalog.MessageId) => MessageCatalog.messages[id].retry
    expect(retryOf("API0258")).toBe("retryable")
    expect(retryOf("API0273")).toBe("retryable")
    expect(retryOf("API0208")).toBe("quota")
    for (const id of ["API0204", "API0206", "API0207", "UNAUTHORIZED"] as const) expect(retryOf(id)).toBe("auth")
    expect(retryOf("API0247")).toBe("state")
    expect(retryOf("API0327")).toBe("invalid")
    expect(retryOf("API0500")).toBe("server")
    expect(new Protocol.OrderLocked({ httpStatus: 200 }).retryClass).toBe("retryable")
    expect(new Protocol.MonthlyLimitExceeded({ httpStatus: 429 }).retryClass).toBe("quota")
  })

  it("MessageErrorClass makes a class from a row; each exported class is one", () => {
    class Locked extends MessageErrors.MessageErrorClass("API0258") {}
    const error = new Locked({ httpStatus: 409, referenceID: "RO-2" })
    expect(error).toMatchObject({
      _tag: "OrderLocked",
      code: "API0258",
      text: "Order is locked by another job",
      retryClass: "retryable"
    })
    expect(error.message).toBe("API0258: Order is locked by another job (HTTP 409, referenceID RO-2)")
    expect(Locked.code).toBe("API0258")
    expect(Object.getPrototypeOf(Protocol.OrderLocked)).not.toBe(Object.getPrototypeOf(Locked))
    expect(new Protocol.OrderLocked({ httpStatus: 409, text: "Busy" }).text).toBe("Busy")
  })

  it("decoding an error class keeps its fields (errors can cross process boundaries)", () => {
    const error = new Protocol.OrderInUse({ httpStatus: 409, statusCode: 409, serverVersion: "2.7.3" })
    const copy = Schema.decodeUnknownSync(Protocol.OrderInUse)(Schema.encodeSync(Protocol.OrderInUse)(error))
    expect(copy).toBeInstanceOf(Protocol.OrderInUse)
    expect(copy.message).toBe(error.message)
  })
})

describe("MessageError.fromReport", () => {
  it.each(entries.filter(([id]) => id !== "API0200").map(([id, entry]) => [id, entry.errorName] as const))(
    "%s builds %s and keeps the server's text",
    (id, errorName) => {
      const error = MessageError.fromReport({
        id,
        text: "What this server said",
        httpStatus: 400,
        statusCode: 400,
        referenceID: "RO-7",
        serverVersion: "2.7.3"
      })
      expect(error._tag).toBe(errorName)
      expect(error).toBeInstanceOf(
        MessageErrors.catalogErrorClasses[id as keyof typeof MessageErrors.catalogErrorClasses]
      )
      expect(error).toMatchObject({
        code: id,
        text: "What this server said",
        httpStatus: 400,
        statusCode: 400,
        referenceID: "RO-7",
        serverVersion: "2.7.3"
      })
    }
  )

  it("without a text it uses the catalogue's", () => {
    const error = MessageError.fromReport({ id: "API0208", text: undefined, httpStatus: 429 })
    expect(error._tag).toBe("MonthlyLimitExceeded")
    expect(error.text).toBe("You exceeded use limit for the month")
    expect(error.referenceID).toBeUndefined()
  })

  it("an unknown ID gives UnknownMessage with the ID and text", () => {
    const error = MessageError.fromReport({ id: "API0999", text: "A rule added later", httpStatus: 422 })
    expect(error).toBeInstanceOf(MessageError.UnknownMessage)
    expect(error).toMatchObject({
      _tag: "UnknownMessage",
      code: "API0999",
      text: "A rule added later",
      retryClass: "invalid"
    })
    expect(error.message).toBe("API0999: A rule added later (HTTP 422)")
  })

  it("no ID at all gives UnknownMessage; its retry class follows the HTTP status", () => {
    const at = (httpStatus: number) => MessageError.fromReport({ id: undefined, text: undefined, httpStatus })
    expect(at(503)).toMatchObject({ _tag: "UnknownMessage", code: "", retryClass: "server" })
    expect(at(503).message).toContain("(no message ID)")
    expect(at(429).retryClass).toBe("retryable")
    expect(at(408).retryClass).toBe("retryable")
    expect(at(401).retryClass).toBe("auth")
    expect(at(403).retryClass).toBe("auth")
    expect(at(400).retryClass).toBe("invalid")
  })

  it("never throws, whatever the report", () => {
    FastCheck.assert(
      FastCheck.property(
        FastCheck.option(
          FastCheck.oneof(
            FastCheck.string(),
            FastCheck.constantFrom(...Object.keys(MessageCatalog.messages), "__proto__", "constructor")
          )
        ),
        FastCheck.option(FastCheck.string()),
        FastCheck.integer({ min: 0, max: 999 }),
        (id, text, httpStatus) => {
          const error = MessageError.fromReport({ id: id ?? undefined, text: text ?? undefined, httpStatus })
          return MessageError.isMessageError(error) && typeof error.message === "string"
        }
      ),
      { numRuns: 300 }
    )
  })

  it("isMessageError refuses look-alikes", () => {
    expect(MessageError.isMessageError(new Error("boom"))).toBe(false)
    expect(MessageError.isMessageError({ _tag: "OrderLocked" })).toBe(false)
    expect(MessageError.isMessageError({ _tag: "SomethingElse", code: "API0258" })).toBe(false)
    expect(MessageError.isMessageError(null)).toBe(false)
  })
})

describe("Envelope.classify", () => {
  const envelope = (code: number, message: { text?: string; ID?: string }, extra: object = {}) =>
    Schema.decodeUnknownSync(Envelope.StatusEnvelope)({ serverVersion: "2.7.3", status: { code, message }, ...extra })

  it("200 success", () => {
    expect(Envelope.classify(envelope(200, { text: "Success" }), 200)).toEqual(Either.void)
    expect(Either.isRight(Envelope.classify(envelope(200, { ID: "API0200", text: "Successful" }), 200))).toBe(true)
    expect(Either.isRight(Envelope.classify(envelope(200, { ID: "", text: "Success" }), 200))).toBe(true)
  })

  it("200 + an error ID is that error, whatever the HTTP status", () => {
    const outcome = Envelope.classify(
      envelope(200, { ID: "API0258", text: "Order is locked by another job" }, { referenceID: "RO-3" }),
      200
    )
    expect(Either.isLeft(outcome)).toBe(true)
    if (Either.isLeft(outcome)) {
      expect(outcome.left).toBeInstanceOf(Protocol.OrderLocked)
      expect(outcome.left).toMatchObject({
        httpStatus: 200,
        statusCode: 200,
        referenceID: "RO-3",
        serverVersion: "2.7.3"
      })
      expect(outcome.left.retryClass).toBe("retryable")
    }
  })

  it("401 UNAUTHORIZED", () => {
    const outcome = Envelope.classify(envelope(401, { ID: "UNAUTHORIZED", text: "Unauthorized" }), 401)
    expect(Either.isLeft(outcome) && outcome.left).toBeInstanceOf(Protocol.Unauthorized)
    expect(Either.isLeft(outcome) && outcome.left.retryClass).toBe("auth")
  })

  it("500 + API0327 drop-ship recommendation", () => {
    const outcome = Envelope.classify(
      envelope(500, { ID: "API0327", text: "Drop ship address update is recommended" }),
      500
    )
    expect(Either.isLeft(outcome) && outcome.left).toBeInstanceOf(Protocol.DropShipAddressRecommended)
    expect(Either.isLeft(outcome) && outcome.left).toMatchObject({ httpStatus: 500, statusCode: 500 })
  })

  it("200 + API0283 is a status report: success", () => {
    for (const id of ["API0282", "API0283", "API0284", "API0285", "API0286"]) {
      expect(Either.isRight(Envelope.classify(envelope(200, { ID: id, text: "status" }), 200))).toBe(true)
    }
  })

  it("a non-2xx status code without an ID is UnknownMessage", () => {
    const outcome = Envelope.classify(envelope(503, { text: "Service Unavailable" }), 503)
    expect(Either.isLeft(outcome) && outcome.left).toBeInstanceOf(MessageError.UnknownMessage)
    expect(Either.isLeft(outcome) && outcome.left).toMatchObject({
      code: "",
      text: "Service Unavailable",
      retryClass: "server"
    })
  })

  it("the envelope decides, not the HTTP status", () => {
    // HTTP 500 with a success envelope is success; HTTP 200 with status.code 401 is an error.
    expect(Either.isRight(Envelope.classify(envelope(200, { text: "Success" }), 500))).toBe(true)
    expect(Either.isLeft(Envelope.classify(envelope(401, { text: "Unauthorized" }), 200))).toBe(true)
  })

  it("status.code may arrive as a string; null text and ID read as absent", () => {
    const decoded = Schema.decodeUnknownSync(Envelope.StatusEnvelope)({
      serverVersion: null,
      status: { code: "200", message: { text: null, ID: null } },
      referenceID: null
    })
    expect(decoded).toEqual({ status: { code: 200, message: { text: "" } } })
    expect(Either.isRight(Envelope.classify(decoded, 200))).toBe(true)
  })
})
