// What the fake Shop-Ware does with the operations generated from Shop-Ware's OpenAPI
// (openapi.generated.ts): the route of each, the answer shaped to its response schema, the request
// body checked against its request schema, and a validator of a value against a schema (the subset of
// JSON Schema the document uses: type, nullable, enum, minLength, required, properties, items).
import type * as FakeServer from "@shoplink/connector-testkit/FakeServer"

/** A schema as the generator reduces it. */
export interface Schema {
  readonly type: "object" | "array" | "string" | "integer" | "number" | "boolean"
  readonly nullable?: boolean
  readonly enum?: ReadonlyArray<unknown>
  readonly format?: string
  readonly minLength?: number
  readonly required?: ReadonlyArray<string>
  readonly properties?: Readonly<Record<string, Schema>>
  readonly items?: Schema
}

/** A served operation (one row of `OPERATIONS`). */
export interface Operation {
  /** `METHOD path` as the document writes it: `GET /api/v1/tenants/{tenant_id}/notes`. */
  readonly key: string
  readonly method: string
  readonly path: string
  /** The path for `FakeServer`: `GET /api/v1/tenants/:tenant_id/notes`. */
  readonly route: string
  /** Where the path item starts in the original document (`v1:<line>`). */
  readonly source: string
  readonly summary: string
  /** The success status the document gives (200 or 201). */
  readonly status: number
  readonly request: Schema | null
  readonly response: Schema | null
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// A value for a property the fake has no value for and the document does not let be null.
const empty = (schema: Schema): unknown => {
  switch (schema.type) {
    case "object":
      return shape(schema, {})
    case "array":
      return []
    case "string":
      return ""
    case "boolean":
      return false
    default:
      return 0
  }
}

/**
 * `value` with exactly the schema's properties, in the document's order: the fake's value where it
 * has one (shaped in turn), else `null` where the document allows it, else the type's empty value
 * (`""`, `0`, `false`, `[]`, an object of empty values). What the document does not list is dropped.
 */
export const shape = (schema: Schema | null, value: unknown): unknown => {
  if (schema === null) return value
  if (value === undefined || value === null) return schema.nullable === true ? null : empty(schema)
  if (schema.type === "object" && isRecord(value) && schema.properties !== undefined) {
    return Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [name, shape(property, value[name])])
    )
  }
  if (schema.type === "array" && Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items
    return value.map((item) => shape(items, item))
  }
  return value
}

const typeOk = (schema: Schema, value: unknown): boolean => {
  switch (schema.type) {
    case "object":
      return isRecord(value)
    case "array":
      return Array.isArray(value)
    case "string":
      return typeof value === "string"
    case "integer":
      return Number.isInteger(value)
    case "number":
      return typeof value === "number" && Number.isFinite(value)
    case "boolean":
      return typeof value === "boolean"
  }
}

/**
 * What is wrong with `value` against `schema` (empty: it validates). `exact`: an object must have
 * every property the schema lists and no other (how the fake's answers are checked; the document's
 * response schemas list no `required`).
 */
export const validate = (
  schema: Schema,
  value: unknown,
  options: { readonly exact: boolean },
  at = "$"
): Array<string> => {
  if (value === null) return schema.nullable === true ? [] : [`${at}: null, not ${schema.type}`]
  if (!typeOk(schema, value)) return [`${at}: ${JSON.stringify(value)} is not ${schema.type}`]
  const problems: Array<string> = []
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    problems.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(", ")}`)
  }
  if (schema.minLength !== undefined && typeof value === "string" && value.length < schema.minLength) {
    problems.push(`${at}: shorter than ${schema.minLength}`)
  }
  if (isRecord(value)) {
    const properties = schema.properties ?? {}
    const required = options.exact ? Object.keys(properties) : (schema.required ?? [])
    for (const name of required) if (!(name in value)) problems.push(`${at}.${name}: missing`)
    for (const [name, property] of Object.entries(value)) {
      const propertySchema = properties[name]
      if (propertySchema !== undefined) problems.push(...validate(propertySchema, property, options, `${at}.${name}`))
      else if (options.exact && schema.properties !== undefined) problems.push(`${at}.${name}: not in the document`)
    }
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items
    value.forEach((item, i) => problems.push(...validate(items, item, options, `${at}[${i}]`)))
  }
  return problems
}

/**
 * A request body against the operation's request schema: `{ body }` (parsed), or the status and
 * message to refuse it with — 400 for JSON that is not an object, 422 for a required property
 * missing or a property of the wrong type, length or value (the document's `required`, `type`,
 * `minLength`, `enum`).
 */
export const checkRequest = (
  operation: Operation,
  raw: string
): { readonly body: Record<string, unknown> } | { readonly status: number; readonly message: string } => {
  if (operation.request === null) return { body: {} }
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    return { status: 400, message: "Malformed JSON" }
  }
  if (!isRecord(body)) return { status: 400, message: "Malformed JSON" }
  for (const name of operation.request.required ?? []) {
    if (body[name] === undefined || body[name] === null) return { status: 422, message: `${name} can't be blank` }
  }
  const problem = validate(operation.request, body, { exact: false })[0]
  return problem === undefined ? { body } : { status: 422, message: problem.replace(/^\$\./, "") }
}

/** A served operation's handler, given the request, the `before` hook's context and the checked body. */
export type Handler<C> = (
  request: FakeServer.Request,
  context: C,
  body: Record<string, unknown>
) => FakeServer.Response

/**
 * The fake's routes, one per operation in the document's table: the body checked first, then the
 * handler, whose success answer (the operation's status) is shaped to the response schema. An
 * operation without a handler, or a handler without an operation, is a programming error (thrown
 * when the fake starts), so the table and the fake cannot drift apart.
 */
export const mount = <C>(
  operations: ReadonlyArray<Operation>,
  handlers: Readonly<Record<string, Handler<C>>>,
  error: (status: number, message: string) => FakeServer.Response
): Array<FakeServer.Route<C>> => {
  const keys = new Set(operations.map((o) => o.key))
  const unknown = Object.keys(handlers).filter((key) => !keys.has(key))
  const missing = operations.filter((o) => handlers[o.key] === undefined).map((o) => o.key)
  if (unknown.length > 0 || missing.length > 0) {
    throw new Error(
      `fake Shop-Ware: no operation for ${unknown.join(", ") || "-"}; no handler for ${missing.join(", ") || "-"}`
    )
  }
  return operations.map((operation) => ({
    route: operation.route,
    handle: (request, context) => {
      const checked = checkRequest(operation, request.body)
      if (!("body" in checked)) return error(checked.status, checked.message)
      const response = handlers[operation.key]!(request, context, checked.body)
      return response.status === operation.status
        ? { ...response, body: shape(operation.response, response.body) }
        : response
    }
  }))
}
