/**
 * A parse error as one line naming the field and the rule (`apiToken must not be empty`), with
 * the field path and the rule kept apart for callers that build structured errors. Both clients
 * format their `InvalidInput` errors, and webhook decoders their payload errors, with it.
 *
 * It never prints the offending value itself (only its kind or a short excerpt), so a 200 KB
 * string or a deeply nested array cannot make a long message or overflow the stack.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as Predicate from "effect/Predicate"
import * as AST from "effect/SchemaAST"

/**
 * The first broken rule of a parse error.
 * - `path`: where, from the root of the value (`["orderLines", 0, "quantity"]`).
 * - `field`: the path joined with dots (`orderLines.0.quantity`); `""` for the value itself.
 * - `rule`: the rule without the field name (`must be a positive whole number, got 0`).
 * - `message`: one line, the field then the rule.
 *
 * @example
 * import type { Violation } from "@shoplink/protocol"
 * const violation: Violation.Violation = {
 *   path: ["apiToken"], field: "apiToken", rule: "must not be empty", message: "apiToken must not be empty"
 * }
 *
 * @since 0.1.0
 */
export interface Violation {
  readonly path: ReadonlyArray<PropertyKey>
  readonly field: string
  readonly rule: string
  readonly message: string
}

// Long enough for every rule message in the protocol, short enough for a log line.
const MAX_RULE_LENGTH = 200
const MAX_EXCERPT_LENGTH = 40

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim()

// The kind of a value, or the value itself when it is short and not a secret: never a walk
// through its contents.
const describeActual = (actual: unknown, secret: boolean): string => {
  if (actual === null) return "null"
  if (secret) {
    return typeof actual === "object"
      ? (Array.isArray(actual) ? "an array" : "an object")
      : `a ${typeof actual}`
  }
  switch (typeof actual) {
    case "undefined":
      return "undefined"
    case "string":
      return actual.length > MAX_EXCERPT_LENGTH ? `a string of ${actual.length} characters` : JSON.stringify(actual)
    case "number":
    case "boolean":
    case "bigint":
      return String(actual)
    case "symbol":
      return "a symbol"
    case "function":
      return "a function"
    default:
      return Array.isArray(actual) ? `an array of ${actual.length}` : "an object"
  }
}

const expectedOf = (ast: AST.AST): string => {
  const annotated = AST.getIdentifierAnnotation(ast).pipe(
    Option.orElse(() => AST.getTitleAnnotation(ast)),
    Option.orElse(() => AST.getDescriptionAnnotation(ast))
  )
  if (Option.isSome(annotated)) return annotated.value
  try {
    return truncate(String(ast), 60)
  } catch {
    return "a valid value"
  }
}

interface Message {
  readonly message: string
  readonly override: boolean
}

// A `message` annotation, as Schema's own formatters read it; an annotation that fails is ignored.
const annotatedMessage = (issue: ParseResult.ParseIssue): Message | undefined => {
  if (!("ast" in issue)) return undefined
  const annotation = AST.getMessageAnnotation(issue.ast)
  if (annotation._tag === "None") return undefined
  try {
    const run = (value: string | Effect.Effect<string>): string | undefined => {
      if (Predicate.isString(value)) return value
      const exit = Effect.runSyncExit(Effect.either(value))
      return exit._tag === "Success" && Either.isRight(exit.value) ? exit.value.right : undefined
    }
    // Message annotations may return an Effect without requirements (Schema runs them the same way).
    const result = annotation.value(issue) as string | Effect.Effect<string> | {
      readonly message: string | Effect.Effect<string>
      readonly override: boolean
    }
    if (Predicate.isString(result) || Effect.isEffect(result)) {
      const message = run(result)
      return message === undefined ? undefined : { message, override: false }
    }
    const message = run(result.message)
    return message === undefined ? undefined : { message, override: result.override }
  } catch {
    return undefined
  }
}

// Under a `Schema.Redacted` field the value is a secret: its kind is shown, never the value.
const isRedacted = (ast: AST.AST): boolean => {
  const target = AST.isTransformation(ast) ? ast.to : ast
  return Option.exists(
    AST.getTypeConstructorAnnotation(target),
    (tc) => (tc as { readonly _tag?: unknown })._tag === "effect/Redacted"
  )
}

// Follows the first failing branch down to the rule that broke, collecting the path. The walk is
// a loop over the issue (whose depth is the schema's, not the value's).
const firstOf = (
  issue: ParseResult.ParseIssue
): { readonly path: ReadonlyArray<PropertyKey>; readonly message: string } => {
  const path: Array<PropertyKey> = []
  let current: ParseResult.ParseIssue = issue
  let secret = false
  for (let guard = 0; guard < 1000; guard++) {
    const annotated = annotatedMessage(current)
    if ("ast" in current && isRedacted(current.ast as AST.AST)) secret = true
    switch (current._tag) {
      case "Pointer":
        path.push(...(Array.isArray(current.path) ? current.path : [current.path]))
        current = current.issue
        continue
      case "Composite":
        if (annotated !== undefined && annotated.override) return { path, message: annotated.message }
        if (Array.isArray(current.issues)) {
          const first = current.issues[0]
          if (first === undefined) return { path, message: annotated?.message ?? `must be ${expectedOf(current.ast)}` }
          current = first
        } else {
          current = current.issues as ParseResult.ParseIssue
        }
        continue
      case "Refinement":
        if (annotated !== undefined && (annotated.override || current.kind === "Predicate")) {
          return { path, message: annotated.message }
        }
        current = current.issue
        continue
      case "Transformation":
        if (annotated !== undefined && (annotated.override || current.kind === "Transformation")) {
          return { path, message: annotated.message }
        }
        current = current.issue
        continue
      case "Type":
        return {
          path,
          message: annotated?.message ?? current.message ??
            `must be ${expectedOf(current.ast)}, got ${describeActual(current.actual, secret)}`
        }
      case "Missing": {
        const missing = AST.getMissingMessageAnnotation(current.ast)
        const text = missing._tag === "Some" ? missing.value() : undefined
        return { path, message: Predicate.isString(text) ? text : current.message ?? "is missing" }
      }
      case "Unexpected":
        return { path, message: current.message ?? "is not allowed" }
      case "Forbidden":
        return { path, message: current.message ?? "is forbidden" }
    }
  }
  return { path, message: "is invalid" }
}

/**
 * The first broken rule of a parse error (or issue), formatted safely whatever the value.
 *
 * @example
 * import { Either, Schema } from "effect"
 * import { Violation } from "@shoplink/protocol"
 * const Body = Schema.Struct({
 *   apiToken: Schema.String.pipe(Schema.filter((s) => s.length > 0 || "apiToken must not be empty"))
 * })
 * const result = Schema.decodeUnknownEither(Body)({ apiToken: "" })
 * if (Either.isLeft(result)) {
 *   const violation = Violation.first(result.left)
 *   violation.field // "apiToken"
 *   violation.rule // "must not be empty"
 *   violation.message // "apiToken must not be empty"
 * }
 *
 * @since 0.1.0
 */
export const first = (error: ParseResult.ParseError | ParseResult.ParseIssue): Violation => {
  const { message, path } = firstOf(error._tag === "ParseError" ? error.issue : error)
  const field = path.map(String).join(".")
  const text = truncate(oneLine(message), MAX_RULE_LENGTH)
  // Rule messages name their field ("orderID must …"); keep the rule without it, and the path once.
  const leaf = path.length === 0 ? undefined : String(path[path.length - 1])
  const named = [field, leaf].find((name) => name !== undefined && name !== "" && text.startsWith(`${name} `))
  const rule = named === undefined ? text : text.slice(named.length + 1)
  return { path, field, rule, message: field === "" ? rule : `${field} ${rule}` }
}

/**
 * A parse error as one line: `first(error).message`.
 *
 * @example
 * import { Either, Schema } from "effect"
 * import { Violation } from "@shoplink/protocol"
 * const result = Schema.decodeUnknownEither(Schema.Struct({ quantity: Schema.Number }))({ quantity: "two" })
 * Either.isLeft(result) && Violation.format(result.left) // 'quantity must be number, got "two"'
 *
 * @since 0.1.0
 */
export const format = (error: ParseResult.ParseError | ParseResult.ParseIssue): string => first(error).message
