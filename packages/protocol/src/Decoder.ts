/**
 * `Decoder`: a decoder compiled once from a Schema's AST into plain closures, for the hot path of
 * responses. On a valid input it produces the value Effect's decoder would, without its
 * per-field allocations; on any other input the answer (and its message) is
 * `Schema.decodeUnknownEither`'s own. Node kinds it does not cover are decoded by Effect's parser.
 * Both clients decode the protocol's response schemas with it.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

const FAIL: unique symbol = Symbol("compiledDecoder/fail")
type Step = (input: unknown) => unknown

/** What one compilation shares: its steps by node, and the parse options (as Effect gets them). */
interface Context {
  readonly memo: Map<AST.AST, Step>
  readonly options: AST.ParseOptions
  /** `onExcessProperty: "error"`: a key a struct does not declare fails the fast path. */
  readonly excessIsError: boolean
}

/**
 * Options of `compiledDecoder`: the parse options it honours (`onExcessProperty` "ignore", the
 * default, or "error"; errors are always the first one's, as Effect's default).
 *
 * @example
 * import type { Decoder } from "@shoplink/protocol"
 * const strict: Decoder.CompileOptions = { onExcessProperty: "error" }
 *
 * @since 0.1.0
 */
export interface CompileOptions {
  readonly onExcessProperty?: "ignore" | "error" | undefined
}

const contextOf = (options: CompileOptions | undefined): Context => {
  const excessIsError = options?.onExcessProperty === "error"
  return {
    memo: new Map(),
    options: excessIsError ? { onExcessProperty: "error" } : AST.defaultParseOption,
    excessIsError
  }
}

// Every own key of `u` is one of `names`.
const onlyKnownKeys = (u: object, names: ReadonlySet<PropertyKey>): boolean => {
  const keys = Reflect.ownKeys(u)
  for (let i = 0; i < keys.length; i++) if (!names.has(keys[i]!)) return false
  return true
}

const isRecord = (u: unknown): u is Record<PropertyKey, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)
const hasOwn = Object.prototype.hasOwnProperty

// Effect's parser for one node, as a step.
const delegate = (ast: AST.AST, ctx: Context): Step => {
  const parse = ParseResult.decodeUnknownEither(Schema.make(ast), ctx.options)
  return (input) => {
    const result = parse(input)
    return Either.isRight(result) ? result.right : FAIL
  }
}

// Effect-returned values that may be plain Effects: only an Either can be read synchronously here.
const fromResult = (result: unknown): unknown => {
  if (!Either.isEither(result)) return FAIL
  return Either.isRight(result) ? result.right : FAIL
}

// Whether a union member has a literal key (a required property or element whose encoded type is
// a literal), as Effect's `getLiterals` decides: Effect then tries candidates by key first, so such
// unions are left to it. Members without one are tried in order, as here.
const hasLiteralKey = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "Declaration": {
      const surrogate = AST.getSurrogateAnnotation(ast)
      return Option.isSome(surrogate) && hasLiteralKey(surrogate.value)
    }
    case "TypeLiteral":
      return ast.propertySignatures.some((ps) => !ps.isOptional && AST.isLiteral(AST.encodedAST(ps.type)))
    case "TupleType":
      return ast.elements.some((e) => !e.isOptional && AST.isLiteral(AST.encodedAST(e.type)))
    case "Refinement":
      return hasLiteralKey(ast.from)
    case "Suspend":
      return hasLiteralKey(ast.f())
    case "Transformation":
      return hasLiteralKey(ast.from)
    default:
      return false
  }
}

const ABSENT: unique symbol = Symbol("compiledDecoder/absent")

/**
 * Builds a struct's output: with every key present, a copy of a template object with all keys in
 * order (sized once, where adding keys one by one grows the object several times), filled in;
 * otherwise key by key. Values are gathered in a scratch array, one per struct step unless the
 * step is re-entered (a recursive schema).
 */
const outputBuilder = (names: ReadonlyArray<PropertyKey>) => {
  const template: Record<PropertyKey, unknown> = {}
  for (const name of names) template[name] = undefined
  const count = names.length
  let scratch: Array<unknown> | undefined = new Array(count)
  return {
    values: (): Array<unknown> => {
      const values = scratch ?? new Array(count)
      scratch = undefined
      return values
    },
    release: (values: Array<unknown>): typeof FAIL => {
      scratch = values
      return FAIL
    },
    output: (values: Array<unknown>, present: number): Record<PropertyKey, unknown> => {
      let output: Record<PropertyKey, unknown>
      if (present === count) {
        output = { ...template }
        for (let i = 0; i < count; i++) output[names[i]!] = values[i]
      } else {
        output = {}
        for (let i = 0; i < count; i++) if (values[i] !== ABSENT) output[names[i]!] = values[i]
      }
      values.fill(undefined)
      scratch = values
      return output
    }
  }
}

const compile = (ast: AST.AST, ctx: Context): Step => {
  const known = ctx.memo.get(ast)
  if (known !== undefined) return known
  // Recursive schemas reach themselves through `suspend`: resolve at first use.
  const lazy: Step = (input) => step(input)
  ctx.memo.set(ast, lazy)
  const step = build(ast, ctx)
  ctx.memo.set(ast, step)
  return step
}

const build = (ast: AST.AST, ctx: Context): Step => {
  // A node with its own parse options or a decoding fallback answers as Effect makes it answer.
  if (Option.isSome(AST.getParseOptionsAnnotation(ast)) || Option.isSome(AST.getDecodingFallbackAnnotation(ast))) {
    return delegate(ast, ctx)
  }
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => typeof u === "string" ? u : FAIL
    case "NumberKeyword":
      return (u) => typeof u === "number" ? u : FAIL
    case "BooleanKeyword":
      return (u) => typeof u === "boolean" ? u : FAIL
    case "BigIntKeyword":
      return (u) => typeof u === "bigint" ? u : FAIL
    case "SymbolKeyword":
      return (u) => typeof u === "symbol" ? u : FAIL
    case "UndefinedKeyword":
      return (u) => u === undefined ? u : FAIL
    case "UnknownKeyword":
    case "AnyKeyword":
    case "VoidKeyword":
      return (u) => u
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal ? u : FAIL
    }
    case "Enums": {
      const values = ast.enums.map(([, value]) => value)
      return (u) => values.includes(u as string | number) ? u : FAIL
    }
    case "Refinement": {
      const from = compile(ast.from, ctx)
      const refinement = ast
      return (u) => {
        const a = from(u)
        if (a === FAIL) return FAIL
        return Option.isNone(refinement.filter(a, ctx.options, refinement)) ? a : FAIL
      }
    }
    case "TypeLiteral": {
      if (ast.indexSignatures.length > 0) return delegate(ast, ctx)
      const fields = ast.propertySignatures.map((ps) => ({
        name: ps.name,
        optional: ps.isOptional,
        decode: compile(ps.type, ctx)
      }))
      const names = ctx.excessIsError ? new Set(fields.map((field) => field.name)) : undefined
      const build = outputBuilder(fields.map((field) => field.name))
      return (u) => {
        if (!isRecord(u)) return FAIL
        if (names !== undefined && !onlyKnownKeys(u, names)) return FAIL
        const values = build.values()
        let present = 0
        for (let i = 0; i < fields.length; i++) {
          const field = fields[i]!
          const name = field.name
          if (!hasOwn.call(u, name) && field.optional) {
            values[i] = ABSENT
            continue
          }
          // A missing required key is decoded as `undefined`, as Effect does without `exact`.
          const value = field.decode(u[name])
          if (value === FAIL) return build.release(values)
          values[i] = value
          present++
        }
        return build.output(values, present)
      }
    }
    case "TupleType": {
      if (ast.rest.length > 1) return delegate(ast, ctx)
      const elements = ast.elements.map((e) => ({ optional: e.isOptional, decode: compile(e.type, ctx) }))
      const rest = ast.rest.length === 1 ? compile(ast.rest[0]!.type, ctx) : undefined
      const required = ast.elements.filter((e) => !e.isOptional).length
      return (u) => {
        if (!Array.isArray(u)) return FAIL
        const len = u.length
        if (len < required) return FAIL
        if (rest === undefined && len > elements.length) return FAIL
        const output: Array<unknown> = []
        let i = 0
        for (; i < elements.length; i++) {
          if (len < i + 1) continue
          const value = elements[i]!.decode(u[i])
          if (value === FAIL) return FAIL
          output.push(value)
        }
        if (rest !== undefined) {
          for (; i < len; i++) {
            const value = rest(u[i])
            if (value === FAIL) return FAIL
            output.push(value)
          }
        }
        return output
      }
    }
    case "Union": {
      // With a literal-keyed member, Effect picks candidates by key first: leave that to it.
      if (ast.types.some(hasLiteralKey)) return delegate(ast, ctx)
      const members = ast.types.map((member) => compile(member, ctx))
      return (u) => {
        for (let i = 0; i < members.length; i++) {
          const value = members[i]!(u)
          if (value !== FAIL) return value
        }
        return FAIL
      }
    }
    case "Transformation": {
      const from = compile(ast.from, ctx)
      const to = compile(ast.to, ctx)
      const transformation = ast.transformation
      const self = ast
      switch (transformation._tag) {
        case "ComposeTransformation":
          return (u) => {
            const a = from(u)
            return a === FAIL ? FAIL : to(a)
          }
        case "FinalTransformation":
          return (u) => {
            const a = from(u)
            if (a === FAIL) return FAIL
            const b = fromResult(transformation.decode(a, ctx.options, self, u))
            return b === FAIL ? FAIL : to(b)
          }
        case "TypeLiteralTransformation": {
          const steps = transformation.propertySignatureTransformations
          const target = ast.to
          if (AST.isTypeLiteral(target) && target.indexSignatures.length === 0) {
            // Fused: Effect deletes and re-adds keys on the intermediate object, then decodes the
            // target struct from it; the target's own property order makes the output, so the
            // changes can sit in an overlay instead (no `delete`, which slows every later read).
            const fields = target.propertySignatures.map((ps) => ({
              name: ps.name,
              optional: ps.isOptional,
              decode: compile(ps.type, ctx)
            }))
            const names = ctx.excessIsError ? new Set(fields.map((field) => field.name)) : undefined
            // The usual case (`optionalWith`): each transformation reads and writes one key of its
            // own, declared by the target. Then each target field knows its transformation, and
            // no overlay is needed at all.
            const ownKey = steps.every((pst) => pst.from === pst.to) &&
              new Set(steps.map((pst) => pst.from)).size === steps.length
            const byField = fields.map((field) => steps.find((pst) => pst.to === field.name))
            if (ownKey && steps.every((pst) => fields.some((field) => field.name === pst.to))) {
              // And when `from` is a plain struct of the same keys: read the input directly, with
              // no intermediate object.
              const source = ast.from
              if (
                AST.isTypeLiteral(source) && source.indexSignatures.length === 0 &&
                source.propertySignatures.length === fields.length &&
                Option.isNone(AST.getParseOptionsAnnotation(source)) &&
                Option.isNone(AST.getDecodingFallbackAnnotation(source)) &&
                fields.every((field) => source.propertySignatures.some((ps) => ps.name === field.name))
              ) {
                const sources = fields.map((field) => {
                  const ps = source.propertySignatures.find((candidate) => candidate.name === field.name)!
                  return { optional: ps.isOptional, decode: compile(ps.type, ctx) }
                })
                const build = outputBuilder(fields.map((field) => field.name))
                return (u) => {
                  if (!isRecord(u)) return FAIL
                  if (names !== undefined && !onlyKnownKeys(u, names)) return FAIL
                  const values = build.values()
                  let count = 0
                  for (let i = 0; i < fields.length; i++) {
                    const field = fields[i]!
                    const name = field.name
                    const from = sources[i]!
                    // The `from` struct's rule: an optional key may be absent; a missing required
                    // one is decoded as `undefined`.
                    let present = hasOwn.call(u, name) || !from.optional
                    let input: unknown
                    if (present) {
                      input = from.decode(u[name])
                      if (input === FAIL) return build.release(values)
                    }
                    const pst = byField[i]
                    if (pst !== undefined) {
                      const o = pst.decode(present ? Option.some(input) : Option.none())
                      present = Option.isSome(o)
                      input = present ? (o as Option.Some<unknown>).value : undefined
                    }
                    if (!present && field.optional) {
                      values[i] = ABSENT
                      continue
                    }
                    const value = field.decode(input)
                    if (value === FAIL) return build.release(values)
                    values[i] = value
                    count++
                  }
                  return build.output(values, count)
                }
              }
              return (u) => {
                const a = from(u)
                if (a === FAIL) return FAIL
                const record = a as Record<PropertyKey, unknown>
                if (names !== undefined && !onlyKnownKeys(record, names)) return FAIL
                const output: Record<PropertyKey, unknown> = {}
                for (let i = 0; i < fields.length; i++) {
                  const field = fields[i]!
                  const name = field.name
                  const pst = byField[i]
                  let present: boolean
                  let input: unknown
                  if (pst === undefined) {
                    present = hasOwn.call(record, name)
                    input = record[name]
                  } else {
                    const o = pst.decode(hasOwn.call(record, name) ? Option.some(record[name]) : Option.none())
                    present = Option.isSome(o)
                    input = present ? (o as Option.Some<unknown>).value : undefined
                  }
                  if (!present && field.optional) continue
                  const value = field.decode(input)
                  if (value === FAIL) return FAIL
                  output[name] = value
                }
                return output
              }
            }
            return (u) => {
              const a = from(u)
              if (a === FAIL) return FAIL
              const record = a as Record<PropertyKey, unknown>
              const overlay = new Map<PropertyKey, Option.Option<unknown>>()
              for (let i = 0; i < steps.length; i++) {
                const pst = steps[i]!
                const current = overlay.get(pst.from) ??
                  (hasOwn.call(record, pst.from) ? Option.some(record[pst.from]) : Option.none())
                overlay.set(pst.from, Option.none())
                const o = pst.decode(current)
                if (Option.isSome(o)) overlay.set(pst.to, o)
              }
              if (names !== undefined) {
                // Effect checks the changed object's keys against the target struct too.
                for (const key of Reflect.ownKeys(record)) if (!overlay.has(key) && !names.has(key)) return FAIL
                for (const [key, value] of overlay) if (Option.isSome(value) && !names.has(key)) return FAIL
              }
              const output: Record<PropertyKey, unknown> = {}
              for (let i = 0; i < fields.length; i++) {
                const field = fields[i]!
                const name = field.name
                const changed = overlay.get(name)
                const present = changed === undefined ? hasOwn.call(record, name) : Option.isSome(changed)
                if (!present && field.optional) continue
                const value = field.decode(changed === undefined ? record[name] : Option.getOrUndefined(changed))
                if (value === FAIL) return FAIL
                output[name] = value
              }
              return output
            }
          }
          return (u) => {
            const a = from(u)
            if (a === FAIL) return FAIL
            // `a` is a fresh object made by `from`: changed in place, as Effect does.
            const record = a as Record<PropertyKey, unknown>
            for (let i = 0; i < steps.length; i++) {
              const pst = steps[i]!
              const o = pst.decode(hasOwn.call(record, pst.from) ? Option.some(record[pst.from]) : Option.none())
              delete record[pst.from]
              if (Option.isSome(o)) record[pst.to] = o.value
            }
            return to(record)
          }
        }
      }
      return delegate(ast, ctx)
    }
    case "Declaration": {
      const parse = ast.decodeUnknown(...ast.typeParameters)
      const self = ast
      return (u) => fromResult(parse(u, ctx.options, self))
    }
    case "Suspend": {
      const f = ast.f
      let inner: Step | undefined
      return (u) => (inner ??= compile(f(), ctx))(u)
    }
    default:
      return delegate(ast, ctx)
  }
}

/**
 * A decoder for `schema`, built once: the compiled fast path, and Effect's own decoder for any
 * input the fast path does not accept (so every error is Effect's).
 *
 * @example
 * import { Decoder, Punchout } from "@shoplink/protocol"
 * const decode = Decoder.compiledDecoder(Punchout.GetProductQuotesResponse)
 * decode({ quotes: "not an array" }) // Left(ParseError), Effect's own message
 *
 * @since 0.1.0
 */
export const compiledDecoder = <A, I, R>(
  schema: Schema.Schema<A, I, R>,
  options?: CompileOptions
): (u: unknown) => Either.Either<A, ParseResult.ParseError> => {
  const ctx = contextOf(options)
  const reference = Schema.decodeUnknownEither(schema as Schema.Schema<A, I, never>, ctx.options)
  const fast = compile(schema.ast, ctx)
  return (u) => {
    const value = fast(u)
    return value === FAIL ? reference(u) : Either.right(value as A)
  }
}

/**
 * The fast path alone (for tests): the decoded value, or `undefined` where Effect's decoder would answer.
 *
 * @example
 * import { Schema } from "effect"
 * import { Decoder } from "@shoplink/protocol"
 * Decoder.fastPathOf(Schema.Struct({ a: Schema.Number }))({ a: 1 }) // { value: { a: 1 } }
 *
 * @since 0.1.0
 */
export const fastPathOf = <A, I, R>(
  schema: Schema.Schema<A, I, R>,
  options?: CompileOptions
): (u: unknown) => { readonly value: A } | undefined => {
  const fast = compile(schema.ast, contextOf(options))
  return (u) => {
    const value = fast(u)
    return value === FAIL ? undefined : { value: value as A }
  }
}

/**
 * Whether encoding a decoded value gives back the same value (no transformation and no
 * declaration anywhere in the schema): then the decoded value is already its wire form.
 *
 * @example
 * import { Schema } from "effect"
 * import { Decoder } from "@shoplink/protocol"
 * Decoder.encodesToItself(Schema.Struct({ a: Schema.String })) // true
 * Decoder.encodesToItself(Schema.Struct({ a: Schema.NumberFromString })) // false
 *
 * @since 0.1.0
 */
export const encodesToItself = (schema: Schema.Schema.Any): boolean => {
  const seen = new Set<AST.AST>()
  const plain = (ast: AST.AST): boolean => {
    if (seen.has(ast)) return true
    seen.add(ast)
    switch (ast._tag) {
      case "Transformation":
      case "Declaration":
      case "Suspend":
        return false
      case "Refinement":
        return plain(ast.from)
      case "TypeLiteral":
        return ast.indexSignatures.length === 0 && ast.propertySignatures.every((ps) => plain(ps.type))
      case "TupleType":
        return ast.elements.every((e) => plain(e.type)) && ast.rest.every((r) => plain(r.type))
      case "Union":
        return ast.types.every(plain)
      default:
        return true
    }
  }
  return plain(schema.ast)
}

// ---------------------------------------------------------------------------------------------
// Encoding (issue #29): request bodies and queries, compiled once per schema like the responses.

// Effect's encoder for one node, as a step.
const delegateEncode = (ast: AST.AST, ctx: Context): Step => {
  const encode = ParseResult.encodeUnknownEither(Schema.make(ast), ctx.options)
  return (input) => {
    const result = encode(input)
    return Either.isRight(result) ? result.right : FAIL
  }
}

// No transformation, declaration or suspension below: encoding is decoding (the same checks, the
// same value), so the compiled decoder's step serves.
const plain = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "Transformation":
    case "Declaration":
    case "Suspend":
      return false
    case "Refinement":
      return plain(ast.from)
    case "TypeLiteral":
      return ast.indexSignatures.every((is) => plain(is.type)) && ast.propertySignatures.every((ps) => plain(ps.type))
    case "TupleType":
      return ast.elements.every((e) => plain(e.type)) && ast.rest.every((r) => plain(r.type))
    case "Union":
      return ast.types.every(plain)
    default:
      return true
  }
}

interface EncodeContext extends Context {
  readonly encodeMemo: Map<AST.AST, Step>
}

const compileEncode = (ast: AST.AST, ctx: EncodeContext): Step => {
  const known = ctx.encodeMemo.get(ast)
  if (known !== undefined) return known
  const lazy: Step = (input) => step(input)
  ctx.encodeMemo.set(ast, lazy)
  const step = buildEncode(ast, ctx)
  ctx.encodeMemo.set(ast, step)
  return step
}

// Mirrors `ParseResult`'s encoding direction: a transformation encodes its `to` side, applies its
// `encode`, then encodes its `from` side; a refinement checks the type side (its filter included)
// and encodes what it refines; structs and arrays encode member by member.
const buildEncode = (ast: AST.AST, ctx: EncodeContext): Step => {
  if (Option.isSome(AST.getParseOptionsAnnotation(ast))) return delegateEncode(ast, ctx)
  if (plain(ast)) return compile(ast, ctx)
  switch (ast._tag) {
    case "Refinement": {
      const check = compile(AST.typeAST(ast), ctx)
      let from: AST.AST = ast.from
      while (AST.isRefinement(from)) from = from.from
      const next = compileEncode(from, ctx)
      return (input) => {
        const checked = check(input)
        return checked === FAIL ? FAIL : next(checked)
      }
    }
    case "Transformation": {
      const transformation = ast.transformation
      if (transformation._tag === "TypeLiteralTransformation") return delegateEncode(ast, ctx)
      const to = compileEncode(ast.to, ctx)
      const from = compileEncode(ast.from, ctx)
      if (transformation._tag === "ComposeTransformation") {
        return (input) => {
          const a = to(input)
          return a === FAIL ? FAIL : from(a)
        }
      }
      const options = ctx.options
      return (input) => {
        const a = to(input)
        if (a === FAIL) return FAIL
        const i = fromResult(transformation.encode(a, options, ast, input))
        return i === FAIL ? FAIL : from(i)
      }
    }
    case "TypeLiteral": {
      if (ast.indexSignatures.length > 0) return delegateEncode(ast, ctx)
      const signatures = ast.propertySignatures.map((ps) => ({
        name: ps.name,
        optional: ps.isOptional,
        step: compileEncode(ps.type, ctx)
      }))
      const names = new Set<PropertyKey>(signatures.map((s) => s.name))
      const excessIsError = ctx.excessIsError
      return (input) => {
        if (!isRecord(input)) return FAIL
        if (excessIsError && !onlyKnownKeys(input, names)) return FAIL
        const output: Record<PropertyKey, unknown> = {}
        for (let i = 0; i < signatures.length; i++) {
          const signature = signatures[i]!
          if (!hasOwn.call(input, signature.name)) {
            if (signature.optional) continue
            return FAIL
          }
          const value = signature.step(input[signature.name])
          if (value === FAIL) return FAIL
          output[signature.name] = value
        }
        return output
      }
    }
    case "TupleType": {
      // Plain arrays only; tuples with elements are Effect's.
      if (ast.elements.length > 0 || ast.rest.length !== 1) return delegateEncode(ast, ctx)
      const item = compileEncode(ast.rest[0]!.type, ctx)
      return (input) => {
        if (!Array.isArray(input)) return FAIL
        const output: Array<unknown> = new Array(input.length)
        for (let i = 0; i < input.length; i++) {
          const value = item(input[i])
          if (value === FAIL) return FAIL
          output[i] = value
        }
        return output
      }
    }
    case "Union": {
      if (ast.types.some(hasLiteralKey)) return delegateEncode(ast, ctx)
      const members = ast.types.map((member) => compileEncode(member, ctx))
      return (input) => {
        for (let i = 0; i < members.length; i++) {
          const value = members[i]!(input)
          if (value !== FAIL) return value
        }
        return FAIL
      }
    }
    case "Suspend": {
      let inner: Step | undefined
      return (input) => (inner ??= compileEncode(ast.f(), ctx))(input)
    }
    default:
      return delegateEncode(ast, ctx)
  }
}

/**
 * An encoder for `schema`, built once (issue #29): a compiled fast path that answers as
 * `Schema.encodeUnknownEither` does (the same wire value, keys in the same order), and Effect's own
 * encoder for any input the fast path does not accept (so every error is Effect's). The clients
 * encode request bodies and queries with it. Options as `compiledDecoder`'s.
 *
 * @example
 * import { Decoder, Punchout } from "@shoplink/protocol"
 * const encode = Decoder.compiledEncoder(Punchout.GetProductQuotesRequest, { onExcessProperty: "error" })
 * const request = { productID: "51515", brandID: "WIX", quantity: 2 }
 * encode(request) // Right({ productID: "51515", brandID: "WIX", quantity: "2" })
 *
 * @since 0.1.0
 */
export const compiledEncoder = <A, I, R>(
  schema: Schema.Schema<A, I, R>,
  options?: CompileOptions
): (u: unknown) => Either.Either<I, ParseResult.ParseError> => {
  const ctx: EncodeContext = { ...contextOf(options), encodeMemo: new Map() }
  const reference = Schema.encodeUnknownEither(schema as Schema.Schema<A, I, never>, ctx.options)
  const fast = compileEncode(schema.ast, ctx)
  return (u) => {
    const value = fast(u)
    return value === FAIL ? reference(u) : Either.right(value as I)
  }
}

/**
 * The encoding fast path alone (for tests): the encoded value, or `undefined` where Effect's
 * encoder would answer.
 *
 * @example
 * import { Schema } from "effect"
 * import { Decoder } from "@shoplink/protocol"
 * Decoder.encodeFastPathOf(Schema.Struct({ n: Schema.NumberFromString }))({ n: 1 }) // { value: { n: "1" } }
 *
 * @since 0.1.0
 */
export const encodeFastPathOf = <A, I, R>(
  schema: Schema.Schema<A, I, R>,
  options?: CompileOptions
): (u: unknown) => { readonly value: I } | undefined => {
  const fast = compileEncode(schema.ast, { ...contextOf(options), encodeMemo: new Map() })
  return (u) => {
    const value = fast(u)
    return value === FAIL ? undefined : { value: value as I }
  }
}
